"""Block Wars' pictures: the board with the last action drawn on it, and frames for the replay."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.blockwars.state import View
from engine.protocol import Event
from engine.protocol import View as AnyView
from render.blockwars.board import REPLAY_SQUARE, draw, render_board
from render.kit import encode


def _state(view: AnyView) -> View:
    if not isinstance(view, View):
        raise TypeError(f"not a Block Wars view: {type(view).__name__}")
    return view


class BlockWarsRenderer:
    """Draws from the view's own copy of the state, whose decks are in canonical order."""

    def board(self, view: AnyView, events: Sequence[Event], overlay: str | None = None) -> bytes:
        return encode(self.picture(view, events, overlay))

    def picture(self, view: AnyView, events: Sequence[Event], overlay: str | None = None) -> Image.Image:
        return draw(_state(view).state, list(events), overlay)  # type: ignore[arg-type]

    def frame(self, view: AnyView, events: Sequence[Event]) -> Image.Image:
        return draw(_state(view).state, list(events), s=REPLAY_SQUARE)  # type: ignore[arg-type]


RENDERER = BlockWarsRenderer()

__all__ = ["RENDERER", "BlockWarsRenderer", "render_board"]
