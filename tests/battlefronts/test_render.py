"""The board picture: what it shows where, checked by palette probes on built positions."""

from __future__ import annotations

import io

from PIL import Image

from engine.battlefronts.position import begin, build
from engine.battlefronts.state import BATTLE, MOVE, new_game
from render import renderer
from render.battlefronts import cards
from render.battlefronts.board import BAND, COL_W, MARGIN, ROW, Geo, W, draw, rows_needed
from render.battlefronts.examples import SCENES
from render.battlefronts.theme import INDEX

from .helpers import BLUE, RED, command

DRAW = renderer("battlefronts")


def png(state, events=()) -> Image.Image:
    image = Image.open(io.BytesIO(DRAW.board(state.view(None), list(events))))
    assert image.format == "PNG" and image.mode == "P"
    return image


def test_every_example_scene_draws() -> None:
    for name, scene in SCENES.items():
        state, events = scene()
        image = png(state, events)
        assert image.width == W and image.height >= 600, name


def test_the_band_marks_contested_and_held_fronts() -> None:
    s = build(
        {"F1": {RED: ["5H"]}, "F3": {RED: ["6H"], BLUE: ["7C"]}, "F5": {BLUE: ["8C"]}}, round=3, phase=MOVE
    )
    image = draw(s)
    g = Geo(rows_needed(s))

    def band(place: int) -> int:
        value = image.getpixel((g.x(place) + 6, g.band + BAND // 2))
        assert isinstance(value, int)  # a palette image: the colour's index
        return value

    assert band(4) == INDEX["contested"]  # F3
    assert band(0) == INDEX["red_tint"] and band(8) == INDEX["blue_tint"]
    assert band(2) == INDEX["front"] and band(1) == INDEX["zone"]


def test_the_side_to_act_is_shown_in_its_colour() -> None:
    s = build({"T2": {RED: ["?5H"]}}, round=3, phase=MOVE)
    image = draw(s)
    assert image.getpixel((W - MARGIN - 6, 23)) == INDEX[RED]


def test_a_tie_outlines_the_battalions_to_choose_from() -> None:
    s = build({"F2": {RED: ["5H 2H 3H", "5D"], BLUE: ["TC 2C"]}, "F4": {RED: ["8D"]}}, round=3, phase=BATTLE)
    events = begin(s)
    image = draw(s, events)
    g = Geo(rows_needed(s))
    top = g.red_area + 4
    for col in (0, 1):  # R1 and R2, side by side at F2
        x = g.x(2) + 1 + col * 58
        assert image.getpixel((x - 1, top + 20)) == INDEX["gold"]
    assert image.getpixel((g.x(6) + 1 - 1, top + 20)) != INDEX["gold"]  # R3 at F4 is not involved


def test_a_face_down_top_shows_its_back_and_a_face_up_top_its_face() -> None:
    s = build({"T2": {RED: ["?5H 6H"]}, "F4": {RED: ["5D 6D"]}}, round=3, phase=MOVE)
    image = draw(s)
    g = Geo(rows_needed(s))
    y = g.red_area + 4 + 2 * cards.LAYER + 48  # between the corner suit and the name
    assert image.getpixel((g.x(3) + 1 + 8, y)) in (INDEX["red_back"], INDEX["red_hatch"])
    assert image.getpixel((g.x(6) + 1 + 8, y)) == INDEX["card"]


def test_crowded_places_grow_rows_per_side_up_to_a_limit() -> None:
    few = build({"F1": {RED: ["5H"]}}, round=3)
    assert rows_needed(few) == (2, 2)
    six = build({"F1": {RED: [f"{r}H" for r in "23456"] + ["7H 8H"]}}, round=3)
    assert rows_needed(six) == (2, 3)
    many = build({"F1": {BLUE: [f"{r}C" for r in "23456789TJQK"] + ["AC AD"]}}, round=3)
    assert rows_needed(many) == (5, 2)
    assert draw(many).height == draw(few).height + 3 * ROW


def test_replay_frames_keep_one_size() -> None:
    s = new_game(3)
    first = DRAW.frame(s.view(None), [])
    crowded = build({"F1": {BLUE: [f"{r}C" for r in "23456789TJQK"]}}, round=3)
    assert DRAW.frame(crowded.view(None), []).size == first.size


def test_the_board_after_a_resignation_draws() -> None:
    s = new_game(3)
    events = command(s, RED, "resign")
    image = png(s, events)
    assert image.getpixel((W - MARGIN - 6, 23)) == INDEX["gold"]


def test_columns_fit_two_stacks() -> None:
    assert COL_W >= 2 * 58 and cards.TILE_W <= 58


# ----------------------------------------------------------------------------------- QA: a player's eye


def test_the_totals_leave_each_front_box_outlined() -> None:
    """The Reds' total was pasted over the bottom edge of the front's box in the band."""
    s = build(
        {"F1": {RED: ["5H"]}, "F3": {RED: ["TH"], BLUE: ["7C"]}, "F5": {RED: ["8C"]}}, round=3, phase=MOVE
    )
    image = draw(s)
    g = Geo(rows_needed(s))
    bottom = g.band + BAND - 3  # the box's outline
    for place in (0, 4, 8):
        x0 = g.x(place)
        row = [image.getpixel((x, bottom)) for x in range(x0 + 3, x0 + COL_W - 3)]
        assert all(v == INDEX["line"] for v in row), f"F{place // 2 + 1}'s box has a gap under its total"


def _runs(image: Image.Image, y: int, x0: int, x1: int, colour: int) -> int:
    """How many separate stretches of palette colour `colour` lie on row `y` between x0 and x1."""
    runs, inside = 0, False
    for x in range(x0, x1):
        hit = image.getpixel((x, y)) == colour
        runs += hit and not inside
        inside = hit
    return runs


def test_the_loss_strip_shows_every_lost_card_that_fits() -> None:
    """Three cards lost after a battle of two reductions fit beside '⚔2'; the strip used to show one
    of them and '+2'."""
    s = build({"F3": {RED: ["TH 9D 2C 4S"], BLUE: ["7C", "TD"]}}, round=3, phase=BATTLE)
    begin(s)  # the Blues' 17 inflict four reductions on the Reds: TH, 9D, 2C, then 4S...
    losses = [m["card"] for m in s.marks if m["k"] == "loss" and m["side"] == RED]
    assert len(losses) == 4
    image = draw(s)
    g = Geo(rows_needed(s))
    y = g.red_strip + 4 + 1  # a chip's top row, above its text and its cross
    x0 = g.x(4)
    paper = cards.chip("2C", "blue_tint").getpixel((cards.CHIP_W // 2, 1))  # a chip's face, as pasted
    assert isinstance(paper, int)  # a palette index
    # Four chips do not fit beside '⚔4': two do, then '+2'.
    assert _runs(image, y, x0, x0 + COL_W, paper) == 2
    s = build({"F3": {RED: ["TH 9D 2C 4S"], BLUE: ["7C 5C 6C", "3D"]}}, round=3, phase=BATTLE)
    begin(s)  # 10 inflicts two reductions (TH, 9D), then next round's attrition takes the 2C
    assert [m["card"] for m in s.marks if m["k"] == "loss" and m["side"] == RED] == ["TH", "9D", "2C"]
    image = draw(s)
    assert _runs(image, y, x0, x0 + COL_W, paper) == 3


def test_a_lost_card_chip_keeps_its_cross_off_the_rank_and_suit() -> None:
    """The cross-out ran through the glyphs, so a crossed-out Q♥ read like 9♥ at that size."""
    from render.battlefronts.theme import KEY

    for code in ("QH", "9S", "TD", "KC"):
        chip = cards.chip_rgb(code, "front")
        ink = KEY["suit_red"] if code[1] in "HD" else KEY["ink"]
        near = [
            chip.getpixel((x + dx, y + dy))
            for x in range(1, chip.width - 1)
            for y in range(1, chip.height - 1)
            if chip.getpixel((x, y)) == ink
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
        ]
        assert near and KEY["lost"] not in near, code
