"""The AI ladder of one game: every adjacent pair of levels plays, and each level gets an Elo.

    .venv/bin/python bench/ladder.py --game blockwars             # the full ladder: 40 games a pairing
    .venv/bin/python bench/ladder.py --game blockwars --quick     # a smoke run, well under a minute
    .venv/bin/python bench/ladder.py --game blockwars --pair search:hard --budget 1.5

Pairings are the adjacent levels of random < easy < normal < hard that the game has (any other
pair with `--pair stronger:weaker`). Every pairing plays the same seeds (`--seed` onwards, listed in
the figures); the stronger level plays the first side on even seeds and the second on odd ones, so
sides alternate. Both levels play through the protocol exactly as the bot plays them: `Game.choose`
on the side's `View`, with the level's own settings (its iteration budget, its time cap as a safety
net) unless `--budget` gives every decision the same time. A game that reaches the action cap is
scored as a draw and counted as capped.

Figures: the win rate of each level against each other it met (wins only; draws apart), each
level's think time per decision (p50/p95/max, wall clock and CPU) and per whole turn (a run of
decisions by one side; wall clock and CPU), and an Elo per level fitted to all games (Bradley-Terry by maximum
likelihood, a draw half a win, one virtual draw per pairing so a clean sweep stays finite), with
`random` anchored at 0. Games run on every core (`--procs`). The last line is one JSON object.

`--cpu-clock` makes every search's clock the CPU time of its own thread (`time.thread_time`) instead
of the wall clock: a time budget then means the same thinking on a busy machine as on a quiet one
(where the two agree, since a decision runs in one thread), and the run may be paused or niced
without changing a game. Production keeps the wall clock (a player waits in wall-clock time).

`--quick` plays 2 games a pairing at 0.05 s a decision: it checks that the machinery and every level
run, not how strong they are. A full run's duration per game is in docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections import defaultdict
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import registry, search

LADDER = ("random", "easy", "normal", "hard")
MAX_ACTIONS = 3000
QUICK_GAMES = 2
QUICK_BUDGET_S = 0.05

Task = tuple[str, str, str, int, float | None, int]  # game, stronger, weaker, seed, budget, index


def _use_cpu_clock() -> None:
    """In each game-playing process: searches time themselves by their thread's CPU time."""
    search.clock = time.thread_time


def play(task: Task) -> dict[str, Any]:
    """One seeded game; the stronger level plays the first side on even seeds."""
    game, strong, weak, seed, budget, index = task
    rules = registry.game(game)
    first, second = (s.name for s in rules.sides)
    strong_side = first if seed % 2 == 0 else second
    state = rules.new_game({}, seed)
    think: dict[str, list[float]] = {strong: [], weak: []}
    cpu: dict[str, list[float]] = {strong: [], weak: []}
    turns: dict[str, list[float]] = {strong: [], weak: []}
    turns_cpu: dict[str, list[float]] = {strong: [], weak: []}
    run_side: str | None = None
    run_total = run_cpu = 0.0
    n = 0
    started = time.perf_counter()
    while not state.is_over() and n < MAX_ACTIONS:
        side = min(state.to_act())
        level = strong if side == strong_side else weak
        w0, c0 = time.perf_counter(), time.thread_time()
        action = rules.choose(state.view(side), level, seed * 100_003 + n, budget)
        took, used = time.perf_counter() - w0, time.thread_time() - c0
        think[level].append(took)
        cpu[level].append(used)
        if side != run_side:
            if run_side is not None:
                turns[strong if run_side == strong_side else weak].append(run_total)
                turns_cpu[strong if run_side == strong_side else weak].append(run_cpu)
            run_side, run_total, run_cpu = side, 0.0, 0.0
        run_total += took
        run_cpu += used
        state.apply(action, side)
        n += 1
    if run_side is not None:
        turns[strong if run_side == strong_side else weak].append(run_total)
        turns_cpu[strong if run_side == strong_side else weak].append(run_cpu)
    outcome = state.outcome()
    if outcome is None or outcome.winner is None:
        score = 0.5
    else:
        score = 1.0 if outcome.winner == strong_side else 0.0
    return {
        "index": index,
        "strong": strong,
        "weak": weak,
        "seed": seed,
        "strong_side": strong_side,
        "score": score,  # of the stronger level: 1 won, 0.5 drawn or capped, 0 lost
        "capped": not state.is_over(),
        "actions": n,
        "wall_s": time.perf_counter() - started,
        "think": think,
        "cpu": cpu,
        "turns": turns,
        "turns_cpu": turns_cpu,
    }


