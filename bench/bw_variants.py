"""Block Wars: ways to play better than `hard`, each against `hard` in paired self-play.

    .venv/bin/python bench/bw_variants.py specials --first 1 --last 30
    .venv/bin/python bench/bw_variants.py deep --first 1 --last 20

Each variant is `hard` with one piece of its thinking replaced, played as `bench/bw_selfplay.py`
plays its variants (every seed from both sides, without the win check, the thread's CPU clock), so
`hard` against itself scores exactly 50 % and the figures compare with that tool's:
- `specials`: fights judged over every class of card pair, the King, Ace and Jack apart (about
  twenty outcomes instead of hard's plain win, tie and loss), so barrages, reinforcements and air
  strikes in the middle of a turn are seen;
- `decisions`: a barrage, an Ace's reinforcement, an aircraft, a strafe or the Cross chosen by
  hard's judgement of what each choice leaves, averaged over 12 deals, instead of the rules of thumb;
- `winprob`: every planned turn judged by the chance to win its end gives (hard's evaluation through
  the logistic curve fitted to 600 games of hard against itself by `bench/bw_fit.py`), so a gamble
  is weighed by what it does to the game, not by a win's 1,000 points;
- `deep`: hard's three best first actions, each with the turn hard finishes it with, the opponent's
  whole turn as hard plans it, and hard's own best next turn, judged where that ends (80 % of each
  turn's likeliest ends; about 0.1 s of CPU a decision);
- `checkerboard`, `wide`, `narrow`: hard deploying in another of the offered layouts than the
  standard one it always takes.
They live here, not in the engine, because none beat `hard` (docs/ai.md, Block Wars); the swap is a
module attribute of `engine.blockwars.ai`, put back after every decision, so `hard` on the other
side plays as it always does. The last line printed is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bw_selfplay import paired
from engine import search
from engine.blockwars import ai, correspondence, new_game
from engine.blockwars.actions import Action
from engine.blockwars.ai import HARD, Leaves
from engine.blockwars.model import Options, Side
from engine.blockwars.state import PLAY, SETUP, State, View

MAX_ACTIONS = 3000
SPECIAL = (11, 13, 14)  # Jack, King, Ace
PRUNE = 0.004  # card-pair classes rarer than this are left out (their share spread over the rest)
DECISION_DEALS = 12
# hard's evaluation against the result of 600 games of hard against itself (bench/bw_fit.py, the
# biases by side to move): P(mover wins) = 1 / (1 + exp(-(K * eval + BIAS[mover]))).
WIN_K = 0.1716
WIN_BIAS = {Side.GERMANS: 0.2307, Side.CANADIANS: -0.1014}
DEEP_CANDIDATES = 3
DEEP_MASS = 0.8

_outcomes, _leaf_value, _choose = ai.outcomes, ai.leaf_value, ai.choose


def card_classes(counts: list[int], need: int) -> list[tuple[float, tuple[int, int]]]:
    """The fight's (attacker, defender) card pairs grouped by special card and result, each with its
    chance and its likeliest pair of ranks."""
    groups: dict[tuple[int, int, str], list[Any]] = {}
    for a in range(2, 15):
        for d in range(2, 15):
            n = counts[a] * (counts[d] - (1 if a == d else 0))
            if n <= 0:
                continue
            result = "win" if a - d >= need else "loss" if d > a else "tie"
            key = (a if a in SPECIAL else 0, d if d in SPECIAL else 0, result)
            g = groups.setdefault(key, [0, 0, (a, d)])
            g[0] += n
            if n > g[1]:
                g[1], g[2] = n, (a, d)
    total = sum(g[0] for g in groups.values())
    return [(g[0] / total, g[2]) for g in groups.values()]


def outcomes_with_specials(
    view: View, side: Side, a: Action, rng: random.Random, counts: list[int], w: ai.Weights = ai.PLAIN
) -> list[tuple[float, State]]:
    base = ai._sample(view, rng)
    need = ai.fight_need(base, side, a)
    out: list[tuple[float, State]] = []
    for p, (ar, dr) in card_classes(counts, need) if need else []:
        s = base.clone()
        if p >= PRUNE and ai._force(s, side, ar, dr):
            s.apply(a)
            ai._settle(s, side, counts, w)
            out.append((p, s))
    if out:
        weight = sum(p for p, _ in out)
        return [(p / weight, s) for p, s in out]
    base.apply(a)
    ai._settle(base, side, counts, w)
    return [(1.0, base)]


def choose_decisions(view: View, level: str, seed: int, budget_s: float | None = None) -> Action:
    s, side = view.state, view.side
    legal = s.legal_actions()
    if side is None or s.phase != PLAY or s.pending is None or len(legal) <= 1:
        return _choose(view, level, seed, budget_s)
    counts = ai._rank_counts(s)
    w, cfg = ai.level_weights(HARD, side), ai.search_config(HARD, side)
    odds: ai.Odds = {1: ai.fight_odds(counts, 1), 2: ai.fight_odds(counts, 2)}
    rng = random.Random(f"decide:{s.turn}:{len(legal)}")
    deals = [rng.getrandbits(48) for _ in range(DECISION_DEALS)]

    def worth(a: Action) -> float:
        total = 0.0
        for deal in deals:
            t = ai._sample(view, random.Random(deal))
            t.apply(a)
            ai._settle(t, side, counts, w)
            total += ai.leaf_value(t, side, w, cfg.wary if t.active is not side else 0.0, odds)
        return total

    return max(legal, key=worth)


def leaf_win_chance(
    s: State, side: Side, w: ai.Weights, wary: float = 0.0, odds: ai.Odds | None = None
) -> float:
    v = _leaf_value(s, side, w, wary, odds)
    if s.phase != PLAY:
        return 1.0 if v > 0 else 0.0 if v < 0 else 0.5
    z = WIN_K * v - WIN_BIAS[side.other]  # a planned turn's end: the opponent moves next
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def _likeliest(leaves: Leaves) -> Iterator[tuple[float, State]]:
    """The turn's likeliest ends up to DEEP_MASS of the chance, each with its renormalised share."""
    kept: Leaves = []
    for p, s in sorted(leaves, key=lambda t: -t[0]):
        kept.append((p, s))
        if sum(q for q, _ in kept) >= DEEP_MASS:
            break
    mass = sum(q for q, _ in kept)
    return ((p / mass, s) for p, s in kept)


