"""Notation, refusals, statuses, descriptions, menus and the help: the words a player reads."""

from __future__ import annotations

import random

import pytest

from engine.companycommander import actions as A_
from engine.companycommander.actions import parse
from engine.companycommander.model import TACTICS, Options, at_front
from engine.companycommander.state import DEPLOY, DISCARD, new_game
from engine.errors import IllegalAction, InvalidNotation
from engine.meta import RESIGN

from .helpers import GAME, A, G, build, command, legal, rig


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("deploy a7 l", "deploy A7 L"),
        ("Deploy A7 to Right Flank", "deploy A7 R"),
        ("move A3 to centre", "move A3 C"),
        ("A3-C", "move A3 C"),
        ("extra Squad", "extra squad"),
        ("EXTRA TACTICS CARD", "extra tactics"),
        ("tactics", "tactics"),
        ("done deploying", "tactics"),
        ("discard Mortar Barrage", "discard mortars"),
        ("recon a2 LOOK", "recon A2 look"),
        ("fire g4", "fire G4"),
        ("play Artillery Barrage C", "play artillery C"),
        ("play air strike left", "play airstrike L"),
        ("play medic a3", "play medic A3"),
        ("play surprise attack", "play surprise"),
        ("play reinforcements", "play reinforcements"),
        ("assault A1", "assault A1"),
        ("end turn", "end"),
    ],
)
def test_notation_reads_the_ways_a_player_types_it(typed: str, canonical: str) -> None:
    assert str(parse(typed)) == canonical
    assert str(parse(canonical)) == canonical


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("deploy A7", "Say which front: `deploy A7 L`"),
        ("deploy X7 L", "not a unit"),
        ("play artillery", "Name the front for Artillery Barrage"),
        ("play medic", "Name your unit for Medic"),
        ("play surprise C", "Surprise Attack names nothing"),
        ("play tank C", "not a Tactics card"),
        ("recon A2", "Say what a success is for"),
        ("discard joker", "not a Tactics card"),
    ],
)
def test_bad_notation_says_why(typed: str, why: str) -> None:
    with pytest.raises(InvalidNotation, match=why):
        parse(typed)


def test_no_action_has_a_semicolon_and_every_legal_one_parses_back() -> None:
    rng = random.Random(3)
    s = new_game(Options(), 3)
    for _ in range(400):
        if s.is_over():
            break
        for a in s.legal_actions(s.active):
            assert ";" not in str(a) and str(parse(str(a))) == str(a)
        s.apply(rng.choice(s.legal_actions(s.active)), s.active)


def test_apply_refuses_every_action_legal_actions_does_not_list() -> None:
    s = build(
        {"A1": "rifles L", "A2": "scouts C", "G1": "rifles C"}, phase=DEPLOY, hands={A: ["medic", "surprise"]}
    )
    bad = [
        A_.Recon("A2", "peek"),  # made in code, not by the parser
        A_.Play(TACTICS["surprise"], front=1),
        A_.Play(TACTICS["medic"], unit="A1"),
        A_.Deploy("G1", 0),
        A_.Move("A1", 2),
        A_.Fire("A1"),
        A_.Extra("squad"),
    ]
    before = s.to_json()
    for action in bad:
        with pytest.raises(IllegalAction):
            s.apply(action, A)
        assert s.to_json() == before


