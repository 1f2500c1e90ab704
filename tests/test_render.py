"""The board pictures: they decode, stay small, show the units where they are, never crash."""

from __future__ import annotations

import io
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import GifImagePlugin, Image, ImageChops

from engine.blockwars import Options, Side, State, new_game
from engine.blockwars.actions import Attack, Strafe, TankFire
from engine.blockwars.position import build
from engine.blockwars.squares import SQUARE_NAMES, square
from render.blockwars import render_board
from render.blockwars.board import SQUARE, Geo, draw, overlay_actions, square_colour
from render.blockwars.examples import SCENARIOS
from render.blockwars.theme import KEY
from render.replay import random_log, render_replay
from tests import golden

G = Geo(SQUARE)
C, GE = Side.CANADIANS, Side.GERMANS


def decode(png: bytes) -> Image.Image:
    im = Image.open(io.BytesIO(png))
    assert im.format == "PNG"
    im.load()
    return im.convert("RGB")


def px(im: Image.Image, name: str, fx: float = 0.5, fy: float = 0.5) -> tuple[int, int, int]:
    """The pixel at a fraction (fx, fy) of square `name` (0,0 = its top-left corner)."""
    x, y = G.xy(square(name))
    pixel = im.getpixel((x + int(fx * SQUARE), y + int(fy * SQUARE)))
    assert isinstance(pixel, tuple) and len(pixel) == 3, pixel  # `decode` gives RGB pictures
    return pixel


def opening_image() -> tuple[State, Image.Image]:
    state, events, _ = SCENARIOS["opening"]()
    return state, decode(render_board(state, events))


def test_size_and_format_within_discord_limits():
    state, im = opening_image()
    png = render_board(state)
    assert im.size == (G.width, G.height)
    assert 560 <= im.width <= 720 and im.height <= 1.5 * im.width  # portrait: the board fills a phone's width
    assert len(png) <= 150 * 1024


def test_square_centres_match_the_units():
    state, im = opening_image()
    for sq, uid in enumerate(state.board):
        centre = px(im, SQUARE_NAMES[sq])
        if uid is None:
            assert centre == KEY[square_colour(sq)], SQUARE_NAMES[sq]
        else:
            assert centre != KEY[square_colour(sq)], SQUARE_NAMES[sq]


def test_sides_differ_in_a_probeable_way():
    """Infantry bodies: German dark grey (octagon), Canadian khaki (round); guns face each other."""
    state, im = opening_image()
    for sq, uid in enumerate(state.board):
        if uid is None:
            continue
        name = SQUARE_NAMES[sq]
        if uid[1] == "I":
            # Between the big letter and the inner ring the body shows its colour (within the
            # rounding of the sprite's smoothing).
            body = px(im, name, 0.5, 0.71)
            colour = KEY["german"] if uid[0] == "G" else KEY["canadian"]
            assert max(abs(a - b) for a, b in zip(body, colour, strict=True)) <= 6, (name, body)
        else:
            # The firing-arc wedge lies ahead of the gun: below it for the Germans, above for Canadians.
            ahead, behind = (0.88, 0.12) if uid[0] == "G" else (0.12, 0.88)
            assert px(im, name, 0.7, ahead) == KEY["arc"], name
            assert px(im, name, 0.7, behind) != KEY["arc"], name
    # German octagon corners are cut where a round counter is not: same offset, different picture.
    assert px(im, "c8", 0.5, 0.5) != px(im, "c1", 0.5, 0.5)


def test_tank_covers_its_four_squares_and_shows_damage():
    for damage in (0, 1):
        s = build({"c1": "CT"}, active=C, tank_damage=damage)
        im = decode(render_board(s))
        for name in ("c1", "d1", "c2", "d2"):
            assert px(im, name, 0.5, 0.5) != KEY[square_colour(square(name))]
        # The damage pips: the left one is red when damaged.
        x, y = G.xy(square("c2"))
        pip = im.getpixel((x + int(0.86 * SQUARE), y + int(1.62 * SQUARE)))
        assert (pip == KEY["attack"]) == (damage == 1)


