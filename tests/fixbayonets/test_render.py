"""The board picture, probed pixel by pixel: sides by shape, officers marked, the last card drawn."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.fixbayonets.model import GRID
from engine.fixbayonets.state import FIGHTING
from render import renderer, seen
from render.fixbayonets.board import REPLAY_SQUARE, SQUARE, Geo, strength_words
from render.fixbayonets.theme import INDEX

from .helpers import A, G, play, pos

DRAW = renderer("fixbayonets")
GEO = Geo(SQUARE)


def image(state, viewer=None, events=()) -> Image.Image:
    im = Image.open(io.BytesIO(DRAW.board(state.view(viewer), seen(list(events), viewer))))
    assert im.format == "PNG" and im.mode == "P"
    return im


def colours_in_square(im: Image.Image, name: str) -> set[int]:
    x, y = GEO.xy(GRID.square(name))
    return set(im.crop((x + 2, y + 2, x + SQUARE - 2, y + SQUARE - 2)).tobytes())  # "P": a byte a pixel


def test_a_board_is_a_landscape_png_sized_for_discord() -> None:
    im = image(pos({"d4": "GR"}))
    assert (im.width, im.height) == (GEO.width, GEO.height)
    assert 900 <= im.width <= 1100 and 600 <= im.height <= 720


def test_officers_wear_gold_and_other_men_do_not() -> None:
    im = image(pos({"d4": "GO", "e4": "GR", "d1": "AO", "e1": "AR", "h8": "GO", "a1": "AO"}))
    assert INDEX["gold"] in colours_in_square(im, "d4") and INDEX["gold"] in colours_in_square(im, "d1")
    assert INDEX["gold"] not in colours_in_square(im, "e4") and INDEX["gold"] not in colours_in_square(
        im, "e1"
    )


def test_the_sides_differ_in_shape_not_only_colour() -> None:
    """A German man is a rounded square, an American a disc: near the token's corner only the square."""
    im = image(pos({"d4": "GR", "e4": "AR"}))
    t = round(SQUARE * 0.72)
    off = (SQUARE - t) // 2 + round(t * 0.13)
    for name, covered in (("d4", True), ("e4", False)):
        x, y = GEO.xy(GRID.square(name))
        bg = im.getpixel((x + 2, y + 2))
        assert (im.getpixel((x + off, y + off)) != bg) is covered


def test_a_stack_shows_each_kind_and_a_count() -> None:
    def square_pixels(code: str) -> bytes:
        im = image(pos({"d4": code, "a8": "GOO"}))
        x, y = GEO.xy(GRID.square("d4"))
        return im.crop((x, y, x + SQUARE, y + SQUARE)).tobytes()

    one, three, mixed = square_pixels("GR"), square_pixels("GRRR"), square_pixels("GRRS")
    assert len({one, three, mixed}) == 3  # a count badge; a second token for the sniper


