"""A knockout's bracket as a picture: a pure function of its rounds' lines, drawn off the event loop.

Read on a phone at 400 CSS px, as the standings are (render/standings.py: 800 px wide, every text
at least 24 px). A tree of 64 names across 800 px would need text no phone can read, so the bracket
is drawn as the rounds one under another, each tie on a line: the winner on the left in bold, how
the tie went in the middle ("beat", "drew with": the higher seed went on, "bye"), the player who
went out on the right, muted ("by forfeit" after their name, never cut off by a long name); a tie
still being played is "v", both names plain.
The caller gives at most the rounds that fit (play/knockout_text.py, `picture_rounds`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.kit import encode, font
from render.standings import BODY, GOLD, INK, MUTED, PAD, PAPER, STRIPE, WIDTH, _fit, band_lines, draw_band

ROW = BODY + 22
GAP = 14  # above a round's heading
_LEFT = (PAD, 330)  # the winner's column
_MIDDLE = (340, 470)  # how the tie went, centred
_RIGHT = (480, WIDTH - PAD)  # who went out
HEADING = (48, 70, 96)


@dataclass(frozen=True, slots=True)
class Line:
    """One tie: `left` (the winner once decided), `word` ("beat", "v"...), `right` (empty: nobody),
    and `after` it the words a long name's cut must leave whole (" by forfeit")."""

    left: str
    word: str
    right: str
    decided: bool
    after: str = ""


Rounds = Sequence[tuple[str, Sequence[tuple[str, str, str, bool, str]]]]  # each round's heading and ties


def bracket_png(title: str, subtitle: str, given: Rounds) -> bytes:
    """The bracket: a band with the title and subtitle, then each round's heading and its ties
    (each as `Line`'s fields)."""
    rounds = [(heading, [Line(*tie) for tie in ties]) for heading, ties in given]
    titles, subs, band = band_lines(title, subtitle)
    height = band + sum(GAP + ROW + len(lines) * ROW for _, lines in rounds) + PAD
    im = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(im)
    draw_band(draw, titles, subs, band)
    body, bold = font(BODY), font(BODY, True)
    y = band
    for heading, lines in rounds:
        y += GAP
        draw.text((PAD, y), heading, font=bold, fill=HEADING)
        y += ROW
        for n, line in enumerate(lines):
            if n % 2 == 0:
                draw.rectangle((0, y - 8, WIDTH, y + ROW - 8), fill=STRIPE)
            final = len(lines) == 1 and heading.lower().startswith("the final") and line.decided
            winner = _fit(line.left, BODY, _LEFT[1] - _LEFT[0], line.decided)
            colour = GOLD if final else INK
            draw.text((_LEFT[0], y), winner, font=bold if line.decided else body, fill=colour)
            word = _fit(line.word, BODY, _MIDDLE[1] - _MIDDLE[0])
            middle = (_MIDDLE[0] + _MIDDLE[1] - body.getlength(word)) / 2
            draw.text((middle, y), word, font=body, fill=MUTED)
            room = _RIGHT[1] - _RIGHT[0] - (body.getlength(line.after) if line.after else 0)
            loser = _fit(line.right, BODY, int(room)) + line.after
            draw.text((_RIGHT[0], y), loser, font=body, fill=MUTED if line.decided else INK)
            y += ROW
    return encode(im)


__all__ = ["Line", "Rounds", "bracket_png"]
