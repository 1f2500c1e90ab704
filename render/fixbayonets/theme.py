"""Fix Bayonets' colours and palette: a forest board, the two sides, the highlights and the cards.

The sides differ in shape as well as colour (German men are dark square-cornered tiles with a white
letter, American men are light round counters with a dark letter), and every man carries his
kind's letter, so nothing depends on colour alone.
"""

from __future__ import annotations

from PIL import Image

from render.kit import RGB, Palette

KEY: dict[str, RGB] = {
    "page": (30, 33, 28),
    "panel": (42, 46, 39),
    "panel_hi": (58, 63, 53),
    "text": (238, 234, 220),
    "dim": (172, 168, 150),
    "ink": (20, 20, 18),
    "white": (255, 255, 255),
    "sq_light": (176, 190, 146),
    "sq_dark": (140, 160, 112),
    "g_light": (178, 186, 188),
    "g_dark": (146, 156, 160),
    "a_light": (206, 196, 150),
    "a_dark": (178, 166, 118),
    "german": (74, 84, 96),
    "german_hi": (128, 140, 154),
    "american": (214, 184, 120),
    "american_hi": (240, 216, 160),
    "gold": (246, 196, 36),
    "move": (255, 255, 255),
    "attack": (222, 40, 40),
    "wait": (250, 204, 21),
    "cancel": (170, 120, 220),
    "card": (250, 247, 238),
    "card_edge": (120, 112, 96),
    "band_A": (178, 52, 44),
    "band_M": (48, 102, 168),
    "band_T": (58, 122, 64),
    "back": (150, 70, 52),
    "back_hi": (226, 170, 140),
    "win": (74, 222, 128),
}
INDEX: dict[str, int] = {name: i for i, name in enumerate(KEY)}
SQUARE_BACKGROUNDS = ("sq_light", "sq_dark", "g_light", "g_dark", "a_light", "a_dark")


def _samples() -> Image.Image:
    """Tokens on every square colour: the blends of their anti-aliased edges."""
    from render.fixbayonets import sprites

    sheet = Image.new("RGB", (6 * 60, 2 * 5 * 60), KEY["page"])
    y = 0
    for side in ("germans", "americans"):
        for kind in "OHSUR":
            spr = sprites.token(side, kind, 2, 56)
            for i, bg in enumerate(SQUARE_BACKGROUNDS):
                tile = Image.new("RGBA", spr.size, KEY[bg])
                tile.alpha_composite(spr)
                sheet.paste(tile.convert("RGB"), (i * 60, y))
            y += 60
    return sheet


PALETTE = Palette(KEY, _samples)


def text(s: str, size: int, fg: str = "text", bg: str = "panel", bold: bool = False) -> Image.Image:
    return PALETTE.text(s, size, fg, bg, bold)
