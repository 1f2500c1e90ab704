"""Why Fix Bayonets refuses an action, in words, and the legal actions a refusal offers.

Kept apart from the rules (state.py) because it only reads a position: `State.apply` calls these
functions on itself when it refuses an action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.fixbayonets import actions as A
from engine.fixbayonets.actions import Action
from engine.fixbayonets.cards import ATTACK, CARD_TYPES, MOVE, TERRAIN, Card
from engine.fixbayonets.model import (
    DISCARD,
    FIGHTING,
    HAND_LIMIT,
    KINDS,
    MOVES_PER_TURN,
    MOVING,
    NAMES,
    PLURAL,
    SETUP,
    SIDES,
    SINGULAR,
    TITLE,
    other,
    unit_kind,
    unit_side,
)
from engine.fixbayonets.tables import ATTACK_TARGETS, BIT, FORWARD_MOVES, move_table

if TYPE_CHECKING:
    from engine.fixbayonets.state import State


def unlisted(state: State, action: A.Move | A.Attack, side: str) -> str | None:
    """Why a move or an attack is refused, or None: they are legal exactly as `legal_actions`
    lists them (issue 22: a move built in code with another card, or from another square, was
    taken). Cheap: the list is made once per position, and an action taken from it comes back
    as the very object. A group move is a menu of a larger space (R11): `refusal` checks it."""
    legal = state.legal_actions(side)
    for a in legal:
        if a is action:
            return None
    fields = (action.card, action.kind, action.src, action.dst)
    for a in legal:
        if type(a) is type(action) and (a.card, a.kind, a.src, a.dst) == fields:
            return None
    try:
        problem = refusal(state, action, side)
    except (IndexError, KeyError, ValueError):  # no such square or card: only the words are lost
        problem = None
    what = "move" if isinstance(action, A.Move) else "attack"
    return problem or f"'{action}' is not a legal {what} now."


def refusal(state: State, action: Action, side: str) -> str | None:
    """Why `action` is illegal for `side` now (None: it is legal)."""
    owed = state.to_act()
    if side not in SIDES:
        return f"'{side}' is not a side: the sides are the Germans and the Americans."
    if side not in owed:
        return f"It is not your turn: {waiting_words(state)}."
    if isinstance(action, A.Setup):
        return None if state.phase == SETUP else "Both sides have already set up."
    if state.phase == SETUP:
        return "Set up your men first, two to each square of your back row (setup std, for one)."
    p = state.pending
    if isinstance(action, A.Pass | A.Negate):
        if p is None or p.kind != "negate":
            return "There is no card of your opponent's to answer now."
        if isinstance(action, A.Pass):
            return None
        want = ATTACK if isinstance(p.play, A.Attack) else MOVE
        c = action.card
        if c not in state.hands[side]:
            return f"You hold no {c.name} card."
        if not c.usable_by(side):
            return f"{c.name} is for the {TITLE[c.only or side]} only."
        if c.negates != want:
            what = "an attack" if want == ATTACK else "a move"
            return f"{c.name} cannot cancel {what}: {negator_words(state, side, want)}."
        return None
    if isinstance(action, A.Lose):
        if p is None or p.kind != "lose":
            return "No stack of yours is waiting for you to choose who falls."
        men = state.men_at(p.target)
        if action.kind not in men:
            choices = " or ".join(f"lose {k}" for k in dict.fromkeys(men))
            return f"There is no {SINGULAR[action.kind]} on {NAMES[p.target]}: choose {choices}."
        return None
    if p is not None:
        return f"First answer the question: {pending_words(state)}."
    if isinstance(action, A.Discard):
        if state.phase != DISCARD:
            return "You discard only when you hold more than five cards after drawing."
        if action.card not in state.hands[side]:
            return f"You hold no {action.card.name} card."
        return None
    if state.phase == DISCARD:
        extra = len(state.hands[side]) - HAND_LIMIT
        return f"You hold {len(state.hands[side])} cards: discard {extra} first (five at most)."
    if isinstance(action, A.Fight):
        return None if state.phase == MOVING else "You are already in the fight phase."
    if isinstance(action, A.End):
        return None
    if isinstance(action, A.Move | A.Group):
        if state.phase != MOVING:
            return "The move phase is over: this turn you may only attack now, or end your turn."
        return move_refusal(state, action, side)
    if isinstance(action, A.Attack):
        if state.phase != FIGHTING:
            return "Attacks come in the fight phase: finish moving with `fight` first."
        return attack_refusal(state, action, side)
    return f"'{action}' cannot be played now."


def card_refusal(state: State, c: Card, side: str) -> str | None:
    if c not in state.hands[side]:
        return f"You hold no {c.name} card."
    if not c.usable_by(side):
        return f"{c.name} is a card for the {TITLE[c.only or side]} only."
    return None


def move_refusal(state: State, action: A.Move | A.Group, side: str) -> str | None:
    c = action.card
    problem = card_refusal(state, c, side)
    if problem:
        return problem
    enemy = state.occ[other(side)]
    if isinstance(action, A.Move):
        left = able(state, side, action.src, action.kind)
        if left < 0:
            return f"You have no {SINGULAR[action.kind]} on {NAMES[action.src]}."
        if left == 0:
            return spent_words(state, action.kind, action.src)
        for dst, mask in move_table(c)[action.src]:
            if dst == action.dst:
                if mask & enemy:
                    return (
                        f"{c.name} cannot take the {SINGULAR[action.kind]} from {NAMES[action.src]} "
                        f"to {NAMES[dst]}: {_blocked_words(action.src, dst, mask & enemy)}."
                    )
                return None
        if c.knight:
            return f"Zigzag jumps like a chess knight: {NAMES[action.dst]} is not a knight's jump away."
        return (
            f"{c.name} moves a man exactly {c.lo} square{'s' if c.lo != 1 else ''} in a straight line "
            f"(any of the eight directions): {NAMES[action.dst]} is not such a square."
        )
    if c.kind != MOVE or c.knight or c.lo < 1:
        return f"{c.name} cannot move men together: a group goes straight ahead with one card (R11)."
    if len(action.men) != len({sq for sq, _ in action.men}) or sum(len(k) for _, k in action.men) < 2:
        return "A group move takes two men or more, each square named once (R11)."
    if any(not 0 <= sq < len(NAMES) or not kinds or set(kinds) - set(SINGULAR) for sq, kinds in action.men):
        return "A group move names squares of the board and the men on them (R11)."
    ahead = FORWARD_MOVES[side][c.lo]
    for sq, kinds in action.men:
        for k in dict.fromkeys(kinds):
            left = able(state, side, sq, k)
            if left < 0:
                return f"You have no {SINGULAR[k]} on {NAMES[sq]}."
            if left < kinds.count(k):
                return spent_words(state, k, sq, wanted=kinds.count(k))
        m = ahead[sq]
        if m is None:
            return f"The men on {NAMES[sq]} cannot move {c.lo} squares forward: the board ends."
        if m[1] & enemy:
            return (
                f"{c.name} cannot take the men on {NAMES[sq]} forward to {NAMES[m[0]]}: "
                f"{_blocked_words(sq, m[0], m[1] & enemy)}."
            )
    return None


def attack_refusal(state: State, action: A.Attack, side: str) -> str | None:
    c = action.card
    problem = card_refusal(state, c, side)
    if problem:
        return problem
    if action.kind not in c.users:
        return f"{c.name} cannot be used by {_an(SINGULAR[action.kind])}: {_users_words(c)}."
    if able(state, side, action.src, action.kind) < 0:
        return f"You have no {SINGULAR[action.kind]} on {NAMES[action.src]}."
    if action.dst not in ATTACK_TARGETS[c.index][action.src]:
        # not "exactly 1 squares", nor "a knight's jump squares"
        squares = "" if c.knight else f" square{'' if c.hi == 1 else 's'} in a straight line"
        return f"{c.name} reaches {c.range_words}{squares}: {NAMES[action.dst]} is out of its reach."
    if not state.occ[other(side)] & BIT[action.dst]:
        return f"There is no enemy on {NAMES[action.dst]} to attack."
    return None


def able(state: State, side: str, sq: int, kind: str) -> int:
    """How many of `side`'s men of `kind` on `sq` may still move this turn; -1: none there."""
    n = -1
    for u in state.stacks[sq]:
        if unit_side(u) == side and unit_kind(u) == kind:
            n = max(n, 0)
            if state.moves[u] < MOVES_PER_TURN[kind]:
                n += 1
    return n


