"""The board picture: a pure function of a view (what its viewer may know) and the last events.

Laid out for a phone first, top to bottom: whose turn and what they must do in large type; the
Germans' strength and hand at their end of the board; the board, filling the width; the Americans'
row; then the question awaited, the deck, the last card with what it did (and, after a stretch of
play, everything the stretch did) and the viewer's own hand. Every word is at least 12 CSS px when
the picture is shown 400 CSS px wide; the key to the men is the `rules board` topic.

The background (squares, coordinates) and every square tile (a square's colour with its stack on
it) are built once per size, already in the palette, so a render pastes tiles, draws the cards'
arrows and the words, and encodes. Caches are filled idempotently under a lock and only read
afterwards, so renders may run in worker threads.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.fixbayonets.cards import BY_CODE, MOVE, TERRAIN, Card
from engine.fixbayonets.events import Killed, Moved, Negated, Passed, Played
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
from engine.fixbayonets.state import DISCARD, FIGHTING, HIDDEN, MOVING, SETUP, LastPlay, State, View
from engine.fixbayonets.words import ATTACK_VERBS
from engine.meta import GameEnded
from engine.protocol import Event
from render.fixbayonets import sprites
from render.fixbayonets.theme import INDEX, KEY, PALETTE, text
from render.kit import EARLIER, Column, Piece, fitted_tail, font, grown, max_height, phone_px, piece, wrap

SQUARE = 72  # pixels per square on a posted board
REPLAY_SQUARE = 48  # replays: smaller frames


@dataclass(frozen=True)
class Geo:
    """Where everything goes for squares of `s` pixels (see the module's docstring)."""

    s: int

    @cached_property
    def margin(self) -> int:
        return round(self.s * 0.36)

    @cached_property
    def width(self) -> int:
        return 8 * self.s + 2 * self.margin

    @cached_property
    def body(self) -> int:
        """Body text size: the smallest on the picture (12 CSS px on a phone)."""
        return phone_px(self.width)

    @cached_property
    def big(self) -> int:
        return round(self.body * 1.25)

    @cached_property
    def line(self) -> int:
        return round(self.body * 1.42)

    @cached_property
    def pad(self) -> int:
        return round(self.s * 0.14)

    @cached_property
    def band_h(self) -> int:
        return round(self.big * 1.25) + 2 * self.pad

    @cached_property
    def german_y(self) -> int:
        return self.band_h + self.pad

    @cached_property
    def side_h(self) -> int:
        """A side's line: its name, strength and hand."""
        return self.line

    @cached_property
    def y0(self) -> int:
        """The board's top edge."""
        return self.german_y + self.side_h + self.margin

    @cached_property
    def american_y(self) -> int:
        return self.y0 + 8 * self.s + self.margin + self.pad // 2

    @cached_property
    def bottom_y(self) -> int:
        return self.american_y + self.side_h + self.pad // 2

    @cached_property
    def height(self) -> int:
        """The height with two lines of words below the board; it grows to say more."""
        return self.bottom_y + 2 * self.line + self.pad

    def xy(self, sq: int) -> tuple[int, int]:
        """Top-left pixel of a square: rank 8 (the Germans) at the top, rank 1 (the Americans) below."""
        return self.margin + (sq % 8) * self.s, self.y0 + (7 - sq // 8) * self.s

    def centre(self, sq: int) -> tuple[int, int]:
        x, y = self.xy(sq)
        return x + self.s // 2, y + self.s // 2


@lru_cache(maxsize=16)
def geo(s: int) -> Geo:
    """One shared Geo per size, so its cached sizes are worked out once."""
    return Geo(s)


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
    d.rectangle([0, 0, g.width - 1, g.band_h - 1], fill=KEY["panel"])
    for sq in range(64):
        x, y = g.xy(sq)
        d.rectangle([x, y, x + s - 1, y + s - 1], fill=KEY[square_colour(sq)])
    bx0, bx1, by1 = g.margin, g.margin + 8 * s, g.y0 + 8 * s
    d.rectangle([bx0 - 2, g.y0 - 2, bx1 + 1, by1 + 1], outline=KEY["ink"], width=2)
    f = font(g.body, True)
    for i in range(8):
        cx = g.margin + i * s + s // 2
        d.text((cx, by1 + g.margin // 2), "abcdefgh"[i], font=f, fill=KEY["dim"], anchor="mm")
        d.text((cx, g.y0 - g.margin // 2), "abcdefgh"[i], font=f, fill=KEY["dim"], anchor="mm")
        cy = g.y0 + (7 - i) * s + s // 2
        d.text((g.margin // 2, cy), str(i + 1), font=f, fill=KEY["dim"], anchor="mm")
        d.text((bx1 + g.margin // 2, cy), str(i + 1), font=f, fill=KEY["dim"], anchor="mm")
    return PALETTE.to_p(im)


@lru_cache(maxsize=4096)
def _tile(s: int, bg: str, side: str, kinds: str, faint: bool) -> Image.Image:
    """A square with the men on it: one kind as its token (a count badge if several), more kinds as
    one stack piece listing each kind's letter and count, all readable on a phone."""
    im = Image.new("RGBA", (s, s), (*KEY[bg], 255))
    body = geo(s).body
    if len(set(kinds)) == 1:
        t = round(s * 0.76)
        tok = sprites.token(side, kinds[0], len(kinds), t, body)
        im.alpha_composite(tok, ((s - t) // 2, (s - t) // 2))
    else:
        im.alpha_composite(sprites.stack(side, kinds, s, body))
    if faint:  # a set-up only its owner sees yet
        veil = Image.new("RGBA", (s, s), (*KEY[bg], 110))
        im.alpha_composite(veil)
    return PALETTE.to_p(im)


@lru_cache(maxsize=64)
def _on_page(kind: str, side: str, w: int, h: int) -> Image.Image:
    """A token (without its letter's job: a badge beside a side's name) or a card back, laid on
    the page's colour, in the palette."""
    if kind == "token":
        sprite = _plain_token(side, w)
    else:
        sprite = sprites.card_back(w, h)
    im = Image.new("RGBA", sprite.size, (*KEY["page"], 255))
    im.alpha_composite(sprite)
    return PALETTE.to_p(im)


def _plain_token(side: str, size: int) -> Image.Image:
    """The side's shape alone, as small as a line of words (a letter there would be too small)."""
    big = size * 4
    im = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    box = [big * 0.06, big * 0.06, big * 0.94, big * 0.94]
    if side == GERMANS:
        d.rounded_rectangle(box, radius=big * 0.14, fill=KEY["german"], outline=KEY["ink"], width=big // 12)
    else:
        d.ellipse(box, fill=KEY["american"], outline=KEY["ink"], width=big // 12)
    return im.resize((size, size), Image.Resampling.LANCZOS)


# ------------------------------------------------------------------------------------ drawing


def draw(view: View, events: Sequence[Event] = (), s: int = SQUARE, *, panel: bool = True) -> Image.Image:
    """The picture of `view` with the cards just played drawn on the board: the last one, with
    its fate, and any earlier ones of the same stretch of play."""
    g = geo(s)
    st = view.state
    col = None
    if panel:
        n = len(events)
        col = fitted_tail(lambda skip: _bottom(view, events, g, skip), n, max_height(g.width) - g.pad)
    with _lock:
        bg = _background(s)
    im = grown(bg, max(g.height, col.y + g.pad) if col else g.height)
    im.load()
    core = im.im  # dozens of tiles a board: the Python wrapper's checks skipped
    for sq in range(64):
        stack = st.stacks[sq]
        if stack:
            side = st.owner(sq)
            assert side is not None
            _put(core, _tile(s, square_colour(sq), side, st.men_at(sq), False), g.xy(sq))
    if st.phase == SETUP:
        for side in SIDES:
            lay = st.layouts[side]
            if lay is not None and lay != HIDDEN:
                rank = 7 if side == GERMANS else 0
                for f, pair in enumerate(lay):
                    sq = rank * 8 + f
                    _put(core, _tile(s, square_colour(sq), side, pair, True), g.xy(sq))
    _draw_plays(im, g, st, events)
    if panel and col is not None:
        _band(im, g, st)
        for side, y in ((GERMANS, g.german_y), (AMERICANS, g.american_y)):
            rows = Column(PALETTE, g.pad, y, g.width - 2 * g.pad, "page")
            _side_rows(rows, view, side, g)
            rows.draw(im)
        col.draw(im)
    return im


def _put(core: Any, tile: Image.Image, at: tuple[int, int]) -> None:
    """Paste a cached palette tile onto the picture's core."""
    x, y = at
    core.paste(tile.im, (x, y, x + tile.width, y + tile.height))


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
    w = max(3, g.s // 12)
    head = g.s * 0.26
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


def _draw_plays(im: Image.Image, g: Geo, st: State, events: Sequence[Event]) -> None:
    """Each card played in `events` as arrows (the last one coloured by its fate: waiting for the
    answer, cancelled, done), and every man killed marked on his square. With no card in the
    events (a board asked for later), the last card the game remembers."""
    d = ImageDraw.Draw(im)
    plays = [e for e in events if isinstance(e, Played)]
    for i, p in enumerate(plays[:-1]):  # earlier cards of the stretch: done or cancelled
        later = events[events.index(p) + 1 :]
        upto = later.index(plays[i + 1]) if plays[i + 1] in later else len(later)
        cancelled = any(isinstance(e, Negated) and e.played == p.card for e in later[:upto])
        colour = "cancel" if cancelled else "attack" if p.attack else "move"
        for _, src, dst in p.moves:
            a, b = NAMES.index(src), NAMES.index(dst)
            _frame(d, g, b, colour)
            _arrow(d, g, a, b, colour, dashed=cancelled)
    last = st.last
    if last is not None:  # the latest card, coloured by its fate
        colour = {"waiting": "wait", "negated": "cancel"}.get(
            last.status, "attack" if last.attack else "move"
        )
        for _, src, dst in last.moves:
            a, b = NAMES.index(src), NAMES.index(dst)
            _frame(d, g, b, colour)
            _arrow(d, g, a, b, colour, dashed=last.status != "done")
    kills = [NAMES.index(e.square) for e in events if isinstance(e, Killed)]
    if last is not None and last.attack and last.killed:
        kills.append(NAMES.index(last.moves[0][2]))
    for target in dict.fromkeys(kills):
        _kill_mark(d, g, st, target, _attacker_of(plays, last, NAMES[target]))


def _attacker_of(plays: list[Played], last: LastPlay | None, target: str) -> int | None:
    """The square the attack on `target` came from (the kill mark keeps clear of its arrow)."""
    attacks = [p.moves[0] for p in plays if p.attack]
    if last is not None and last.attack:
        attacks.append(last.moves[0])
    for _, src, dst in reversed(attacks):
        if dst == target:
            return NAMES.index(src)
    return None


def _kill_mark(d: ImageDraw.ImageDraw, g: Geo, st: State, target: int, attacker: int | None) -> None:
    """A red cross: over the whole square once nobody is left there, else small in a free corner
    (the upper right or the lower left), the one farther from the attacker and so from its arrow."""
    x, y = g.xy(target)
    if st.stacks[target]:
        c, m = round(g.s * 0.22), round(g.s * 0.05)
        (ax, ay), (tx, ty) = g.centre(attacker if attacker is not None else target), g.centre(target)
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


# ---------------------------------------------------------------------------------- the words


def _band(im: Image.Image, g: Geo, st: State) -> None:
    """Whose turn and what they must do, in large type across the top, and the round."""
    head, _detail, colour = _status(st)
    tail = f"round {st.round}" if st.round else "set-up"
    after = text(tail, g.body, "text", "panel")
    size = g.big
    words = text(head, size, "gold" if colour != "win" else "win", "panel", True)
    if words.width > g.width - 3 * g.pad - after.width:
        words = text(head, g.body, "gold" if colour != "win" else "win", "panel", True)
    y = (g.band_h - words.height) // 2
    im.paste(words, (g.pad, y))
    im.paste(after, (g.width - g.pad - after.width, y + words.height - after.height))


def _status(st: State) -> tuple[str, str, str]:
    """The headline, the line that says more, and the headline's colour."""
    if st.result is not None:
        w = st.result.winner
        head = "Drawn" if w is None else f"The {TITLE[w]} win"
        detail = str(st.result.detail)
        return head, detail[:1].upper() + detail[1:] + ".", "win"
    if st.phase == SETUP:
        ready = [s for s in SIDES if st.layouts[s] is not None]
        if not ready:
            return "Both sides to set up", "Set-ups stay hidden until both are in.", "wait"
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


def _side_rows(col: Column, view: View, side: str, g: Geo) -> None:
    """A side's line at its end of the board: its name, its strength and its hand's size."""
    st = view.state
    size = g.body
    ic = round(size * 1.2)
    officers = st.officers_alive(side) if st.phase != SETUP else 2
    on_turn = st.result is None and st.phase != SETUP and st.active == side
    name = text(TITLE[side].upper(), size, "gold" if on_turn else "text", "page", True)
    badge = _on_page("token", side, ic, ic)
    n = view.hand_counts[side]
    cw, ch = round(size * 0.62), round(size * 0.9)
    back = _on_page("back", side, cw, ch)
    label = text(f"{n} card{'s' if n != 1 else ''}", size, "text", "page", True)
    step = round(cw * 0.6)  # the backs overlap like a hand held fanned
    shown = min(n, 8)
    backs = [(back, i * step, (label.height - ch) // 2) for i in range(shown)]
    backs.append((label, (shown - 1) * step + cw + 5 if shown else 0, 0))
    pieces = [
        piece((badge, 0, (name.height - ic) // 2), (name, ic + 6, 0)),
        _words(strength_words(st.men_alive(side), officers), size),
        piece(*backs),
    ]
    col.flow(pieces, g.line, round(size * 0.45))


def _words(s: str, size: int, fg: str = "text", bold: bool = False) -> Piece:
    return piece((text(s, size, fg, "page", bold), 0, 0))


def strength_words(men: int, officers: int) -> str:
    """'16 men, 2 officers alive', '1 man, no officer alive'."""
    who = f"{men} {'man' if men == 1 else 'men'}"
    chiefs = "no officer" if officers == 0 else f"{officers} officer{'s' if officers != 1 else ''}"
    return f"{who}, {chiefs} alive"


def _bottom(view: View, events: Sequence[Event], g: Geo, skip: int = 0) -> Column:
    """Below the Americans' row, laid out before the picture is made so it can be as tall as the
    words need: the question awaited (or what the phase asks), the deck, the last card with what
    it did, everything else the stretch of play did (but its first `skip` clauses, kept by the
    history, where a long stretch would make the board too tall for a phone), and the viewer's hand."""
    st = view.state
    size = g.body
    col = Column(PALETTE, g.pad, g.bottom_y, g.width - 2 * g.pad, "page")
    _head, detail, colour = _status(st)
    if detail and colour == "wait" and st.pending is not None:
        top, under = col.y, len(col.ops)
        col.x, col.width, col.y = col.x + g.pad, col.width - 2 * g.pad, col.y + g.pad // 2
        col.para(detail, size, "text", bold=True, bg="panel_hi")
        col.x, col.width = col.x - g.pad, col.width + 2 * g.pad
        col.rect((col.x, top, col.x + col.width, col.y + g.pad // 2), "panel_hi", "wait", 2, under=under)
        col.y += g.pad
    elif detail:
        col.para(detail, size, "win" if colour == "win" else "dim", bold=colour == "win")
    discard = st.deck.discard
    top_card = f" · top: {discard[-1].name}" if discard else ""
    col.para(f"Deck {view.deck_count} · discard {len(discard)}{top_card}", size, "text")
    col.y += g.pad // 2
    _last_block(col, st, events, g, view.viewer, skip)
    for side in SIDES:
        if view.sees_hand(side) and st.hands[side]:
            whose = "Your hand" if side == view.viewer else f"{TITLE[side]}' hand (face up)"
            names = ", ".join(c.name for c in st.hands[side])
            col.para(f"{whose}: {names}.", size, "wait")
    return col


def _last_block(
    col: Column, st: State, events: Sequence[Event], g: Geo, viewer: str | None, skip: int = 0
) -> None:
    """The last card as a picture, beside it what it did and its fate, and below, in order, every
    other thing the events say (a whole turn's cards after an AI's turn). Nothing is cut."""
    size = g.body
    last = st.last
    said = [t for e in events if not isinstance(e, GameEnded) and (t := e.text(viewer))]
    if last is None:
        if skip and said[skip:]:
            col.para(EARLIER, size, "dim")
        if said[skip:]:
            col.para(_sentences(said[skip:]), size, "text")
        elif not said:
            col.para("No card played yet.", size, "dim")
        return
    c = BY_CODE[last.card]
    face = _card_face(c, round(g.s * 2), size)
    ch = face.height
    col.paste(face, col.x, col.y)
    top = col.y
    col.beside(face.width + g.pad, top + ch + g.pad // 2)
    col.para(f"{c.name}, played by the {TITLE[last.side]}", size, "text", bold=True)
    adj = ADJECTIVE[last.side]
    kind, src, dst = last.moves[0]
    if last.attack:
        what = f"The {adj} {SINGULAR[kind]} on {src} {ATTACK_VERBS[c.code]} {dst}."
    elif len(last.moves) == 1:
        what = f"The {adj} {SINGULAR[kind]} moves {src} → {dst}."
    else:
        what = f"{men_words(''.join(m[0] for m in last.moves))} move forward together.".capitalize()
    col.para(what, size, "text")
    if last.status == "waiting":
        col.para(f"Waiting: will the {TITLE[other(last.side)]} cancel it?", size, "wait", bold=True)
    elif last.status == "negated":
        by = BY_CODE[last.negated_by or "trees"].name
        col.para(f"Cancelled with {by}.", size, "cancel", bold=True)
    elif last.attack:
        enemy = ADJECTIVE[other(last.side)]
        if last.killed:
            dead = men_words(last.killed)
            whole = ", the whole stack" if last.whole and len(last.killed) > 1 else ""
            col.para(f"Killed ({enemy}): {dead}{whole}.", size, "attack", bold=True)
        else:
            col.para("Hit: the defender chooses who falls.", size, "wait", bold=True)
    col.y = max(col.y, top + ch + g.pad // 2)
    col.beside(0, 0)
    # The rest of the stretch: what came before the last card, and what followed its answer (the
    # end of the turn, a draw); the card's own answer and result are said beside it already.
    plays = [i for i, e in enumerate(events) if isinstance(e, Played)]
    if plays:
        told = (Played, Moved, Killed, Negated, Passed)
        rest = [*events[: plays[-1]], *(e for e in events[plays[-1] :] if not isinstance(e, told))]
        said = [t for e in rest if not isinstance(e, GameEnded) and (t := e.text(viewer))]
    if skip and said[skip:]:
        col.para(EARLIER, size, "dim")
    if said[skip:]:
        col.para(_sentences(said[skip:]), size, "dim")


def _sentences(clauses: list[str]) -> str:
    """Event words as sentences: 'The Germans play Bayonet: … The Americans let it stand.'"""
    return " ".join(c[:1].upper() + c[1:] + ("" if c.endswith((".", "?", "!")) else ".") for c in clauses)


@lru_cache(maxsize=64)
def _card_face(c: Card, w: int, size: int) -> Image.Image:
    """A card as a picture, as tall as its words: a band of its type's colour and word, its name
    and what it does, every word `size` pixels or more."""
    ss = 3
    px = size * ss
    band = round(px * 1.5)
    names = wrap(c.name, px, int(w * ss * 0.92), True)
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
    notes = [ln for e in extra for ln in wrap(e, px, int(w * ss * 0.92))]
    h = round((band + px * 0.55 + px * 1.15 * (len(names) + len(notes)) + px * 0.5) / ss)
    big = Image.new("RGB", (w * ss, h * ss), KEY["page"])
    d = ImageDraw.Draw(big)
    d.rounded_rectangle(
        [0, 0, w * ss - 1, h * ss - 1], radius=8 * ss, fill=KEY["card"], outline=KEY["card_edge"], width=ss
    )
    d.rounded_rectangle([ss * 2, ss * 2, w * ss - ss * 3, band], radius=6 * ss, fill=KEY[f"band_{c.kind}"])
    kind = {"A": "ATTACK", "M": "MOVE", "T": "TERRAIN"}[c.kind]
    d.text((w * ss / 2, band / 2 + ss), kind, font=font(px, True, 1 / ss), fill=KEY["white"], anchor="mm")
    y = band + px * 0.35
    for ln in names:
        d.text((w * ss / 2, y), ln, font=font(px, True, 1 / ss), fill=KEY["ink"], anchor="mt")
        y += px * 1.15
    y += px * 0.2
    for ln in notes:
        d.text((w * ss / 2, y), ln, font=font(px, False, 1 / ss), fill=KEY["ink"], anchor="mt")
        y += px * 1.15
    return PALETTE.to_p(big.resize((w, h), Image.Resampling.LANCZOS))
