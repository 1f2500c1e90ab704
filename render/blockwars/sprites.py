"""Token, tank and card pictures, drawn once at 4x and scaled down for smooth edges.

The two sides differ in more than colour, for colour-blind players: German tokens are dark
octagons with a white "G", Canadian tokens are light round counters with a dark "C". Machine guns
carry "MG", a barrel and a yellow wedge showing their 90° firing arc (45° either side of ahead).
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render.blockwars.theme import KEY, font

SS = 4  # supersampling factor
TOKEN_KINDS = ("GI", "GM", "CI", "CM")


def _octagon(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [
        (cx + r * math.cos(math.radians(22.5 + 45 * k)), cy + r * math.sin(math.radians(22.5 + 45 * k)))
        for k in range(8)
    ]


def _body(d: ImageDraw.ImageDraw, german: bool, cx: float, cy: float, r: float, line: int) -> None:
    if german:
        d.polygon(_octagon(cx, cy, r + line), fill=KEY["ink"])
        d.polygon(_octagon(cx, cy, r), fill=KEY["german"])
        d.polygon(_octagon(cx, cy, r * 0.84), outline=KEY["german_hi"], width=max(1, line // 2))
    else:
        d.ellipse([cx - r - line, cy - r - line, cx + r + line, cy + r + line], fill=KEY["ink"])
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=KEY["canadian"])
        k = r * 0.84
        d.ellipse([cx - k, cy - k, cx + k, cy + k], outline=KEY["canadian_hi"], width=max(1, line // 2))


def _centred(d: ImageDraw.ImageDraw, cx: float, cy: float, s: str, size: int, fill: tuple[int, ...]) -> None:
    d.text((cx, cy), s, font=font(size, True, 1 / SS), fill=fill, anchor="mm")


@lru_cache(maxsize=32)
def token(kind: str, size: int, letter: bool = True) -> Image.Image:
    """An RGBA token for one square: kind is GI, GM, CI or CM. Without its letter it is a small
    badge beside a side's name (the name says what the letter would)."""
    big = size * SS
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    german = kind[0] == "G"
    c = big / 2
    r = big * 0.34
    line = max(2, big // 40)
    if kind[1] == "M":
        # The firing arc: a wedge from the gun to the square's forward corners (45° either side of
        # straight ahead; ahead is down the board for the Germans, up for the Canadians).
        ahead = 1 if german else -1
        gy = c - ahead * big * 0.12  # the gun sits back in its square, the arc fills the front
        edge = big / 2 + ahead * (big / 2 - line)
        d.polygon(
            [(c, gy), (line, edge), (big - line, edge)],
            fill=(*KEY["arc"], 255),
            outline=KEY["ink"],
            width=line,
        )
        w = big * 0.07
        tip = c + ahead * big * 0.44
        y0, y1 = sorted((gy, tip))
        d.rectangle([c - w - line, y0, c + w + line, y1], fill=KEY["ink"])
        _body(d, german, c, gy, r * 0.86, line)
        if letter:
            _centred(d, c, gy, "MG", int(big * 0.28), KEY["white"] if german else KEY["ink"])
    else:
        _body(d, german, c, c, r, line)
        if letter:
            _centred(d, c, c, "G" if german else "C", int(big * 0.4), KEY["white"] if german else KEY["ink"])
    return im.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=8)
