"""Unit tokens: a side's shape and colour, a symbol for the type and its letter, drawn once per size.

Types are told apart by symbol AND letter (never colour alone), loosely after NATO map symbols: a
cross for infantry, an oval for armour, a dot for guns, a flag for the Headquarters. The sides differ
by shape as well as colour: the first side's tokens are rounded squares, the second side's have cut
corners. Elite units carry a gold star; the Headquarters a gold rim.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from render.combinedarms.theme import KEY, PALETTE, side_key
from render.kit import font

Box = tuple[float, float, float, float]
RGB = tuple[int, int, int]
Draw = ImageDraw.ImageDraw
SCALE = 3  # tiles are drawn three times larger, then scaled down: smooth edges

SYMBOL_OF: dict[str, dict[str, str]] = {
    "wwi": {
        "I": "infantry", "S": "sniper", "M": "mg", "T": "tank", "A": "artillery",
        "F": "flame", "R": "raider", "H": "hq",
    },
    "wwii": {
        "I": "infantry", "P": "para", "E": "engineer", "M": "mech", "L": "light", "T": "medium",
        "K": "heavy", "A": "artillery", "X": "antitank", "Y": "antiair", "R": "airfield",
        "F": "fort", "H": "hq",
    },
}  # fmt: skip


def _w(box: Box, k: float = 0.09) -> int:
    return max(2, round((box[3] - box[1]) * k))


def _infantry(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    d.rectangle(b, outline=ink, width=_w(b))
    d.line([x0, y0, x1, y1], fill=ink, width=_w(b))
    d.line([x0, y1, x1, y0], fill=ink, width=_w(b))


def _sniper(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = (y1 - y0) / 2
    d.ellipse([cx - r, cy - r, cx + r, cy + r], outline=ink, width=_w(b))
    d.line([cx - r * 1.4, cy, cx + r * 1.4, cy], fill=ink, width=_w(b, 0.07))
    d.line([cx, cy - r * 1.3, cx, cy + r * 1.3], fill=ink, width=_w(b, 0.07))
    d.ellipse([cx - r * 0.2, cy - r * 0.2, cx + r * 0.2, cy + r * 0.2], fill=ink)


def _mg(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    h = y1 - y0
    cy = y0 + h * 0.35
    d.line([x0, cy, x1, cy], fill=ink, width=_w(b, 0.16))  # the barrel
    d.rectangle([x0 + h * 0.2, cy - h * 0.22, x0 + h * 0.9, cy + h * 0.22], fill=ink)
    mx = x0 + h * 0.55
    d.line([mx, cy, mx - h * 0.5, y1], fill=ink, width=_w(b))  # the tripod
    d.line([mx, cy, mx + h * 0.5, y1], fill=ink, width=_w(b))
    for k in range(3):  # bullets
        bx = x1 - h * 0.15 - k * h * 0.32
        d.ellipse([bx - h * 0.08, y1 - h * 0.2, bx + h * 0.08, y1 - h * 0.04], fill=ink)


def _oval(d: Draw, b: Box, ink: RGB, fill: RGB, solid: bool = False, width: float = 0.09) -> None:
    r = (b[3] - b[1]) / 2
    d.rounded_rectangle(b, radius=r, outline=ink, width=_w(b, width), fill=ink if solid else None)


def _tank(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    _oval(d, b, ink, fill)


def _light(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    h = y1 - y0
    _oval(d, (x0 + h * 0.3, y0 + h * 0.15, x1 - h * 0.3, y1 - h * 0.15), ink, fill, width=0.1)
    d.line([x1 - h * 0.3, (y0 + y1) / 2, x1 + h * 0.1, (y0 + y1) / 2], fill=ink, width=_w(b, 0.08))


def _medium(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    h = y1 - y0
    _oval(d, b, ink, fill)
    d.line([x0 + h * 0.35, (y0 + y1) / 2, x1 - h * 0.35, (y0 + y1) / 2], fill=ink, width=_w(b, 0.14))


def _heavy(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    h = y1 - y0
    _oval(d, (x0 - h * 0.1, y0 - h * 0.05, x1 + h * 0.1, y1 + h * 0.05), ink, fill, solid=True)
    d.ellipse(
        [
            (x0 + x1) / 2 - h * 0.18,
            (y0 + y1) / 2 - h * 0.18,
            (x0 + x1) / 2 + h * 0.18,
            (y0 + y1) / 2 + h * 0.18,
        ],
        fill=fill,
    )


def _mech(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    h = y1 - y0
    d.rectangle(b, outline=ink, width=_w(b))
    d.line([x0, y0, x1, y1], fill=ink, width=_w(b))
    d.line([x0, y1, x1, y0], fill=ink, width=_w(b))
    _oval(d, (x0 + h * 0.35, y0 + h * 0.25, x1 - h * 0.35, y1 - h * 0.25), ink, fill, width=0.09)


def _para(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    h = y1 - y0
    _infantry(d, (x0, y0 + h * 0.3, x1, y1), ink, fill)
    d.chord([x0 + h * 0.3, y0 - h * 0.25, x1 - h * 0.3, y0 + h * 0.55], 180, 360, fill=ink)


def _engineer(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    h = y1 - y0
    d.rectangle(b, outline=ink, width=_w(b))
    top = y0 + h * 0.3
    d.line([x0 + h * 0.25, top, x1 - h * 0.25, top], fill=ink, width=_w(b, 0.12))
    for k in range(3):
        x = x0 + h * 0.25 + k * (x1 - x0 - h * 0.5) / 2
        d.line([x, top, x, y1 - h * 0.2], fill=ink, width=_w(b, 0.12))


def _artillery(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    h = y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    d.rectangle(b, outline=ink, width=_w(b))
    r = h * 0.26
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=ink)


def _antitank(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    d.rectangle(b, outline=ink, width=_w(b))
    d.line([x0, y1, (x0 + x1) / 2, y0, x1, y1], fill=ink, width=_w(b, 0.12), joint="curve")


def _antiair(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    h = y1 - y0
    d.rectangle(b, outline=ink, width=_w(b))
    d.arc([x0 + h * 0.2, y0 + h * 0.25, x1 - h * 0.2, y1 + h * 0.55], 180, 360, fill=ink, width=_w(b, 0.12))
    cx, cy = (x0 + x1) / 2, y1 - h * 0.3
    d.ellipse([cx - h * 0.13, cy - h * 0.13, cx + h * 0.13, cy + h * 0.13], fill=ink)


def _airfield(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    d.polygon([(x0, y0), (cx, cy), (x0, y1)], fill=ink)  # a propeller, NATO's sign for aviation
    d.polygon([(x1, y0), (cx, cy), (x1, y1)], fill=ink)
    d.line([x0, y1 + 2, x1, y1 + 2], fill=ink, width=_w(b, 0.08))


def _fort(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    h = y1 - y0
    wall = y0 + h * 0.35
    d.rectangle([x0, wall, x1, y1], fill=ink)
    n = 4
    step = (x1 - x0) / (2 * n - 1)
    for k in range(n):
        left = x0 + 2 * k * step
        d.rectangle([left, y0, left + step, wall], fill=ink)
    d.rectangle([(x0 + x1) / 2 - h * 0.12, y1 - h * 0.35, (x0 + x1) / 2 + h * 0.12, y1], fill=fill)


def _flame(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    cx = (x0 + x1) / 2
    h = y1 - y0
    d.polygon(
        [
            (cx, y0 - h * 0.1),
            (cx + h * 0.45, y0 + h * 0.55),
            (cx + h * 0.3, y1),
            (cx - h * 0.3, y1),
            (cx - h * 0.45, y0 + h * 0.55),
        ],
        fill=ink,
    )
    d.polygon([(cx, y0 + h * 0.35), (cx + h * 0.18, y1 - h * 0.1), (cx - h * 0.18, y1 - h * 0.1)], fill=fill)


def _raider(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    h = y1 - y0
    pts = [
        (x0 + h * 0.1, y1),
        (x0 + h * 0.75, y0 + h * 0.4),
        (x0 + h * 1.05, y1 - h * 0.35),
        (x1 - h * 0.1, y0),
    ]
    d.line(pts, fill=ink, width=_w(b, 0.16), joint="curve")
    d.polygon([(x1, y0 - h * 0.05), (x1 - h * 0.45, y0 + h * 0.05), (x1 - h * 0.05, y0 + h * 0.45)], fill=ink)


def _hq(d: Draw, b: Box, ink: RGB, fill: RGB) -> None:
    x0, y0, x1, y1 = b
    h = y1 - y0
    px = x0 + h * 0.35
    d.line([px, y0 - h * 0.1, px, y1 + h * 0.1], fill=ink, width=_w(b, 0.12))
    d.polygon([(px, y0 - h * 0.1), (x1, y0 + h * 0.25), (px, y0 + h * 0.6)], fill=KEY["hq"], outline=ink)


DRAWERS: dict[str, Callable[[Draw, Box, RGB, RGB], None]] = {
    "infantry": _infantry, "sniper": _sniper, "mg": _mg, "tank": _tank, "artillery": _artillery,
    "flame": _flame, "raider": _raider, "hq": _hq, "para": _para, "engineer": _engineer, "mech": _mech,
    "light": _light, "medium": _medium, "heavy": _heavy, "antitank": _antitank, "antiair": _antiair,
    "airfield": _airfield, "fort": _fort,
}  # fmt: skip


def token_rgb(
    size: int, era: str, code: str, side: int, elite: bool, bg: RGB, letter_px: int = 0, aside: bool = False
) -> Image.Image:
    """A `size` square tile: the background colour with the token on it; its letter at least
    `letter_px` pixels (what reads on a phone for the board's width). `aside` moves the symbol to
    the left and makes it smaller, leaving the top right corner to a damage badge."""
    big = size * SCALE
    im = Image.new("RGB", (big, big), bg)
    d = ImageDraw.Draw(im)
    pad = big * 0.07
    fill, edge, ink = KEY[side_key(side)], KEY[side_key(side, "edge")], KEY[side_key(side, "ink")]
    box = (pad, pad, big - pad, big - pad)
    line = max(3, round(big * 0.04))
    if side == 0:
        d.rounded_rectangle(box, radius=big * 0.12, fill=fill, outline=edge, width=line)
    else:
        c = big * 0.2
        x0, y0, x1, y1 = box
        d.polygon(
            [
                (x0 + c, y0),
                (x1 - c, y0),
                (x1, y0 + c),
                (x1, y1 - c),
                (x1 - c, y1),
                (x0 + c, y1),
                (x0, y1 - c),
                (x0, y0 + c),
            ],
            fill=fill,
            outline=edge,
            width=line,
        )
    if code == "H":
        inset = big * 0.13
        d.rounded_rectangle(
            (inset, inset, big - inset, big - inset), radius=big * 0.08, outline=KEY["hq"], width=line
        )
    # The symbol in the upper half, the letter below it.
    sym = SYMBOL_OF[era][code]
    w = big * (0.4 if aside else 0.5)
    h = big * (0.22 if aside else 0.27)
    cx = big * (0.31 if aside else 0.5)
    top = big * (0.2 if aside else 0.17)
    DRAWERS[sym](d, (cx - w / 2, top, cx + w / 2, top + h), ink, fill)
    cx = big / 2
    px = max(round(big * 0.33), letter_px * SCALE)
    f = font(px, True, 1 / SCALE)
    d.text((cx, big * 0.70), code, font=f, fill=ink, anchor="mm")
    if elite:  # top left; beside the letter when the symbol took that corner
        _star(
            d, big * 0.2, big * (0.64 if aside else 0.2), big * (0.11 if aside else 0.13), KEY["elite"], ink
        )
    return im.resize((size, size), Image.Resampling.LANCZOS)


def _star(d: Draw, cx: float, cy: float, r: float, fill: RGB, ink: RGB) -> None:
    import math

    pts = []
    for k in range(10):
        a = -math.pi / 2 + k * math.pi / 5
        rr = r if k % 2 == 0 else r * 0.45
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    d.polygon(pts, fill=fill, outline=ink)


@lru_cache(maxsize=1024)
def token(
    size: int, era: str, code: str, side: int, elite: bool, bg: str, letter_px: int = 0, aside: bool = False
) -> Image.Image:
    """The token tile in the palette, cached (a board repeats the same few dozen)."""
    return PALETTE.to_p(token_rgb(size, era, code, side, elite, KEY[bg], letter_px, aside))


__all__ = ["SYMBOL_OF", "token", "token_rgb"]
