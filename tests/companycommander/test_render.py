"""The board picture: what it shows where, checked by palette probes on built positions, its size
and the size of every letter drawn on it (readable on a phone showing it 400 px wide)."""

from __future__ import annotations

import io
import random

from PIL import Image

from engine.companycommander import GAME
from engine.companycommander.model import Options
from engine.companycommander.state import DEPLOY, new_game
from render import renderer, seen
from render.companycommander import cards
from render.companycommander.board import (
    ARRIVING_LINE,
    COL_W,
    MARGIN,
    W,
    _arriving_lines,
    _fit,
    _record,
    draw,
)
from render.companycommander.theme import INDEX
from render.kit import css_px_at, max_height, measuring

from .helpers import A, G, build, command, rig

DRAW = renderer("companycommander")


def png(view, events=()) -> Image.Image:
    data = DRAW.board(view, list(events))
    assert len(data) <= 150_000
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.mode == "P" and image.width == W
    return image


def test_every_text_is_at_least_12_css_px_at_400_px_wide() -> None:
    """Every font size drawn, over whole games, is at least 12 × width / 400 (18 px at 600 px)."""
    rng = random.Random(5)
    smallest: list[float] = []
    for seed in range(3):
        s = new_game(Options(), seed)
        events: list = []
        for step in range(250):
            if s.is_over():
                break
            if step % 25 == 0:
                for viewer in (None, A, G):
                    with measuring() as sizes:
                        image = png(s.view(viewer), seen(events, viewer))
                    smallest.append(css_px_at(sizes, image.width, 400))
            events = s.apply(rng.choice(s.legal_actions(s.active)), s.active)
    assert smallest and min(smallest) >= 12


def test_units_show_strength_markers_and_state() -> None:
    s = build({"A1": "rifles C pinned cas1", "A2": "hmg L", "G1": "panzer C cas2", "G2": "mg42 R"})
    im = draw(s.view(None))
    # A pinned unit's card is orange; a healthy one is its side's card colour.
    pinned_colours = {
        im.getpixel((MARGIN + COL_W + 4 + x, y)) for x in range(60, 180) for y in range(0, im.height)
    }
    assert INDEX["pinned_card"] in pinned_colours and INDEX["pinned"] in pinned_colours
    left = [im.getpixel((MARGIN + 4 + x, y)) for x in range(60, 180) for y in range(im.height)]
    assert INDEX["americans_card"] in left
    assert INDEX["casualty"] in {
        im.getpixel((x, y)) for x in range(MARGIN + COL_W, MARGIN + 2 * COL_W) for y in range(im.height)
    }


def test_the_side_to_act_is_named_in_the_header_with_its_colour() -> None:
    for side in (A, G):
        s = build({"A1": "rifles C", "G1": "rifles C"}, active=side)
        im = draw(s.view(None))
        assert INDEX[side] in {im.getpixel((x, 50)) for x in range(W - 120, W - 10)}


def test_the_last_turns_rolls_are_listed_until_the_new_turn_rolls() -> None:
    s = build({"A1": "hmg C", "G1": "rifles C", "G2": "rifles L"})
    rig(s, (4, 5))
    command(s, "fire A1")
    tall = draw(s.view(None)).height
    rig(s)
    command(s, "end")  # the Germans' turn: the board still lists the Americans' roll
    assert s.last_log and s.last_log[0].short() == "A1 fires → C: 4+5=9, G1 Pinned"
    assert draw(s.view(None)).height >= tall - cards.CARD_H  # three arriving lines at most moved


def test_a_board_with_many_units_and_a_long_record_stays_phone_sized_and_whole() -> None:
    """36 units and four rolls made a board taller than a phone's screen: the cards of a crowded
    side are halved (two to a row), so every unit and every roll is still drawn, at most 1.6 times
    as tall as wide."""
    units = {f"A{i}": f"rifles {'LCR'[i % 3]}" for i in range(1, 25)} | {
        f"G{i}": "mg42 C" for i in range(1, 13)
    }
    s = build(units, hands={A: ["airstrike"]})
    rig(s, (4, 4), (5, 5), (6, 6), (2, 2), start=616540)  # the first seed that rolls them
    events = command(s, "play airstrike C")
    image = png(s.view(None), events)
    assert image.height <= max_height(W)
    _, record = _record(s, events)
    rows, compact, kept = _fit(s, {A: (), G: ()}, record)
    assert kept == record and len(record) == 4  # every roll
    assert compact == {A: True, G: True} and rows == {A: 4, G: 6}  # 8 a front, 12 in the centre


def test_the_deploy_phase_lists_arriving_units() -> None:
    s = build({"A1": "rifles -", "A2": "sherman -", "G1": "rifles C"}, phase=DEPLOY)
    assert _arriving_lines(s, A) == ("Arriving: A1 Rifles, A2 Sherman",)
    without = build({"G1": "rifles C"}, phase=DEPLOY)
    assert draw(s.view(None)).height == draw(without.view(None)).height + ARRIVING_LINE


def test_the_game_over_board_names_the_winner() -> None:
    s = build({"A1": "hmg C", "G1": "scouts C", "G2": "rifles L"}, lost={G: 9})
    rig(s, (6, 6))
    events = command(s, "fire A1")
    assert s.is_over()
    im = draw(s.view(None), events)
    assert INDEX["gold"] in {im.getpixel((x, 45)) for x in range(10, 200)}


