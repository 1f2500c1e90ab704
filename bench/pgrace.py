"""A soak of the races between bot processes on one PostgreSQL database: `python bench/pgrace.py
--start-postgres` (or `--database-url` naming an empty database); the last line is one JSON object.

`--processes` processes (each built as `python bot.py` builds one: tests/pgraces.py) race for
`--seconds`: each round one race of tests/pgraces.py (`SCENARIOS`, in turn), between two of them
drawn by the seeded generator, with that race's own checks. At the end, one player's games end all
at once across every process, and every player's rating changes must chain. What is counted: the
rounds, how each race went, and the violations (a check that failed, or an error that was not a
sentence for a player), the first few of them in words. tests/test_pg_races.py runs the same races
for a few rounds each; this runs them for longer, in one database that fills as it goes.

The throwaway server of `--start-postgres` writes as production does (fsync on: tests/pgserver.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.pgraces import GUILD, SCENARIOS, World, assert_chained, ratings_chain, wins


async def burst(world: World, games: int) -> int:
    """One player's `games` games, one a channel, all resigned at the same moment across the
    processes (a rating read and written by each: the lost update a row lock prevents)."""
    processes = world.processes
    channels = [world.channel() for _ in range(games)]
    for n, channel in enumerate(channels):
        await processes[0].service.challenge(
            game="blockwars", guild_id=GUILD, channel_id=channel, challenger_id=10, opponent_id=500 + n
        )
        await processes[0].service.accept(channel, 500 + n)
    done = await asyncio.gather(
        *(processes[n % len(processes)].service.act(c, 10, "resign") for n, c in enumerate(channels)),
        return_exceptions=True,
    )
    return len(wins(done))


async def soak(url: str, processes: int, seconds: float, seed: int, burst_games: int) -> dict[str, Any]:
    world = World(url)
    try:
        await world.start(processes, seed)
        rng = random.Random(seed)
        names = sorted(SCENARIOS)
        outcomes: dict[str, Counter[str]] = {name: Counter() for name in names}
        violations: list[str] = []
        rounds = 0
        began, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - began < seconds:
            name = names[rounds % len(names)]
            a, b = rng.sample(world.processes, 2)
            try:
                outcomes[name][await SCENARIOS[name](world, a, b, rng)] += 1
            except Exception as exc:  # a failed check or an error no player should meet: counted
                violations.append(f"{name}: {exc.__class__.__name__}: {exc}"[:300])
                if len(violations) <= 3:
                    traceback.print_exc(file=sys.stderr)
            rounds += 1
        wall, cpu = time.perf_counter() - began, time.process_time() - cpu
        ended = await burst(world, burst_games)
        if ended != burst_games:
            violations.append(f"burst: {burst_games - ended} of {burst_games} resignations refused")
        chained = 0
        for row in await world.sql("SELECT DISTINCT guild_id, user_id FROM player_stats"):
            changes, rating, played = await ratings_chain(world, row["user_id"], row["guild_id"])
            try:
                assert len(changes) == played, f"{played} results, {len(changes)} rating changes"
                assert_chained(changes, rating)
                chained += 1
            except AssertionError as exc:
                violations.append(f"ratings of {row['user_id']} in {row['guild_id']}: {exc}"[:300])
        return {
            "bench": "pgrace",
            "processes": processes,
            "seconds": round(wall, 1),
            "rounds": rounds,
            "rounds_per_s": round(rounds / wall, 1),
            "client_cpu_ms_per_round": round(1000 * cpu / max(1, rounds), 2),
            "burst_games": burst_games,
            "players_chained": chained,
            "violations": len(violations),
            "first_violations": violations[:3],
            "outcomes": {name: dict(seen) for name, seen in outcomes.items()},
            "date": time.strftime("%Y-%m-%d"),
        }
    finally:
        await world.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=3, help="bot processes racing (at least 2)")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--burst", type=int, default=40, help="games of one player ended at once")
    parser.add_argument("--database-url", help="an empty PostgreSQL database")
    parser.add_argument(
        "--start-postgres",
        action="store_true",
        help="a throwaway PostgreSQL server from this machine's binaries",
    )
    args = parser.parse_args()
    if args.processes < 2 or not (args.database_url or args.start_postgres):
        raise SystemExit("pgrace needs --processes 2 or more, and --start-postgres or --database-url")
    server = None
    url = args.database_url
    if args.start_postgres:
        from tests import pgserver

        server = pgserver.start_for_bench()
        url = server.url()
    try:
        assert url is not None
        figures = asyncio.run(soak(url, args.processes, args.seconds, args.seed, args.burst))
    finally:
        if server is not None:
            server.stop()
    print(
        f"{figures['rounds']} races in {figures['seconds']} s between {args.processes} processes, "
        f"{figures['violations']} violations",
        file=sys.stderr,
    )
    print(json.dumps(figures))
    return 0 if figures["violations"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
