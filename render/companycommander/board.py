"""The board picture: the Germans' three fronts above, the Americans' below, facing each other.

    header    round, whose turn and which phase (or the result)
    Germans   label row (units lost of 10, hand, Squad deck); units arriving; a card per unit
    band      the three fronts' names, and what lies on them this turn (a Recon mark, an Ambush)
    Americans a card per unit; units arriving; label row
    record    every die of the turn in progress (or, until it rolls one, of the last turn)
    footer    the Tactics deck and its discard pile

600 px wide, so that the least type (18 px) is 12 CSS px on a phone showing it 400 px wide. A pure
function of the view (which holds nothing its viewer may not know) and the last action's events,
whose units are outlined in gold.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from engine.companycommander.events import (
    Assaulted,
    Rolled,
    Shot,
    SquadDrawn,
)
from engine.companycommander.model import (
    AMERICANS,
    FRONT_NAMES,
    FRONTS,
    GERMANS,
    SIDES,
    TITLES,
    VICTORY_LOSSES,
    Unit,
)
from engine.companycommander.state import PHASE_NAMES, State
from engine.companycommander.view import View
from engine.protocol import Event
from render.companycommander import cards
from render.companycommander.theme import INDEX, PALETTE, text
from render.kit import encode, max_height, wrap

W = 600
MARGIN = 6
COL_W = (W - 2 * MARGIN) // 3
SMALL = cards.SMALL  # 18 px: 12 CSS px at 400 px wide
LINE = 24  # a line of SMALL text
HEADER = 70
LABEL = 36
ARRIVING_LINE = 26
ROW = cards.CARD_H + 6
MIN_ROWS = 1
FRAME_ROWS = 5  # a replay frame's cards a front (one size for the whole replay)
FRAME_LINES = 4  # a replay frame's lines of record
RECORD_LINES = 3  # the record's lines kept at least, before cards are halved to make room
BAND = 76  # the enemy's marks, the front's name, the near side's marks
PAD = 8


def view_of(view: Any) -> View:
    if not isinstance(view, View):
        raise TypeError(f"not a Company Commander view: {type(view).__name__}")
    return view


class Canvas:
    def __init__(self, height: int) -> None:
        self.im = Image.new("P", (W, height), INDEX["page"])
        self.im.putpalette(PALETTE.image().getpalette() or [])
        self.d = ImageDraw.Draw(self.im)

    def label(self, x: int, y: int, s: str, size: int, fg: str, bg: str, bold: bool = False) -> int:
        """Text at (x, y); returns its width."""
        t = text(s, size, fg, bg, bold)
        self.im.paste(t, (x, y))
        return t.width

    def right(self, x: int, y: int, s: str, size: int, fg: str, bg: str, bold: bool = False) -> None:
        t = text(s, size, fg, bg, bold)
        self.im.paste(t, (x - t.width, y))

    def centred(self, cx: int, y: int, s: str, size: int, fg: str, bg: str, bold: bool = False) -> None:
        t = text(s, size, fg, bg, bold)
        self.im.paste(t, (cx - t.width // 2, y))

    def fill(self, box: tuple[int, int, int, int], colour: str) -> None:
        self.d.rectangle(box, fill=INDEX[colour])


def col_x(front: int) -> int:
    return MARGIN + front * COL_W


def _rows(state: State, side: str) -> int:
    most = max((len(state.at(side, f)) for f in FRONTS), default=0)
    return max(MIN_ROWS, most)


def _arriving_lines(state: State, side: str) -> tuple[str, ...]:
    waiting = state.arriving(side)
    if not waiting:
        return ()
    words = "Arriving: " + ", ".join(f"{u.label} {u.type.short}" for u in waiting)
    return wrap(words, SMALL, W - 2 * MARGIN - 2 * PAD)


def _record(state: State, events: Sequence[Event]) -> tuple[str, list[tuple[str, bool]]]:
    """The heading and lines of the dice record: this turn's rolls, else the last turn's."""
    log: list[Rolled] = state.log
    if log:
        head = f"This turn ({TITLES[state.active]}, round {state.round}):"
    elif state.last_side is not None:
        log = state.last_log
        rnd = state.round - (1 if state.active == state.first and state.result is None else 0)
        head = f"Last turn ({TITLES[state.last_side]}, round {max(rnd, 1)}):"
    else:  # a game over before any roll (a resignation) is not waiting for dice
        head = "No dice rolled yet." if state.result is None else "Game over, no dice rolled."
    lines: list[tuple[str, bool]] = []
    width = W - 2 * MARGIN - 2 * PAD
    if state.result is not None:
        w = state.result.winner
        said = ("Drawn game" if w is None else f"The {TITLES[w]} win") + f": {state.result.detail}."
        lines.extend((ln, True) for ln in wrap(said, SMALL, width, True))
    for e in log:
        for n, ln in enumerate(wrap(e.short(), SMALL, width - 16)):
            lines.append(("   " + ln if n else ln, False))
    if not log and state.last_side is not None:
        lines.append(("no dice rolled", False))
    return head, lines


def _hot(events: Sequence[Event]) -> set[str]:
    """Units the last action touched: outlined in gold."""
    hot: set[str] = set()
    for e in events:
        for name in ("unit", "target"):
            value = getattr(e, name, None)
            if isinstance(value, str) and value:
                hot.add(value)
        if isinstance(e, Shot | Assaulted):
            hot.update(label for label, _, _ in e.effects)
        if isinstance(e, SquadDrawn):
            hot.update(label for label, _ in e.units)
    return hot


def _frame_record(state: State, events: Sequence[Event]) -> tuple[str, list[tuple[str, bool]]]:
    """A replay frame's record, always FRAME_LINES long: the units arriving, then this action's rolls
    (the frames of one replay are one size, so a long stretch ends with how many more there were)."""
    lines: list[tuple[str, bool]] = []
    if state.result is not None:
        w = state.result.winner
        lines.append(("Drawn game" if w is None else f"The {TITLES[w]} win", True))
    width = W - 2 * MARGIN - 2 * PAD
    waiting = [f"{u.label} {u.type.short}" for u in state.arriving(state.active)]
    if waiting:
        lines.append((_fitted("Arriving: ", waiting, width), False))
    rolls = [wrap(e.short(), SMALL, width) for e in events if isinstance(e, Rolled)]
    for n, parts in enumerate(rolls):
        room = FRAME_LINES - len(lines)
        if len(parts) > room or (n < len(rolls) - 1 and len(parts) == room):
            lines.append((f"and {len(rolls) - n} more rolls", False))
            break
        lines.extend((part, False) for part in parts)
    head = f"{TITLES[state.active]}, round {max(state.round, 1)}:" if state.result is None else "Game over:"
    return head, [(ln, bold) for ln, bold in lines[:FRAME_LINES]]


def _fitted(head: str, items: list[str], width: int) -> str:
    """`head` and as many of `items` as fit one line, then how many more."""
    for n in range(len(items), 0, -1):
        more = f" and {len(items) - n} more" if n < len(items) else ""
        line = head + ", ".join(items[:n]) + more
        if len(wrap(line, SMALL, width)) == 1:
            return line
    return f"{head}{len(items)} units"


def draw(view: View, events: Sequence[Event] = (), *, frame: bool = False) -> Image.Image:
    """The whole picture as a palette image. A replay `frame` has one size whatever the position:
    FRAME_ROWS cards a front, and FRAME_LINES lines of record for the action it follows."""
    state = view.state
    compact = {side: False for side in SIDES}
    if frame:
        rows = {side: FRAME_ROWS for side in SIDES}
        arriving: dict[str, tuple[str, ...]] = {side: () for side in SIDES}
        head, record = _frame_record(state, events)
        spare = FRAME_LINES - len(record)
    else:
        arriving = {side: _arriving_lines(state, side) for side in SIDES}
        head, record = _record(state, events)
        rows, compact, record = _fit(state, arriving, record)
        spare = 0
    y_g_label = HEADER
    y_g_arr = y_g_label + LABEL
    y_g_area = y_g_arr + len(arriving[GERMANS]) * ARRIVING_LINE
    row_h = {side: mini_row(state, side) if compact[side] else ROW for side in SIDES}
    y_band = y_g_area + rows[GERMANS] * row_h[GERMANS] + 4
    y_a_area = y_band + BAND
    y_a_arr = y_a_area + rows[AMERICANS] * row_h[AMERICANS] + 4
    y_a_label = y_a_arr + len(arriving[AMERICANS]) * ARRIVING_LINE
    y_record = y_a_label + LABEL + 6
    y_footer = y_record + LINE + (len(record) + spare) * LINE + 6
    height = y_footer + LINE + 10
    c = Canvas(height)
    _header(c, state)
    hot = _hot(events)
    for side, y_label, y_arr in ((GERMANS, y_g_label, y_g_arr), (AMERICANS, y_a_label, y_a_arr)):
        _label_row(c, view, side, y_label)
        if arriving[side]:
            c.fill((0, y_arr, W, y_arr + len(arriving[side]) * ARRIVING_LINE - 1), f"{side}_tint")
            for i, ln in enumerate(arriving[side]):
                c.label(MARGIN + PAD, y_arr + 2 + i * ARRIVING_LINE, ln, SMALL, side, f"{side}_tint", True)
    c.fill((0, y_g_area, W, y_band - 1), "germans_tint")
    c.fill((0, y_a_area, W, y_a_arr - 1), "americans_tint")
    for f in FRONTS:
        x = col_x(f)
        c.d.line([x, y_g_area, x, y_a_arr - 1], fill=INDEX["line"])
        # The Germans' cards grow upwards from the band, the Americans' downwards: each side's
        # first unit at a front sits next to the enemy across.
        for side in SIDES:
            here = state.at(side, f)
            per = 2 if compact[side] else 1  # units a row
            room = rows[side] * per
            shown = here if len(here) <= room else here[: room - 1]
            for i, u in enumerate(shown):
                r = i // per
                h = row_h[side]
                y = y_band - 4 - (r + 1) * h + 3 if side == GERMANS else y_a_area + 3 + r * h
                if compact[side]:
                    _mini(c, state, u, x + 4 + (i % 2) * (cards.MINI_W + 4), y, hot)
                else:
                    _card(c, state, u, x + 4, y, hot)
            if len(shown) < len(here):
                i = len(shown)
                r = i // per
                h = row_h[side]
                y = y_band - 4 - (r + 1) * h + 3 if side == GERMANS else y_a_area + 3 + r * h
                dx = (i % 2) * (cards.MINI_W + 4) if compact[side] else 0
                c.label(
                    x + 12 + dx,
                    y + (h - LINE) // 2,
                    f"+{len(here) - len(shown)}",
                    SMALL,
                    side,
                    f"{side}_tint",
                    True,
                )
    c.d.line([col_x(3), y_g_area, col_x(3), y_a_arr - 1], fill=INDEX["line"])
    _band(c, state, y_band)
    c.fill((0, y_record - 6, W, y_footer - 1), "page")
    c.label(MARGIN + PAD, y_record, head, SMALL, "ink", "page", True)
    for i, (ln, bold) in enumerate(record):
        c.label(MARGIN + PAD, y_record + (i + 1) * LINE, ln, SMALL, "win" if bold else "ink", "page", bold)
    deck = f"Tactics deck {view.tactics_count} · discard pile {len(state.tactics_discard)}"
    c.fill((0, y_footer, W, height - 1), "band")
    c.label(MARGIN + PAD, y_footer + 5, deck, SMALL, "ink", "band")
    return c.im


def _fit(
    state: State, arriving: dict[str, tuple[str, ...]], record: list[tuple[str, bool]]
) -> tuple[dict[str, int], dict[str, bool], list[tuple[str, bool]]]:
    """Rows a side, whether its cards are halved (two to a row), and the record's lines, so that
    the board stays at most `max_height(W)` tall (a phone's screen): the dice record keeps its
    last lines (the history has them all), then the most crowded side's cards are halved, then
    the other's, then the record gives way to a line saying how many rolls the history holds (the
    result stays), and only then does a front show "+N" for the units that do not fit."""
    need = {side: _rows(state, side) for side in SIDES}
    fixed = HEADER + 2 * LABEL + BAND + 8 + 6 + LINE + 6 + LINE + 10
    fixed += sum(len(a) for a in arriving.values()) * ARRIVING_LINE
    keep = [ln for ln in record if ln[1]]  # the result, never left out
    dice = [ln for ln in record if not ln[1]]
    room = max_height(W) - fixed - (len(keep) + min(len(dice), RECORD_LINES)) * LINE
    compact = {side: False for side in SIDES}
    rows = dict(need)

    def tall() -> int:
        return sum(rows[s] * (mini_row(state, s) if compact[s] else ROW) for s in SIDES)

    for side in sorted(SIDES, key=lambda s: -need[s]):
        if tall() <= room:
            break
        compact[side] = True
        rows[side] = max(MIN_ROWS, -(-need[side] // 2))
    room += max(0, min(len(dice), RECORD_LINES) - 1) * LINE  # units before dice, but for a line
    while tall() > room and max(rows.values()) > MIN_ROWS:
        most = max(SIDES, key=lambda s: rows[s])
        rows[most] -= 1
    lines = (max_height(W) - fixed - tall()) // LINE - len(keep)
    if len(dice) > lines:
        left = len(dice) - max(0, lines - 1)
        earlier = f"… {left} earlier {'roll' if left == 1 else 'rolls'}: see the history"
        if lines <= 1:  # no room for a roll itself
            earlier = f"{_plural(len(dice), 'roll')}: see the history"
        dice = [(earlier, False), *dice[len(dice) - max(0, lines - 1) :]]
    return rows, compact, keep + dice


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _mini(c: Canvas, state: State, u: Unit, x: int, y: int, hot: set[str]) -> None:
    tag, tagged = tag_of(state, u), tagged_side(state, u.side)
    tile = cards.mini(u.side, u.type.short, u.label, u.type.strength, u.cas, tag, u.label in hot, tagged)
    c.im.paste(tile, (x, y))


def shows_turn(state: State, side: str) -> bool:
    """Whether `side`'s cards say what each unit did this turn (the side to act, in a game going on)."""
    return side == state.active and state.result is None


