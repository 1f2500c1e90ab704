"""Company Commander's colours and palette: the two companies, the fronts, markers and highlights.

Drawn in palette ("P") mode on one fixed palette (see `render.kit.Palette`): unit cards and text are
drawn once in RGB, quantised and cached, so a board is mostly pasting.
"""

from __future__ import annotations

from PIL import Image

from render.kit import RGB, Palette

KEY: dict[str, RGB] = {
    "page": (234, 229, 214),
    "ink": (28, 27, 24),
    "dim": (96, 92, 84),
    "white": (255, 255, 255),
    "header": (40, 44, 36),
    "header_text": (242, 238, 224),
    "header_dim": (176, 178, 160),
    # The companies: a strong colour, a tint for their rows, a card colour.
    "americans": (74, 98, 40),
    "americans_tint": (222, 230, 200),
    "americans_card": (246, 249, 236),
    "germans": (70, 82, 104),
    "germans_tint": (214, 220, 232),
    "germans_card": (244, 246, 251),
    # The fronts and markers.
    "band": (204, 196, 172),
    "line": (160, 152, 130),
    "card_edge": (90, 86, 76),
    "pinned": (222, 122, 24),
    "pinned_card": (250, 226, 196),
    "casualty": (186, 30, 30),
    "pip": (40, 40, 36),
    "gold": (240, 184, 16),
    "mark": (140, 40, 150),
    "win": (24, 120, 60),
}

INDEX: dict[str, int] = {name: i for i, name in enumerate(KEY)}


def _samples() -> Image.Image:
    """Unit cards on their rows: the blends their anti-aliased edges and text make."""
    from render.companycommander import cards  # late: cards need the colours only, not the palette

    return cards.sample_sheet()


PALETTE = Palette(KEY, _samples)
to_p = PALETTE.to_p


def text(s: str, size: int, fg: str = "ink", bg: str = "page", bold: bool = False) -> Image.Image:
    """A line of anti-aliased text as a cached palette tile."""
    return PALETTE.text(s, size, fg, bg, bold)


__all__ = ["INDEX", "KEY", "PALETTE", "text", "to_p"]
