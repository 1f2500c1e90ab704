"""WWII Combined Arms as a player meets it: the words of its help, refusals and events.

Found in a QA pass played through the console; each test failed before its fix.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.combinedarms.game import WWII_GAME
from engine.combinedarms.state import State, new_game
from engine.combinedarms.units import WWII
from engine.errors import IllegalAction, InvalidNotation
from render.combinedarms.board import geo
from render.combinedarms.theme import KEY
from render.combinedarms.ww2 import RENDERER as RENDERER_WWII
from tests.combinedarms.helpers import AMERICANS, GERMANS, build, play
from tests.combinedarms.test_render import counts


def _colour(png: bytes, name: str) -> int:
    """Pixels of (about) a key colour on a board PNG."""
    return counts(png)[name]


def _letters_are_wwii(text: str) -> None:
    """Every unit row or army in backticks uses only this game's letters."""
    for chunk in text.split("`")[1::2]:
        if chunk.startswith("deploy "):
            rows = chunk[len("deploy ") :]
            if rows in ("line", "wedge", "flanks"):
                continue
            assert set(rows) <= set(WWII.codes) | set("./*"), chunk


# ------------------------------------------------------------------ examples in this game's letters


def test_the_setup_help_and_the_deploy_verb_show_a_wwii_deployment():
    setup = WWII_GAME.rules["setup"]
    _letters_are_wwii(setup)
    assert "FS." not in setup
    deploy = next(v for v in WWII_GAME.verbs if v.name == "deploy")
    assert "S" not in deploy.arg_description.replace("line, wedge, flanks", "")
    # The example given is a real deployment of the `balanced` army.
    rows = setup.split("`deploy ")[-1].split("`")[0]
    s = new_game("wwii", {}, 1)
    play(s, AMERICANS, "army balanced")
    play(s, GERMANS, "army balanced")
    play(s, AMERICANS, f"deploy {rows}")


@pytest.mark.parametrize("text", ["army", "army I3 ?2"])
def test_army_notation_errors_give_wwii_letters(text: str):
    with pytest.raises(InvalidNotation) as e:
        WWII_GAME.parse(text)
    assert "S2" not in str(e.value) and "I8" not in str(e.value)


def test_an_unknown_ready_made_army_is_named_as_such():
    with pytest.raises(InvalidNotation) as e:
        WWII_GAME.parse("army fortres")
    msg = str(e.value)
    assert "no ready-made army 'fortres'" in msg and "fortress" in msg


# ------------------------------------------------------------------ army limits say what they are


def test_the_headquarters_is_asked_for_as_exactly_one():
    s = new_game("wwii", {}, 1)
    with pytest.raises(IllegalAction) as none:
        s.apply("army I4 F4 E4 A1 X1 Y1 R1", AMERICANS)
    assert "exactly 1 Headquarters" in str(none.value) and "at least" not in str(none.value)
    with pytest.raises(IllegalAction) as two:
        s.apply("army I3 E2 M2 L1 T2 A2 X1 Y1 H2", AMERICANS)
    assert "exactly 1 Headquarters" in str(two.value)


def test_the_tank_cap_reads_once():
    s = new_game("wwii", {}, 1)
    with pytest.raises(IllegalAction) as e:
        s.apply("army I3 E2 M2 L2 T2 K2 A1 X1 H1", AMERICANS)
    assert str(e.value) == (
        "An army may have at most 5 tanks in all (light, medium and heavy together); this one has 6."
    )


# ------------------------------------------------------------------ plural unit names agree


def test_plural_unit_names_take_plural_verbs():
    s = build("wwii", {"d6": "E", "d7": "i", "c2": "P", "a1": "H", "h8": "h", "d5": "p", "e5": "p"})
    with pytest.raises(IllegalAction) as far:
        s.apply("c2-c4", AMERICANS)
    assert "Your Paratroopers move at most 1 square" in str(far.value)
    play(s, AMERICANS, "d6xd7")
    with pytest.raises(IllegalAction) as twice:
        s.apply("d6xd7", AMERICANS)
    assert "Your Engineers on d6 have already attacked" in str(twice.value)
    with pytest.raises(IllegalAction) as reach:
        s.apply("c2xd5", AMERICANS)
    assert "Your Paratroopers have range 1" in str(reach.value)


