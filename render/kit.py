"""What every game's pictures share: the shipped fonts, word wrap, a fixed-palette toolkit and encoding.

Boards are fastest drawn in palette ("P") mode with one fixed 256-colour palette per game: a render
is then mostly pasting cached tiles, and the PNG encoder has a third of the bytes to squeeze. A game
names its key colours (they get exact palette slots, so direct drawing and pixel probes can use
them) and may add a sample sheet of the blends its anti-aliased sprites make; `Palette` does the
rest, including cached text tiles.
"""

from __future__ import annotations

import io
import math
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).parent / "fonts"
RGB = tuple[int, int, int]
PNG_COMPRESS = 1  # zlib level 1: small enough boards, encoding close to a blank canvas
# The last palette slot is a colour no drawing uses: animations mark unchanged pixels with it.
SPARE = 255
SPARE_RGB = (1, 255, 254)
# A board is at most this many times as tall as it is wide, so that on a phone (400 CSS px wide) it
# fits about one screen: its record of the last turn gives way first (`Column.tail`).
MAX_RATIO = 1.6


def max_height(width: int) -> int:
    """The tallest a board `width` pixels wide may be (`MAX_RATIO`)."""
    return int(width * MAX_RATIO)


# The font sizes drawn while a board is measured (`measuring`); None when nobody measures.
_drawn: ContextVar[list[float] | None] = ContextVar("drawn_font_sizes", default=None)


