"""Battlefronts' colours and palette: the two sides, the fronts' states, card faces and backs.

Drawn in palette ("P") mode on one fixed palette (see `render.kit.Palette`): text is drawn once
in RGB, quantised and cached, so a board is mostly pasting words and filling rectangles.
"""

from __future__ import annotations

from PIL import Image

from render.kit import RGB, Palette

KEY: dict[str, RGB] = {
    "page": (232, 226, 212),
    "ink": (30, 28, 26),
    "dim": (112, 106, 96),
    "white": (255, 255, 255),
    "header": (44, 42, 38),
    "header_text": (240, 234, 220),
    "header_dim": (150, 144, 130),
    # The sides: strong colour, a light tint for backgrounds, a dark shade for card backs.
    "red": (190, 40, 36),
    "red_tint": (244, 214, 208),
    "red_back": (150, 32, 30),
    "red_hatch": (178, 58, 52),
    "blue": (36, 82, 166),
    "blue_tint": (210, 222, 244),
    "blue_back": (30, 62, 128),
    "blue_hatch": (52, 90, 160),
    # Places.
    "front": (246, 242, 232),
    "zone": (214, 208, 194),
    "contested": (236, 150, 40),
    "contested_tint": (250, 224, 182),
    "line": (176, 168, 150),
    # Cards.
    "card": (253, 252, 247),
    "card_edge": (96, 92, 84),
    "suit_red": (204, 28, 36),
    "lost": (150, 144, 134),
    "lost_card": (226, 222, 212),
    # Highlights.
    "gold": (246, 190, 20),
    "moved": (22, 150, 90),
    "win": (24, 120, 60),
}

INDEX: dict[str, int] = {name: i for i, name in enumerate(KEY)}


PALETTE = Palette(KEY)  # words and flat shapes: the key colours' blends are enough
to_p = PALETTE.to_p


def text(s: str, size: int, fg: str = "ink", bg: str = "page", bold: bool = False) -> Image.Image:
    """A line of anti-aliased text as a cached palette tile."""
    return PALETTE.text(s, size, fg, bg, bold)


__all__ = ["INDEX", "KEY", "PALETTE", "text", "to_p"]
