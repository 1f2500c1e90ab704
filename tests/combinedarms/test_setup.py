"""Army design (secret, simultaneous) and deployment (in turns, whole armies) (R1-R4, R20, W9)."""

from __future__ import annotations

import random

import pytest

from engine.combinedarms import actions as A
from engine.combinedarms.army import army_problem, layout_problem, random_army, ready_layout
from engine.combinedarms.game import WWI_GAME, WWII_GAME
from engine.combinedarms.units import WWI, WWII
from engine.errors import IllegalAction, InvalidNotation
from tests.combinedarms.helpers import AMERICANS, BRITISH, GERMANS, E, code_at, legal


def test_both_sides_design_at_once_and_each_army_stays_secret_until_both_are_in():
    s = WWI_GAME.new_game({}, 1)
    assert s.to_act() == {BRITISH, GERMANS}
    assert legal(s, BRITISH) == {"army balanced", "army assault", "army guns", "army firepower"}
    events = s.apply(WWI_GAME.parse("army I8 M2 A5 H1"), GERMANS)
    chosen = events[0]
    assert isinstance(chosen, E.ArmyChosen)
    assert "5 Artillery" in chosen.text(GERMANS)
    assert "Artillery" not in chosen.text(BRITISH) and "Artillery" not in chosen.text(None)
    assert chosen.seen_by(BRITISH).army is None and chosen.seen_by(GERMANS).army is not None  # type: ignore[union-attr]
    assert s.to_act() == {BRITISH}
    # Neither the British nor a spectator can see the German army; the Germans see it.
    assert s.view(BRITISH).state.armies[1] is None and s.view(None).state.armies[1] is None
    assert s.view(GERMANS).state.armies[1] == {"I": 8, "M": 2, "A": 5, "H": 1}
    assert s.view(BRITISH).state.designed == [False, True]
    # The British (or their AI) see a plausible, legal army in its place when they search.
    dealt = s.view(BRITISH).determinize(random.Random(4))
    assert dealt.armies[1] is not None and army_problem(dealt.armies[1], WWI.limits, WWI) is None
    with pytest.raises(IllegalAction, match="already chosen"):
        s.apply(A.Army(preset="guns"), GERMANS)
    events = s.apply(A.Army(preset="balanced"), BRITISH)
    revealed = next(e for e in events if isinstance(e, E.ArmiesRevealed))
    # The line names who chose, as the first army's line did ("British: both armies are in" named
    # them only by the platform's prefix), and each army is an event of its own, so a story tells
    # each on a line of its own.
    assert revealed.text(None) == "the British have chosen their army, and both armies are shown"
    shown = [e.text(None) for e in events if isinstance(e, E.ArmyShown)]
    assert shown[1] == "the Germans field 8 Infantry, 2 Machine Guns, 5 Artillery, 1 Headquarters"
    assert shown[0].startswith("the British field ") and "1 Sniper" in shown[0]
    # The second army is not called "secret until both are in" in the line that reveals both.
    assert [type(e) for e in events] == [E.ArmiesRevealed, E.ArmyShown, E.ArmyShown]
    assert all("secret" not in e.text(v) for e in events for v in (BRITISH, GERMANS, None))
    assert s.phase == "deploy" and s.to_act() == {BRITISH}


def test_an_illegal_army_is_refused_with_the_reason():
    s = WWI_GAME.new_game({}, 1)
    for notation, reason in (
        ("army I7 M2 A5 T1 H1", "at least 8 Infantry"),
        ("army I8 M3 A4 H1", "at most 2 Machine Guns"),
        ("army I9 A6 H1", "at most 5 Artillery"),
        ("army I15 H1 S1", "exactly 16 units"),
        ("army I14 S1 M1", "exactly 1 Headquarters"),
        ("army I8 S2 M2 T2 H2", "exactly 1 Headquarters"),
    ):
        with pytest.raises(IllegalAction, match=reason) as refused:
            s.apply(WWI_GAME.parse(notation), BRITISH)
        # Every ready-made army is offered instead, not the first three.
        assert [str(a) for a in refused.value.legal] == [
            f"army {p}" for p in ("balanced", "assault", "guns", "firepower")
        ]
    assert s.to_act() == {BRITISH, GERMANS}


# The texts' unit lists: name, move, range, defence, and WWI's per-type bounds (max, min; None for
# none), so a slip in units.py shows here and not in play.
WWI_TEXT = {
    "Infantry": (2, 1, 3, None, 8),
    "Sniper": (2, 2, 2, 2, None),
    "Machine Gun": (1, 2, 3, 2, None),
    "Tank": (2, 2, 3, 2, None),
    "Artillery": (1, 4, 2, 5, None),
    "Headquarters": (0, 1, 4, 1, 1),
    "Flame Thrower": (1, 1, 3, 2, None),
    "Trench Raiders": (3, 1, 3, 2, None),
}
WWII_TEXT = {
    "General Infantry": ("infantry", 1, 1, 5),
    "Paratroopers": ("infantry", 1, 1, 4),
    "Engineers": ("infantry", 1, 1, 4),
    "Mechanized Infantry": ("infantry", 2, 1, 4),
    "Light Tank": ("armour", 3, 2, 3),
    "Medium Tank": ("armour", 2, 2, 4),
    "Heavy Tank": ("armour", 1, 2, 5),
    "Howitzer": ("artillery", 1, 3, 3),
    "Anti-Tank Gun": ("artillery", 1, 2, 3),
    "Anti-Aircraft Gun": ("artillery", 1, 2, 3),
    "Airfield": ("air", 2, 4, 2),
    "Fortification": ("base", 0, 3, 6),
    "Headquarters": ("base", 0, 1, 6),
}