def test_render_is_quick_enough_for_a_board_per_move() -> None:
    """Not a timing test (bench/render.py measures): the board is drawn from cached tiles, so a
    second draw of the same position adds no new tile to the caches."""
    s = build({"A1": "rifles C", "A2": "hmg L", "G1": "panzer C cas2"})
    draw(s.view(None))
    before = cards.card.cache_info().currsize
    draw(s.view(None))
    assert cards.card.cache_info().currsize == before


def test_examples_draw() -> None:
    from render.companycommander.examples import SCENES

    for name, scene in SCENES.items():
        state, events = scene()
        png(state.view(None), seen(events, None)), name
    assert GAME.title == "Company Commander"


def test_replay_frames_are_one_size_and_say_when_there_is_more() -> None:
    rng = random.Random(2)
    s = new_game(Options(), 5)
    sizes = set()
    for _ in range(300):
        if s.is_over():
            break
        events = s.apply(rng.choice(s.legal_actions(s.active)), s.active)
        sizes.add(DRAW.frame(s.view(None), seen(events, None)).size)
    assert len(sizes) == 1
    crowded = build({f"A{i}": "rifles C" for i in range(1, 10)} | {"G1": "mg42 C"})
    assert DRAW.frame(crowded.view(None), []).size in sizes  # nine units at one front: "+5 more"


def test_a_unit_deployed_this_turn_that_acted_shows_done() -> None:
    """(Issue 31) new, moved and done as the page promises: what a unit did comes before when it came."""
    from render.companycommander.board import tag_of

    s = build(
        {"A1": "hmg -", "A2": "rifles -", "A3": "rifles L", "G1": "rifles C", "G2": "rifles L"}, phase=DEPLOY
    )
    command(s, "deploy A1 C; deploy A2 C; move A3 C; tactics")
    assert [tag_of(s, s.forces[A][k]) for k in ("A1", "A2", "A3")] == ["new", "new", "moved"]
    rig(s, (1, 1))
    command(s, "fire A1")
    assert tag_of(s, s.forces[A]["A1"]) == "done" and tag_of(s, s.forces[A]["A2"]) == "new"
    assert tag_of(s, s.forces[G]["G1"]) == ""  # the side not acting shows no tags
    # and the board pastes the done card where A1 stands (the Center, the Americans' first row)
    im = draw(s.view(None))
    done = cards.card(A, "HMG", "A1", 2, 0, "done", False)
    new = cards.card(A, "HMG", "A1", 2, 0, "new", False)
    assert done.tobytes() != new.tobytes()
    found = [
        (x, y)
        for y in range(im.height - cards.CARD_H)
        for x in (MARGIN + COL_W + 4,)
        if im.crop((x, y, x + cards.CARD_W, y + cards.CARD_H)).tobytes() == done.tobytes()
    ]
    assert found


def test_the_company_commanders_card_names_him_readably() -> None:
    from engine.companycommander.model import TYPES
    from render.kit import font

    assert TYPES["A:cc"].short == TYPES["G:cc"].short == "Co. Cmdr"
    # the short name and the Strength on the card do not meet
    room = cards.CARD_W - 9 - font(26, True).getlength("4") - (cards.LABEL_W + 7)
    assert font(cards.SMALL, True).getlength("Co. Cmdr") + 6 <= room


def test_halved_cards_say_what_each_unit_did_this_turn() -> None:
    """A crowded front halves its cards; they showed Pinned but not new, moved and done, which the
    full cards show. The side to act's halved cards have a line for it, once one of them has a word
    to show; the other side's keep the short half card."""
    from render.companycommander.board import mini_row, tag_of

    units = {f"A{i}": f"rifles {'LCR'[i % 3]}" for i in range(1, 25)} | {"A25": "hmg -"}
    units |= {f"G{i}": f"mg42 {'LCR'[i % 3]}" for i in range(1, 13)}
    s = build(units, phase=DEPLOY)
    command(s, "deploy A25 C; move A1 L; tactics")
    assert [tag_of(s, s.forces[A][k]) for k in ("A1", "A25", "A2")] == ["moved", "new", ""]
    _, record = _record(s, [])
    _, compact, _ = _fit(s, {A: (), G: ()}, record)
    assert compact[A]
    assert mini_row(s, A) == cards.MINI_TAGGED_H + 4 and mini_row(s, G) == cards.MINI_H + 4
    im = draw(s.view(None))
    tiles = {
        (short, label, tag): cards.mini(A, short, label, strength, 0, tag, False, True)
        for short, label, strength, tag in [("Rifles", "A1", 3, "moved"), ("HMG", "A25", 2, "new")]
    }
    for (short, label, tag), tile in tiles.items():
        untagged = cards.mini(A, short, label, 3 if short == "Rifles" else 2, 0, "", False, True)
        assert tile.tobytes() != untagged.tobytes()  # the word is drawn
        found = [
            (x, y)
            for y in range(im.height - tile.height)
            for x in range(0, W - tile.width, 2)
            if im.getpixel((x + 4, y + 4)) == tile.getpixel((4, 4))
            and im.crop((x, y, x + tile.width, y + tile.height)).tobytes() == tile.tobytes()
        ]
        assert found, (label, tag)
    with measuring() as sizes:
        draw(s.view(None))
    assert css_px_at(sizes, W) >= 12


def test_a_game_resigned_before_any_roll_does_not_wait_for_dice() -> None:
    """The end board of a game resigned in its first Deploy phase said 'No dice rolled yet.'"""
    s = new_game(Options(), 4)
    s.apply(GAME.parse("resign"), min(s.to_act()))
    head, lines = _record(s, [])
    assert head == "Game over, no dice rolled."
    assert lines[0][0].endswith("resigned.")
