"""The board picture: what it shows where, checked by palette probes on built positions."""

from __future__ import annotations

import io

from PIL import Image

from engine.battlefronts.position import begin, build
from engine.battlefronts.state import BATTLE, MOVE, new_game
from render import renderer
from render.battlefronts.board import WIDTH, Row, chip, draw, layout
from render.battlefronts.examples import SCENES
from render.battlefronts.theme import INDEX, KEY
from render.kit import measuring
from render.replay import frames, random_log

from .helpers import BLUE, RED, command

DRAW = renderer("battlefronts")


def png(state, events=()) -> Image.Image:
    image = Image.open(io.BytesIO(DRAW.board(state.view(None), list(events))))
    assert image.format == "PNG" and image.mode == "P"
    return image


def row_of(state, place: int) -> Row:
    return layout(state)[1][place]


def test_every_example_scene_draws_across_a_phone() -> None:
    for name, scene in SCENES.items():
        state, events = scene()
        image = png(state, events)
        assert image.width == WIDTH and image.height >= 600, name


def test_the_places_mark_contested_and_held_fronts_in_colour_and_in_numbers() -> None:
    s = build(
        {"F1": {RED: ["5H"]}, "F3": {RED: ["6H"], BLUE: ["7C"]}, "F5": {BLUE: ["8C"]}}, round=3, phase=MOVE
    )
    image = draw(s)
    g, rows = layout(s)

    def box(place: int) -> int:
        value = image.getpixel((g.place_x + 3, rows[place].y + rows[place].h - 8))
        assert isinstance(value, int)  # a palette image: the colour's index
        return value

    assert box(4) == INDEX["contested"]  # F3
    assert box(0) == INDEX["red_tint"] and box(8) == INDEX["blue_tint"]
    assert box(2) == INDEX["front"] and box(1) == INDEX["zone"]


def words_drawn(monkeypatch, s) -> list[str]:
    """Every text the board of `s` draws, in order (the palette's text calls, listened to)."""
    from render.battlefronts import theme

    said: list[str] = []
    real = theme.PALETTE.text

    def text(words: str, *args, **kw):
        said.append(words)
        return real(words, *args, **kw)

    monkeypatch.setattr(theme.PALETTE, "text", text)
    with measuring():
        draw(s)
    return said


def test_the_totals_say_who_stands_at_a_front(monkeypatch) -> None:
    """Colour is never the only cue: a front held alone shows a dash for the side not there."""
    s = build({"F1": {RED: ["5H"]}, "F3": {RED: ["6H"], BLUE: ["7C"]}}, round=3, phase=MOVE)
    said = words_drawn(monkeypatch, s)
    assert said.count("–") == 1 + 2 * 3  # F1's Blues; F2, F4 and F5 both sides
    assert "5" in said and "6" in said and "7" in said


def test_the_side_to_act_is_shown_in_its_colour_and_named() -> None:
    s = build({"T2": {RED: ["?5H"]}}, round=3, phase=MOVE)
    image = draw(s)
    g = layout(s)[0]
    header = image.crop((0, 0, g.width, g.header_h)).tobytes()
    assert bytes([INDEX[RED]]) in header  # the chip before "Reds to act"


