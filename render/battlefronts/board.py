"""The board picture, laid out for a phone: the nine places as rows, the Blues' battalions on the
left of each, the Reds' on the right, the place with both totals in the middle.

    header   the round and who is to act (or the result), in large type; the phase track
    sides    each side's name, battalions, deck, cards left and lost, fronts held
    places   F1, T1, F2 ... F5 down the picture, one row each: a line per battalion (its label,
             top card, strength where it differs from the card, size, and what it did this
             round), then the cards lost there since the last battle began
    footer   the last action (or a whole phase) in words, as long as it needs

A pure function of the view (whose unseen cards are canonical, so nothing hidden can show) and the
last action's events. Every word is at least 12 CSS px when the picture is shown 400 CSS px wide;
the key to the marks is the `rules board` topic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.battlefronts.model import (
    BLUE,
    PLACE_NAMES,
    PLACES,
    RED,
    SIDES,
    TITLES,
    Battalion,
    is_front,
    plural,
)
from engine.battlefronts.state import ATTRITION, BATTLE, MOVE, OVER, SUPPORT, State
from engine.cards import SUIT_SYMBOLS, Card
from engine.meta import GameEnded
from engine.protocol import Event
from render.battlefronts.theme import INDEX, KEY, PALETTE, text
from render.kit import Column, encode, grown, max_height, phone_px

WIDTH = 628  # a posted board; replay frames are drawn at FRAME_SCALE of it
FRAME_SCALE = 0.66
PHASE_TRACK = ((ATTRITION, "Attrition"), (MOVE, "Move"), (SUPPORT, "Support"), (BATTLE, "Battle"))
SIDE_AT = {BLUE: 0, RED: 1}  # the Blues' column on the left, the Reds' on the right
SIDE_LINES = 4  # a side's name, battalions and deck, cards left and lost, fronts held


@dataclass(frozen=True)
class Geo:
    """Sizes for a picture `width` pixels wide: every size follows from the smallest text."""

    width: int

    @cached_property
    def text(self) -> int:
        """Body text: 12 CSS px on a phone."""
        return phone_px(self.width)

    @cached_property
    def big(self) -> int:
        return round(self.text * 1.3)

    @cached_property
    def line(self) -> int:
        """A battalion's line."""
        return round(self.text * 1.45)

    @cached_property
    def pad(self) -> int:
        return max(4, round(self.width * 0.012))

    @cached_property
    def place_w(self) -> int:
        """The middle column: the place's name and totals."""
        return round(self.width * 0.19)

    @cached_property
    def side_w(self) -> int:
        return (self.width - self.place_w - 4 * self.pad) // 2

    def side_x(self, side: str) -> int:
        if SIDE_AT[side] == 0:
            return self.pad
        return self.width - self.pad - self.side_w

    @cached_property
    def place_x(self) -> int:
        return self.pad + self.side_w + self.pad

    @cached_property
    def card_x(self) -> int:
        """Where a battalion's top card starts on its line (after the label, 'B10' at most)."""
        return 5 + round(self.text * 2.8)

    @cached_property
    def size_x(self) -> int:
        """Where its size starts (after the card and its strength, 'K♥ =12' at most)."""
        return self.card_x + round(self.text * 4.35)

    @cached_property
    def header_h(self) -> int:
        return round(self.big * 1.3) + round(self.text * 1.5) + 2 * self.pad


@lru_cache(maxsize=8)
def geo(width: int) -> Geo:
    """One shared Geo per width, so its cached sizes are worked out once."""
    return Geo(width)


@dataclass(frozen=True)
class Row:
    """One place's row: where it starts and how tall it is."""

    place: int
    y: int
    h: int
    lines: tuple[int, int]  # battalion lines of the Blues and the Reds


