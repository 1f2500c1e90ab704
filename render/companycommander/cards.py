"""A unit as a card: its label in its company's colour, its type, its Strength left in large type
(red once it has lost any), a red cross per Casualty marker, and its Pinned marker ("Pinned" on an
orange card) or what it did this turn (new, moved, done). Drawn in RGB once per look, then cached as a
palette tile: a board pastes them. Safe to fill from several render threads."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.kit import font

CARD_W, CARD_H = 188, 58
LABEL_W = 50
SMALL = 18  # the least type size on the board: 12 CSS px when the 600 px board shows 400 px wide
PIP, PIP_STEP = 13, 17
TAGS = {"pinned": "Pinned", "new": "new", "moved": "moved", "done": "done", "": ""}


def _key() -> dict[str, tuple[int, int, int]]:
    from render.companycommander.theme import KEY

    return KEY


def card_rgb(side: str, short: str, label: str, strength: int, cas: int, tag: str, hot: bool) -> Image.Image:
    k = _key()
    pinned = tag == "pinned"
    fill = k["pinned_card"] if pinned else k[f"{side}_card"]
    im = Image.new("RGB", (CARD_W, CARD_H), k[f"{side}_tint"])
    d = ImageDraw.Draw(im)
    edge = k["gold"] if hot else k[side]
    d.rounded_rectangle(
        [0, 0, CARD_W - 1, CARD_H - 1], radius=6, fill=fill, outline=edge, width=3 if hot else 2
    )
    d.rounded_rectangle([3, 3, LABEL_W, CARD_H - 4], radius=4, fill=k[side])
    d.text(((3 + LABEL_W) // 2 + 1, CARD_H // 2), label, font=font(20, True), fill=k["white"], anchor="mm")
    x = LABEL_W + 7
    d.text((x, 4), short, font=font(SMALL, True), fill=k["ink"])
    left = strength - cas
    d.text(
        (CARD_W - 9, 1), str(left), font=font(26, True), fill=k["casualty"] if cas else k["ink"], anchor="ra"
    )
    y = 40
    r = PIP // 2
    for i in range(cas):  # a red cross per Casualty marker
        cx = x + i * PIP_STEP + r
        d.line([cx - r, y - r, cx + r, y + r], fill=k["casualty"], width=3)
        d.line([cx - r, y + r, cx + r, y - r], fill=k["casualty"], width=3)
    words = TAGS[tag]
    if words:
        f = font(SMALL, pinned)
        tx = x + cas * PIP_STEP + (4 if cas else 0)
        if pinned:
            w = int(f.getlength(words))
            d.rounded_rectangle([tx, y - 12, tx + w + 6, y + 12], radius=4, fill=k["pinned"])
            d.text((tx + 3, y), words, font=f, fill=k["white"], anchor="lm")
        else:
            d.text((tx, y), words, font=f, fill=k["dim"], anchor="lm")
    return im


@lru_cache(maxsize=4096)
def card(side: str, short: str, label: str, strength: int, cas: int, tag: str, hot: bool) -> Image.Image:
    from render.companycommander.theme import to_p

    return to_p(card_rgb(side, short, label, strength, cas, tag, hot))


MINI_W = (CARD_W - 4) // 2  # two to a card's room, where a front holds more units than fit a row each
MINI_H = 50
MINI_TAGGED_H = 70  # with a line for what the unit did this turn (the side to act's cards)


def mini_rgb(
    side: str, short: str, label: str, strength: int, cas: int, tag: str, hot: bool, tagged: bool = False
) -> Image.Image:
    """A unit as half a card, for a crowded front: its label, Strength left (red once it has lost
    any) and type, the type on orange when it is Pinned; `tagged` (the side to act), a line below
    says what it did this turn (new, moved, done), as the full card does: half a card has no room
    for the word beside its type."""
    k = _key()
    pinned = tag == "pinned"
    height = MINI_TAGGED_H if tagged else MINI_H
    im = Image.new("RGB", (MINI_W, height), k[f"{side}_tint"])
    d = ImageDraw.Draw(im)
    edge = k["gold"] if hot else k[side]
    fill = k["pinned_card"] if pinned else k[f"{side}_card"]
    d.rounded_rectangle(
        [0, 0, MINI_W - 1, height - 1], radius=6, fill=fill, outline=edge, width=3 if hot else 2
    )
    d.rounded_rectangle([3, 3, LABEL_W, 24], radius=4, fill=k[side])
    d.text(((3 + LABEL_W) // 2 + 1, 14), label, font=font(SMALL, True), fill=k["white"], anchor="mm")
    left = strength - cas
    d.text(
        (MINI_W - 7, 0), str(left), font=font(22, True), fill=k["casualty"] if cas else k["ink"], anchor="ra"
    )
    f = font(SMALL)
    if pinned:
        w = int(f.getlength(short))
        d.rounded_rectangle([3, 26, 3 + w + 6, MINI_H - 4], radius=4, fill=k["pinned"])
        d.text((6, 36), short, font=f, fill=k["white"], anchor="lm")
    else:
        d.text((5, 36), short, font=f, fill=k["ink"], anchor="lm")
    words = TAGS[tag]
    if tagged and words and not pinned:
        d.text((5, 57), words, font=f, fill=k["dim"], anchor="lm")
    return im


@lru_cache(maxsize=4096)
def mini(
    side: str, short: str, label: str, strength: int, cas: int, tag: str, hot: bool, tagged: bool = False
) -> Image.Image:
    from render.companycommander.theme import to_p

    return to_p(mini_rgb(side, short, label, strength, cas, tag, hot, tagged))


def sample_sheet() -> Image.Image:
    """Cards of both sides in every look: the blends the palette must hold."""
    looks = [("pinned", 1, False), ("new", 0, True), ("", 2, False), ("done", 0, False)]
    sheet = Image.new("RGB", (2 * CARD_W, len(looks) * CARD_H), _key()["page"])
    for row, (tag, cas, hot) in enumerate(looks):
        for col, side in enumerate(("americans", "germans")):
            sheet.paste(card_rgb(side, "Rifles", "A12", 3, cas, tag, hot), (col * CARD_W, row * CARD_H))
    return sheet


__all__ = ["CARD_H", "CARD_W", "SMALL", "card", "sample_sheet"]
