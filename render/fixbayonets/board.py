"""The board picture: a pure function of a view (what its viewer may know) and the last events.

The background (squares, coordinates, panel, legend) and every square tile (a square's colour
with its stack of tokens on it) are built once per size, already in the palette, so a render
pastes tiles, draws the last card's arrows and the panel's words, and encodes. Caches are filled
idempotently under a lock and only read afterwards, so renders may run in worker threads.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.fixbayonets.cards import BY_CODE, MOVE, TERRAIN, Card
from engine.fixbayonets.model import (
    ADJECTIVE,
    AMERICANS,
    GERMANS,
    NAMES,
    SIDES,
    SINGULAR,
    TITLE,
    men_words,
    other,
)
from engine.fixbayonets.state import DISCARD, FIGHTING, HIDDEN, MOVING, SETUP, State, View
from engine.fixbayonets.words import ATTACK_VERBS
from engine.protocol import Event
from render.fixbayonets import sprites
from render.fixbayonets.theme import INDEX, KEY, PALETTE, text
from render.kit import font, wrap

SQUARE = 76  # pixels per square on a posted board
REPLAY_SQUARE = 48  # replays: smaller frames


@dataclass(frozen=True)
class Geo:
    s: int

    @property
    def margin(self) -> int:
        return round(self.s * 0.34)

    @property
    def panel_x(self) -> int:
        return self.margin + 8 * self.s + round(self.s * 0.22)

    @property
    def panel_w(self) -> int:
        return round(self.s * 4.3)

    @property
    def width(self) -> int:
        return self.panel_x + self.panel_w + round(self.s * 0.12)

    @property
    def height(self) -> int:
        return 2 * self.margin + 8 * self.s

    def xy(self, sq: int) -> tuple[int, int]:
        """Top-left pixel of a square: rank 8 (the Germans) at the top, rank 1 (the Americans) below."""
        return self.margin + (sq % 8) * self.s, self.margin + (7 - sq // 8) * self.s

    def centre(self, sq: int) -> tuple[int, int]:
        x, y = self.xy(sq)
        return x + self.s // 2, y + self.s // 2

    def font_size(self, k: float) -> int:
        return max(9, round(self.s * k))


def square_colour(sq: int) -> str:
    rank, file = sq // 8, sq % 8
    zone = "g" if rank == 7 else "a" if rank == 0 else "sq"
    return f"{zone}_{'dark' if (rank + file) % 2 == 0 else 'light'}"


_lock = threading.Lock()


@lru_cache(maxsize=4)
def _background(s: int) -> Image.Image:
    g = Geo(s)
    im = Image.new("RGB", (g.width, g.height), KEY["page"])
    d = ImageDraw.Draw(im)
    for sq in range(64):
        x, y = g.xy(sq)
        d.rectangle([x, y, x + s - 1, y + s - 1], fill=KEY[square_colour(sq)])
    d.rectangle(
        [g.margin - 2, g.margin - 2, g.margin + 8 * s + 1, g.margin + 8 * s + 1], outline=KEY["ink"], width=2
    )
    f = font(g.font_size(0.2), True)
    for i in range(8):
        cx = g.margin + i * s + s // 2
        d.text((cx, g.margin + 8 * s + g.margin // 2), "abcdefgh"[i], font=f, fill=KEY["dim"], anchor="mm")
        d.text((cx, g.margin // 2), "abcdefgh"[i], font=f, fill=KEY["dim"], anchor="mm")
        cy = g.margin + (7 - i) * s + s // 2
        d.text((g.margin // 2, cy), str(i + 1), font=f, fill=KEY["dim"], anchor="mm")
    d.rectangle([g.panel_x, 0, g.width - 1, g.height - 1], fill=KEY["panel"])
    # The legend, three rows of two: the five kinds, then the two sides' shapes.
    t = round(s * 0.34)
    small = font(g.font_size(0.165))
    row_h = t + 5
    y = g.height - 3 * row_h - round(s * 0.1)
    d.line([g.panel_x + 8, y - 7, g.width - 10, y - 7], fill=KEY["panel_hi"], width=1)
    entries: list[tuple[str, str, str]] = [
        (GERMANS, "O", "officer"),
        (AMERICANS, "H", "heavy weapons"),
        (GERMANS, "S", "sniper"),
        (AMERICANS, "U", "runner"),
        (GERMANS, "R", "rifleman"),
    ]
    col = g.panel_w // 2
    for i, (side, k, label) in enumerate(entries):
        x = g.panel_x + 10 + (i % 2) * col
        yy = y + (i // 2) * row_h
        tok = sprites.token(side, k, 1, t)
        im.paste(tok, (x, yy), tok)
        d.text((x + t + 5, yy + t // 2), label, font=small, fill=KEY["text"], anchor="lm")
    x = g.panel_x + 10 + col - round(s * 0.45)
    yy = y + 2 * row_h
    for side in SIDES:
        tok = sprites.token(side, "R", 1, round(t * 0.7))
        im.paste(tok, (x, yy + (t - tok.height) // 2), tok)
        x += tok.width + 3
        d.text((x, yy + t // 2), ADJECTIVE[side], font=small, fill=KEY["dim"], anchor="lm")
        x += round(d.textlength(ADJECTIVE[side], font=small)) + 8
    return PALETTE.to_p(im)


def _layout(s: int, n: int) -> tuple[int, tuple[tuple[int, int], ...]]:
    """Token size and top-left offsets inside a square for n different kinds of men."""
    if n == 1:
        t = round(s * 0.72)
        return t, (((s - t) // 2, (s - t) // 2),)
    if n == 2:
        t = round(s * 0.5)
        return t, ((1, round(s * 0.06)), (s - t - 1, s - t - round(s * 0.06)))
    if n <= 4:
        t = round(s * 0.49)
        a, b = 1, s - t - 1
        return t, ((a, a), (b, a), (a, b), (b, b))[:n]
    t = s // 3  # all five kinds: three above, two below
    gap = (s - 3 * t) // 2
    low = s - t - 1
    half = t // 2
    return t, ((gap, 1), (gap + t, 1), (gap + 2 * t, 1), (gap + half, low), (gap + t + half, low))


@lru_cache(maxsize=4096)
def _tile(s: int, bg: str, side: str, kinds: str, faint: bool) -> Image.Image:
    """A square with a stack on it: one token per kind, a count on each if there are several."""
    im = Image.new("RGBA", (s, s), (*KEY[bg], 255))
    distinct = list(dict.fromkeys(kinds))
    t, spots = _layout(s, len(distinct))
    for k, (x, y) in zip(distinct, spots, strict=False):
        tok = sprites.token(side, k, kinds.count(k), t)
        im.alpha_composite(tok, (x, y))
    if faint:  # a set-up only its owner sees yet
        veil = Image.new("RGBA", (s, s), (*KEY[bg], 110))
        im.alpha_composite(veil)
    return PALETTE.to_p(im)


@lru_cache(maxsize=64)
def _on_panel(kind: str, side: str, w: int, h: int) -> Image.Image:
    """A token or card back already laid on the panel's colour, in the palette (ready to paste)."""
    sprite = sprites.token(side, "R", 1, w) if kind == "token" else sprites.card_back(w, h)
    im = Image.new("RGBA", sprite.size, (*KEY["panel"], 255))
    im.alpha_composite(sprite)
    return PALETTE.to_p(im)


