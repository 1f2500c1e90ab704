"""A tournament's standings as a picture: a pure function of the rows, drawn off the event loop.

Read on a phone at 400 CSS px: the picture is 800 px wide, so every text is at least 24 px
(12 CSS px there, `kit.phone_px`). Columns: rank, player, points, the tournament's first two
tie-breaks (Buchholz and Sonneborn-Berger unless it chose others, headed as `heads` says) and
the rating change the tournament's own games made (±Elo, RULES.md "Standings"); a name too long
for its column is cut with "…". A withdrawn player's row is muted and says "(withdrawn)", a
latecomer's "(from R3)" (their first round: those before scored 0), neither ever cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.kit import encode, font, phone_px, wrap

WIDTH = 800
PAD = 24
BODY = phone_px(WIDTH, 13)  # a little above the phone minimum
HEAD = phone_px(WIDTH, 16)
ROW = BODY + 22
INK = (30, 30, 30)
MUTED = (95, 95, 95)
PAPER = (250, 248, 240)
BAND = (48, 70, 96)
STRIPE = (238, 234, 222)
GOLD = (176, 132, 20)
UP, DOWN = (20, 110, 50), (160, 40, 30)
WITHDRAWN = " (withdrawn)"  # after the name of a player not paired again, whose row is muted


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    name: str
    points: float
    first_tiebreak: float  # the values of the tournament's first two tie-breaks
    second_tiebreak: float
    change: float
    withdrawn: bool = False
    joined: int = 0  # joined late, during this round: the rounds up to it scored 0 (marked "from R<n+1>")


_PARTS = {0: "", 1: "¼", 2: "½", 3: "¾"}


def _half(value: float) -> str:
    """Points as people write them: 2, 2½, ½, and the quarters Sonneborn-Berger may come in (3¼):
    one way of writing fractions in every column."""
    quarters = round(value * 4)
    if abs(value * 4 - quarters) > 1e-9:  # not a quarter (no score gives one): two decimals
        return f"{value:.2f}"
    whole, part = divmod(quarters, 4)
    return f"{whole or ''}{_PARTS[part]}" or "0"


def _fit(text: str, size: int, width: int, bold: bool = False) -> str:
    face = font(size, bold)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def name_cell(row: Row) -> str:
    """The player's name as it fits its column; "(withdrawn)" after it, or a latecomer's first
    round ("(from R3)": the rounds before it scored 0), is never cut."""
    mark = WITHDRAWN if row.withdrawn else f" (from R{row.joined + 1})" if row.joined else ""
    strong = row.rank == 1 and not row.withdrawn
    room = _NAME_RIGHT - _NAME_LEFT - (font(BODY, strong).getlength(mark) if mark else 0)
    return _fit(row.name, BODY, int(room), strong) + mark


# (title, right edge or None for the name column's left edge)
_COLUMNS = (("#", 70), ("Player", None), ("Pts", 505), ("Bh", 600), ("SB", 680), ("±Elo", WIDTH - PAD))
_NAME_LEFT, _NAME_RIGHT = 88, 420


def band_lines(title: str, subtitle: str) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """The band's title and subtitle lines and its height (the crosstable's band too). A title
    that wraps breaks after its "Name:" first, so no word is left alone on a line."""
    titles = wrap(title, HEAD, WIDTH - 2 * PAD, True) or ("",)
    if len(titles) > 1 and ": " in title:  # "Club Swiss:" / "after round 2 of 3"
        head, _, tail = title.partition(": ")
        titles = (*wrap(head + ":", HEAD, WIDTH - 2 * PAD, True), *wrap(tail, HEAD, WIDTH - 2 * PAD, True))
    subs = wrap(subtitle, BODY, WIDTH - 2 * PAD) if subtitle else ()
    return titles, subs, PAD + len(titles) * (HEAD + 8) + len(subs) * (BODY + 8) + PAD // 2


def draw_band(draw: ImageDraw.ImageDraw, titles: Sequence[str], subs: Sequence[str], band: int) -> None:
    draw.rectangle((0, 0, WIDTH, band), fill=BAND)
    y = PAD
    for line in titles:
        draw.text((PAD, y), line, font=font(HEAD, True), fill=(255, 255, 255))
        y += HEAD + 8
    for line in subs:
        draw.text((PAD, y), line, font=font(BODY), fill=(225, 230, 240))
        y += BODY + 8


def standings_png(
    title: str, subtitle: str, rows: Sequence[Row], heads: tuple[str, str] = ("Bh", "SB")
) -> bytes:
    """The standings table: a band with the title, a header line, one line per player; `heads`:
    the two tie-break columns' headings."""
    titles, subs, band = band_lines(title, subtitle)
    height = band + ROW + len(rows) * ROW + PAD
    im = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(im)
    draw_band(draw, titles, subs, band)
    y = band + 10
    body, bold = font(BODY), font(BODY, True)
    columns = [(heads[k - 3] if k in (3, 4) else name, right) for k, (name, right) in enumerate(_COLUMNS)]
    for name, right in columns:
        if right is None:
            draw.text((_NAME_LEFT, y), name, font=bold, fill=MUTED)
        else:
            draw.text((right - bold.getlength(name), y), name, font=bold, fill=MUTED)
    y += ROW
    # Before any result everyone shares first place: no rank and no leader's gold (the sign-up's
    # standings showed a column of gold 1s, as if all had won)
    begun = not all(row.rank == 1 and row.points == 0 for row in rows)
    for n, row in enumerate(rows):
        if n % 2 == 0:
            draw.rectangle((0, y - 8, WIDTH, y + ROW - 8), fill=STRIPE)
        ink = MUTED if row.withdrawn else GOLD if row.rank == 1 and begun else INK
        change = round(row.change)
        cells = (
            str(row.rank) if begun else "–",
            None,
            _half(row.points),
            _half(row.first_tiebreak),
            _half(row.second_tiebreak),
            f"{change:+d}" if change else "0",
        )
        for (_, right), cell in zip(_COLUMNS, cells, strict=True):
            if cell is None:
                strong = row.rank == 1 and not row.withdrawn and begun
                draw.text((_NAME_LEFT, y), name_cell(row), font=bold if strong else body, fill=ink)
                continue
            assert right is not None
            colour = ink
            if right == WIDTH - PAD:
                colour = UP if change > 0 else DOWN if change < 0 else MUTED
            face = bold if right == 70 or (right == 505) else body
            draw.text((right - face.getlength(cell), y), cell, font=face, fill=colour)
        y += ROW
    return encode(im)


__all__ = ["WIDTH", "Row", "band_lines", "draw_band", "name_cell", "standings_png"]
