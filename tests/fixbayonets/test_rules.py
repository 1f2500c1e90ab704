"""Scenario tests for every rule and ruling (R1-R23 of rules/fixbayonets.md), on built positions."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.cards import Deck
from engine.fixbayonets import GAME
from engine.fixbayonets.actions import PASS, Lose
from engine.fixbayonets.cards import FULL_DECK, card
from engine.fixbayonets.events import Drew, Killed, Moved, Negated, Passed, Reshuffled, Revealed, SetUp
from engine.fixbayonets.model import PRESETS, Options
from engine.fixbayonets.state import DISCARD, FIGHTING, MOVING, SETUP, new_game
from engine.meta import DRAW_ACCEPT, DRAW_OFFER, RESIGN
from engine.protocol import EndReason

from .helpers import OPEN, A, G, legal, men, of, play, pos, refused

STD = "setup " + "/".join(PRESETS["std"])


# ------------------------------------------------------------------------ R1-R3: the start


def test_r1_germans_hold_rank_8_americans_rank_1_and_the_germans_move_first() -> None:
    s = new_game(Options(), 1)
    s.apply(STD, G)
    s.apply("setup wings", A)
    board = men(s)
    assert {sq[1] for sq, c in board.items() if c[0] == "G"} == {"8"}
    assert {sq[1] for sq, c in board.items() if c[0] == "A"} == {"1"}
    assert s.active == G and s.round == 1 and s.turn_number() == 1


def test_r2_set_up_two_men_a_square_in_any_mix_hidden_until_both_have() -> None:
    s = new_game(Options(), 2)
    assert s.to_act() == {G, A} and s.phase == SETUP
    events = s.apply("setup RR/RR/RR/OO/RR/RR/HH/SU", A)
    assert s.to_act() == {G}
    # The Germans see that the Americans have set up, not how.
    (seen,) = [e.seen_by(G) for e in events]
    assert isinstance(seen, SetUp) and seen.layout is None
    assert "hidden" in seen.text(G)
    assert s.view(G).state.layouts[A] == () and not s.view(G).state.stacks[3]
    assert s.view(A).state.layouts[A] == ("RR", "RR", "RR", "OO", "RR", "RR", "HH", "SU")
    events = s.apply(STD, G)
    assert of(events, Revealed) and men(s)["d1"] == "AOO" and men(s)["h1"] == "ASU"
    assert all(len(s.stacks[sq]) == 2 for sq in range(8)) and all(
        len(s.stacks[sq]) == 2 for sq in range(56, 64)
    )


@pytest.mark.parametrize(
    "layout",
    [
        "setup RR/RR/RR/OO/RR/RR/HH/SS",
        "setup RR/RR/RR/OO/RR/OR/HH/SU",  # three officers, nine riflemen: 16 men, not the force
        "setup RR/RR/RR/OO/RR/RR/HH",
        "setup RRR/R/RR/OO/RR/RR/HH/SU",
        "setup XX/RR/RR/OO/RR/RR/HH/SU",
    ],
)
def test_r2_a_set_up_must_be_the_sixteen_men_two_to_a_square(layout: str) -> None:
    from engine.errors import InvalidNotation

    with pytest.raises(InvalidNotation):
        GAME.parse(layout)


def test_r2_each_side_sets_up_once() -> None:
    s = new_game(Options(), 3)
    s.apply(STD, A)
    assert "not your turn" in refused(s, STD, A)


def test_r3_hands_start_empty_and_each_side_draws_its_first_three_in_its_first_orders_phase() -> None:
    s = new_game(Options(), 2)
    assert s.hands[G] == [] and s.hands[A] == [] and len(s.deck) == 60
    s.apply(STD, G)
    events = s.apply(STD, A)
    assert of(events, Drew)[0].count == 3 and len(s.hands[G]) == 3 and s.hands[A] == []
    assert s.phase == MOVING and s.to_act() == {G}  # three cards: nothing to discard
    # The Americans hold nothing to answer with on the Germans' first turn: nobody is asked.
    move = next(a for a in s.legal_actions(G) if " fwd " not in str(a) and str(a) not in ("fight", "end"))
    s.apply(move, G)
    assert s.to_act() == {G} and s.pending is None
    s.apply("end", G)
    assert len(s.hands[A]) == 3 and s.active == A


# --------------------------------------------------------------------- R4-R5: orders phase


def test_r4_over_five_the_player_discards_down_to_five_choosing_which() -> None:
    s = pos(
        {"d4": "GR"},
        g=["trees", "trees", "march", "run", "crawl"],
        deck=["rifle3", "bayonet", "pistol"],
        phase="move",
        active=A,
    )
    play(s, "end")
    assert s.phase == DISCARD and len(s.hands[G]) == 8 and s.to_act() == {G}
    assert legal(s) == {
        "discard " + c for c in ("bayonet", "pistol", "rifle3", "crawl", "march", "run", "trees")
    }
    assert "discard 3 first" in refused(s, "march Rd4-d6")
    play(s, "discard trees", "discard trees")
    assert s.phase == DISCARD
    play(s, "discard crawl")
    assert s.phase == MOVING and len(s.hands[G]) == 5
    assert [c.code for c in s.deck.discard[-3:]] == ["trees", "trees", "crawl"]
    assert "only when you hold more than five" in refused(s, "discard run")


def test_r4_five_or_fewer_after_drawing_means_no_discard() -> None:
    s = pos({"d4": "GR"}, g=["trees"], deck=["rifle3", "bayonet", "pistol"], active=A)
    play(s, "end")
    assert s.phase == MOVING and len(s.hands[G]) == 4


def test_r4_exactly_five_after_drawing_is_not_over_the_limit() -> None:
    """Caught no break before (rules10): a hand of exactly five was sent to the discard phase."""
    s = pos({"d4": "GR"}, g=["trees", "march"], deck=["rifle3", "bayonet", "pistol"], active=A)
    play(s, "end")
    assert s.phase == MOVING and len(s.hands[G]) == 5


def test_r5_phases_run_move_then_fight_and_a_phase_may_be_cut_short() -> None:
    s = pos({"d4": "GR", "d6": "AR"}, g=["march", "pistol"])
    assert "fight phase" in refused(s, "pistol Rd4xd6")
    play(s, "fight")
    assert s.phase == FIGHTING
    assert "move phase is over" in refused(s, "march Rd4-d2")
    assert "already in the fight phase" in refused(s, "fight")
    play(s, "end")
    assert s.active == A and card("march") in s.hands[G]  # unplayed cards stay in hand


def test_r5_end_in_the_move_phase_ends_the_whole_turn() -> None:
    s = pos({"d4": "GR"}, g=["march"])
    play(s, "end")
    assert s.active == A and s.phase in (MOVING, DISCARD)


# ------------------------------------------------------------------------------ R6-R11: moves


def test_r6_no_move_into_or_through_enemy_soldiers() -> None:
    s = pos({"d4": "GR", "d5": "AR", "f6": "AR"}, g=["march"])
    assert "through enemy" in refused(s, "march Rd4-d6")
    assert "through enemy" in refused(s, "march Rd4-f6")
    assert "march Rd4-b6" in legal(s)


def test_r6_men_pass_through_and_stack_with_their_own_without_limit() -> None:
    s = pos({"d4": "GR", "d5": "GRRRRRR", "d6": "GOHSU"}, g=["march"])
    play(s, "march Rd4-d6")
    assert men(s)["d6"] == "GOHSUR" and men(s)["d5"] == "GRRRRRR"


def test_r11_a_man_moves_once_a_turn() -> None:
    s = pos({"d4": "GR"}, g=["crawl", "crawl"])
    play(s, "crawl Rd4-d5")
    assert not any(a.startswith("crawl Rd5") for a in legal(s))
    assert refused(s, "crawl Rd5-d6") == "The rifleman on d5 has moved: a rifleman moves once a turn."
    s = pos({"d4": "GOO"}, g=["crawl", "crawl", "crawl"])
    play(s, "crawl Od4-d5", "crawl Od4-d5")
    assert refused(s, "crawl Od5-d6") == "The officers on d5 have moved: an officer moves once a turn."


def test_r11_a_man_who_moved_moves_again_on_his_side_s_next_turn() -> None:
    """Caught no break before (rules10): the moves made in a turn were never cleared, so a man who
    had moved once could never move again."""
    s = pos({"d4": "GR"}, g=["crawl", "crawl"])
    play(s, "crawl Rd4-d3", "end", "end", "crawl Rd3-d2", "pass")
    assert men(s)["d2"] == "GR"


def test_r5_a_round_is_a_german_turn_and_the_american_turn_after_it() -> None:
    """Caught no break before (rules10): the round count went up at every turn, which would halve
    the turn limit (R20)."""
    s = pos({"d4": "GR"}, round=3)
    play(s, "end")
    assert (s.active, s.round) == (A, 3)
    play(s, "end")
    assert (s.active, s.round) == (G, 4)


def test_r11_the_runner_moves_twice() -> None:
    s = pos({"d4": "GU"}, g=["crawl", "march", "run"])
    play(s, "crawl Ud4-d5", "march Ud5-d7")
    assert men(s)["d7"] == "GU"
    assert "moves twice a turn" in refused(s, "run Ud7-d3")


def test_r11_only_the_runner_moves_twice() -> None:
    """Caught before only by random games against a second reading (rules10): the sniper moving twice."""
    s = pos({"d4": "GS"}, g=["crawl", "crawl"])
    play(s, "crawl Sd4-d5")
    assert refused(s, "crawl Sd5-d6") == "The sniper on d5 has moved: a sniper moves once a turn."


def test_r11_men_of_one_kind_are_alike_but_each_moves_once() -> None:
    s = pos({"d4": "GRR", "d5": "GR"}, g=["crawl", "crawl", "march"])
    play(s, "crawl Rd4-d5")
    # d5 now holds the rifleman who moved and the one who did not: one of them may still go.
    play(s, "crawl Rd5-d6")
    assert "has moved" in refused(s, "march Rd5-d7")
    assert men(s) == {"d4": "GR", "d5": "GR", "d6": "GR", "g8": "GOO", "b1": "AOO"}


def test_r11_group_move_takes_several_men_forward_with_one_card() -> None:
    s = pos({"d7": "GOR", "e7": "GRR", "f7": "GS"}, g=["march"])
    events = play(s, "march fwd ORd7,RRe7")
    assert sorted(of(events, Moved)[0].moves) == [
        ("O", "d7", "d5"),
        ("R", "d7", "d5"),
        ("R", "e7", "e5"),
        ("R", "e7", "e5"),
    ]
    assert men(s)["d5"] == "GOR" and men(s)["e5"] == "GRR" and men(s)["f7"] == "GS"
    assert card("march") not in s.hands[G]
    assert all(s.moves[u] == 1 for u in s.stacks[35] + s.stacks[36])  # d5, e5: all four have moved


def test_r11_forward_is_down_for_germans_and_up_for_americans() -> None:
    s = pos({"c2": "ARR"}, a=["crawl"], active=A)
    play(s, "crawl fwd RRc2")
    assert men(s)["c3"] == "ARR"


def test_r11_a_group_move_is_blocked_by_enemies_and_spends_every_man_s_move() -> None:
    s = pos({"d7": "GRR", "e7": "GR", "e6": "AR"}, g=["march", "crawl"])
    assert "into or through enemy" in refused(s, "march fwd RRd7,Re7")
    play(s, "march fwd RRd7")
    assert refused(s, "crawl Rd5-d4") == "The riflemen on d5 have moved: a rifleman moves once a turn."


def test_r11_a_group_names_no_more_men_than_may_still_move() -> None:
    """Caught no break before (rules10): a group naming two riflemen on a square where one may still
    move was taken, and failed inside the engine instead of being refused."""
    s = pos({"d7": "GRR", "e7": "GR"}, g=["crawl", "march"])
    play(s, "crawl Rd7-d6")
    assert refused(s, "march fwd RRd7,Re7") == "Not that many riflemen on d7 may still move this turn."
    assert refused(s, "march fwd RRe7,Rd7") == "Not that many riflemen on e7 may still move this turn."
    play(s, "march fwd Rd7,Re7")
    assert men(s)["d5"] == "GR" and men(s)["e5"] == "GR"


def test_r11_the_menu_of_group_moves_and_any_other_group_applies() -> None:
    s = pos({"d7": "GOR", "e7": "GRR", "f7": "GS"}, g=["march"])
    groups = {a for a in legal(s) if " fwd " in a}
    assert "march fwd ORd7,RRe7,Sf7" in groups  # everyone
    assert "march fwd Rd7,RRe7,Sf7" in groups  # everyone but the officers
    assert "march fwd RRe7" in groups  # one stack
    play(s, "march fwd Rd7,Sf7")  # not listed, still legal
    assert men(s)["d5"] == "GR" and men(s)["f5"] == "GS"


def test_r8_zigzag_moves_no_groups() -> None:
    from engine.errors import InvalidNotation

    with pytest.raises(InvalidNotation):
        GAME.parse("zigzag fwd RRd7")


def test_r8_a_zigzag_group_built_in_code_is_refused_too() -> None:
    """Issue 22: `apply` took a group move with the Zigzag card, built in code (the parser refuses
    its notation): two men moved "0 squares forward" and the log got a line that does not parse."""
    from engine.errors import IllegalAction
    from engine.fixbayonets.actions import Group, Move

    s = pos({"d7": "GRR", "e7": "GR"}, g=["zigzag", "march"])
    before = s.to_json()
    with pytest.raises(IllegalAction, match="straight ahead"):
        s.apply(Group(card("zigzag"), ((51, "RR"),)), G)
    with pytest.raises(IllegalAction):  # a move with a card it is not listed with
        s.apply(Move(card("zigzag"), "R", 51, 35), G)
    assert s.to_json() == before


def test_r11_a_group_of_one_built_in_code_is_refused() -> None:
    """Caught no break before (rules10): only the parser refused a group of one, so one built in code
    moved the man and logged "march fwd Rd7", a line the replay cannot read (as issue 22's zigzag
    group did)."""
    from engine.errors import IllegalAction
    from engine.fixbayonets.actions import Group

    s = pos({"d7": "GR"}, g=["march"])
    before = s.to_json()
    with pytest.raises(IllegalAction, match="two men or more"):
        s.apply(Group(card("march"), ((51, "R"),)), G)
    assert s.to_json() == before


def test_r11_a_group_of_one_is_written_as_a_plain_move() -> None:
    from engine.errors import InvalidNotation

    with pytest.raises(InvalidNotation, match="plain move"):
        GAME.parse("march fwd Rd7")


def test_r11_the_runner_in_a_group_keeps_his_second_move() -> None:
    s = pos({"d7": "GUR"}, g=["march", "crawl"])
    play(s, "march fwd URd7", "crawl Ud5-d4")
    assert men(s)["d4"] == "GU"


# ------------------------------------------------------------------------------- R10, R16-R17


def test_r10_a_man_may_attack_after_moving_and_again_with_each_attack_card() -> None:
    """The text limits how often a man moves in a turn, never how often he attacks: one card each."""
    s = pos({"d3": "GR", "d1": "AR", "e1": "AR"}, g=["crawl", "bayonet", "pistol"])
    play(s, "crawl Rd3-d2", "fight", "bayonet Rd2xd1")
    assert "pistol Rd2xe1" in legal(s)
    play(s, "pistol Rd2xe1")
    assert "d1" not in men(s) and "e1" not in men(s)


def test_r10_a_lone_sniper_fires_every_sniper_card_he_holds() -> None:
    s = pos({"a1": "GS", "a6": "AR", "f6": "AR"}, g=["sniper", "sniper"], phase=FIGHTING)
    play(s, "sniper Sa1xa6", "sniper Sa1xf6")
    assert "a6" not in men(s) and "f6" not in men(s)


def test_r16_a_hit_stack_loses_one_man_of_the_defender_s_choice() -> None:
    s = pos({"d3": "GR", "d5": "AOSR"}, g=["pistol"], phase=FIGHTING)
    play(s, "pistol Rd3xd5")
    assert s.to_act() == {A} and s.quick_decision()
    assert legal(s) == {"lose O", "lose S", "lose R"}
    assert s.default_action(A) == Lose("R")
    events = play(s, "lose S")
    assert of(events, Killed)[0].kinds == "S" and men(s)["d5"] == "AOR"
    assert s.to_act() == {G} and s.phase == FIGHTING


def test_r16_a_stack_of_one_kind_needs_no_choice() -> None:
    s = pos({"d3": "GR", "d5": "ARRR"}, g=["pistol"], phase=FIGHTING)
    play(s, "pistol Rd3xd5")
    assert s.to_act() == {G} and men(s)["d5"] == "ARR"


def test_r16_the_default_casualty_is_the_least_valuable_man() -> None:
    s = pos({"d3": "GR", "d5": "AOH"}, g=["pistol"], phase=FIGHTING)
    play(s, "pistol Rd3xd5")
    assert s.default_action(A) == Lose("H")


@pytest.mark.parametrize(("stack", "falls"), [("RU", "R"), ("US", "U"), ("SH", "S"), ("HO", "H")])
def test_r16_the_default_casualty_order_is_riflemen_runner_sniper_specialists_officers(
    stack: str, falls: str
) -> None:
    """Caught no break before (rules10): only a specialist beside an officer was tried, so the runner
    put before the riflemen went unnoticed."""
    s = pos({"d3": "GR", "d5": "A" + stack}, g=["pistol"], phase=FIGHTING)
    play(s, "pistol Rd3xd5")
    assert s.default_action(A) == Lose(falls)


@pytest.mark.parametrize(("code", "kind"), [("grenade", "R"), ("flamer", "H")])
def test_r17_area_weapons_kill_the_whole_stack_with_no_choice(code: str, kind: str) -> None:
    target = "e6" if code == "grenade" else "d6"
    s = pos({"d4": "G" + kind, target: "AORRS", "h1": "AO"}, g=[code], phase=FIGHTING)
    events = play(s, f"{code} {kind}d4x{target}")
    assert target not in men(s) and of(events, Killed)[0].whole and s.to_act() == {G}


# ------------------------------------------------------------------------ R12-R15: cancelling


def test_r13_the_opponent_is_asked_after_every_card_whenever_holding_any_card() -> None:
    """Asking does not depend on holding a terrain card, so the question reveals nothing."""
    s = pos({"d4": "GR"}, g=["march"], a=["bayonet"])  # no terrain card at all
    play(s, "march Rd4-d6")
    assert s.to_act() == {A} and s.quick_decision() and legal(s) == {"pass"}
    assert s.default_action(A) == PASS
    assert men(s)["d4"] == "GR"  # nothing happens before the answer
    events = play(s, "pass")
    assert of(events, Passed) and men(s)["d6"] == "GR" and s.to_act() == {G}


def test_r13_an_empty_hand_is_not_asked() -> None:
    s = pos({"d4": "GR"}, g=["march"], a=[])
    play(s, "march Rd4-d6")
    assert s.to_act() == {G} and men(s)["d6"] == "GR"


def test_r13_hands_face_up_ask_only_with_a_fitting_card() -> None:
    s = pos({"d4": "GR"}, g=["march", "crawl"], a=["trees"], options=OPEN)
    play(s, "march Rd4-d6")
    assert s.to_act() == {G}  # Trees cannot stop a move, and everyone can see it
    s2 = pos({"d4": "GR"}, g=["march"], a=["rough"], options=OPEN)
    play(s2, "march Rd4-d6")
    assert s2.to_act() == {A} and legal(s2) == {"pass", "negate rough"}


def test_r14_a_cancelled_move_spends_the_card_but_not_the_man_s_move() -> None:
    """The text only cancels the move: the man has not moved, so another card may move him."""
    s = pos({"d4": "GR"}, g=["march", "crawl", "double"], a=["rough"])
    play(s, "march Rd4-d6")
    events = play(s, "negate rough")
    assert of(events, Negated)[0].played == "march"
    assert men(s)["d4"] == "GR" and card("march") in s.deck.discard and card("march") not in s.hands[G]
    assert s.last is not None and s.last.status == "negated" and s.last.negated_by == "rough"
    assert "crawl Rd4-d5" in legal(s)
    play(s, "crawl Rd4-d5")
    assert men(s)["d5"] == "GR"
    assert "has moved" in refused(s, "double Rd5-d2")  # ...and that move, once made, is his one


def test_r14_a_cancelled_group_move_leaves_every_man_free_to_move() -> None:
    s = pos({"d7": "GRR"}, g=["march", "crawl"], a=["rough"])
    play(s, "march fwd RRd7", "negate rough")
    assert men(s)["d7"] == "GRR"
    play(s, "crawl fwd RRd7")
    assert men(s)["d6"] == "GRR"


def test_r14_a_cancelled_attack_spends_only_its_card() -> None:
    s = pos({"d4": "GR", "d5": "AR", "d6": "AR"}, g=["bayonet", "pistol"], a=["trees"], phase=FIGHTING)
    play(s, "bayonet Rd4xd5", "negate trees")
    assert men(s)["d5"] == "AR" and card("bayonet") in s.deck.discard
    play(s, "pistol Rd4xd6")
    assert "d6" not in men(s)


def test_r12_a_cancelling_card_cannot_itself_be_cancelled() -> None:
    s = pos({"d4": "GR", "d5": "AR"}, g=["bayonet", "trees", "rough"], a=["trees"], phase=FIGHTING)
    play(s, "bayonet Rd4xd5", "negate trees")
    assert s.to_act() == {G} and s.pending is None
    assert "no card of your opponent" in refused(s, "negate trees")


def test_r12_terrain_cards_are_never_played_on_your_own_turn() -> None:
    s = pos({"d4": "GR"}, g=["trees", "rough"])
    assert not any(a.startswith("negate") for a in legal(s))
    assert "no card of your opponent" in refused(s, "negate rough")


def test_r12_the_side_not_asked_cannot_answer() -> None:
    s = pos({"d4": "GR"}, g=["march"], a=["rough"])
    play(s, "march Rd4-d6")
    assert "not your turn" in refused(s, "pass", G)
    assert "waiting for the Americans" in refused(s, "negate rough", G)


def test_r15_never_means_no_question() -> None:
    s = pos({"d4": "GR"}, g=["march"], a=["rough"], orders={A: {"negate": "never"}})
    play(s, "march Rd4-d6")
    assert s.to_act() == {G} and men(s)["d6"] == "GR" and card("rough") in s.hands[A]


def test_r15_officers_cancels_attacks_on_officers_only() -> None:
    s = pos(
        {"d4": "GRR", "d5": "AO", "d3": "AR", "h1": "AO"},
        g=["bayonet", "bayonet"],
        a=["trees", "foxholes"],
        phase=FIGHTING,
        orders={A: {"negate": "officers"}},
    )
    events = play(s, "bayonet Rd4xd3")
    assert "d3" not in men(s) and not of(events, Negated)
    events = play(s, "bayonet Rd4xd5")
    assert of(events, Negated) and men(s)["d5"] == "AO" and len(s.hands[A]) == 1


def test_r15_attacks_and_always_orders() -> None:
    s = pos(
        {"d4": "GR", "d3": "AR"},
        g=["crawl", "bayonet"],
        a=["trees", "rough"],
        orders={A: {"negate": "attacks"}},
    )
    play(s, "crawl Rd4-e4")
    assert men(s)["e4"] == "GR"  # moves stand under "attacks"
    play(s, "fight", "bayonet Re4xd3")
    assert men(s)["d3"] == "AR"
    s2 = pos({"d4": "GR"}, g=["crawl"], a=["rough"], orders={A: {"negate": "always"}})
    play(s2, "crawl Rd4-e4")
    assert men(s2)["d4"] == "GR" and not s2.hands[A]


def test_r15_automatic_orders_without_a_fitting_card_let_it_stand() -> None:
    s = pos(
        {"d4": "GR", "d5": "AO", "h1": "AO"},
        g=["bayonet"],
        a=["rough"],
        phase=FIGHTING,
        orders={A: {"negate": "always"}},
    )
    play(s, "bayonet Rd4xd5")
    assert "d5" not in men(s) and s.hands[A] == [card("rough")]


def test_r15_what_the_attacker_can_tell_from_an_automatic_answer() -> None:
    """Issue 22, our ruling in R15: an answer by orders comes inside the attacker's own command (the
    Germans read that the Americans let it stand, and may play on), where `orders ask` stops the
    command at the question; under `always`, a card let stand shows no fitting card was held. The
    rules page and the in-bot help say exactly this, and that the hand itself stays unseen."""
    asked = pos({"d4": "GR", "e4": "GR"}, g=["march", "crawl"], a=["trees"])
    events = play(asked, "march Rd4-d6")
    assert asked.to_act() == {A} and not of(events, Passed)  # the command stops at the question
    ordered = pos(
        {"d4": "GR", "e4": "GR"}, g=["march", "crawl"], a=["trees"], orders={A: {"negate": "always"}}
    )
    events = play(ordered, "march Rd4-d6", "crawl Re4-f4")  # one command goes on past the answer
    told = [e.text(G) for e in of(events, Passed)]
    assert told and all("Americans" in t for t in told) and ordered.to_act() == {G}
    assert card("trees") in ordered.hands[A]  # trees cancels attacks only: nothing fitted the moves
    assert all("trees" not in e.text(G) for e in events)  # the hand is never shown
    help_text = GAME.rules["orders"]
    assert "What your opponent can tell" in help_text and "no fitting card" in help_text
    page = (Path(__file__).parents[2] / "rules" / "fixbayonets.md").read_text()
    assert "What the other player can still tell" in page


def test_r15_new_orders_answer_a_waiting_question_at_once() -> None:
    s = pos({"d4": "GR"}, g=["march"], a=["rough"])
    play(s, "march Rd4-d6")
    assert s.to_act() == {A}
    s.apply("orders always", A)
    assert s.to_act() == {G} and men(s)["d4"] == "GR" and not s.hands[A]
    s2 = pos({"d3": "GR", "d5": "AOR"}, g=["pistol"], phase=FIGHTING)
    play(s2, "pistol Rd3xd5")
    assert s2.to_act() == {A}
    s2.apply("orders losses auto", A)
    assert men(s2)["d5"] == "AO" and s2.to_act() == {G}


def test_r15_losses_auto_never_asks() -> None:
    s = pos({"d3": "GR", "d5": "AOSU"}, g=["pistol"], phase=FIGHTING, orders={A: {"losses": "auto"}})
    play(s, "pistol Rd3xd5")
    assert men(s)["d5"] == "AOS" and s.to_act() == {G}


def test_r15_standing_orders_may_be_sent_by_either_side_at_any_time() -> None:
    s = pos({"d4": "GR"}, g=["march"])
    assert s.to_act() == {G}
    events = s.apply("orders never", A)  # the Americans, off turn
    assert s.orders[A]["negate"] == "never" and s.to_act() == {G}
    assert (
        events[0].seen_by(G) is None and events[0].seen_by(None) is None and events[0].seen_by(A) is not None
    )
    assert s.view(G).state.orders[A]["negate"] == "ask"  # private (R15)
    assert s.view(A).state.orders[A]["negate"] == "never"


# ------------------------------------------------------------------------ R18: the deck


def test_r18_an_empty_deck_takes_back_the_discard_shuffled_mid_draw() -> None:
    s = pos({"d4": "GR"}, g=[], active=A)
    rest = list(s.deck.pile)
    s.deck = Deck([card("march")], [c for c in rest if c.code != "march"][:20], 5)
    events = play(s, "end")
    assert of(events, Reshuffled)[0].count == 20
    assert len(s.hands[G]) == 3 and card("march") in s.hands[G]
    assert len(s.deck.pile) == 18 and s.deck.discard == [] and s.deck.shuffles == 6


def test_r18_with_deck_and_discard_both_empty_the_draw_stops_short() -> None:
    s = pos({"d4": "GR"}, g=[], active=A)
    s.deck = Deck([card("crawl")], [], 1)
    events = play(s, "end")
    assert of(events, Drew)[-1].count == 1 and s.phase == MOVING


def test_r18_both_piles_cannot_run_dry_in_play() -> None:
    """60 cards, at most 5 + 8 in hands: deck and discard always hold 47 or more."""
    for seed in range(4):
        s = new_game(Options(), seed)
        rng = random.Random(seed)
        while not s.is_over():
            side = min(s.to_act())
            s.apply(rng.choice(s.legal_actions(side)), side)
            assert len(s.deck.pile) + len(s.deck.discard) >= 47
            assert sum(len(h) for h in s.hands.values()) + len(s.deck.pile) + len(s.deck.discard) == 60


# ------------------------------------------------------------------------ R19-R21: the end


def test_r19_killing_both_enemy_officers_wins_at_once() -> None:
    s = pos({"d4": "GR", "d5": "AO", "e5": "AO"}, g=["bayonet", "bayonet"], phase=FIGHTING)
    play(s, "bayonet Rd4xd5")
    assert not s.is_over() and s.officers_alive(A) == 1
    s2 = pos({"d4": "GRR", "d5": "AO", "e5": "AO"}, g=["bayonet", "bayonet"], phase=FIGHTING)
    play(s2, "bayonet Rd4xd5", "bayonet Rd4xe5")
    o = s2.outcome()
    assert (
        o is not None
        and o.winner == G
        and o.reason is EndReason.OBJECTIVE
        and "American officers" in o.detail
    )
    assert s2.to_act() == frozenset() and s2.legal_actions(G) == []


def test_r19_a_battle_won_in_the_fight_phase_is_over_in_its_phase_and_its_status() -> None:
    """Caught no break before (rules10): the phase stayed "fight" after the win, and the status
    told the winner to play attack cards."""
    from engine.fixbayonets.model import OVER
    from engine.fixbayonets.words import status

    s = pos({"d4": "GRR", "d5": "AO", "e5": "AO"}, g=["bayonet", "bayonet"], phase=FIGHTING)
    play(s, "bayonet Rd4xd5", "bayonet Rd4xe5")
    assert s.phase == OVER
    assert status(s.view(G), G).endswith("the battle is over.")


def test_r19_a_grenade_on_both_officers_ends_it_in_one_blow() -> None:
    s = pos({"d4": "GR", "e6": "AOO"}, g=["grenade"], phase=FIGHTING)
    play(s, "grenade Rd4xe6")
    assert s.outcome() is not None and s.outcome().winner == G  # type: ignore[union-attr]


def test_r20_the_turn_limit_draws_when_the_americans_end_the_last_round() -> None:
    s = pos({"d4": "GR"}, active=A, round=12, options=Options(turn_limit=12))
    play(s, "end")
    o = s.outcome()
    assert o is not None and o.winner is None and o.reason is EndReason.TURN_LIMIT
    s2 = pos({"d4": "GR"}, active=G, round=12, options=Options(turn_limit=12))
    play(s2, "end")
    assert not s2.is_over()


def test_r20_a_turn_limit_of_0_is_no_limit() -> None:
    """The limit is ours, not the text's: the challenger may switch it off."""
    s = pos({"d4": "GR"}, active=A, round=200, options=Options(turn_limit=0))
    play(s, "end")
    assert not s.is_over() and s.active == G and s.round == 201