def _rows(
    state: State, g: Geo, top: int, lost: dict[tuple[str, int], list[str]], hits: dict[tuple[str, int], int]
) -> list[Row]:
    out = []
    y = top
    for p in range(PLACES):
        n = {side: len(state.at(side, p)) for side in SIDES}
        strip = any((side, p) in lost or hits.get((side, p)) for side in SIDES)
        lines = max(n[BLUE], n[RED]) + (1 if strip else 0)
        h = max(2 * g.line, lines * g.line) + g.pad
        out.append(Row(p, y, h, (n[BLUE], n[RED])))
        y += h
    return out


def _marks(
    state: State,
) -> tuple[
    dict[tuple[str, int], list[str]], dict[tuple[str, int], int], dict[tuple[str, int], int], dict[str, str]
]:
    """From the round's marks: cards lost per (side, place) since the last battle began, the
    battle's reductions, spare damage, and what each battalion did this round."""
    lost: dict[tuple[str, int], list[str]] = {}
    hits: dict[tuple[str, int], int] = {}
    wasted: dict[tuple[str, int], int] = {}
    tags: dict[str, str] = {}
    for m in state.marks:
        k = m["k"]
        if k == "loss":
            lost.setdefault((m["side"], m["at"]), []).append(m["card"])
        elif k == "move":
            if "jump" in m:
                lost.setdefault((m["side"], m["from"]), []).append(m["jump"])
            tags[m["u"]] = f"{'⇐' if 'jump' in m else '←'}{PLACE_NAMES[m['from']]}"
        elif k == "call":
            tags[m["u"]] = "new"
        elif k == "battle":
            hits[(RED, m["at"])] = m["on_red"]
            hits[(BLUE, m["at"])] = m["on_blue"]
        elif k == "wasted":
            wasted[(m["side"], m["at"])] = m["n"]
    return lost, hits, wasted, tags


def layout(state: State, scale: float = 1.0) -> tuple[Geo, list[Row]]:
    """The sizes and every place's row for a picture at `scale`."""
    g = geo(round(WIDTH * scale))
    lost, hits, _, _ = _marks(state)
    return g, _rows(state, g, g.header_h + g.pad + SIDE_LINES * g.line + g.pad, lost, hits)


def draw(state: State, events: Sequence[Event] = (), scale: float = 1.0) -> Image.Image:
    """The whole picture as a palette image (replay frames pass a smaller `scale`)."""
    g, rows = layout(state, scale)
    lost, hits, wasted, tags = _marks(state)
    sides_y = g.header_h + g.pad
    words = _footer(state, events, g, rows[-1].y + rows[-1].h + g.pad)
    im = grown(_background(g.width), words.y + g.pad)
    d = ImageDraw.Draw(im)
    _header(im, d, state, g)
    for side in SIDES:
        _side_head(im, d, state, side, g, sides_y)
    hot = _hot_units(events)
    for row in rows:
        _row(im, d, state, row, g, hot, tags, lost, hits, wasted)
    words.draw(im)
    return im


def render_board(state: State, events: Sequence[Event] = ()) -> bytes:
    return encode(draw(state, events))


@lru_cache(maxsize=4)
def _background(width: int) -> Image.Image:
    g = Geo(width)
    im = Image.new("P", (width, g.header_h + 1), INDEX["page"])
    im.putpalette(PALETTE.image().getpalette() or [])
    ImageDraw.Draw(im).rectangle([0, 0, width, g.header_h - 1], fill=INDEX["header"])
    return im


# ------------------------------------------------------------------------------------ pieces