def _best_turn(s: State, side: Side, seed: int) -> float:
    """Hard's judgement of the turn it would play from `s` (at its end, as it judges its own)."""
    w, cfg = ai.level_weights(HARD, side), ai.search_config(HARD, side)
    counts = ai._rank_counts(s)
    odds: ai.Odds = {1: ai.fight_odds(counts, 1), 2: ai.fight_odds(counts, 2)}
    plan = correspondence.hard_plans(View(s, side), side, random.Random(seed), counts, math.inf, 1)
    return sum(p * ai.leaf_value(t, side, w, cfg.wary, odds) for p, t in plan[0][1])


def _after_two_turns(leaves: Leaves, side: Side, seed: int) -> float:
    w = ai.level_weights(HARD, side)
    total = 0.0
    for p, e in _likeliest(leaves):
        e = correspondence.handed_over(e, side, ai._rank_counts(e), w)
        if e.phase != PLAY or e.pending is not None or e.active is side:
            total += p * ai.evaluate(e, side, w)
            continue
        counts = ai._rank_counts(e)
        reply = correspondence.hard_plans(
            View(e, side.other), side.other, random.Random(seed), counts, math.inf, 1
        )
        for q, f in _likeliest(reply[0][1]):
            f = correspondence.handed_over(f, side.other, ai._rank_counts(f), w)
            ours = f.phase == PLAY and f.pending is None and f.active is side
            total += p * q * (_best_turn(f, side, seed) if ours else ai.evaluate(f, side, w))
    return total


def choose_deep(view: View, level: str, seed: int, budget_s: float | None = None) -> Action:
    s, side = view.state, view.side
    if (
        side is None
        or s.phase != PLAY
        or s.pending is not None
        or s.actions_left != 2
        or len(s.legal_actions()) == 1
    ):
        return _choose(view, level, seed, budget_s)
    rng = random.Random(f"deep:{seed}")
    plans = correspondence.hard_plans(view, side, rng, ai._rank_counts(s), math.inf, DEEP_CANDIDATES)
    seed2 = rng.getrandbits(32)
    return max(plans, key=lambda plan: _after_two_turns(plan[1], side, seed2))[0]


def deploying(k: int) -> Callable[..., Action]:
    """Hard that deploys in the set-up's `k`-th offered layout (0 is the standard one it always takes)."""

    def choose(view: View, level: str, seed: int, budget_s: float | None = None) -> Action:
        s = view.state
        return s.legal_actions()[k] if s.phase == SETUP else _choose(view, level, seed, budget_s)

    return choose


VARIANTS: dict[str, dict[str, Callable[..., Any]]] = {
    "specials": {"outcomes": outcomes_with_specials},
    "decisions": {"choose": choose_decisions},
    "winprob": {"leaf_value": leaf_win_chance},
    "deep": {"choose": choose_deep},
    "checkerboard": {"choose": deploying(1)},
    "wide": {"choose": deploying(2)},
    "narrow": {"choose": deploying(3)},
}


@contextmanager
def swapped(name: str) -> Iterator[None]:
    """`engine.blockwars.ai` with the variant's functions in place of hard's, for one decision."""
    old = {attr: getattr(ai, attr) for attr in VARIANTS[name]}
    for attr, fn in VARIANTS[name].items():
        setattr(ai, attr, fn)
    try:
        yield
    finally:
        for attr, fn in old.items():
            setattr(ai, attr, fn)


def play(seed: int, variant_side: Side, name: str) -> Side | None:
    s = new_game(Options(), seed)
    n = 0
    while not s.is_over() and n < MAX_ACTIONS:
        side = s.current_player()
        assert side is not None
        view, key = s.view(side), seed * 100_003 + n
        if side is variant_side:
            with swapped(name):
                action = ai.choose(view, HARD, key, 100.0)
        else:
            action = ai.choose(view, HARD, key, 100.0)
        s.apply(action, side)
        n += 1
    winner = s.result.winner if s.result else None
    return Side(winner) if winner else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", choices=sorted(VARIANTS))
    parser.add_argument("--first", type=int, default=1, help="first seed")
    parser.add_argument("--last", type=int, default=2, help="last seed")
    args = parser.parse_args()
    search.clock = time.thread_time
    t0 = time.process_time()
    seeds = range(args.first, args.last + 1)
    out: dict[str, Any] = {
        "bench": "bw_variants",
        "variant": args.variant,
        "seeds": f"{args.first}-{args.last}",
    }
    out.update(paired(seeds, lambda seed, side: play(seed, side, args.variant)))
    out["cpu_s"] = round(time.process_time() - t0, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
