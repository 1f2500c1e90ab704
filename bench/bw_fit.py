"""Block Wars: fit the evaluation's weights to who went on to win, from games of `hard` against itself.

    .venv/bin/python bench/bw_fit.py                       # 40 games, a quick fit (under a minute)
    .venv/bin/python bench/bw_fit.py --games 600 --procs 2 --save /tmp/bw.json

Every term of `ai._side_score` is a weight times a count the position shows (infantry by rank, guns,
the tank's health, runners, exposure...), so the score is linear in `ai.Weights`' numeric fields.
This plays `--games` seeded games of `--level` against itself (no win check, the thread's CPU
clock), records each position where a side starts its turn, and fits a logistic regression of the
final result (a draw half) on the difference of the two sides' counts, with one bias per side to
move (the tempo and the sides' unequal games). Newton's method with a little L2 keeps it exact and
pure Python. The weights are printed scaled so that an infantry unit is worth 1, as the hand-tuned
ones are (with `--hold`, the named terms keep hard's weights and the rest are scaled to them: the
machine guns, the tank and the gas are each all on one side, so a free fit cannot tell their worth
from the side's), with the log-likelihood per position of the fit against hard's own weights on
the same positions (refitted only in scale), and on held-out games (every fifth game). The last line
is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import fields, replace
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import search
from engine.blockwars import ai, new_game
from engine.blockwars.model import Options, Side
from engine.blockwars.state import PLAY

MAX_ACTIONS = 3000
# The numeric fields the score is linear in; `adv[0]` is left at 0, as `inf` already counts the units.
GATES = {"cross_swing", "tank_runner", "quiet_fade"}
LINEAR = [f.name for f in fields(ai.Weights) if f.name not in GATES and f.name != "adv"]
NAMES = [f"adv{p}" for p in range(1, 7)] + LINEAR
# Counted with the tank's runner term on (hard's), everything else at zero.
_ZEROS: dict[str, Any] = {n: 0.0 for n in LINEAR}
ZERO = ai.Weights(adv=(0.0,) * 8, **_ZEROS, tank_runner=1.0)


def unit(name: str) -> ai.Weights:
    if name.startswith("adv"):
        adv = [0.0] * 8
        adv[int(name[3:])] = 1.0
        return replace(ZERO, adv=tuple(adv))
    one: dict[str, Any] = {name: 1.0}
    return replace(ZERO, **one)


UNITS = [unit(n) for n in NAMES]


def counts(s: Any, side: Side) -> list[float]:
    """The counts each weight multiplies for `side`, less the opponent's."""
    base = ai._side_score(s, side, ZERO) - ai._side_score(s, side.other, ZERO)
    return [ai._side_score(s, side, w) - ai._side_score(s, side.other, w) - base for w in UNITS]


def play(job: tuple[int, str]) -> list[tuple[int, list[float], float]]:
    """One game; every turn start as (mover is the Germans, counts for the mover, mover's result)."""
    seed, level = job
    search.clock = time.thread_time
    s = new_game(Options(), seed)
    rows: list[tuple[Side, list[float]]] = []
    n = 0
    last_turn = -1
    while not s.is_over() and n < MAX_ACTIONS:
        side = s.current_player()
        assert side is not None
        if s.phase == PLAY and s.pending is None and s.turn != last_turn and s.actions_left == 2:
            last_turn = s.turn
            rows.append((side, counts(s, side)))
        s.apply(ai.choose(s.view(side), level, seed * 100_003 + n, 100.0), side)
        n += 1
    winner = s.result.winner if s.result and s.is_over() else None
    out = []
    for side, x in rows:
        y = 0.5 if winner is None else 1.0 if Side(winner) is side else 0.0
        out.append((1 if side is Side.GERMANS else 0, x, y))
    return out


Row = tuple[int, list[float], float]


def design(rows: list[Row], cols: list[int]) -> list[tuple[list[float], float]]:
    """Each row as (bias for the Germans to move, bias for the Canadians, chosen counts), result."""
    return [([float(g), float(1 - g), *(x[c] for c in cols)], y) for g, x, y in rows]


