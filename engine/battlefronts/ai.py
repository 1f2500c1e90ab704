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
    """Per side and place: strength, battalions and cards (for judging a position)."""

    __slots__ = ("cards", "count", "strength")

    def __init__(self, state: State) -> None:
        self.strength = {RED: [0] * 9, BLUE: [0] * 9}
        self.count = {RED: [0] * 9, BLUE: [0] * 9}
        self.cards = {RED: [0] * 9, BLUE: [0] * 9}
        for b in state.battalions:
            p = b.place
            self.strength[b.side][p] += b.strength if b.up else FACE_DOWN_GUESS
            self.count[b.side][p] += 1
            self.cards[b.side][p] += len(b.cards)


def _other(side: str) -> str:
    return BLUE if side == RED else RED


def _damage(total: int) -> int:
    return -(-total // BATTLE_DIVISOR)


def evaluate(state: State, side: str) -> float:
    """How good `state` is for `side`, in [-1, 1]."""
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
