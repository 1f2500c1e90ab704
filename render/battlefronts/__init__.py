"""Battlefronts' pictures: the nine places with both sides' battalions, and frames for the replay."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.protocol import Event
from engine.protocol import View as AnyView
from render.battlefronts.board import FRAME_SCALE, draw, render_board, view_state
from render.kit import encode


class BattlefrontsRenderer:
    """Draws from the view's own copy of the state, whose face-down cards are canonical."""

    def board(self, view: AnyView, events: Sequence[Event], overlay: str | None = None) -> bytes:
        return encode(self.picture(view, events, overlay))

    def picture(self, view: AnyView, events: Sequence[Event], overlay: str | None = None) -> Image.Image:
        del overlay  # no focus argument in this game
        return draw(view_state(view), events)

    def frame(self, view: AnyView, events: Sequence[Event]) -> Image.Image:
        return draw(view_state(view), events, FRAME_SCALE)


RENDERER = BattlefrontsRenderer()

__all__ = ["RENDERER", "BattlefrontsRenderer", "render_board"]
