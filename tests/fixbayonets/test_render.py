"""The board picture, probed pixel by pixel: sides by shape, officers marked, the last card drawn."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.fixbayonets.model import GRID, Options
from engine.fixbayonets.state import FIGHTING, new_game
from render import renderer, seen
from render.fixbayonets.board import REPLAY_SQUARE, SQUARE, Geo, _status, strength_words
from render.fixbayonets.theme import INDEX, PALETTE

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


def test_a_board_is_a_portrait_png_that_a_phone_shows_across_its_width() -> None:
    im = image(pos({"d4": "GR"}))
    assert im.width == GEO.width and im.height >= GEO.height
    assert 560 <= im.width <= 720 and im.height <= 1.6 * im.width


def test_officers_wear_gold_and_other_men_do_not() -> None:
    im = image(pos({"d4": "GO", "e4": "GR", "d1": "AO", "e1": "AR", "h8": "GO", "a1": "AO"}))
    assert INDEX["gold"] in colours_in_square(im, "d4") and INDEX["gold"] in colours_in_square(im, "d1")
    assert INDEX["gold"] not in colours_in_square(im, "e4") and INDEX["gold"] not in colours_in_square(
        im, "e1"
    )


def test_the_sides_differ_in_shape_not_only_colour() -> None:
    """A German man is a rounded square, an American a disc: near the token's corner only the square."""
    im = image(pos({"d4": "GR", "e4": "AR"}))
    t = round(SQUARE * 0.76)
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

    def below(im: Image.Image) -> bytes:  # the words under the board
        return im.crop((0, GEO.bottom_y, GEO.width, im.height)).tobytes()

    assert below(own) != below(other)
    # The board itself, and the sides' rows around it, are the same for everyone.
    board = (0, 0, GEO.width, GEO.bottom_y)
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


def test_a_stretch_of_cards_is_drawn_on_one_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """One board per hand-off: the cards a side played while the other had nothing to answer (an
    AI's turn) arrive as one list of events; every card gets its arrow, the kill its cross, and
    the words say all of it, not only the last card."""
    from render.kit import measuring

    s = pos({"d4": "GR", "b4": "GR", "e3": "AR"}, g=["march", "march", "rifle3"])
    events = play(s, "march Rd4-d6", "march Rb4-b6", "fight", "rifle3 Rb6xe3")
    said: list[str] = []
    real = PALETTE.text

    def text(words: str, *args: object, **kw: object) -> Image.Image:
        said.append(words)
        return real(words, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(PALETTE, "text", text)
    with measuring():  # draws every word afresh, so every word drawn is seen here
        im = image(s, None, events)
    for mid in ("d5", "b5"):  # the two moves' white arrows
        x, y = GEO.centre(GRID.square(mid))
        assert INDEX["move"] in {im.getpixel((x + dx, y)) for dx in range(-6, 7)}, mid
    x, y = GEO.centre(GRID.square("c5"))
    assert INDEX["attack"] in {im.getpixel((x + dx, y)) for dx in range(-6, 7)}  # the shot
    assert im.getpixel(GEO.centre(GRID.square("e3"))) == INDEX["attack"]  # the emptied square's cross
    words = " ".join(said)
    for part in (
        "rifleman on d4 to d6",
        "rifleman on b4 to b6",
        "shoots at e3",
        "Killed (American): a rifleman",
    ):
        assert part in words, words
    assert not any(w.endswith("…") for w in said)


@pytest.mark.parametrize("s", [REPLAY_SQUARE, SQUARE])
def test_no_word_runs_off_the_picture_or_over_the_board(monkeypatch: pytest.MonkeyPatch, s: int) -> None:
    """Every line of words, in random games seen by every viewer, stays inside the picture and out
    of the board and its coordinates (a side's line must fit in one line)."""
    import random

    from engine.fixbayonets.state import View
    from render import kit
    from render.fixbayonets.board import draw

    boxes: list[tuple[int, int, int, int]] = []
    real = kit.Column.draw

    def draw_column(self: kit.Column, im: Image.Image) -> None:
        """The tiles a picture really gets (not those of a layout tried and dropped as too tall)."""
        for op in self.ops:
            if len(op) == 3:
                tile, x, y = op
                boxes.append((x, y, x + tile.width, y + tile.height))
        real(self, im)

    monkeypatch.setattr(kit.Column, "draw", draw_column)
    g = Geo(s)
    top, bottom = g.y0 - g.margin, g.y0 + 8 * s + g.margin
    from engine import registry

    rules = registry.game("fixbayonets")
    for seed in (1, 2):
        state = rules.new_game({}, seed)
        rng = random.Random(seed)
        for step in range(200):
            if state.is_over():
                break
            side = min(state.to_act())
            events = state.apply(rng.choice(state.legal_actions(side)), side)
            if step % 7:
                continue
            for viewer in (None, G, A):
                boxes.clear()
                view = state.view(viewer)
                assert isinstance(view, View)
                im = draw(view, seen(events, viewer), s)
                for x0, y0, x1, y1 in boxes:
                    assert x0 >= 0 and x1 <= im.width and y1 <= im.height, (x0, y0, x1, y1)
                    assert y1 <= top or y0 >= bottom, (y0, y1, top, bottom)


def test_the_set_up_headline_says_who_still_has_to_set_up() -> None:
    """Before either deployment the band asks both sides to set up, not as if they already had."""
    s = new_game(Options(), 1)
    assert _status(s)[0] == "Both sides to set up"
    s.apply("setup std", G)
    head, detail, _ = _status(s)
    assert (head, detail) == ("Americans to set up", "The Germans have set up (hidden).")
