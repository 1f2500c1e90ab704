"""Fix Bayonets' pictures: the board with the last card drawn on it, and frames for replays."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.fixbayonets.state import View
from engine.protocol import Event
from engine.protocol import View as AnyView
from render.fixbayonets.board import REPLAY_SQUARE, draw
from render.kit import encode


def _view(view: AnyView) -> View:
    if not isinstance(view, View):
        raise TypeError(f"not a Fix Bayonets view: {type(view).__name__}")
    return view


class FixBayonetsRenderer:
    """Draws only from the view: a hand appears on the picture of its owner's view and no other."""

    def board(self, view: AnyView, events: Sequence[Event], overlay: str | None = None) -> bytes:
        return encode(self.picture(view, events, overlay))

    def picture(self, view: AnyView, events: Sequence[Event], overlay: str | None = None) -> Image.Image:
        del overlay  # no focus argument in this game
        return draw(_view(view), events)

    def frame(self, view: AnyView, events: Sequence[Event]) -> Image.Image:
        return draw(_view(view), events, s=REPLAY_SQUARE)


RENDERER = FixBayonetsRenderer()

__all__ = ["RENDERER", "FixBayonetsRenderer"]