def tank(size: int, damage: int) -> Image.Image:
    """The Canadian tank over 2x2 squares, seen from above, facing up the board; damage as pips."""
    big = size * 2 * SS
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    u = big / 100
    line = max(2, int(1.2 * u))
    # Tracks, left and right, with treads.
    for x0 in (10 * u, 74 * u):
        d.rounded_rectangle(
            [x0, 8 * u, x0 + 16 * u, 92 * u], radius=6 * u, fill=KEY["track"], outline=KEY["ink"], width=line
        )
        for k in range(12):
            y = 12 * u + k * 7 * u
            d.line([x0 + 2 * u, y, x0 + 14 * u, y], fill=KEY["ink"], width=line)
    # Hull with a pointed front (up).
    hull = [(24 * u, 20 * u), (50 * u, 6 * u), (76 * u, 20 * u), (76 * u, 88 * u), (24 * u, 88 * u)]
    d.polygon(hull, fill=KEY["ink"])
    inner = [(27 * u, 22 * u), (50 * u, 10 * u), (73 * u, 22 * u), (73 * u, 85 * u), (27 * u, 85 * u)]
    d.polygon(inner, fill=KEY["canadian"])
    # Sponson guns pointing outwards and a front chevron: which way is forward.
    d.line([(38 * u, 24 * u), (50 * u, 16 * u), (62 * u, 24 * u)], fill=KEY["ink"], width=3 * line)
    # Roundel "C" and the word TANK.
    d.ellipse([36 * u, 30 * u, 64 * u, 58 * u], fill=KEY["canadian_hi"], outline=KEY["ink"], width=line)
    d.text((50 * u, 44 * u), "C", font=font(int(20 * u), True, 1 / SS), fill=KEY["ink"], anchor="mm")
    d.text((50 * u, 66 * u), "TANK", font=font(int(14 * u), True, 1 / SS), fill=KEY["ink"], anchor="mm")
    # Damage pips: filled red = a point of damage (two destroy it).
    for k in range(2):
        x = 43 * u + k * 14 * u
        hit = k < damage
        d.ellipse(
            [x - 5 * u, 76 * u, x + 5 * u, 86 * u],
            fill=KEY["attack"] if hit else KEY["card"],
            outline=KEY["ink"],
            width=line,
        )
    if damage:
        # Scorch and a crack across the hull.
        d.line(
            [(30 * u, 30 * u), (38 * u, 40 * u), (33 * u, 48 * u), (42 * u, 58 * u)],
            fill=KEY["attack_dk"],
            width=3 * line,
        )
    return im.resize((size * 2, size * 2), Image.Resampling.LANCZOS)


@lru_cache(maxsize=128)
def card(code: str, w: int) -> Image.Image:
    """A card face ('9C', 'TD', 'AS'): big rank and suit, red for hearts and diamonds."""
    from engine.cards import Card

    c = Card.parse(code)
    h = round(w * 1.4)
    big_w, big_h = w * SS, h * SS
    im = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle(
        [0, 0, big_w - 1, big_h - 1],
        radius=big_w // 8,
        fill=KEY["card"],
        outline=KEY["card_edge"],
        width=SS * 2,
    )
    colour = KEY["card_red"] if c.suit in "HD" else KEY["ink"]
    label = c.label
    rank, suit = label[:-1], label[-1]
    d.text(
        (big_w / 2, big_h * 0.36),
        rank,
        font=font(int(big_w * (0.42 if len(rank) > 1 else 0.55)), True, 1 / SS),
        fill=colour,
        anchor="mm",
    )
    d.text(
        (big_w / 2, big_h * 0.74), suit, font=font(int(big_w * 0.5), False, 1 / SS), fill=colour, anchor="mm"
    )
    return im.resize((w, h), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def plane(size: int, status: str, german: bool) -> Image.Image:
    """A small aircraft silhouette: solid when ok, cracked when damaged, crossed out when destroyed."""
    big = size * SS
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    u = big / 20
    body = KEY["german_hi"] if german else KEY["canadian"]
    if status == "destroyed":
        body = KEY["dim"]
    wing = [0.5 * u, 6 * u, 19.5 * u, 10.5 * u]
    d.rounded_rectangle(wing, radius=u, fill=body, outline=KEY["ink"], width=SS)
    d.rounded_rectangle([8.5 * u, 1 * u, 11.5 * u, 19 * u], radius=u, fill=body, outline=KEY["ink"], width=SS)
    d.rounded_rectangle([5 * u, 15 * u, 15 * u, 18 * u], radius=u, fill=body, outline=KEY["ink"], width=SS)
    if status == "damaged":
        d.line([(3 * u, 4 * u), (9 * u, 11 * u), (6 * u, 16 * u)], fill=KEY["attack"], width=2 * SS)
    if status == "destroyed":
        d.line([(1 * u, 1 * u), (19 * u, 19 * u)], fill=KEY["attack"], width=3 * SS)
        d.line([(19 * u, 1 * u), (1 * u, 19 * u)], fill=KEY["attack"], width=3 * SS)
    return im.resize((size, size), Image.Resampling.LANCZOS)