@pytest.mark.parametrize(
    ("answer", "colour"),
    [(None, "wait"), ("negate rough", "cancel"), ("pass", "move")],
)
def test_the_last_move_is_drawn_and_its_fate_coloured(answer: str | None, colour: str) -> None:
    s = pos({"d4": "GR"}, g=["march"], a=["rough"])
    events = play(s, "march Rd4-d6")
    if answer:
        events = play(s, answer)
    im = image(s, None, events)
    x, y = GEO.xy(GRID.square("d6"))
    assert im.getpixel((x + 3, y + SQUARE // 2)) == INDEX[colour]  # the destination's frame
    mx, my = GEO.centre(GRID.square("d5"))
    line = {im.getpixel((mx, my + k)) for k in range(-SQUARE // 2, SQUARE // 2)}
    assert INDEX[colour] in line  # the arrow (dashed while waiting or cancelled) crosses d5


def test_an_attack_and_its_kill_are_drawn_in_red() -> None:
    s = pos({"d3": "GR", "d6": "AR"}, g=["rifle3"], phase=FIGHTING)
    events = play(s, "rifle3 Rd3xd6")
    im = image(s, None, events)
    x, y = GEO.xy(GRID.square("d6"))
    assert im.getpixel((x + 3, y + SQUARE // 2)) == INDEX["attack"]
    assert INDEX["attack"] in colours_in_square(im, "d6")


def test_a_hand_is_drawn_on_its_owner_s_board_only() -> None:
    s = pos({"d4": "GR"}, g=["march"], a=["trees", "sniper"])
    own, other, public = image(s, A), image(s, G), image(s, None)
    assert own.tobytes() != public.tobytes()
    panel = (GEO.panel_x, 0, GEO.width, GEO.height)
    assert own.crop(panel).tobytes() != other.crop(panel).tobytes()
    # The board itself is the same for everyone.
    board = (0, 0, GEO.panel_x, GEO.height)
    assert own.crop(board).tobytes() == public.crop(board).tobytes() == other.crop(board).tobytes()


def test_replay_frames_are_smaller_boards() -> None:
    s = pos({"d4": "GR"})
    frame = DRAW.frame(s.view(None), [])
    assert frame.width == Geo(REPLAY_SQUARE).width and frame.width < GEO.width


@pytest.mark.parametrize(("code", "survivors"), [("AS", False), ("ASR", True), ("ARR", True)])
def test_a_kill_crosses_out_an_emptied_square_but_leaves_survivors_readable(
    code: str, survivors: bool
) -> None:
    """A big cross over a square whose other men still stand reads as 'all dead': it gets a small
    mark in the corner instead, and the survivors stay clear."""
    s = pos({"d3": "GR", "d6": code}, g=["rifle3"], phase=FIGHTING, orders={A: {"losses": "auto"}})
    events = play(s, "rifle3 Rd3xd6")
    im = image(s, None, events)
    assert bool(s.stacks[GRID.square("d6")]) is survivors
    centre = im.getpixel(GEO.centre(GRID.square("d6")))
    assert (centre == INDEX["attack"]) is not survivors
    x, y = GEO.xy(GRID.square("d6"))
    corner = {im.getpixel((x + SQUARE - k, y + k)) for k in range(6, SQUARE // 4)}
    assert INDEX["attack"] in corner  # the kill is marked either way


@pytest.mark.parametrize("attacker", ["d3", "a3", "c4"])  # straight, diagonal, a knight's jump
def test_the_arrow_stops_at_the_target_s_frame_and_covers_none_of_its_men(attacker: str) -> None:
    s = pos({attacker: "GR", "d6": "ARS"}, g=["rifle3", "grenade"], a=["trees"], phase=FIGHTING)
    card = "grenade" if attacker == "c4" else "rifle3"
    events = play(s, f"{card} R{attacker}xd6")  # waiting for the Americans' answer
    im = image(s, None, events)
    x, y = GEO.xy(GRID.square("d6"))
    inset = max(3, SQUARE // 20) + 2
    inside = set(im.crop((x + inset, y + inset, x + SQUARE - inset, y + SQUARE - inset)).tobytes())
    assert INDEX["wait"] not in inside
    assert im.getpixel((x + 3, y + SQUARE // 2)) == INDEX["wait"]  # the frame is there


@pytest.mark.parametrize(
    ("men", "officers", "words"),
    [
        (16, 2, "16 men, 2 officers alive"),
        (1, 0, "1 man, no officer alive"),
        (2, 1, "2 men, 1 officer alive"),
    ],
)
def test_the_side_s_strength_reads_in_good_english(men: int, officers: int, words: str) -> None:
    assert strength_words(men, officers) == words


def test_the_kill_mark_sits_in_the_free_corner_away_from_the_arrow() -> None:
    """Attacked from the upper right, the mark goes to the lower left, clear of the arrow's tip."""
    s = pos(
        {"e2": "GU", "d1": "AOR", "h1": "AO"}, g=["bayonet"], phase=FIGHTING, orders={A: {"losses": "auto"}}
    )
    events = play(s, "bayonet Ue2xd1")
    im = image(s, None, events)
    x, y = GEO.xy(GRID.square("d1"))
    lower_left = {im.getpixel((x + k, y + SQUARE - k)) for k in range(8, SQUARE // 4)}
    assert INDEX["attack"] in lower_left
