"""Company Commander's pictures: both companies' three fronts facing each other, and replay frames."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.protocol import Event
from engine.protocol import View as AnyView
from render.companycommander.board import draw, view_of
from render.kit import encode


class CompanyCommanderRenderer:
    """Draws from the view, which holds nothing its viewer may not know."""

    def board(self, view: AnyView, events: Sequence[Event], overlay: str | None = None) -> bytes:
        return encode(self.picture(view, events, overlay))

    def picture(self, view: AnyView, events: Sequence[Event], overlay: str | None = None) -> Image.Image:
        del overlay  # no focus argument in this game
        return draw(view_of(view), events)

    def frame(self, view: AnyView, events: Sequence[Event]) -> Image.Image:
        return draw(view_of(view), events, frame=True)


RENDERER = CompanyCommanderRenderer()

__all__ = ["RENDERER", "CompanyCommanderRenderer"]