def tagged_side(state: State, side: str) -> bool:
    """Whether `side`'s halved cards need the line for what a unit did this turn: the side to act,
    once one of its units has done something (or came) this turn; else the line would stand empty."""
    if not shows_turn(state, side):
        return False
    return any(tag_of(state, u) not in ("", "pinned") for u in state.forces[side].values() if u.front >= 0)


def mini_row(state: State, side: str) -> int:
    """The height of a row of `side`'s halved cards (`tagged_side`: taller, with that line)."""
    return (cards.MINI_TAGGED_H if tagged_side(state, side) else cards.MINI_H) + 4


def tag_of(state: State, u: Unit) -> str:
    """The card's word: Pinned for anyone; for the side to act, what the unit did this turn. What it
    did comes before when it came: a unit deployed this turn that then fired is done (H8)."""
    if u.pinned:
        return "pinned"
    if not shows_turn(state, u.side):
        return ""
    return "done" if u.acted else ("moved" if u.moved else ("new" if u.fresh else ""))


def _card(c: Canvas, state: State, u: Unit, x: int, y: int, hot: set[str]) -> None:
    tag = tag_of(state, u)
    tile = cards.card(u.side, u.type.short, u.label, u.type.strength, u.cas, tag, u.label in hot)
    c.im.paste(tile, (x, y))


