"""The board picture: readable marks for what happened, on every board size (pixel probes by colour)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from engine.combinedarms.game import WWI_GAME, WWII_GAME
from render import kit, seen
from render.combinedarms import RENDERER
from render.combinedarms.board import geo
from render.combinedarms.theme import KEY
from render.combinedarms.ww2 import RENDERER as RENDERER_WWII
from tests.combinedarms.helpers import BRITISH, GERMANS, at, build, play


class counts:
    """Pixels of (about) a key colour on a board PNG: the palette mapping may shift a colour by a
    step or two, so colours within 4 of it on each channel count."""

    def __init__(self, png: bytes) -> None:
        im = Image.open(io.BytesIO(png))
        assert im.format == "PNG" and im.mode == "P"
        # Pillow's stub types a colour as float | tuple; an RGB image's colours are triples.
        colours = im.convert("RGB").getcolors(1 << 20) or []
        self.by_rgb: dict[tuple[int, int, int], int] = {
            rgb: n for n, rgb in colours if isinstance(rgb, tuple) and len(rgb) == 3
        }

    def __getitem__(self, name: str) -> int:
        r, g, b = KEY[name]
        return sum(
            n
            for (x, y, z), n in self.by_rgb.items()
            if abs(x - r) <= 4 and abs(y - g) <= 4 and abs(z - b) <= 4
        )


def test_boards_of_both_eras_and_the_campaign_draw():
    for game, draw in ((WWI_GAME, RENDERER), (WWII_GAME, RENDERER_WWII)):
        for options in ({}, {"campaign": True}):
            s = game.new_game(options, 2)
            png = draw.board(s.view(None), [])
            im = Image.open(io.BytesIO(png))
            assert 600 <= im.size[0] <= 700 and im.size[1] <= 1.4 * im.size[0]  # a phone's width
            frame = draw.frame(s.view(None), [])
            assert frame.size[0] < im.size[0]


def test_the_last_action_is_framed_and_attacks_and_damage_are_marked():
    s = build("wwi", {"d3": "T", "d5": "i", "a1": "H", "h8": "h"})
    quiet = counts(RENDERER.board(s.view(None), []))
    assert quiet["last"] == 0 and quiet["dmg"] == 0
    events = play(s, BRITISH, "d3-d4")
    moved = counts(RENDERER.board(s.view(None), seen(events, None)))
    assert moved["last"] > 100 and moved["move0"] > 50
    events = play(s, BRITISH, "done", "d4xd5")
    hit = counts(RENDERER.board(s.view(None), seen(events, None)))
    assert hit["hit"] > 20 and hit["dmg"] > 20


def test_retreats_and_destroyed_units_of_the_turn_are_drawn():
    s = build("wwi", {"c4": "F", "e4": "F", "d5": "i", "c6": "i", "e6": "i", "a1": "H", "h8": "h"})
    play(s, BRITISH, "done", "c4xd5", "e4xd5")  # the only square: d6
    retreat = counts(RENDERER.board(s.view(None), []))
    assert retreat["retreat"] > 50
    s = build("wwi", {"c4": "F", "e4": "F", "d5": "i", "c6": "i", "d6": "i", "e6": "i", "a1": "H", "h8": "h"})
    before = counts(RENDERER.board(s.view(None), []))
    play(s, BRITISH, "done", "c4xd5", "e4xd5")  # destroyed
    assert at(s, "d5") == -1
    after = counts(RENDERER.board(s.view(None), []))
    assert after["hit"] > before["hit"] + 100  # the red cross over d5
    # Still shown at the start of the next turn, as the last turn's marks.
    play(s, BRITISH, "end")
    assert counts(RENDERER.board(s.view(None), []))["hit"] > 100


def test_terrain_cities_and_the_focus_overlay_show():
    s = build("wwi", {"d3": "T", "a1": "H", "h8": "h"}, terrain={"e5": "B", "c4": "T", "d5": "N"})
    png = counts(RENDERER.board(s.view(None), []))
    assert png["bunker"] > 100 and png["trench"] > 100 and png["nml"] > 100
    focus = counts(RENDERER.board(s.view(None), [], "d3"))
    assert focus["reach"] > png["reach"] + 200
    w = build(
        "wwii",
        {"d3": "T", "a1": "H", "h8": "h"},
        cities=["c4", "f5"],
        terrain={"e4": "D"},
        options={"cities": True, "difficult": True},
    )
    png = counts(RENDERER_WWII.board(w.view(None), []))
    assert png["city"] > 100 and png["difficult"] > 100


def test_elite_units_wear_a_star_and_the_hq_a_gold_rim():
    plain = build("wwi", {"d3": "T", "a1": "I", "h8": "i"})
    star = build("wwi", {"d3": "T*", "a1": "I", "h8": "i"})
    hq = build("wwi", {"d3": "H", "a1": "I", "h8": "i"})
    a = counts(RENDERER.board(plain.view(None), []))
    b = counts(RENDERER.board(star.view(None), []))
    c = counts(RENDERER.board(hq.view(None), []))
    assert b["elite"] > a["elite"] + 30
    assert c["hq"] > a["hq"] + 50


def test_a_damage_badge_stays_readable_under_an_attack_line_crossing_it():
    # An attack from up and to the right of its target runs over the target's top-right corner,
    # where the red "taken/defence" badge is; the badge is drawn above the line, so it is whole.
    crossing = build("wwi", {"d4": "I", "e5": "i", "a1": "H", "h8": "h"}, active=1)
    clear = build("wwi", {"d4": "I", "c5": "i", "a1": "H", "h8": "h"}, active=1)
    play(crossing, GERMANS, "done", "e5xd4")
    play(clear, GERMANS, "done", "c5xd4")
    badge = counts(RENDERER.board(crossing.view(None), []))["dmg"]
    assert badge == counts(RENDERER.board(clear.view(None), []))["dmg"] > 20


def test_attack_lines_run_under_the_units_they_cross():
    """Issue 21: the last turn's attack lines crossed unit symbols, half hiding a unit. A line now
    runs under the tokens: a unit it passes over looks exactly as it does with no attack at all,
    and only the arrowhead at the target's rim sits on top."""
    pieces = {"d1": "A", "d3": "I", "d5": "i", "a1": "H", "h8": "h"}
    attacked, quiet = build("wwi", pieces), build("wwi", pieces)
    play(attacked, BRITISH, "done", "d1xd5")  # the artillery fires over its own infantry on d3
    play(quiet, BRITISH, "done")
    g = geo(8, 8, RENDERER.square)

    def square(png: bytes, name: str) -> bytes:
        x, y = g.xy(attacked.g.index[name])
        inset = round(g.s * 0.1)
        im = Image.open(io.BytesIO(png)).convert("RGB")
        return im.crop((x + inset, y + inset, x + g.s - inset, y + g.s - inset)).tobytes()

    hit = RENDERER.board(attacked.view(None), [])
    still = RENDERER.board(quiet.view(None), [])
    assert square(hit, "d3") == square(still, "d3")  # the crossed unit: untouched
    assert counts(hit)["hit"] > counts(still)["hit"] + 50  # the line and its arrowhead are there


