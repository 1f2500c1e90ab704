"""The board picture: a pure function of (state, the last action's events, viewer, overlay) -> PNG.

Laid out for a phone first: the board fills the width, whose turn it is sits in large type above
it, each side's reserve, losses, deck and aircraft beside its own end of the board, and what the
last action (or a whole turn) did below it, as long as it needs. Every word is at least 12 CSS px
when the picture is shown 400 CSS px wide. The key to the pieces is the `rules board` topic.

Speed comes from caching what does not change: the background (squares, wire, trenches,
coordinates) and every square-sized tile (a square's background with a token on it) are built once per
size, already in the shared palette, so a render pastes tiles, draws a few highlight shapes and
encodes. All caches are filled under a lock or idempotently, and only read afterwards: renders can
run in worker threads.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache

from PIL import Image, ImageDraw

from engine.blockwars import actions as A
from engine.blockwars.events import (
    BarrageFired,
    BarrageHit,
    Combat,
    Event,
    GameOver,
    Moved,
    Reinforced,
    Removed,
    TankDamaged,
    TankMoved,
)
from engine.blockwars.model import Side
from engine.blockwars.squares import FILES, square
from engine.blockwars.state import MG_LINES, PLAY, SETUP, TANK_ID, State, tank_squares
from render.blockwars import sprites
from render.blockwars.theme import INDEX, KEY, PALETTE, font, text, to_p
from render.kit import EARLIER, Column, Piece, encode, fitted_tail, grown, max_height, phone_px, piece

SQUARE = 72  # pixels per square for Discord posts; replays use a smaller one
REPLAY_SQUARE = 48  # a 300-action GIF stays a few MiB at this size


@dataclass(frozen=True)
class Geo:
    """Where everything goes for a given square size, top to bottom: the status band (whose turn,
    in large type), the Germans' row, the board with its coordinates, the Canadians' row, then the
    last action in words (as long as it needs: the picture grows downwards).

    The board fills the width; every word is at least `body` pixels, which is 12 CSS px when a
    phone shows the picture 400 CSS px wide."""

    s: int
    side_rows: int = 2  # lines in each side's row: 3 when the Crosses are played

    @cached_property
    def margin(self) -> int:
        """The coordinates' strips around the board."""
        return round(self.s * 0.36)

    @cached_property
    def width(self) -> int:
        return 8 * self.s + 2 * self.margin

    @cached_property
    def body(self) -> int:
        """Body text size: the smallest on the picture."""
        return phone_px(self.width)

    @cached_property
    def big(self) -> int:
        return round(self.body * 1.25)

    @cached_property
    def line(self) -> int:
        """The pitch of lines of body text."""
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
        return self.side_rows * self.line

    @cached_property
    def x0(self) -> int:
        return self.margin

    @cached_property
    def y0(self) -> int:
        """The board's top edge."""
        return self.german_y + self.side_h + self.margin

    @cached_property
    def canadian_y(self) -> int:
        return self.y0 + 8 * self.s + self.margin + self.pad // 2

    @cached_property
    def bottom_y(self) -> int:
        """Where the last action's words start."""
        return self.canadian_y + self.side_h + self.pad // 2

    @cached_property
    def height(self) -> int:
        """The picture's height with two lines of words below the board (it grows for more)."""
        return self.bottom_y + 2 * self.line + self.pad

    def xy(self, sq: int) -> tuple[int, int]:
        """Top-left pixel of a square (rank 8 at the top, as the Germans face the Canadians)."""
        return self.x0 + (sq % 8) * self.s, self.y0 + (7 - sq // 8) * self.s

    def centre(self, sq: int) -> tuple[int, int]:
        x, y = self.xy(sq)
        return x + self.s // 2, y + self.s // 2


@lru_cache(maxsize=16)
def geo(s: int, side_rows: int = 2) -> Geo:
    """One shared Geo per size, so its cached sizes are worked out once."""
    return Geo(s, side_rows)


def square_colour(sq: int) -> str:
    """The key colour of an empty square: zone (German, trench, no man's land...) and shade."""
    rank, file = sq // 8, sq % 8
    zone = ("c", "c", "ct", "n", "n", "gt", "g", "g")[rank]
    return f"{zone}_{'dark' if (rank + file) % 2 == 0 else 'light'}"


# ---------------------------------------------------------------------------- background

_lock = threading.Lock()


@lru_cache(maxsize=4)
def _field(s: int) -> Image.Image:
    """The 8x8 squares with the trenches' sandbags and the wire, in RGB (tiles are cut from it)."""
    im = Image.new("RGB", (8 * s, 8 * s), KEY["page"])
    d = ImageDraw.Draw(im)
    for sq in range(64):
        x, y = (sq % 8) * s, (7 - sq // 8) * s
        d.rectangle([x, y, x + s - 1, y + s - 1], fill=KEY[square_colour(sq)])
    bx1 = 8 * s
    # Trench parapets: sandbags along the no-man's-land edge of each front row.
    bag_h = max(3, round(s * 0.08))
    for y_edge, down in ((3 * s, -1), (5 * s, 1)):
        y_in = y_edge + (-bag_h - 1 if down < 0 else 1)
        step = max(8, s // 5)
        for k, x in enumerate(range(0, bx1, step)):
            off = (step // 2) if k % 2 else 0
            d.rounded_rectangle(
                [x + 1 - off // 4, y_in, x + step - 2, y_in + bag_h],
                radius=bag_h // 2,
                fill=KEY["sandbag"],
                outline=KEY["wire"],
            )
    # Barbed wire: coils just on the no-man's-land side of each trench's front edge.
    coil = max(4, round(s * 0.11))
    for y_edge, into in ((3 * s, 1), (5 * s, -1)):
        yc = y_edge + into * (coil // 2 + 2)
        d.line([0, yc, bx1 - 1, yc], fill=KEY["wire"], width=max(1, s // 50))
        for x in range(coil // 2, bx1, coil):
            d.ellipse(
                [x - coil // 2, yc - coil // 2, x + coil // 2, yc + coil // 2],
                outline=KEY["wire"],
                width=max(1, s // 60),
            )
        for x in range(coil, bx1, coil * 2):
            d.line([x - 3, yc - coil // 2 - 2, x + 3, yc + coil // 2 + 2], fill=KEY["wire"], width=1)
            d.line([x + 3, yc - coil // 2 - 2, x - 3, yc + coil // 2 + 2], fill=KEY["wire"], width=1)
    return im


@lru_cache(maxsize=8)
def _background_rgb(s: int, side_rows: int) -> Image.Image:
    g = Geo(s, side_rows)
    im = Image.new("RGB", (g.width, g.height), KEY["page"])
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, g.width - 1, g.band_h - 1], fill=KEY["banner"])
    im.paste(_field(s), (g.x0, g.y0))
    bx1 = g.x0 + 8 * s
    d.rectangle([g.x0 - 2, g.y0 - 2, bx1 + 1, g.y0 + 8 * s + 1], outline=KEY["ink"], width=2)
    # Files above and below the board, ranks on both sides, as large as any word.
    f = font(g.body, True)
    for i, letter in enumerate(FILES):
        cx = g.x0 + i * s + s // 2
        d.text((cx, g.y0 - g.margin // 2), letter, font=f, fill=KEY["label"], anchor="mm")
        d.text((cx, g.y0 + 8 * s + g.margin // 2), letter, font=f, fill=KEY["label"], anchor="mm")
    for r in range(8):
        cy = g.y0 + (7 - r) * s + s // 2
        d.text((g.x0 // 2, cy), str(r + 1), font=f, fill=KEY["label"], anchor="mm")
        d.text((bx1 + g.margin // 2, cy), str(r + 1), font=f, fill=KEY["label"], anchor="mm")
    return im


def background(s: int, side_rows: int = 2) -> Image.Image:
    """The background in the shared palette; copy it, never draw on it."""
    return _background_p(s, side_rows)


@lru_cache(maxsize=8)
def _background_p(s: int, side_rows: int) -> Image.Image:
    return to_p(_background_rgb(s, side_rows))


@lru_cache(maxsize=4096)
def tile(s: int, sq: int, kind: str) -> Image.Image:
    """A square (or the tank's 2x2 block) with its token, on that square's own background."""
    x, y = (sq % 8) * s, (7 - sq // 8) * s
    if kind.startswith("CT"):
        spr = sprites.tank(s, int(kind[2:]))
        y -= s  # the anchor is the lower-left square; the block extends one rank up
    else:
        spr = sprites.token(kind, s)
    base = _field(s).crop((x, y, x + spr.width, y + spr.height)).convert("RGBA")
    base.alpha_composite(spr)
    return to_p(base)


@lru_cache(maxsize=512)
def icon(kind: str, size: int, arg: str = "", bg: str = "page") -> Image.Image:
    """A small sprite (token, plane) flattened onto a colour of the page, in the palette."""
    if kind == "plane":
        spr = sprites.plane(size, arg[1:], arg[0] == "G")
    else:
        spr = sprites.token(kind, size, letter=False)
    base = Image.new("RGBA", spr.size, KEY[bg])
    base.alpha_composite(spr)
    return to_p(base)


@lru_cache(maxsize=256)
def chip(code: str, size: int, bg: str = "page") -> Image.Image:
    """A card as a small face in a line of words: its rank and suit at text size, red for hearts
    and diamonds (the suit symbol says it too)."""
    from engine.cards import Card

    c = Card.parse(code)
    words = text(c.label, size, "card_red" if c.suit in "HD" else "ink", "card", True)
    pad = max(3, size // 4)
    im = Image.new("P", (words.width + 2 * pad, words.height + pad), INDEX[bg])
    im.putpalette(words.getpalette() or [])
    d = ImageDraw.Draw(im)
    d.rounded_rectangle(
        [0, 0, im.width - 1, im.height - 1],
        radius=pad,
        fill=INDEX["card"],
        outline=INDEX["card_edge"],
        width=2,
    )
    im.paste(words, (pad, pad // 2))
    return im


# ---------------------------------------------------------------------------- drawing helpers


class Canvas:
    """The picture being drawn: palette image, geometry and shortcuts for the highlight shapes."""

    def __init__(self, g: Geo, height: int | None = None) -> None:
        self.g = g
        self.im = grown(background(g.s, g.side_rows), height or g.height)
        self.d = ImageDraw.Draw(self.im)
        self._core = self.im.im  # the copy is private and loaded: paste on the core, skipping checks

    def paste(self, tile_im: Image.Image, x: int, y: int) -> None:
        """Paste a cached palette image; every render pastes dozens, so the Python wrapper is skipped."""
        w, h = tile_im.size
        self._core.paste(tile_im.im, (x, y, x + w, y + h))

    def outline(self, sq: int, colour: str, width: int, inset: int = 0) -> None:
        x, y = self.g.xy(sq)
        s = self.g.s
        self.d.rectangle(
            [x + inset, y + inset, x + s - 1 - inset, y + s - 1 - inset], outline=INDEX[colour], width=width
        )

    def box(self, x0: int, y0: int, x1: int, y1: int, colour: str, width: int, dark: bool = True) -> None:
        """A rectangle outline with a dark rim, readable on light and dark squares."""
        if dark:
            self.d.rectangle([x0 - 1, y0 - 1, x1 + 1, y1 + 1], outline=INDEX["ink"], width=width + 2)
        self.d.rectangle([x0, y0, x1, y1], outline=INDEX[colour], width=width)

    def arrow(self, a: tuple[int, int], b: tuple[int, int], colour: str, width: int) -> None:
        """A thick arrow with a dark rim, stopping short of the target's centre."""
        (x0, y0), (x1, y1) = a, b
        dx, dy = x1 - x0, y1 - y0
        n = max(1.0, (dx * dx + dy * dy) ** 0.5)
        ux, uy = dx / n, dy / n
        head = width * 2.6
        x1b, y1b = x1 - ux * self.g.s * 0.18, y1 - uy * self.g.s * 0.18
        xs, ys = x0 + ux * self.g.s * 0.2, y0 + uy * self.g.s * 0.2
        bx, by = x1b - ux * head, y1b - uy * head
        px, py = -uy, ux
        k = head * 0.75
        tri = [(x1b, y1b), (bx + px * k, by + py * k), (bx - px * k, by - py * k)]
        rim = INDEX["ink"]
        self.d.line([(xs, ys), (bx, by)], fill=rim, width=width + 4)
        self.d.polygon(tri, fill=rim, outline=rim, width=3)
        self.d.line([(xs, ys), (bx, by)], fill=INDEX[colour], width=width)
        self.d.polygon(tri, fill=INDEX[colour])

    def cross(self, sq: int, colour: str) -> None:
        """A big X: a unit was destroyed here."""
        x, y = self.g.xy(sq)
        s = self.g.s
        p = round(s * 0.16)
        w = max(3, s // 11)
        for a, b in (((x + p, y + p), (x + s - p, y + s - p)), ((x + s - p, y + p), (x + p, y + s - p))):
            self.d.line([a, b], fill=INDEX["ink"], width=w + 4)
        for a, b in (((x + p, y + p), (x + s - p, y + s - p)), ((x + s - p, y + p), (x + p, y + s - p))):
            self.d.line([a, b], fill=INDEX[colour], width=w)

    def ring(self, sq: int, colour: str, r: float, width: int) -> None:
        cx, cy = self.g.centre(sq)
        rr = round(self.g.s * r)
        rim = [cx - rr - 2, cy - rr - 2, cx + rr + 2, cy + rr + 2]
        self.d.ellipse(rim, outline=INDEX["ink"], width=width + 4)
        self.d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], outline=INDEX[colour], width=width)

    def dot(self, sq: int, colour: str, r: float) -> None:
        cx, cy = self.g.centre(sq)
        rr = round(self.g.s * r)
        self.d.ellipse([cx - rr - 2, cy - rr - 2, cx + rr + 2, cy + rr + 2], fill=INDEX["ink"])
        self.d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=INDEX[colour])

    def label(
        self, x: int, y: int, s: str, size: int, fg: str = "text", bg: str = "panel", bold: bool = False
    ) -> int:
        """Paste a line of text; return its height."""
        t = text(s, size, fg, bg, bold)
        self.paste(t, x, y)
        return t.height


# ---------------------------------------------------------------------------- the render


def _sq(name: str) -> int | None:
    try:
        return square(name)
    except ValueError:
        return None


def _draw_units(c: Canvas, state: State) -> None:
    s = c.g.s
    for sq, uid in enumerate(state.board):
        if uid is None or uid == TANK_ID:
            continue
        x, y = c.g.xy(sq)
        c.paste(tile(s, sq, uid[:2]), x, y)
    anchor = state.pos.get(TANK_ID)
    if anchor is not None:
        x, y = c.g.xy(anchor)
        c.paste(tile(s, anchor, f"CT{min(state.tank_damage, 1)}"), x, y - s)


def _tank_centre(g: Geo, anchor_names: Sequence[str]) -> tuple[int, int]:
    sq = min(square(n) for n in anchor_names)
    x, y = g.xy(sq)
    return x + g.s, y


def _draw_events(c: Canvas, state: State, events: Sequence[Event]) -> None:
    """The last action on the board: arrows, marked targets, barrage area, losses."""
    g = c.g
    s = g.s
    w = max(4, s // 10)
    for e in events:
        if isinstance(e, BarrageFired):
            sqs = [square(n) for n in e.area]
            xs = [g.xy(q)[0] for q in sqs]
            ys = [g.xy(q)[1] for q in sqs]
            c.box(min(xs) + 2, min(ys) + 2, max(xs) + s - 3, max(ys) + s - 3, "barrage", w)
            for q in sqs:
                c.outline(q, "barrage", 2, inset=w + 4)
    for e in events:
        if isinstance(e, Moved):
            c.arrow(g.centre(square(e.src)), g.centre(square(e.dst)), "move", w)
        elif isinstance(e, TankMoved):
            a, b = _tank_centre(g, e.src), _tank_centre(g, e.dst)
            c.arrow((a[0] - s // 2 - 4, a[1] + s // 2), (b[0] - s // 2 - 4, b[1] + s // 3), "move", w)
        elif isinstance(e, Reinforced):
            for n in e.squares:
                c.outline(square(n), "new", max(3, w - 1), inset=2)
        elif isinstance(e, Combat) and e.kind != "dogfight":
            d = _sq(e.defender)
            if d is None:
                continue
            x, y = g.xy(d)
            c.box(x + 2, y + 2, x + s - 3, y + s - 3, "attack", w)
            a_sq = _sq(e.attacker)
            if a_sq is not None:
                start = g.centre(a_sq)
                if e.kind == "tank fire" and state.pos.get(TANK_ID) is not None:
                    start = _tank_centre(g, [e.attacker])
                c.arrow(start, g.centre(d), "attack", w)
            else:  # an aircraft strafing: a plane badge on the target
                p = icon("plane", round(s * 0.36), ("G" if e.side is Side.GERMANS else "C") + "ok", "card")
                c.d.rectangle(
                    [x + 3, y + 3, x + p.width + 6, y + p.height + 6],
                    fill=INDEX["card"],
                    outline=INDEX["ink"],
                )
                c.paste(p, x + 5, y + 5)
        elif isinstance(e, TankDamaged):
            first = min(square(n) for n in e.squares)
            x, y = g.xy(first)
            c.box(x + 3, y - s + 3, x + 2 * s - 4, y + s - 4, "attack", w)
    for e in events:
        if isinstance(e, Removed):
            c.cross(square(e.square), "attack")
        elif isinstance(e, TankDamaged) and e.destroyed:
            first = min(square(n) for n in e.squares)
            for q in tank_squares(first):
                c.cross(q, "attack")
        elif isinstance(e, GameOver):
            for n in e.squares:
                c.outline(square(n), "gold", w, inset=1)
    from engine.cards import Card

    for e in events:  # last, so the barrage cards sit on top of the crosses
        if isinstance(e, BarrageHit):
            x, y = g.xy(square(e.square))
            ink = "card_red" if e.hit else "ink"
            t = text(Card.parse(e.card).label, g.body, ink, "card", True)
            c.d.rectangle(
                [x + s - t.width - 7, y + 1, x + s - 2, y + t.height + 2],
                fill=INDEX["card"],
                outline=INDEX["ink"],
            )
            c.paste(t, x + s - t.width - 4, y + 2)


def overlay_actions(state: State, sq: int) -> tuple[list[A.Action], bool]:
    """What the unit on `sq` could do, and whether that is hypothetical (not its side's turn now).

    Off-turn, a clone is given the unit's side with a fresh turn, so a player can plan ahead.
    """
    uid = state.board[sq]
    if uid is None or state.phase != PLAY:
        return [], False
    side = Side.GERMANS if uid[0] == "G" else Side.CANADIANS
    if state.pending is None and state.active is side:
        return state.legal_for(sq), False
    probe = state.clone()
    probe.active = side
    probe.actions_left = 2
    probe.pending = None
    probe.queue = []
    probe.moved = set()
    probe.entered = set()
    probe._legal = None
    return probe.legal_for(sq), True


def _reach(state: State, sq: int) -> tuple[set[int], set[int], list[bool], bool]:
    """The squares the unit on `sq` could move to and attack, its tank moves, and whether that is
    what it could do on its side's next turn rather than now."""
    acts, hypothetical = overlay_actions(state, sq)
    moves: set[int] = set()
    targets: set[int] = set()
    tank_moves: list[bool] = []
    for a in acts:
        if isinstance(a, A.Move):
            moves.add(a.dst)
        elif isinstance(a, A.Attack):
            targets.add(a.target)
            if a.via is not None:
                moves.add(a.via)
        elif isinstance(a, A.TankFire):
            targets.add(a.target)
        elif isinstance(a, A.TankMove):
            tank_moves.append(a.forward)
    return moves, targets, tank_moves, hypothetical


def overlay_words(state: State, name: str) -> list[str]:
    """The overlay in words, under the board."""
    sq = _sq(name)
    if sq is None:
        return [f"Overlay: '{name}' is not a square."]
    uid = state.board[sq]
    if uid is None:
        return [f"Overlay {name}: no unit there."]
    side = Side.GERMANS if uid[0] == "G" else Side.CANADIANS
    moves, targets, tank_moves, hypothetical = _reach(state, sq)
    what = "tank" if uid == TANK_ID else "machine gun" if uid[1] == "M" else "infantry"
    parts = []
    n_moves = len(moves) + len(tank_moves)
    if n_moves:
        parts.append(f"{n_moves} move{'s' if n_moves != 1 else ''} (dots)")
    parts.append(f"{len(targets)} target{'s' if len(targets) != 1 else ''} (rings)")
    if uid[1] == "M":
        parts.append("arc in yellow")
    lines = [f"Overlay: {side.adjective} {what} on {name}", ", ".join(parts) + "."]
    if hypothetical:
        lines.append("(What it could do on its side's next turn.)")
    return lines


def _draw_overlay(c: Canvas, state: State, name: str) -> None:
    """Mark what one unit can reach: dots for moves, rings for targets, a machine gun's arc."""
    sq = _sq(name)
    if sq is None or state.board[sq] is None:
        return
    uid = state.board[sq]
    assert uid is not None
    g = c.g
    s = g.s
    w = max(3, s // 16)
    side = Side.GERMANS if uid[0] == "G" else Side.CANADIANS
    moves, targets, tank_moves, _ = _reach(state, sq)
    if uid[1] == "M":
        for t, _block in MG_LINES[side][sq]:
            c.outline(t, "arc", 3, inset=4)
    if uid == TANK_ID:
        anchor = state.pos[TANK_ID]
        x, y = g.xy(anchor)
        c.box(x + 1, y - s + 1, x + 2 * s - 2, y + s - 2, "gold", w)
        for fwd in tank_moves:
            nxt = anchor + (16 if fwd else -8)
            for q in (nxt, nxt + 1):
                if 0 <= q < 64:
                    c.dot(q, "teal", 0.11)
    else:
        c.outline(sq, "gold", w, inset=1)
    for q in sorted(moves):
        c.dot(q, "teal", 0.11)
    for q in sorted(targets):
        c.ring(q, "attack", 0.3, w)
        cx, cy = g.centre(q)
        r = round(s * 0.4)
        c.d.line([cx - r, cy, cx - r // 2, cy], fill=INDEX["attack"], width=w)
        c.d.line([cx + r // 2, cy, cx + r, cy], fill=INDEX["attack"], width=w)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _plane(state: State, side: Side, name_: str, status: str, size: int) -> Piece:
    """An aircraft's icon and its status in words."""
    p = icon("plane", size + 6, ("G" if side is Side.GERMANS else "C") + status)
    ace = "★" if state.options.fighter_aces and name_ == "A" else ""
    word = {"ok": "ok", "damaged": "damaged", "destroyed": "lost"}[status]
    t = text(f"{name_}{ace} {word}", size, "loss" if status != "ok" else "text", "page")
    return piece((p, 0, (t.height - p.height) // 2), (t, p.width + 2, 0))


def _words(s: str, size: int, fg: str = "text", bold: bool = False) -> Piece:
    return piece((text(s, size, fg, "page", bold), 0, 0))


def _side_rows(state: State, side: Side, col: Column, g: Geo) -> None:
    """A side's row beside its end of the board: its reserve, losses and deck; its aircraft; the
    once-a-game cards. Always `Geo.side_rows` lines, so the board never moves between frames."""
    size = g.body
    ic = round(size * 1.3)
    token = icon("GI" if side is Side.GERMANS else "CI", ic)
    on_turn = state.outcome() is None and (
        (state.pending is not None and state.pending.side is side)
        or (state.pending is None and state.phase == PLAY and state.active is side)
    )
    name = text(side.title.upper(), size, "gold" if on_turn else "text", "page", True)
    head = piece((token, 0, (name.height - ic) // 2), (name, ic + 6, 0))
    reserves = state.reserves[side]
    inf = sum(1 for u in reserves if u[1] == "I")
    tank = " + tank" if TANK_ID in reserves else ""
    first: list[Piece] = [head]
    second: list[Piece] = []
    if state.phase == SETUP and not state.deployed[side]:
        guns = sum(1 for u in reserves if u[1] == "M")
        to_deploy = 16 - guns  # back row 4, second row 4, and the front row's infantry beside the guns
        first.append(_words(f"to deploy: {to_deploy} infantry + {_count(guns, 'machine gun')}", size))
        second.append(_words(f"Reserve: {inf - to_deploy} infantry{tank.replace('+ ', '+ the ')}", size))
    elif state.phase == SETUP:
        first.append(_words(f"reserve {inf} infantry{tank}", size))
        second.append(_words("Deployed; cards are dealt once both sides are", size, "dim"))
    else:
        cas = len(state.casualties[side])
        first.append(_words(f"reserve {inf}{tank} · lost {cas} · deck {len(state.decks[side])}", size))
        second.append(_words("Air", size, "dim"))
        second += [_plane(state, side, n, st, size) for n, st in state.aircraft[side].items()]
        if side is Side.GERMANS:
            second.append(
                _words(
                    "· gas used" if state.gas_used else "· gas ready",
                    size,
                    "dim" if state.gas_used else "text",
                )
            )
        elif TANK_ID in state.pos:
            dmg = state.tank_damage
            second.append(_words(f"· tank damage {dmg}/2", size, "loss" if dmg else "text"))
        elif TANK_ID in state.casualties[side]:
            second.append(_words("· tank destroyed", size, "loss"))
    gap = round(size * 0.5)
    col.flow(first, g.line, gap)
    col.flow(second, g.line, gap)
    if state.options.crosses:
        cross = "Victoria Cross" if side is Side.CANADIANS else "Iron Cross"
        used = state.cross_used[side]
        col.flow(
            [_words(f"{cross}: {'used' if used else 'ready'}", size, "dim" if used else "text")], g.line, gap
        )


def _band(c: Canvas, state: State) -> None:
    """Whose turn and what they must do, in large type across the top: what a player opening the
    board on a phone needs first."""
    g = c.g
    o = state.outcome()
    if o is not None:
        head = "DRAWN GAME" if o.winner is None else f"{Side(o.winner).title.upper()} WIN"
        tail = f"after turn {state.turn_number()}"
    elif state.pending is not None:
        head = f"{state.pending.side.title} decide"
        tail = f"turn {state.turn_number()}"
    elif state.phase == SETUP:
        who = state.current_player()
        head = f"{who.title} to deploy" if who else "Set-up"
        tail = "set-up"
    else:
        head = f"{state.active.title}: {_count(state.actions_left, 'action')} left"
        tail = f"turn {state.turn_number()}"
    x = g.pad
    right = g.width - g.pad
    size = g.big
    words = text(head, size, "gold", "banner", True)
    after = text(tail, g.body, "text", "banner")
    room = right - x - after.width - g.pad
    if words.width > room:  # a long head: the smaller size still reads on a phone
        size = g.body
        words = text(head, size, "gold", "banner", True)
    y = (g.band_h - words.height) // 2
    c.paste(words, x, y)
    c.paste(after, right - after.width, y + words.height - after.height)


def _combat(e: Combat, size: int, width: int) -> list[Piece]:
    """A card contest as what happened, naming the side that acted, and two card faces: 'The
    Canadians attack e5 from e4: 9♣ vs 8♦ Canadians win the fight' (events are told in the present)."""
    who = e.side.title
    if e.kind == "dogfight":  # the defender's answer: the side that took the strafer on
        head = f"The {e.side.other.title} take on {e.side.adjective} {e.attacker} with {e.defender}:"
    elif e.kind == "attack":
        head = f"The {who} attack {e.defender} from {e.attacker}:"
    elif e.kind == "fire":
        head = f"The {who}' machine gun on {e.attacker} fires at {e.defender}:"
    elif e.kind == "tank fire":
        head = f"The {who}' tank fires at {e.defender}:"
    else:
        head = f"The {who}' {e.attacker} strafes {e.defender}:"
    a, d = chip(e.attacker_card, size), chip(e.defender_card, size)
    vs = text("vs", size, "dim", "page")
    dy = (vs.height - a.height) // 2
    pieces = [_words(line, size) for line in _lines(head, size, width)]  # a long head wraps
    pieces.append(piece((a, 0, dy), (vs, a.width + 5, 0), (d, a.width + vs.width + 10, dy)))
    winner = e.winner
    pieces.append(
        _words(
            # "win" alone, in green, read as the game's result
            "a tie" if winner is None else f"{winner.title} win the fight",
            size,
            "tie" if winner is None else "win",
            True,
        )
    )
    from engine.cards import Card

    face_a, face_d = Card.parse(e.attacker_card).rank, Card.parse(e.defender_card).rank
    if e.attacker_value != face_a or e.defender_value != face_d:
        pieces.append(_words(f"(counts {e.attacker_value} vs {e.defender_value})", size, "dim"))
    if e.need > 1:
        if e.result == "tie" and e.attacker_value > e.defender_value:
            pieces.append(_words(f"({e.why}: must win by {e.need})", size, "dim"))
        else:
            pieces.append(_words(f"({e.why}: needs +{e.need})", size, "dim"))
    if e.result == "loss" and e.kind in ("fire", "tank fire"):
        pieces.append(_words("(a firing gun is unharmed)", size, "dim"))
    return pieces


def _lines(words: str, size: int, width: int) -> list[str]:
    """`words` cut between words into lines at most `width` px wide, each drawn as one piece (so
    its spaces are the font's own)."""
    out: list[str] = []
    for w in words.split():
        if out and font(size, False).getlength(f"{out[-1]} {w}") + 2 <= width:  # measured, not drawn
            out[-1] += f" {w}"
        else:
            out.append(w)
    return out


def sentence(s: str) -> str:
    """Clauses as a sentence: a capital first letter unless it starts with notation ('e2-e3')."""
    if s[:1].islower() and not (s[1:2].isdigit() and s[:1] in FILES):
        s = s[:1].upper() + s[1:]
    return s if s.endswith((".", "!", "?", ":")) else s + "."


def _said_sentences(events: Sequence[Event]) -> list[str]:
    """The events that are not card contests as what happened, in the past tense, one sentence
    each: a run of moves as one ("The Germans move e6-e5 and d6-d5."), the rest in their own words
    (a choice names the side that made it)."""
    out: list[str] = []
    moves: list[Moved] = []

    def moved() -> None:
        if moves:
            squares = [m.text() for m in moves]
            listed = squares[0] if len(squares) == 1 else f"{', '.join(squares[:-1])} and {squares[-1]}"
            out.append(sentence(f"the {moves[0].side.title} move {listed}"))
            moves.clear()

    for e in events:
        if not (isinstance(e, Moved) and (not moves or e.side is moves[0].side)):
            moved()
        if isinstance(e, Moved):
            moves.append(e)
        elif t := e.text():
            out.append(sentence(t))
    moved()
    return out


def _said(col: Column, events: Sequence[Event], g: Geo) -> None:
    """What the last action, or the whole stretch one side played, did: its moves and losses as
    sentences in one paragraph, each card contest on a line of its own with both cards. Nothing is
    cut."""
    size = g.body
    run: list[Event] = []

    def flush() -> None:
        if said := _said_sentences(run):
            col.para(" ".join(said), size, "text", gap=g.line - size - 4)
        run.clear()

    for e in events:
        if isinstance(e, Combat):
            flush()
            chip_h = chip(e.attacker_card, size).height
            col.flow(_combat(e, size, col.width), max(g.line, chip_h + 4), round(size * 0.4))
        else:
            run.append(e)
    flush()


def _bottom(state: State, events: Sequence[Event], overlay_lines: list[str], g: Geo, skip: int = 0) -> Column:
    """Below the Canadians' row: the result's reason, the decision awaited, the focus, the last
    action (without its first `skip` events, which the history keeps). Laid out first, so the
    picture can be made as tall as they need."""
    col = Column(PALETTE, g.pad, g.bottom_y, g.width - 2 * g.pad, "page")
    size = g.body
    o = state.outcome()
    if o is not None:
        col.para(o.detail[:1].upper() + o.detail[1:] + ".", size, "text", bold=True)
        col.y += g.pad // 2
    elif state.pending is not None:
        # The question with the words that answer it, in a gold frame.
        top, under = col.y, len(col.ops)
        col.x += g.pad
        col.width -= 2 * g.pad
        col.y += g.pad // 2
        q = state.pending.question(state.legal_actions(), public=True).replace("`", "")
        col.para(q[:1].upper() + q[1:], size, "text", bg="panel_hi")
        col.x -= g.pad
        col.width += 2 * g.pad
        col.rect((col.x, top, col.x + col.width, col.y + g.pad // 2), "panel_hi", "gold", 2, under=under)
        col.y += g.pad
    for i, ln in enumerate(overlay_lines):
        col.para(ln, size, "teal" if i == 0 else "text", bold=i == 0)
    shown = [e for e in events if not isinstance(e, GameOver)]
    if any(e.text() or isinstance(e, Combat) for e in shown[skip:]):  # none left: the message tells it
        col.para("Last:", size, "dim", bold=True)  # the sentences name who did what
        if skip:
            col.para(EARLIER, size, "dim")
        _said(col, shown[skip:], g)
    return col


def draw(
    state: State, events: Iterable[Event] = (), overlay: str | None = None, s: int = SQUARE
) -> Image.Image:
    """The whole picture as a palette image (the replay reuses it for animation frames)."""
    evs = list(events)
    g = geo(s, 3 if state.options.crosses else 2)
    lines = overlay_words(state, overlay) if overlay else []
    n = sum(1 for e in evs if not isinstance(e, GameOver))
    col = fitted_tail(lambda skip: _bottom(state, evs, lines, g, skip), n, max_height(g.width) - g.pad)
    c = Canvas(g, max(g.height, col.y + g.pad))
    _draw_units(c, state)
    _draw_events(c, state, evs)
    if overlay:
        _draw_overlay(c, state, overlay)
    _band(c, state)
    for side, y in ((Side.GERMANS, g.german_y), (Side.CANADIANS, g.canadian_y)):
        rows = Column(PALETTE, g.pad, y, g.width - 2 * g.pad, "page")
        _side_rows(state, side, rows, g)
        rows.draw(c.im)
    col.draw(c.im)
    return c.im


def render_board(
    state: State,
    events: Iterable[Event] = (),
    viewer: Side | None = None,
    overlay: str | None = None,
) -> bytes:
    """Render `state` as PNG bytes, highlighting `events` (the last action's, or a whole turn's)
    and an optional overlay.

    `viewer` is accepted for games with hidden hands; Block Wars hides only the deck order, which
    the picture never shows, so every viewer sees the same image. (~40 KB boards.)
    """
    del viewer
    return encode(draw(state, events, overlay))
