"""The board picture: nine places in a row, the Blues' battalions above, the Reds' below.

    header   round, the phase track, who is to act (or the result)
    Blues    label row (deck, battalions, cards left); battalion stacks per place; cards lost
    band     each place's name; at a front, both totals and whether it is contested or held
    Reds     cards lost; battalion stacks per place; label row
    footer   the last action in words

A stack shows its top card face up (or a back), up to two card edges beneath, the strength badge,
its name and size, and under it what it did this round (moved from, jumped, new). Cards lost since
the last battle began sit next to the band, crossed out. A pure function of the view (whose unseen
cards are canonical, so nothing hidden can show) and the last action's events.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
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
from engine.meta import GameEnded
from engine.protocol import Event
from render.battlefronts import cards
from render.battlefronts.theme import INDEX, KEY, PALETTE, text
from render.kit import encode, wrap

MARGIN = 10
COL_W = 116
W = 2 * MARGIN + PLACES * COL_W
HEADER = 46
LABEL = 24  # a side's label row
STRIP = 26  # cards lost, beside the band
ROW = 92  # one row of stacks: the tile, the line under it, a gap
SLOT_W = 58
BAND = 84
FOOTER = 76
LEGEND = (
    "? face down · ×4 cards in the stack · from T2, jump F1: moved this round, from there · "
    "⚔3 battle reductions taken · crossed-out cards: lost here since the last battle"
)
MIN_ROWS, MAX_ROWS = 2, 5
MORE_W = 20  # the '+3' after the lost-card chips that fit
PHASE_TRACK = ((ATTRITION, "Attrition"), (MOVE, "Move"), (SUPPORT, "Support"), (BATTLE, "Battle"))


class Geo:
    """Where everything goes for `rows` rows of stacks on each side."""

    def __init__(self, rows: tuple[int, int]) -> None:
        self.rows = {BLUE: rows[0], RED: rows[1]}
        self.blue_label = HEADER
        self.blue_area = HEADER + LABEL
        self.blue_strip = self.blue_area + rows[0] * ROW
        self.band = self.blue_strip + STRIP
        self.red_strip = self.band + BAND
        self.red_area = self.red_strip + STRIP
        self.red_label = self.red_area + rows[1] * ROW
        self.footer = self.red_label + LABEL
        self.height = self.footer + FOOTER

    @staticmethod
    def x(place: int) -> int:
        return MARGIN + place * COL_W


@lru_cache(maxsize=32)
def _background(rows: tuple[int, int]) -> Image.Image:
    g = Geo(rows)
    im = Image.new("P", (W, g.height), INDEX["page"])
    im.putpalette(PALETTE.image().getpalette() or [])
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, W, HEADER - 1], fill=INDEX["header"])
    d.rectangle([0, g.blue_label, W, g.blue_label + LABEL - 1], fill=INDEX["blue_tint"])
    d.rectangle([0, g.red_label, W, g.red_label + LABEL - 1], fill=INDEX["red_tint"])
    for p in range(PLACES):
        x = g.x(p)
        fill = INDEX["front"] if is_front(p) else INDEX["zone"]
        for y0, y1 in ((g.blue_area, g.band), (g.red_strip, g.red_label)):
            d.rectangle([x, y0, x + COL_W - 1, y1 - 1], fill=fill)
        d.line([x, g.blue_area, x, g.red_label - 1], fill=INDEX["line"])
    d.line([g.x(PLACES), g.blue_area, g.x(PLACES), g.red_label - 1], fill=INDEX["line"])
    return im


class Canvas:
    def __init__(self, rows: tuple[int, int]) -> None:
        self.g = Geo(rows)
        self.im = _background(rows).copy()
        self.d = ImageDraw.Draw(self.im)

    def paste(self, tile: Image.Image, x: int, y: int) -> None:
        self.im.paste(tile, (x, y))

    def label(self, x: int, y: int, s: str, size: int, fg: str, bg: str, bold: bool = False) -> int:
        """Text at (x, y); returns its width."""
        t = text(s, size, fg, bg, bold)
        self.im.paste(t, (x, y))
        return t.width

    def centred(self, cx: int, y: int, s: str, size: int, fg: str, bg: str, bold: bool = False) -> None:
        t = text(s, size, fg, bg, bold)
        self.im.paste(t, (cx - t.width // 2, y))

    def fill(self, box: tuple[int, int, int, int], colour: str) -> None:
        self.d.rectangle(box, fill=INDEX[colour])


def _status(state: State, place: int) -> str:
    """A place's background: a front contested, held by one side, or empty; a travel zone."""
    if not is_front(place):
        return "zone"
    here = {b.side for b in state.battalions if b.place == place}
    if len(here) == 2:
        return "contested_tint"
    if here:
        return f"{next(iter(here))}_tint"
    return "front"


