"""The games as the platform sees them: notation, verbs, words, menus and chained commands."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.combinedarms import actions as A
from engine.combinedarms.game import WWI_GAME, WWII_GAME
from engine.combinedarms.words import phase_words
from engine.errors import IllegalAction, InvalidNotation
from tests.combinedarms.helpers import AMERICANS, BRITISH, GERMANS, E, at, build, play

NOTATIONS = [
    "army balanced",
    "army I8 S1 M1 T2 A2 F1 H1",
    "deploy line",
    "deploy AAH..FS./IIIIIIII/..T*T..M.",
    "b2-c4",
    "k10-l9",
    "c4xd6",
    "done",
    "end",
    "retreat e4",
    "T@a1",
    "autoretreat on",
    "autoretreat off",
]


@pytest.mark.parametrize("text", NOTATIONS)
def test_notation_round_trips(text: str):
    action = WWI_GAME.parse(text)
    assert str(action) == text and WWI_GAME.parse(str(action)) == action


def test_notation_is_forgiving_about_case_and_spaces():
    assert str(WWI_GAME.parse("  B2 - C4 ")) == "b2-c4"
    assert str(WWI_GAME.parse("C4 X D6")) == "c4xd6"
    assert str(WWI_GAME.parse("Retreat to E4")) == "retreat e4"
    assert str(WWI_GAME.parse("t @ a1")) == "T@a1"
    assert str(WWI_GAME.parse("End Turn")) == "end"
    assert str(WWI_GAME.parse("deploy ..a.h.../iiiiiiii")) == "deploy ..A.H.../IIIIIIII"


@pytest.mark.parametrize("text", ["b2c4", "army", "deploy", "deploy ab?d", "autoretreat maybe", "fly away"])
def test_nonsense_is_invalid_notation_with_help(text: str):
    with pytest.raises(InvalidNotation):
        WWI_GAME.parse(text)


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("army foo", "balanced, assault, guns or firepower"),
        ("army ass", "balanced, assault, guns or firepower"),  # not 1 Artillery and 2 Snipers
        ("deploy fancy", "line, wedge or flanks"),
    ],
)
def test_a_misspelt_ready_made_name_is_called_a_name_and_the_names_listed(text: str, names: str):
    with pytest.raises(InvalidNotation) as refused:
        WWI_GAME.parse(text)
    verb, word = text.split()
    kind = {"army": "army", "deploy": "layout"}[verb]
    assert f"no ready-made {kind} '{word}'" in str(refused.value)
    assert names in str(refused.value)


def test_the_standing_order_is_an_anytime_action():
    assert A.AutoRetreat(True).anytime and not A.END.anytime


def test_registry_entries_and_metadata():
    assert registry.game("combinedarms") is WWI_GAME
    assert registry.game("combinedarms_wwii") is WWII_GAME
    assert [s.name for s in WWI_GAME.sides] == [BRITISH, GERMANS]
    assert [s.name for s in WWII_GAME.sides] == [AMERICANS, GERMANS]
    assert {o.name for o in WWI_GAME.options} == {
        "terrain",
        "elite",
        "experienced",
        "reinforcements",
        "campaign",
        "turns",
    }
    assert {o.name for o in WWII_GAME.options} == {
        "cities",
        "difficult",
        "elite",
        "experienced",
        "reinforcements",
        "campaign",
        "turns",
    }
    verbs = {v.name for v in WWI_GAME.verbs}
    assert {"army", "deploy", "move", "done", "attack", "end", "retreat", "reinforce", "autoretreat"} == verbs
    army = next(v for v in WWI_GAME.verbs if v.name == "army")
    assert army.notation("balanced") == "army balanced" and army.notation("army guns") == "army guns"
    assert army.argument("army I8 H1") == "I8 H1"


def test_status_says_whose_turn_and_what_to_do():
    s = WWI_GAME.new_game({}, 1)
    text = WWI_GAME.status(s.view(BRITISH), BRITISH)
    assert text.startswith("{player} (British): choose your army in secret") and text.endswith(".")
    s = build("wwi", {"d4": "I", "e4": "T", "a1": "H", "h8": "h"})
    text = WWI_GAME.status(s.view(BRITISH), BRITISH)
    assert "move phase" in text and "2 units can still move" in text
    play(s, BRITISH, "d4-d5")
    assert "1 unit can still move" in WWI_GAME.status(s.view(BRITISH), BRITISH)
    s = build("wwi", {"d1": "A", "d5": "i", "a1": "H", "h8": "h"})
    s.u_dmg[at(s, "d5")] = 2
    play(s, BRITISH, "done", "d1xd5")
    text = WWI_GAME.status(s.view(GERMANS), GERMANS)
    assert "your Infantry on d5 must retreat" in text and "`retreat d6`" in text


def test_the_board_header_names_the_side_then_its_turn():
    """Without a comma, "Germans turn 1" read as a typo: the side, a comma, then its turn."""
    s = build("wwi", {"d4": "I", "a1": "H", "h8": "h"})
    assert phase_words(s) == "British, turn 1: move phase"
    play(s, BRITISH, "done", "end")
    assert phase_words(s) == "Germans, turn 1: move phase"


def test_the_status_example_is_a_move_or_attack_the_side_can_really_play():
    # The Germans play down the board: `b2-c4` and `c4xd6` are no use to them as examples.
    s = build("wwi", {"d7": "i", "e4": "T", "a1": "H", "h8": "h"}, active=1)
    text = WWI_GAME.status(s.view(GERMANS), GERMANS)
    example = text.split("e.g. `")[1].split("`")[0]
    assert example in {str(a) for a in s.legal_actions(GERMANS)} and example.startswith("d7-")
    assert "1 unit can still move" in text
    play(s, GERMANS, "d7-e5", "done")
    text = WWI_GAME.status(s.view(GERMANS), GERMANS)
    assert "e.g. `e5xe4`" in text and "1 unit can attack now" in text
    play(s, GERMANS, "e5xe4")
    text = WWI_GAME.status(s.view(GERMANS), GERMANS)
    assert "0 units" not in text and "e.g." not in text
    assert "no unit of yours can attack now" in text and "`end`" in text


def test_describe_group_and_verb_of_each_kind_of_action():
    s = build("wwi", {"d4": "M", "d5": "i", "a1": "H", "h8": "h"})
    v = s.view(BRITISH)
    move = A.Move("d4", "c4")
    assert WWI_GAME.describe(v, move) == "Machine Gun d4 → c4"
    assert WWI_GAME.group_of(v, move) == "d4" and WWI_GAME.group_label(v, "d4") == "Machine Gun on d4"
    assert WWI_GAME.verb_of(v, move) == "move"
    shot = A.Attack("d4", "d5")
    assert WWI_GAME.describe(v, shot) == "Machine Gun d4 attacks Infantry d5 (2 of 3 damage)"
    assert WWI_GAME.verb_of(v, shot) == "attack"
    assert WWI_GAME.verb_of(v, A.DONE) == "done" and WWI_GAME.verb_of(v, A.END) == "end"
    assert WWI_GAME.describe(v, A.Reinforce("T", "a1")) == "Reinforcement: Tank on a1"
    assert WWI_GAME.group_label(v, "+T") == "Reinforcement: Tank"


def test_an_attack_that_will_destroy_says_so_in_its_description():
    # The Sniper on d5 falls back once (to d6); forced back again, it is destroyed (the Double Whammy).
    s = build("wwi", {"c4": "F", "c5": "F", "d5": "s", "a1": "H", "h8": "h"})
    s.auto[1] = True
    play(s, BRITISH, "done")
    assert WWI_GAME.describe(s.view(BRITISH), A.Attack("c4", "d5")).endswith("(forces a retreat)")
    play(s, BRITISH, "c4xd5")
    assert at(s, "d6") >= 0
    text = WWI_GAME.describe(s.view(BRITISH), A.Attack("c5", "d6"))
    assert "destroys it" in text and "second retreat" in text
    # Nowhere to go: the attack destroys too.
    s = build(
        "wwi",
        {"d4": "F", "d5": "i", "c6": "i", "d6": "i", "e6": "i", "c5": "i", "e5": "i", "a1": "H", "h8": "h"},
    )
    play(s, BRITISH, "done")
    s.u_dmg[at(s, "d5")] = 1
    text = WWI_GAME.describe(s.view(BRITISH), A.Attack("d4", "d5"))
    assert "destroys it" in text and "no square to retreat to" in text
    # The Headquarters falling is the end of the game.
    s = build("wwi", {"d7": "F", "e7": "F", "d8": "h", "a1": "H"})
    play(s, BRITISH, "done", "d7xd8")
    text = WWI_GAME.describe(s.view(BRITISH), A.Attack("e7", "d8"))
    assert "destroys it" in text and "wins the game" in text


def test_an_attack_on_the_wwi_headquarters_with_room_behind_it_says_it_wins():
    """R14: the Headquarters cannot move, so it falls even with every square behind it free; the
    attack's description (buttons, the Take action list) must not promise a mere retreat."""
    s = build("wwi", {"d5": "F", "e5": "F", "d6": "h", "a1": "H"})
    play(s, BRITISH, "done", "d5xd6")
    assert s.retreat_squares(at(s, "d6"))  # d7, c7 and e7 are all free
    text = WWI_GAME.describe(s.view(BRITISH), A.Attack("e5", "d6"))
    assert text.endswith("(destroys it: a unit that cannot move cannot retreat, and wins the game)")
    events = play(s, BRITISH, "e5xd6")
    assert any(isinstance(e, E.Destroyed) and e.why == "cannot move" for e in events) and s.is_over()


