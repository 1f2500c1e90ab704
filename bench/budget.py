"""Whether every game's AI answers within its think budget, timed (a figure, not a test).

    PYTHONPATH=. .venv/bin/python bench/budget.py                  # every game: under a minute
    PYTHONPATH=. .venv/bin/python bench/budget.py --budget 0.5 --every 10

Positions from a seeded random game of each game (`tests/random_play.random_steps`, seed 13), every
`--every`-th step of the first `--steps`, as tests/test_conformance.py takes them to check that each
answer is legal. Each side owed an action there is asked `Game.choose` on its own view, at the
game's default level and at `random`, with `--budget` seconds, timed by the wall clock and by the
thread's CPU clock. The ceiling the suite once asserted by the wall clock (`budget * 4 + 1` s) is
reported as `over_ceiling`: under load the wall clock also counts other processes' time, which is
why it lives here and not in the suite. The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import registry
from tests.random_play import random_steps


def measure(name: str, budget: float, every: int, steps: int) -> dict[str, object]:
    """One game's answers: how long the slowest took, by each clock, and how many went over."""
    game = registry.game(name)
    walls: list[float] = []
    cpus: list[float] = []
    for step, (state, _side, _events) in enumerate(random_steps(game, 13, steps)):
        if state.is_over():
            break
        if step % every:
            continue
        for side in sorted(state.to_act()):
            for level in (game.ai.default, "random"):
                wall, cpu = time.perf_counter(), time.thread_time()
                game.choose(state.view(side), level, seed=step, budget_s=budget)
                cpus.append(time.thread_time() - cpu)
                walls.append(time.perf_counter() - wall)
    ceiling = budget * 4 + 1.0
    return {
        "answers": len(walls),
        "max_wall_ms": round(max(walls, default=0.0) * 1000, 1),
        "max_cpu_ms": round(max(cpus, default=0.0) * 1000, 1),
        "over_ceiling": sum(1 for w in walls if w >= ceiling),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--budget", type=float, default=0.25, help="seconds a decision (default 0.25)")
    parser.add_argument("--every", type=int, default=15, help="ask at every Nth step (default 15)")
    parser.add_argument("--steps", type=int, default=90, help="steps of each random game (default 90)")
    args = parser.parse_args()
    figures: dict[str, object] = {"bench": "budget", "budget_s": args.budget}
    worst = 0.0
    for name in registry.names():
        found = measure(name, args.budget, args.every, args.steps)
        print(name, found, flush=True)
        figures[name] = found
        worst = max(worst, float(found["max_wall_ms"]) / 1000 / args.budget)  # type: ignore[arg-type]
    figures["worst_wall_over_budget"] = round(worst, 2)
    figures["over_ceiling"] = sum(int(f["over_ceiling"]) for f in figures.values() if isinstance(f, dict))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
