"""Battlefronts' judgement for the generic search: an evaluation, a playout policy and an ordering.

The search (`engine.search`) deals the face-down cards afresh every iteration, so these hooks only
need to judge a position and suggest sensible actions. What matters in this game: fronts held alone
(three win), the balance of strength where both sides stand (it decides who wears down whom), and
the cards each side has left (attrition is won by the side with more to lose).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from engine.battlefronts import actions as A
from engine.battlefronts.model import BATTLE_DIVISOR, FRONTS, SIDES, is_front, other
from engine.battlefronts.state import State


def _totals(state: State) -> dict[str, list[int]]:
    """Each side's strength and battalion count at each of the nine places."""
    out = {s: [0] * 18 for s in SIDES}
    for b in state.battalions:
        row = out[b.side]
        row[b.place] += b.strength if b.up else 5  # a face-down battalion is worth about a 5
        row[9 + b.place] += 1
    return out


def evaluate(state: State, side: str) -> float:
    """How good `state` is for `side`, in [-1, 1]."""
    if state.result is not None:
        w = state.result.winner
        return 0.0 if w is None else (1.0 if w == side else -1.0)
    foe = other(side)
    t = _totals(state)
    mine, theirs = t[side], t[foe]
    held_me = held_foe = 0
    fight = 0.0
    for f in FRONTS:
        a, b = mine[9 + f], theirs[9 + f]
        if a and not b:
            held_me += 1
        elif b and not a:
            held_foe += 1
        elif a and b:
            # Who wears whom down: damage dealt against damage taken, in reductions per round.
            fight += math.tanh(
                (math.ceil(mine[f] / BATTLE_DIVISOR) - math.ceil(theirs[f] / BATTLE_DIVISOR)) / 2
            )
    # Battalions in the travel zones next to a front can take it next round.
    reserve_me = sum(mine[9 + z] for z in (1, 3, 5, 7))
    reserve_foe = sum(theirs[9 + z] for z in (1, 3, 5, 7))
    cards = state.cards_left(side) - state.cards_left(foe)
    score = (
        0.30 * (held_me - held_foe)
        + (0.35 if held_me >= 2 else 0.0)
        - (0.35 if held_foe >= 2 else 0.0)
        + 0.12 * fight
        + 0.02 * (reserve_me - reserve_foe)
        + 0.012 * cards
    )
    return math.tanh(score)


def _score(state: State, side: str, action: A.Action) -> float:
    """A quick guess at how promising an action is (higher first)."""
    if isinstance(action, A.Reduce):
        b = state.find(action.unit)
        return -b.size if b else 0.0  # lose a small stack before a big one: it keeps the big one's reserve
    if isinstance(action, A.Call):
        # Mid-sized battalions: enough cards to last, not so many that the deck is gone in a round.
        want = 4 if len(state.decks[side]) > 16 else 3
        return 1.0 - abs(action.size - want) * 0.25 + (0.1 if action.zone in (3, 5) else 0.0)
    if isinstance(action, A.Pass | A.End):
        return -0.5
    if not isinstance(action, A.Move | A.Jump):
        return 0.0
    b = state.find(action.unit)
    if b is None:
        return 0.0
    foe = other(side)
    dest = action.dest
    if isinstance(action, A.Jump):
        theirs = state.total(foe, dest)
        mine = state.total(side, dest)
        return (1.0 if theirs == 0 else 0.4) - (0.6 if mine and not theirs else 0.0) - 0.3
    if is_front(dest):
        theirs = state.total(foe, dest)
        mine = state.total(side, dest)
        if not mine and not theirs:
            return 1.5  # an empty front: take it
        if not mine:
            return 1.0 + (0.3 if b.strength >= theirs else 0.0)
        return 0.5 if theirs else 0.2
    # Leaving a front for a travel zone: worth it only to save a weak stack from a lost fight.
    here = b.place
    if state.total(foe, here) > 2 * state.total(side, here) and len(state.at(side, here)) == 1:
        return 0.3
    return -1.0


def order(state: State, side: str, actions: Sequence[A.Action], rng: random.Random) -> list[A.Action]:
    scored = sorted(
        ((_score(state, side, a) + rng.random() * 0.05, i) for i, a in enumerate(actions)), reverse=True
    )
    return [actions[i] for _, i in scored]


def rollout(state: State, side: str, rng: random.Random) -> A.Action:
    """Mostly the best-looking action, sometimes any: a playout that resembles play."""
    legal = state.legal_actions(side)
    if rng.random() < 0.25:
        return rng.choice(legal)
    best = max(legal, key=lambda a: _score(state, side, a) + rng.random() * 0.3)
    return best


__all__ = ["evaluate", "order", "rollout"]
