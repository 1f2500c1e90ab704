"""The Combined Arms board: a pure function of (view, the last action's events, focus) -> PNG.

Laid out for a phone first, top to bottom: whose turn and which phase in large type; the second
side's strength at its end of the board; the board, filling the width; the first side's strength;
then a retreat owed, and what the last action (or a whole turn) did, in words, as long as it
needs. Every word and number is at least 12 CSS px when the picture is shown 400 CSS px wide; the
key to the symbols, terrain and marks is the `rules board` topic (`rules units` has the table).

One renderer serves both eras (it reads the era's unit table from the view) and every board size.
What does not change within a game is cached: the background (squares, terrain, cities,
coordinates) per era, board size and map; every token per (type, side, Elite, square colour).

What a player sees: every unit's type by symbol and letter and its side by colour and shape
(rounded for the first side, cut corners for the second); damage taken this turn as a red badge
(taken/defence where it fits, else taken); units that fell back this turn with an orange corner;
the turn's moves (lines in the mover's colour from a dot where the unit started), attacks (red
lines ending in an arrowhead at the target), retreats (orange lines) and destroyed units (red
crosses over their faded letter): the current turn's, or the whole last turn before the side to
move has done anything. Lines run under the tokens, so no line hides a unit; only the small marks
(badges, arrowheads, crosses) sit on top. The last action is framed in yellow.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from PIL import Image, ImageDraw

from engine.combinedarms import events as E
from engine.combinedarms.state import DEPLOY, DESIGN, NOWHERE, OVER, State, View
from engine.combinedarms.units import ERAS
from engine.combinedarms.words import phase_words, plural
from engine.meta import GameEnded
from engine.protocol import Event
from engine.protocol import View as AnyView
from render.combinedarms.symbols import token
from render.combinedarms.theme import INDEX, KEY, PALETTE, side_key
from render.kit import Column, Piece, encode, font, grown, max_height, phone_px, piece

TERRAIN_BG = {"B": "bunker", "T": "trench", "N": "nml", "D": "difficult"}
_lock = threading.Lock()
MOST_LISTED_MOVES = 4  # a turn with more moves says how many; the lines show each


@lru_cache(maxsize=64)
def geo(w: int, h: int, s: int) -> Geo:
    """One shared Geo per size, so its cached positions are computed once."""
    return Geo(w, h, s)


@dataclass(frozen=True)
class Geo:
    """Where everything goes for a board of `w` x `h` squares of `s` pixels."""

    w: int
    h: int
    s: int

    @cached_property
    def m(self) -> int:
        """The coordinates' strips around the board."""
        return round(self.s * 0.4)

    @cached_property
    def width(self) -> int:
        return self.w * self.s + 2 * self.m

    @cached_property
    def text(self) -> int:
        """Body text size: the smallest on the picture (12 CSS px on a phone)."""
        return phone_px(self.width)

    @cached_property
    def big(self) -> int:
        return round(self.text * 1.25)

    @cached_property
    def line(self) -> int:
        return round(self.text * 1.42)

    @cached_property
    def pad(self) -> int:
        return max(6, round(self.width * 0.016))

    @cached_property
    def band_h(self) -> int:
        return round(self.big * 1.25) + 2 * self.pad

    @cached_property
    def top_row(self) -> int:
        """The second side's line, above the board (its home ranks are at the top)."""
        return self.band_h + self.pad

    @cached_property
    def y0(self) -> int:
        """The board's top edge."""
        return self.top_row + self.line + self.m

    @cached_property
    def bottom_row(self) -> int:
        return self.y0 + self.h * self.s + self.m + self.pad // 2

    @cached_property
    def words_y(self) -> int:
        return self.bottom_row + self.line + self.pad // 2

    @cached_property
    def height(self) -> int:
        """The height with two lines of words below the board; it grows to say more."""
        return self.words_y + 2 * self.line + self.pad

    @cached_property
    def corners(self) -> tuple[tuple[int, int], ...]:
        m, s, w, h, y0 = self.m, self.s, self.w, self.h, self.y0
        return tuple((m + (sq % w) * s, y0 + (h - 1 - sq // w) * s) for sq in range(w * h))

    def xy(self, sq: int) -> tuple[int, int]:
        """Top-left pixel of a square: rank 1 at the bottom, the first side's home."""
        return self.corners[sq]

    def centre(self, sq: int) -> tuple[int, int]:
        x, y = self.xy(sq)
        return x + self.s // 2, y + self.s // 2


def square_bg(state: State, sq: int) -> str:
    """The key colour of a square: its terrain, a city, or the light/dark checker."""
    if sq in state.cities:
        return "city"
    t = state.terrain[sq]
    if t:
        return TERRAIN_BG[t]
    w = state.g.width
    return "light" if (sq % w + sq // w) % 2 else "dark"


# ---------------------------------------------------------------------------- the background


@lru_cache(maxsize=32)
def _background(w: int, h: int, s: int, terrain: tuple[str, ...], cities: tuple[int, ...]) -> Image.Image:
    g = Geo(w, h, s)
    im = Image.new("RGB", (g.width, g.height), KEY["page"])
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, g.width - 1, g.band_h - 1], fill=KEY["panel"])
    d.line([0, g.band_h - 1, g.width, g.band_h - 1], fill=KEY["rule"], width=1)
    for sq in range(w * h):
        x, y = g.xy(sq)
        bg = _sq_key(sq, w, terrain, cities)
        d.rectangle([x, y, x + s - 1, y + s - 1], fill=KEY[bg])
        _decorate(d, x, y, s, bg)
    bx1, by1 = g.m + w * s, g.y0 + h * s
    d.rectangle([g.m - 2, g.y0 - 2, bx1 + 1, by1 + 1], outline=KEY["ink"], width=2)
    f = font(g.text, True)
    for i in range(w):
        cx = g.m + i * s + s // 2
        d.text((cx, g.y0 - g.m // 2), chr(97 + i), font=f, fill=KEY["label"], anchor="mm")
        d.text((cx, by1 + g.m // 2), chr(97 + i), font=f, fill=KEY["label"], anchor="mm")
    for r in range(h):
        cy = g.y0 + (h - 1 - r) * s + s // 2
        d.text((g.m // 2, cy), str(r + 1), font=f, fill=KEY["label"], anchor="mm")
        d.text((bx1 + g.m // 2, cy), str(r + 1), font=f, fill=KEY["label"], anchor="mm")
    return PALETTE.to_p(im)


def _sq_key(sq: int, w: int, terrain: tuple[str, ...], cities: tuple[int, ...]) -> str:
    if sq in cities:
        return "city"
    t = terrain[sq]
    if t:
        return TERRAIN_BG[t]
    return "light" if (sq % w + sq // w) % 2 else "dark"


def _decorate(d: ImageDraw.ImageDraw, x: int, y: int, s: int, bg: str) -> None:
    """Terrain patterns, drawn where a token does not cover them (and fully on empty squares)."""
    if bg == "trench":
        for k in (0.22, 0.78):
            yy = y + s * k
            pts = [(x + s * i / 6, yy + (s * 0.05 if i % 2 else -s * 0.05)) for i in range(7)]
            d.line(pts, fill=KEY["trench_line"], width=max(1, s // 30))
    elif bg == "bunker":
        p = s * 0.12
        d.rectangle([x + p, y + p, x + s - p, y + s - p], outline=KEY["bunker_line"], width=max(2, s // 22))
        d.rectangle([x + s * 0.35, y + s * 0.45, x + s * 0.65, y + s * 0.55], fill=KEY["bunker_line"])
    elif bg == "nml":
        for cx, cy, r in ((0.25, 0.3, 0.1), (0.7, 0.25, 0.07), (0.55, 0.72, 0.12)):
            d.ellipse(
                [x + s * (cx - r), y + s * (cy - r), x + s * (cx + r), y + s * (cy + r)],
                outline=KEY["crater"],
                width=max(1, s // 30),
            )
    elif bg == "difficult":
        for cx, cy in ((0.28, 0.35), (0.68, 0.3), (0.48, 0.72)):
            r = s * 0.12
            d.polygon(
                [
                    (x + s * cx, y + s * cy - r),
                    (x + s * cx + r, y + s * cy + r * 0.8),
                    (x + s * cx - r, y + s * cy + r * 0.8),
                ],
                fill=KEY["tree"],
            )
    elif bg == "city":
        base = y + s * 0.8
        for bx, bw, bh in ((0.15, 0.18, 0.35), (0.36, 0.22, 0.55), (0.62, 0.2, 0.42)):
            d.rectangle([x + s * bx, base - s * bh, x + s * (bx + bw), base], fill=KEY["city_line"])


# ---------------------------------------------------------------------------- the picture


class Canvas:
    """The picture being drawn: a palette copy of the background and shortcuts for marks."""

    def __init__(self, bg: Image.Image, g: Geo, height: int) -> None:
        self.g = g
        self.im = grown(bg, height)
        self.d = ImageDraw.Draw(self.im)
        self._core = self.im.im

    def paste(self, tile: Image.Image, x: int, y: int) -> None:
        w, h = tile.size
        self._core.paste(tile.im, (x, y, x + w, y + h))

    def line(self, a: int, b: int, colour: str, width: int, shorten: float = 0.0) -> None:
        (x0, y0), (x1, y1) = self.g.centre(a), self.g.centre(b)
        if shorten:
            dx, dy = x1 - x0, y1 - y0
            n = max(1.0, (dx * dx + dy * dy) ** 0.5)
            k = self.g.s * shorten / n
            x1, y1 = x1 - dx * k, y1 - dy * k
        self.d.line([(x0, y0), (x1, y1)], fill=INDEX[colour], width=width)

    def head(self, a: int, b: int, colour: str) -> None:
        """An arrowhead where the line from square `a` enters square `b`'s token, pointing in: it
        sits on the token's rim, clear of its symbol and letter."""
        (x0, y0), (x1, y1) = self.g.centre(a), self.g.centre(b)
        dx, dy = x1 - x0, y1 - y0
        n = max(1.0, (dx * dx + dy * dy) ** 0.5)
        ux, uy = dx / n, dy / n
        s = self.g.s
        # The rim of the square along the line (a square, not a circle: the further of the two).
        edge = s * 0.5 / max(abs(ux), abs(uy))
        tip_k = edge - s * 0.08
        tx, ty = x1 - ux * tip_k, y1 - uy * tip_k
        length, half = s * 0.24, s * 0.13
        bx, by = tx - ux * length, ty - uy * length
        px, py = -uy, ux
        tri = [(tx, ty), (bx + px * half, by + py * half), (bx - px * half, by - py * half)]
        self.d.polygon(tri, fill=INDEX[colour], outline=INDEX["ink"], width=1)

    def frame(self, sq: int, colour: str, width: int) -> None:
        x, y = self.g.xy(sq)
        s = self.g.s
        self.d.rectangle([x, y, x + s - 1, y + s - 1], outline=INDEX[colour], width=width)

    def cross(self, sq: int, colour: str) -> None:
        x, y = self.g.xy(sq)
        s = self.g.s
        p = round(s * 0.2)
        w = max(3, s // 12)
        self.d.line([x + p, y + p, x + s - p, y + s - p], fill=INDEX[colour], width=w)
        self.d.line([x + s - p, y + p, x + p, y + s - p], fill=INDEX[colour], width=w)


class Board:
    """The renderer of one era's games (both eras share this class)."""

    def __init__(self, era_key: str, square: int = 72, campaign_square: int = 52) -> None:
        self.era = ERAS[era_key]
        self.square = square
        self.campaign_square = campaign_square

    def board(self, view: AnyView, events: Sequence[Event], overlay: str | None = None) -> bytes:
        return encode(self.picture(view, events, overlay))

    def picture(self, view: AnyView, events: Sequence[Event], overlay: str | None = None) -> Image.Image:
        return self._draw(view, events, overlay, small=False)

    def frame(self, view: AnyView, events: Sequence[Event]) -> Image.Image:
        return self._draw(view, events, None, small=True)

    def _draw(self, view: AnyView, events: Sequence[Event], overlay: str | None, small: bool) -> Image.Image:
        if not isinstance(view, View):
            raise TypeError(f"not a Combined Arms view: {type(view).__name__}")
        st = view.state
        w, h = st.g.width, st.g.height
        s = self.square if w <= 8 else self.campaign_square
        if small:
            s = round(s * 0.64)
        g = geo(w, h, s)
        words = _words(st, events, view.viewer, g)
        with _lock:
            bg = _background(w, h, s, tuple(st.terrain), tuple(st.cities))
        c = Canvas(bg, g, max(g.height, words.y + g.pad))
        trail = st.trail or st.last_trail
        self._trails_under(c, st, trail)
        self._units(c, st)
        self._zones(c, st)
        self._trails_over(c, st, trail)
        self._marks(c, st)
        self._last_action(c, st, events)
        if overlay:
            self._focus(c, st, overlay)
        _band(c, st)
        for side, y in ((1, g.top_row), (0, g.bottom_row)):
            row = Column(PALETTE, g.pad, y, g.width - 2 * g.pad, "page")
            _side_row(row, st, side, g, view.viewer)
            row.draw(c.im)
        words.draw(c.im)
        return c.im

    # -- layers

    def _trails_under(self, c: Canvas, st: State, trail: list[list[str]]) -> None:
        """Moves, retreats and attacks as lines under the tokens: a line never hides a unit. A move
        starts from a dot on the square it left; an attack's arrowhead is drawn later, on top."""
        idx = st.g.index
        wid = max(3, c.g.s // 12)
        for kind, side, a, b in trail:
            if kind == "move":
                colour = "move0" if side == st.sides[0] else "move1"
                c.line(idx[a], idx[b], colour, wid)
                x, y = c.g.centre(idx[a])
                r = wid + 2
                c.d.ellipse([x - r, y - r, x + r, y + r], fill=INDEX[colour])
            elif kind == "retreat":
                c.line(idx[a], idx[b], "retreat", wid + 1)
            elif kind == "hit":
                c.line(idx[a], idx[b], "hit", wid)

    def _units(self, c: Canvas, st: State) -> None:
        g = c.g
        era = self.era.key
        for uid, sq in enumerate(st.u_sq):
            if sq == NOWHERE:
                continue
            x, y = g.xy(sq)
            damaged = st.u_dmg[uid] > 0  # its symbol steps aside for the damage badge
            tile = token(
                g.s, era, st.u_code[uid], st.u_side[uid], st.elite[uid], square_bg(st, sq), g.text, damaged
            )
            c.paste(tile, x, y)

    def _marks(self, c: Canvas, st: State) -> None:
        """Each unit's small marks, on top: the damage badge (top right), the retreated corner
        (bottom right) and the attacked dot (bottom left)."""
        g = c.g
        s = g.s
        size = g.text
        for uid, sq in enumerate(st.u_sq):
            if sq == NOWHERE:
                continue
            x, y = g.xy(sq)
            if st.u_dmg[uid]:
                taken, defence = min(st.u_dmg[uid], st.defense(uid)), st.defense(uid)
                tile = PALETTE.text(f"{taken}/{defence}", size, "white", "dmg", True)
                if tile.width > s * 0.55:  # a small square: the number alone (the rules say of what)
                    tile = PALETTE.text(str(taken), size, "white", "dmg", True)
                tx = x + s - tile.width - 3
                c.d.rectangle(
                    [tx - 3, y, x + s - 1, y + tile.height + 1], fill=INDEX["dmg"], outline=INDEX["white"]
                )
                c.paste(tile, tx, y + 1)
            if uid in st.retreated:
                k = round(s * 0.28)
                c.d.polygon(
                    [(x + s - 2, y + s - 2 - k), (x + s - 2, y + s - 2), (x + s - 2 - k, y + s - 2)],
                    fill=INDEX["retreat"],
                    outline=INDEX["ink"],
                )
            if st.phase != OVER and uid in st.attacked:
                r = max(3, s // 12)
                c.d.ellipse(
                    [x + 3, y + s - 3 - 2 * r, x + 3 + 2 * r, y + s - 3],
                    fill=INDEX["hit"],
                    outline=INDEX["ink"],
                )

    def _zones(self, c: Canvas, st: State) -> None:
        """The deployment zones' edges, dashed, over the tokens so both sides' show alike."""
        g = c.g
        x1 = g.m + g.w * g.s
        for rank in (3, g.h - 3):
            yy = g.y0 + (g.h - rank) * g.s
            for xx in range(g.m, x1, 10):
                c.d.line([xx, yy, min(xx + 5, x1), yy], fill=INDEX["muted"], width=1)

    def _trails_over(self, c: Canvas, st: State, trail: list[list[str]]) -> None:
        """On top, small: each attack's arrowhead at its target's rim, and each destroyed unit's
        cross over its faded letter (its square is empty, so nothing is hidden)."""
        idx = st.g.index
        for kind, _side, a, b in trail:
            if kind == "hit":
                c.head(idx[a], idx[b], "hit")
        for kind, _side, a, code in trail:
            if kind == "destroyed" and st.board[idx[a]] == NOWHERE:
                x, y = c.g.xy(idx[a])
                size = max(c.g.text, round(c.g.s * 0.4))
                tile = PALETTE.text(code, size, "muted", square_bg(st, idx[a]), True)
                c.paste(tile, x + (c.g.s - tile.width) // 2, y + (c.g.s - tile.height) // 2)
                c.cross(idx[a], "hit")

    def _last_action(self, c: Canvas, st: State, events: Sequence[Event]) -> None:
        """The last action's squares framed in yellow. After a whole turn (an AI's), only its final
        action is framed: the lines already show the rest, and thirty frames would be clutter."""
        idx = st.g.index
        wid = max(3, c.g.s // 18)
        marked: set[int] = set()
        leads = [i for i, e in enumerate(events) if isinstance(e, E.Moved | E.Hit | E.Reinforced)]
        for e in events[leads[-1] if leads else 0 :]:
            squares: tuple[str, ...] = ()
            if isinstance(e, E.Moved | E.Retreated | E.Hit):
                squares = (e.src, e.dst)
            elif isinstance(e, E.Destroyed):
                squares = (e.src,)
            elif isinstance(e, E.Reinforced):
                squares = (e.dst,)
            elif isinstance(e, E.RetreatOwed):
                squares = (e.src, *e.options)
            for name in squares:
                sq = idx.get(name)
                if sq is not None and sq not in marked:
                    marked.add(sq)
                    c.frame(sq, "last", wid)

    def _focus(self, c: Canvas, st: State, overlay: str) -> None:
        sq = st.g.index.get(overlay.strip().lower())
        if sq is None or st.board[sq] == NOWHERE:
            return
        uid = st.board[sq]
        c.frame(sq, "reach", max(3, c.g.s // 16))
        r = max(4, c.g.s // 9)
        reach = st.reach(uid) if st.phase not in (DESIGN, DEPLOY, OVER) and uid not in st.moved else 0
        for d in range(st.g.size):
            if reach >> d & 1:
                x, y = c.g.centre(d)
                c.d.ellipse([x - r, y - r, x + r, y + r], fill=INDEX["reach"])
        # What it may attack: in range, and for an Airfield not shielded by an AA gun (W3).
        targets = st.targets(uid) if st.phase != OVER else 0
        for d in range(st.g.size):
            if targets >> d & 1:
                c.frame(d, "hit", max(2, c.g.s // 20))


# ---------------------------------------------------------------------------- the words


def _band(c: Canvas, st: State) -> None:
    """Whose turn and which phase (or the result) in large type, with the side's colour chip."""
    g = c.g
    if st.phase == OVER and st.result is not None:
        w = st.result.winner
        head = "Drawn game" if w is None else f"The {st.title(st.side_index(w))} win"
        chip = None if w is None else st.side_index(w)
    else:
        head = phase_words(st)
        chip = (
            st.active
            if st.phase not in (DESIGN, DEPLOY)
            else (None if st.phase == DESIGN else (0 if not st.deployed[0] else 1))
        )
    tail = PALETTE.text("WWI" if st.rules.era.key == "wwi" else "WWII", g.text, "muted", "panel", True)
    x = g.pad
    room = g.width - 3 * g.pad - tail.width - (g.big + 8 if chip is not None else 0)
    words = PALETTE.text(head, g.big, "ink", "panel", True)
    if words.width > room:
        words = PALETTE.text(head, g.text, "ink", "panel", True)
    y = (g.band_h - words.height) // 2
    if chip is not None:
        k = round(words.height * 0.7)
        cy = y + (words.height - k) // 2
        _chip(c.d, chip, x, cy, k)
        x += k + 8
    c.paste(words, x, y)
    c.paste(tail, g.width - g.pad - tail.width, y + words.height - tail.height)


def _chip(d: ImageDraw.ImageDraw, side: int, x: int, y: int, k: int) -> None:
    """The side's colour in its token's shape: rounded for the first side, cut corners for the second."""
    fill, edge = INDEX[side_key(side)], INDEX[side_key(side, "edge")]
    if side == 0:
        d.rounded_rectangle([x, y, x + k, y + k], radius=k // 4, fill=fill, outline=edge, width=2)
    else:
        c = k // 4
        pts = [
            (x + c, y),
            (x + k - c, y),
            (x + k, y + c),
            (x + k, y + k - c),
            (x + k - c, y + k),
            (x + c, y + k),
            (x, y + k - c),
            (x, y + c),
        ]
        d.polygon(pts, fill=fill, outline=edge, width=2)


@lru_cache(maxsize=16)
def _chip_tile(side: int, k: int) -> Image.Image:
    im = Image.new("P", (k + 1, k + 1), INDEX["page"])
    im.putpalette(PALETTE.image().getpalette() or [])
    _chip(ImageDraw.Draw(im), side, 0, 0, k)
    return im


def _side_row(col: Column, st: State, side: int, g: Geo, viewer: str | None) -> None:
    """A side's line at its end of the board: its name and units left (or its army's progress)."""
    size = g.text
    name = PALETTE.text(st.title(side).upper(), size, "ink", "page", True)
    k = round(name.height * 0.7)
    head = piece((_chip_tile(side, k), 0, (name.height - k) // 2), (name, k + 6, 0))
    if st.phase == DESIGN:
        done = "army chosen" if st.designed[side] else "choosing its army"
        mine = st.armies[side] is not None and viewer == st.sides[side]
        rest = done + (" (yours is shown only to you)" if mine else "")
    else:
        n = len(st.alive(side))
        lost = sum(1 for u in st.u_side if u == side) - n
        rest = plural(n, "unit") + (f" · {lost} destroyed" if lost else "")
        if st.phase == DEPLOY and not st.deployed[side]:
            rest = "deploying" if (0 if not st.deployed[0] else 1) == side else "to deploy next"
    parts: list[Piece] = [head, piece((PALETTE.text(rest, size, "ink", "page"), 0, 0))]
    col.flow(parts, g.line, round(size * 0.5))


def _words(st: State, events: Sequence[Event], viewer: str | None, g: Geo) -> Column:
    """Below the first side's line, laid out before the picture is made so it can be as tall as
    needed: a retreat owed, then what the last action (or the whole last turn) did."""
    size = g.text
    col = Column(PALETTE, g.pad, g.words_y, g.width - 2 * g.pad, "page")
    if st.phase == OVER and st.result is not None:
        col.para(_sentence(st.result.detail), size, "ink", bold=True)
    if st.pending is not None and st.phase != OVER:
        uid, options = st.pending
        names = ", ".join(st.g.names[o] for o in options)
        unit = f"{st.adjective(st.u_side[uid])} {st.unit_name(uid)}"  # "German Infantry": whose
        top, under = col.y, len(col.ops)
        col.x, col.width, col.y = col.x + g.pad, col.width - 2 * g.pad, col.y + g.pad // 2
        col.para(
            f"Retreat owed: {unit} on {st.g.names[st.u_sq[uid]]} → {names}",
            size,
            "ink",
            bold=True,
            bg="panel",
        )
        col.x, col.width = col.x - g.pad, col.width + 2 * g.pad
        col.rect((col.x, top, col.x + col.width, col.y + g.pad // 2), "panel", "retreat", 2, under=under)
        col.y += g.pad
    said = _said(st, events, viewer)
    if said:
        col.tail(said, size, "ink", max_height(g.width) - g.pad, "muted", "Last:")
    return col


def _said(st: State, events: Sequence[Event], viewer: str | None) -> list[str]:
    """The events in words, one sentence a line: the moves together (counted when there are many:
    the lines on the board show each), then every attack, retreat and loss on its own."""
    moves = [e for e in events if isinstance(e, E.Moved)]
    out: list[str] = []
    if moves:
        # One side moves in a turn: it is named once, before its moves.
        title = moves[0].title
        if len(moves) <= MOST_LISTED_MOVES:
            head = f"The {title} move " if title else "Moves: "
            out.append(_sentence(head + ", ".join(e.step for e in moves)))
        else:
            whose = f"{st.adjective(st.side_index(moves[0].side))} moves" if title else "moves"
            out.append(f"{len(moves)} {whose}, drawn as lines from where each unit stood.")
    for e in events:
        # The end is the board's heading and its first line already (a resignation was said three
        # times: "The Germans resigned.", then "Last: … The Germans resigned: the British win.").
        if isinstance(e, E.Moved | E.TurnBegins | E.TurnEnded | E.MovesDone | GameEnded | E.GameOver):
            continue
        if t := e.text(viewer):
            out.append(_sentence(t))
    return out


def _sentence(s: str) -> str:
    """A clause as a line: a capital letter (unless it starts with notation) and a full stop."""
    if s[:1].islower() and not s[1:2].isdigit():
        s = s[:1].upper() + s[1:]
    return s if s.endswith((".", "!", "?")) else s + "."


__all__ = ["Board", "Geo", "geo", "square_bg"]