@pytest.mark.parametrize(
    ("units", "phase", "text", "why"),
    [
        (
            {"A1": "rifles C", "G1": "rifles C"},
            "recon",
            "assault G1",
            "G1 is not yours: it is the German Rifle squad G1",
        ),
        ({"A1": "rifles C", "G1": "rifles C"}, "recon", "fire A9", "There is no unit A9 in play"),
        (
            {"A1": "rifles C", "G1": "rifles C"},
            "recon",
            "fire A1",
            "A1, a Rifle squad, has no long-range fire",
        ),
        (
            {"A1": "rifles C", "G1": "rifles C"},
            "recon",
            "recon A1 look",
            "A1, a Rifle squad, is not a Recon unit: only Scout teams go on Recon missions",
        ),
        ({"A1": "rifles C", "G1": "rifles C"}, "recon", "move A1 L", "The Deploy phase is over"),
        ({"A1": "rifles C", "G1": "rifles C"}, "recon", "tactics", "The Deploy phase is over"),
        ({"A1": "rifles C", "G1": "rifles C"}, DEPLOY, "end", "Finish the Deploy phase first: `tactics`"),
        ({"A1": "rifles C", "G1": "rifles C"}, DEPLOY, "deploy A1 L", "already deployed, in the Center"),
        ({"A1": "rifles C", "G1": "rifles C"}, DEPLOY, "discard medic", "more than seven"),
        ({"A1": "rifles C", "G1": "rifles C"}, DEPLOY, "extra squad", "once a turn, when he was in play"),
        (
            {"A1": "rifles C", "G1": "rifles C"},
            "recon",
            "play artillery C",
            "You hold no Artillery Barrage card",
        ),
    ],
)
def test_refusals_say_why(units: dict[str, str], phase: str, text: str, why: str) -> None:
    s = build(units, phase=phase)
    with pytest.raises(IllegalAction, match=why) as info:
        command(s, text)
    assert info.value.legal, "a refusal offers what is legal"
    assert all(isinstance(parse(x), A_.Action) for x in map(str, info.value.legal))


def test_acting_out_of_turn_names_whose_turn_it_is() -> None:
    s = build({"A1": "rifles C", "G1": "rifles C"})
    with pytest.raises(IllegalAction, match="It is not your turn: it is the Americans' Recon phase"):
        s.apply(parse("assault G1"), G)


def test_statuses_say_what_to_do_from_public_facts() -> None:
    s = build(
        {"A1": "rifles -", "A2": "scouts C", "A3": "hmg C", "A4": "rifles C", "G1": "rifles C"}, phase=DEPLOY
    )
    view = s.view(None)
    assert GAME.status(view, A) == (
        "{player} (Americans), round 3, Deploy phase: deploy A1 to your fronts (`deploy A1 C`); "
        "move units to a neighbouring front if you like (`move …`); "
        "then `tactics` to draw your two Tactics cards."
    )
    assert GAME.status(view, G) == "{player} (Germans): wait for the Americans."
    command(s, "deploy A1 L; tactics")
    assert GAME.status(s.view(None), A) == (
        "{player} (Americans), round 3, Recon phase: next, in this order, Recon missions by A2 "
        "(`recon A2 look` or `recon A2 mark`); then Suppression fire by A3 (`fire A3`); "
        "then assaults by A2, A3 and A4 (`assault A2`); then `end` your turn. "
        "You may also play Tactics cards (`play …`)."
    )
    nothing = build({"A1": "rifles C fresh", "G1": "rifles C"}, phase=DEPLOY)  # only the draw is left
    assert GAME.status(nothing.view(None), A).endswith(
        "round 3, Deploy phase: `tactics` to draw your two Tactics cards."
    )
    d = build({"A1": "rifles C", "G1": "rifles C"}, phase=DISCARD, hands={A: ["sniper"] * 6 + ["medic"] * 3})
    assert GAME.status(d.view(None), A) == (
        "{player} (Americans): you hold 9 Tactics cards, 2 over seven: choose the 2 to discard (`discard …`)."
    )


def test_every_description_fits_a_discord_label() -> None:
    rng = random.Random(8)
    for seed in range(4):
        s = new_game(Options(), seed)
        for _ in range(300):
            if s.is_over():
                break
            view = s.view(s.active)
            for a in s.legal_actions(s.active):
                words = GAME.describe(view, a)
                assert 0 < len(words) <= 100 and "…" not in words, words
                group = GAME.group_of(view, a)
                if group is not None:
                    assert GAME.group_label(view, group)
            s.apply(rng.choice(s.legal_actions(s.active)), s.active)


