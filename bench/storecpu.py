"""The bot's CPU a move in the store path alone, SQLite against PostgreSQL; the last line is one JSON
object of figures.

    .venv/bin/python bench/storecpu.py --start-postgres [--games 50] [--moves 40]
    .venv/bin/python bench/storecpu.py --database-url postgresql://user:pw@host/db

What a move costs the bot process between the player and the store, without Discord or boards:
`MatchService.act`, the board delivered, and each waiting player's turn-DM preference, for `--games`
Block Wars games at once, `--moves` moves each after as many untimed ones (a player's first moves
read what later ones remember). Measured with `time.process_time`, the process's own CPU: unlike the
answer latency of bench/load.py it holds on a busy machine (the PostgreSQL server's CPU is not in
it). With `--database-url` the user must be able to create a database (one is created and dropped).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from data import Database
from play import MatchService


async def measure(target: str, games: int, moves: int) -> dict[str, object]:
    """CPU a move on the store at `target`: the moves of all games at once, after a warm-up."""
    db = await Database.open(target)
    try:
        svc = MatchService(db, rng=random.Random(1), outbox=True)
        for k in range(games):
            channel = 1000 + k
            await svc.challenge(
                game="blockwars",
                guild_id=7,
                channel_id=channel,
                challenger_id=2 * k + 1,
                opponent_id=2 * k + 2,
            )
            await svc.accept(channel, 2 * k + 2)

        async def play(channel: int, rng: random.Random, first_interaction: int) -> int:
            played_moves = 0
            for n in range(moves):
                match, state = await svc.latest(channel)
                if state.is_over():
                    break
                side = min(state.to_act())
                action = rng.choice(list(state.legal_actions(side)))
                played = await svc.act(
                    channel, match.sides[str(side)], str(action), interaction_id=first_interaction + n
                )
                await svc.board_delivered(played.match.id, played.match.version)
                for user in played.waiting:
                    await svc.wants_turn_dms(user)
                played_moves += 1
            return played_moves

        await asyncio.gather(*(play(1000 + k, random.Random(k), 1 + k * 1000) for k in range(games)))
        cpu, wall = time.process_time(), time.perf_counter()
        timed = await asyncio.gather(
            *(play(1000 + k, random.Random(games + k), 10**7 + k * 1000) for k in range(games))
        )
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        await db.close()
    done = max(sum(timed), 1)
    return {"moves": sum(timed), "cpu_ms_per_move": round(cpu / done * 1000, 3), "wall_s": round(wall, 2)}


async def main_async(args: argparse.Namespace) -> dict[str, object]:
    import asyncpg
    import yarl

    server = None
    url = args.database_url
    if args.start_postgres:
        from tests import pgserver

        server = await asyncio.to_thread(pgserver.start_for_bench)
        url = server.url()
    figures: dict[str, object] = {"bench": "storecpu", "games": args.games}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            figures["sqlite"] = await measure(str(Path(tmp) / "store.db"), args.games, args.moves)
        if url:
            database = f"wargames_storecpu_{os.getpid()}"
            admin = await asyncpg.connect(url)
            await admin.execute(f"CREATE DATABASE {database}")
            await admin.close()
            try:
                base = yarl.URL(url)
                target = str(base.with_path("/" + database).with_query(base.query))
                figures["postgresql"] = await measure(target, args.games, args.moves)
            finally:
                admin = await asyncpg.connect(url)
                await admin.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
                await admin.close()
    finally:
        if server is not None:
            await asyncio.to_thread(server.stop)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description="The bot's CPU a move in the store path, per store.")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=40, help="timed moves per game (after as many untimed)")
    parser.add_argument("--database-url", default=None, help="a PostgreSQL server to compare with")
    parser.add_argument("--start-postgres", action="store_true", help="a throwaway server (fsync on)")
    args = parser.parse_args()
    figures = asyncio.run(main_async(args))
    sqlite = figures["sqlite"]
    postgres = figures.get("postgresql")
    assert isinstance(sqlite, dict)
    figures["sqlite_cpu_ms_per_move"] = sqlite["cpu_ms_per_move"]
    if isinstance(postgres, dict):
        figures["postgresql_cpu_ms_per_move"] = postgres["cpu_ms_per_move"]
    figures |= {"python": platform.python_version(), "date": time.strftime("%Y-%m-%d")}
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
