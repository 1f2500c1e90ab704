"""Battlefronts' judgement for the generic search: an evaluation, a playout policy and an ordering.

The search (`engine.search`) deals the face-down cards afresh every iteration, so these hooks only
judge a position and suggest sensible actions. What matters: fronts held alone (three win, and two
threaten it), who outlasts whom where both sides stand (damage per round against cards to lose),
reserves in the travel zones next to a front (they arrive next round), and the cards each side has
left (attrition is won by the side with more to lose).

Everything is read from one pass over the battalions (`Sums`), since the search calls these hooks
thousands of times a second.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from engine.battlefronts import actions as A
from engine.battlefronts.model import BATTLE_DIVISOR, BLUE, FRONTS, NEIGHBOURS, RED, Battalion, is_front
from engine.battlefronts.state import SUPPORT, State

FACE_DOWN_GUESS = 5  # what an unturned top is worth on average (Ace 1 ... 10, a face card ~ its stack)


class Counts:
    """Per side and place, the battalions there; and the battalions by name (for scoring actions)."""

    __slots__ = ("count", "units")

    def __init__(self, state: State) -> None:
        self.count = {RED: [0] * 9, BLUE: [0] * 9}
        self.units: dict[str, Battalion] = {}
        for b in state.battalions:
            self.count[b.side][b.place] += 1
            self.units[b.label] = b


class Sums:
    """Per side and place: strength, battalions and cards (for judging a position); per side, the
    places its face-led battalions (that may jump to any front) stand."""

    __slots__ = ("cards", "count", "jumpers", "strength")

    def __init__(self, state: State) -> None:
        self.strength = {RED: [0] * 9, BLUE: [0] * 9}
        self.count = {RED: [0] * 9, BLUE: [0] * 9}
        self.cards = {RED: [0] * 9, BLUE: [0] * 9}
        self.jumpers: dict[str, list[int]] = {RED: [], BLUE: []}
        for b in state.battalions:
            p = b.place
            up = b.up
            self.strength[b.side][p] += b.strength if up else FACE_DOWN_GUESS
            self.count[b.side][p] += 1
            n = len(b.cards)
            self.cards[b.side][p] += n
            if up and n > 1 and b.face_led:
                self.jumpers[b.side].append(p)


def _other(side: str) -> str:
    return BLUE if side == RED else RED


def _damage(total: int) -> int:
    return -(-total // BATTLE_DIVISOR)


# The threat term (issue 32): how likely each front is to be taken next round by the side that can
# reach it, weighed more where taking it gives that side three fronts alone.
THREAT_WEIGHT = 0.12  # a front likely to fall next round, whoever holds it now
WIN_THREAT_WEIGHT = 0.45  # the third front alone within the opponent's (or our) reach


def _reach(s: Sums, side: str, f: int) -> tuple[int, int]:
    """The strength and battalions `side` can have at front `f` after its next move phase: what is
    there, what stands in the travel zones beside it, and one jump by a face-led battalion from
    elsewhere (its face card discarded, the next card a guess)."""
    strength, count = s.strength[side], s.count[side]
    total, n = strength[f], count[f]
    for z in NEIGHBOURS[f]:
        total += strength[z]
        n += count[z]
    if any(p != f for p in s.jumpers[side]):
        total += FACE_DOWN_GUESS
        n += 1
    return total, n


def _take_chance(s: Sums, side: str, foe: str, f: int) -> float:
    """How likely `side` is to hold front `f` alone after next round's battle, judged from the
    reach of both sides (the moves of the next round not yet made): 0 where it cannot get there or
    already holds it alone (that is counted as held)."""
    reach, n = _reach(s, side, f)
    if not n:
        return 0.0
    theirs = s.count[foe][f]
    if not theirs:
        if s.count[side][f]:
            return 0.0  # held already
        # An empty front: taken by moving in, unless the other side can come too.
        return 0.35 if _reach(s, foe, f)[1] else 1.0
    # The other side stands there: its cards against the damage we can bring (ceil(strength/5) in
    # the battle, and one attrition where we stand already), with what it can bring up to hold on.
    support = sum(s.cards[foe][z] for z in NEIGHBOURS[f])
    damage = _damage(reach) + (1 if s.count[side][f] else 0)
    margin = s.cards[foe][f] + 0.5 * support - damage
    return 1.0 / (1.0 + math.exp(1.5 * margin + 0.5))


def _threats(s: Sums, side: str, foe: str, held_me: int, held_foe: int) -> float:
    """Our chances of taking fronts next round against the opponent's, each front counted, and a
    third front alone (the win) counted again."""
    mine: list[float] = []
    theirs: list[float] = []
    for f in FRONTS:
        mine.append(_take_chance(s, side, foe, f))
        theirs.append(_take_chance(s, foe, side, f))
    value = THREAT_WEIGHT * (sum(mine) - sum(theirs))
    if held_me >= 2:
        value += WIN_THREAT_WEIGHT * max(mine)
    if held_foe >= 2:
        value -= WIN_THREAT_WEIGHT * max(theirs)
    return value


def evaluate(state: State, side: str) -> float:
    """How good `state` is for `side`, in [-1, 1]."""
    return _judged(state, side, threats=True)


def evaluate_now(state: State, side: str) -> float:
    """`evaluate` blind to next round (no threat term): `easy`'s judgement. With the term, easy
    gained more than normal, whose playouts stop anywhere in a round, where the term reads a round
    half played as if it were about to start (normal beat easy 55 % of 40; without it for easy: 75 %)."""
    return _judged(state, side, threats=False)


def _judged(state: State, side: str, *, threats: bool) -> float:
    if state.result is not None:
        w = state.result.winner
        return 0.0 if w is None else (1.0 if w == side else -1.0)
    foe = _other(side)
    s = Sums(state)
    n_me, n_foe = s.count[side], s.count[foe]
    held_me = held_foe = 0
    fronts = 0.0
    for f in FRONTS:
        a, b = n_me[f], n_foe[f]
        if a and not b:
            held_me += 1
        elif b and not a:
            held_foe += 1
        elif a and b:
            # Rounds each side lasts here: its cards over the reductions it takes (battle + attrition).
            mine = s.cards[side][f] / (_damage(s.strength[foe][f]) + 1)
            theirs = s.cards[foe][f] / (_damage(s.strength[side][f]) + 1)
            fronts += math.tanh((mine - theirs) / 2.0) * 0.6
        # Battalions waiting in the neighbouring travel zones can reach this front next round.
        near = sum(n_me[z] - n_foe[z] for z in NEIGHBOURS[f])
        fronts += 0.08 * math.tanh(near)
    cards = state.cards_left(side) - state.cards_left(foe)
    score = (
        0.28 * (held_me - held_foe)
        + (0.3 if held_me >= 2 else 0.0)
        - (0.3 if held_foe >= 2 else 0.0)
        + 0.15 * fronts
        + 0.01 * cards
        + (_threats(s, side, foe, held_me, held_foe) if threats else 0.0)
    )
    return math.tanh(score)


def _score(state: State, s: Counts, side: str, action: A.Action) -> float:
    """A quick guess at how promising an action is (higher first)."""
    if isinstance(action, A.Pass | A.End):
        return -0.2
    if isinstance(action, A.Reduce):
        b = s.units.get(action.unit)
        return b.size if b else 0.0  # keep battalions alive: take the card off the bigger stack
    if isinstance(action, A.Call):
        # Three-card battalions did best in heuristic self-play (against 1, 2, 4, 5, 6, 9 and 13).
        return 1.0 - abs(action.size - 3) * 0.3 + (0.1 if action.zone in (3, 5) else 0.0)
    if not isinstance(action, A.Move | A.Jump):
        return 0.0
    b = s.units.get(action.unit)
    if b is None:
        return 0.0
    foe = _other(side)
    dest = action.dest
    mine, theirs = s.count[side][dest], s.count[foe][dest]
    if isinstance(action, A.Jump):
        gain = 1.2 if not theirs and not mine else (0.6 if theirs else -0.5)
        return gain - 0.4
    if is_front(dest):
        if not mine and not theirs:
            return 1.5  # an empty front: take it
        if not mine:
            return 1.0  # contest an enemy front
        return 0.5 if theirs else 0.1
    # From a front back to a travel zone: only to save a lone, outmatched stack.
    here = b.place
    if s.count[side][here] == 1 and state.total(foe, here) > 2 * b.strength:
        return 0.3
    return -1.0


def order(state: State, side: str, actions: Sequence[A.Action], rng: random.Random) -> list[A.Action]:
    s = Counts(state)
    scored = sorted(
        ((_score(state, s, side, a) + rng.random() * 0.05, i) for i, a in enumerate(actions)), reverse=True
    )
    return [actions[i] for _, i in scored]


def rollout(state: State, side: str, rng: random.Random) -> A.Action:
    """Mostly the best-looking action, sometimes any: a playout that resembles play."""
    legal = state.legal_actions(side)
    if len(legal) == 1 or rng.random() < 0.2:
        return rng.choice(legal)
    if state.phase == SUPPORT and state.waiting is None:
        # Call up small battalions into the free zones (scoring 50 call-ups each step is too slow).
        calls = [a for a in legal if isinstance(a, A.Call) and 2 <= a.size <= 4]
        if calls:
            return rng.choice(calls)
    s = Counts(state)
    return max(legal, key=lambda a: _score(state, s, side, a) + rng.random() * 0.4)


__all__ = ["FACE_DOWN_GUESS", "Counts", "Sums", "evaluate", "order", "rollout"]


def idle(state: object, side: str) -> A.Action | None:
    """What a side plays in the win check (`engine.search.Guard.idle`) where its choice cannot stop
    the line in progress: in the support phase call-ups only fill travel zones, so the battle that
    follows (and the check for a win after it) is decided by the fronts as the move phase left them."""
    assert isinstance(state, State)
    if state.phase == SUPPORT and side in state.to_act():
        legal = state.legal_actions(side)
        return A.PASS if A.PASS in legal else (legal[0] if legal else None)
    return None
