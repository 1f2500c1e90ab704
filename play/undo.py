"""Undo within your own turn (RULES.md, "Taking a step back"): a player takes back their last step
while it is still their turn, if nothing was drawn or shown since it and the other side has not had
to act.

The action log stays append-only: an undo is an entry of its own (notation `undo`, by the player)
that cancels the latest step still standing before it. Everything that replays a game reads the log
through `effective`, so the replay, the history, the look back, the stretch a hand-off shows, the
export and `verify` all see the same game: the one without the steps taken back. The position after
an undo is the replay of the steps that stand, so it is exactly the position before the step.

An undo can gain nothing: the step drew no chance and showed no secret (`drew_or_revealed`), so the
player learnt nothing from it but what they could already see. It is allowed in rated games too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from data import Match
from engine.meta import MetaAction
from engine.protocol import Game, State, drew_or_revealed
from play.errors import BadRequest, NotAPlayer, NotYourTurn

# Atop every private step's answer, so a phone reads it once a step: one short sentence.
MID_TURN_NOTE = "Only you see this until you hand the turn over; a step you take back is never shown."
UNDO = "undo"  # the log's word for "the step before this one is taken back"; no game's notation


class _Row(Protocol):
    @property
    def notation(self) -> str: ...


R = TypeVar("R", bound=_Row)


def effective(rows: Sequence[R]) -> list[R]:
    """The log's rows that stand: each `undo` entry removes itself and the latest standing row."""
    kept: list[R] = []
    for row in rows:
        if row.notation == UNDO:
            if kept:
                kept.pop()
        else:
            kept.append(row)
    return kept


def taken_back(rows: Sequence[R]) -> list[R]:
    """The rows some `undo` entry cancelled, in log order (for the record a player exports)."""
    standing = {id(r) for r in effective(rows)}
    return [r for r in rows if r.notation != UNDO and id(r) not in standing]


class _Logged(_Row, Protocol):
    @property
    def player_id(self) -> int | None: ...


@dataclass(frozen=True, slots=True)
class TakeBack:
    """What an undo does: the position before the step, and the step."""

    state: State
    notation: str


def may_take_back(rules: Game, notation: str) -> bool:
    """Whether a step written `notation` is of a kind Undo can ever take back: a word about a draw or
    a standing order never is (`take_back`), so no Undo button is offered after one."""
    try:
        action = rules.parse(notation)
    except ValueError:
        return True  # a command of several steps: `take_back` says, for its last one
    return not action.anytime


def take_back(
    match: Match, rules: Game, seed: int, rows: Sequence[_Logged], current: State, user_id: int
) -> TakeBack:
    """The position before `user_id`'s last step, or a refusal saying why it cannot be taken back.
    `rows` are the standing rows (`effective`); `current` is the position they lead to."""
    side = match.side_of(user_id)
    if side is None:
        raise NotAPlayer("Only the two players can take back a step, each their own.")
    if current.is_over():
        raise BadRequest("The game is over: nothing can be taken back.")
    if side not in current.to_act():
        raise NotYourTurn(
            "It is not your turn. You can take back a step only while it is still your turn, "
            "before the other side has acted."
        )
    if not rows or rows[-1].player_id != user_id:
        raise BadRequest(
            "There is nothing to take back: you have made no step since the other side last acted. "
            "Undo takes back your own steps of this turn, one at a time."
        )
    others = {s.name for s in rules.sides} - {side}
    opening = rules.sides[0].name
    state = rules.new_game(match.options, seed)
    for row in rows[:-1]:
        mover = match.side_of(row.player_id) if row.player_id is not None else None
        state.apply(rules.parse(row.notation), mover or opening)
    before = state.clone()
    notation = rows[-1].notation
    action = rules.parse(notation)
    if isinstance(action, MetaAction):
        raise BadRequest(
            f"`{notation}` cannot be taken back: only steps of the game itself can, not a word about a draw."
        )
    if action.anytime:
        raise BadRequest(
            f"`{notation}` cannot be taken back: it is a standing order, not a step of the game. "
            "Give another order to change it."
        )
    if others & before.to_act():
        raise BadRequest(
            f"`{notation}` cannot be taken back: the other side also had to act when you made it, so "
            "it may already be answered in their mind. Undo never reaches across a hand-off."
        )
    drawn = state.chance_drawn()
    events = list(state.apply(action, side))
    if drew_or_revealed(drawn, state.chance_drawn(), events):
        what = (
            "drew chance (a die, a card or a shuffle)"
            if state.chance_drawn() != drawn
            else "showed something hidden"
        )
        raise BadRequest(
            f"`{notation}` cannot be taken back: it {what}, and what it showed cannot be unseen. "
            "Undo takes back only steps that draw nothing and show nothing."
        )
    if others & state.to_act():
        raise BadRequest(f"`{notation}` cannot be taken back: it handed the game to the other side.")
    return TakeBack(before, notation)


__all__ = ["MID_TURN_NOTE", "UNDO", "TakeBack", "effective", "may_take_back", "take_back", "taken_back"]
