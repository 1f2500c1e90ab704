"""A tournament's crosstable as pictures: a pure function of the rows, drawn off the event loop.

The look of the standings picture (render/standings.py): 800 px wide, so every text is at least
24 px and reads at 12 CSS px on a phone, which shows an image 400 CSS px wide (`kit.phone_px`).
Columns: the player's number, their name, a cell per round (`W5`, `L3`, `D2`, `+4`, `-4`, `B1`,
`—`, or the opponent's number alone while the game goes on), points, Buchholz, Sonneborn-Berger.
A win is green, a loss red, a round without a result grey, as the standings colour the rating.

What fits a phone: a line per player while the rounds leave the name at least `MIN_NAME` px (8
players over 5 rounds fit with room to spare); beyond that each player gets a line for their name and
numbers and the rounds below it, as many to a line as fit. No picture is taller than a board may be
(`kit.MAX_RATIO`), so the players are split over pictures in standing order, each saying which.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.kit import RGB, encode, font, max_height
from render.standings import (
    BODY,
    DOWN,
    INK,
    MUTED,
    PAD,
    PAPER,
    ROW,
    STRIPE,
    UP,
    WIDTH,
    WITHDRAWN,
    _fit,
    _half,
    band_lines,
    draw_band,
)

GAP = 14  # between two columns
CELL_GAP = 10  # between two rounds
MIN_NAME = 140  # the narrowest the name may get on a player's line (about nine letters)
NAME_LEFT = 100  # the least of a withdrawn player's name kept before "(withdrawn)" (else grey alone)
MAX_PICTURES = 10  # Discord's attachments to one message
COLOURS = {"win": UP, "loss": DOWN, "draw": INK, "bye": INK, "pending": MUTED, "none": MUTED}


@dataclass(frozen=True, slots=True)
class Row:
    """One player: `cells` are (text, mark) a round, mark one of COLOURS' keys."""

    number: int
    name: str
    cells: tuple[tuple[str, str], ...]
    points: float
    first_tiebreak: float  # the values of the tournament's first two tie-breaks (Bh and SB by default)
    second_tiebreak: float
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything goes, the same on every picture of one crosstable."""

    rounds: int
    number_right: int  # the right edge of the number column
    name_left: int
    name_right: int
    cell_width: int
    cells_left: int  # the first round's column
    per_line: int  # rounds on one line
    stacked: bool  # the rounds on lines of their own, under the name
    points_right: tuple[int, int, int]  # Pts and the two tie-breaks
    heads: tuple[str, str] = ("Bh", "SB")  # the two tie-breaks' headings

    @property
    def cell_lines(self) -> int:
        return math.ceil(self.rounds / self.per_line) if self.rounds else 0

    @property
    def player_height(self) -> int:
        return ROW * (1 + self.cell_lines) if self.stacked else ROW

    def cell_x(self, index: int) -> tuple[int, int]:
        """The left edge of round `index + 1`'s cell, and the line under the player's first it is on."""
        line, column = divmod(index, self.per_line)
        return self.cells_left + column * (self.cell_width + CELL_GAP), (line + 1 if self.stacked else 0)


@lru_cache(maxsize=4096)
def _width(text: str, bold: bool = False) -> int:
    """A text's width in pixels at the body size (cached: a crosstable repeats its cells)."""
    return math.ceil(font(BODY, bold).getlength(text))


