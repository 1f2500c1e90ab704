"""Company Commander's `correspondence` level: `hard`'s play improved by rollouts.

A tree search drowns in this game's dice (docs/ai.md), but one step of policy improvement does
not: for the actions `hard` (`careful`) would consider, play each on with `careful` for both sides
until our next turn is over, in the same deals of the unknown and with the same dice for the same
action (the dice of an action are drawn by what it is, not by when it comes), judge the position
there by `evaluate`, and play the one that does best. Candidates clearly behind the leader are
dropped after each batch of deals, so a decision where one action stands out costs little.

Why cut the playouts: played to the game's end, two candidates' results differed by about 0.3 a
deal (win or loss), against differences of a few hundredths between good actions; judged after our
next turn they differ by about half as much, cost a third, and on a fixed set of positions picked
better actions by the full games' own count (docs/ai.md, "Company Commander").
"""

from __future__ import annotations

import math
import random
import zlib
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
    action replaces careful's own pick only when it scores `prefer` more (on the scale of a win,
    1) and `sure` standard errors more (the noise would otherwise swap it for one no better); a
    playout is judged once `turns` turns have begun after the decision's own (3: at the end of
    our next turn; 0 plays to the game's end); `cap_s` of CPU at most (a safety net: the deals
    bound it first)."""

    candidates: int = 8
    deals: int = 96
    batch: int = 8
    drop: float = 2.0
    prefer: float = 0.02
    sure: float = 1.0
    turns: int = 3
    horizon: int = 600  # actions a playout may run before its position is judged instead
    cap_s: float = 20.0


CORRESPONDENCE_ROLLOUTS = Rollouts()
RESYNC = 1 << 20  # the playouts' draws of chance are numbered from here, far above a real game's
ACTION_DRAWS = 64  # more draws of chance than any one action makes (the rallies at the end included)
KEYS = 1 << 24  # the numbers an action's dice may be keyed by


def dice_key(turn: int, side: str, action: str, again: int) -> int:
    """Where the draws of chance of `action` start: by the turn, the side, the action and how often
    it was made this turn, so the same action meets the same dice in every candidate's playout,
    whatever came before it (two Fires in the other order roll the same; a deterministic hash, so
    the level plays the same in any process)."""
    key = (turn * 7919 + zlib.crc32(f"{side}|{action}|{again}".encode())) % KEYS
    return RESYNC + key * ACTION_DRAWS


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


def playout(
    state: State, side: str, dice: int, until: int, horizon: int = 600, made: dict[str, int] | None = None
) -> float:
    """`careful` for both sides until turn `until` begins (0: to the end of the game): 1 won, 0
    lost, a half drawn, a position still in play judged by `evaluate` on the same scale.

    The dice are the deal's, keyed by each action (`dice_key`), and `careful`'s own tie-breaks are
    seeded afresh each turn: candidates that differ this turn still meet the same throws for the
    same actions afterwards, which keeps their playouts alike and their difference a measure of
    the action, not of the dice. Each deal's seed is sampled, so every stream is as random as the
    game's own. `made` counts the actions already made this turn (their dice are spent)."""
    turn = state.turns
    made = {} if made is None else made
    rng = random.Random(dice * 1000 + turn)
    for _ in range(horizon):
        if state.result is not None:
            w = state.result.winner
            return 0.5 if w is None else (1.0 if w == side else 0.0)
        if state.turns != turn:
            turn = state.turns
            if until and turn >= until:
                break
            made = {}
            rng = random.Random(dice * 1000 + turn)
        actor = state.active
        action = careful(state, actor, rng)
        _keyed(state, actor, action, made)
    return 0.5 + 0.5 * evaluate(state, side)


def _keyed(state: State, side: str, action: Action, made: dict[str, int]) -> None:
    """Apply `action` with its draws of chance keyed by what it is (`dice_key`)."""
    text = str(action)
    again = made.get(text, 0)
    made[text] = again + 1
    state.n = dice_key(state.turns, side, text, again)
    state.apply(action, side)


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
    clock: Callable[[], float] = search.now
    start = clock()
    deal_rng = random.Random(f"rollouts:{seed}")
    until = first.turns + settings.turns if settings.turns else 0
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
                made: dict[str, int] = {}
                _keyed(s, side, cands[i], made)
                if s.turns != first.turns:
                    made = {}
                results[i].append(playout(s, side, dice, until, settings.horizon, made))
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