def test_retreat_words_agree_with_plural_names():
    s = build("wwii", {"d4": "E", "c5": "a", "d5": "a", "e5": "a", "f6": "a", "a1": "H", "h8": "h"}, active=1)
    events = play(s, GERMANS, "done", "c5xd4", "d5xd4", "e5xd4", "f6xd4")
    owed = events[-1]
    assert owed.text() == "the Americans must choose where their Engineers on d4 retreat (d3, e3, c3)"
    with pytest.raises(IllegalAction) as first:
        play(s, AMERICANS, "d2-d3")
    assert str(first.value) == "First choose where your Engineers on d4 retreat: d3, e3 or c3 (`retreat d3`)."
    moved = play(s, AMERICANS, "retreat d3")
    assert moved[-1].text() == "the American Engineers retreat from d4 to d3"
    # A singular name keeps its singular verb, and the Headquarters stays singular.
    s = build(
        "wwii",
        {"d4": "I", "c5": "a", "d5": "a", "e5": "a", "f6": "a", "g6": "a", "a1": "H", "h8": "h"},
        active=1,
    )
    events = play(s, GERMANS, "done", "c5xd4", "d5xd4", "e5xd4", "f6xd4", "g6xd4")
    assert events[-1].text().endswith("General Infantry on d4 retreats (d3, e3, c3)")
    with pytest.raises(IllegalAction) as hq:
        build("wwii", {"a1": "H", "h8": "h"}).apply("a1-a2", AMERICANS)
    assert str(hq.value).startswith("Your Headquarters cannot move")


# ------------------------------------------------------------------ reinforcements say why


def _due(pieces: dict[str, str]) -> State:
    return build("wwii", pieces, options={"reinforcements": True}, turn=3)


def test_a_refused_reinforcement_names_the_limit_it_breaks():
    s = _due({"a1": "H", "h8": "h", "a2": "L", "b2": "L", "c2": "T", "d2": "T", "e2": "K", "f2": "I"})
    with pytest.raises(IllegalAction) as tank:
        s.apply("L@b1", AMERICANS)
    assert "5 tanks" in str(tank.value) and "General Infantry (I)" in str(tank.value)
    with pytest.raises(IllegalAction) as fort:
        s.apply("F@b1", AMERICANS)
    assert "A reinforcement is never a base, so not a Fortification." in str(fort.value)
    s = _due({"a1": "H", "h8": "h", "a2": "I", "b2": "I", "c2": "I", "d2": "I"})
    with pytest.raises(IllegalAction) as four:
        s.apply("I@b1", AMERICANS)
    assert "4 General Infantry" in str(four.value)


def test_the_reinforcement_example_is_one_that_can_be_played():
    s = _due({"a1": "H", "b1": "F", "h8": "h", "a2": "I", "b2": "I", "c2": "I", "d2": "I"})
    with pytest.raises(IllegalAction) as e:
        s.apply("a2-a3", AMERICANS)
    example = str(e.value).split("`")[1]
    play(s, AMERICANS, example)


def test_reinforcements_without_the_option_say_it_is_not_in_play():
    s = build("wwii", {"a1": "H", "h8": "h"}, turn=3)
    with pytest.raises(IllegalAction) as e:
        s.apply("I@b1", AMERICANS)
    assert "not in play" in str(e.value)
    s = _due({"a1": "H", "h8": "h"})
    play(s, AMERICANS, "I@b1", "end")
    play(s, GERMANS, "I@a8", "end")
    with pytest.raises(IllegalAction) as e:
        s.apply("I@c1", AMERICANS)
    assert "turn 6" in str(e.value)


def test_paratroopers_out_of_reach_are_told_about_the_airfield_boost():
    s = build("wwii", {"a1": "H", "h8": "h", "c2": "P"})
    with pytest.raises(IllegalAction) as e:
        s.apply("c2-c4", AMERICANS)
    assert "Move 4 when their turn begins next to a friendly Airfield" in str(e.value)


# ------------------------------------------------------------------ the board picture


def test_an_airfields_focus_frames_only_what_it_may_attack():
    shielded = build("wwii", {"c2": "R", "a1": "H", "e5": "i", "e6": "y", "h8": "h"})
    quiet = _colour(RENDERER_WWII.board(shielded.view(None), []), "hit")
    focus = _colour(RENDERER_WWII.board(shielded.view(None), [], "c2"), "hit")
    assert focus == quiet  # the AA gun covers both: nothing to frame (W3)
    open_ = build("wwii", {"c2": "R", "a1": "H", "e5": "i", "h8": "h"})
    quiet = _colour(RENDERER_WWII.board(open_.view(None), []), "hit")
    focus = _colour(RENDERER_WWII.board(open_.view(None), [], "c2"), "hit")
    assert focus > quiet + 100


def test_the_key_to_the_board_gives_cities_their_defence_bonus_when_they_are_difficult():
    """The board's legend moved to the `rules board` topic (issue 21: boards read on a phone)."""
    key = WWII_GAME.rules["board"]
    assert "cities (buildings; +1 defence too when Difficult Terrain is on)" in key