def test_the_rules_topics_give_the_campaign_army_too():
    # A Campaign player asking `rules army` must not read only "exactly 16 units".
    army = WWI_GAME.rules["army"]
    lim = WWI_GAME.new_game({"campaign": True}, 1).rules.limits
    assert f"{lim.size} units" in army and "at least 12 Infantry" in army and "at most 7 Artillery" in army
    assert "Elite: up to 2 units" in WWI_GAME.rules["options"] and "3 in the Campaign" not in army
    assert "no more of its type than your army may have" in WWI_GAME.rules["options"]  # R19
    # WWII's Campaign army too (W13): 24 units, at most 6 of a type and 7 tanks.
    army = WWII_GAME.rules["army"]
    lim = WWII_GAME.new_game({"campaign": True}, 1).rules.limits
    assert (
        f"{lim.size} units, at most {lim.most['I']} of any type and {lim.class_most['armour']} tanks" in army
    )


def test_menus_for_each_stage():
    s = WWI_GAME.new_game({}, 1)
    menu = WWI_GAME.menu(s.view(None))
    assert [c.notation for c in menu.buttons[:4]] == [
        "army balanced",
        "army assault",
        "army guns",
        "army firepower",
    ]
    assert menu.buttons[4].opens == "army"
    sub = WWI_GAME.submenu(s.view(BRITISH), s.legal_actions(BRITISH), "army")
    assert "army" in sub.title and sub.picks
    s.apply(A.Army(preset="balanced"), BRITISH)
    s.apply(A.Army(preset="guns"), GERMANS)
    menu = WWI_GAME.menu(s.view(None))
    assert [c.notation for c in menu.buttons[:3]] == ["deploy line", "deploy wedge", "deploy flanks"]
    sub = WWI_GAME.submenu(s.view(BRITISH), s.legal_actions(BRITISH), "layout")
    assert "deploy " in sub.title and "/" in sub.title
    # In play: Take action, Done moving, End turn.
    s = build("wwi", {"d1": "A", "d5": "i", "a1": "H", "h8": "h"})
    menu = WWI_GAME.menu(s.view(None))
    assert menu.take_action and [c.notation for c in menu.buttons] == ["done", "end"]
    s.u_dmg[at(s, "d5")] = 2
    play(s, BRITISH, "done", "d1xd5")
    menu = WWI_GAME.menu(s.view(None))
    assert not menu.take_action
    assert [c.notation for c in menu.buttons] == [
        "retreat d6",
        "retreat e6",
        "retreat c6",
        "retreat e5",
        "retreat c5",
    ]
    assert menu.buttons[0].label == "Retreat to d6 (automatic choice)"


