"""Engine speed: random legal games on one core, the way an AI uses the engine.

    python bench/engine.py [--seconds 20] [--seed 1]

Each step is `a = rng.choice(s.legal_actions()); s.apply(a)`. The last line printed is one JSON
object, for example {"bench": "engine", "actions_per_s": 21000, "games_per_s": 38.1, ...}.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.blockwars import Options, new_game

MAX_ACTIONS = 3000  # a dead position (a lone tank against a gun) would otherwise never end


def play(seed: int) -> tuple[int, bool]:
    """One random game from set-up; returns (actions, finished)."""
    rng = random.Random(seed)
    s = new_game(Options(crosses=seed % 2 == 0, fighter_aces=seed % 3 == 0), seed)
    n = 0
    while not s.is_over() and n < MAX_ACTIONS:
        a = rng.choice(s.legal_actions())
        s.apply(a)
        n += 1
    return n, s.is_over()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to play (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    args = parser.parse_args()
    games = actions = unfinished = 0
    seed = args.seed
    start = time.perf_counter()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        n, over = play(seed)
        seed += 1
        games += 1
        actions += n
        unfinished += not over
    elapsed = time.perf_counter() - start
    print(f"{games} games, {actions} actions in {elapsed:.1f} s on one core")
    rate = f"{actions / elapsed:,.0f} actions/s, {games / elapsed:.1f} games/s"
    print(f"{rate}, {actions / games:.0f} actions/game")
    result = {
        "bench": "engine",
        "actions_per_s": round(actions / elapsed),
        "games_per_s": round(games / elapsed, 1),
        "mean_actions_per_game": round(actions / games),
        "games": games,
        "unfinished_games": unfinished,
        "seconds": round(elapsed, 1),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