def test_the_unit_tables_are_the_texts():
    wwi = {
        u.name: (u.move, u.reach, u.defense, WWI.limits.most.get(u.code), WWI.limits.least.get(u.code))
        for u in WWI.units
    }
    assert wwi == WWI_TEXT and WWI.limits.size == 16
    assert {u.name: (u.cls, u.move, u.reach, u.defense) for u in WWII.units} == WWII_TEXT
    # The special abilities as data: who does 2 damage to whom, and the WWII flags.
    twice = {u.name: {WWI.unit(c).name for c in u.double_vs} for u in WWI.units if u.double_vs}
    assert twice == {"Machine Gun": {"Infantry", "Flame Thrower"}, "Tank": {"Machine Gun"}}
    assert [u.name for u in WWI.units if u.always_double] == ["Flame Thrower"]
    twice = {u.name: {WWII.unit(c).name for c in u.double_vs} for u in WWII.units if u.double_vs}
    assert twice == {
        "Engineers": {"Fortification", "Headquarters"},
        "Anti-Tank Gun": {"Light Tank", "Medium Tank", "Heavy Tank"},
    }
    assert {u.name for u in WWII.units if u.base} == {"Fortification", "Headquarters"}
    assert [u.name for u in WWII.units if u.airfield] == ["Airfield"]
    assert [u.name for u in WWII.units if u.shield] == ["Anti-Aircraft Gun"]
    assert [(u.name, u.para_move) for u in WWII.units if u.para_move] == [("Paratroopers", 4)]
    heavy = {u.name for u in WWII.units if u.heavy}
    assert heavy == {"Light Tank", "Medium Tank", "Heavy Tank", "Mechanized Infantry"}  # W8


def test_wwii_army_limits():
    lim = WWII.limits
    assert army_problem({"I": 4, "E": 4, "M": 4, "T": 3, "H": 1}, lim, WWII) == (
        "An army needs at least 7 different unit types besides the Headquarters; this one has 4."
    )
    # The bound itself: six types besides the Headquarters are one too few, seven are enough.
    six_types = {"I": 4, "E": 3, "M": 3, "T": 2, "A": 2, "X": 1, "H": 1}
    assert "this one has 6" in (army_problem(six_types, lim, WWII) or "")
    assert army_problem({**six_types, "M": 2, "Y": 1}, lim, WWII) is None
    six_tanks = {"L": 2, "T": 2, "K": 2, "I": 2, "E": 2, "A": 2, "X": 1, "Y": 2, "H": 1}
    assert "at most 5 tanks" in (army_problem(six_tanks, lim, WWII) or "")
    five_of_a_kind = {"I": 5, "E": 2, "M": 2, "T": 2, "A": 2, "X": 1, "Y": 1, "H": 1}
    assert "at most 4 General Infantry" in (army_problem(five_of_a_kind, lim, WWII) or "")
    forts = {"F": 4, "I": 2, "E": 2, "M": 2, "T": 2, "A": 2, "X": 1, "H": 1}
    assert army_problem(forts, lim, WWII) is None
    assert "exactly 1" in (army_problem({**forts, "H": 2, "F": 3}, lim, WWII) or "") or "at most 1" in (
        army_problem({**forts, "H": 2, "F": 3}, lim, WWII) or ""
    )


@pytest.mark.parametrize("era", [WWI, WWII])
@pytest.mark.parametrize("campaign", [False, True])
def test_every_ready_made_army_and_layout_is_legal(era, campaign):
    lim = era.campaign_limits if campaign else era.limits
    presets = era.campaign_presets if campaign else era.presets
    width = 12 if campaign else 8
    for name, counts in presets.items():
        assert army_problem(counts, lim, era) is None, name
        for style in A.LAYOUTS:
            for elite in (0, lim.elite):
                rows = ready_layout(style, counts, era, width, elite)
                assert layout_problem(rows, width, 3, counts, elite, era) is None, (name, style, rows)
                assert sum(r.count("*") for r in rows) == elite
    rng = random.Random(5)
    for _ in range(30):
        assert army_problem(random_army(era, lim, rng, presets), lim, era) is None