def test_a_chain_of_steps_applies_in_order_and_stops_at_the_first_illegal_one():
    """What the platform does with "b2-c4; done; c4xd6": each step through `apply`, all or nothing."""
    s = build("wwi", {"d3": "T", "c3": "I", "d6": "i", "a1": "H", "h8": "h"})
    probe = s.clone()
    steps = ["d3-d4", " c3-c5", " done", " d4xd6", " c5xd6", " end"]
    for text in steps:
        probe.apply(WWI_GAME.parse(text.strip()), BRITISH)
    assert probe.active == 1
    assert [e for e in probe.last_trail if e[0] == "hit"] == [
        ["hit", BRITISH, "d4", "d6"],
        ["hit", BRITISH, "c5", "d6"],
    ]
    bad = s.clone()
    bad.apply(WWI_GAME.parse("d3-d4"), BRITISH)
    with pytest.raises(IllegalAction, match="already moved"):
        bad.apply(WWI_GAME.parse("d4-d5"), BRITISH)


def test_focus_choices_are_the_occupied_squares():
    s = build("wwi", {"d4": "I", "a1": "H", "h8": "h"})
    assert WWI_GAME.focus_choices(s.view(None)) == ["a1", "d4", "h8"]


def test_the_ai_answers_every_stage_legally():
    game = WWII_GAME
    s = game.new_game({"reinforcements": True}, 4)
    rng = random.Random(4)
    for _ in range(120):
        if s.is_over():
            break
        side = min(s.to_act())
        action = game.choose(s.view(side), "easy", seed=rng.randrange(1000), budget_s=5.0, iterations=8)
        s.apply(action, side)
    assert s.turn >= 2


