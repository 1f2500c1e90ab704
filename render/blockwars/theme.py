"""Block Wars' colours and its palette: the board's zones, the two armies, the highlights.

Boards are drawn in palette ("P") mode with one fixed 256-colour palette, so a render is mostly
pasting cached tiles and the PNG encoder has a third of the bytes to squeeze. Anything drawn with
anti-aliasing (tokens, text, cards) is drawn once in RGB(A), quantised to this palette and cached.
"""

from __future__ import annotations

from PIL import Image

from render.kit import RGB, SPARE, Palette, font, wrap

__all__ = ["INDEX", "KEY", "PALETTE", "SPARE", "font", "palette", "text", "to_p", "wrap"]

# Key colours: they get exact palette slots, so pixel probes and direct drawing can use them.
KEY: dict[str, RGB] = {
    "page": (38, 37, 33),
    "panel": (48, 46, 41),
    "panel_hi": (62, 59, 52),
    "text": (236, 230, 214),
    "dim": (168, 160, 142),
    "label": (214, 205, 182),
    "ink": (28, 26, 22),
    "white": (255, 255, 255),
    # Squares: (light, dark) per zone.
    "g_light": (205, 209, 214),
    "g_dark": (168, 174, 184),
    "gt_light": (184, 188, 195),
    "gt_dark": (146, 152, 163),
    "n_light": (186, 168, 134),
    "n_dark": (160, 141, 106),
    "ct_light": (214, 192, 140),
    "ct_dark": (189, 163, 107),
    "c_light": (230, 214, 172),
    "c_dark": (208, 188, 138),
    # Units.
    "german": (62, 70, 82),
    "german_hi": (110, 120, 134),
    "canadian": (196, 150, 84),
    "canadian_hi": (226, 190, 128),
    "tank": (150, 128, 80),
    "track": (58, 54, 46),
    "wire": (40, 34, 30),
    "sandbag": (122, 108, 82),
    "arc": (245, 212, 90),
    # Highlights.
    "move": (255, 255, 255),
    "attack": (220, 38, 38),
    "attack_dk": (120, 10, 10),
    "barrage": (255, 140, 0),
    "gold": (250, 204, 21),
    "teal": (20, 184, 166),
    "new": (34, 197, 94),
    "card": (252, 250, 244),
    "card_red": (200, 30, 40),
    "card_edge": (120, 112, 96),
    "win": (74, 222, 128),
    "loss": (248, 113, 113),
    "tie": (250, 204, 21),
    "banner": (24, 22, 18),
}


INDEX: dict[str, int] = {name: i for i, name in enumerate(KEY)}


def _samples() -> Image.Image:
    """The tokens on each zone's colours: the blends of their anti-aliased edges."""
    from render.blockwars import sprites  # late: sprites need fonts and colours only, not the palette

    sheet = Image.new("RGB", (len(KEY) * 24, 400), KEY["page"])
    x = 0
    for kind in sprites.TOKEN_KINDS:
        spr = sprites.token(kind, 76)
        for bg in ("g_light", "n_dark", "c_light", "gt_dark", "ct_dark"):
            tile = Image.new("RGBA", spr.size, KEY[bg])
            tile.alpha_composite(spr)
            sheet.paste(tile.convert("RGB"), (x % (sheet.width - 80), (x // (sheet.width - 80)) * 80))
            x += 80
    return sheet


PALETTE = Palette(KEY, _samples)
palette = PALETTE.image
to_p = PALETTE.to_p


def text(s: str, size: int, fg: str = "text", bg: str = "panel", bold: bool = False) -> Image.Image:
    """A line of anti-aliased text as a palette tile, cached (the panel repeats most of its words)."""
    return PALETTE.text(s, size, fg, bg, bold)