def _header(c: Canvas, state: State) -> None:
    c.fill((0, 0, W, HEADER - 1), "header")
    c.label(
        MARGIN + PAD,
        6,
        f"COMPANY COMMANDER · Round {max(state.round, 1)}",
        SMALL,
        "header_dim",
        "header",
        True,
    )
    if state.result is not None:
        w = state.result.winner
        words = "Drawn game" if w is None else f"The {TITLES[w]} win"
        c.label(MARGIN + PAD, 32, words, 26, "gold", "header", True)
        return
    side = state.active
    c.label(
        MARGIN + PAD,
        32,
        f"{TITLES[side]}: {PHASE_NAMES[state.phase]} phase",
        26,
        "header_text",
        "header",
        True,
    )
    pill = text("to act", SMALL, "white", side, True)
    right = W - MARGIN - PAD
    c.d.rounded_rectangle([right - pill.width - 16, 34, right, 62], radius=7, fill=INDEX[side])
    c.im.paste(pill, (right - pill.width - 8, 37))


def _label_row(c: Canvas, view: View, side: str, y: int) -> None:
    state = view.state
    bg = f"{side}_tint"
    c.fill((0, y, W, y + LABEL - 1), bg)
    x = MARGIN + PAD
    x += c.label(x, y + 6, TITLES[side].upper(), 20, side, bg, True) + 12
    words = (
        f"lost {state.lost[side]} of {VICTORY_LOSSES} · hand {view.hand_counts[side]} · "
        f"deck {len(state.squad[side])}"
    )
    c.label(x, y + 8, words, SMALL, "ink", bg)


def _band(c: Canvas, state: State, y: int) -> None:
    """Each front's name, with what lies on each side of it this turn: a Recon mark (+1 to every
    Suppression roll against that side's front) above or below, on the side it helps hit, and an
    Ambush (−3 to Assaults against it) on the side that laid it."""
    c.fill((0, y, W, y + BAND - 1), "band")
    for f in FRONTS:
        cx = col_x(f) + COL_W // 2
        c.centred(cx, y + 24, FRONT_NAMES[f], 20, "ink", "band", True)
        if state.result is not None:
            continue
        for side, row in ((GERMANS, y + 2), (AMERICANS, y + 50)):
            marks = []
            if side != state.active and state.marks >> f & 1:
                marks.append("Recon +1")
            if state.ambush[side] >> f & 1:
                marks.append("Ambush")
            if marks:
                c.centred(cx, row, ", ".join(marks), SMALL, "mark", "band", True)


def render_board(view: View, events: Sequence[Event] = ()) -> bytes:
    return encode(draw(view, events))


__all__ = ["W", "draw", "render_board", "tag_of", "view_of"]
