"""The board picture: a pure function of (state, the last action's events, viewer, overlay) -> PNG.

Speed comes from caching what does not change: the background (squares, wire, trenches, labels,
legend) and every square-sized tile (a square's background with a token on it) are built once per
size, already in the shared palette, so a render pastes tiles, draws a few highlight shapes and
encodes. All caches are filled under a lock or idempotently, and only read afterwards: renders can
run in worker threads.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

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
    actor,
    summary,
)
from engine.blockwars.model import Side
from engine.blockwars.squares import FILES, square
from engine.blockwars.state import MG_LINES, PLAY, SETUP, TANK_ID, State, tank_squares
from render.blockwars import sprites
from render.blockwars.theme import INDEX, KEY, text, to_p, wrap
from render.kit import encode

SQUARE = 76  # pixels per square for Discord posts; replays use a smaller one
REPLAY_SQUARE = 52  # a 300-action GIF stays a few MiB at this size


@dataclass(frozen=True)
class Geo:
    """Where everything goes for a given square size."""

    s: int

    @property
    def margin(self) -> int:
        return round(self.s * 0.36)

    @property
    def x0(self) -> int:
        return self.margin

    @property
    def y0(self) -> int:
        return self.margin

    @property
    def strip(self) -> int:
        """The column right of the board naming the zones."""
        return round(self.s * 0.34)

    @property
    def panel_x(self) -> int:
        return self.x0 + 8 * self.s + self.strip + round(self.s * 0.08)

    @property
    def panel_w(self) -> int:
        return round(self.s * 3.95)

    @property
    def width(self) -> int:
        return self.panel_x + self.panel_w + round(self.s * 0.12)

    @property
    def height(self) -> int:
        return 2 * self.margin + 8 * self.s

    def xy(self, sq: int) -> tuple[int, int]:
        """Top-left pixel of a square (rank 8 at the top, as the Germans face the Canadians)."""
        return self.x0 + (sq % 8) * self.s, self.y0 + (7 - sq // 8) * self.s

    def centre(self, sq: int) -> tuple[int, int]:
        x, y = self.xy(sq)
        return x + self.s // 2, y + self.s // 2

    def body(self) -> int:
        """Body text size."""
        return max(11, round(self.s * 0.175))


def square_colour(sq: int) -> str:
    """The key colour of an empty square: zone (German, trench, no man's land...) and shade."""
    rank, file = sq // 8, sq % 8
    zone = ("c", "c", "ct", "n", "n", "gt", "g", "g")[rank]
    return f"{zone}_{'dark' if (rank + file) % 2 == 0 else 'light'}"


# ---------------------------------------------------------------------------- background

_lock = threading.Lock()


@lru_cache(maxsize=4)
def _background_rgb(s: int) -> Image.Image:
    g = Geo(s)
    im = Image.new("RGB", (g.width, g.height), KEY["page"])
    d = ImageDraw.Draw(im)
    for sq in range(64):
        x, y = g.xy(sq)
        d.rectangle([x, y, x + s - 1, y + s - 1], fill=KEY[square_colour(sq)])
    bx1 = g.x0 + 8 * s
    # Trench parapets: sandbags along the no-man's-land edge of each front row.
    bag_h = max(3, round(s * 0.08))
    for y_edge, down in ((g.y0 + 3 * s, -1), (g.y0 + 5 * s, 1)):
        y_in = y_edge + (-bag_h - 1 if down < 0 else 1)
        step = max(8, s // 5)
        for k, x in enumerate(range(g.x0, bx1, step)):
            off = (step // 2) if k % 2 else 0
            d.rounded_rectangle(
                [x + 1 - off // 4, y_in, x + step - 2, y_in + bag_h],
                radius=bag_h // 2,
                fill=KEY["sandbag"],
                outline=KEY["wire"],
            )
    # Barbed wire: coils just on the no-man's-land side of each trench's front edge.
    coil = max(4, round(s * 0.11))
    for y_edge, into in ((g.y0 + 3 * s, 1), (g.y0 + 5 * s, -1)):
        yc = y_edge + into * (coil // 2 + 2)
        d.line([g.x0, yc, bx1 - 1, yc], fill=KEY["wire"], width=max(1, s // 50))
        for x in range(g.x0 + coil // 2, bx1, coil):
            d.ellipse(
                [x - coil // 2, yc - coil // 2, x + coil // 2, yc + coil // 2],
                outline=KEY["wire"],
                width=max(1, s // 60),
            )
        for x in range(g.x0 + coil, bx1, coil * 2):
            d.line([x - 3, yc - coil // 2 - 2, x + 3, yc + coil // 2 + 2], fill=KEY["wire"], width=1)
            d.line([x + 3, yc - coil // 2 - 2, x - 3, yc + coil // 2 + 2], fill=KEY["wire"], width=1)
    d.rectangle([g.x0 - 2, g.y0 - 2, bx1 + 1, g.y0 + 8 * s + 1], outline=KEY["ink"], width=2)
    # File and rank labels.
    size = max(10, round(s * 0.2))
    from render.blockwars.theme import font

    f = font(size, True)
    for i, letter in enumerate(FILES):
        cx = g.x0 + i * s + s // 2
        d.text((cx, g.y0 // 2), letter, font=f, fill=KEY["label"], anchor="mm")
        d.text((cx, g.y0 + 8 * s + g.margin // 2), letter, font=f, fill=KEY["label"], anchor="mm")
    for r in range(8):
        cy = g.y0 + (7 - r) * s + s // 2
        d.text((g.x0 // 2, cy), str(r + 1), font=f, fill=KEY["label"], anchor="mm")
    # Zone names, written up the strip right of the board, with a bar for each zone's extent.
    zones = (
        (0, 2, "GERMANS (G)", "german_hi"),
        (2, 3, "TRENCH", "gt_dark"),
        (3, 5, "NO MAN'S LAND", "n_dark"),
        (5, 6, "TRENCH", "ct_dark"),
        (6, 8, "CANADIANS (C)", "canadian"),
    )
    zf = font(max(9, round(s * 0.15)), True)
    for top, bottom, label, colour in zones:
        y_a, y_b = g.y0 + top * s + 4, g.y0 + bottom * s - 4
        sx = bx1 + 4
        d.rectangle([sx, y_a, sx + 3, y_b], fill=KEY[colour])
        w = int(zf.getlength(label)) + 4
        t = Image.new("RGB", (w, g.strip - 8), KEY["page"])
        ImageDraw.Draw(t).text((w // 2, (g.strip - 8) // 2), label, font=zf, fill=KEY["label"], anchor="mm")
        t = t.rotate(90, expand=True)
        im.paste(t, (sx + 6, (y_a + y_b) // 2 - t.height // 2))
    # Panel card and the legend along its bottom.
    d.rounded_rectangle(
        [g.panel_x, g.y0 - 2, g.panel_x + g.panel_w, g.height - g.margin + 2],
        radius=max(4, s // 10),
        fill=KEY["panel"],
    )
    return im


def _legend_top(g: Geo) -> int:
    """Where the legend starts: the panel's live content must stay above it."""
    icon = round(g.s * 0.42)
    return g.height - g.margin - 3 * (icon + 3) - icon


def _legend(c: Canvas) -> None:
    """The key to the pieces along the panel's bottom, drawn when the panel's content leaves room."""
    g = c.g
    s = g.s
    t = max(10, round(s * 0.15))
    size = round(s * 0.42)
    rows = (
        ("GI", "German infantry (octagon, G)"),
        ("CI", "Canadian infantry (round, C)"),
        ("GM", "Machine gun: wedge = arc"),
    )
    y = _legend_top(g)
    x = g.panel_x + round(s * 0.14)
    c.d.line([x, y - 6, g.panel_x + g.panel_w - round(s * 0.14), y - 6], fill=INDEX["panel_hi"], width=1)
    for kind, label in rows:
        c.paste(icon(kind, size), x, y)
        words = text(label, t, "dim")
        c.paste(words, x + size + 6, y + (size - words.height) // 2)
        y += size + 3
    c.paste(text("wire: win by 2 to cross it", t, "dim"), x, y + 4)


def background(s: int) -> Image.Image:
    """The background in the shared palette; copy it, never draw on it."""
    return _background_p(s)


@lru_cache(maxsize=4)
def _background_p(s: int) -> Image.Image:
    return to_p(_background_rgb(s))


_tiles: dict[tuple[int, int, str], Image.Image] = {}


def tile(s: int, sq: int, kind: str) -> Image.Image:
    """A square (or the tank's 2x2 block) with its token, on that square's own background."""
    key = (s, sq, kind)
    t = _tiles.get(key)
    if t is None:
        g = Geo(s)
        x, y = g.xy(sq)
        if kind.startswith("CT"):
            spr = sprites.tank(s, int(kind[2:]))
            y -= s  # the anchor is the lower-left square; the block extends one rank up
        else:
            spr = sprites.token(kind, s)
        base = _background_rgb(s).crop((x, y, x + spr.width, y + spr.height)).convert("RGBA")
        base.alpha_composite(spr)
        t = to_p(base)
        with _lock:
            _tiles[key] = t
    return t


_icons: dict[tuple[str, int, str, str], Image.Image] = {}


def icon(kind: str, size: int, arg: str = "", bg: str = "panel") -> Image.Image:
    """A small sprite (token, plane, card) flattened onto a panel colour, in the palette."""
    key = (kind, size, arg, bg)
    t = _icons.get(key)
    if t is None:
        if kind == "plane":
            spr = sprites.plane(size, arg[1:], arg[0] == "G")
        elif kind == "card":
            spr = sprites.card(arg, size)
        else:
            spr = sprites.token(kind, size)
        base = Image.new("RGBA", spr.size, KEY[bg])
        base.alpha_composite(spr)
        t = to_p(base)
        with _lock:
            _icons[key] = t
    return t


# ---------------------------------------------------------------------------- drawing helpers


class Canvas:
    """The picture being drawn: palette image, geometry and shortcuts for the highlight shapes."""

    def __init__(self, s: int) -> None:
        self.g = Geo(s)
        self.im = background(s).copy()
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
    w = max(4, s // 13)
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
            t = text(Card.parse(e.card).label, max(10, round(s * 0.17)), ink, "card", True)
            c.d.rectangle(
                [x + s - t.width - 8, y + 2, x + s - 3, y + t.height + 5],
                fill=INDEX["card"],
                outline=INDEX["ink"],
            )
            c.paste(t, x + s - t.width - 5, y + 4)


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


def _draw_overlay(c: Canvas, state: State, name: str) -> list[str]:
    """Mark what one unit can reach; return panel lines describing it."""
    try:
        sq = square(name)
    except ValueError:
        return [f"Overlay: '{name}' is not a square."]
    uid = state.board[sq]
    if uid is None:
        return [f"Overlay {name}: no unit there."]
    g = c.g
    s = g.s
    w = max(3, s // 16)
    side = Side.GERMANS if uid[0] == "G" else Side.CANADIANS
    acts, hypothetical = overlay_actions(state, sq)
    if uid[1] == "M":
        for t, _block in MG_LINES[side][sq]:
            c.outline(t, "arc", 3, inset=4)
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
    what = "tank" if uid == TANK_ID else "machine gun" if uid[1] == "M" else "infantry"
    lines = [f"Overlay: {side.adjective} {what} on {name}"]
    parts = []
    n_moves = len(moves) + len(tank_moves)
    if n_moves:
        parts.append(f"{n_moves} move{'s' if n_moves != 1 else ''} (dots)")
    parts.append(f"{len(targets)} target{'s' if len(targets) != 1 else ''} (rings)")
    if uid[1] == "M":
        parts.append("arc in yellow")
    lines.append(", ".join(parts))
    if hypothetical:
        lines.append("(what it could do on its side's next turn)")
    return lines


def _lines(
    c: Canvas,
    x: int,
    y: int,
    words: str,
    size: int,
    width: int,
    fg: str = "text",
    bg: str = "panel",
    bold: bool = False,
    gap: int = 3,
) -> int:
    """`words` wrapped to `width` pixels, so nothing runs off the panel; returns the y below them."""
    for ln in wrap(words, size, width, bold):
        y += c.label(x, y, ln, size, fg, bg, bold) + gap
    return y


# A piece of a flowing line: images with their offsets, and its width.
Piece = tuple[tuple[tuple[Image.Image, int, int], ...], int]


def _piece(*parts: tuple[Image.Image, int, int]) -> Piece:
    return parts, max(dx + im.width for im, dx, _ in parts)


def _flow(c: Canvas, pieces: Sequence[Piece], x: int, y: int, width: int, line: int, gap: int) -> int:
    """Pieces left to right, starting a new line where the next would not fit; returns the y below
    the last line."""
    px = x
    for parts, w in pieces:
        if px > x and px + w > x + width:
            px, y = x, y + line
        for im, dx, dy in parts:
            c.paste(im, px + dx, y + dy)
        px += w + gap
    return y + line


def _plane(state: State, side: Side, name_: str, status: str, size: int) -> Piece:
    """An aircraft's icon and its status in words."""
    p = icon("plane", size + 8, ("G" if side is Side.GERMANS else "C") + status)
    ace = "★" if state.options.fighter_aces and name_ == "A" else ""
    word = {"ok": "ok", "damaged": "dmg", "destroyed": "lost"}[status]
    t = text(f"{name_}{ace} {word}", size, "loss" if status != "ok" else "text")
    return _piece((p, 0, -4), (t, p.width + 3, 0))


def _side_block(c: Canvas, state: State, side: Side, x: int, y: int, width: int) -> int:
    g = c.g
    s = g.s
    size = g.body()
    line = size + 5
    ic = round(s * 0.34)
    c.paste(icon("GI" if side is Side.GERMANS else "CI", ic), x, y)
    c.label(x + ic + 6, y + (ic - size - 4) // 2, side.title.upper(), size + 1, "text", bold=True)
    # One tag: the decision box above names the decision, the tag whose it is.
    tag_word = ""
    if state.pending is not None and state.pending.side is side:
        tag_word = "DECIDES"
    elif state.phase == PLAY and state.active is side:
        tag_word = "TURN"
    if tag_word:
        tag = text(tag_word, size - 1, "ink", "gold", True)
        tx = x + width - 6 - tag.width
        c.d.rectangle([tx - 4, y + 2, tx + tag.width + 3, y + tag.height + 3], fill=INDEX["gold"])
        c.paste(tag, tx, y + 3)
    y += ic + 4
    reserves = state.reserves[side]
    inf = sum(1 for u in reserves if u[1] == "I")
    tank = TANK_ID in reserves
    if state.phase == SETUP and not state.deployed[side]:
        guns = sum(1 for u in reserves if u[1] == "M")
        to_deploy = 16 - guns  # back row 4, second row 4, and the front row's infantry beside the guns
        y = _lines(c, x, y, f"To deploy: {to_deploy} infantry + {_count(guns, 'machine gun')}", size, width)
        y = _lines(
            c, x, y, f"Reserve: {inf - to_deploy} infantry{' + the tank' if tank else ''}", size, width
        )
    else:
        y = _lines(c, x, y, f"Reserve: {inf} infantry{' + the tank' if tank else ''}", size, width)
        if state.phase == SETUP:
            y = _lines(c, x, y, "Cards are dealt once both sides deploy", size, width, "dim")
        else:
            cas = len(state.casualties[side])
            deck = len(state.decks[side])
            y = _lines(c, x, y, f"Casualties: {cas} · Deck: {_count(deck, 'card')}", size, width)
    # Aircraft, with status in words as well as the icon.
    pieces = [_piece((text("Air:", size, "dim"), 0, 0))]
    pieces += [_plane(state, side, n, st, size) for n, st in state.aircraft[side].items()]
    y = _flow(c, pieces, x, y, width, line + 2, round(s * 0.12))
    extras = []
    if side is Side.GERMANS:
        extras.append(("Gas: used" if state.gas_used else "Gas: ready", "dim" if state.gas_used else "text"))
    if state.options.crosses:
        cross = "Victoria Cross" if side is Side.CANADIANS else "Iron Cross"
        used = state.cross_used[side]
        extras.append((f"{cross}: {'used' if used else 'ready'}", "dim" if used else "text"))
    if side is Side.CANADIANS and TANK_ID in state.pos:
        extras.append((f"Tank damage: {state.tank_damage} of 2", "loss" if state.tank_damage else "text"))
    elif side is Side.CANADIANS and TANK_ID in state.casualties[side]:
        extras.append(("Tank: destroyed", "loss"))
    if extras:
        pieces = [_piece((text(w, size, colour), 0, 0)) for w, colour in extras]
        y = _flow(c, pieces, x, y, width, line, round(s * 0.18))
    return y


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _combat_row(c: Canvas, e: Combat, x: int, y: int, width: int) -> int:
    """Two card faces and who won, e.g. 9♣ vs 8♦ · Tie · the wire: must win by 2."""
    g = c.g
    size = g.body()
    cw = round(g.s * 0.42)
    if e.kind == "dogfight":
        head = f"{e.side.adjective} {e.attacker} vs {e.side.other.adjective} {e.defender}"
    else:
        verb = {"attack": "attacks", "fire": "fires at", "tank fire": "fires at", "strafe": "strafes"}[e.kind]
        head = f"{'the tank' if e.kind == 'tank fire' else e.attacker} {verb} {e.defender}"
    y = _lines(c, x, y, head, size, width, "dim", gap=3) + 3
    a = icon("card", cw, e.attacker_card)
    d = icon("card", cw, e.defender_card)
    c.paste(a, x, y)
    vs = text("vs", size, "dim")
    c.paste(vs, x + cw + 5, y + a.height // 2 - vs.height // 2)
    c.paste(d, x + cw + 10 + vs.width, y)
    tx = x + 2 * cw + 20 + vs.width
    room = width - (tx - x)
    winner = e.winner
    verdict = "Tie" if winner is None else f"{winner.title} win"
    ny = _lines(c, tx, y + 2, verdict, size, room, "tie" if winner is None else "win", bold=True, gap=4)
    notes = []
    from engine.cards import Card

    face_a, face_d = Card.parse(e.attacker_card).rank, Card.parse(e.defender_card).rank
    if e.attacker_value != face_a or e.defender_value != face_d:
        notes.append(f"counts {e.attacker_value} vs {e.defender_value}")
    if e.need > 1:
        if e.result == "tie" and e.attacker_value > e.defender_value:
            notes.append(f"{e.why}: must win by {e.need}")
        else:
            notes.append(f"{e.why}: needs +{e.need}")
    if e.result == "loss" and e.kind in ("fire", "tank fire"):
        notes.append("a firing gun is unharmed")
    for n in notes:
        ny = _lines(c, tx, ny, n, size - 1, room, gap=3)
    return max(y + a.height, ny) + 6


def _result(c: Canvas, state: State, x: int, y: int, width: int) -> int:
    """The result, once, in a banner at the top of the panel: on the board it would hide units."""
    o = state.outcome()
    assert o is not None
    g = c.g
    size = g.body()
    big = max(size + 6, round(g.s * 0.36))
    head = "DRAWN GAME" if o.winner is None else f"{Side(o.winner).title.upper()} WIN"
    detail = o.detail[:1].upper() + o.detail[1:] + "."
    inner = width - 12
    heads = wrap(head, big, inner, True)
    details = wrap(detail, size, inner)
    h = len(heads) * (big + 8) + len(details) * (size + 5) + 14
    c.d.rectangle(
        [x - 4, y, x + width + 2, y + h], fill=INDEX["banner"], outline=INDEX["gold"], width=max(2, g.s // 25)
    )
    yy = y + 7
    for ln in heads:
        yy += c.label(x + 4, yy, ln, big, "gold", "banner", True) + 6
    for ln in details:
        yy += c.label(x + 4, yy, ln, size, "text", "banner") + 3
    return y + h + 6


def _panel(c: Canvas, state: State, events: Sequence[Event], overlay_lines: list[str]) -> None:
    g = c.g
    s = g.s
    size = g.body()
    pad = round(s * 0.16)
    x = g.panel_x + pad
    width = g.panel_w - 2 * pad
    y = g.y0 + pad // 2
    title = f"BLOCK WARS · turn {state.turn_number()}" if state.phase != SETUP else "BLOCK WARS · set-up"
    y = _lines(c, x, y, title, size + 3, width, bold=True, gap=4)
    # The result, or the decision the game waits for, or whose turn it is.
    if state.outcome() is not None:
        y = _result(c, state, x, y, width)
    elif state.pending is not None:
        p = state.pending
        heads = wrap(f"DECISION: {p.side.title} must choose", size, width - 12, True)
        lines = wrap(p.prompt(state.legal_actions()).replace("`", ""), size, width - 12)
        h = (size + 8) * (len(heads) + len(lines)) + 8
        c.d.rectangle(
            [x - 4, y, x + width + 2, y + h], fill=INDEX["panel_hi"], outline=INDEX["gold"], width=2
        )
        yy = y + 5
        for ln in heads:
            yy += c.label(x + 4, yy, ln, size, "gold", "panel_hi", True) + 5
        for ln in lines:
            yy += c.label(x + 4, yy, ln, size, "text", "panel_hi") + 5
        y += h + 6
    elif state.phase == SETUP:
        deploying = state.current_player()
        who = deploying.title if deploying else "?"
        y = _lines(c, x, y, f"{who} to deploy", size + 1, width, "gold", bold=True, gap=4)
    else:
        n = state.actions_left
        left = f"{state.active.title}: {_count(n, 'action')} left"
        y = _lines(c, x, y, left, size + 2, width, "gold", bold=True, gap=6)
    y += 4
    for side in (Side.GERMANS, Side.CANADIANS):
        c.d.line([x, y, x + width, y], fill=INDEX["panel_hi"], width=1)
        y = _side_block(c, state, side, x, y + 5, width) + 2
    # The last action (its result is already in the banner above), then the overlay's words, each
    # line only where it fits; the key to the pieces last, if there is room left for it.
    space = _Space(c, y)
    shown = [e for e in events if not isinstance(e, GameOver)]
    if shown and space.fits(2 * (size + 4) + 5):
        c.d.line([x, space.y, x + width, space.y], fill=INDEX["panel_hi"], width=1)
        space.y += 5
        acted = actor(shown)
        head = f"LAST ACTION · {acted.title}" if acted else "LAST ACTION"
        space.y = _lines(c, x, space.y, head, size, width, "dim", bold=True, gap=4)
        said = summary(shown)
        said_lines = wrap(said, size, width - 2 * size) if said else ("(turn ended)",)  # room for " …"
        for i, ln in enumerate(said_lines[:4]):
            more = i + 1 < len(said_lines) and (i == 3 or not space.fits(2 * (size + 3)))
            space.y += c.label(x, space.y, f"{ln} …" if more else ln, size, "text") + 3
            if more:
                break
        space.y += 3
        row_h = 2 * (size + 3) + 6 + round(s * 0.42 * 1.5)  # label, card faces, gap
        for e in shown:
            if isinstance(e, Combat) and space.fits(row_h):
                space.y = _combat_row(c, e, x, space.y, width)
    if overlay_lines:
        space.y = max(space.y, g.height - g.margin - round(s * 2.25) - (size + 5) * len(overlay_lines))
        for i, ln in enumerate(overlay_lines):
            if space.fits(size + 4):
                space.y = _lines(c, x, space.y, ln, size, width, "teal" if i == 0 else "text", bold=i == 0)
    if space.y <= _legend_top(g) - 8:
        _legend(c)


class _Space:
    """The panel's room below `y`, down to the bottom margin."""

    def __init__(self, c: Canvas, y: int) -> None:
        self.c, self.y = c, y

    def fits(self, h: int) -> bool:
        g = self.c.g
        return self.y + h <= g.height - g.margin


def draw(
    state: State, events: Iterable[Event] = (), overlay: str | None = None, s: int = SQUARE
) -> Image.Image:
    """The whole picture as a palette image (the replay reuses it for animation frames)."""
    evs = list(events)
    c = Canvas(s)
    _draw_units(c, state)
    _draw_events(c, state, evs)
    lines = _draw_overlay(c, state, overlay) if overlay else []
    _panel(c, state, evs, lines)
    return c.im


def render_board(
    state: State,
    events: Iterable[Event] = (),
    viewer: Side | None = None,
    overlay: str | None = None,
) -> bytes:
    """Render `state` as PNG bytes, highlighting `events` (the last action's) and an optional overlay.

    `viewer` is accepted for games with hidden hands; Block Wars hides only the deck order, which
    the picture never shows, so every viewer sees the same image. (~45 KB boards.)
    """
    del viewer
    return encode(draw(state, events, overlay))