def test_descriptions_read_as_a_player_would_want() -> None:
    s = build(
        {"A1": "scouts C", "A2": "hmg C", "A3": "rifles L pinned cas1", "G1": "rifles C", "G2": "mg42 C"},
        hands={A: ["artillery", "medic", "rally"]},
    )
    view = s.view(A)
    words = {str(a): GAME.describe(view, a) for a in s.legal_actions(A)}
    assert (
        words["recon A1 look"]
        == "Scout team A1: Recon mission into the German Center; if it succeeds, look at their hand"
    )
    assert (
        words["recon A1 mark"]
        == "Scout team A1: Recon mission into the German Center; if it succeeds, +1 to your fire there"
    )
    assert words["fire A2"] == "Heavy MG team A2 fires at the German Center (2 units there)"
    assert (
        words["play artillery C"] == "Play Artillery Barrage on the German Center (3 rolls against 2 units)"
    )
    assert words["play medic A3"] == "Play Medic on Rifle squad A3: one Casualty marker off"
    assert words["play rally L"] == "Play Rally on your Left Flank: A3 no longer Pinned"
    assert words["assault A2"] == "Heavy MG team A2 assaults the German Center (2 units there, one at random)"
    assert GAME.group_label(view, "A3") == "Rifle squad A3 on the Left Flank (Pinned, 1 Casualty)"
    assert GAME.group_label(view, "artillery") == "Artillery Barrage card"
    # a unit is in the Center (a place) and on a flank (a side); a barrage still falls on a front
    assert GAME.group_label(view, "A2") == "Heavy MG team A2 in the Center"
    assert [at_front(f) for f in (0, 1, 2)] == ["on the Left Flank", "in the Center", "on the Right Flank"]
    assert at_front(1, "your") == "in your Center"


def test_the_channel_menu_never_shows_a_card() -> None:
    s = build({"A1": "rifles -", "G1": "rifles C"}, phase=DEPLOY, hands={A: ["airstrike"]})
    menu = GAME.menu(s.view(None))
    assert [c.notation for c in menu.buttons] == [
        "deploy A1 L",
        "deploy A1 C",
        "deploy A1 R",
        "tactics",  # named by the status as the step to come: shown, disabled until then
    ] and menu.take_action
    assert [c.disabled for c in menu.buttons] == [False, False, False, True]
    command(s, "deploy A1 C")
    (done,) = GAME.menu(s.view(None)).buttons
    assert done.notation == "tactics" and not done.disabled
    command(s, "tactics")
    menu = GAME.menu(s.view(None))
    assert [c.notation for c in menu.buttons] == ["end"] and "irstrike" not in repr(menu)
    s.apply(RESIGN, A)
    assert GAME.menu(s.view(None)).buttons == ()


def test_the_hand_text_lists_each_card_and_what_it_does() -> None:
    s = build({"A1": "rifles C", "G1": "rifles C"}, hands={A: ["mortars", "mortars", "ambush"]})
    assert GAME.private_text(s.view(A)) == (
        "Your hand (3 cards): 2 Mortar Barrages and Ambush.\n"
        "- Mortar Barrage (`play mortars C`; L, C or R): 2 Suppression rolls against a front you name.\n"
        "- Ambush (`play ambush C`; L, C or R): the next enemy Assault on your units at one front, before "
        "your next turn, is at -3."
    )
    assert GAME.private_text(build({"A1": "rifles C", "G1": "rifles C"}).view(G)) == "Your hand is empty."


def test_every_roll_is_in_the_history_with_its_dice() -> None:
    s = build({"A1": "mortar C", "G1": "mg42 C"}, hands={A: ["sniper"]})
    rig(s, (4, 5), (6, 6))
    events = command(s, "fire A1; play sniper C")
    text = "; ".join(e.text(None) for e in events)
    assert (
        "A1 Mortar team fires at the German Center: 2D6: 4 + 5 = 9, the German MG 42 team G1 is Pinned"
        in text
    )
    assert "Sniper on the German Center: 2D6: 6 + 6 = 12, the German MG 42 team G1 takes a Casualty" in text


