"""Company Commander's `correspondence` level: `hard`'s play improved by rollouts.

A tree search drowns in this game's dice (docs/ai.md), but one step of policy improvement does
not: for the few actions `hard` (`careful`) would consider, play each on to the end of the game
with `careful` for both sides, in the same deals of the unknown and with the same dice (the dice
are drawn by their count from the deal's seed, so every candidate meets the same throws while the
games agree), and play the one that wins most. Candidates clearly behind the leader are dropped
after each batch of deals, so a decision where one action stands out costs little.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from engine import search
from engine.companycommander import actions as A
from engine.companycommander.ai import careful, evaluate, quick
from engine.companycommander.state import State
from engine.companycommander.view import View
from engine.protocol import Action


@dataclass(frozen=True)
class Rollouts:
    """How hard the level looks: `candidates` actions, up to `deals` deals each in batches of
    `batch`, a candidate dropped when it trails the leader by `drop` standard errors; another
    action replaces careful's own pick only when it wins `prefer` more of the deals and `sure`
    standard errors more (the noise of a few dozen games would otherwise swap it for one no
    better); `cap_s` of CPU at most (a safety net: the deals bound it first)."""

    candidates: int = 5
    deals: int = 32
    batch: int = 8
    drop: float = 1.5
    prefer: float = 0.04
    sure: float = 1.0
    horizon: int = 600  # actions a playout may run before its position is judged instead
    cap_s: float = 20.0


CORRESPONDENCE_ROLLOUTS = Rollouts()
RESYNC = 1 << 20  # the playouts' draws of chance are numbered from here, far above a real game's
TURN_DRAWS = 1 << 12  # more draws than any turn makes


def _kind(state: State, side: str, a: Action) -> object:
    """Actions that do the same thing count once: a Fire by units of one type and Strength at one
    front, say (`careful` picks among them at random)."""
    if isinstance(a, A.Fire | A.Assault | A.Recon):
        u = state.forces[side][a.unit]
        return (type(a).__name__, u.front, u.type.key, u.left, u.pinned, getattr(a, "choice", ""))
    return str(a)


def candidates(state: State, side: str, pick: Action, most: int) -> list[Action]:
    """`pick` (careful's own choice) first, then the ending of the turn where it is legal (the
    question `careful` answers most often: one more assault or stop), then the best by `quick`."""
    legal = state.legal_actions(side)
    out: list[Action] = [pick]
    seen = {_kind(state, side, pick)}
    if A.END in legal and pick != A.END:
        out.append(A.END)
        seen.add(str(A.END))
    ranked = sorted(legal, key=lambda a: -quick(state, side, a))
    for a in ranked:
        if len(out) >= most:
            break
        k = _kind(state, side, a)
        if k not in seen:
            seen.add(k)
            out.append(a)
    return out


def playout(state: State, side: str, rng: random.Random, horizon: int) -> float:
    """`careful` for both sides to the end of the game: 1 won, 0 lost, a half drawn; a game still
    going after `horizon` actions is judged by its position.

    The dice are the deal's, but numbered afresh at every turn (`State.n` counts the draws of
    chance, and the dice are drawn by that count): candidates that roll a different number of
    times this turn still meet the same throws from the next turn on, which keeps their playouts
    alike and their difference a measure of the action, not of the dice. Each deal's seed is
    sampled, so every stream is as random as the game's own."""
    turn = -1
    for _ in range(horizon):
        if state.result is not None:
            w = state.result.winner
            return 0.5 if w is None else (1.0 if w == side else 0.0)
        if state.turns != turn:
            turn = state.turns
            state.n = RESYNC + turn * TURN_DRAWS
        actor = state.active
        state.apply(careful(state, actor, rng), actor)
    return 0.5 + 0.5 * evaluate(state, side)


def improve(view: View, seed: int, settings: Rollouts = CORRESPONDENCE_ROLLOUTS) -> Action:
    """The candidate with the best mean playout, in common deals of the unknown."""
    side = view.viewer
    assert side is not None, "a spectator has nothing to choose"
    first = view.determinize(random.Random(seed))
    pick = careful(first, side, random.Random(f"thumb:{seed}"))
    legal = first.legal_actions(side)
    if len(legal) == 1:
        return legal[0]
    cands = candidates(first, side, pick, settings.candidates)
    if len(cands) == 1:
        return pick
    clock: Callable[[], float] = search.clock
    start = clock()
    deal_rng = random.Random(f"rollouts:{seed}")
    alive = list(range(len(cands)))
    results: list[list[float]] = [[] for _ in cands]
    dealt = 0
    while dealt < settings.deals and len(alive) > 1:
        for _ in range(settings.batch):
            deal = view.determinize(deal_rng)
            dice = deal_rng.getrandbits(32)
            for i in alive:
                s = deal.clone()
                s._legal = None
                s.apply(cands[i], side)
                results[i].append(playout(s, side, random.Random(dice), settings.horizon))
            dealt += 1
        alive = _survivors(results, alive, settings.drop)
        if clock() - start > settings.cap_s:
            break
    best = max(alive, key=lambda i: (_mean(results[i]), -i))
    if 0 in alive and best != 0:
        gain, se = _paired(results[0], results[best])
        if gain < max(settings.prefer, settings.sure * se):
            return pick
    return cands[best]


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)


def _paired(base: list[float], other: list[float]) -> tuple[float, float]:
    """How much `other` beat `base` over the same deals, and the standard error of that."""
    diffs = [b - a for a, b in zip(base, other, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean, math.sqrt(var / n)


def _survivors(results: list[list[float]], alive: list[int], drop: float) -> list[int]:
    """The candidates not clearly behind the leader: by the paired differences over the same deals
    (the deals and dice are common, so the difference is much less noisy than either mean)."""
    lead = max(alive, key=lambda i: (_mean(results[i]), -i))
    keep = []
    for i in alive:
        if i == lead:
            keep.append(i)
            continue
        mean, se = _paired(results[i], results[lead])
        if mean <= drop * se or (se == 0.0 and len(results[i]) < 16):  # no spread: too few deals
            keep.append(i)
    return keep


__all__ = ["CORRESPONDENCE_ROLLOUTS", "Rollouts", "candidates", "improve", "playout"]