def pairings(levels: tuple[str, ...], extra: list[str]) -> list[tuple[str, str]]:
    """Adjacent ladder levels the game has (stronger first), then the pairs asked for."""
    ladder = [lvl for lvl in LADDER if lvl in levels]
    out = [(ladder[i + 1], ladder[i]) for i in range(len(ladder) - 1)]
    for text in extra:
        strong, _, weak = text.partition(":")
        if strong not in levels or weak not in levels:
            raise SystemExit(f"--pair {text}: the levels are {', '.join(levels)}")
        out.append((strong, weak))
    return out


def elo(results: list[dict[str, Any]], anchor: str = "random") -> dict[str, float]:
    """Elo per level by maximum likelihood (Bradley-Terry, a draw half a win), `anchor` at 0.

    One virtual draw per pairing keeps a 40-0 sweep finite (it then reads about +760).
    """
    score: dict[tuple[str, str], float] = defaultdict(float)  # (a, b) with a < b: a's points
    games: dict[tuple[str, str], int] = defaultdict(int)
    for r in results:
        a, b, s = r["strong"], r["weak"], float(r["score"])
        if a > b:
            a, b, s = b, a, 1.0 - s
        score[(a, b)] += s
        games[(a, b)] += 1
    for key in list(games):
        score[key] += 0.5
        games[key] += 1
    players = sorted({p for key in games for p in key})
    strength = dict.fromkeys(players, 1.0)
    for _ in range(10_000):  # minorization-maximization (Hunter 2004); converges in a few hundred
        moved = 0.0
        for p in players:
            won = sum(score[k] if k[0] == p else games[k] - score[k] for k in games if p in k)
            denom = sum(games[k] / (strength[k[0]] + strength[k[1]]) for k in games if p in k)
            new = won / denom if denom else strength[p]
            moved = max(moved, abs(math.log(new / strength[p])))
            strength[p] = new
        if moved < 1e-10:
            break
    base = strength.get(anchor, min(strength.values()))
    return {p: round(400.0 * math.log10(strength[p] / base), 1) + 0.0 for p in sorted(players, key=_rank)}


