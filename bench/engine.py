"""Engine speed for any hosted game: random legal games on one core, the way an AI's rollouts use it.

    python bench/engine.py [--game blockwars] [--seconds 20] [--seed 1]

Each step is `a = rng.choice(s.legal_actions(side)); s.apply(a, side)` through the game protocol.
The last line printed is one JSON object, for example
{"bench": "engine", "game": "blockwars", "actions_per_s": 21000, "games_per_s": 38.1, ...}.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import registry

MAX_ACTIONS = 3000  # a dead position (a lone tank against a gun) would otherwise never end


def play(game: str, seed: int) -> tuple[int, bool]:
    """One random game from the start; returns (actions, finished)."""
    rules = registry.game(game)
    rng = random.Random(seed)
    s = rules.new_game({}, seed)
    n = 0
    while not s.is_over() and n < MAX_ACTIONS:
        side = min(s.to_act())
        s.apply(rng.choice(s.legal_actions(side)), side)
        n += 1
    return n, s.is_over()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="blockwars", choices=registry.names(), help="which game")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to play (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    args = parser.parse_args()
    games = actions = unfinished = 0
    seed = args.seed
    start = time.perf_counter()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        n, over = play(args.game, seed)
        seed += 1
        games += 1
        actions += n
        unfinished += not over
    elapsed = time.perf_counter() - start
    print(f"{args.game}: {games} games, {actions} actions in {elapsed:.1f} s on one core")
    rate = f"{actions / elapsed:,.0f} actions/s, {games / elapsed:.1f} games/s"
    print(f"{rate}, {actions / games:.0f} actions/game")
    result = {
        "bench": "engine",
        "game": args.game,
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