def spent_words(state: State, kind: str, sq: int, *, wanted: int = 1) -> str:
    times = "twice" if MOVES_PER_TURN[kind] == 2 else "once"
    if wanted > 1:
        return f"Not that many {PLURAL[kind]} on {NAMES[sq]} may still move this turn."
    here = sum(1 for u in state.stacks[sq] if unit_kind(u) == kind)
    men, verb = (PLURAL[kind], "have") if here > 1 else (SINGULAR[kind], "has")
    return f"The {men} on {NAMES[sq]} {verb} moved: {_an(SINGULAR[kind])} moves {times} a turn."


def hints(state: State, action: Action, side: str) -> list[Action]:
    legal = state.legal_actions(side)
    if isinstance(action, A.Negate | A.Pass | A.Lose):
        return legal[:5]  # an answer: every answer there is (a handful at most)
    card = getattr(action, "card", None)
    src = getattr(action, "src", None)
    related = [
        a
        for a in legal
        if card is not None and getattr(a, "card", None) is card and getattr(a, "src", None) == src
    ]
    if not related:
        related = [a for a in legal if type(a) is type(action)]
    return (related or legal)[:5]


# ---------------------------------------------------------------------------------- words


def waiting_words(state: State) -> str:
    owed = sorted(state.to_act())
    if state.phase == SETUP:
        return "waiting for " + " and ".join(f"the {TITLE[s]}" for s in owed) + " to set up"
    if state.pending is not None:
        return f"waiting for the {TITLE[state.pending.side]} to {pending_words(state)}"
    return f"it is the {TITLE[state.active]}' turn"


