"""A PostgreSQL proxy on 127.0.0.1 that counts round trips and can add a delay to each one.

A database across a network costs every round trip about 0.5-1 ms more than one on this machine.
This proxy stands in for that network: every chunk the client sends reaches the server `delay_ms`
later (chunks keep their order and overlap in flight, so it adds latency, not a throughput cap),
and it counts the server's ReadyForQuery messages: one per round trip a client waited for (a simple
query or an extended-protocol batch ending in Sync each get exactly one).

    .venv/bin/python bench/pgproxy.py --to /path/to/socket/dir [--port 6543] [--delay-ms 1]

As a library (tests/test_round_trips.py, bench/load.py --pg-delay-ms): `PgProxy(target).start()`,
then `.url(user, password, database)` and `.round_trips`. Standard library only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import struct
import sys
from pathlib import Path

SSL_REQUEST = 80877103
GSSENC_REQUEST = 80877104


class PgProxy:
    """TCP on 127.0.0.1 to a PostgreSQL server's Unix socket directory (or host:port)."""

    def __init__(self, target: str, *, delay_ms: float = 0.0, port: int = 0) -> None:
        self.target = target
        self.delay_s = delay_ms / 1000
        self.port = port
        self.round_trips = 0
        self.connections = 0
        # set: every byte either way is dropped and no connection closed, as on a network that
        # loses packets (a heartbeat's unanswered question finds it)
        self.silent = False
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> PgProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def url(self, user: str, password: str, database: str) -> str:
        return f"postgresql://{user}:{password}@127.0.0.1:{self.port}/{database}?sslmode=disable"

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.target.startswith("/"):
            return await asyncio.open_unix_connection(str(Path(self.target) / ".s.PGSQL.5432"))
        host, _, port = self.target.rpartition(":")
        return await asyncio.open_connection(host, int(port))

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self.connections += 1
        server_w: asyncio.StreamWriter | None = None
        try:
            server_r, server_w = await self._open()
            # the client's first message says whether the server's first answer is a bare byte
            head = await client_r.readexactly(8)
            length, code = struct.unpack("!ii", head)
            bare = length == 8 and code in (SSL_REQUEST, GSSENC_REQUEST)
            server_w.write(head)
            # when either side closes, so does the other (a client that sent Terminate waits for it)
            ways = [
                asyncio.create_task(self._upstream(client_r, server_w)),
                asyncio.create_task(self._downstream(server_r, client_w, bare)),
            ]
            try:
                await asyncio.wait(ways, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for way in ways:
                    way.cancel()
                await asyncio.gather(*ways, return_exceptions=True)
        except (OSError, asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            for w in (client_w, server_w):
                if w is not None:
                    w.close()
            self._tasks.discard(task)

    async def _upstream(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Client to server, each chunk `delay_s` late (in order; chunks in flight overlap)."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def forward() -> None:
            while True:
                due, data = await queue.get()
                if not data:
                    writer.write_eof()
                    return
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                if self.silent:
                    continue
                writer.write(data)
                await writer.drain()

        sender = asyncio.create_task(forward())
        try:
            while True:
                data = await reader.read(65536)
                queue.put_nowait((loop.time() + self.delay_s, data))
                if not data:
                    break
            await sender
        finally:
            sender.cancel()

    async def _downstream(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, bare: bool
    ) -> None:
        """Server to client as it comes, counting ReadyForQuery ('Z') in the message stream."""
        buffer = b""
        counting = True
        if bare:
            answer = await reader.readexactly(1)
            writer.write(answer)
            counting = answer != b"S"  # TLS from here on: nothing more can be read
        while True:
            data = await reader.read(65536)
            if not data:
                return
            if self.silent:
                continue
            writer.write(data)
            if counting:
                buffer += data
                at = 0
                while len(buffer) - at >= 5:
                    kind = buffer[at : at + 1]
                    (length,) = struct.unpack("!i", buffer[at + 1 : at + 5])
                    if len(buffer) - at < 1 + length:
                        break
                    if kind == b"Z":
                        self.round_trips += 1
                    at += 1 + length
                buffer = buffer[at:]
            await writer.drain()


async def _main(args: argparse.Namespace) -> None:
    proxy = await PgProxy(args.to, delay_ms=args.delay_ms, port=args.port).start()
    if args.stats is not None:
        # SIGUSR1: write the counts so far (a benchmark reads them at its window's start and end)
        stats = Path(args.stats)

        def write() -> None:
            counts = {"port": proxy.port, "round_trips": proxy.round_trips, "connections": proxy.connections}
            stats.with_suffix(".tmp").write_text(json.dumps(counts))
            stats.with_suffix(".tmp").replace(stats)

        asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, write)
        write()
    print(f"listening on 127.0.0.1:{proxy.port}, to {args.to}, +{args.delay_ms} ms a round trip", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await proxy.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--to", required=True, help="the server's socket directory, or host:port")
    parser.add_argument("--port", type=int, default=6543)
    parser.add_argument("--delay-ms", type=float, default=1.0)
    parser.add_argument("--stats", help="a file the counts are written to on SIGUSR1")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_main(parser.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