def fit(data: list[tuple[list[float], float]], l2: float, iters: int = 25) -> list[float]:
    """Logistic regression by Newton's method (targets in [0, 1]); the biases are not shrunk."""
    k = len(data[0][0])
    b = [0.0] * k
    for _ in range(iters):
        g = [0.0] * k
        h = [[0.0] * k for _ in range(k)]
        for x, y in data:
            z = sum(bi * xi for bi, xi in zip(b, x, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            r = p - y
            w = p * (1 - p)
            for i, xi in enumerate(x):
                if xi:
                    g[i] += r * xi
                    hi = h[i]
                    wx = w * xi
                    for j in range(i + 1):
                        hi[j] += wx * x[j]
        for i in range(2, k):
            g[i] += l2 * b[i]
            h[i][i] += l2
        for i in range(k):
            for j in range(i):
                h[j][i] = h[i][j]
        step = solve(h, g)
        b = [bi - si for bi, si in zip(b, step, strict=True)]
        if max(abs(si) for si in step) < 1e-7:
            break
    return b


def solve(a: list[list[float]], v: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the Hessian is small)."""
    n = len(v)
    m = [[*row, v[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        if abs(m[r][r]) < 1e-12:
            continue
        x[r] = (m[r][n] - sum(m[r][j] * x[j] for j in range(r + 1, n))) / m[r][r]
    return x


def loglik(data: list[tuple[list[float], float]], b: list[float]) -> float:
    total = 0.0
    for x, y in data:
        z = sum(bi * xi for bi, xi in zip(b, x, strict=True))
        p = min(1 - 1e-9, max(1e-9, 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))))
        total += y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(data)


_HARD_VALUES = [ai.HARD_WEIGHTS.adv[p] for p in range(1, 7)] + [getattr(ai.HARD_WEIGHTS, n) for n in LINEAR]
HARD = dict(zip(NAMES, _HARD_VALUES, strict=True))


def hard_score(rows: list[Row]) -> list[Row]:
    """Hard's own evaluation of each row as one count (its weights dotted with the counts)."""
    return held_back(rows, NAMES)


def held_back(rows: list[Row], hold: list[str]) -> list[Row]:
    """Each row with the `hold` terms as one count at hard's weights, first, then the others."""
    at = [NAMES.index(n) for n in hold]
    free = [i for i in range(len(NAMES)) if i not in at]
    return [(g, [sum(HARD[NAMES[i]] * x[i] for i in at), *(x[i] for i in free)], y) for g, x, y in rows]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first", type=int, default=1, help="first seed")
    parser.add_argument("--procs", type=int, default=1)
    parser.add_argument("--level", default=ai.HARD)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--save", help="write the positions here (JSON) for another fit")
    parser.add_argument("--load", help="fit positions saved by --save instead of playing")
    parser.add_argument(
        "--hold", default="", help="terms kept at hard's weights (comma-separated), e.g. mg,tank_hp"
    )
    args = parser.parse_args()
    t0 = time.perf_counter()
    if args.load:
        games = json.loads(Path(args.load).read_text())
    else:
        jobs = [(seed, args.level) for seed in range(args.first, args.first + args.games)]
        with Pool(args.procs) as pool:
            games = pool.map(play, jobs, chunksize=1)
    if args.save:
        Path(args.save).write_text(json.dumps(games))
    hold = [n for n in args.hold.split(",") if n]
    names = ["held", *(n for n in NAMES if n not in hold)]
    raw_train = [r for i, g in enumerate(games) if i % 5 != 4 for r in g]
    raw_held = [r for i, g in enumerate(games) if i % 5 == 4 for r in g]
    train, held = held_back(raw_train, hold), held_back(raw_held, hold)
    # Terms no position ever shows are left out (their weight stays hard's).
    cols = [c for c in range(len(names)) if any(abs(x[c]) > 1e-9 for _, x, _ in train)]
    b = fit(design(train, cols), args.l2)
    hb = fit(design(hard_score(raw_train), [0]), 0.0)
    unit = "held" if hold else "inf"  # held terms keep hard's weights; else an infantry unit is 1
    scale = b[2 + cols.index(names.index(unit))]
    weights = {n: HARD[n] for n in hold}
    weights.update({names[c]: round(b[2 + i] / scale, 3) for i, c in enumerate(cols) if names[c] != "held"})
    out: dict[str, Any] = {
        "bench": "bw_fit",
        "games": len(games),
        "positions": len(train) + len(held),
        "held_at_hard": hold,
        f"logit_per_{'hard_point' if hold else 'infantry'}": round(scale, 4),
        "weights": weights,
        "bias_germans_to_move": round(b[0], 3),
        "bias_canadians_to_move": round(b[1], 3),
        "loglik_fit_train": round(loglik(design(train, cols), b), 4),
        "loglik_hard_train": round(loglik(design(hard_score(raw_train), [0]), hb), 4),
        "loglik_fit_held": round(loglik(design(held, cols), b), 4) if held else None,
        "loglik_hard_held": round(loglik(design(hard_score(raw_held), [0]), hb), 4) if held else None,
        "wall_s": round(time.perf_counter() - t0, 1),
    }
    for k, v in out.items():
        if k != "weights":
            print(f"{k}: {v}")
    for k, v in weights.items():
        print(f"  {k:>12} {v:8.3f}")
    print(json.dumps(out))


if __name__ == "__main__":
    random.seed(0)
    main()