def test_r21_resignation_and_agreed_draws() -> None:
    s = pos({"d4": "GR"})
    s.apply(RESIGN, A)
    assert s.outcome().winner == G and s.outcome().reason is EndReason.RESIGNATION  # type: ignore[union-attr]
    s2 = pos({"d4": "GR"})
    s2.apply(DRAW_OFFER, G)
    s2.apply(DRAW_ACCEPT, A)
    assert s2.outcome().reason is EndReason.AGREEMENT  # type: ignore[union-attr]


def test_r21_a_draw_offer_lapses_when_the_side_it_went_to_ends_a_turn() -> None:
    s = pos({"d4": "GR"}, active=A)
    s.apply(DRAW_OFFER, G)
    events = play(s, "end")
    assert s.draw_offer is None
    assert "the draw offered by the Germans lapses" in [e.text(None) for e in events]
    assert "no draw offer" in refused(s, "accept draw", A)


def test_r22_the_other_side_s_cards_may_be_held_but_never_played() -> None:
    s = pos({"d4": "AH", "d6": "GR"}, a=["flamer", "advance", "hold"], phase=FIGHTING, active=A)
    assert legal(s) == {"end"}
    text = GAME.private_text(s.view(A)) or ""
    assert "Cards you cannot play" in text and "Flame Thrower (for the Germans only)" in text


