"""An AI level against another (random by default) in any hosted game: win rate and think times.

    python bench/versus.py --game blockwars [--level normal] [--opponent random] [--games 20]

The tested level alternates sides with the seed; both play through the protocol exactly as the bot
plays them (`Game.choose` on a `View`, with the level's own think-time budget unless --budget is
given). A game that reaches the action cap counts as not won. Games run on every core. The last
line printed is one JSON object, e.g. {"bench": "versus", "win_rate": 0.95, "think_p95_s": 1.2, ...}.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import registry

MAX_ACTIONS = 3000


def play(task: tuple[str, str, str, int, float | None]) -> dict[str, object]:
    game, level, opponent, seed, budget = task
    rules = registry.game(game)
    tested = rules.sides[seed % 2].name
    state = rules.new_game({}, seed)
    times: list[float] = []
    n = 0
    while not state.is_over() and n < MAX_ACTIONS:
        side = min(state.to_act())
        lvl = level if side == tested else opponent
        t0 = time.perf_counter()
        action = rules.choose(state.view(side), lvl, seed * 100_003 + n, budget)
        if side == tested:
            times.append(time.perf_counter() - t0)
        state.apply(action, side)
        n += 1
    outcome = state.outcome()
    return {
        "win": outcome is not None and outcome.winner == tested,
        "draw": outcome is not None and outcome.winner is None,
        "capped": not state.is_over(),
        "actions": n,
        "times": times,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="blockwars", choices=registry.names())
    parser.add_argument("--level", default=None, help="tested level (default: the game's default)")
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument(
        "--budget", type=float, default=None, help="seconds per action (default: the level's)"
    )
    args = parser.parse_args()
    rules = registry.game(args.game)
    level = args.level or rules.ai.default
    tasks = [(args.game, level, args.opponent, args.seed + i, args.budget) for i in range(args.games)]
    started = time.perf_counter()
    with Pool(os.cpu_count() or 1) as pool:
        results = pool.map(play, tasks, chunksize=1)
    wall = time.perf_counter() - started
    times = sorted(t for r in results for t in r["times"])  # type: ignore[attr-defined]
    wins = sum(bool(r["win"]) for r in results)
    draws = sum(bool(r["draw"]) for r in results)
    capped = sum(bool(r["capped"]) for r in results)
    figures = {
        "bench": "versus",
        "game": args.game,
        "level": level,
        "opponent": args.opponent,
        "games": len(results),
        "win_rate": round(wins / len(results), 3),
        "draws": draws,
        "capped": capped,
        "think_p50_s": round(statistics.median(times), 3) if times else 0.0,
        "think_p95_s": round(times[int(len(times) * 0.95)], 3) if times else 0.0,
        "think_max_s": round(times[-1], 3) if times else 0.0,
        "mean_actions": round(statistics.mean(int(r["actions"]) for r in results), 1),  # type: ignore[call-overload]
        "seeds": f"{args.seed}-{args.seed + args.games - 1}",
        "wall_s": round(wall, 1),
    }
    print(
        f"{args.game}: {level} v {args.opponent}: won {wins}/{len(results)} "
        f"({draws} drawn, {capped} capped); "
        f"think p50 {figures['think_p50_s']} s, p95 {figures['think_p95_s']} s"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
