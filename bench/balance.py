"""Balance and length of any hosted game in AI-against-AI play: who wins, how long it takes.

    python bench/balance.py --game companycommander [--level easy] [--games 16] [--seed 1]

Both sides play the same level. Per game it records the winner, the side that moved first, the
rounds (`State.turn_number`) and the hand-offs (how often the side owing an action changed: each
is a wait for the other player over days). The figures: each side's win rate, the first mover's
win rate, draws, rounds and hand-offs (mean, median, max). Games run on every core. The last line
printed is one JSON object, e.g. {"bench": "balance", "first_mover_win_rate": 0.5, ...}.
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


def play(task: tuple[str, str, int, float | None]) -> dict[str, object]:
    game, level, seed, budget = task
    rules = registry.game(game)
    state = rules.new_game({}, seed)
    first = min(state.to_act())
    owing = state.to_act()
    handoffs = actions = 0
    while not state.is_over() and actions < MAX_ACTIONS:
        side = min(state.to_act())
        state.apply(rules.choose(state.view(side), level, seed * 100_003 + actions, budget), side)
        actions += 1
        now = state.to_act()
        if now and now != owing:
            handoffs += 1
        owing = now or owing
    outcome = state.outcome()
    return {
        "winner": outcome.winner if outcome else None,
        "reason": outcome.reason.value if outcome else "capped",
        "first": first,
        "rounds": state.turn_number(),
        "handoffs": handoffs,
        "actions": actions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="companycommander", choices=registry.names())
    parser.add_argument("--level", default="easy")
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument(
        "--budget", type=float, default=None, help="seconds per action (default: the level's)"
    )
    args = parser.parse_args()
    rules = registry.game(args.game)
    sides = rules.sides
    tasks = [(args.game, args.level, args.seed + i, args.budget) for i in range(args.games)]
    started = time.perf_counter()
    with Pool(os.cpu_count() or 1) as pool:
        results = pool.map(play, tasks, chunksize=1)
    wall = time.perf_counter() - started
    n = len(results)
    decided = [r for r in results if r["winner"] is not None]
    rounds = [int(r["rounds"]) for r in results]  # type: ignore[call-overload]
    handoffs = [int(r["handoffs"]) for r in results]  # type: ignore[call-overload]
    reasons: dict[str, int] = {}
    for r in results:
        reasons[str(r["reason"])] = reasons.get(str(r["reason"]), 0) + 1
    figures: dict[str, object] = {
        "bench": "balance",
        "game": args.game,
        "level": args.level,
        "games": n,
        **{
            f"{s.name}_win_rate": round(sum(r["winner"] == s.name for r in results) / n, 3)
            for s in rules.sides
        },
        "first_mover_win_rate": round(sum(r["winner"] == r["first"] for r in results) / n, 3),
        "draws": n - len(decided),
        "rounds_mean": round(statistics.mean(rounds), 1),
        "rounds_median": statistics.median(rounds),
        "rounds_max": max(rounds),
        "handoffs_mean": round(statistics.mean(handoffs), 1),
        "handoffs_median": statistics.median(handoffs),
        "handoffs_max": max(handoffs),
        "reasons": reasons,
        "seeds": f"{args.seed}-{args.seed + n - 1}",
        "wall_s": round(wall, 1),
    }
    wins = ", ".join(f"{s.title} {figures[f'{s.name}_win_rate']}" for s in sides)
    print(
        f"{args.game}, {args.level} v {args.level}, {n} games: {wins}, first mover "
        f"{figures['first_mover_win_rate']}; rounds {figures['rounds_mean']} (max {figures['rounds_max']}), "
        f"hand-offs {figures['handoffs_mean']} (max {figures['handoffs_max']})"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
