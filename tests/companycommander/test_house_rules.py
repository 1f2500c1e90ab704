"""Every house rule of ours (rules/companycommander.md, H1 to H24), one or more scenarios each, with
stacked decks and rigged dice."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.companycommander.actions import parse
from engine.companycommander.events import (
    Assaulted,
    CardPlayed,
    Discarded,
    HandSeen,
    Rallied,
    Removed,
    Shot,
    SquadDrawn,
    TacticsDrawn,
)
from engine.companycommander.model import (
    SQUAD_DECKS,
    TACTICS_DECK,
    TYPES,
    Options,
)
from engine.companycommander.state import ASSAULT, DEPLOY, DISCARD, FIRE, RECON, new_game
from engine.errors import IllegalAction, InvalidNotation
from engine.meta import parse_meta
from engine.protocol import EndReason
from play.service import private_lines, summary

from .helpers import GAME, A, G, build, command, history, legal, of_type, rig, unit

# ------------------------------------------------------------------------- H1: the fronts


def test_h1_one_set_of_front_names_left_faces_left() -> None:
    s = build({"A1": "hmg L", "G1": "rifles L", "G2": "rifles R"})
    rig(s, (4, 4))
    (shot,) = of_type(command(s, "fire A1"), Shot)
    assert shot.effects[0][0] == "G1"  # across from the American Left Flank: the German Left Flank
    assert str(parse("deploy a1 left flank")) == str(parse("deploy A1 left")) == "deploy A1 L"
    assert str(parse("move A1 centre")) == "move A1 C"
    with pytest.raises(InvalidNotation, match="not a front"):
        parse("deploy A1 middle")


def test_h1_the_center_neighbours_both_flanks_the_flanks_not_each_other() -> None:
    s = build({"A1": "rifles L", "A2": "rifles C", "A3": "rifles R", "G1": "rifles C"}, phase=DEPLOY)
    moves = {a for a in legal(s) if a.startswith("move")}
    assert moves == {"move A1 C", "move A2 L", "move A2 R", "move A3 C"}
    with pytest.raises(IllegalAction, match="neighbouring front: from the Left Flank, the Center"):
        command(s, "move A1 R")


# ---------------------------------------------------------------------- H2, H3: the decks


def test_h2_the_squad_decks() -> None:
    def deck(side: str) -> dict[str, int]:
        return dict(Counter(t.code for t in SQUAD_DECKS[side]))

    assert deck(A) == {"rifles": 16, "hmg": 4, "mortar": 4, "scouts": 3, "sherman": 2, "fo": 2, "cc": 1}
    assert deck(G) == {
        "rifles": 9, "mg42": 6, "mortar": 3, "scouts": 3, "panzer": 2, "assault": 3, "fo": 2, "cc": 1
    }  # fmt: skip
    fires = {t.key for t in TYPES.values() if t.fires}
    assert fires == {"A:hmg", "A:mortar", "A:sherman", "A:fo", "G:mg42", "G:mortar", "G:panzer", "G:fo"}
    assert {t.key for t in TYPES.values() if t.recon} == {"A:scouts", "G:scouts"}
    strengths = {t.key: t.strength for t in TYPES.values()}
    assert strengths["A:rifles"] == strengths["G:rifles"] == 3 and strengths["A:sherman"] == 4
    assert strengths["A:scouts"] == strengths["A:fo"] == 1 and strengths["G:cc"] == 2


def test_h3_the_tactics_deck() -> None:
    counts = Counter(c.code for c in TACTICS_DECK)
    assert counts == {
        "sniper": 6, "mortars": 8, "artillery": 5, "airstrike": 1,
        "surprise": 3, "ambush": 3, "rally": 3, "medic": 3, "reinforcements": 2,
    }  # fmt: skip
    assert len(TACTICS_DECK) == 34
    rolls = {c.code: c.rolls for c in TACTICS_DECK if c.kind == "support"}
    assert rolls == {"sniper": 1, "mortars": 2, "artillery": 3, "airstrike": 4}


# ------------------------------------------------------------------- H4: playing cards


def test_h4_cards_are_played_in_your_own_turn_only() -> None:
    s = build({"A1": "rifles C", "A2": "rifles C pinned", "G1": "rifles C"}, hands={G: ["rally", "sniper"]})
    assert s.legal_actions(G) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        s.apply(parse("play sniper C"), G)
    assert GAME.new_game({}, 1).quick_decision() is False


def test_h4_when_each_card_may_be_played() -> None:
    hand = ["sniper", "surprise", "reinforcements", "rally", "medic", "ambush"]
    units = {"A1": "rifles C pinned cas1", "A2": "rifles C", "G1": "rifles C"}
    deploy = build(units, phase=DEPLOY, hands={A: hand})
    plays = {a for a in legal(deploy) if a.startswith("play")}
    assert plays == {"play reinforcements", "play rally C", "play medic A1", "play ambush C"}
    recon = build(units, phase=RECON, hands={A: hand})
    plays = {a for a in legal(recon) if a.startswith("play")}
    assert plays == {"play sniper C", "play surprise", "play rally C", "play medic A1", "play ambush C"}
    discard = build(units, phase=DISCARD, hands={A: [*hand, "mortars", "mortars"]})
    assert not any(a.startswith("play") for a in legal(discard))
    assault = build(units, phase=ASSAULT, hands={A: hand})
    assert "play sniper C" not in legal(assault)
    with pytest.raises(
        IllegalAction,
        match=r"Support cards are played in the Recon or Suppression phase, and this is the Assault "
        r"phase \(an assault or a Surprise Attack ends the Suppression phase\)\.",
    ):
        command(assault, "play sniper C")
    with pytest.raises(
        IllegalAction, match=r"in the Recon or Suppression phase, and this is the Deploy phase\.$"
    ):
        command(deploy, "play sniper C")
    with pytest.raises(IllegalAction, match="Reinforcements are played in your Deploy phase"):
        command(recon, "play reinforcements")


def test_h4_a_card_needs_its_target() -> None:
    s = build({"A1": "rifles C", "G1": "rifles C"}, hands={A: ["sniper", "rally", "medic", "ambush"]})
    for text, why in (
        ("play sniper L", "no unit on the Left Flank"),
        ("play rally C", "None of your units in the Center is Pinned"),
        ("play medic A1", "no Casualty marker"),
        ("play ambush L", "no unit on the Left Flank to lay an Ambush"),
    ):
        with pytest.raises(IllegalAction, match=why):
            command(s, text)


def test_h4_a_second_surprise_attack_or_ambush_waits_until_the_first_is_spent() -> None:
    """Two Surprise Attacks do not add up, nor do two Ambushes at one front: the second card is
    refused, with the reason, until the first is spent (it would be thrown away)."""
    s = build(
        {"A1": "rifles C", "A2": "rifles C", "A3": "rifles L", "G1": "rifles C", "G2": "rifles L"},
        hands={A: ["surprise", "surprise", "ambush", "ambush"]},
    )
    command(s, "play ambush C")
    assert "play ambush C" not in legal(s) and "play ambush L" in legal(s)
    with pytest.raises(IllegalAction, match=r"^Your Center is already under an Ambush\.$"):
        command(s, "play ambush C")
    command(s, "play surprise")
    assert "play surprise" not in legal(s)
    with pytest.raises(
        IllegalAction, match=r"^A Surprise Attack is already waiting for your next assault\.$"
    ):
        command(s, "play surprise")
    rig(s, (2, 3))
    command(s, "assault A1")  # spends the first
    assert s.surprise == 0 and "play surprise" in legal(s)


def test_h4_surprise_attack_adds_three_to_the_next_assault_only() -> None:
    s = build(
        {"A1": "rifles C", "A2": "rifles C", "G1": "rifles C", "G2": "rifles C"}, hands={A: ["surprise"]}
    )
    command(s, "play surprise")
    assert s.phase == ASSAULT and "play surprise" not in legal(s)
    rig(s, (2, 3), (2, 3))
    events = command(s, "assault A1; assault A2")
    first, second = of_type(events, Assaulted)
    assert first.mods == (("Surprise Attack", 3),) and first.result == "hit"  # 5 + 3 = 8
    assert second.mods == () and second.result == "stalled"


def test_h4_ambush_takes_three_off_enemy_assaults_there_until_its_side_moves_again() -> None:
    s = build({"A1": "rifles C", "G1": "rifles C", "G2": "rifles L"}, hands={A: ["ambush"]})
    command(s, "play ambush C")
    assert s.ambush[A] == 0b010
    rig(s)
    command(s, "end; deploy G3 L; deploy G4 L; deploy G5 L; tactics")
    rig(s, (5, 4))
    (hit,) = of_type(command(s, "assault G1"), Assaulted)
    assert hit.mods == (("Ambush", -3),) and hit.result == "stalled"  # 9 − 3 = 6
    rig(s)
    command(s, "end")
    assert s.ambush[A] == 0  # gone when the Americans' turn begins


def test_h4_rally_medic_and_reinforcements() -> None:
    s = build(
        {"A1": "rifles C pinned", "A2": "hmg C pinned cas1", "A3": "rifles L pinned", "G1": "rifles C"},
        phase=DEPLOY,
        hands={A: ["rally", "medic", "reinforcements"]},
        squad={A: ["sherman", "scouts"]},
    )
    events = command(s, "play rally C")
    assert not unit(s, "A1").pinned and not unit(s, "A2").pinned and unit(s, "A3").pinned
    assert "the Americans play Rally in their Center: A1 and A2 are no longer Pinned" in history(events)
    command(s, "play medic A2")
    assert unit(s, "A2").cas == 0
    events = command(s, "play reinforcements")
    (drawn,) = of_type(events, SquadDrawn)
    assert [TYPES[k].code for _, k in drawn.units] == ["sherman", "scouts"]
    assert [u.label for u in s.arriving(A)] == ["A4", "A5"]


# ---------------------------------------------------------------------------- H5 hands


def test_h5_three_cards_for_the_first_player_and_seven_for_the_second() -> None:
    for seed in range(6):
        s = new_game(Options(), seed)
        second = G if s.first == A else A
        assert len(s.hands[s.first]) == 3 and len(s.hands[second]) == 7  # the hand limit
        assert len(s.tactics) == 34 - 10


def test_h5_the_first_player_draws_three_squad_cards_in_the_first_turn_as_the_text_says() -> None:
    s = new_game(Options(), 2)
    first = s.first
    assert len(s.arriving(first)) == 3  # the text's "Draw 3", with no exception (issue 31)
    for u in s.arriving(first):
        command(s, f"deploy {u.label} C")
    command(s, "tactics; end")
    assert len(s.arriving(s.active)) == 3  # the second player draws three
    for u in s.arriving(s.active):
        command(s, f"deploy {u.label} C")
    command(s, "tactics")
    while s.phase == DISCARD:
        command(s, legal(s)[0])
    rig(s)
    command(s, "end")
    assert s.active == first and len(s.arriving(first)) == 3  # and every turn after


# ------------------------------------------------------------------------ H6 to H9: units


def test_h6_drawn_units_are_public_and_must_all_be_deployed() -> None:
    s = new_game(Options(), 2)
    side = s.active
    arriving = [u.label for u in s.arriving(side)]
    assert len(arriving) == 3  # the first player's first turn too (H5)
    for viewer in (None, G if side == A else A):
        assert [u.label for u in s.view(viewer).state.arriving(side)] == arriving
    assert "tactics" not in legal(s)
    command(s, f"deploy {arriving[0]} L")
    with pytest.raises(
        IllegalAction, match=f"Deploy your new units first \\({arriving[1]} and {arriving[2]}\\)"
    ):
        command(s, "tactics")


def test_h7_a_unit_moves_once_a_turn_and_not_the_turn_it_arrives() -> None:
    s = build({"A1": "rifles L", "A2": "rifles C fresh", "G1": "rifles C"}, phase=DEPLOY)
    assert not any(a.startswith("move A2") for a in legal(s))
    command(s, "move A1 C")
    with pytest.raises(IllegalAction, match="one move a turn"):
        command(s, "move A1 R")


def test_h8_units_deployed_this_turn_act_at_once() -> None:
    s = build({"A1": "mortar -", "A2": "rifles -", "G1": "rifles C"}, phase=DEPLOY)
    command(s, "deploy A1 C; deploy A2 C; tactics")
    assert {"fire A1", "assault A2", "assault A1"} <= set(legal(s))


def test_h9_one_action_a_unit_a_turn() -> None:
    s = build({"A1": "rifles C", "A2": "hmg C", "G1": "rifles C", "G2": "rifles C"})
    rig(s, (6, 2), (3, 3))
    command(s, "assault A1")
    assert "assault A1" not in legal(s)
    with pytest.raises(IllegalAction, match="already acted"):
        command(s, "assault A1")
    s2 = build({"A1": "hmg C", "G1": "rifles C"})
    rig(s2, (1, 1))
    command(s2, "fire A1")
    with pytest.raises(IllegalAction, match="already acted"):
        command(s2, "fire A1")


# -------------------------------------------------------------------------- H10, H11 recon


def test_h10_the_use_of_a_success_is_said_with_the_mission() -> None:
    with pytest.raises(InvalidNotation, match="Say what a success is for"):
        parse("recon A2")
    s = build({"A1": "scouts C", "G1": "rifles C"}, hands={G: ["medic"]})
    rig(s, (6,))
    events = command(s, "recon A1 mark")
    assert s.marks == 0b010 and not of_type(events, HandSeen)


def test_h10_a_mission_needs_an_enemy_across() -> None:
    s = build({"A1": "scouts L", "G1": "rifles C"})
    with pytest.raises(IllegalAction, match="no unit on the Left Flank"):
        command(s, "recon A1 look")


def test_h10_the_mark_helps_fire_at_that_front_only_never_twice_and_never_assaults() -> None:
    s = build(
        {"A1": "scouts C", "A2": "scouts C", "A3": "hmg C", "A4": "hmg L", "A5": "rifles C", "G1": "panzer C"}
        | {"G2": "panzer L"}
    )
    rig(s, (5,), (6,), (2, 2), (2, 2), (6, 6), start=250181)  # the first seed that rolls them
    events = command(s, "recon A1 mark; recon A2 mark; fire A3; fire A4; assault A5")
    shots = of_type(events, Shot)
    assert shots[0].mods == (("Recon", 1),) and shots[1].mods == ()  # +1 once; the Left Flank unmarked
    (hit,) = of_type(events, Assaulted)
    assert all(why != "Recon" for why, _ in hit.mods)
    rig(s)
    command(s, "end")
    assert s.marks == 0


def test_h10_spotted_rolls_with_no_modifier() -> None:
    s = build({"A1": "scouts C", "A2": "scouts C", "G1": "mg42 C"})
    rig(s, (5,), (1,), (5, 5))
    events = command(s, "recon A1 mark; recon A2 mark")
    (shot,) = of_type(events, Shot)
    assert shot.source == "spotted" and shot.mods == () and shot.effects == (("A2", "A:scouts", "pinned"),)


def test_h11_the_hand_is_shown_to_the_recon_player_alone_and_not_kept() -> None:
    s = build({"A1": "scouts C", "G1": "rifles C"}, hands={G: ["airstrike", "rally"]})
    rig(s, (5,))
    events = command(s, "recon A1 look")
    (seen,) = of_type(events, HandSeen)
    assert seen.text(A) == "you see the Germans' hand: Air Strike and Rally"
    for viewer in (G, None):
        kept = seen.seen_by(viewer)
        assert kept is not None and kept.cards == ()  # type: ignore[attr-defined]
        assert "Air Strike" not in kept.text(viewer) and "Rally" not in kept.text(viewer)
    assert seen.seen_by(G).text(G) == "the Americans see the Germans' hand (2 cards)"  # type: ignore[union-attr]
    assert seen.seen_by(None).text(None) == "the Americans see the Germans' hand (2 cards)"  # type: ignore[union-attr]
    assert "Air Strike" in private_lines(events, A)  # the platform's private message to the Recon player
    assert private_lines(events, G) == ""  # nothing for the owner that the channel is not told
    assert "Air Strike" not in summary(events, None) and "Air Strike" not in summary(events, G)
    assert s.view(A).state.hands[G] == []  # shown once: the view does not keep it


# ------------------------------------------------------------------ H12 suppression rolls


def test_h12_fire_needs_an_enemy_across() -> None:
    s = build({"A1": "hmg L", "G1": "rifles C"})
    assert "fire A1" not in legal(s)
    with pytest.raises(IllegalAction, match="no unit on the Left Flank, the front across from A1"):
        command(s, "fire A1")


def test_h12_the_mg42_and_the_american_observer_add_one() -> None:
    for units, firer, bonus in (
        ({"G1": "mg42 C", "A1": "rifles C"}, "G1", (("MG 42", 1),)),
        ({"A1": "fo C", "G1": "rifles C"}, "A1", (("Artillery", 1),)),
        ({"G1": "fo C", "A1": "rifles C"}, "G1", ()),
        ({"A1": "hmg C", "G1": "rifles C"}, "A1", ()),
    ):
        s = build(units, active=(firer[0] == "G" and G) or A)
        rig(s, (3, 4))
        (shot,) = of_type(command(s, f"fire {firer}"), Shot)
        assert shot.mods == bonus


def test_h12_later_support_rolls_draw_among_the_units_still_there() -> None:
    s = build({"A1": "rifles C", "G1": "scouts C", "G2": "rifles C"}, hands={A: ["mortars"]})
    rig(s, (6, 6), (4, 4), target=(0, 2))
    events = command(s, "play mortars C")
    first, second = of_type(events, Shot)
    assert first.effects == (("G1", "G:scouts", "destroyed"),)
    assert second.effects == (("G2", "G:rifles", "pinned"),)


def test_h12_rolls_with_nobody_left_say_so() -> None:
    s = build({"A1": "rifles C", "G1": "scouts C"}, hands={A: ["mortars"]}, lost={G: 0})
    s.forces[G]["G2"] = s.forces[G]["G1"].copy()  # a second German at another front keeps the game going
    s.forces[G]["G2"].label, s.forces[G]["G2"].front = "G2", 0
    s.occ[G][0] += 1
    rig(s, (6, 6))
    events = command(s, "play mortars C")
    last = of_type(events, Shot)[-1]
    assert last.empty and "nobody is left there to hit" in last.text(None)


# ------------------------------------------------------------------------ H13, H14 markers


def test_h13_casualties_add_up_and_a_pin_on_a_pinned_unit_is_a_casualty() -> None:
    s = build({"A1": "hmg C", "A2": "hmg C", "A3": "hmg C", "G1": "panzer C pinned"})
    rig(s, (5, 6), (6, 6), (4, 4))
    events = command(s, "fire A1; fire A2; fire A3")
    assert unit(s, "G1").cas == 3 and unit(s, "G1").pinned  # two Casualties, then Pinned again
    assert of_type(events, Shot)[-1].effects == (("G1", "G:panzer", "repinned"),)
    assert "the German Panzer IV G1 is Pinned again and takes a Casualty" in history(events)
    assert "no effect" not in history(events)


def test_h13_a_pin_on_a_pinned_unit_can_destroy_it() -> None:
    s = build({"A1": "hmg C", "G1": "scouts C pinned"})
    rig(s, (4, 4))
    events = command(s, "fire A1")
    assert of_type(events, Shot)[0].effects == (("G1", "G:scouts", "destroyed"),)
    assert s.unit("G1") is None and of_type(events, Removed)[0].how == "destroyed"


def test_h13_an_unpinned_unit_is_only_pinned() -> None:
    s = build({"A1": "hmg C", "G1": "rifles C"})
    rig(s, (4, 4))
    command(s, "fire A1")
    assert unit(s, "G1").pinned and unit(s, "G1").cas == 0


def test_h14_a_pinned_unit_does_nothing_and_is_assaulted_at_plus_two() -> None:
    s = build({"A1": "scouts C pinned", "A2": "rifles C pinned", "A3": "rifles C", "G1": "rifles C pinned"})
    assert not {"recon A1 look", "assault A2"} & set(legal(s))
    rig(s, (3, 3))
    (hit,) = of_type(command(s, "assault A3"), Assaulted)
    assert hit.mods == (("Pinned target", 2),) and hit.result == "hit"  # 6 + 2 = 8


# ----------------------------------------------------------------------- H15, H16 assault


@pytest.mark.parametrize(
    ("dice", "result", "effects"),
    [
        ((1, 3), "repulsed", (("A1", "A:rifles", "casualty"),)),
        ((2, 3), "stalled", (("A1", "A:rifles", "pinned"),)),
        ((3, 4), "stalled", (("A1", "A:rifles", "pinned"),)),
        ((4, 4), "hit", (("G1", "G:rifles", "casualty"),)),
        ((5, 5), "hit_pinned", (("G1", "G:rifles", "casualty_pinned"),)),
        ((6, 5), "hit_pinned", (("G1", "G:rifles", "casualty_pinned"),)),
        ((6, 6), "routed", (("G1", "G:rifles", "routed"),)),
    ],
)
def test_h15_the_assault_table(dice: tuple[int, int], result: str, effects: tuple) -> None:
    s = build({"A1": "rifles C", "G1": "rifles C", "G2": "rifles L"})
    rig(s, dice)
    (hit,) = of_type(command(s, "assault A1"), Assaulted)
    assert hit.result == result and hit.effects == effects and hit.mods == ()
    # The markers the result leaves, on the board and not only in the record: (Casualties,
    # Pinned) of the attacker and of the target (None: routed, out of play and counted).
    after = {
        "repulsed": ((1, False), (0, False)),
        "stalled": ((0, True), (0, False)),
        "hit": ((0, False), (1, False)),
        "hit_pinned": ((0, False), (1, True)),
        "routed": ((0, False), None),
    }[result]
    g1 = s.unit("G1")
    assert ((unit(s, "A1").cas, unit(s, "A1").pinned), g1 and (g1.cas, g1.pinned)) == after
    assert s.lost[G] == (1 if result == "routed" else 0)


def test_h15_assault_modifiers() -> None:
    s = build({"G1": "assault C", "A1": "scouts C cas0", "A2": "rifles L"}, active=G)
    rig(s, (2, 2))
    (hit,) = of_type(command(s, "assault G1"), Assaulted)
    assert hit.mods == (("Strength 3 against 1", 2), ("Assault squad", 1))
    assert "2D6: 2 + 2 + 2 + 1 = 7 (+2 Strength 3 against 1, +1 Assault squad)" in hit.text(None)
    t = build({"A1": "rifles C cas2", "G1": "panzer C", "G2": "rifles L"})
    rig(t, (6, 4))
    (hit,) = of_type(command(t, "assault A1"), Assaulted)
    assert hit.mods == (("Strength 1 against 4", -3),) and hit.result == "stalled"


def test_h15_the_target_is_drawn_at_random_at_the_front_across() -> None:
    picked = set()
    for index in range(2):
        s = build({"A1": "rifles C", "G1": "rifles C", "G2": "mg42 C", "G3": "rifles L"})
        rig(s, (4, 4), target=(index, 2))
        (hit,) = of_type(command(s, "assault A1"), Assaulted)
        picked.add(hit.target)
    assert picked == {"G1", "G2"}


def test_h15_an_assault_goes_in_against_a_pinned_unit_across_if_there_is_one() -> None:
    for dice in ((4, 4), (3, 5), (5, 3), (2, 6), (6, 2)):  # five seeds, five draws: always G2
        s = build({"A1": "rifles C", "G1": "rifles C", "G2": "mg42 C pinned", "G3": "rifles C"})
        rig(s, dice)
        (hit,) = of_type(command(s, "assault A1"), Assaulted)
        assert hit.target == "G2" and hit.mods[-1] == ("Pinned target", 2)
    picked = set()
    for index in range(2):
        s = build({"A1": "rifles C", "G1": "rifles C pinned", "G2": "mg42 C pinned", "G3": "rifles C"})
        rig(s, (4, 4), target=(index, 2))
        (hit,) = of_type(command(s, "assault A1"), Assaulted)
        picked.add(hit.target)
    assert picked == {"G1", "G2"}  # among several Pinned units, one drawn at random


def test_h3_an_ambush_spoils_one_assault_then_it_is_spent() -> None:
    s = build({"A1": "rifles C", "G1": "rifles C", "G2": "rifles C"}, active=G, first=G, hands={A: []})
    s.ambush[A] = 0b010
    rig(s, (5, 4), (5, 4))
    first, second = of_type(command(s, "assault G1; assault G2"), Assaulted)
    assert first.mods == (("Ambush", -3),) and first.result == "stalled"  # 9 − 3 = 6
    assert second.mods == () and second.result == "hit"  # the ambush was spent
    assert s.ambush[A] == 0


def test_h16_a_rout_takes_the_unit_out_and_counts_towards_ten() -> None:
    s = build({"A1": "rifles C", "G1": "rifles C", "G2": "rifles L"}, lost={G: 3})
    rig(s, (6, 6))
    events = command(s, "assault A1")
    assert s.unit("G1") is None and s.lost[G] == 4
    (gone,) = of_type(events, Removed)
    assert (
        gone.how == "routed"
        and gone.text(None) == "G1 Rifle squad is out (routed): the Germans have lost 4 of 10"
    )


# --------------------------------------------------------------------------- H17 rally


@pytest.mark.parametrize(
    ("units", "roll", "result"),
    [
        ({"A1": "rifles C pinned"}, 4, "rallied"),
        ({"A1": "rifles C pinned"}, 3, "pinned"),
        ({"A1": "rifles C pinned"}, 1, "pinned"),  # no Casualty marker: a 1 does not rout it
        ({"A1": "rifles C pinned cas1"}, 1, "routed"),
        ({"A1": "rifles C pinned cas1", "A2": "cc C"}, 3, "rallied"),  # +1 beside the Company Commander
        ({"A1": "rifles C pinned cas1", "A2": "cc L"}, 3, "pinned"),  # not at another front
    ],
)
def test_h17_the_rally_phase(units: dict[str, str], roll: int, result: str) -> None:
    s = build(units | {"G1": "rifles C", "G2": "rifles L", "G3": "rifles R"})
    rig(s, (roll,))
    (rallied,) = of_type(command(s, "end"), Rallied)
    assert rallied.roll == roll and rallied.result == result
    assert (s.unit("A1") is None) == (result == "routed")
    if result == "routed":
        assert s.lost[A] == 1
    else:  # the marker itself, not only the record: gone on a rally, kept otherwise
        assert unit(s, "A1").pinned == (result == "pinned")


def test_h17_the_company_commander_rallies_without_his_own_bonus() -> None:
    s = build({"A1": "cc C pinned", "G1": "rifles C"})
    rig(s, (3,))
    (rallied,) = of_type(command(s, "end"), Rallied)
    assert rallied.mods == () and rallied.result == "pinned"


def test_h17_h19_a_pinned_company_commander_still_leads() -> None:
    """Pinned forbids acting (H14), not leading: a Pinned Company Commander still gives +1 to the
    rallies at his front (after his own roll, which has none) and his extra card next turn."""
    s = build({"A1": "cc C pinned", "A2": "rifles C pinned cas1", "G1": "rifles C"})
    rig(s, (3,), (3,))
    commander, rifles = of_type(command(s, "end"), Rallied)
    assert (commander.unit, commander.mods, commander.result) == ("A1", (), "pinned")
    assert (rifles.unit, rifles.mods, rifles.result) == ("A2", (("Company Commander", 1),), "rallied")
    t = build({"A1": "cc C pinned", "G1": "rifles C"}, active=G)
    rig(t)
    command(t, "end")
    assert t.active == A and "extra tactics" in legal(t)


# ---------------------------------------------------------------------- H18, H19, H20, H21


def test_h18_units_not_yet_deployed_stand_at_no_front() -> None:
    units = {"A1": "rifles L", "A2": "rifles C", "A3": "hmg R", "G1": "rifles C", "G3": "scouts R"}
    s = build(units | {"G2": "rifles -"})
    rig(s, (6, 6))
    command(s, "fire A3")  # the Scouts on the Right Flank fall
    o = s.outcome()
    assert o is not None and o.winner == A  # the German arriving at no front yet holds nothing
    t = build(units | {"G2": "rifles L"})
    rig(t, (6, 6))
    command(t, "fire A3")
    assert not t.is_over()  # the Germans still hold two fronts


def test_h19_the_extra_card_needs_the_commander_at_a_front_when_the_turn_begins() -> None:
    s = build({"G1": "rifles C", "A1": "rifles C"}, active=G, squad={A: ["cc", "rifles", "rifles", "rifles"]})
    rig(s)
    command(s, "end; deploy A2 C; deploy A3 C; deploy A4 C")
    assert "tactics" in legal(s) and not any(a.startswith("extra") for a in legal(s))


def test_h20_an_empty_squad_deck_is_not_reshuffled() -> None:
    s = build({"A1": "rifles C", "G1": "rifles C"}, active=G, squad={A: ["mortar"], G: []})
    rig(s)
    events = command(s, "end")
    (drawn,) = of_type(events, SquadDrawn)
    assert drawn.text(None) == "the Americans draw A2 Mortar team (their Squad deck is used up)"
    rig(s)
    command(s, "deploy A2 C; tactics; end; tactics")
    rig(s)
    events = command(s, "end")
    (drawn,) = of_type(events, SquadDrawn)
    assert (
        drawn.units == ()
        and drawn.text(None) == "the Americans draw no Squad card (their Squad deck is empty)"
    )


def test_h20_an_extra_squad_card_from_an_empty_deck_is_refused_naming_what_is_left() -> None:
    """The refusal names the card that may still be taken, and going without where the edition
    allows it (H19); the Tactics deck is shared, so it is never "your" Tactics deck."""
    for edition, without in ((2, " or go without it (`extra none`)"), (1, "")):
        s = build(
            {"A1": "cc C", "G1": "rifles C"},
            phase=DEPLOY,
            extra=True,
            squad={A: []},
            options=Options(edition=edition),
        )
        with pytest.raises(IllegalAction) as refused:
            command(s, "extra squad")
        assert (
            str(refused.value) == f"Your Squad deck is empty: take a Tactics card (`extra tactics`){without}."
        )
        if edition == 1:
            with pytest.raises(IllegalAction, match=r"always taken: `extra tactics`\.$"):
                command(s, "extra none")
        command(s, "extra tactics")  # the card it names is taken as printed
    s = build({"A1": "cc C", "G1": "rifles C"}, phase=DEPLOY, extra=True)
    s.tactics, s.tactics_discard = [], []
    with pytest.raises(IllegalAction) as refused:
        command(s, "extra tactics")
    assert str(refused.value) == (
        "The Tactics deck and its discard pile are empty: take a Squad card (`extra squad`) or go "
        "without it (`extra none`)."
    )


def test_h20_a_side_with_no_unit_and_no_squad_card_has_lost() -> None:
    s = build({"A1": "hmg C", "G1": "scouts C"}, squad={G: []})
    rig(s, (6, 6))
    command(s, "fire A1")
    o = s.outcome()
    assert o is not None and o.winner == A and o.reason is EndReason.ANNIHILATION
    assert o.detail == "the Germans have no unit left to fight with"


def test_h21_no_tactics_card_to_draw() -> None:
    s = build({"A1": "rifles C", "G1": "rifles C"}, phase=DEPLOY)
    s.tactics, s.tactics_discard = [], []
    events = command(s, "tactics")
    (drew,) = of_type(events, TacticsDrawn)
    assert drew.count == 0 and "both the deck and its discard are empty" in drew.text(None)


# ----------------------------------------------------------------------------- H22, H23


def test_h22_the_extra_tactics_card_may_exceed_seven_until_the_tactics_phase() -> None:
    hand = ["sniper"] * 6 + ["medic"]
    s = build({"A1": "cc C", "G1": "rifles C"}, phase=DEPLOY, hands={A: hand}, extra=True)
    command(s, "extra tactics")
    assert len(s.hands[A]) == 8 and s.phase == DEPLOY
    command(s, "tactics")
    assert s.phase == DISCARD and len(s.hands[A]) == 10
    events = command(s, "discard sniper")
    assert of_type(events, Discarded)[0].text(G) == "the Americans discard Sniper (seven cards at most)"


def test_h23_the_turn_limit_gives_the_game_to_more_enemy_units_put_out() -> None:
    twelve = Options(turn_limit=12)
    s = build(
        {"A1": "rifles C", "G1": "rifles C"}, active=G, first=A, round=12, lost={A: 2, G: 4}, options=twelve
    )
    rig(s)
    events = command(s, "end")
    o = s.outcome()
    assert o is not None and o.winner == A and o.reason is EndReason.TURN_LIMIT
    assert o.detail == (
        "turn limit of 12 rounds reached: by our rule H23 the side that put out more enemy units wins, 4 to 2"
    )
    assert "the Americans win (turn limit of 12 rounds reached: by our rule H23" in history(events)
    level = build(
        {"A1": "rifles C", "G1": "rifles C"}, active=G, first=A, round=12, lost={A: 3, G: 3}, options=twelve
    )
    rig(level)
    command(level, "end")
    o = level.outcome()
    assert o is not None and o.winner is None
    assert o.detail == "turn limit of 12 rounds reached with 3 enemy units put out by each side"


def test_h23_the_first_player_ending_the_last_round_does_not_end_it() -> None:
    s = build({"A1": "rifles C", "G1": "rifles C"}, active=A, first=A, round=12, options=Options(12))
    rig(s)
    command(s, "end")
    assert not s.is_over() and s.active == G


def test_h23_the_limit_is_an_option_off_by_default() -> None:
    # the text has no limit (issue 31); a match stores its rules' edition beside its options
    assert GAME.normalise_options({}) == {"turn_limit": 0, "edition": 2}
    assert GAME.new_game({}, 1).options.turn_limit == 0
    assert GAME.normalise_options({"turn_limit": "0"}) == {"turn_limit": 0, "edition": 2}
    with pytest.raises(ValueError, match="between 0 and 99"):
        GAME.normalise_options({"turn_limit": 100})
    from play.present import terms_text

    assert "after round 12, the side that put out more enemy units wins" in terms_text(
        GAME, {"turn_limit": 12}
    )
    assert "after round 1, the side" in terms_text(GAME, {"turn_limit": 1})
    assert "none" in terms_text(GAME, {"turn_limit": 0})
    s = build({"A1": "rifles C", "G1": "rifles C"}, active=G, first=A, round=40, options=Options(0))
    rig(s)
    command(s, "end")
    assert not s.is_over()
    assert GAME.new_game(GAME.normalise_options({"turn_limit": 5}), 1).options.turn_limit == 5


def test_h24_nothing_is_owed_by_the_side_whose_turn_it_is_not() -> None:
    rng = random.Random(4)
    s = GAME.new_game({}, 4)
    for _ in range(300):
        if s.is_over():
            break
        assert s.to_act() == frozenset((s.active,)) and not s.quick_decision()
        s.apply(rng.choice(s.legal_actions(s.active)), s.active)
    assert s.default_action(A) is None


def test_a_draw_offer_stands_through_the_turn_and_lapses_when_its_side_ends_the_turn() -> None:
    """The notation's shared words: an offer made to the side on turn stands while it plays, and
    lapses, said in that turn's history, when it ends its turn instead of answering."""
    s = build({"A1": "rifles C", "G1": "rifles C"}, hands={A: ["sniper"]})
    s.apply(parse_meta("offer draw"), G)
    rig(s, (1, 1))
    command(s, "play sniper C")  # playing on within the turn: the offer still stands
    assert s.draw_offer == G
    rig(s)
    events = command(s, "end")
    assert s.draw_offer is None and "the draw offered by the Germans lapses" in history(events)
    with pytest.raises(IllegalAction):
        s.apply(parse_meta("accept draw"), A)


def test_the_recon_and_support_phases_are_left_by_acting_later() -> None:
    s = build({"A1": "scouts C", "A2": "rifles C", "G1": "rifles C"}, hands={A: ["sniper"]})
    rig(s, (1, 1))
    command(s, "play sniper C")
    assert s.phase == FIRE and not any(a.startswith("recon") for a in legal(s))
    rig(s, (3, 3))
    command(s, "assault A2")
    assert s.phase == ASSAULT
    assert of_type(command(s, "end"), CardPlayed) == []
