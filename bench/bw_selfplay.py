"""Block Wars: a variant of `hard` against `hard` in paired self-play, without the win check.

    .venv/bin/python bench/bw_selfplay.py                                  # hard against itself, seeds 1-10
    .venv/bin/python bench/bw_selfplay.py --spec '{"search": {"candidates": 5, "lookahead": 6}}' --last 60
    .venv/bin/python bench/bw_selfplay.py --spec '{"search_germans": {"wary": 2.5}}'

Two `hard`s play a whole game in about 1.2 s of CPU (the win check, which the ladder adds, is most
of hard's think time there), so a change to hard's planner or judgement can be measured over a few
hundred games where the ladder affords forty (docs/ai.md, Block Wars). Every seed is played twice,
the variant once on each side, so luck that favours a side cancels and `hard` against itself scores
exactly 50 %; the standard error is over the seed pairs. `--spec` overrides `ai.SearchConfig` and
`ai.Weights` fields of hard's settings: `search` and `weights` for both sides,
`search_germans`, `weights_canadians` and so on for one. `--hard-only` plays one game of hard
against itself a seed and counts each side's wins. The clock is the thread's CPU time, so the load
changes no game. The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import search
from engine.blockwars import ai, new_game
from engine.blockwars.model import Options, Side

VARIANT = "v"  # its name seeds its samples: docs/ai.md's figures were measured under this one
MAX_ACTIONS = 3000


def install(spec: dict[str, Any]) -> None:
    """Register `spec` as the level `v` in ai's tables (this process only)."""
    setattr(ai, "LEVELS", (*ai.LEVELS, VARIANT))  # noqa: B010 (a wider tuple than ai declares)
    ai.DEFAULT_BUDGETS[VARIANT] = ai.DEFAULT_BUDGETS[ai.HARD]
    ai.DEFAULT_ITERATIONS[VARIANT] = 0
    for side in Side:
        over_s = {**spec.get("search", {}), **spec.get(f"search_{side.value}", {})}
        over_w = {**spec.get("weights", {}), **spec.get(f"weights_{side.value}", {})}
        ai.SIDE_SEARCH[(VARIANT, side)] = replace(ai.search_config(ai.HARD, side), **over_s)
        ai.SIDE_WEIGHTS[(VARIANT, side)] = replace(ai.level_weights(ai.HARD, side), **over_w)
    ai.SEARCH[VARIANT] = ai.SIDE_SEARCH[(VARIANT, Side.GERMANS)]
    ai.LEVEL_WEIGHTS[VARIANT] = ai.SIDE_WEIGHTS[(VARIANT, Side.GERMANS)]


def play(seed: int, levels: dict[Side, str]) -> Side | None:
    """One seeded game, each side at its level; the winner (None: a draw or the action cap)."""
    s = new_game(Options(), seed)
    n = 0
    while not s.is_over() and n < MAX_ACTIONS:
        side = s.current_player()
        assert side is not None
        s.apply(ai.choose(s.view(side), levels[side], seed * 100_003 + n, 100.0), side)
        n += 1
    winner = s.result.winner if s.result else None
    return Side(winner) if winner else None


def score(winner: Side | None, side: Side) -> float:
    return 0.5 if winner is None else 1.0 if winner is side else 0.0


def paired(seeds: Iterable[int], game: Callable[[int, Side], Side | None]) -> dict[str, float | None]:
    """Every seed played twice, the variant once on each side (`game(seed, variant's side)` gives the
    winner): its score, the standard error over the seed pairs and its score as each side."""
    by_side: dict[Side, list[float]] = {side: [] for side in Side}
    pairs = []
    for seed in seeds:
        for side in Side:
            by_side[side].append(score(game(seed, side), side))
        pairs.append((by_side[Side.GERMANS][-1] + by_side[Side.CANADIANS][-1]) / 2)
        print(f"seed {seed}: {pairs[-1]:.2f}", flush=True)
    se = statistics.stdev(pairs) / math.sqrt(len(pairs)) if len(pairs) > 1 else None
    out: dict[str, float | None] = {"score": round(statistics.fmean(pairs), 3), "se": se and round(se, 3)}
    out.update({side.value: round(statistics.fmean(v), 3) for side, v in by_side.items()})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", default="{}", help="JSON overrides of hard's settings (see above)")
    parser.add_argument("--first", type=int, default=1, help="first seed")
    parser.add_argument("--last", type=int, default=10, help="last seed")
    parser.add_argument("--hard-only", action="store_true", help="hard against itself, one game a seed")
    args = parser.parse_args()
    search.clock = time.thread_time
    seeds = range(args.first, args.last + 1)
    t0 = time.process_time()
    if args.hard_only:
        winners = [play(seed, {side: ai.HARD for side in Side}) for seed in seeds]
        out: dict[str, Any] = {"bench": "bw_selfplay", "hard_v_hard": f"{args.first}-{args.last}"}
        out.update({side.value: winners.count(side) for side in Side})
        out["draws"] = winners.count(None)
    else:
        spec = json.loads(args.spec)
        install(spec)
        out = {"bench": "bw_selfplay", "spec": spec, "seeds": f"{args.first}-{args.last}"}
        out.update(paired(seeds, lambda seed, side: play(seed, {side: VARIANT, side.other: ai.HARD})))
    out["cpu_s"] = round(time.process_time() - t0, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
