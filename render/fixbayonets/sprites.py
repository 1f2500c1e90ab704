"""Men as tokens, drawn once at 4x and scaled down: shape for the side, a letter for the kind.

German men are rounded squares in field grey with a white letter; American men are khaki discs
with a dark letter. Officers wear a gold rim and a star. A number in the corner counts the men of
that kind on the square.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.fixbayonets.theme import KEY
from render.kit import font

SS = 4


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * k)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


@lru_cache(maxsize=256)
def token(side: str, kind: str, count: int, size: int) -> Image.Image:
    """An RGBA token `size` pixels square."""
    big = size * SS
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    german = side == "germans"
    pad = big * 0.06
    line = max(3, big // 22)
    officer = kind == "O"
    rim = KEY["gold"] if officer else KEY["ink"]
    box = [pad, pad, big - pad, big - pad]
    inner = [pad + line, pad + line, big - pad - line, big - pad - line]
    if german:
        d.rounded_rectangle(box, radius=big * 0.14, fill=rim)
        d.rounded_rectangle(inner, radius=big * 0.1, fill=KEY["german"])
    else:
        d.ellipse(box, fill=rim)
        d.ellipse(inner, fill=KEY["american"])
    if officer:
        d.polygon(_star(big * 0.5, big * 0.22, big * 0.13), fill=KEY["gold"], outline=KEY["ink"])
    fg = KEY["white"] if german else KEY["ink"]
    cy = big * (0.57 if officer else 0.5)
    d.text((big / 2, cy), kind, font=font(int(big * 0.5), True, 1 / SS), fill=fg, anchor="mm")
    if count > 1:
        r = big * 0.2
        cx, cyb = big - r - 1, big - r - 1
        d.ellipse([cx - r, cyb - r, cx + r, cyb + r], fill=KEY["ink"], outline=KEY["white"], width=max(2, SS))
        d.text((cx, cyb), str(count), font=font(int(r * 1.5), True, 1 / SS), fill=KEY["white"], anchor="mm")
    return im.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def card_back(w: int, h: int) -> Image.Image:
    big_w, big_h = w * SS, h * SS
    im = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle(
        [0, 0, big_w - 1, big_h - 1], radius=SS * 3, fill=KEY["back"], outline=KEY["ink"], width=SS
    )
    d.rounded_rectangle(
        [SS * 3, SS * 3, big_w - SS * 3, big_h - SS * 3], radius=SS * 2, outline=KEY["back_hi"], width=SS
    )
    return im.resize((w, h), Image.Resampling.LANCZOS)