def rows_needed(state: State) -> tuple[int, int]:
    """Rows of stacks for the Blues and the Reds: the most crowded place of each, two to a row."""
    counts: dict[tuple[str, int], int] = {}
    for b in state.battalions:
        counts[(b.side, b.place)] = counts.get((b.side, b.place), 0) + 1

    def rows(side: str) -> int:
        most = max((n for (s, _), n in counts.items() if s == side), default=0)
        return max(MIN_ROWS, min(MAX_ROWS, -(-most // 2)))

    return rows(BLUE), rows(RED)


def draw(state: State, events: Sequence[Event] = (), rows: tuple[int, int] | None = None) -> Image.Image:
    """The whole picture as a palette image; `rows` fixes the stack rows (replays keep one size)."""
    c = Canvas(rows if rows is not None else rows_needed(state))
    status = [_status(state, p) for p in range(PLACES)]
    for p in range(PLACES):
        if status[p] not in ("zone", "front"):
            x = c.g.x(p)
            for y0, y1 in ((c.g.blue_area, c.g.band), (c.g.red_strip, c.g.red_label)):
                c.fill((x + 1, y0, x + COL_W - 1, y1 - 1), status[p])
    hot = _hot_units(events)
    tags = _tags(state)
    _header(c, state)
    for side in SIDES:
        _label_row(c, state, side)
    _band(c, state, status)
    _losses(c, state, status)
    for side in SIDES:
        for p in range(PLACES):
            _stacks(c, state.at(side, p), side, p, status[p], hot, tags)
    _footer(c, state, events)
    return c.im


def render_board(state: State, events: Sequence[Event] = ()) -> bytes:
    return encode(draw(state, events))


# ------------------------------------------------------------------------------------ pieces


def _header(c: Canvas, state: State) -> None:
    x = MARGIN + 2
    x += c.label(x, 6, "BATTLEFRONTS", 11, "header_dim", "header", True) + 10
    c.label(MARGIN + 2, 21, f"Round {state.round}", 17, "header_text", "header", True)
    x = max(x, MARGIN + 110)
    for phase, name in PHASE_TRACK:
        now = state.phase == phase
        t = text(name, 14, "ink" if now else "header_dim", "gold" if now else "header", now)
        if now:
            c.d.rounded_rectangle([x - 6, 11, x + t.width + 5, 35], radius=6, fill=INDEX["gold"])
        c.paste(t, x, 14)
        x += t.width + 20
    words, colour = _turn_words(state)
    t = text(words, 15, "white" if colour != "gold" else "ink", colour, True)
    right = W - MARGIN - 2
    c.d.rounded_rectangle([right - t.width - 14, 9, right, 37], radius=7, fill=INDEX[colour])
    c.paste(t, right - t.width - 7, 14)


def _turn_words(state: State) -> tuple[str, str]:
    if state.result is not None:
        w = state.result.winner
        return ("Drawn game" if w is None else f"{TITLES[w]} win"), "gold"
    if state.waiting is not None:
        return f"{TITLES[state.waiting]}: choose a reduction", state.waiting
    if state.current is not None:
        return f"{TITLES[state.current]} to act", state.current
    return "", "header"


def _label_row(c: Canvas, state: State, side: str) -> None:
    y = (c.g.blue_label if side == BLUE else c.g.red_label) + 4
    bg = f"{side}_tint"
    x = MARGIN + 4
    x += c.label(x, y, TITLES[side].upper(), 14, side, bg, True) + 12
    mine = state.of(side)
    deck = len(state.decks[side])
    words = (
        f"deck {plural(deck, 'card')} · {plural(len(mine), 'battalion')} · "
        f"{plural(state.cards_left(side), 'card')} left in all · {len(state.discards[side])} lost"
    )
    x += c.label(x, y + 1, words, 13, "ink", bg) + 12
    held = state.held(side)
    if held:
        c.label(x, y + 1, f"holds {', '.join(PLACE_NAMES[f] for f in held)} alone", 13, side, bg, True)
    if side in state.to_act():
        t = text("to act", 13, "white", side, True)
        right = W - MARGIN - 4
        c.d.rounded_rectangle([right - t.width - 12, y - 2, right, y + 17], radius=5, fill=INDEX[side])
        c.paste(t, right - t.width - 6, y)


def _band(c: Canvas, state: State, status: list[str]) -> None:
    y = c.g.band
    c.fill((MARGIN, y, W - MARGIN - 1, y + BAND - 1), "page")
    for p in range(PLACES):
        x = c.g.x(p)
        bg = "contested" if status[p] == "contested_tint" else status[p]
        c.d.rectangle([x + 2, y + 2, x + COL_W - 3, y + BAND - 3], fill=INDEX[bg], outline=INDEX["line"])
        cx = x + COL_W // 2
        if not is_front(p):
            c.centred(cx, y + 22, PLACE_NAMES[p], 20, "dim", bg, True)
            c.centred(cx, y + 48, "travel zone", 11, "dim", bg)
            continue
        blue, red = state.total(BLUE, p), state.total(RED, p)
        has_blue = any(b.side == BLUE and b.place == p for b in state.battalions)
        has_red = any(b.side == RED and b.place == p for b in state.battalions)
        # Rows chosen so that the Reds' total (21 px high) ends inside the box's bottom edge.
        if has_blue:
            c.centred(cx, y + 3, f"Blue {blue}", 17, "blue", bg, True)
        c.centred(cx, y + 22, PLACE_NAMES[p], 22, "ink", bg, True)
        word = {
            "contested": "CONTESTED",
            "red_tint": "Reds hold",
            "blue_tint": "Blues hold",
            "front": "empty",
        }[bg]
        c.centred(cx, y + 47, word, 11, "ink" if bg == "contested" else "dim", bg, bg == "contested")
        if has_red:
            c.centred(cx, y + 59, f"Red {red}", 17, "red", bg, True)


def _losses(c: Canvas, state: State, status: list[str]) -> None:
    """Per place and side: the battle's reductions and the cards lost since the last battle began."""
    lost: dict[tuple[str, int], list[str]] = {}
    hits: dict[tuple[str, int], int] = {}
    wasted: dict[tuple[str, int], int] = {}
    for m in state.marks:
        k = m["k"]
        if k == "loss":
            lost.setdefault((m["side"], m["at"]), []).append(m["card"])
        elif k == "move" and "jump" in m:
            lost.setdefault((m["side"], m["from"]), []).append(m["jump"])
        elif k == "battle":
            hits[(RED, m["at"])] = m["on_red"]
            hits[(BLUE, m["at"])] = m["on_blue"]
        elif k == "wasted":
            wasted[(m["side"], m["at"])] = m["n"]
    for (side, place), codes in lost.items():
        _strip(c, side, place, status[place], codes, hits.get((side, place), 0), wasted.get((side, place), 0))
    for key, n in hits.items():
        if key not in lost:
            _strip(c, key[0], key[1], status[key[1]], [], n, wasted.get(key, 0))


def _strip(c: Canvas, side: str, place: int, bg: str, codes: list[str], hits: int, wasted: int) -> None:
    y = (c.g.blue_strip if side == BLUE else c.g.red_strip) + 4
    x = c.g.x(place) + 4
    right = x + COL_W - 8
    if hits:
        x += c.label(x, y - 1, f"⚔{hits}", 15, side, bg, True) + 3
    shown = codes[len(codes) - _chips_that_fit(len(codes), right - x) :]
    for code in shown:
        c.paste(cards.chip(code, bg), x, y)
        x += cards.CHIP_W + 2
    if len(shown) < len(codes):
        c.label(x, y + 2, f"+{len(codes) - len(shown)}", 11, "dim", bg, True)
    if wasted and not shown:
        c.label(x, y + 2, f"{wasted} spare", 11, "dim", bg)


def _chips_that_fit(count: int, width: int) -> int:
    """How many of `count` lost-card chips fit in `width` pixels: all of them if they can, otherwise
    as many as leave room for the '+n' that stands for the rest (the latest are the ones shown)."""
    step = cards.CHIP_W + 2
    if count * step - 2 <= width:
        return count
    return max(0, (width - MORE_W) // step)


def _tags(state: State) -> dict[str, str]:
    """What each battalion did this round, for the line under its stack."""
    out: dict[str, str] = {}
    for m in state.marks:
        if m["k"] == "move":
            out[m["u"]] = (
                f"jump {PLACE_NAMES[m['from']]}" if "jump" in m else f"from {PLACE_NAMES[m['from']]}"
            )
        elif m["k"] == "call":
            out[m["u"]] = "new"
    return out


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


def _stacks(
    c: Canvas, here: list[Battalion], side: str, place: int, bg: str, hot: set[str], tags: dict[str, str]
) -> None:
    if not here:
        return
    capacity = 2 * c.g.rows[side]
    shown = here if len(here) <= capacity else here[: capacity - 1]
    x0 = c.g.x(place) + 1
    for i, b in enumerate(shown):
        row, col = divmod(i, 2)
        x, y = x0 + col * SLOT_W, _row_y(c, side, row)
        _stack(c, b, x, y, bg, b.label in hot, tags.get(b.label, ""))
    if len(shown) < len(here):
        row, col = divmod(capacity - 1, 2)
        x, y = x0 + col * SLOT_W, _row_y(c, side, row)
        c.label(x + 6, y + 26, f"+{len(here) - len(shown)}", 18, "dim", bg, True)
        c.label(x + 6, y + 48, "more", 11, "dim", bg)


def _row_y(c: Canvas, side: str, row: int) -> int:
    """Rows grow away from the band: the Blues' upwards, the Reds' downwards."""
    if side == BLUE:
        return c.g.blue_strip - (row + 1) * ROW + 4
    return c.g.red_area + row * ROW + 4


def _stack(c: Canvas, b: Battalion, x: int, y: int, bg: str, hot: bool, tag: str) -> None:
    top = b.cards[-1].code if b.up else None
    c.paste(cards.stack(top, b.side, min(3, b.size), bg), x, y)
    cy = y + 2 * cards.LAYER  # the top card's corner
    if b.up:
        c.paste(cards.badge(b.strength, b.side), x + cards.CW - cards.BADGE - 2, cy + 2)
        face = "card"
        fg = b.side
    else:
        face = f"{b.side}_back"
        fg = "white"
    c.label(x + 4, cy + cards.CH - 15, b.label, 10, fg, face, True)
    t = text(f"×{b.size}", 10, fg if not b.up else "ink", face)
    c.paste(t, x + cards.CW - t.width - 4, cy + cards.CH - 15)
    if hot:
        c.d.rectangle(
            [x - 2, y - 1, x + cards.TILE_W + 1, y + cards.TILE_H + 1], outline=INDEX["gold"], width=3
        )
    if tag:
        c.label(x + 1, y + cards.TILE_H + 2, tag, 11, "moved", bg, True)


def _footer(c: Canvas, state: State, events: Sequence[Event]) -> None:
    y = c.g.footer + 5
    # The result leads; the game-over event would only say it again.
    said = "; ".join(t for e in events if not isinstance(e, GameEnded) and (t := e.text(None)))
    if state.result is not None:
        w = state.result.winner
        head = "Drawn game" if w is None else f"The {TITLES[w]} win"
        said = f"{head}: {state.result.detail}." + (f" Last: {said}." if said else "")
    if not said:
        said = _waiting_words(state)
    lines = wrap(said[0].upper() + said[1:] if said else "", 14, W - 2 * MARGIN - 8)
    for i, line in enumerate(lines[:3]):
        if i == 2 and len(lines) > 3:
            line = line.rstrip(".,;") + " …"
        c.label(MARGIN + 4, y + i * 18, line, 14, "ink", "page")
    c.label(MARGIN + 4, c.g.height - 17, LEGEND, 11, "dim", "page")


def _waiting_words(state: State) -> str:
    if state.phase == OVER:
        return ""
    return f"Round {state.round}, {state.phase} phase."


def view_state(view: Any) -> State:
    state = getattr(view, "state", None)
    if not isinstance(state, State):
        raise TypeError(f"not a Battlefronts view: {type(view).__name__}")
    return state


__all__ = ["KEY", "W", "draw", "render_board", "rows_needed", "view_state"]