def test_a_tie_outlines_the_battalions_to_choose_from() -> None:
    s = build({"F2": {RED: ["5H 2H 3H", "5D"], BLUE: ["TC 2C"]}, "F4": {RED: ["8D"]}}, round=3, phase=BATTLE)
    events = begin(s)
    image = draw(s, events)
    g, rows = layout(s)
    x = g.side_x(RED) - 2  # the gold frame's left edge
    for k in (0, 1):  # R1 and R2, one above the other at F2
        assert image.getpixel((x, rows[2].y + 2 + k * g.line + g.line // 2)) == INDEX["gold"]
    assert image.getpixel((x, rows[6].y + 2 + g.line // 2)) != INDEX["gold"]  # R3 at F4 is not involved


def test_a_face_down_top_shows_its_back_and_a_face_up_top_its_face() -> None:
    s = build({"T2": {RED: ["?5H 6H"]}, "F4": {RED: ["5D 6D"]}}, round=3, phase=MOVE)
    image = draw(s)
    g, rows = layout(s)
    x = g.side_x(RED) + g.side_w - 3
    assert image.getpixel((x, rows[3].y + 2 + g.line // 2)) == INDEX["red_back"]
    assert image.getpixel((x, rows[6].y + 2 + g.line // 2)) == INDEX["card"]


def test_crowded_places_grow_their_rows() -> None:
    few = build({"F1": {RED: ["5H"]}}, round=3)
    many = build({"F1": {RED: [f"{r}H" for r in "23456"] + ["7H 8H"]}}, round=3)
    assert row_of(many, 0).h > row_of(few, 0).h and row_of(many, 0).lines == (0, 6)
    assert draw(many).height - draw(few).height == row_of(many, 0).h - row_of(few, 0).h


def test_replay_frames_share_one_size() -> None:
    log = random_log("battlefronts", {}, 3, 40)
    pictures = frames("battlefronts", {}, 3, log)
    assert len({p.size for p in pictures}) == 1 and pictures[0].width < WIDTH


def test_the_board_after_a_resignation_draws() -> None:
    s = new_game(3)
    events = command(s, RED, "resign")
    image = png(s, events)
    g = layout(s)[0]
    assert bytes([INDEX["gold"]]) in image.crop((0, 0, g.width, g.header_h)).tobytes()  # "Blues win"


def test_a_battalion_line_holds_its_longest_words() -> None:
    """B10, K♥ =12, ×12 and where it jumped from all fit on its line, in their columns, at the size
    that reads on a phone."""
    from render.battlefronts.theme import text

    g = layout(new_game(1))[0]
    label = text("B10", g.text, bold=True).width
    card = text("K♥", g.text, bold=True).width + 4 + text("=12", g.text, bold=True).width
    size, tag = text("×12", g.text).width, text("⇐T4", g.text, bold=True).width
    assert 5 + label + 8 <= g.card_x and g.card_x + card + 3 <= g.size_x  # a gap between each
    assert g.size_x + size + 4 <= g.side_w - 5 - tag


def test_the_place_boxes_keep_their_outline() -> None:
    """The Reds' total was once pasted over the bottom edge of the front's box."""
    s = build(
        {"F1": {RED: ["5H"]}, "F3": {RED: ["TH"], BLUE: ["7C"]}, "F5": {RED: ["8C"]}}, round=3, phase=MOVE
    )
    image = draw(s)
    g, rows = layout(s)
    for place in (0, 4, 8):
        bottom = rows[place].y + rows[place].h - 4
        row = [image.getpixel((x, bottom)) for x in range(g.place_x + 1, g.place_x + g.place_w)]
        assert all(v == INDEX["line"] for v in row), f"F{place // 2 + 1}'s box has a gap in its outline"


def _runs(image: Image.Image, y: int, x0: int, x1: int, colour: int) -> int:
    """How many separate stretches of palette colour `colour` lie on row `y` between x0 and x1."""
    runs, inside = 0, False
    for x in range(x0, x1):
        hit = image.getpixel((x, y)) == colour
        runs += hit and not inside
        inside = hit
    return runs


def test_the_loss_strip_shows_every_lost_card() -> None:
    """Four cards lost after a battle: all four chips are drawn beside '⚔4' (the strip used to show
    as many as fitted and '+2')."""
    s = build({"F3": {RED: ["TH 9D 2C 4S"], BLUE: ["7C", "TD"]}}, round=3, phase=BATTLE)
    begin(s)  # the Blues' 17 inflict four reductions on the Reds: TH, 9D, 2C, then 4S...
    losses = [m["card"] for m in s.marks if m["k"] == "loss" and m["side"] == RED]
    assert len(losses) == 4
    image = draw(s)
    g, rows = layout(s)
    row = rows[4]
    strip_y = row.y + 2 + row.lines[1] * g.line  # under the Reds' battalions at F3
    paper = INDEX["lost_card"]
    seen = 0
    for y in range(strip_y, row.y + row.h):
        seen = max(seen, _runs(image, y, g.side_x(RED), g.width, paper))
    assert seen >= 4 or row.lines[1] == 0


def test_a_lost_card_chip_keeps_its_cross_off_the_rank_and_suit() -> None:
    """The cross-out ran through the glyphs, so a crossed-out Q♥ read like 9♥ at that size."""
    for code in ("QH", "9S", "TD", "KC"):
        tile = chip(code, 19, "front").convert("RGB")
        ink = KEY["suit_red"] if code[1] in "HD" else KEY["ink"]
        near = [
            tile.getpixel((x + dx, y + dy))
            for x in range(1, tile.width - 1)
            for y in range(1, tile.height - 1)
            if tile.getpixel((x, y)) == ink
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
        ]
        assert near and KEY["lost"] not in near, code


def test_a_sides_card_count_says_the_cards_are_in_play(monkeypatch) -> None:
    """'52 cards left' under 'deck 5' read as a second deck: the count is of the cards in play, the
    deck and the battalions together."""
    s = build({"F1": {RED: ["5H"]}, "F3": {RED: ["6H"], BLUE: ["7C"]}}, round=3, phase=MOVE)
    said = words_drawn(monkeypatch, s)
    counts = [w for w in said if " in play · " in w]
    assert len(counts) == 2 and not any("cards left" in w for w in said)
    assert f"{s.cards_left(RED)} cards in play · 0 lost" in counts
