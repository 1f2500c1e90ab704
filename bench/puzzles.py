"""The AI puzzles of issue 32: how many each level solves, per game.

    .venv/bin/python bench/puzzles.py                          # every game, normal and hard
    .venv/bin/python bench/puzzles.py --game blockwars --levels easy,normal,hard --worlds 8

Each level plays each puzzle (tests/ai_puzzles) for its whole turn through `Game.choose`, as the
bot asks it, in `--worlds` deals of what it cannot see; `tests/ai_puzzles/kit.py` says when a puzzle
counts as solved. Prints solved/total per game and level, the misses by name, the CPU time, and
last one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.ai_puzzles import kit


def _without_the_win_check() -> None:
    """Every level as before issue 32: no win check (`BaseGame.guard_of` gives none) and no veto on
    an open Headquarters in Combined Arms. The levels' own improvements (Company Commander's moves
    and race to ten) stay."""
    from engine.base import BaseGame
    from engine.combinedarms import ai as combinedarms_ai

    BaseGame.guard_of = lambda self, level: None  # type: ignore[method-assign]
    combinedarms_ai.hq_veto = lambda s, side, pick, weights: pick


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", help="a game (repeatable); default every game")
    parser.add_argument("--levels", default="normal,hard")
    parser.add_argument("--worlds", type=int, default=4)
    parser.add_argument(
        "--no-guard", action="store_true", help="the levels without the win check, as before issue 32"
    )
    args = parser.parse_args()
    if args.no_guard:
        _without_the_win_check()
    games = args.game or list(kit.GAMES)
    levels = args.levels.split(",")
    figures: dict[str, dict[str, str]] = {}
    start = time.process_time()
    for game in games:
        puzzles = kit.load(game)
        figures[game] = {}
        for level in levels:
            t = time.process_time()
            missed = [p.name for p in puzzles if not kit.solved(p, level, args.worlds)]
            solved = len(puzzles) - len(missed)
            figures[game][level] = f"{solved}/{len(puzzles)}"
            print(
                f"{game:18} {level:8} {solved:2}/{len(puzzles)}  cpu {time.process_time() - t:6.1f} s"
                + (f"  missed: {', '.join(missed)}" if missed else ""),
                flush=True,
            )
    print(
        json.dumps(
            {
                "bench": "puzzles",
                "worlds": args.worlds,
                "win_check": not args.no_guard,
                "solved": figures,
                "cpu_s": round(time.process_time() - start, 1),
                "load": os.getloadavg()[0],
            }
        )
    )


if __name__ == "__main__":
    main()
