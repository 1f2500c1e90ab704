"""Benchmark the AI levels against each other: win rates and think times over seeded games.

    PYTHONPATH=. .venv/bin/python bench/ai.py               # quick: 14 games per pairing (< 60 s on 2 cores)
    PYTHONPATH=. .venv/bin/python bench/ai.py --games 200   # the full run for docs/performance.md
    PYTHONPATH=. .venv/bin/python bench/ai.py --games 200 --seed 2   # a second, disjoint seed set

Each pairing plays both sides (the tested AI alternates between Germans and Canadians). Searches use
iteration budgets (reproducible) with the live time cap as a safety net. A game that reaches the
action cap counts as not won by the tested AI. The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.blockwars import Options, new_game
from engine.blockwars.ai import DEFAULT_BUDGETS, EASY, HARD, NORMAL, RANDOM, choose
from engine.blockwars.model import Side

PAIRINGS = ((HARD, RANDOM), (HARD, EASY), (NORMAL, RANDOM), (EASY, RANDOM))
MAX_ACTIONS = 1500


def play(task: tuple[str, str, int, dict[str, int]]) -> dict[str, object]:
    """One seeded game: `level` against `opponent`, the tested side alternating with the seed."""
    level, opponent, seed, iters = task
    tested = Side.GERMANS if seed % 2 == 0 else Side.CANADIANS
    state = new_game(Options(crosses=True, fighter_aces=True), seed)
    times: list[float] = []
    n = 0
    while not state.is_over() and n < MAX_ACTIONS:
        side = state.current_player()
        assert side is not None
        lvl = level if side is tested else opponent
        t0 = time.perf_counter()
        action = choose(state.view(side), lvl, seed * 100_003 + n, iterations=iters.get(lvl))
        dt = time.perf_counter() - t0
        if side is tested:
            times.append(dt)
        state.apply(action, side)
        n += 1
    outcome = state.outcome()
    winner = outcome.winner if outcome else None
    return {
        "level": level,
        "opponent": opponent,
        "tested": tested.value,
        "win": winner is tested,
        "capped": not state.is_over(),
        "actions": n,
        "times": times,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=14, help="games per pairing (200 for the full run)")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--normal-iters", type=int, default=None, help="rollouts per decision for normal")
    ap.add_argument("--hard-iters", type=int, default=None, help="rollouts per decision for hard")
    ap.add_argument("--seed", type=int, default=1, help="seed set: games use seed * 1,000,000 + game number")
    args = ap.parse_args()
    iters = {
        NORMAL: args.normal_iters or 24,
        HARD: args.hard_iters or 0,
    }
    tasks = [(lvl, opp, args.seed * 1_000_000 + g, iters) for lvl, opp in PAIRINGS for g in range(args.games)]
    t0 = time.perf_counter()
    with Pool(args.procs) as pool:
        results = pool.map(play, tasks, chunksize=1)
    wall = time.perf_counter() - t0
    summary: dict[str, object] = {
        "bench": "ai",
        "games_per_pairing": args.games,
        "seed": args.seed,
        "iterations": iters,
    }
    print(
        f"{'pairing':<18}{'win':>7}{'as G':>7}{'as C':>7}{'capped':>8}{'actions':>9}"
        f"{'think p50':>11}{'think p95':>11}{'max':>8}"
    )
    for lvl, opp in PAIRINGS:
        rows = [r for r in results if r["level"] == lvl and r["opponent"] == opp]
        wins = sum(1 for r in rows if r["win"]) / len(rows)
        by_side = {side: [r for r in rows if r["tested"] == side.value] for side in Side}
        side_wins = {sd: sum(1 for r in got if r["win"]) / max(len(got), 1) for sd, got in by_side.items()}
        capped = sum(1 for r in rows if r["capped"])
        acts = statistics.mean(int(r["actions"]) for r in rows)  # type: ignore[call-overload]
        times = sorted(t for r in rows for t in r["times"])  # type: ignore[attr-defined]
        p50 = times[len(times) // 2] if times else 0.0
        p95 = times[int(len(times) * 0.95)] if times else 0.0
        print(
            f"{lvl + ' v ' + opp:<18}{wins:>7.0%}"
            f"{side_wins[Side.GERMANS]:>7.0%}{side_wins[Side.CANADIANS]:>7.0%}"
            f"{capped:>8}{acts:>9.0f}{p50:>10.3f}s{p95:>10.3f}s"
            f"{(times[-1] if times else 0):>7.2f}s"
        )
        key = f"{lvl}_vs_{opp}"
        summary[f"{key}_win"] = round(wins, 3)
        summary[f"{key}_win_as_germans"] = round(side_wins[Side.GERMANS], 3)
        summary[f"{key}_win_as_canadians"] = round(side_wins[Side.CANADIANS], 3)
        summary[f"{key}_think_p95_s"] = round(p95, 4)
        summary[f"{key}_capped"] = capped
        if lvl == HARD and opp == RANDOM:
            summary["hard_think_p95_s"] = round(p95, 4)
    summary["wall_s"] = round(wall, 1)
    summary["live_budgets_s"] = DEFAULT_BUDGETS
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
