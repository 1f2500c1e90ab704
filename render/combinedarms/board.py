"""The Combined Arms board: a pure function of (view, the last action's events, focus) -> PNG.

One renderer serves both eras (it reads the era's unit table from the view) and every board size.
What does not change within a game is cached: the background (squares, terrain, cities, labels, the
panel's legend) per era, board size and map; every token per (type, side, Elite, square colour).
A render pastes tiles, draws the turn's trails and the last action's highlights, writes a few
lines of text and encodes.

What a player sees: whose turn and which phase; every unit's type by symbol and letter and its side
by colour and shape (rounded for the first side, cut corners for the second); damage taken this
turn as a red "taken/defence" badge; units that fell back this turn with an orange corner; the turn's
moves (lines), attacks (red lines), retreats (orange lines) and destroyed units (red crosses) — the
current turn's, or the last turn's before the side to move has done anything; the last action framed
in yellow; terrain and cities when those options are on; the Headquarters with a gold rim.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from PIL import Image, ImageDraw

from engine.combinedarms import events as E
from engine.combinedarms.state import DEPLOY, DESIGN, NOWHERE, OVER, State, View
from engine.combinedarms.units import ERAS, Era
from engine.combinedarms.words import phase_words, plural
from engine.protocol import Event
from engine.protocol import View as AnyView
from render.combinedarms.symbols import token, token_rgb
from render.combinedarms.theme import INDEX, KEY, PALETTE, side_key
from render.kit import encode, font, wrap

TERRAIN_BG = {"B": "bunker", "T": "trench", "N": "nml", "D": "difficult"}
TERRAIN_MARK = {"B": "+2", "T": "+1", "N": "−1", "D": "+1"}
_lock = threading.Lock()


@lru_cache(maxsize=64)
def geo(w: int, h: int, s: int, rows: int) -> Geo:
    """One shared Geo per size, so its cached positions are computed once."""
    return Geo(w, h, s, rows)


@dataclass(frozen=True)
class Geo:
    """Where everything goes for a board of `w` x `h` squares of `s` pixels."""

    w: int
    h: int
    s: int
    rows: int  # legend rows the panel must hold

    @cached_property
    def m(self) -> int:
        return round(self.s * 0.42)

    @property
    def panel_x(self) -> int:
        return 2 * self.m + self.w * self.s

    @property
    def panel_w(self) -> int:
        return max(250, round(self.s * 4.3))

    @property
    def width(self) -> int:
        return self.panel_x + self.panel_w + self.m // 2

    @property
    def text(self) -> int:
        return max(11, round(self.s * 0.19))

    @property
    def icon(self) -> int:
        return max(14, round(self.s * 0.3))

    @property
    def legend_h(self) -> int:
        return self.rows * (self.icon + 3) + self.text + 8

    @property
    def height(self) -> int:
        # The panel keeps room for the title, the status and about eight lines of the last action.
        need = 2 * self.m + round(self.text * 1.25) + 14 + 15 * (self.text + 5) + self.legend_h
        return max(2 * self.m + self.h * self.s, need)

    @cached_property
    def corners(self) -> tuple[tuple[int, int], ...]:
        m, s, w, h = self.m, self.s, self.w, self.h
        return tuple((m + (sq % w) * s, m + (h - 1 - sq // w) * s) for sq in range(w * h))

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


def _legend_rows(
    era: Era, terrain: tuple[str, ...], cities: bool, difficult: bool = False
) -> list[tuple[str, str]]:
    rows = [(f"unit:{u.code}", f"{u.name}  {u.move}/{u.reach}/{u.defense}") for u in era.units]
    present = sorted({t for t in terrain if t}, key="BTND".index)
    for t in present:
        rows.append(
            (
                f"terrain:{t}",
                {"B": "Bunker +2", "T": "Trench +1", "N": "No Man's Land −1", "D": "Difficult +1"}[t],
            )
        )
    if cities:
        # With Difficult Terrain on, a city is difficult too (W7).
        rows.append(("terrain:C", "City +1 (hold all to win)" if difficult else "City (hold all to win)"))
    return rows


@lru_cache(maxsize=32)
def _background(
    era_key: str, w: int, h: int, s: int, terrain: tuple[str, ...], cities: tuple[int, ...], difficult: bool
) -> Image.Image:
    era = ERAS[era_key]
    rows = _legend_rows(era, terrain, bool(cities), difficult)
    g = Geo(w, h, s, len(rows))
    im = Image.new("RGB", (g.width, g.height), KEY["page"])
    d = ImageDraw.Draw(im)
    for sq in range(w * h):
        x, y = g.xy(sq)
        bg = _sq_key(sq, w, terrain, cities)
        d.rectangle([x, y, x + s - 1, y + s - 1], fill=KEY[bg])
        _decorate(d, x, y, s, bg)
    bx1, by1 = g.m + w * s, g.m + h * s
    d.rectangle([g.m - 2, g.m - 2, bx1 + 1, by1 + 1], outline=KEY["ink"], width=2)
    f = font(max(10, round(s * 0.2)), True)
    for i in range(w):
        cx = g.m + i * s + s // 2
        d.text((cx, g.m // 2), chr(97 + i), font=f, fill=KEY["label"], anchor="mm")
        d.text((cx, by1 + g.m // 2), chr(97 + i), font=f, fill=KEY["label"], anchor="mm")
    for r in range(h):
        cy = g.m + (h - 1 - r) * s + s // 2
        d.text((g.m // 2, cy), str(r + 1), font=f, fill=KEY["label"], anchor="mm")
    # The panel: a card, the title, and the legend at its foot.
    px, pw = g.panel_x, g.panel_w
    d.rounded_rectangle(
        [px, g.m - 2, px + pw, g.height - g.m // 2],
        radius=max(4, s // 10),
        fill=KEY["panel"],
        outline=KEY["rule"],
    )
    title = "WWI Combined Arms" if era.key == "wwi" else "WWII Combined Arms"
    d.text((px + 10, g.m + 4), title, font=font(round(g.text * 1.25), True), fill=KEY["ink"], anchor="lt")
    top = g.height - g.m // 2 - g.legend_h
    d.line([px + 10, top - 4, px + pw - 10, top - 4], fill=KEY["rule"], width=1)
    d.text((px + 10, top), "move / range / defence", font=font(g.text - 1), fill=KEY["muted"], anchor="lt")
    y = top + g.text + 6
    ic = g.icon
    for key, label in rows:
        kind, code = key.split(":")
        if kind == "unit":
            tile = token_rgb(ic, era.key, code, 0, False, KEY["panel"])
            im.paste(tile, (px + 10, y))
            tile = token_rgb(ic, era.key, code, 1, False, KEY["panel"])
            im.paste(tile, (px + 12 + ic, y))
            text = f"{code}  {label}"
        else:
            bg = "city" if code == "C" else TERRAIN_BG[code]
            d.rectangle([px + 10, y, px + 10 + 2 * ic + 1, y + ic - 1], fill=KEY[bg], outline=KEY["rule"])
            _decorate(d, px + 10 + ic // 2, y, ic, bg)
            text = label
        d.text((px + 18 + 2 * ic, y + ic // 2), text, font=font(g.text), fill=KEY["ink"], anchor="lm")
        y += ic + 3
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

    def __init__(self, bg: Image.Image, g: Geo) -> None:
        self.g = g
        self.im = bg.copy()
        self.d = ImageDraw.Draw(self.im)
        self._core = self.im.im

    def paste(self, tile: Image.Image, x: int, y: int) -> None:
        w, h = tile.size
        self._core.paste(tile.im, (x, y, x + w, y + h))

    def text(
        self, s: str, x: int, y: int, size: int, fg: str = "ink", bg: str = "panel", bold: bool = False
    ) -> int:
        tile = PALETTE.text(s, size, fg, bg, bold)
        self.paste(tile, x, y)
        return tile.width

    def line(self, a: int, b: int, colour: str, width: int, shorten: float = 0.0) -> None:
        (x0, y0), (x1, y1) = self.g.centre(a), self.g.centre(b)
        if shorten:
            dx, dy = x1 - x0, y1 - y0
            n = max(1.0, (dx * dx + dy * dy) ** 0.5)
            k = self.g.s * shorten / n
            x1, y1 = x1 - dx * k, y1 - dy * k
        self.d.line([(x0, y0), (x1, y1)], fill=INDEX[colour], width=width)

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

    def __init__(self, era_key: str, square: int = 68, campaign_square: int = 52) -> None:
        self.era = ERAS[era_key]
        self.square = square
        self.campaign_square = campaign_square

    def board(self, view: AnyView, events: Sequence[Event], overlay: str | None = None) -> bytes:
        return encode(self._draw(view, events, overlay, small=False))

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
        terrain = tuple(st.terrain)
        cities = tuple(st.cities)
        difficult = st.rules.difficult
        rows = len(_legend_rows(self.era, terrain, bool(cities), difficult))
        g = geo(w, h, s, rows)
        with _lock:
            bg = _background(self.era.key, w, h, s, terrain, cities, difficult)
        c = Canvas(bg, g)
        trail = st.trail or st.last_trail
        self._trails_under(c, st, trail)
        self._units(c, st)
        self._zones(c, st)
        self._trails_over(c, st, trail)
        self._marks(c, st)
        self._last_action(c, st, events)
        if overlay:
            self._focus(c, st, overlay)
        self._panel(c, st, events, view.viewer)
        return c.im

    # -- layers

    def _trails_under(self, c: Canvas, st: State, trail: list[list[str]]) -> None:
        """Moves and retreats as lines under the tokens (the empty square they left shows a dot)."""
        idx = st.g.index
        wid = max(2, c.g.s // 14)
        for kind, side, a, b in trail:
            if kind == "move":
                colour = "move0" if side == st.sides[0] else "move1"
                c.line(idx[a], idx[b], colour, wid)
                x, y = c.g.centre(idx[a])
                r = wid + 1
                c.d.ellipse([x - r, y - r, x + r, y + r], fill=INDEX[colour])
            elif kind == "retreat":
                c.line(idx[a], idx[b], "retreat", wid + 1)

    def _units(self, c: Canvas, st: State) -> None:
        g = c.g
        era = self.era.key
        for uid, sq in enumerate(st.u_sq):
            if sq == NOWHERE:
                continue
            x, y = g.xy(sq)
            c.paste(token(g.s, era, st.u_code[uid], st.u_side[uid], st.elite[uid], square_bg(st, sq)), x, y)

    def _marks(self, c: Canvas, st: State) -> None:
        """Each unit's small marks, above the attack lines so a line never hides one: the terrain's
        modifier and the attacked dot (bottom left, the dot above the modifier), the damage badge (top
        right) and the retreated corner (bottom right)."""
        g = c.g
        s = g.s
        small = max(9, round(s * 0.2))
        for uid, sq in enumerate(st.u_sq):
            if sq == NOWHERE:
                continue
            x, y = g.xy(sq)
            t = st.terrain[sq] or ("D" if sq in st.cities and st.rules.difficult else "")
            if t:
                c.text(TERRAIN_MARK[t], x + 2, y + s - small - 4, small, "ink", square_bg(st, sq))
            if st.u_dmg[uid]:
                label = f"{min(st.u_dmg[uid], st.defense(uid))}/{st.defense(uid)}"
                tile = PALETTE.text(label, small, "white", "dmg", True)
                tx = x + s - tile.width - 3
                c.d.rectangle([tx - 2, y + 1, x + s - 2, y + tile.height + 2], fill=INDEX["dmg"])
                c.paste(tile, tx, y + 2)
            if uid in st.retreated:
                k = round(s * 0.28)
                c.d.polygon(
                    [(x + s - 2, y + s - 2 - k), (x + s - 2, y + s - 2), (x + s - 2 - k, y + s - 2)],
                    fill=INDEX["retreat"],
                )
            if st.phase != OVER and uid in st.attacked:
                r = max(3, s // 14)
                bottom = y + s - 4 - (small + 4 if t else 0)
                c.d.ellipse([x + 4, bottom - 2 * r, x + 4 + 2 * r, bottom], fill=INDEX["hit"])

    def _zones(self, c: Canvas, st: State) -> None:
        """The deployment zones' edges, dashed, over the tokens so both sides' show alike."""
        g = c.g
        x1 = g.m + g.w * g.s
        for rank in (3, g.h - 3):
            yy = g.m + (g.h - rank) * g.s
            for xx in range(g.m, x1, 10):
                c.d.line([xx, yy, min(xx + 5, x1), yy], fill=INDEX["muted"], width=1)

    def _trails_over(self, c: Canvas, st: State, trail: list[list[str]]) -> None:
        """Attacks as red lines over the tokens, destroyed units as crosses on their squares."""
        idx = st.g.index
        wid = max(2, c.g.s // 22)
        for kind, _side, a, b in trail:
            if kind == "hit":
                c.line(idx[a], idx[b], "hit", wid, shorten=0.22)
                x, y = c.g.centre(idx[b])
                r = wid + 2
                c.d.ellipse([x - r, y - r, x + r, y + r], outline=INDEX["hit"], width=2)
        for kind, _side, a, code in trail:
            if kind == "destroyed" and st.board[idx[a]] == NOWHERE:
                x, y = c.g.xy(idx[a])
                tile = PALETTE.text(code, round(c.g.s * 0.4), "muted", square_bg(st, idx[a]), True)
                c.paste(tile, x + (c.g.s - tile.width) // 2, y + (c.g.s - tile.height) // 2)
                c.cross(idx[a], "hit")

    def _last_action(self, c: Canvas, st: State, events: Sequence[Event]) -> None:
        idx = st.g.index
        wid = max(3, c.g.s // 18)
        marked: set[int] = set()
        for e in events:
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

    def _panel(self, c: Canvas, st: State, events: Sequence[Event], viewer: str | None) -> None:
        g = c.g
        x = g.panel_x + 10
        y = g.m + round(g.text * 1.25) + 14
        width = g.panel_w - 20
        size = g.text
        # Whose turn and what phase, with the side's colour chip.
        if st.phase == OVER and st.result is not None:
            head = (
                "Drawn: " + st.result.detail
                if st.result.winner is None
                else f"The {st.title(st.side_index(st.result.winner))} win"
            )
            lines = [head] + ([] if st.result.winner is None else [st.result.detail])
            chip = None if st.result.winner is None else st.side_index(st.result.winner)
        else:
            lines = [phase_words(st)]
            chip = (
                st.active
                if st.phase not in (DESIGN, DEPLOY)
                else (None if st.phase == DESIGN else (0 if not st.deployed[0] else 1))
            )
        for n, text in enumerate(lines):
            for part in wrap(text, size + 1, width - (size + 8), True):
                dx = 0
                if chip is not None and n == 0:
                    c.d.rectangle(
                        [x, y + 2, x + size, y + size + 2],
                        fill=INDEX[side_key(chip)],
                        outline=INDEX[side_key(chip, "edge")],
                    )
                    dx = size + 6
                    chip = None
                c.text(part, x + dx, y, size + 1, "ink", "panel", True)
                y += size + 6
        # The forces, or the design's progress.
        if st.phase == DESIGN:
            for i in (0, 1):
                done = "army chosen" if st.designed[i] else "choosing…"
                mine = st.armies[i] is not None and viewer == st.sides[i]
                c.text(f"{st.title(i)}: {done}", x, y, size, "muted")
                y += size + 5
                if mine:
                    c.text("(yours is shown only to you)", x, y, size - 1, "muted")
                    y += size + 4
        else:
            for i in (0, 1):
                n = len(st.alive(i))
                c.d.rectangle(
                    [x, y + 3, x + size - 2, y + size + 1],
                    fill=INDEX[side_key(i)],
                    outline=INDEX[side_key(i, "edge")],
                )
                c.text(f"{st.title(i)}: {plural(n, 'unit')}", x + size + 4, y, size, "ink")
                y += size + 5
        if st.pending is not None and st.phase not in (OVER,):
            uid, options = st.pending
            names = ", ".join(st.g.names[o] for o in options)
            for part in wrap(
                f"Retreat owed: {st.unit_name(uid)} on {st.g.names[st.u_sq[uid]]} → {names}", size, width
            ):
                c.text(part, x, y, size, "retreat", "panel", True)
                y += size + 5
        # The last action in words.
        said = ", ".join(t for e in events if (t := e.text(viewer)))
        if said:
            y += 4
            c.text("Last:", x, y, size, "muted", "panel", True)
            y += size + 4
            limit = g.height - g.m // 2 - g.legend_h - 12
            for part in last_lines(said, size, width, max(1, (limit - y + 4) // (size + 4))):
                c.text(part, x, y, size, "ink")
                y += size + 4


def last_lines(said: str, size: int, width: int, most: int) -> tuple[str, ...]:
    """The last action's words wrapped to `width`, at most `most` lines; a cut ends with "…"."""
    lines = wrap(said, size, width)
    if len(lines) <= most:
        return lines
    cut = list(lines[:most])
    while cut[-1] and font(size).getlength(cut[-1] + " …") > width:
        cut[-1] = cut[-1].rsplit(" ", 1)[0] if " " in cut[-1] else ""
    cut[-1] = f"{cut[-1]} …".strip()
    return tuple(cut)


__all__ = ["Board", "Geo", "last_lines", "square_bg"]