# ------------------------------------------------------------------------------------ drawing


def draw(view: View, events: Sequence[Event] = (), s: int = SQUARE, *, panel: bool = True) -> Image.Image:
    """The picture of `view` with the last card played drawn on the board."""
    del events  # the view's last play says all the board shows of the last action
    g = Geo(s)
    st = view.state
    with _lock:
        im = _background(s).copy()
    for sq in range(64):
        stack = st.stacks[sq]
        if stack:
            side = st.owner(sq)
            assert side is not None
            im.paste(_tile(s, square_colour(sq), side, st.men_at(sq), False), g.xy(sq))
    if st.phase == SETUP:
        for side in SIDES:
            lay = st.layouts[side]
            if lay is not None and lay != HIDDEN:
                rank = 7 if side == GERMANS else 0
                for f, pair in enumerate(lay):
                    sq = rank * 8 + f
                    im.paste(_tile(s, square_colour(sq), side, pair, True), g.xy(sq))
    _draw_last(im, g, st)
    if panel:
        _draw_panel(im, g, view)
    return im


def _arrow(d: ImageDraw.ImageDraw, g: Geo, a: int, b: int, colour: str, *, dashed: bool = False) -> None:
    (x0, y0), (x1, y1) = g.centre(a), g.centre(b)
    dx, dy = x1 - x0, y1 - y0
    n = max(1.0, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / n, dy / n
    start = g.s * 0.3
    # The tip stops at the inner edge of the destination's frame, so it covers none of its men.
    end = (g.s * 0.5 - max(3, g.s // 20) - 1) / max(abs(ux), abs(uy))
    sx, sy = x0 + ux * start, y0 + uy * start
    ex, ey = x1 - ux * end, y1 - uy * end
    w = max(3, g.s // 14)
    head = g.s * 0.24
    bx, by = ex - ux * head * 0.8, ey - uy * head * 0.8
    segs: list[tuple[float, float, float, float]] = []
    if dashed:
        total = ((bx - sx) ** 2 + (by - sy) ** 2) ** 0.5
        step, on = g.s * 0.2, g.s * 0.13
        t = 0.0
        while t < total:
            t2 = min(total, t + on)
            segs.append((sx + ux * t, sy + uy * t, sx + ux * t2, sy + uy * t2))
            t += step
    else:
        segs.append((sx, sy, bx, by))
    for x_a, y_a, x_b, y_b in segs:
        d.line([x_a, y_a, x_b, y_b], fill=INDEX["ink"], width=w + 4)
    for x_a, y_a, x_b, y_b in segs:
        d.line([x_a, y_a, x_b, y_b], fill=INDEX[colour], width=w)
    px, py = -uy, ux
    tri = [
        (ex, ey),
        (bx + px * head * 0.55, by + py * head * 0.55),
        (bx - px * head * 0.55, by - py * head * 0.55),
    ]
    d.polygon(tri, fill=INDEX[colour], outline=INDEX["ink"])


def _draw_last(im: Image.Image, g: Geo, st: State) -> None:
    last = st.last
    if last is None:
        return
    d = ImageDraw.Draw(im)
    colour = {"waiting": "wait", "negated": "cancel"}.get(last.status, "attack" if last.attack else "move")
    dashed = last.status != "done"
    for _, src, dst in last.moves:
        a, b = NAMES.index(src), NAMES.index(dst)
        _frame(d, g, b, colour)
        _arrow(d, g, a, b, colour, dashed=dashed)
    if last.attack and last.killed:
        target = NAMES.index(last.moves[0][2])
        x, y = g.xy(target)
        if st.stacks[target]:
            # Men still stand there: a big cross would read as "all dead", so mark a corner, the
            # upper right or the lower left (the corners a stack of two kinds leaves free),
            # whichever is farther from the attacker and so clear of the arrow.
            c, m = round(g.s * 0.22), round(g.s * 0.07)
            (ax, ay), (tx, ty) = g.centre(NAMES.index(last.moves[0][1])), g.centre(target)
            if (ax - tx) + (ty - ay) > 0:  # the attacker lies towards the upper right
                x0, y0 = x + m, y + g.s - m - c
            else:
                x0, y0 = x + g.s - m - c, y + m
            x1, y1 = x0 + c, y0 + c
            w = max(3, g.s // 22)
        else:
            k = round(g.s * 0.16)
            x0, y0, x1, y1 = x + k, y + k, x + g.s - k, y + g.s - k
            w = max(3, g.s // 16)
        for p0, p1 in (((x0, y0), (x1, y1)), ((x1, y0), (x0, y1))):
            d.line([p0, p1], fill=INDEX["ink"], width=w + 3)
            d.line([p0, p1], fill=INDEX["attack"], width=w)


def _frame(d: ImageDraw.ImageDraw, g: Geo, sq: int, colour: str) -> None:
    x, y = g.xy(sq)
    w = max(3, g.s // 20)
    d.rectangle([x + 1, y + 1, x + g.s - 2, y + g.s - 2], outline=INDEX[colour], width=w)


# ---------------------------------------------------------------------------------- the panel


class _Pen:
    """Writes lines of palette text down the panel."""

    def __init__(self, im: Image.Image, g: Geo) -> None:
        self.im, self.g = im, g
        self.x = g.panel_x + round(g.s * 0.14)
        self.y = round(g.s * 0.14)
        self.w = g.panel_w - round(g.s * 0.26)

    def line(
        self, s: str, k: float = 0.19, fg: str = "text", *, bold: bool = False, x: int | None = None
    ) -> int:
        tile = text(s, self.g.font_size(k), fg, "panel", bold)
        self.im.paste(tile, (self.x if x is None else x, self.y))
        self.y += tile.height + 1
        return tile.width

    def para(self, s: str, k: float = 0.17, fg: str = "text", *, bold: bool = False, indent: int = 0) -> None:
        size = self.g.font_size(k)
        for ln in wrap(s, size, self.w - indent, bold):
            tile = text(ln, size, fg, "panel", bold)
            self.im.paste(tile, (self.x + indent, self.y))
            self.y += tile.height

    def gap(self, k: float = 0.08) -> None:
        self.y += round(self.g.s * k)

    def rule(self) -> None:
        d = ImageDraw.Draw(self.im)
        self.y += 3
        d.line([self.x, self.y, self.x + self.w, self.y], fill=INDEX["panel_hi"], width=1)
        self.y += 5


def _draw_panel(im: Image.Image, g: Geo, view: View) -> None:
    st = view.state
    pen = _Pen(im, g)
    head = "Fix Bayonets" + (f" · round {st.round}" if st.round else " · set-up")
    pen.line(head, 0.24, bold=True)
    headline, detail, colour = _status(st)
    pen.para(headline, 0.2, colour, bold=True)
    if detail:
        pen.para(detail, 0.165, "dim")
    pen.rule()
    for side in SIDES:
        _side_block(im, pen, view, side)
    pen.rule()
    _deck_line(im, pen, view)
    pen.rule()
    _last_block(im, pen, st)


def _status(st: State) -> tuple[str, str, str]:
    """The headline of the panel, its second line, and the headline's colour."""
    if st.result is not None:
        w = st.result.winner
        head = "Drawn" if w is None else f"The {TITLE[w]} win"
        detail = str(st.result.detail)
        return head, detail[:1].upper() + detail[1:] + ".", "win"
    if st.phase == SETUP:
        ready = [s for s in SIDES if st.layouts[s] is not None]
        if not ready:
            return "Both sides set up", "Set-ups stay hidden until both are in.", "wait"
        waiting = other(ready[0])
        return f"{TITLE[waiting]} to set up", f"The {TITLE[ready[0]]} have set up (hidden).", "wait"
    p = st.pending
    who = TITLE[st.active]
    if p is not None:
        them = TITLE[p.side]
        if p.kind == "negate":
            return f"{them} to answer", f"Cancel the {p.play.card.name} card, or let it stand?", "wait"
        return (
            f"{them} to choose",
            f"Who falls on {NAMES[p.target]}: {men_words(st.men_at(p.target))}?",
            "wait",
        )
    if st.phase == DISCARD:
        return f"{who} to discard", "Down to five cards after the draw.", "text"
    if st.phase == MOVING:
        return f"{who} to move", "Move cards, then the fight phase.", "text"
    if st.phase == FIGHTING:
        return f"{who} to fight", "Attack cards, then end the turn.", "text"
    return who, "", "text"


def _side_block(im: Image.Image, pen: _Pen, view: View, side: str) -> None:
    st = view.state
    g = pen.g
    t = round(g.s * 0.38)
    im.paste(_on_panel("token", side, t, t), (pen.x, pen.y))
    officers = st.officers_alive(side) if st.phase != SETUP else 2
    men = st.men_alive(side)
    on_turn = st.result is None and st.phase != SETUP and st.active == side
    name = TITLE[side] + (" ◀" if on_turn else "")
    top = pen.y
    pen.line(name, 0.2, bold=True, x=pen.x + t + 6)
    pen.line(strength_words(men, officers), 0.16, "dim", x=pen.x + t + 6)
    n = view.hand_counts[side]
    cw, ch = round(g.s * 0.2), round(g.s * 0.28)
    back = _on_panel("back", side, cw, ch)
    x = pen.x + t + 6
    for i in range(min(n, 8)):
        im.paste(back, (x + i * (cw + 3), pen.y + 1))
    label = f"{n} card{'s' if n != 1 else ''} in hand"
    y0 = pen.y
    pen.y += max(0, (ch - g.font_size(0.18)) // 2)
    pen.line(label, 0.18, "text", bold=True, x=x + min(n, 8) * (cw + 3) + 5)
    pen.y = max(pen.y, y0 + ch + 3)
    pen.y = max(pen.y, top + t + 4)
    if view.sees_hand(side) and st.hands[side]:
        whose = "Your hand" if side == view.viewer else "Hand (face up)"
        names = ", ".join(c.name for c in st.hands[side])
        pen.para(f"{whose}: {names}", 0.16, "wait", indent=t + 6)
    pen.gap(0.06)


def strength_words(men: int, officers: int) -> str:
    """'16 men, 2 officers alive', '1 man, no officer alive'."""
    who = f"{men} {'man' if men == 1 else 'men'}"
    chiefs = "no officer" if officers == 0 else f"{officers} officer{'s' if officers != 1 else ''}"
    return f"{who}, {chiefs} alive"


def _deck_line(im: Image.Image, pen: _Pen, view: View) -> None:
    g = pen.g
    st = view.state
    cw, ch = round(g.s * 0.22), round(g.s * 0.31)
    im.paste(_on_panel("back", "", cw, ch), (pen.x, pen.y))
    discard = st.deck.discard
    top = f" · top: {discard[-1].name}" if discard else ""
    y0 = pen.y
    pen.line(f"Deck {view.deck_count} · discard {len(discard)}{top}", 0.17, x=pen.x + cw + 8)
    pen.y = max(pen.y, y0 + ch + 2)


def _last_block(im: Image.Image, pen: _Pen, st: State) -> None:
    last = st.last
    if last is None:
        pen.para("No card played yet.", 0.17, "dim")
        return
    g = pen.g
    c = BY_CODE[last.card]
    cw, ch = round(g.s * 1.05), round(g.s * 1.42)
    face = _card_face(c, cw, ch)
    im.paste(face, (pen.x, pen.y))
    y0 = pen.y
    indent = cw + 10
    pen.para(f"Last card: {c.name}", 0.18, bold=True, indent=indent)
    pen.para(f"played by the {TITLE[last.side]}", 0.16, "dim", indent=indent)
    adj = ADJECTIVE[last.side]
    kind, src, dst = last.moves[0]
    if last.attack:
        what = f"The {adj} {SINGULAR[kind]} on {src} {ATTACK_VERBS[c.code]} {dst}."
    elif len(last.moves) == 1:
        what = f"The {adj} {SINGULAR[kind]} moves {src} → {dst}."
    else:
        what = f"{men_words(''.join(m[0] for m in last.moves))} move forward together.".capitalize()
    pen.para(what, 0.16, indent=indent)
    if last.status == "waiting":
        pen.para(
            f"Waiting: will the {TITLE[other(last.side)]} cancel it?", 0.16, "wait", bold=True, indent=indent
        )
    elif last.status == "negated":
        by = BY_CODE[last.negated_by or "trees"].name
        pen.para(f"Cancelled with {by}.", 0.16, "cancel", bold=True, indent=indent)
    elif last.attack:
        enemy = ADJECTIVE[other(last.side)]
        if last.killed:
            dead = men_words(last.killed)
            whole = ", the whole stack" if last.whole and len(last.killed) > 1 else ""
            pen.para(f"Killed ({enemy}): {dead}{whole}.", 0.16, "attack", bold=True, indent=indent)
        else:
            pen.para("Hit: the defender chooses who falls.", 0.16, "wait", bold=True, indent=indent)
    pen.y = max(pen.y, y0 + ch + 4)


@lru_cache(maxsize=64)
def _card_face(c: Card, w: int, h: int) -> Image.Image:
    """A card as a small picture: a band of its type's colour, its name and what it does."""
    ss = 3
    big = Image.new("RGB", (w * ss, h * ss), KEY["panel"])
    d = ImageDraw.Draw(big)
    d.rounded_rectangle(
        [0, 0, w * ss - 1, h * ss - 1], radius=8 * ss, fill=KEY["card"], outline=KEY["card_edge"], width=ss
    )
    band = round(h * ss * 0.26)
    d.rounded_rectangle([ss * 2, ss * 2, w * ss - ss * 3, band], radius=6 * ss, fill=KEY[f"band_{c.kind}"])
    kind = {"A": "ATTACK", "M": "MOVE", "T": "TERRAIN"}[c.kind]
    d.text(
        (w * ss / 2, band / 2 + ss),
        kind,
        font=font(int(h * ss * 0.1), True, 1 / ss),
        fill=KEY["white"],
        anchor="mm",
    )
    size = int(h * ss * (0.13 if len(c.name) < 10 else 0.1))
    lines = wrap(c.name, size, int(w * ss * 0.9), True)
    y = band + h * ss * 0.08
    for ln in lines:
        d.text((w * ss / 2, y), ln, font=font(size, True, 1 / ss), fill=KEY["ink"], anchor="mt")
        y += size * 1.1
    if c.kind == TERRAIN:
        note = "cancels an attack" if c.negates == "A" else "cancels a move"
    elif c.knight:
        note = "knight's jump"
    elif c.kind == MOVE:
        note = f"{c.lo} square{'s' if c.lo != 1 else ''}"
    else:
        note = f"range {c.lo}" if c.lo == c.hi else f"range {c.lo}-{c.hi}"
    extra = [note]
    if c.area:
        extra.append("whole stack")
    if c.only:
        extra.append(f"{TITLE[c.only]} only")
    small = int(h * ss * 0.085)
    y = h * ss * 0.66
    for ln in extra:
        d.text((w * ss / 2, y), ln, font=font(small, False, 1 / ss), fill=KEY["ink"], anchor="mt")
        y += small * 1.15
    return PALETTE.to_p(big.resize((w, h), Image.Resampling.LANCZOS))
