"""Shared helpers for the Block Wars rule tests: positions, scripted play and event look-ups."""

from __future__ import annotations

from typing import TypeVar

from engine.blockwars import Side, State
from engine.blockwars.events import Event
from engine.blockwars.position import build
from engine.protocol import Outcome

G, C = Side.GERMANS, Side.CANADIANS
E = TypeVar("E", bound=Event)


def pos(
    pieces: dict[str, str], *, g: list[str] | None = None, c: list[str] | None = None, **kw: object
) -> State:
    """`build` with the German (`g`) and Canadian (`c`) deck tops given as short lists."""
    decks = {G: g or [], C: c or []}
    return build(pieces, decks=decks, **kw)  # type: ignore[arg-type]


def play(state: State, *notations: str) -> list[Event]:
    """Apply each notation in turn (as whoever must act) and return all their events."""
    out: list[Event] = []
    for n in notations:
        out.extend(state.apply(n))
    return out


def of(events: list[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def outcome(state: State) -> Outcome:
    """How the game ended; a test that expects it over fails here, plainly, if it is not."""
    found = state.outcome()
    assert found is not None, "the game is not over"
    return found


def units(state: State) -> dict[str, str]:
    """The board as {square: unit id} (the tank on each of its squares)."""
    return {k: v for k, v in state.to_json()["board"].items()}


def legal(state: State) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def empty_reserve(state: State, side: Side) -> None:
    """Send every reserve unit of `side` to the casualties (keeps all 45 units accounted for)."""
    state.casualties[side].extend(state.reserves[side])
    state.reserves[side].clear()
    state._legal = None