def _header(im: Image.Image, d: ImageDraw.ImageDraw, state: State, g: Geo) -> None:
    """The round and who is to act in large type; below it the phase track, the phase boxed."""
    words, colour = _turn_words(state)
    head = f"Round {state.round} · {words}" if words else f"Round {state.round}"
    fg = "gold" if colour == "gold" else "header_text"
    t = text(head, g.big, fg, "header", True)
    if t.width > g.width - 2 * g.pad:
        t = text(head, g.text, fg, "header", True)
    y = g.pad
    x = g.pad
    if colour in (BLUE, RED):  # the side's colour as a chip, its name in words beside it
        k = round(t.height * 0.6)
        d.rounded_rectangle(
            [x, y + (t.height - k) // 2, x + k, y + (t.height + k) // 2],
            radius=k // 4,
            fill=INDEX[colour],
            outline=INDEX["white"],
        )
        x += k + 8
    im.paste(t, (x, y))
    y += round(g.big * 1.3)
    x = g.pad
    for phase, name in PHASE_TRACK:
        now = state.phase == phase
        t = text(name, g.text, "ink" if now else "header_dim", "gold" if now else "header", now)
        if now:
            d.rounded_rectangle(
                [x - 4, y - 2, x + t.width + 3, y + t.height + 1], radius=4, fill=INDEX["gold"]
            )
        im.paste(t, (x, y))
        x += t.width + round(g.text * 1.1)


def _turn_words(state: State) -> tuple[str, str]:
    if state.result is not None:
        w = state.result.winner
        return ("Drawn game" if w is None else f"{TITLES[w]} win"), "gold"
    if state.waiting is not None:
        return f"{TITLES[state.waiting]}: choose a reduction", state.waiting
    if state.current is not None:
        return f"{TITLES[state.current]} to act", state.current
    return "", "header"


def _side_head(im: Image.Image, d: ImageDraw.ImageDraw, state: State, side: str, g: Geo, y: int) -> None:
    """A side's name, forces and fronts held, over its column."""
    x = g.pad if SIDE_AT[side] == 0 else g.width // 2 + g.pad
    name = text(TITLES[side].upper(), g.text, side, "page", True)
    im.paste(name, (x, y))
    if side in state.to_act():
        tag = text("to act", g.text, "white", side, True)
        tx = x + name.width + g.pad
        d.rounded_rectangle([tx - 3, y, tx + tag.width + 3, y + tag.height], radius=4, fill=INDEX[side])
        im.paste(tag, (tx, y))
    mine = state.of(side)
    held = state.held(side)
    lines = (
        f"{plural(len(mine), 'battalion')} · deck {len(state.decks[side])}",
        f"{plural(state.cards_left(side), 'card')} in play · {len(state.discards[side])} lost",
        f"holds {', '.join(PLACE_NAMES[f] for f in held)}" if held else "holds no front alone",
    )
    for n, words in enumerate(lines, 1):
        im.paste(text(words, g.text, "ink" if n < 3 or held else "dim"), (x, y + n * g.line))


def _place_bg(state: State, place: int) -> str:
    if not is_front(place):
        return "zone"
    here = {b.side for b in state.battalions if b.place == place}
    if len(here) == 2:
        return "contested_tint"
    if here:
        return f"{next(iter(here))}_tint"
    return "front"


def _row(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    state: State,
    row: Row,
    g: Geo,
    hot: set[str],
    tags: dict[str, str],
    lost: dict[tuple[str, int], list[str]],
    hits: dict[tuple[str, int], int],
    wasted: dict[tuple[str, int], int],
) -> None:
    p = row.place
    bg = _place_bg(state, p)
    d.rectangle([0, row.y, g.width - 1, row.y + row.h - 2], fill=INDEX[bg])
    d.line([0, row.y + row.h - 1, g.width, row.y + row.h - 1], fill=INDEX["line"])
    # The place in the middle: its name, then at a front both totals (a dash: nobody there).
    x, w = g.place_x, g.place_w
    box = "contested" if bg == "contested_tint" else bg
    d.rectangle([x, row.y + 2, x + w, row.y + row.h - 4], fill=INDEX[box], outline=INDEX["line"])
    name = text(PLACE_NAMES[p], g.big, "ink" if is_front(p) else "dim", box, True)
    im.paste(name, (x + (w - name.width) // 2, row.y + 3))
    if is_front(p):
        here = {b.side for b in state.battalions if b.place == p}
        ty = row.y + 3 + name.height
        parts = [
            text(str(state.total(BLUE, p)) if BLUE in here else "–", g.text, "blue", box, True),
            text(":", g.text, "ink", box, True),
            text(str(state.total(RED, p)) if RED in here else "–", g.text, "red", box, True),
        ]
        total = sum(t.width for t in parts) + 8
        tx = x + (w - total) // 2
        for t in parts:
            im.paste(t, (tx, ty))
            tx += t.width + 4
    else:
        t = text("travel", g.text, "dim", box)
        im.paste(t, (x + (w - t.width) // 2, row.y + 3 + name.height))
    for side in SIDES:
        y = row.y + 2
        for b in state.at(side, p):
            _battalion(im, d, b, g, g.side_x(side), y, bg, b.label in hot, tags.get(b.label, ""))
            y += g.line
        codes, n = lost.get((side, p), []), hits.get((side, p), 0)
        if codes or n:
            _strip(im, g, side, g.side_x(side), y, bg, codes, n, wasted.get((side, p), 0))


def _battalion(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    b: Battalion,
    g: Geo,
    x: int,
    y: int,
    bg: str,
    hot: bool,
    tag: str,
) -> None:
    """One line: the battalion's label, its top card (or a back), its strength where the card
    does not say it, its size and what it did this round. Columns line up from line to line."""
    core = im.im
    face = "card" if b.up else f"{b.side}_back"
    line = _line_tile(b.side, b.up, g.side_w + 1, g.line - 2, g.card_x, bg)
    _put(core, line, x, y)
    ink = "ink" if b.up else "white"
    ty = y + (line.height - round(g.text * 1.17)) // 2
    _put(core, text(b.label, g.text, b.side if b.up else "white", face, True), x + 5, ty)
    cx = x + g.card_x
    if b.up:
        card = b.cards[-1]
        rank = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}.get(card.rank, str(card.rank))
        suit = "suit_red" if card.suit in "HD" else "ink"
        top = text(rank + SUIT_SYMBOLS[card.suit], g.text, suit, face, True)
        _put(core, top, cx, ty)
        strength = b.strength
        if strength != card.rank:  # an Ace counts 1, a face card the stack's size
            _put(core, text(f"={strength}", g.text, "ink", face, True), cx + top.width + 4, ty)
    else:
        _put(core, text("?", g.text, "white", face, True), cx, ty)
    _put(core, text(f"×{b.size}", g.text, ink, face), x + g.size_x, ty)
    if tag:
        t = text(tag, g.text, "moved" if b.up else "white", face, True)
        _put(core, t, x + g.side_w - t.width - 5, ty)
    # the words' tiles are a little taller than the bar's inside: the edge again over them (on a
    # face-up card the gaps between them showed it as stray underscores, "R1 _|7♦____×8")
    d.rounded_rectangle(
        [x, y, x + line.width - 1, y + line.height - 1], radius=4, outline=INDEX[b.side], width=2
    )
    if hot:
        d.rectangle([x - 2, y - 2, x + g.side_w + 2, y + line.height + 1], outline=INDEX["gold"], width=3)


def _put(core: Any, tile: Image.Image, x: int, y: int) -> None:
    """Paste a cached palette tile onto the picture's core (a board pastes hundreds)."""
    core.paste(tile.im, (x, y, x + tile.width, y + tile.height))


@lru_cache(maxsize=64)
def _line_tile(side: str, up: bool, w: int, h: int, card_x: int, bg: str) -> Image.Image:
    """A battalion's line: a card-coloured bar (the side's dark back while its top is face down)
    edged in the side's colour, a rule after the name."""
    face = "card" if up else f"{side}_back"
    im = Image.new("P", (w, h), INDEX[bg])
    im.putpalette(PALETTE.image().getpalette() or [])
    d = ImageDraw.Draw(im)
    d.rounded_rectangle([0, 0, w - 1, h - 1], radius=4, fill=INDEX[face], outline=INDEX[side], width=2)
    d.line([card_x - 6, 3, card_x - 6, h - 4], fill=INDEX[side] if up else INDEX["white"], width=1)
    return im


def _strip(
    im: Image.Image, g: Geo, side: str, x: int, y: int, bg: str, codes: list[str], hits: int, wasted: int
) -> None:
    """The battle's reductions (⚔) and each card lost here since the last battle began, crossed
    out, all of them: the line wraps under the battalions if it must."""
    col = Column(PALETTE, x, y, g.side_w, bg)
    pieces = []
    if hits:
        pieces.append(((text(f"⚔{hits}", g.text, side, bg, True), 0, 0),))
    for code in codes:
        pieces.append(((chip(code, g.text, bg), 0, 0),))
    if wasted and not codes:
        pieces.append(((text(f"{wasted} spare", g.text, "dim", bg), 0, 0),))
    col.flow([(parts, max(im_.width for im_, _, _ in parts)) for parts in pieces], g.line, 5)
    col.draw(im)


@lru_cache(maxsize=1024)
def chip(code: str, size: int, bg: str) -> Image.Image:
    """A lost card: its rank and suit on a grey card, crossed out below and above the glyphs (a
    line through them made a Q♥ read like 9♥)."""
    card = Card.parse(code)
    rank = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}.get(card.rank, str(card.rank))
    words = text(
        rank + SUIT_SYMBOLS[card.suit], size, "suit_red" if card.suit in "HD" else "ink", "lost_card", True
    )
    pad = max(3, size // 5)
    w, h = words.width + 2 * pad, words.height + 6
    im = Image.new("P", (w, h), INDEX[bg])
    im.putpalette(PALETTE.image().getpalette() or [])
    d = ImageDraw.Draw(im)
    d.rounded_rectangle([0, 0, w - 1, h - 1], radius=3, fill=INDEX["lost_card"], outline=INDEX["lost"])
    im.paste(words, (pad, 3))
    d.line([2, h - 2, w - 3, h - 2], fill=INDEX["lost"], width=2)  # struck: a rule under the glyphs
    d.line([2, 1, w - 3, 1], fill=INDEX["lost"], width=2)  # and one over them
    return im


def _hot_units(events: Sequence[Event]) -> set[str]:
    """Battalions the last action touched (or that must be chosen between): outlined in gold."""
    hot: set[str] = set()
    for e in events:
        unit = getattr(e, "unit", None)
        if isinstance(unit, str):
            hot.add(unit)
        units = getattr(e, "units", None)
        if isinstance(units, tuple):
            hot.update(units)
    return hot


def _footer(state: State, events: Sequence[Event], g: Geo, y: int) -> Column:
    """The result, then the last action (or a whole phase's actions) in words: every word kept."""
    col = Column(PALETTE, g.pad, y, g.width - 2 * g.pad, "page")
    said = [t for e in events if not isinstance(e, GameEnded) and (t := e.text(None))]
    if state.result is not None:
        w = state.result.winner
        head = "Drawn game" if w is None else f"The {TITLES[w]} win"
        col.para(f"{head}: {state.result.detail}.", g.text, "win", bold=True)
    if said:
        lines = [s[:1].upper() + s[1:] + ("" if s.endswith(".") else ".") for s in said]
        col.tail(lines, g.text, "ink", max_height(g.width) - g.pad, "dim", "Last:")
    elif state.phase != OVER:
        col.para(f"Round {state.round}, {state.phase} phase.", g.text, "dim")
    return col


def view_state(view: Any) -> State:
    state = getattr(view, "state", None)
    if not isinstance(state, State):
        raise TypeError(f"not a Battlefronts view: {type(view).__name__}")
    return state


__all__ = [
    "FRAME_SCALE",
    "KEY",
    "WIDTH",
    "Geo",
    "Row",
    "chip",
    "draw",
    "layout",
    "render_board",
    "view_state",
]