def test_army_notation_reads_counts_in_several_spellings():
    one = WWI_GAME.parse("army I8 S1 M1 T2 A2 F1 H1")
    assert str(one) == "army I8 S1 M1 T2 A2 F1 H1"
    assert WWI_GAME.parse("army 8i 1s 1m 2t 2a 1f h") == one
    assert WWI_GAME.parse("army H A2 F T2 M S I8") == one
    assert WWI_GAME.parse("army IIIIIIIISMTTAAFH") == one
    assert str(WWI_GAME.parse("ARMY Balanced")) == "army balanced"
    with pytest.raises(InvalidNotation, match="no unit 'Z'"):
        WWI_GAME.parse("army Z3")
    with pytest.raises(InvalidNotation, match="X"):
        WWI_GAME.parse("army X2 I8")  # an anti-tank gun is WWII's
    assert str(WWII_GAME.parse("army X2 I4")) == "army I4 X2"


def designed(game=WWI_GAME, options=None, seed=1, first="army balanced", second="army guns"):
    s = game.new_game(options or {}, seed)
    s.apply(game.parse(first), game.sides[0].name)
    s.apply(game.parse(second), game.sides[1].name)
    return s


def test_the_first_side_deploys_first_the_second_sees_it_then_the_first_moves():
    s = designed()
    assert s.to_act() == {BRITISH}
    with pytest.raises(IllegalAction, match="British deploy now"):
        s.apply(A.Deploy(preset="line"), GERMANS)
    s.apply(A.Deploy(preset="line"), BRITISH)
    assert s.to_act() == {GERMANS} and s.view(GERMANS).state.u_code  # the German player sees the British
    events = s.apply(A.Deploy(preset="wedge"), GERMANS)
    assert s.phase == "play" and s.active == 0 and s.to_act() == {BRITISH}  # (R3)
    assert any(isinstance(e, E.TurnBegins) and e.side == BRITISH and e.turn == 1 for e in events)


def test_a_custom_deployment_in_one_action_rows_from_each_sides_back_row():
    s = designed(second="army I8 M2 A5 H1")
    # 16 units on 24 squares: 8 stay empty (R1).
    s.apply(WWI_GAME.parse("deploy AAH..FS./IIIIIIII/..TT..M."), BRITISH)
    assert (
        code_at(s, "c1") == "H"
        and code_at(s, "a2") == "I"
        and code_at(s, "c3") == "T"
        and code_at(s, "d1") is None
    )
    s.apply(WWI_GAME.parse("deploy aaahaa../iiiiiiii/m......m"), GERMANS)
    # The Germans' back row is rank 8, their second row 7, their front row 6.
    assert code_at(s, "d8") == "h" and code_at(s, "a7") == "i" and code_at(s, "h6") == "m"
    assert len(s.alive(0)) == len(s.alive(1)) == 16


@pytest.mark.parametrize(
    ("rows", "reason"),
    [
        ("AAH..FS./IIIIIIII/..TT..M", "has 7 squares"),
        ("AAH..FS./IIIIIIII/..TT..M..", "has 9 squares"),
        ("AAH..FSS/IIIIIIII/..TT..M.", "places 2"),
        ("AAH..FS./IIIIIII./..TT..M.", "places 7"),
        ("AAH..FS./IIIIIIII/..TT..M./........", "at most 3 rows"),
        ("AAH*..FS./IIIIIIII/..TT..M.", "only allowed with the Elite option"),
    ],
)
def test_a_wrong_deployment_is_refused_with_the_reason(rows: str, reason: str):
    s = designed()
    with pytest.raises(IllegalAction, match=reason):
        s.apply(WWI_GAME.parse(f"deploy {rows}"), BRITISH)
    assert s.to_act() == {BRITISH} and not s.alive(0)


def test_elite_units_are_marked_in_the_deployment_at_most_two():
    s = designed(options={"elite": True})
    with pytest.raises(IllegalAction, match="At most 2 units may be Elite"):
        s.apply(WWI_GAME.parse("deploy AAH*..FS./IIIIIIII/..T*T*..M."), BRITISH)
    s.apply(WWI_GAME.parse("deploy AAH..FS./IIIIIIII/..T*T*..M."), BRITISH)
    elite = sorted(s.g.names[s.u_sq[u]] for u in s.alive(0) if s.elite[u])
    assert elite == ["c3", "d3"]
    # The ready-made layouts mark the two most valuable units.
    s.apply(A.Deploy(preset="line"), GERMANS)
    assert sum(s.elite[u] for u in s.alive(1)) == 2


def test_set_up_actions_are_refused_in_play_and_play_actions_in_set_up():
    s = WWI_GAME.new_game({}, 2)
    with pytest.raises(IllegalAction, match="choose your army"):
        s.apply(WWI_GAME.parse("b2-c4"), BRITISH)
    s = designed()
    with pytest.raises(IllegalAction, match="deploy now"):
        s.apply(WWI_GAME.parse("end"), BRITISH)


def test_wwii_sides_and_first_player():
    s = designed(WWII_GAME, first="army armoured", second="army airborne")
    assert s.to_act() == {AMERICANS}
    s.apply(A.Deploy(preset="flanks"), AMERICANS)
    s.apply(A.Deploy(preset="line"), GERMANS)
    assert s.to_act() == {AMERICANS} and len(s.alive(0)) == 16
