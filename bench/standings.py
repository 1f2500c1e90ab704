"""How long drawing a tournament's standings takes (play/tournament.py `TournamentService.table`).

Plays a Swiss tournament of `--players` players over `--rounds` rounds of Block Wars through the
services (each game resigned by a seeded random player, one in ten left unplayed: its first turn
falls due before the round's days run out, a loss on time when the round closes), then draws its
standings `--draws` times and reports the median wall and process CPU milliseconds of one drawing:
on an SQLite file, and with `--start-postgres` (a throwaway server) on PostgreSQL too. The
tournament is played before timing starts; only the drawing is timed.

    .venv/bin/python bench/standings.py [--players 64] [--rounds 6] [--start-postgres]

The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from data import Database
from play import MatchService
from play.tournament import DAY, TournamentService

GUILD, CHANNEL = 5, 100


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def play_tournament(db: Database, players: int, rounds: int, seed: int) -> TournamentService:
    clock = Clock()
    rng = random.Random(seed)
    t = TournamentService(db, MatchService(db, clock=clock, rng=random.Random(seed)), clock=clock)
    made = await t.create(
        guild_id=GUILD, channel_id=CHANNEL, user_id=1, game="blockwars", rounds=rounds, days=1, organiser=True
    )
    await t.seal_shown(made)  # as the adapters show it, before anyone may join
    for user in range(1000, 1000 + players):
        await t.join(made, user)
    await t.start(CHANNEL, organiser=True)
    for _ in range(rounds):
        tournament = await t.open_in(CHANNEL)
        for board in await t.pending_starts(tournament):
            await t.start_board(board, 10_000 + 1000 * board.round + board.board)
        for board in await t.store.tournament_boards(tournament.id):
            if board.round == tournament.round and board.second_id is not None and rng.random() >= 0.1:
                assert board.thread_id is not None
                loser = rng.choice((board.first_id, board.second_id))
                await t.matches.act(board.thread_id, loser, "resign")
        clock.now += DAY + 1  # the games left open lost on time: their first turns fell due first
        for done in await t.sweep():
            table = getattr(done, "table", None)
            if table is not None:
                await t.announced(table)
    return t


async def measure(target: str, args: argparse.Namespace) -> dict[str, float]:
    async with Database.open(target) as db:
        t = await play_tournament(db, args.players, args.rounds, args.seed)
        table = await t.standings_of(CHANNEL)  # warm: statements prepared, caches filled
        assert table.final and len(table.lines) == args.players
        walls, cpus = [], []
        for _ in range(args.draws):
            wall, cpu = time.perf_counter(), time.process_time()
            await t.standings_of(CHANNEL)
            walls.append((time.perf_counter() - wall) * 1000)
            cpus.append((time.process_time() - cpu) * 1000)
        return {
            "median_ms": round(statistics.median(walls), 2),
            "median_cpu_ms": round(statistics.median(cpus), 2),
        }


async def main_async(args: argparse.Namespace) -> dict[str, object]:
    figures: dict[str, object] = {"bench": "standings", "players": args.players, "rounds": args.rounds}
    with tempfile.TemporaryDirectory() as tmp:
        figures["sqlite"] = await measure(str(Path(tmp) / "standings.db"), args)
    if args.start_postgres:
        import asyncpg
        import yarl

        from tests import pgserver

        server = await asyncio.to_thread(pgserver.start_for_bench)
        try:
            database = f"wargames_standings_{os.getpid()}"
            admin = await asyncpg.connect(server.url())
            # sql-check: a name made here from the process id
            await admin.execute(f"CREATE DATABASE {database}")
            await admin.close()
            base = yarl.URL(server.url())
            figures["postgresql"] = await measure(
                str(base.with_path("/" + database).with_query(base.query)), args
            )
        finally:
            await asyncio.to_thread(server.stop)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--draws", type=int, default=30, help="standings drawn and timed (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start-postgres", action="store_true", help="a throwaway server (fsync on)")
    args = parser.parse_args()
    figures = asyncio.run(main_async(args))
    figures |= {"load": os.getloadavg()[0], "date": time.strftime("%Y-%m-%d")}
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
