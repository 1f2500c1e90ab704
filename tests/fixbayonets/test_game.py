"""The game as the platform sees it: notation, verbs, words, menus, quick decisions, JSON."""

from __future__ import annotations

import json
import random

import pytest

from engine.errors import InvalidNotation
from engine.fixbayonets import GAME
from engine.fixbayonets import actions as A
from engine.fixbayonets.model import Options
from engine.fixbayonets.state import FIGHTING, State, View, new_game
from engine.protocol import Verb

from .helpers import OPEN, G, legal, play, pos
from .helpers import A as AM

VERBS = {v.name: v for v in GAME.verbs}


def random_game(seed: int, steps: int = 400, options: dict | None = None):
    s = GAME.new_game(options or {}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if s.is_over():
            return
        side = min(s.to_act())
        yield s, side
        s.apply(rng.choice(s.legal_actions(side)), side)


@pytest.mark.parametrize(
    "text",
    [
        "setup RR/HR/SR/OR/OR/UR/HR/RR",
        "march Rd1-d3",
        "zigzag Ud1-e3",
        "march fwd ORd1,RRe1",
        "rifle3 Rd3xd6",
        "grenade Se4xf6",
        "negate trees",
        "negate foxholes",
        "pass",
        "lose O",
        "discard hold",
        "fight",
        "end",
        "orders never",
        "orders losses auto",
    ],
)
def test_notation_round_trips(text: str) -> None:
    assert str(GAME.parse(text)) == text


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("MARCH rD1-D3", "march Rd1-d3"),
        ("setup std", "setup RR/HR/SR/OR/OR/UR/HR/RR"),
        ("setup rr hr sr ro or ur rh rr", "setup RR/HR/SR/OR/OR/UR/HR/RR"),
        ("double time Rd1-d4", "double Rd1-d4"),
        ("Rifle (3) Rd3xd6", "rifle3 Rd3xd6"),
        ("flame thrower Hd4xd6", "flamer Hd4xd6"),
        ("march fwd RRe1 ord1", "march fwd ORd1,RRe1"),
        ("lose rifleman", "lose R"),
        ("negate fox holes", "negate foxholes"),
        ("end turn", "end"),
    ],
)
def test_notation_is_forgiving_and_canonical(typed: str, canonical: str) -> None:
    assert str(GAME.parse(typed)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "march",
        "march Rd1",
        "trees Rd1-d3",
        "rifle3 Rd1-d3",
        "march Rd1xd3",
        "negate march",
        "lose Q",
        "orders sometimes",
        "zigzag fwd RRd1",
        "march fwd Rd1",
        "march Ri1-d3",
        "fly A",
        "march Rd1-d3; end",
    ],
)
def test_bad_notation_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(InvalidNotation) as exc:
        GAME.parse(text)
    assert str(exc.value).strip().endswith((".", ")"))


def test_a_group_of_one_is_told_how_to_write_a_plain_move() -> None:
    with pytest.raises(InvalidNotation) as exc:
        GAME.parse("march fwd Rd1")
    assert str(exc.value) == (
        "A group move needs two men or more; one man moves with a plain move: the card, the man, a "
        "dash and the square he goes to (march Rd1-, then the square)."
    )
    # no example in backticks: the parser knows no position, and an offered example must be legal there


def test_every_legal_action_is_played_by_its_verb_through_a_whole_game() -> None:
    """A whole game can be played with the game's own commands: each action's verb, given the
    argument autocomplete offers, plays exactly that action."""
    seen_verbs = set()
    for s, side in random_game(4, 600):
        view = s.view(side)
        for action in s.legal_actions(side):
            verb = VERBS[GAME.verb_of(view, action)]
            assert verb.notation(verb.argument(str(action)) or None) == str(action)
            seen_verbs.add(verb.name)
    assert seen_verbs >= {"setup", "move", "attack", "negate", "pass", "discard", "fight", "end"}
    assert VERBS["lose"].notation("R") == "lose R" and VERBS["orders"].notation("never") == "orders never"
    assert VERBS["setup"].notation(None) == "setup std"


