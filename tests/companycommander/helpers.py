"""Shared helpers for the Company Commander tests: positions with stacked decks and rigged dice,
scripted commands and event look-ups."""

from __future__ import annotations

from typing import Any, TypeVar

from engine.companycommander import GAME, State
from engine.companycommander.model import AMERICANS, GERMANS, Unit
from engine.companycommander.position import build, rig

A, G = AMERICANS, GERMANS
E = TypeVar("E")

__all__ = ["GAME", "A", "G", "build", "command", "history", "legal", "of_type", "rig", "unit"]


def command(state: State, text: str, side: str | None = None) -> list[Any]:
    """Apply a command of ';'-separated actions, all in order, as the platform does."""
    out: list[Any] = []
    for part in text.split(";"):
        out.extend(state.apply(GAME.parse(part.strip()), side or state.active))
    return out


def of_type(events: list[Any], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def history(events: list[Any], viewer: str | None = None) -> str:
    """The history line: every event's words for `viewer`."""
    return "; ".join(
        t for e in events if (kept := e.seen_by(viewer)) is not None and (t := kept.text(viewer))
    )


def unit(state: State, label: str) -> Unit:
    u = state.unit(label)
    assert u is not None, f"{label} is not in play"
    return u


def legal(state: State, side: str | None = None) -> list[str]:
    return [str(a) for a in state.legal_actions(side or state.active)]