def layout(rows: Sequence[Row], rounds: int, heads: tuple[str, str] = ("Bh", "SB")) -> Layout:
    """The columns for these players over `rounds` rounds: on one line if the name keeps `MIN_NAME`."""
    numbers = max([_width(str(r.number), True) for r in rows] + [_width("#", True)])
    cell = max([_width(text) for r in rows for text, _ in r.cells] + [_width(f"R{rounds}", True)])

    def widest(values: Sequence[float], title: str) -> int:
        return max([_width(_half(v), True) for v in values] + [_width(title, True)])

    pts = widest([r.points for r in rows], "Pts")
    bh = widest([r.first_tiebreak for r in rows], heads[0])
    sb = widest([r.second_tiebreak for r in rows], heads[1])
    sb_right = WIDTH - PAD
    bh_right = sb_right - sb - GAP
    pts_right = bh_right - bh - GAP
    number_right = PAD + numbers
    name_left = number_right + GAP
    cells_width = rounds * (cell + CELL_GAP) - CELL_GAP
    name_right = pts_right - pts - GAP - cells_width - GAP
    if name_right - name_left >= MIN_NAME or rounds == 0:
        return Layout(
            rounds, number_right, name_left, name_right, cell, name_right + GAP, max(rounds, 1), False,
            (pts_right, bh_right, sb_right), heads,
        )  # fmt: skip
    most = max(1, (WIDTH - PAD - name_left + CELL_GAP) // (cell + CELL_GAP))
    per_line = math.ceil(rounds / math.ceil(rounds / most))  # 12 rounds: two lines of 6, not 9 and 3
    return Layout(
        rounds, number_right, name_left, pts_right - pts - GAP, cell, name_left, per_line, True,
        (pts_right, bh_right, sb_right), heads,
    )  # fmt: skip


def name_text(row: Row, room: int) -> str:
    """The name as it fits `room` px, "(withdrawn)" after it never the part cut; where that would
    leave the name fewer than `NAME_LEFT` px, the grey alone says it (the key above says so)."""
    mark = WITHDRAWN if row.withdrawn else ""
    if mark and room - _width(mark) < NAME_LEFT:
        mark = ""
    return _fit(row.name, BODY, room - _width(mark), row.number == 1 and not row.withdrawn) + mark


def per_picture(title: str, subtitle: str, spot: Layout) -> int:
    """How many players one picture holds without growing taller than `kit.MAX_RATIO` allows."""
    _, _, band = band_lines(title, f"Players 100–199 of 999. {subtitle}")
    head = ROW * (1 + spot.cell_lines if spot.stacked else 1)
    return max(1, (max_height(WIDTH) - band - head - PAD) // spot.player_height)


def _right(draw: ImageDraw.ImageDraw, right: int, y: int, text: str, bold: bool, fill: RGB) -> None:
    draw.text((right - font(BODY, bold).getlength(text), y), text, font=font(BODY, bold), fill=fill)


def _page(title: str, subtitle: str, rows: Sequence[Row], spot: Layout) -> bytes:
    titles, subs, band = band_lines(title, subtitle)
    head = ROW * (1 + spot.cell_lines if spot.stacked else 1)
    height = band + head + len(rows) * spot.player_height + PAD
    im = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(im)
    draw_band(draw, titles, subs, band)
    y = band + 10
    bold, body = font(BODY, True), font(BODY)
    _right(draw, spot.number_right, y, "#", True, MUTED)
    draw.text((spot.name_left, y), "Player", font=bold, fill=MUTED)
    for title_, right in zip(("Pts", *spot.heads), spot.points_right, strict=True):
        _right(draw, right, y, title_, True, MUTED)
    for k in range(spot.rounds):
        x, line = spot.cell_x(k)
        label = f"R{k + 1}"
        centre = x + (spot.cell_width - bold.getlength(label)) / 2
        draw.text((centre, y + line * ROW), label, font=bold, fill=MUTED)
    y += head
    for n, row in enumerate(rows):
        if n % 2 == 0:
            draw.rectangle((0, y - 8, WIDTH, y + spot.player_height - 8), fill=STRIPE)
        leader = row.number == 1 and not row.withdrawn
        ink = MUTED if row.withdrawn else INK
        _right(draw, spot.number_right, y, str(row.number), True, ink)
        name = name_text(row, spot.name_right - spot.name_left)
        draw.text((spot.name_left, y), name, font=bold if leader else body, fill=ink)
        for k, (text, mark) in enumerate(row.cells):
            x, line = spot.cell_x(k)
            centre = x + (spot.cell_width - body.getlength(text)) / 2
            draw.text((centre, y + line * ROW), text, font=body, fill=COLOURS.get(mark, INK))
        values = (row.points, row.first_tiebreak, row.second_tiebreak)
        for k, (value, right) in enumerate(zip(values, spot.points_right, strict=True)):
            _right(draw, right, y, _half(value), k == 0, ink)
        y += spot.player_height
    return encode(im)


def crosstable_pngs(
    title: str, subtitle: str, rounds: int, rows: Sequence[Row], heads: tuple[str, str] = ("Bh", "SB")
) -> list[bytes]:
    """The crosstable as pictures of at most `per_picture` players each (at most `MAX_PICTURES`;
    the export holds everyone): "Players 1–20 of 45." opens the subtitle when there are several;
    `heads`: the two tie-break columns' headings."""
    spot = layout(rows, rounds, heads)
    size = per_picture(title, subtitle, spot)
    if len(rows) <= size:
        return [_page(title, subtitle, rows, spot)]
    out = []
    for start in range(0, min(len(rows), size * MAX_PICTURES), size):
        part = rows[start : start + size]
        which = f"Players {part[0].number}–{part[-1].number} of {len(rows)}. {subtitle}".strip()
        out.append(_page(title, which, part, spot))
    return out


def drawn_players(
    title: str, subtitle: str, rounds: int, rows: Sequence[Row], heads: tuple[str, str] = ("Bh", "SB")
) -> int:
    """How many of `rows` `crosstable_pngs` draws (the rest are only in the export)."""
    return min(len(rows), per_picture(title, subtitle, layout(rows, rounds, heads)) * MAX_PICTURES)


__all__ = ["MAX_PICTURES", "WIDTH", "Row", "crosstable_pngs", "drawn_players", "layout", "name_text"]