def font(size: int, bold: bool = False, scale: float = 1.0) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans, so every machine draws the same picture.

    `scale` is how much the picture this font draws on is shrunk before it reaches the board (a
    sprite drawn at 4x for smooth edges passes 1/4): the size a player sees is size x scale, and
    that is what `measuring` records. Every font of a board comes from here, which is what makes
    the phone figure (`bench/render.py`, the conformance suite) a measurement."""
    drawn = _drawn.get()
    if drawn is not None:
        drawn.append(size * scale)
    return _font(size, bold)


@lru_cache(maxsize=64)
def _font(size: int, bold: bool) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def _clear_render_caches() -> None:
    """Empty every module-level cache of the render packages (and the palettes' text tiles), so
    the next picture draws all of its text afresh rather than pasting it from an earlier one."""
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "render" or name.startswith("render.")):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, Palette):
                value.forget_text()
            elif callable(getattr(value, "cache_clear", None)) and value is not _font:
                value.cache_clear()


@contextmanager
def measuring() -> Iterator[list[float]]:
    """Record the font sizes (in the picture's pixels) of everything drawn inside the block.

    Caches are emptied first, so text a board pastes from a tile drawn for an earlier board is
    drawn, and recorded, again. For benchmarks and tests: it makes the next renders slow."""
    _clear_render_caches()
    sizes: list[float] = []
    token = _drawn.set(sizes)
    try:
        yield sizes
    finally:
        _drawn.reset(token)


def phone_px(image_width: int, css: float = 12, shown_width: int = 400) -> int:
    """The smallest font size, in the picture's pixels, that is `css` CSS pixels tall when the
    picture is shown `shown_width` CSS pixels wide: a board's body text on a phone."""
    return math.ceil(css * image_width / shown_width - 1e-9)


def css_px_at(sizes: Sequence[float], image_width: int, shown_width: int = 400) -> float:
    """The smallest of `sizes` in CSS pixels when an image `image_width` pixels wide is shown
    `shown_width` CSS pixels wide (a phone shows Discord's images about 400 wide)."""
    if not sizes:
        return float("inf")
    return min(sizes) * shown_width / image_width


@lru_cache(maxsize=4096)
def _first_line(s: str, size: int, width: int, bold: bool) -> tuple[str, str]:
    """The words of `s` that fit on one line `width` pixels wide (one at least), and the rest."""
    words = s.split()
    f = _font(size, bold)
    n = 1
    while n < len(words) and f.getlength(" ".join(words[: n + 1])) <= width:
        n += 1
    return " ".join(words[:n]), " ".join(words[n:])


@lru_cache(maxsize=2048)
def wrap(s: str, size: int, width: int, bold: bool = False) -> tuple[str, ...]:
    """Greedy word wrap to a pixel width."""
    f = _font(size, bold)
    lines: list[str] = []
    cur = ""
    for word in s.split():
        trial = f"{cur} {word}" if cur else word
        if cur and f.getlength(trial) > width:
            lines.append(cur)
            cur = word
        else:
            cur = trial
    if cur:
        lines.append(cur)
    return tuple(lines)


def encode(im: Image.Image) -> bytes:
    """PNG bytes with the project's settings (zlib level PNG_COMPRESS)."""
    buf = io.BytesIO()
    im.save(buf, "PNG", compress_level=PNG_COMPRESS)
    return buf.getvalue()


class Palette:
    """One game's fixed palette: its key colours first, then blends sampled from its pictures."""

    def __init__(self, key: Mapping[str, RGB], samples: Callable[[], Image.Image] | None = None) -> None:
        if len(key) > 200:
            raise ValueError("keep the key colours under 200: the rest of the palette holds the blends")
        self.key = dict(key)
        self.index: dict[str, int] = {name: i for i, name in enumerate(self.key)}
        self._samples = samples
        self._lock = threading.Lock()
        self._image: Image.Image | None = None
        self._text: dict[tuple[str, int, bool, str, str], Image.Image] = {}

    def _sheet(self) -> Image.Image:
        """A picture holding the blends anti-aliasing makes: every ordered pair of key colours in
        four steps, then the game's own samples."""
        keys = list(self.key.values())
        extra = self._samples() if self._samples else None
        height = len(keys) * 24 + (extra.height if extra else 0)
        sheet = Image.new("RGB", (max(len(keys) * 24, extra.width if extra else 0), height), keys[0])
        d = ImageDraw.Draw(sheet)
        for i, bg in enumerate(keys):
            for j, fg in enumerate(keys):
                for k in range(4):
                    t = (k + 1) / 5
                    c = tuple(round(bg[n] * (1 - t) + fg[n] * t) for n in range(3))
                    d.rectangle([j * 24 + k * 6, i * 24, j * 24 + k * 6 + 5, i * 24 + 23], fill=c)
        if extra is not None:
            sheet.paste(extra.convert("RGB"), (0, len(keys) * 24))
        return sheet

    def image(self) -> Image.Image:
        """The palette as a 1x1 "P" image (built once, under a lock, then only read)."""
        if self._image is None:
            with self._lock:
                if self._image is None:
                    keys = [c for rgb in self.key.values() for c in rgb]
                    free = 255 - len(self.key)
                    unseen = _drawn.set(None)  # the sample sheet is never shown: not measured
                    try:
                        sheet = self._sheet()
                    finally:
                        _drawn.reset(unseen)
                    rest = sheet.quantize(free, method=Image.Quantize.MEDIANCUT)
                    flat = keys + (rest.getpalette() or [])[: free * 3]
                    flat += [0] * (765 - len(flat)) + list(SPARE_RGB)
                    pal = Image.new("P", (1, 1))
                    pal.putpalette(flat)
                    self._image = pal
        return self._image

    def to_p(self, im: Image.Image) -> Image.Image:
        """Map an RGB picture onto the palette (no dithering: flat colours stay exact)."""
        pal = self.image()
        tile = im.convert("RGB").quantize(palette=pal, dither=Image.Dither.NONE)
        # Pillow gives each picture its own copy of the palette (3 KB of Python objects): the
        # painters cache thousands of tiles, so they share the palette picture's (about 12 MB less
        # per painter after a busy half-minute); its colours are the same and nobody changes them.
        tile.palette = pal.palette
        return tile

    def text(self, s: str, size: int, fg: str, bg: str, bold: bool = False) -> Image.Image:
        """A line of anti-aliased text as a palette tile, cached (a board repeats most of its words)."""
        key = (s, size, bold, fg, bg)
        tile = self._text.get(key)
        if tile is None or _drawn.get() is not None:
            f = font(size, bold)
            left, _top, right, _bottom = f.getbbox(s or " ")
            asc, desc = f.getmetrics()
            im = Image.new("RGB", (max(1, int(right - min(0, left)) + 1), asc + desc), self.key[bg])
            ImageDraw.Draw(im).text((-min(0, left), 0), s, font=f, fill=self.key[fg])
            tile = self.to_p(im)
            if len(self._text) > 4000:  # bounded: a long-running bot sees endless prompts
                self._text.clear()
            self._text[key] = tile
        return tile

    def forget_text(self) -> None:
        """Drop the cached text tiles (measuring draws every word afresh)."""
        self._text.clear()


# A piece of a flowing line: images with their offsets, and its width.
Piece = tuple[tuple[tuple[Image.Image, int, int], ...], int]


def piece(*parts: tuple[Image.Image, int, int]) -> Piece:
    """Images that stay together on a line (an icon and its words), with their offsets."""
    return parts, max(dx + im.width for im, dx, _ in parts)


class Column:
    """Words and tiles laid out down a column of a given width, drawn once the picture's height is
    known: a board grows downwards to say everything its last action did, rather than cutting the
    words off with "…". Text comes from the palette's cached tiles; nothing is clipped."""

    def __init__(self, palette: Palette, x: int, y: int, width: int, bg: str) -> None:
        self.palette, self.x, self.y, self.width, self.bg = palette, x, y, width, bg
        self.beside_w, self.beside_until = 0, 0
        # What to draw, in order: a tile at (x, y), or a rectangle (box, fill, outline, width).
        self.ops: list[
            tuple[Image.Image, int, int] | tuple[tuple[int, int, int, int], str | None, str | None, int]
        ] = []

    def tile(self, s: str, size: int, fg: str, bold: bool = False, bg: str | None = None) -> Image.Image:
        return self.palette.text(s, size, fg, bg or self.bg, bold)

    def paste(self, im: Image.Image, x: int, y: int) -> None:
        self.ops.append((im, x, y))

    def rect(
        self,
        box: tuple[int, int, int, int],
        fill: str | None,
        outline: str | None = None,
        width: int = 1,
        under: int | None = None,
    ) -> None:
        """A rectangle; `under` = len(self.ops) taken earlier draws it beneath what came since."""
        self.ops.insert(len(self.ops) if under is None else under, (box, fill, outline, width))

    def para(
        self,
        s: str,
        size: int,
        fg: str,
        bold: bool = False,
        indent: int = 0,
        gap: int = 2,
        bg: str | None = None,
    ) -> None:
        """`s` wrapped to the column's width (beside a picture placed with `beside`, to the room
        left of it), every word kept."""
        rest = s
        while rest:
            left = indent + (self.beside_w if self.y < self.beside_until else 0)
            line, rest = _first_line(rest, size, self.width - left, bold)
            t = self.tile(line, size, fg, bold, bg)
            self.paste(t, self.x + left, self.y)
            self.y += t.height + gap

    def tail(
        self,
        texts: Sequence[str],
        size: int,
        fg: str,
        until: int,
        note_fg: str | None = None,
        heading: str = "",
        gap: int = 2,
    ) -> int:
        """`heading` (bold) and the last of `texts` that fit above y = `until`, each wrapped as
        `para` does; when some do not fit, a line after the heading says the history has the
        earlier ones, so a board stays phone-sized however much a turn did (the message above it
        tells the turn); when none fits, nothing is drawn. Returns how many were left out."""
        asc, desc = _font(size, False).getmetrics()
        line_h = asc + desc + gap
        heights = [len(wrap(t, size, self.width)) * line_h for t in texts]
        head_h = len(wrap(heading, size, self.width, True)) * line_h if heading else 0
        kept = len(texts)
        if self.y + head_h + sum(heights) > until:
            room = until - self.y - head_h - line_h  # the note takes a line
            kept = used = 0
            for h in reversed(heights):
                if used + h > room:
                    break
                kept += 1
                used += h
        if not kept:
            return len(texts)
        if heading:
            self.para(heading, size, note_fg or fg, bold=True, gap=gap)
        if kept < len(texts):
            left = len(texts) - kept
            self.para(f"… {left} earlier: see the history.", size, note_fg or fg, gap=gap)
        for t in texts[len(texts) - kept :]:
            self.para(t, size, fg, gap=gap)
        return len(texts) - kept

    def beside(self, width: int, until: int) -> None:
        """Leave `width` pixels on the left free down to y = `until` (a picture sits there)."""
        self.beside_w, self.beside_until = width, until

    def flow(self, pieces: Sequence[Piece], line: int, gap: int, indent: int = 0) -> None:
        """Pieces left to right, a new line where the next would not fit."""
        px = self.x + indent
        for parts, w in pieces:
            if px > self.x + indent and px + w > self.x + self.width:
                px, self.y = self.x + indent, self.y + line
            for im, dx, dy in parts:
                self.paste(im, px + dx, self.y + dy)
            px += w + gap
        self.y += line

    def draw(self, im: Image.Image) -> None:
        """Everything laid out, onto a palette picture tall enough for it (see `self.y`)."""
        d = ImageDraw.Draw(im)
        index = self.palette.index
        im.load()
        core = im.im  # a board pastes dozens of tiles: skip the Python wrapper's checks
        for op in self.ops:
            if len(op) == 3:
                tile, x, y = op
                core.paste(tile.im, (x, y, x + tile.width, y + tile.height))
            else:
                box, fill, outline, width = op
                d.rectangle(
                    box,
                    fill=None if fill is None else index[fill],
                    outline=None if outline is None else index[outline],
                    width=width,
                )


EARLIER = "Earlier steps: see the history."  # above what is left of a board's record of a turn, cut short


def fitted_tail(build: Callable[[int], Column], n: int, until: int) -> Column:
    """The words under a board with as few of its `n` records of the last turn left out (the
    earliest first) as keep their bottom at or above y = `until`: `build(skip)` lays them out
    without the first `skip` (and says so, with `EARLIER`). All left out if even that is too tall."""
    col = build(0)
    if col.y <= until or n == 0:
        return col
    lo, hi = 1, n
    while lo < hi:
        mid = (lo + hi) // 2
        if build(mid).y <= until:
            hi = mid
        else:
            lo = mid + 1
    return build(lo)


def grown(im: Image.Image, height: int) -> Image.Image:
    """A copy of `im` extended downwards to `height` with the colour of its bottom-left pixel (the
    page, as the palette mapped it: text tiles on the page map alike, so no seam shows)."""
    if im.height >= height:
        return im.copy()
    page = im.getpixel((0, im.height - 1))
    out = Image.new("P", (im.width, height), page)
    out.putpalette(im.getpalette() or [])
    out.paste(im, (0, 0))
    return out


def animate(frames: Sequence[Image.Image], durations: Sequence[int], fmt: str = "gif") -> bytes:
    """Frames as a looping animation: a GIF (palette frames sharing one palette compress best, the
    SPARE index marking unchanged pixels) or an APNG with fmt="png"."""
    if not frames:
        raise ValueError("an animation needs at least one frame")
    buf = io.BytesIO()
    first, rest = frames[0], list(frames[1:])
    if fmt == "gif":
        shared = first.mode == "P" and all(f.mode == "P" for f in rest)
        extra = {"transparency": SPARE} if shared else {}
        first.save(buf, "GIF", save_all=True, append_images=rest, duration=list(durations), loop=0,
                   optimize=True, disposal=1, **extra)  # fmt: skip
    elif fmt in ("png", "apng"):
        first.save(buf, "PNG", save_all=True, append_images=rest, duration=list(durations), loop=0,
                   compress_level=3, disposal=0, blend=0)  # fmt: skip
    else:
        raise ValueError(f"unknown animation format {fmt!r}: use 'gif' or 'png'")
    return buf.getvalue()


__all__ = [
    "EARLIER",
    "FONT_DIR",
    "MAX_RATIO",
    "PNG_COMPRESS",
    "SPARE",
    "Column",
    "Palette",
    "Piece",
    "animate",
    "css_px_at",
    "encode",
    "fitted_tail",
    "font",
    "grown",
    "max_height",
    "measuring",
    "phone_px",
    "piece",
    "wrap",
]
