"""Small helpers for the Combined Arms scenario tests."""

from __future__ import annotations

from engine.combinedarms import events as E
from engine.combinedarms.position import build
from engine.combinedarms.state import NOWHERE, State

BRITISH, GERMANS = "british", "germans"
AMERICANS = "americans"
__all__ = ["AMERICANS", "BRITISH", "GERMANS", "E", "at", "build", "code_at", "legal", "play"]


def play(state: State, side: str, *notations: str) -> list[E.Event]:
    """Apply each notation for `side`; all the events, in order."""
    out: list[E.Event] = []
    for text in notations:
        out.extend(state.apply(text, side))
    return out


def at(state: State, name: str) -> int:
    """The unit id on a square (NOWHERE if empty)."""
    return state.board[state.g.index[name]]


def code_at(state: State, name: str) -> str | None:
    uid = at(state, name)
    if uid == NOWHERE:
        return None
    code = state.u_code[uid]
    return code if state.u_side[uid] == 0 else code.lower()


def legal(state: State, side: str | None = None) -> set[str]:
    return {str(a) for a in state.legal_actions(side)}