def _rank(level: str) -> tuple[int, str]:
    """Ladder order, other levels after."""
    return (LADDER.index(level) if level in LADDER else len(LADDER), level)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def summary(game: str, results: list[dict[str, Any]], pairs: list[tuple[str, str]]) -> dict[str, Any]:
    win: dict[str, dict[str, float]] = defaultdict(dict)
    draws: dict[str, dict[str, int]] = defaultdict(dict)
    capped: dict[str, int] = {}
    seeds: dict[str, str] = {}
    per_side: dict[str, dict[str, float]] = {}
    for strong, weak in pairs:
        rows = [r for r in results if r["strong"] == strong and r["weak"] == weak]
        n = len(rows)
        won = sum(1 for r in rows if r["score"] == 1.0)
        lost = sum(1 for r in rows if r["score"] == 0.0)
        key = f"{strong}_v_{weak}"
        win[strong][weak] = round(won / n, 3)
        win[weak][strong] = round(lost / n, 3)
        draws[strong][weak] = draws[weak][strong] = n - won - lost
        capped[key] = sum(1 for r in rows if r["capped"])
        got = sorted(r["seed"] for r in rows)
        seeds[key] = f"{got[0]}-{got[-1]}" if got == list(range(got[0], got[-1] + 1)) else str(got)
        by_side: dict[str, list[float]] = defaultdict(list)
        for r in rows:
            by_side[r["strong_side"]].append(1.0 if r["score"] == 1.0 else 0.0)
        per_side[key] = {side: round(statistics.mean(v), 3) for side, v in sorted(by_side.items())}
    think: dict[str, dict[str, float]] = {}
    levels = sorted({lvl for pair in pairs for lvl in pair}, key=_rank)
    for level in levels:
        walls = [t for r in results for t in r["think"].get(level, [])]
        cpus = [t for r in results for t in r["cpu"].get(level, [])]
        turns = [t for r in results for t in r["turns"].get(level, [])]
        turns_cpu = [t for r in results for t in r["turns_cpu"].get(level, [])]
        think[level] = {
            "decisions": len(walls),
            "p50_s": round(percentile(walls, 50), 4),
            "p95_s": round(percentile(walls, 95), 4),
            "max_s": round(max(walls, default=0.0), 4),
            "cpu_p95_s": round(percentile(cpus, 95), 4),
            "turn_p95_s": round(percentile(turns, 95), 3),
            "turn_max_s": round(max(turns, default=0.0), 3),
            "turn_cpu_p95_s": round(percentile(turns_cpu, 95), 3),
            "turn_cpu_max_s": round(max(turns_cpu, default=0.0), 3),
        }
    return {
        "win_rate": dict(win),
        "draws": dict(draws),
        "win_rate_by_side_of_stronger": per_side,
        "capped": capped,
        "seeds": seeds,
        "think": think,
        "elo": elo(results),
        "mean_actions": round(statistics.mean(r["actions"] for r in results), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="blockwars", choices=registry.names())
    parser.add_argument("--games", type=int, default=40, help="games per pairing (default 40)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (every pairing plays the same)")
    parser.add_argument(
        "--quick", action="store_true", help=f"{QUICK_GAMES} games a pairing, {QUICK_BUDGET_S} s a decision"
    )
    parser.add_argument("--budget", type=float, default=None, help="seconds per decision for every level")
    parser.add_argument("--pair", action="append", default=[], help="another pairing, stronger:weaker")
    parser.add_argument("--only-pairs", action="store_true", help="play only the --pair pairings")
    parser.add_argument("--procs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--cpu-clock", action="store_true", help="searches count CPU seconds, not wall-clock seconds"
    )
    args = parser.parse_args()
    rules = registry.game(args.game)
    games, budget = (QUICK_GAMES, QUICK_BUDGET_S) if args.quick else (args.games, args.budget)
    pairs = pairings(rules.ai.names, args.pair)
    if args.only_pairs:
        pairs = pairs[len(pairs) - len(args.pair) :]
    # The costliest pairings first, so the last games to finish are short ones.
    order = sorted(pairs, key=lambda p: -max(_rank(x)[0] for x in p))
    tasks: list[Task] = [
        (args.game, strong, weak, args.seed + g, budget, i)
        for i, (strong, weak, g) in enumerate((s, w, g) for s, w in order for g in range(games))
    ]
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    with Pool(max(1, args.procs), initializer=_use_cpu_clock if args.cpu_clock else None) as pool:
        for r in pool.imap_unordered(play, tasks, chunksize=1):
            results.append(r)
            verdict = {1.0: "won", 0.5: "drew", 0.0: "lost"}[r["score"]]
            print(
                f"[{len(results)}/{len(tasks)} {time.perf_counter() - started:6.0f}s] {r['strong']} v "
                f"{r['weak']} seed {r['seed']} ({r['strong_side']}): {verdict} in {r['actions']} actions, "
                f"{r['wall_s']:.0f}s",
                file=sys.stderr,
                flush=True,
            )
    wall = time.perf_counter() - started
    figures: dict[str, Any] = {
        "bench": "ladder",
        "game": args.game,
        "games_per_pairing": games,
        "budget_s": budget,
        "clock": "cpu" if args.cpu_clock else "wall",
        "quick": args.quick,
        **summary(args.game, results, pairs),
        "procs": args.procs,
        "wall_s": round(wall, 1),
        "date": time.strftime("%Y-%m-%d"),
    }
    for strong, weak in pairs:
        key = f"{strong}_v_{weak}"
        won, drawn = figures["win_rate"][strong][weak], figures["draws"][strong][weak]
        print(
            f"{key:<20} won {won:>6.1%}  drawn {drawn:>3}  capped {figures['capped'][key]:>3}"
            f"  by side {figures['win_rate_by_side_of_stronger'][key]}"
        )
    for level, t in figures["think"].items():
        print(
            f"{level:<8} Elo {figures['elo'].get(level, 0.0):>7.1f}  think p50 {t['p50_s']:.3f}s "
            f"p95 {t['p95_s']:.3f}s max {t['max_s']:.3f}s (cpu p95 {t['cpu_p95_s']:.3f}s)  "
            f"turn p95 {t['turn_p95_s']:.2f}s max {t['turn_max_s']:.2f}s "
            f"(cpu p95 {t['turn_cpu_p95_s']:.2f}s max {t['turn_cpu_max_s']:.2f}s)"
        )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