def test_the_examples_in_the_rules_and_help_are_legal():
    for game, army, layout in (
        (WWI_GAME, "army I8 S1 M1 T2 A2 F1 H1", "deploy .AAH.FS./IIIIIIII/..TT..M."),
        (WWII_GAME, "army I3 E2 M2 L1 T2 K1 A2 X1 Y1 H1", "deploy ..AH.A../IIXYEEM./..LTTKIM"),
    ):
        s = game.new_game({}, 1)
        first, second = (x.name for x in game.sides)
        s.apply(game.parse(army), first)
        s.apply(game.parse("army balanced"), second)
        assert s.armies[0] == s.armies[1]  # the example is the ready-made "balanced" army
        s.apply(game.parse(layout), first)
        assert len(s.alive(0)) == 16
    s = WWI_GAME.new_game({}, 1)
    s.apply(WWI_GAME.parse("army I8 M2 A5 H1"), GERMANS)
    assert s.designed[1]


@pytest.mark.parametrize("game", [WWI_GAME, WWII_GAME])
def test_a_whole_game_can_be_played_through_the_declared_verbs(game):
    """Every legal action is typed as `/<game> <verb> <argument>` and comes back as the same action."""
    s = game.new_game({"reinforcements": True, "elite": True}, 6)
    rng = random.Random(6)
    by_kind = {k: v for v in game.verbs for k in v.plays}
    steps = 0
    while not s.is_over():
        side = min(s.to_act())
        action = rng.choice(s.legal_actions(side))
        verb = by_kind[game.verb_of(s.view(side), action)]
        typed = verb.notation(verb.argument(str(action)) if verb.arg else None)
        assert typed == str(action), (verb.name, typed, str(action))
        s.apply(game.parse(typed), side)
        steps += 1
    assert s.outcome() is not None and steps > 100
