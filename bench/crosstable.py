"""How long a tournament's crosstable and export take (`/tournament crosstable`, `export`).

Plays the tournament of bench/standings.py (`--players` over `--rounds` rounds of Block Wars through
the services, each game resigned, one in ten left to a loss on time without a move: a forfeit) on an
SQLite file, then times, `--runs` times each, the median wall and process CPU milliseconds of: the
read (`play.tournament_crosstable.crosstable`: the boards, each round's matches, each finished
game's row and a forfeit's log), the pictures (`render.crosstable.crosstable_pngs`, all of them)
and the two CSV files. Only these are timed, not the play.

    .venv/bin/python bench/crosstable.py [--players 64] [--rounds 6]

The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.standings import CHANNEL, play_tournament
from data import Database
from engine import registry
from play.tournament_crosstable import crosstable
from play.tournament_export import export_files
from render.crosstable import Row, crosstable_pngs


def _median(walls: list[float], cpus: list[float]) -> dict[str, float]:
    return {
        "median_ms": round(statistics.median(walls), 2),
        "median_cpu_ms": round(statistics.median(cpus), 2),
    }


async def _timed(runs: int, work: Callable[[], Any]) -> tuple[dict[str, float], Any]:
    walls, cpus, out = [], [], None
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        out = work()
        if asyncio.iscoroutine(out):
            out = await out
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return _median(walls, cpus), out


async def main_async(args: argparse.Namespace) -> dict[str, object]:
    figures: dict[str, object] = {"bench": "crosstable", "players": args.players, "rounds": args.rounds}
    with tempfile.TemporaryDirectory() as tmp:
        async with Database.open(str(Path(tmp) / "crosstable.db")) as db:
            t = await play_tournament(db, args.players, args.rounds, args.seed)
            table = await t.standings_of(CHANNEL)
            assert table.final
            await crosstable(db, t.store, table)  # warm: statements prepared
            figures["read"], cross = await _timed(args.runs, lambda: crosstable(db, t.store, table))
            rows = [
                Row(p.number, f"Player {p.line.user_id}", tuple((c.text, c.mark.value) for c in p.cells),
                    p.line.points, p.line.buchholz, p.line.sonneborn, p.line.withdrawn)
                for p in cross.players
            ]  # fmt: skip
            title, key = (
                "Bench Swiss: crosstable after the last round",
                "W5 beat no. 5, L lost to, D drew with.",
            )
            figures["pictures"], pngs = await _timed(
                args.runs, lambda: crosstable_pngs(title, key, cross.rounds, rows)
            )
            figures["picture_count"] = len(pngs)
            game = registry.game("blockwars")
            figures["csv"], _ = await _timed(args.runs, lambda: export_files(cross, game, {}))
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    figures = asyncio.run(main_async(args))
    figures |= {"load": os.getloadavg()[0], "date": time.strftime("%Y-%m-%d")}
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
