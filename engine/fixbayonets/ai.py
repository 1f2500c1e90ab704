"""The AI's judgement for the generic search: a position's value, a playout policy and move order.

Everything works on a determinized state the search dealt from the AI's own view, so the hands it
reads are guesses, never the opponent's real cards. The evaluation counts officers (the whole
game), men, how exposed each officer is and how close the men stand to the enemy officers.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from engine.fixbayonets import actions as A
from engine.fixbayonets.cards import ATTACK, CARD_TYPES, MOVE, TERRAIN, Card
from engine.fixbayonets.model import (
    BACK_RANK,
    LOSS_ORDER,
    MEN_PER_SIDE,
    SIDES,
    UNIT_KINDS,
    other,
    side_units,
)
from engine.fixbayonets.state import DISCARD, FIGHTING, MOVING, SETUP, State
from engine.fixbayonets.tables import ATTACK_MASKS, BIT
from engine.protocol import Action
from engine.protocol import State as AnyState
from engine.search import Guard

VALUE = {"O": 10.0, "H": 1.6, "S": 1.4, "U": 1.0, "R": 1.0}
ALL_SQUARES = range(64)


def _reach(side: str, kind: str, sq: int, *, area_only: bool = False) -> int:
    mask = 0
    for c in CARD_TYPES:
        if c.kind == ATTACK and kind in c.users and c.usable_by(side) and (c.area or not area_only):
            mask |= ATTACK_MASKS[c.index][sq]
    return mask


# REACH[side][kind][sq]: every square that kind of man of that side could hit from sq with some card.
REACH = {s: {k: tuple(_reach(s, k, q) for q in ALL_SQUARES) for k in "OHSUR"} for s in SIDES}
AREA_REACH = {
    s: {k: tuple(_reach(s, k, q, area_only=True) for q in ALL_SQUARES) for k in "OHSUR"} for s in SIDES
}


def _threats(state: State, side: str) -> tuple[int, int]:
    """Masks of squares `side` threatens with any attack, and with a whole-stack attack."""
    any_mask = area = 0
    reach, area_reach = REACH[side], AREA_REACH[side]
    for u in side_units(side):
        sq = state.where[u]
        if sq >= 0:
            k = UNIT_KINDS[u % MEN_PER_SIDE]
            any_mask |= reach[k][sq]
            area |= area_reach[k][sq]
    return any_mask, area


def _officer_risk(state: State, side: str, threat: tuple[int, int]) -> float:
    """How exposed `side`'s officers are to the other side's men (0: out of every reach)."""
    any_mask, area = threat
    risk = 0.0
    base = 0 if side == "germans" else MEN_PER_SIDE
    for u in (base, base + 1):
        sq = state.where[u]
        if sq < 0:
            continue
        alone = len(state.stacks[sq]) == 1
        if any_mask & BIT[sq] and alone:
            risk += 1.0
        elif area & BIT[sq]:
            risk += 0.6
    return risk


def score(state: State, side: str) -> float:
    """The position for `side`, unbounded (positive is good)."""
    them = other(side)
    mine_off, their_off = state.officers_alive(side), state.officers_alive(them)
    total = 3.0 * (mine_off - their_off)
    for u in range(2 * MEN_PER_SIDE):
        if state.alive[u]:
            v = VALUE[UNIT_KINDS[u % MEN_PER_SIDE]] if UNIT_KINDS[u % MEN_PER_SIDE] != "O" else 0.0
            total += 0.12 * v if (u < MEN_PER_SIDE) == (side == "germans") else -0.12 * v
    if state.phase == SETUP:
        return total
    my_threat, their_threat = _threats(state, side), _threats(state, them)
    total -= 0.9 * _officer_risk(state, side, their_threat)
    total += 0.6 * _officer_risk(state, them, my_threat)
    total += 0.04 * _approach(state, side) - 0.04 * _approach(state, them)
    hand = state.hands[side]
    total += 0.05 * sum(1 for c in hand if c.kind == TERRAIN and c.usable_by(side))
    total += 0.03 * sum(1 for c in hand if c.kind == ATTACK and c.usable_by(side))
    return total


def _approach(state: State, side: str) -> float:
    """Non-officers' progress towards the enemy back row (capped), officers' distance from danger."""
    back = BACK_RANK[side]
    out = 0.0
    for u in side_units(side):
        sq = state.where[u]
        if sq < 0:
            continue
        steps = abs(sq // 8 - back)
        if UNIT_KINDS[u % MEN_PER_SIDE] == "O":
            out -= 0.5 * steps
        else:
            out += min(steps, 4)
    return out / 4.0


def evaluate(state: State, side: str) -> float:
    if state.result is not None:
        w = state.result.winner
        return 0.0 if w is None else (1.0 if w == side else -1.0)
    return math.tanh(score(state, side) / 4.0)


# ------------------------------------------------------------------------------ action values


def _target_value(state: State, action: A.Attack) -> float:
    men = state.men_at(action.dst)
    if not men:
        return 0.0
    if action.card.area:
        return sum(VALUE[k] for k in men)
    if len(set(men)) == 1:
        return VALUE[men[0]]
    return min(VALUE[k] for k in men)  # the defender gives up the cheapest man


def _threatened(state: State, play: A.Move | A.Group | A.Attack, side: str) -> float:
    """What a played card of the opponent's would cost `side` if it stands."""
    if isinstance(play, A.Attack):
        return _target_value(state, play)
    return 0.3


