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
def token(side: str, kind: str, count: int, size: int, count_px: int = 0) -> Image.Image:
    """An RGBA token `size` pixels square; with `count` > 1 a badge in its lower right corner
    gives the number, its figures `count_px` pixels tall (the board's smallest readable size)."""
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
    cx = big * (0.4 if count > 1 else 0.5)  # clear of the count badge in the corner
    d.text(
        (cx, cy - (big * 0.04 if count > 1 else 0)),
        kind,
        font=font(int(big * 0.5), True, 1 / SS),
        fill=fg,
        anchor="mm",
    )
    if count > 1:
        px = max(count_px, round(size * 0.3)) * SS
        words = str(count)
        w = font(px, True, 1 / SS).getlength(words)
        r = max(px * 0.68, w / 2 + px * 0.22)
        cx, cyb = big - r - 1, big - r - 1
        d.ellipse([cx - r, cyb - r, cx + r, cyb + r], fill=KEY["ink"], outline=KEY["white"], width=max(2, SS))
        d.text((cx, cyb), words, font=font(px, True, 1 / SS), fill=KEY["white"], anchor="mm")
    return im.resize((size, size), Image.Resampling.LANCZOS)


def stack_rows(kinds: str) -> list[list[str]]:
    """A mixed stack's entries ('3R', 'S', 'O'), in rows centred in the square: the corners stay
    free up to four kinds (a kill mark goes in a corner)."""
    entries = [f"{kinds.count(k)}{k}" if kinds.count(k) > 1 else k for k in dict.fromkeys(kinds)]
    shape = {1: [1], 2: [1, 1], 3: [1, 1, 1], 4: [1, 2, 1]}.get(len(entries), [2, 2, 1])
    rows, i = [], 0
    for n in shape:
        rows.append(entries[i : i + n])
        i += n
    return rows


@lru_cache(maxsize=512)
def stack(side: str, kinds: str, size: int, text_px: int) -> Image.Image:
    """Men of several kinds on one square as one piece: the side's shape (a German stack is a
    square-cornered tile, an American one nearly round) holding each kind's letter with its
    count ('3R' is three riflemen), every letter `text_px` pixels tall. An officer's O is gold."""
    big = size * SS
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    german = side == "germans"
    line = max(3, big // 28)
    pad = big * 0.02
    box = [pad, pad, big - pad, big - pad]
    inner = [pad + line, pad + line, big - pad - line, big - pad - line]
    radius = big * (0.12 if german else 0.42)
    d.rounded_rectangle(box, radius=radius, fill=KEY["ink"])
    d.rounded_rectangle(inner, radius=radius - line, fill=KEY["german"] if german else KEY["american"])
    fg = KEY["white"] if german else KEY["ink"]
    rows = stack_rows(kinds)
    px = text_px * SS
    f = font(px, True, 1 / SS)
    pitch = min(big / len(rows), px * 1.18)
    top = big / 2 - pitch * len(rows) / 2
    for r, row in enumerate(rows):
        cy = top + pitch * (r + 0.5)
        widths = [f.getlength(e) for e in row]
        gap = px * 0.35
        x = big / 2 - (sum(widths) + gap * (len(row) - 1)) / 2
        for e, w in zip(row, widths, strict=True):
            colour = KEY["gold"] if e.endswith("O") and german else fg
            d.text((x + w / 2, cy), e, font=f, fill=colour, anchor="mm")
            if e.endswith("O") and not german:  # gold on khaki is faint: underline it in gold too
                d.line([x, cy + px * 0.42, x + w, cy + px * 0.42], fill=KEY["gold"], width=SS * 2)
            x += w + gap
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