def test_a_whole_turn_is_said_in_full_without_an_ellipsis():
    """One board per hand-off: an AI's whole turn arrives as one list of events. The moves are
    counted (their lines show each), and every attack is said on its own line: nothing is cut."""
    from engine.combinedarms.state import View
    from render.combinedarms.board import _said

    s = build("wwi", {"c4": "F", "e4": "F", "d2": "I", "e2": "I", "f2": "I", "g2": "I", "b2": "I",
                      "d5": "i", "c6": "i", "e6": "i", "a1": "H", "h8": "h"})  # fmt: skip
    events = play(s, BRITISH, "d2-d3", "e2-e3", "f2-f3", "g2-g3", "b2-b3", "done", "c4xd5", "e4xd5")
    view = s.view(None)
    assert isinstance(view, View)
    lines = _said(s, seen(events, None), None)
    assert lines[0] == "5 British moves, drawn as lines from where each unit stood."
    assert sum(" damage (" in line for line in lines) == 2 and not any("…" in line for line in lines)
    png = RENDERER.board(view, seen(events, None))
    assert Image.open(io.BytesIO(png)).height > geo(8, 8, RENDERER.square).height  # it grew to say it


def test_a_resignation_is_said_once_below_the_board():
    """The end board said it three times: the heading, 'The Germans resigned.' and, under 'Last:',
    'The Germans resigned: the British win.' The heading and the first line say it now; 'Last:'
    keeps what else the turn did (the draw offered before it)."""
    from engine.combinedarms.state import View
    from render.combinedarms.board import _said

    s = build("wwi", {"d2": "I", "d7": "i", "a1": "H", "h8": "h"}, active=1)
    events = [e for text in ("offer draw", "resign") for e in s.apply(WWI_GAME.parse(text), GERMANS)]
    assert s.result is not None and s.result.detail == "the Germans resigned"
    assert _said(s, seen(events, None), None) == ["The Germans offer a draw."]
    view = s.view(None)
    assert isinstance(view, View)
    Image.open(io.BytesIO(RENDERER.board(view, seen(events, None)))).verify()


def test_a_retreat_owed_names_whose_unit_it_is(monkeypatch) -> None:
    """The box said "Retreat owed: Infantry on d5": on a board both sides and spectators read, it
    names the side, as the lines under it do."""
    drawn: list[str] = []
    real = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: object, words: object, *args: object, **kw: object) -> None:
        drawn.append(str(words))
        real(self, xy, words, *args, **kw)  # type: ignore[arg-type, type-var]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    s = build("wwi", {"c4": "F", "e4": "F", "d5": "i", "a1": "H", "h8": "h"})
    play(s, BRITISH, "done", "c4xd5", "e4xd5")  # two squares to choose from: the Germans owe it
    assert s.pending is not None
    with kit.measuring():
        RENDERER.board(s.view(None), [])
    said = " ".join(drawn)
    assert "Retreat owed: German Infantry on d5" in said, said