def quick(state: State, side: str, action: Action) -> float:
    """A cheap score of one action for ordering and playouts: higher first."""
    if isinstance(action, A.Attack):
        return 5.0 + _target_value(state, action)
    p = state.pending
    if isinstance(action, A.Negate):
        assert p is not None
        lost = _threatened(state, p.play, side)
        return 6.0 if lost >= 5 else 2.0 + lost - (1.0 if isinstance(p.play, A.Move | A.Group) else 0.0)
    if isinstance(action, A.Pass):
        return 2.2
    if isinstance(action, A.Lose):
        return 5.0 - LOSS_ORDER.index(action.kind)
    if isinstance(action, A.Discard):
        return _discard_value(action.card, side)
    if isinstance(action, A.Move):
        return 1.0 + _move_gain(state, side, action.kind, action.src, action.dst)
    if isinstance(action, A.Group):
        return 1.2 + 0.3 * action.size
    if isinstance(action, A.Fight):
        return 1.5
    if isinstance(action, A.End):
        return 1.0 if state.phase == FIGHTING else 0.2
    if isinstance(action, A.Setup):
        return 1.0 if "OR" in action.layout else 0.5
    return 0.0


def _discard_value(c: Card, side: str) -> float:
    if not c.usable_by(side):
        return 5.0
    return {TERRAIN: 1.0, MOVE: 2.0, ATTACK: 0.5}[c.kind]


def _move_gain(state: State, side: str, kind: str, src: int, dst: int) -> float:
    back = BACK_RANK[side]
    gain = (abs(dst // 8 - back) - abs(src // 8 - back)) / 4.0
    if kind == "O":
        gain = -gain
        if len(state.stacks[dst]) >= 1:
            gain += 0.5  # an officer joining a stack is shielded from single shots
    enemy_officers = [state.where[u] for u in _officer_ids(other(side)) if state.where[u] >= 0]
    if kind != "O":
        reach = REACH[side][kind]
        for sq in enemy_officers:
            if reach[dst] & BIT[sq] and not reach[src] & BIT[sq]:
                gain += 1.0
    return gain


def _officer_ids(side: str) -> tuple[int, int]:
    base = 0 if side == "germans" else MEN_PER_SIDE
    return base, base + 1


def order(state: State, side: str, actions: Sequence[Action], rng: random.Random) -> list[Action]:
    scored = sorted(
        ((quick(state, side, a) + rng.random() * 0.05, i) for i, a in enumerate(actions)), reverse=True
    )
    return [actions[i] for _, i in scored]


def into_fight(state: AnyState, side: str, actions: Sequence[Action]) -> list[Action]:
    """FIGHT, for the win check (`Guard.always`), where one shot could then end the game: the
    enemy's officers all on one square, within reach of one of `side`'s men with an attack card in
    its hand. The moves outrank FIGHT by `order`, so without this a check that tries only the first
    few actions of a line never sees "into the fight, then the shot" while move cards are in hand."""
    if not isinstance(state, State) or state.phase != MOVING:
        return []
    squares = {state.where[u] for u in _officer_ids(other(side)) if state.alive[u] and state.where[u] >= 0}
    if len(squares) != 1:
        return []
    target = BIT[squares.pop()]
    cards = [c for c in dict.fromkeys(state.hands[side]) if c.kind == ATTACK and c.usable_by(side)]
    for u in side_units(side):
        sq = state.where[u]
        if sq < 0:
            continue
        kind = UNIT_KINDS[u % MEN_PER_SIDE]
        if any(kind in c.users and ATTACK_MASKS[c.index][sq] & target for c in cards):
            return [a for a in actions if isinstance(a, A.Fight)]
    return []


def discard_first(state: AnyState, side: str) -> Action | None:
    """The discard a full hand forces at the start of a turn, for the win check (`Guard.forced`):
    the rule of thumb's (attack cards kept to the last), so the check sees the fight and the shot
    that follow it instead of spending its depth on the discard."""
    if not isinstance(state, State) or state.phase != DISCARD or state.pending is not None:
        return None
    legal = state.legal_actions(side)
    return max(legal, key=lambda a: quick(state, side, a)) if legal else None


def win_check(deals: int, depth: int, width: int, rest: int, alternatives: int = 40) -> Guard:
    """Fix Bayonets' win check at one level's size: the opponent's line after our turn two actions
    deep (into the fight, then the shot), FIGHT always tried where a shot could then win, and a full
    hand's opening discard played first."""
    return Guard(
        deals=deals,
        depth=depth,
        reply_depth=2,
        width=width,
        rest=rest,
        alternatives=alternatives,
        always=into_fight,
        forced=discard_first,
    )


def rollout(state: State, side: str, rng: random.Random) -> Action:
    """A quick, sensible playout move: strong attacks, sensible answers, a few forward moves."""
    legal = state.legal_actions(side)
    if len(legal) == 1:
        return legal[0]
    p = state.pending
    if p is not None or state.phase in (DISCARD, SETUP):
        return max(legal, key=lambda a: quick(state, side, a) + rng.random() * 0.3)
    if state.phase == MOVING:
        moves = [a for a in legal if isinstance(a, A.Move | A.Group)]
        if moves and rng.random() < 0.7:
            best = max(rng.sample(moves, min(6, len(moves))), key=lambda a: quick(state, side, a))
            return best
        return A.FIGHT
    attacks = [a for a in legal if isinstance(a, A.Attack)]
    if attacks:
        return max(attacks, key=lambda a: _target_value(state, a) + rng.random() * 0.2)
    return A.END
