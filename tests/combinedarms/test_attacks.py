"""The attack phase: range, firing over units, damage and the special damage rules (R7-R9, R15, R16)."""

from __future__ import annotations

import pytest

from engine.errors import IllegalAction
from tests.combinedarms.helpers import BRITISH, E, at, build, legal, play


def attack_phase(pieces: dict[str, str], era: str = "wwi", **kw: object):
    s = build(era, pieces, **kw)  # type: ignore[arg-type]
    play(s, s.sides[s.active], "done")
    return s


def test_range_is_king_distance_and_ranged_units_fire_over_anything():
    # Artillery (range 4) on d1 reaches d5 and h5 over a wall of units; not d6.
    s = attack_phase(
        {
            "d1": "A",
            "c2": "I",
            "d2": "I",
            "e2": "I",
            "d3": "i",
            "d5": "i",
            "h5": "i",
            "d6": "i",
            "a1": "H",
            "h8": "h",
        }
    )
    shots = {a for a in legal(s, BRITISH) if a.startswith("d1x")}
    assert shots == {"d1xd3", "d1xd5", "d1xh5"}
    # Infantry (range 1) hits only its neighbours, diagonals included.
    s = attack_phase({"d4": "I", "e5": "i", "d6": "i", "a1": "H", "h8": "h"})
    assert {a for a in legal(s, BRITISH) if a.startswith("d4x")} == {"d4xe5"}


def test_each_unit_attacks_once_one_target():
    s = attack_phase({"d4": "I", "e5": "i", "c5": "i", "a1": "H", "h8": "h"})
    play(s, BRITISH, "d4xe5")
    with pytest.raises(IllegalAction, match="already attacked"):
        play(s, BRITISH, "d4xc5")
    assert "d4xc5" not in legal(s, BRITISH)


def test_an_attack_does_one_damage_that_adds_up_during_the_turn():
    s = attack_phase({"d4": "I", "e4": "I", "d5": "i", "a1": "H", "h8": "h"})
    events = play(s, BRITISH, "d4xd5")
    hit = next(e for e in events if isinstance(e, E.Hit))
    assert (hit.damage, hit.total, hit.defense) == (1, 1, 3)
    play(s, BRITISH, "e4xd5")
    assert s.u_dmg[at(s, "d5")] == 2


def test_damage_clears_when_the_turn_ends():
    s = attack_phase({"d4": "I", "d5": "i", "a1": "H", "h8": "h"})
    play(s, BRITISH, "d4xd5")
    target = at(s, "d5")
    assert s.u_dmg[target] == 1
    play(s, BRITISH, "end")
    assert s.u_dmg[target] == 0  # (R9)


@pytest.mark.parametrize(
    ("attacker", "target", "damage"),
    [
        ("M", "i", 2),  # Machine Guns do 2 to Infantry...
        ("M", "f", 2),  # ...and to Flame Throwers,
        ("M", "r", 1),  # but not to Trench Raiders (R15),
        ("M", "s", 1),  # nor Snipers,
        ("F", "a", 2),  # Flame Throwers always do 2,
        ("T", "m", 2),  # Tanks do 2 to Machine Guns,
        ("T", "i", 1),  # and 1 to anything else.
        ("I", "m", 1),
    ],
)
def test_special_damage_in_wwi(attacker: str, target: str, damage: int):
    s = attack_phase({"d4": attacker, "d5": target, "a1": "H", "h8": "h"})
    hit = next(e for e in play(s, BRITISH, "d4xd5") if isinstance(e, E.Hit))
    assert hit.damage == damage


@pytest.mark.parametrize(
    ("attacker", "target", "damage"),
    [
        ("E", "f", 2),  # Engineers do 2 to Fortifications
        ("E", "h", 2),  # and to the Headquarters,
        ("E", "i", 1),
        ("X", "l", 2),  # Anti-Tank Guns do 2 to every tank type,
        ("X", "t", 2),
        ("X", "k", 2),
        ("X", "m", 1),  # not to mechanized infantry.
        ("K", "i", 1),
    ],
)
def test_special_damage_in_wwii(attacker: str, target: str, damage: int):
    s = attack_phase(
        {"d4": attacker, "d5": target, "a1": "H", "h8": "h"}
        if target != "h"
        else {"d4": attacker, "d5": "h", "a1": "H"},
        era="wwii",
    )
    hit = next(e for e in play(s, "americans", "d4xd5") if isinstance(e, E.Hit))
    assert hit.damage == damage


def test_an_elite_unit_does_two_and_that_never_adds_to_a_special_rule():
    # Elite Infantry: 2 (R16).
    s = attack_phase({"d4": "I*", "d5": "i", "a1": "H", "h8": "h"})
    assert next(e for e in play(s, BRITISH, "d4xd5") if isinstance(e, E.Hit)).damage == 2
    # Elite Machine Gun against Infantry: still 2, not 3 or 4.
    s = attack_phase({"d4": "M*", "d5": "i", "a1": "H", "h8": "h"})
    assert next(e for e in play(s, BRITISH, "d4xd5") if isinstance(e, E.Hit)).damage == 2
    # An Elite target has +1 defence.
    s = attack_phase({"d4": "I", "d5": "i*", "a1": "H", "h8": "h"})
    assert next(e for e in play(s, BRITISH, "d4xd5") if isinstance(e, E.Hit)).defense == 4


def test_attacks_resolve_one_at_a_time_a_retreat_can_take_the_target_out_of_reach():
    # Two Flame Throwers (2 damage each) and an Infantry unit against German Infantry on d5.
    s = attack_phase({"c4": "F", "e4": "F", "d3": "I", "d5": "i", "a1": "H", "h8": "h"})
    play(s, BRITISH, "c4xd5")
    events = play(s, BRITISH, "e4xd5")  # 4 damage >= 3: it must retreat; back is d6/c6/e6
    owed = next(e for e in events if isinstance(e, E.RetreatOwed))
    assert owed.options == ("d6", "e6", "c6")  # c5 and e5 touch the Flame Throwers
    play(s, "germans", "retreat d6")
    assert at(s, "d6") != -1
    # The Infantry unit on d3, which could have hit d5, has nothing left in range.
    assert not any(a.startswith("d3x") for a in legal(s, BRITISH))


def test_overshooting_damage_forces_one_retreat_and_is_lost():
    # 1 damage, then a Flame Thrower's 2 on a Defence-3 unit: one retreat, counting from 0 after it.
    s = attack_phase({"c4": "I", "e4": "F", "d5": "i", "a1": "H", "h8": "h"})
    play(s, BRITISH, "c4xd5", "e4xd5")
    assert s.pending is not None
    play(s, "germans", "retreat d6")
    uid = at(s, "d6")
    assert uid != -1 and s.u_dmg[uid] == 0 and uid in s.retreated


def test_attacking_a_friend_or_an_empty_square_is_refused():
    s = attack_phase({"d4": "I", "d5": "I", "a1": "H", "h8": "h"})
    with pytest.raises(IllegalAction, match="no enemy unit on d5"):
        play(s, BRITISH, "d4xd5")
    with pytest.raises(IllegalAction, match="no enemy unit on e5"):
        play(s, BRITISH, "d4xe5")


def test_out_of_range_is_refused_with_the_distance():
    s = attack_phase({"d4": "I", "d6": "i", "a1": "H", "h8": "h"})
    with pytest.raises(IllegalAction, match="range 1; d6 is 2 squares away"):
        play(s, BRITISH, "d4xd6")