def test_both_deployment_edges_show_over_full_front_ranks():
    s = build(
        "wwii",
        {**{f"{f}3": "I" for f in "abcdefgh"}, **{f"{f}6": "i" for f in "abcdefgh"}, "a1": "H", "h8": "h"},
    )
    im = Image.open(io.BytesIO(RENDERER_WWII.board(s.view(None), []))).convert("RGB")
    rgb, width = im.tobytes(), im.size[0]
    g = geo(8, 8, RENDERER_WWII.square)
    muted = KEY["muted"]
    for rank in (3, 6):
        y = g.y0 + (8 - rank) * g.s if rank == 3 else g.y0 + (8 - rank + 1) * g.s
        dashes = sum(1 for x in range(g.m, g.m + 8 * g.s) if _near(rgb, width, x, y, muted))
        assert dashes > 8 * g.s // 4, rank


def _near(rgb: bytes, width: int, x: int, y: int, colour: tuple[int, int, int]) -> bool:
    at = 3 * (y * width + x)
    return all(abs(rgb[at + k] - colour[k]) <= 4 for k in range(3))


# ------------------------------------------------------------------ the short rules


def test_the_wwii_endings_name_the_city_victory_and_the_options_say_what_they_do():
    endings = WWII_GAME.rules["endings"]
    assert "Headquarters" in endings and "every city" in endings
    options = WWII_GAME.rules["options"]
    assert "as in WWI" not in options
    for words in ("+1 defence and always do 2", "five enemy units", "every third turn"):
        assert words in options
    assert next(o for o in WWII_GAME.options if o.name == "difficult").label == "Difficult Terrain"


# ------------------------------------------------------------------ ready-made layouts


@pytest.mark.parametrize("campaign", [False, True])
@pytest.mark.parametrize("style", ["line", "wedge", "flanks"])
def test_ready_layouts_put_the_airborne_paratroopers_next_to_their_airfields(style: str, campaign: bool):
    s = new_game("wwii", {"campaign": campaign}, 4)
    play(s, AMERICANS, "army airborne")
    play(s, GERMANS, "army airborne")
    play(s, AMERICANS, f"deploy {style}")
    play(s, GERMANS, f"deploy {style}")
    for side in (0, 1):
        paras = [u for u in s.alive(side) if s.u_code[u] == "P"]
        near = s.g.spread(sum(1 << s.u_sq[u] for u in s.alive(side) if s.u_code[u] == "R"))
        assert all(near >> s.u_sq[u] & 1 for u in paras), (style, side)
    assert s.boosted == {u for u in s.alive(0) if s.u_code[u] == "P"}  # Move 4 on turn 1 (W4)


# ------------------------------------------------------------------ refusals offer examples accepted here


def _offered(text: str) -> list[str]:
    return text.split("`")[1::2]


@pytest.mark.parametrize("options", [{}, {"campaign": True}])
def test_a_misspelt_army_or_layout_offers_wwii_examples_that_are_accepted(options: dict):
    """`army balancd` offered `army I8 S2 H1` (no S in WWII, 8 General Infantry over its limit of 4)
    and `deploy wedgie` a WWI row. Each example offered is now accepted in that very position, the
    Campaign's larger armies included."""
    s = new_game("wwii", options, 1)
    with pytest.raises(InvalidNotation) as army:
        WWII_GAME.parse_in("army balancd", s, AMERICANS)
    (example,) = [e for e in _offered(str(army.value)) if e.startswith("army ")]
    assert "S" not in example.split()[1:] and "I8" not in example
    s.clone().apply(WWII_GAME.parse(example), AMERICANS)  # accepted
    play(s, AMERICANS, "army balanced")
    play(s, GERMANS, "army armoured")
    with pytest.raises(InvalidNotation) as layout:
        WWII_GAME.parse_in("deploy wedgie", s, AMERICANS)
    offered = _offered(str(layout.value))
    assert offered and any(e.startswith("deploy ") and "/" in e for e in offered)
    _letters_are_wwii(str(layout.value))
    for example in offered:
        s.clone().apply(WWII_GAME.parse(example), AMERICANS)  # each is accepted
    # Out of its time, a verb's refusal offers what is legal instead.
    with pytest.raises(InvalidNotation) as late:
        WWII_GAME.parse_in("army balancd", s, AMERICANS)
    assert "not the time to choose an army" in str(late.value)
    for example in _offered(str(late.value)):
        s.clone().apply(WWII_GAME.parse(example), AMERICANS)


def test_without_a_position_the_examples_are_a_whole_army_of_the_era():
    """The notation's own examples (a parse with no game in view) are whole standard armies."""
    for text in ("army balancd", "army", "army I3 ?2"):
        with pytest.raises(InvalidNotation) as e:
            WWII_GAME.parse(text)
        for example in _offered(str(e.value)):
            new_game("wwii", {}, 1).apply(WWII_GAME.parse(example), AMERICANS)