def pending_words(state: State) -> str:
    p = state.pending
    assert p is not None
    if p.kind == "negate":
        return f"cancel the {p.play.card.name} card with a terrain card, or pass"
    kinds = "/".join(dict.fromkeys(state.men_at(p.target)))
    return f"choose who falls on {NAMES[p.target]} (lose {kinds})"


def negator_words(state: State, side: str, want: str) -> str:
    names = [c.name for c in CARD_TYPES if c.kind == TERRAIN and c.negates == want and c.usable_by(side)]
    return f"{' or '.join(names)} cancel{'s' if len(names) == 1 else ''} it"


def _blocked_words(src: int, dst: int, enemy: int) -> str:
    """Why a move from `src` to `dst` is refused, `enemy` being the enemy squares it touches."""
    if enemy & BIT[dst]:
        why = f"the enemy holds {NAMES[dst]}"
    else:
        # The enemy square nearest the mover: the move's squares lie on one line from `src`.
        squares = [sq for sq in range(64) if enemy & BIT[sq]]
        first = min(squares, key=lambda sq: max(abs(sq % 8 - src % 8), abs(sq // 8 - src // 8)))
        why = f"the enemy on {NAMES[first]} is in the way"
    return f"{why} (men never move into or through enemy soldiers)"


def _an(word: str) -> str:
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def _users_words(c: Card) -> str:
    names = [PLURAL[k] for k in KINDS if k in c.users]
    if len(names) == 1:
        return f"only {names[0]} may use it"
    return ", ".join(names[:-1]) + f" and {names[-1]} may use it"