def test_move_arrow_and_removed_unit_are_marked():
    s = build({"e2": "C", "a8": "G"}, active=C)
    im = decode(render_board(s, s.apply("e2-e3")))
    x, y = G.xy(square("e3"))
    assert im.getpixel((x + SQUARE // 2, y + SQUARE)) == KEY["move"]  # the arrow crosses e2/e3
    # A lost attack: the attacker is gone, a red cross on its square, the defender outlined in red.
    s = build({"e4": "C", "e5": "G", "a1": "C", "h8": "G"}, active=C, decks={C: ["3C"], GE: ["9D"]})
    im = decode(render_board(s, s.apply("e4xe5")))
    assert s.board[square("e4")] is None
    assert px(im, "e4") == KEY["attack"]
    assert px(im, "e5", 0.04, 0.5) == KEY["attack"]


def test_overlay_marks_moves_and_targets_even_off_turn():
    state, events, over = SCENARIOS["overlay"]()
    assert state.active is C and over == "d6"
    acts, hypothetical = overlay_actions(state, square("d6"))
    assert hypothetical
    targets = set()
    for a in acts:
        assert isinstance(a, (Attack, TankFire, Strafe)), a  # the actions that have a target
        targets.add(a.target)
    # c4, d4 and e5 are in the arc and in sight; f4 is in the arc but e5 stands in the way.
    assert targets == {square("c4"), square("d4"), square("e5")}
    im = decode(render_board(state, events, overlay=over))
    for t in targets:
        x, y = G.xy(t)
        ring = [im.getpixel((x + SQUARE // 2 + dx, y + SQUARE // 2)) for dx in range(-SQUARE // 2, 0)]
        assert KEY["attack"] in ring
    # Without the overlay, those squares show no ring.
    plain = decode(render_board(state, events))
    for t in targets:
        x, y = G.xy(t)
        assert KEY["attack"] not in [plain.getpixel((x + 6 + dx, y + SQUARE // 2)) for dx in range(10)]


def test_infantry_overlay_dots_its_moves():
    s = build({"e2": "C", "h8": "G"}, active=C)
    im = decode(render_board(s, overlay="e2"))
    for name in ("d3", "e3", "f3", "d1", "e1", "f1", "d2", "f2"):
        assert px(im, name) == KEY["teal"], name
    assert px(im, "e4") == KEY[square_colour(square("e4"))]


def test_won_game_is_said_in_the_band_above_the_board_not_over_it():
    state, events, _ = SCENARIOS["won"]()
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is C
    im = decode(render_board(state, events))
    cx, cy = G.x0 + 4 * SQUARE, G.y0 + 4 * SQUARE
    assert KEY["banner"] not in [im.getpixel((x, cy)) for x in range(G.x0 + SQUARE // 2, cx)]
    band = [im.getpixel((x, y)) for x in range(G.pad, G.width // 2) for y in range(2, G.band_h - 2)]
    assert KEY["banner"] in band and KEY["gold"] in band  # gold words on the dark band


def test_viewer_does_not_change_the_picture():
    state, events, _ = SCENARIOS["wire_tie"]()
    assert render_board(state, events, viewer=GE) == render_board(state, events, viewer=C)


def test_rendering_random_games_never_crashes():
    """Every state of a few seeded random games (with all options), plus some overlays."""
    renders = 0
    for seed in range(3):
        s = new_game(Options(crosses=seed % 2 == 0, fighter_aces=seed != 1), seed)
        rng = random.Random(seed)
        events: list = []
        while renders < 90 * (seed + 1):
            im = draw(s, events, overlay=rng.choice(SQUARE_NAMES) if renders % 5 == 0 else None)
            assert im.width == Geo(SQUARE, 3 if s.options.crosses else 2).width
            assert im.height >= Geo(SQUARE, 3 if s.options.crosses else 2).height  # taller to say more
            renders += 1
            if s.is_over():
                break
            events = s.apply(rng.choice(s.legal_actions()))
    assert renders >= 150
    # The picture a bot actually sends, for the last of them.
    decode(render_board(s, events))


def test_concurrent_renders_agree():
    """Caches are shared between worker threads (asyncio.to_thread): the bytes must not depend on it."""
    cases = [SCENARIOS[n]() for n in ("barrage", "tank_and_strafe", "overlay", "won")]
    expected = [render_board(st, ev, overlay=ov) for st, ev, ov in cases]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda c: render_board(c[0], c[1], overlay=c[2]), cases * 4))
    assert got == expected * 4


def test_replay_gif_has_one_frame_per_action_and_matches_the_boards():
    log = random_log("blockwars", {}, 3, 40)
    data = render_replay("blockwars", {}, 3, log)
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and isinstance(gif, GifImagePlugin.GifImageFile)
    assert gif.n_frames == len(log) + 1
    from engine.blockwars import replay
    from render.blockwars.board import REPLAY_SQUARE
    from render.blockwars.board import draw as draw_board

    # Frames are exactly the board pictures of each step: check the middle and the last one.
    state = new_game(Options(), 3)
    pictures = []
    for side, notation in log:
        events = state.apply(notation, side)
        pictures.append(draw_board(state, events, s=REPLAY_SQUARE).convert("RGB"))
    for i in (len(log) // 2, len(log)):
        gif.seek(i)
        assert ImageChops.difference(gif.convert("RGB"), pictures[i - 1]).getbbox() is None, i
    assert final_is(state, replay(Options(), 3, [(Side(side), notation) for side, notation in log]))


def final_is(a, b) -> bool:
    return a.to_json() == b.to_json()


def test_replay_apng_decodes():
    log = random_log("blockwars", {}, 4, 12)
    im = Image.open(io.BytesIO(render_replay("blockwars", {}, 4, log, fmt="png")))
    assert im.format == "PNG" and getattr(im, "n_frames", 1) == len(log) + 1
    with pytest.raises(ValueError):
        render_replay("blockwars", {}, 4, log, fmt="bmp")


@pytest.mark.parametrize("name", golden.NAMES)
def test_golden_images(name):
    """Regenerate with `make golden` after an intended change of look."""
    stored = (golden.GOLDEN_DIR / f"{name}.png").read_bytes()
    assert golden.changed_share(golden.render(name), stored) <= golden.MAX_CHANGED


def test_measuring_records_the_text_sizes_drawn_even_from_cached_tiles():
    """The phone figure rests on this: a board measured twice records the same sizes, though the
    second render would otherwise paste its words from the first one's cached tiles."""
    from engine import registry
    from render import renderer
    from render.kit import css_px_at, font, measuring

    view = registry.game("blockwars").new_game({}, 1).view(None)
    draw = renderer("blockwars")
    draw.board(view, [])  # fill every cache
    with measuring() as first:
        png = draw.board(view, [])
    with measuring() as again:
        draw.board(view, [])
    assert first and sorted(first) == sorted(again)
    width = decode(png).width
    assert css_px_at(first, width) == min(first) * 400 / width
    with measuring() as sizes:
        font(40, True, scale=1 / 4)  # a sprite drawn at 4x and shrunk shows its text at a quarter
    assert sizes == [10.0]


def test_a_record_too_long_for_a_phone_keeps_its_last_lines_and_says_so() -> None:
    """`Column.tail`: the last lines that fit above the cap, after a heading and a line saying the
    history has the earlier ones; all of them when they fit; nothing at all when none does."""
    from render.blockwars.theme import PALETTE
    from render.kit import Column

    texts = [f"Line number {n} of the turn." for n in range(1, 41)]
    col = Column(PALETTE, 10, 100, 600, "page")
    left = col.tail(texts, 18, "text", 400, heading="Last:")
    words = [op[0] for op in col.ops if len(op) == 3]
    assert 0 < left < 40 and col.y <= 400
    assert len(words) == 2 + 40 - left  # the heading, the note, the lines kept
    whole = Column(PALETTE, 10, 100, 600, "page")
    assert whole.tail(texts[:3], 18, "text", 400, heading="Last:") == 0 and len(whole.ops) == 4
    none = Column(PALETTE, 10, 395, 600, "page")
    assert none.tail(texts, 18, "text", 400, heading="Last:") == 40 and none.ops == [] and none.y == 395
