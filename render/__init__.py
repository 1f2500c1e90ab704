"""Pictures of games for Discord, for every game: `board` for a position, `render.replay` for a game.

Each game has a package `render/<game>/` exporting `RENDERER` (a `Renderer`), named by its registry
entry. A render is a pure function of a `View` (what its viewer may know) and the last action's
events as that viewer saw them; it never sees a state, so it cannot draw what a viewer may not know.
render/ depends on engine/, never the reverse.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from functools import cache
from typing import Protocol

from PIL import Image

from engine import registry
from engine.protocol import Event, Side, State, View


class Renderer(Protocol):
    def board(self, view: View, events: Sequence[Event], overlay: str | None = None) -> bytes:
        """The PNG of the position with the last action's `events` drawn, and the game's focus
        (`overlay`, e.g. one unit's reach) if asked: `picture`, encoded."""
        ...

    def picture(self, view: View, events: Sequence[Event], overlay: str | None = None) -> Image.Image:
        """The board before it is encoded, for a reader of its pixels or words that need not pay
        for the PNG (a board's encoding is about a quarter of its drawing)."""
        ...

    def frame(self, view: View, events: Sequence[Event]) -> Image.Image:
        """One frame of an animated replay (smaller than a board; a "P" image on a fixed palette
        animates smallest)."""
        ...


@cache
def renderer(game: str) -> Renderer:
    """The renderer of the game called `game` (raises `registry.UnknownGame`)."""
    found: Renderer = importlib.import_module(registry.entry(game).render).RENDERER
    return found


def seen(events: Sequence[Event], viewer: Side | None) -> list[Event]:
    """The events as `viewer` may know them (secrets removed, invisible ones dropped)."""
    out = []
    for e in events:
        kept = e.seen_by(viewer)
        if kept is not None:
            out.append(kept)
    return out


def board(
    game: str,
    state: State,
    events: Sequence[Event] = (),
    viewer: Side | None = None,
    overlay: str | None = None,
) -> bytes:
    """The board `viewer` (None: the channel) may see after the action that made `events`."""
    return renderer(game).board(state.view(viewer), seen(events, viewer), overlay)


__all__ = ["Renderer", "board", "renderer", "seen"]
