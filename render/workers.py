"""Where boards are drawn when a server is busy: off the event loop, and optionally off its GIL.

Drawing a board is mostly Python calling Pillow, so in a thread it still holds the interpreter lock
the bot's event loop needs; under load that lock, not the cores, capped the moves per second
(docs/reliability.md). With `processes` > 0 the boards are drawn in worker processes instead: the
bot only sends the view as JSON text (tens of microseconds) and gets PNG bytes back. With 0 they are drawn
in threads, which costs no start-up and no memory, the better choice on a one-core machine and
in tests.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from engine import registry
from engine.protocol import Event, View
from render import renderer


def _warm() -> int:
    """Import Pillow and every game's renderer, load fonts and tiles once, so a worker's first real
    board is not slow."""
    size = 0
    for game in registry.games():
        size += len(renderer(game.name).board(game.new_game({}, 0).view(None), []))
    return size


def _render_text(
    game: str, view_json: str, events: list[Event], overlay: str | None, width: int | None = None
) -> bytes:
    """In a worker: the board of a view sent as its JSON text (at most `width` pixels wide)."""
    view = registry.game(game).view_from_json(json.loads(view_json))
    return _fit(renderer(game).board(view, events, overlay), width)


def _fit(png: bytes, width: int | None) -> bytes:
    """The picture scaled down to `width` pixels (a small board: a look back shows three at once)."""
    if width is None:
        return png
    from PIL import Image

    image = Image.open(io.BytesIO(png))
    if image.width <= width:
        return png
    small = image.convert("RGB").resize(
        (width, round(image.height * width / image.width)), Image.Resampling.LANCZOS
    )
    out = io.BytesIO()
    small.save(out, "PNG", optimize=False, compress_level=6)
    return out.getvalue()


def _orphan_watch(parent: int) -> None:
    """Runs in each worker: exit as soon as the bot is gone, even if it was SIGKILLed.

    A worker otherwise outlives a killed bot, blocked for ever writing a finished board into a
    pipe nobody reads (seen in the crash bench), one per kill.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="orphan-watch", daemon=True).start()


log = logging.getLogger("blockwars.render")


class Painter:
    """Renders boards to PNG bytes without blocking the event loop."""

    def __init__(self, processes: int = 0) -> None:
        self.processes = max(0, processes)
        self._pool: ProcessPoolExecutor | None = self._new_pool() if self.processes else None
        self.restarts = 0  # pools replaced after a worker died

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn, not fork: forking a process that runs an event loop and threads is unsafe.
        return ProcessPoolExecutor(
            self.processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_orphan_watch,
            initargs=(os.getpid(),),
        )

    async def start(self) -> None:
        """Start the worker processes now (each imports Pillow once) rather than on the first move."""
        if self._pool is not None:
            loop = asyncio.get_running_loop()
            await asyncio.gather(*(loop.run_in_executor(self._pool, _warm) for _ in range(self.processes)))

    async def board(
        self,
        game: str,
        view: View,
        events: Iterable[Event] = (),
        overlay: str | None = None,
        *,
        width: int | None = None,
    ) -> bytes:
        """The PNG of `view` (of the game called `game`) with the last action's `events` drawn; the
        events must already be as the view's viewer saw them (`render.seen`). With `width`, scaled
        down to at most that many pixels wide."""
        event_list = list(events)
        pool = self._pool
        if pool is not None:
            # The view crosses to the worker as JSON text: pickling a str is nearly free, while
            # pickling a state took 0.1-0.2 ms in the pool's feeder thread, holding the
            # interpreter lock the event loop needs.
            text = json.dumps(view.to_json(), separators=(",", ":"))
            try:
                # submit() itself runs in a thread: it writes to the pool's wake-up pipe, which
                # blocks while the pool's manager thread is busy, and the loop must never wait on it.
                job = await asyncio.to_thread(
                    pool.submit, _render_text, game, text, event_list, overlay, width
                )
                return await asyncio.wrap_future(job)
            except BrokenProcessPool:
                # A worker died (killed, out of memory): the pool refuses all work from then on.
                # Games run for days, so start a fresh pool; this board is drawn in a thread.
                if self._pool is pool:
                    log.warning("A board-drawing process died; starting a new one")
                    pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = self._new_pool()
                    self.restarts += 1
        return await asyncio.to_thread(lambda: _fit(renderer(game).board(view, event_list, overlay), width))

    def close(self) -> None:
        """Stop the worker processes (boards still being drawn are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