def test_r22_an_attack_card_whose_only_users_have_fallen_says_who_fell() -> None:
    """Caught no break before (rules10): the sniper (one a side) and the specialists (two) were not
    told apart, so "all your snipers have fallen" went unnoticed."""
    s = pos({"d4": "GR", "d6": "AR"}, g=["sniper", "flamer"], phase=FIGHTING)
    text = GAME.private_text(s.view(G)) or ""
    assert "Sniper (your sniper has fallen)" in text
    assert "Flame Thrower (both your specialists have fallen)" in text


def test_every_card_is_somewhere_after_set_up() -> None:
    s = new_game(Options(), 9)
    cards = list(s.deck.pile) + s.hands[G] + s.hands[A]
    assert sorted(c.code for c in cards) == sorted(c.code for c in FULL_DECK)


def test_r15_automatic_cancelling_uses_the_side_only_card_first() -> None:
    s = pos(
        {"d4": "GR", "d5": "AO", "h1": "AO"},
        g=["bayonet"],
        a=["trees", "foxholes"],
        phase=FIGHTING,
        orders={A: {"negate": "attacks"}},
    )
    events = play(s, "bayonet Rd4xd5")
    assert of(events, Negated)[0].card == "foxholes" and s.hands[A] == [card("trees")]


def test_r15_new_orders_answering_a_waiting_question_use_the_side_only_card_first() -> None:
    """Caught no break before (rules10): orders given while the question waited spent Trees and kept
    Fox Holes, the card only the Americans can use."""
    s = pos({"d4": "GR", "d5": "AO", "h1": "AO"}, g=["bayonet"], a=["trees", "foxholes"], phase=FIGHTING)
    play(s, "bayonet Rd4xd5")
    assert s.to_act() == {A}
    events = s.apply("orders attacks", A)
    assert of(events, Negated)[0].card == "foxholes" and s.hands[A] == [card("trees")]


def test_r5_the_bot_never_ends_a_phase_for_you() -> None:
    s = pos({"d4": "GR"}, g=["trees", "flamer"])  # nothing playable in the move phase
    assert legal(s) == {"fight", "end"} and s.phase == MOVING
    play(s, "fight")
    assert legal(s) == {"end"} and s.phase == FIGHTING and s.to_act() == {G}
