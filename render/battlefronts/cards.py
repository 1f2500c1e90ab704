"""Card pictures: a battalion's stack (face-up top or a back, with the cards beneath showing as
edges), the strength badge and the small discarded-card chips. Drawn in RGB once, then cached as
palette tiles: a board pastes them. The caches are safe to fill from several render threads."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cards import SUIT_SYMBOLS, Card
from render.kit import font

CW, CH = 52, 70  # a card
LAYER = 2  # each card beneath the top shows as an edge this far up and right (at most two edges)
TILE_W, TILE_H = CW + 2 * LAYER, CH + 2 * LAYER
BADGE = 21  # the strength badge's diameter
CHIP_W, CHIP_H = 25, 19  # a discarded card in a front's loss strip


def _key() -> dict[str, tuple[int, int, int]]:
    from render.battlefronts.theme import KEY

    return KEY


def _short(card: Card) -> str:
    return {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}.get(card.rank, str(card.rank))


def _suit_colour(card: Card) -> tuple[int, int, int]:
    k = _key()
    return k["suit_red"] if card.suit in "HD" else k["ink"]


def stack_rgb(code: str | None, side: str, depth: int, bg: str) -> Image.Image:
    """A stack of `depth` (1..3) visible layers, its top face up (`code`) or face down (None)."""
    k = _key()
    im = Image.new("RGB", (TILE_W, TILE_H), k[bg])
    d = ImageDraw.Draw(im)
    for layer in range(min(depth, 3) - 1, 0, -1):
        x, y = layer * LAYER, (2 - layer) * LAYER
        d.rounded_rectangle([x, y, x + CW - 1, y + CH - 1], radius=5, fill=k["card"], outline=k["card_edge"])
    x, y = 0, 2 * LAYER
    edge = k[side]
    if code is None:
        d.rounded_rectangle(
            [x, y, x + CW - 1, y + CH - 1], radius=5, fill=k[f"{side}_back"], outline=edge, width=2
        )
        hatch = k[f"{side}_hatch"]
        for i in range(-CH, CW, 7):
            d.line([x + 4 + i, y + 4, x + 4 + i + CH - 8, y + CH - 4], fill=hatch, width=2)
        d.rounded_rectangle([x, y, x + CW - 1, y + CH - 1], radius=5, outline=edge, width=2)
        d.rectangle([x + 3, y + CH - 17, x + CW - 4, y + CH - 4], fill=k[f"{side}_back"])
        q = font(24, True)
        d.text((x + CW // 2, y + CH // 2 - 6), "?", font=q, fill=k["white"], anchor="mm")
        return im
    card = Card.parse(code)
    colour = _suit_colour(card)
    d.rounded_rectangle([x, y, x + CW - 1, y + CH - 1], radius=5, fill=k["card"], outline=edge, width=2)
    d.text((x + 4, y + 3), _short(card), font=font(15, True), fill=colour)
    d.text((x + 4, y + 19), SUIT_SYMBOLS[card.suit], font=font(13), fill=colour)
    if card.is_face:
        d.text(
            (x + CW // 2 + 5, y + CH // 2 + 4), _short(card), font=font(26, True), fill=colour, anchor="mm"
        )
    else:
        d.text(
            (x + CW // 2 + 6, y + CH // 2 + 4),
            SUIT_SYMBOLS[card.suit],
            font=font(24),
            fill=colour,
            anchor="mm",
        )
    return im


def badge_rgb(strength: int, side: str) -> Image.Image:
    """The strength in a circle of the side's colour, on the card's colour."""
    k = _key()
    im = Image.new("RGB", (BADGE, BADGE), k["card"])
    d = ImageDraw.Draw(im)
    d.ellipse([0, 0, BADGE - 1, BADGE - 1], fill=k[side])
    size = 13 if strength < 100 else 10
    d.text((BADGE // 2, BADGE // 2), str(strength), font=font(size, True), fill=k["white"],
           anchor="mm")  # fmt: skip
    return im


def chip_rgb(code: str, bg: str) -> Image.Image:
    """A discarded card, small and crossed out."""
    k = _key()
    card = Card.parse(code)
    im = Image.new("RGB", (CHIP_W, CHIP_H), k[bg])
    d = ImageDraw.Draw(im)
    d.rounded_rectangle([0, 0, CHIP_W - 1, CHIP_H - 1], radius=3, fill=k["lost_card"], outline=k["lost"])
    d.line([3, CHIP_H - 4, CHIP_W - 4, 3], fill=k["lost"], width=2)
    # A halo of the chip's colour keeps the cross off the glyphs: crossed through, Q♥ read like 9♥.
    d.text((CHIP_W // 2, CHIP_H // 2), _short(card) + SUIT_SYMBOLS[card.suit], font=font(10, True),
           fill=_suit_colour(card), anchor="mm", stroke_width=1, stroke_fill=k["lost_card"])  # fmt: skip
    return im


@lru_cache(maxsize=4096)
def stack(code: str | None, side: str, depth: int, bg: str) -> Image.Image:
    from render.battlefronts.theme import to_p

    return to_p(stack_rgb(code, side, depth, bg))


@lru_cache(maxsize=512)
def badge(strength: int, side: str) -> Image.Image:
    from render.battlefronts.theme import to_p

    return to_p(badge_rgb(strength, side))


@lru_cache(maxsize=1024)
def chip(code: str, bg: str) -> Image.Image:
    from render.battlefronts.theme import to_p

    return to_p(chip_rgb(code, bg))


def sample_sheet() -> Image.Image:
    """Stacks, badges and chips on each background: the blends the palette must hold."""
    backgrounds = ("front", "zone", "red_tint", "blue_tint", "contested_tint")
    codes = ("AH", "9S", "KD", "QC")
    sheet = Image.new(
        "RGB", (len(codes) * 2 * TILE_W + 4 * BADGE, len(backgrounds) * TILE_H * 2), _key()["page"]
    )
    for row, bg in enumerate(backgrounds):
        for col, code in enumerate(codes):
            for s, side in enumerate(("red", "blue")):
                x = (col * 2 + s) * TILE_W
                sheet.paste(stack_rgb(code, side, 3, bg), (x, row * 2 * TILE_H))
                sheet.paste(stack_rgb(None, side, 2, bg), (x, row * 2 * TILE_H + TILE_H))
        sheet.paste(chip_rgb("QH", bg), (len(codes) * 2 * TILE_W, row * 2 * TILE_H))
    for s, side in enumerate(("red", "blue")):
        sheet.paste(badge_rgb(7, side), (len(codes) * 2 * TILE_W + (2 + s) * BADGE, 0))
    return sheet


__all__ = [
    "BADGE",
    "CH",
    "CHIP_H",
    "CHIP_W",
    "CW",
    "LAYER",
    "TILE_H",
    "TILE_W",
    "badge",
    "chip",
    "sample_sheet",
    "stack",
]