def test_statuses_are_public_sentences_naming_what_to_do() -> None:
    s = new_game(Options(), 1)
    assert "{player} (Germans): set up" in GAME.status(s.view(G), G)
    holding = pos({"d4": "GR"}, g=["march"], a=["rough"])
    empty_handed = pos({"d4": "GR"}, g=["march"], a=["bayonet"])
    for st in (holding, empty_handed):
        play(st, "march Rd4-d6")
    words = GAME.status(holding.view(AM), AM)
    assert words == GAME.status(empty_handed.view(AM), AM)  # asking tells nothing (R13)
    assert words.startswith("{player} (Americans): the Germans play March.") and "`pass`" in words
    lose = pos({"d4": "GR", "d5": "AOR", "h1": "AO"}, g=["bayonet"], phase=FIGHTING)
    play(lose, "bayonet Rd4xd5")
    assert GAME.status(lose.view(AM), AM).endswith("Choose who falls: `lose O` or `lose R`.")
    for s, side in random_game(7, 200):
        text = GAME.status(s.view(side), side)
        assert "{player}" in text and text.endswith(".")


def test_the_first_question_says_when_the_player_is_asked() -> None:
    """Hands hidden, the question comes after every card; face up, only with a fitting card (R13)."""
    hidden = pos({"d4": "GR"}, g=["march"], a=["bayonet"])
    face_up = pos({"d4": "GR"}, g=["march"], a=["rough"], options=OPEN)
    for st in (hidden, face_up):
        play(st, "march Rd4-d6")
    assert "You are asked after every card, whatever you hold;" in GAME.status(hidden.view(AM), AM)
    words = GAME.status(face_up.view(AM), AM)
    assert "whatever you hold" not in words
    assert "You are asked whenever you hold a card that could cancel it (hands are face up);" in words


def test_descriptions_fit_buttons_and_name_what_happens() -> None:
    s = pos({"d4": "GRR", "d5": "AOR", "e6": "AR"}, g=["pistol", "grenade"], phase=FIGHTING)
    view = s.view(G)
    words = {str(a): GAME.describe(view, a) for a in s.legal_actions(G)}
    assert words["pistol Rd4xd5"] == "Pistol: rifleman d4 fires a pistol at d5 (an officer and a rifleman)"
    assert words["grenade Rd4xe6"] == "Grenade: rifleman d4 throws a grenade at e6 (a rifleman)"
    for s2, side in random_game(5, 300):
        v = s2.view(side)
        for a in s2.legal_actions(side):
            assert 0 < len(GAME.describe(v, a)) <= 100


def test_the_channel_menu_never_depends_on_a_hand() -> None:
    holding = pos({"d4": "GR"}, g=["march"], a=["rough"])
    empty = pos({"d4": "GR"}, g=["march"], a=["sniper"])
    for st in (holding, empty):
        play(st, "march Rd4-d6")
    assert GAME.menu(holding.view(None)) == GAME.menu(empty.view(None))
    labels = [c.label for c in GAME.menu(holding.view(None)).buttons]
    assert labels == ["Let it stand", "Cancel it…", "Standing orders…"]


def test_the_cancel_submenu_shows_the_clicker_s_own_cards_only() -> None:
    s = pos({"d4": "GR"}, g=["march"], a=["rough", "hold", "trees"])
    play(s, "march Rd4-d6")
    view = s.view(AM)
    sub = GAME.submenu(view, s.legal_actions(AM), "negate")
    assert [c.notation for c in sub.buttons] == ["negate rough", "pass"]
    s2 = pos({"d4": "GR"}, g=["march"], a=["sniper"])
    play(s2, "march Rd4-d6")
    sub2 = GAME.submenu(s2.view(AM), s2.legal_actions(AM), "negate")
    assert "no card that can cancel" in sub2.title


