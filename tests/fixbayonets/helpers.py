"""Shared helpers for the Fix Bayonets tests: positions with stacked hands and decks, scripted play."""

from __future__ import annotations

from typing import TypeVar

from engine.errors import IllegalAction
from engine.fixbayonets.events import Event
from engine.fixbayonets.model import AMERICANS, GERMANS, Options
from engine.fixbayonets.position import build
from engine.fixbayonets.state import State
from engine.protocol import Event as AnyEvent

G, A = GERMANS, AMERICANS
E = TypeVar("E", bound=Event)


def pos(
    men: dict[str, str],
    *,
    g: list[str] | None = None,
    a: list[str] | None = None,
    deck: list[str] | None = None,
    **kw: object,
) -> State:
    """`build` with the German (`g`) and American (`a`) hands as short lists of card codes.

    A side with no officer named gets both on a square out of the way (g8 German, b1 American),
    so that a kill elsewhere does not end the game.
    """
    men = dict(men)
    for side, corner in (("G", "g8"), ("A", "b1")):
        if not any(code[0] == side and "O" in code[1:] for code in men.values()):
            men[corner] = side + "OO"
    return build(men, hands={G: g or [], A: a or []}, deck=deck, **kw)  # type: ignore[arg-type]


def play(state: State, *notations: str) -> list[AnyEvent]:
    """Apply each notation in turn as the one side owed an action; returns all their events."""
    out: list[AnyEvent] = []
    for n in notations:
        (side,) = state.to_act()
        out.extend(state.apply(n, side))
    return out


def of(events: list[AnyEvent], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def legal(state: State, side: str | None = None) -> set[str]:
    return {str(a) for a in state.legal_actions(side)}


def refused(state: State, notation: str, side: str | None = None) -> str:
    """The refusal's message; the state must be unchanged by it."""
    before = state.to_json()
    who = side or min(state.to_act())
    try:
        state.apply(notation, who)
    except IllegalAction as exc:
        assert state.to_json() == before
        return str(exc)
    raise AssertionError(f"{notation} was accepted")


def men(state: State) -> dict[str, str]:
    """The board as {square: side letter + kinds}, like the builder's input."""
    out = {}
    for sq in range(64):
        if state.stacks[sq]:
            side = state.owner(sq)
            out[state_name(sq)] = ("G" if side == G else "A") + state.men_at(sq)
    return out


def state_name(sq: int) -> str:
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


OPEN = Options(open_hands=True)
