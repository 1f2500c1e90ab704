"""Tuning a planned level's settings by self-play: a coordinate search against a fixed opponent.

    nice -n 10 .venv/bin/python -m engine.combinedarms.tune --level hard --against normal --games 6

Each setting in turn takes each of its candidate values (the others as found so far); each
candidate plays `--games` seeded games per era (WWI and WWII, sides alternating) against the
opponent level, and the value with the best score is kept (a tie keeps the current one). Weights of
`judge` are named `w.<name>`. Every result is printed; the last line is one JSON object with the
settings found and every score. The record of the runs is in docs/ai.md.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from multiprocessing import Pool
from typing import Any

from engine import registry
from engine.combinedarms import plan
from engine.combinedarms.game import PLANNED
from engine.combinedarms.state import View
from engine.protocol import Action

GAMES = ("combinedarms", "combinedarms_wwii")
CANDIDATES: dict[str, tuple[float, ...]] = {
    "focus": (0.5, 1.0, 2.0),
    "siege": (0.5, 1.0, 2.0),
    "guard": (0.0, 2.0, 4.0),
    "w.danger": (0.35, 0.7, 1.4),
    "w.retreat": (0.2, 0.35, 0.6),
}
MAX_ACTIONS = 3000


def configure(base: plan.Config, settings: dict[str, float]) -> plan.Config:
    """`base` with `settings` applied (`w.<name>` for a weight of `judge`)."""
    weights: dict[str, Any] = {k[2:]: v for k, v in settings.items() if k.startswith("w.")}
    rest: dict[str, Any] = {k: v for k, v in settings.items() if not k.startswith("w.")}
    cfg = replace(base, **rest)
    return replace(cfg, weights=replace(cfg.weights, **weights)) if weights else cfg


def rules_era(game: str) -> str:
    return "wwi" if game == "combinedarms" else "wwii"


def play(task: tuple[str, str, dict[str, float], str, int]) -> float:
    """One seeded game of the candidate against the opponent level: 1 won, 0.5 drawn, 0 lost."""
    game, level, settings, against, seed = task
    rules = registry.game(game)
    cfg = configure(PLANNED[rules_era(game)][level], settings)
    state = rules.new_game({}, seed)
    first, second = (s.name for s in rules.sides)
    mine = first if seed % 2 == 0 else second
    n = 0
    while not state.is_over() and n < MAX_ACTIONS:
        side = min(state.to_act())
        view = state.view(side)
        action: Action
        if side == mine:
            assert isinstance(view, View)
            action = plan.choose(view.state.clone(), side, f"tune:{settings}", cfg, seed * 100_003 + n)
        else:
            action = rules.choose(view, against, seed * 100_003 + n)
        state.apply(action, side)
        n += 1
    outcome = state.outcome()
    if outcome is None or outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == mine else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="hard", choices=("normal", "hard"))
    parser.add_argument("--against", default="normal")
    parser.add_argument("--games", type=int, default=6, help="games per era and candidate")
    parser.add_argument("--seed", type=int, default=101, help="first seed")
    parser.add_argument("--procs", type=int, default=2)
    args = parser.parse_args()
    base = PLANNED["wwi"][args.level]  # the starting values (both eras share all but `guard`)
    found: dict[str, float] = {}
    scores: dict[str, dict[str, float]] = {}
    started = time.perf_counter()
    with Pool(args.procs) as pool:
        for name, values in CANDIDATES.items():
            owner: Any = base.weights if name.startswith("w.") else base
            current = float(getattr(owner, name.removeprefix("w.")))
            results: dict[str, float] = {}
            for value in values:
                settings = {**found, name: value}
                tasks = [
                    (game, args.level, settings, args.against, args.seed + i)
                    for game in GAMES
                    for i in range(args.games)
                ]
                got = pool.map(play, tasks, chunksize=1)
                results[str(value)] = round(sum(got) / len(got), 3)
                print(
                    f"{name}={value}: {sum(got)}/{len(got)} ({time.perf_counter() - started:.0f}s)",
                    file=sys.stderr,
                    flush=True,
                )
            best = max(values, key=lambda v: (results[str(v)], v == current))
            found[name] = best
            scores[name] = results
    out: dict[str, Any] = {
        "bench": "combinedarms-tune",
        "level": args.level,
        "against": args.against,
        "games_per_candidate": 2 * args.games,
        "seeds": f"{args.seed}-{args.seed + args.games - 1}",
        "found": found,
        "scores": scores,
        "wall_s": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