def test_standing_orders_submenu_and_the_private_hand() -> None:
    s = pos({"d4": "GR"}, g=["march", "trees"], orders={G: {"negate": "officers"}})
    sub = GAME.submenu(s.view(G), s.legal_actions(G), "orders")
    assert "cancel attacks on my officers" in sub.title
    notations = [c.notation for p in sub.picks for c in p.choices]
    assert notations == [
        "orders ask",
        "orders never",
        "orders officers",
        "orders attacks",
        "orders always",
        "orders losses ask",
        "orders losses auto",
    ]
    for n in notations:
        assert n is not None and str(GAME.parse(n)) == n
    text = GAME.private_text(s.view(G)) or ""
    assert text.startswith("Your hand (2 cards): March and Trees.")
    assert "cancel attacks on my officers" in text
    assert GAME.private_text(s.view(AM)) is not None and "March" not in (GAME.private_text(s.view(AM)) or "")


def test_quick_decisions_and_their_defaults() -> None:
    s = pos({"d4": "GR"}, g=["march"], a=["rough"])
    assert not s.quick_decision() and s.default_action(G) is None
    play(s, "march Rd4-d6")
    assert s.quick_decision() and s.default_action(AM) == A.PASS and s.default_action(G) is None
    s.apply(s.default_action(AM), AM)
    assert not s.quick_decision()


def test_json_round_trips_mid_question_and_views_read_back() -> None:
    s = pos({"d4": "GR", "d5": "AOR", "h1": "AO"}, g=["bayonet", "march"], a=["trees"], phase=FIGHTING)
    play(s, "bayonet Rd4xd5")
    for state in (s,):
        data = json.loads(json.dumps(state.to_json()))
        again = State.from_json(data)
        assert again.to_json() == state.to_json() and again.to_act() == state.to_act()
        assert [str(a) for a in again.legal_actions()] == [str(a) for a in state.legal_actions()]
        for viewer in (G, AM, None):
            v = state.view(viewer)
            assert View.from_json(json.loads(json.dumps(v.to_json()))).to_json() == v.to_json()


def test_options_normalise_and_start_games() -> None:
    assert GAME.normalise_options({}) == {"open_hands": False, "turn_limit": 30}
    assert GAME.normalise_options({"open_hands": "yes", "turn_limit": "12"}) == {
        "open_hands": True,
        "turn_limit": 12,
    }
    with pytest.raises(ValueError, match="between 0 and 99"):
        GAME.normalise_options({"turn_limit": 100})
    s = GAME.new_game({"open_hands": True}, 3)
    s.apply("setup std", G)
    s.apply("setup std", AM)
    s.apply("end", G)  # the Americans draw: with hands face up the Germans see what
    assert s.options == OPEN and s.view(G).state.hands[AM]
    from play.present import limits_text, options_text, terms_text

    assert options_text(GAME, {"open_hands": True, "turn_limit": 30}) == "Strategic Version"
    assert limits_text(GAME, {"turn_limit": 30}).startswith("Turn limit: 30 rounds, then a draw")
    assert (
        limits_text(GAME, {"turn_limit": 0}) == "Turn limit: none (a rule of ours, set with the challenge)."
    )
    assert terms_text(GAME, {"open_hands": True, "turn_limit": 12}) == (
        " Optional rules: Strategic Version. Turn limit: 12 rounds, then a draw "
        "(a rule of ours, set with the challenge; 0 switches it off)."
    )


def test_verbs_cover_every_kind_of_action() -> None:
    kinds = {p for v in GAME.verbs for p in v.plays}
    assert kinds == {"setup", "move", "attack", "negate", "pass", "lose", "discard", "fight", "end", "orders"}
    assert all(isinstance(v, Verb) and len(v.description) <= 100 for v in GAME.verbs)


def test_group_labels_for_the_take_action_flow() -> None:
    s = pos({"d4": "GRR", "e4": "GS"}, g=["march"])
    view = s.view(G)
    groups = {GAME.group_of(view, a) for a in s.legal_actions(G)}
    assert {"Rd4", "Se4", "group", None} <= groups
    assert GAME.group_label(view, "Rd4") == "The rifleman on d4"
    assert GAME.group_label(view, "group") == "Several men forward with one card"
    assert legal(s) >= {"march fwd RRd4,Se4", "march fwd RRd4"}
