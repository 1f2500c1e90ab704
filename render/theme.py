"""Colours, fonts, the one shared palette and cached text: everything the pictures have in common.

Boards are drawn in palette ("P") mode with one fixed 256-colour palette, so a render is mostly
pasting cached tiles and the PNG encoder has a third of the bytes to squeeze. Anything drawn with
anti-aliasing (tokens, text, cards) is drawn once in RGB(A), quantised to this palette and cached.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).parent / "fonts"
RGB = tuple[int, int, int]

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


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans, so every machine draws the same picture."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


# The last palette slot is a colour no drawing uses: animations mark unchanged pixels with it.
SPARE = 255
SPARE_RGB = (1, 255, 254)
_lock = threading.Lock()
_palette: Image.Image | None = None
INDEX: dict[str, int] = {name: i for i, name in enumerate(KEY)}


def _sample_sheet() -> Image.Image:
    """A picture holding the blends we need (edges of tokens and text on each background)."""
    from render import sprites  # late: sprites need fonts and colours only, not the palette

    keys = list(KEY.values())
    sheet = Image.new("RGB", (len(keys) * 24, len(keys) * 24 + 400), KEY["page"])
    d = ImageDraw.Draw(sheet)
    # Every ordered pair of key colours, blended in 4 steps: anti-aliased edges land on these.
    for i, bg in enumerate(keys):
        for j, fg in enumerate(keys):
            for k in range(4):
                t = (k + 1) / 5
                c = tuple(round(bg[n] * (1 - t) + fg[n] * t) for n in range(3))
                d.rectangle([j * 24 + k * 6, i * 24, j * 24 + k * 6 + 5, i * 24 + 23], fill=c)
    y = len(keys) * 24
    x = 0
    for kind in sprites.TOKEN_KINDS:
        spr = sprites.token(kind, 76)
        for bg in ("g_light", "n_dark", "c_light", "gt_dark", "ct_dark"):
            tile = Image.new("RGBA", spr.size, KEY[bg])
            tile.alpha_composite(spr)
            sheet.paste(tile.convert("RGB"), (x % (sheet.width - 80), y + (x // (sheet.width - 80)) * 80))
            x += 80
    return sheet


def palette() -> Image.Image:
    """The shared palette image (built once, under a lock, then only read)."""
    global _palette
    if _palette is None:
        with _lock:
            if _palette is None:
                keys = [c for rgb in KEY.values() for c in rgb]
                free = 255 - len(KEY)
                rest = _sample_sheet().quantize(free, method=Image.Quantize.MEDIANCUT)
                flat = keys + (rest.getpalette() or [])[: free * 3]
                flat += [0] * (765 - len(flat)) + list(SPARE_RGB)
                pal = Image.new("P", (1, 1))
                pal.putpalette(flat)
                _palette = pal
    return _palette


def to_p(im: Image.Image) -> Image.Image:
    """Map an RGB picture onto the shared palette (no dithering: flat colours stay exact)."""
    return im.convert("RGB").quantize(palette=palette(), dither=Image.Dither.NONE)


_text_cache: dict[tuple[str, int, bool, str, str], Image.Image] = {}


def text(s: str, size: int, fg: str = "text", bg: str = "panel", bold: bool = False) -> Image.Image:
    """A line of anti-aliased text as a palette tile, cached (the panel repeats most of its words)."""
    key = (s, size, bold, fg, bg)
    tile = _text_cache.get(key)
    if tile is None:
        f = font(size, bold)
        left, _top, right, _bottom = f.getbbox(s or " ")
        asc, desc = f.getmetrics()
        im = Image.new("RGB", (max(1, right - min(0, left) + 1), asc + desc), KEY[bg])
        ImageDraw.Draw(im).text((-min(0, left), 0), s, font=f, fill=KEY[fg])
        tile = to_p(im)
        if len(_text_cache) > 4000:  # bounded: a long-running bot sees endless prompts
            _text_cache.clear()
        _text_cache[key] = tile
    return tile


@lru_cache(maxsize=2048)
def wrap(s: str, size: int, width: int, bold: bool = False) -> tuple[str, ...]:
    """Greedy word wrap to a pixel width."""
    f = font(size, bold)
    lines: list[str] = []
    cur = ""
    for word in s.split():
        trial = f"{cur} {word}" if cur else word
        if cur and f.getlength(trial) > width:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    if cur:
        lines.append(cur)
    return tuple(lines)
