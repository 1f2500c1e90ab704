"""Shared helpers for the Battlefronts tests: positions, scripted commands and event look-ups."""

from __future__ import annotations

from typing import Any, TypeVar

from engine.battlefronts import GAME, State
from engine.battlefronts.model import BLUE, RED, Battalion
from engine.battlefronts.position import begin, build

E = TypeVar("E")

__all__ = ["BLUE", "GAME", "RED", "begin", "build", "command", "history", "of_type", "tops"]


def command(state: State, side: str, text: str) -> list[Any]:
    """Apply a command of ';'-separated actions for `side`, all in order, as the platform does."""
    out: list[Any] = []
    for part in text.split(";"):
        out.extend(state.apply(GAME.parse(part.strip()), side))
    return out


def of_type(events: list[Any], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def history(events: list[Any], viewer: str | None = None) -> str:
    """The history line: every event's words for `viewer`, the shared ones (game over) too."""
    return "; ".join(t for e in events if (t := e.text(viewer)))


def unit(state: State, label: str) -> Battalion:
    """The battalion called `label`, which the test expects to be there."""
    b = state.find(label)
    assert b is not None, f"{label} is gone"
    return b


def tops(state: State, label: str) -> tuple[str | None, int, int]:
    """(top card code or None if face down, size, strength) of a battalion."""
    b = state.find(label)
    assert b is not None, f"{label} is gone"
    return (b.cards[-1].code if b.up else None, b.size, b.strength)