def test_rules_topics_are_short_and_say_the_numbers_the_engine_uses() -> None:
    assert all(len(t) <= 1900 for t in GAME.rules.values())
    assert "Sherman tank 4 (×2" in GAME.rules["units"] and "Rifle squad 3 (×16)" in GAME.rules["units"]
    assert "first player starts with 3 cards, the second player with 7" in GAME.rules["cards"]
    assert "off unless the challenge sets one" in GAME.rules["winning"]
    assert "Germans (29 cards)" in GAME.rules["units"] and "Scout team 1 (×3" in GAME.rules["units"]
    for topic in ("assault", "rally", "suppression", "recon"):
        assert topic in GAME.rules
    assert legal(build({"A1": "rifles C", "G1": "rifles C"}))[-1] == "end"


def test_the_board_topic_is_the_key_to_every_mark_the_board_draws() -> None:
    """`/companycommander rules board`: each word and mark on a unit card or in the band is explained."""
    from render.companycommander.cards import TAGS

    key = GAME.rules["board"]
    for word in [
        *filter(None, TAGS.values()),
        "Recon +1",
        "Ambush",
        "Arriving",
        "red cross",
        "gold",
        "Co. Cmdr",
    ]:
        assert word in key, word


def test_an_action_changed_after_it_was_made_is_not_the_listed_one() -> None:
    s = build({"A1": "rifles -", "G1": "rifles C"}, phase=DEPLOY)
    changed = A_.Deploy("A1", 1)
    changed.front = 2  # the notation still says C
    with pytest.raises(IllegalAction):
        s.apply(changed, A)
    assert s.unit("A1") is not None and s.unit("A1").front == -1  # type: ignore[union-attr]
    s.apply(A_.Deploy("A1", 1), A)  # made afresh, not interned: accepted by value
    assert s.unit("A1").front == 1  # type: ignore[union-attr]


def test_an_assault_button_says_it_falls_on_a_pinned_unit_when_one_stands_across() -> None:
    """H15 (edition 2): the target is drawn among the Pinned units across, if any. The button said
    "one at random" of all the units there, which a player would read as any of them."""
    s = build({"A1": "rifles C", "G1": "rifles C pinned", "G2": "mg42 C", "G3": "scouts C pinned"})
    view = s.view(A)
    assert GAME.describe(view, parse("assault A1")) == (
        "Rifle squad A1 assaults the German Center (a random one of the 2 Pinned there)"
    )
    one = build({"A1": "rifles C", "G1": "rifles C pinned", "G2": "mg42 C"})
    assert GAME.describe(one.view(A), parse("assault A1")) == (
        "Rifle squad A1 assaults the German Center (the Pinned G1 there)"
    )
    old = build(
        {"A1": "rifles C", "G1": "rifles C pinned", "G2": "mg42 C"}, options=Options(edition=1)
    )  # edition 1 draws among them all
    assert GAME.describe(old.view(A), parse("assault A1")) == (
        "Rifle squad A1 assaults the German Center (2 units there, one at random)"
    )


def test_squad_cards_drawn_are_listed_with_and() -> None:
    """'the Americans draw A1 Mortar team, A2 Rifle squad, A3 Rifle squad' read as a list cut off."""
    from engine.companycommander.events import SquadDrawn

    drawn = SquadDrawn(A, (("A1", "A:mortar"), ("A2", "A:rifles"), ("A3", "A:rifles")), "deploy", 3)
    assert drawn.text(None) == "the Americans draw A1 Mortar team, A2 Rifle squad and A3 Rifle squad"


def test_a_rally_roll_is_told_as_its_sides_with_one_parenthesis() -> None:
    """It read 'Germans: rally: G6 Assault squad rallies (its Pinned marker is removed) (1D6: 4)'."""
    from engine.companycommander.events import Rallied
    from play.words import history_line

    rallied = Rallied(G, "G6", "G:assault", 4, (), "rallied")
    assert history_line("Germans", "end", [rallied]) == (
        "The Germans roll to rally G6 Assault squad: it rallies, its Pinned marker removed (1D6: 4)"
    )
