"""Every card of the card list: reach, who may play it, who may use it, and what it does (R6-R12, R17)."""

from __future__ import annotations

import pytest

from engine.fixbayonets.cards import CARD_TYPES, COPIES, FULL_DECK, card
from engine.fixbayonets.events import Killed, Moved, Negated
from engine.fixbayonets.state import FIGHTING

from .helpers import A, G, legal, men, of, play, pos, refused


def targets(state, kind_sq: str, code: str) -> set[str]:
    """The squares the man `kind_sq` (like 'Rd4') may attack with `code` now."""
    prefix = f"{code} {kind_sq}x"
    return {a[len(prefix) :] for a in legal(state) if a.startswith(prefix)}


def moves(state, kind_sq: str, code: str) -> set[str]:
    prefix = f"{code} {kind_sq}-"
    return {a[len(prefix) :] for a in legal(state) if a.startswith(prefix)}


def reach(kind: str, code: str) -> set[str]:
    """Every square a German `kind` on d4 may attack with `code`, probing one enemy square at a time."""
    out = set()
    for sq in range(64):
        name = "abcdefgh"[sq % 8] + str(sq // 8 + 1)
        if name == "d4":
            continue
        state = pos({"d4": "GOO" + kind, name: "AOO"}, g=[code], phase=FIGHTING)
        if name in targets(state, f"{kind}d4", code):
            out.add(name)
    return out


def test_the_deck_is_sixty_cards_three_of_each_of_twenty() -> None:
    assert len(CARD_TYPES) == 20 and COPIES == 3 and len(FULL_DECK) == 60
    for c in CARD_TYPES:
        assert FULL_DECK.count(c) == 3
    kinds = [c.kind for c in CARD_TYPES]
    assert kinds.count("A") == 8 and kinds.count("M") == 8 and kinds.count("T") == 4


@pytest.mark.parametrize(
    ("code", "kind", "expected"),
    [
        ("bayonet", "R", {"c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"}),
        (
            "pistol",
            "R",
            {"c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5", "b2", "b4", "b6", "d2", "d6", "f2", "f4", "f6"},
        ),
        ("rifle3", "R", {"a1", "a4", "a7", "d1", "d7", "g1", "g4", "g7"}),
        ("rifle4", "R", {"d8", "h4", "h8"}),
        ("sniper", "S", set()),  # five or six squares away from d4 is off the board
        (
            "flamer",
            "H",
            {"b2", "b4", "b6", "d2", "d6", "f2", "f4", "f6", "a1", "a4", "a7", "d1", "d7", "g1", "g4", "g7"},
        ),
        ("grenade", "R", {"b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"}),
    ],
)
def test_attack_reach_is_exact_or_a_range_along_straight_lines(
    code: str, kind: str, expected: set[str]
) -> None:
    """(R7) a single number is exact, a range any distance in it; lines are orthogonal or diagonal."""
    assert reach(kind, code) == expected


def test_rifle3_cannot_hit_off_line_or_at_other_distances() -> None:
    state = pos({"d4": "GR", "e6": "AR", "d6": "AR", "d7": "AR", "d8": "AR"}, g=["rifle3"], phase=FIGHTING)
    assert targets(state, "Rd4", "rifle3") == {"d7"}
    assert "out of its reach" in refused(state, "rifle3 Rd4xe6")
    assert "out of its reach" in refused(state, "rifle3 Rd4xd6")


def test_a_card_not_held_or_a_square_without_an_enemy_is_refused_with_the_reason() -> None:
    """Caught no break before (rules10): no test read these two refusals' words."""
    s = pos({"d4": "GR", "d6": "AR"}, g=["pistol", "crawl"], phase=FIGHTING)
    assert refused(s, "pistol Rd4xd5") == "There is no enemy on d5 to attack."
    s = pos({"d4": "GR", "d6": "AR"}, g=["crawl"])
    assert refused(s, "march Rd4-d2") == "You hold no March card."


def test_men_in_between_do_not_block_attacks() -> None:
    """(R9) a shot passes over friend and foe alike."""
    state = pos({"d1": "GR", "d2": "GR", "d3": "AR", "d4": "AS"}, g=["rifle3"], phase=FIGHTING)
    play(state, "rifle3 Rd1xd4")
    assert men(state).get("d4") is None


def test_a_killed_man_is_removed_at_once() -> None:
    state = pos({"d4": "GR", "d5": "AH"}, g=["bayonet"], phase=FIGHTING)
    events = play(state, "bayonet Rd4xd5")
    (k,) = of(events, Killed)
    assert (k.side, k.square, k.kinds) == (A, "d5", "H")
    assert "d5" not in men(state)
    assert not state.alive[16 + 2] or not state.alive[16 + 3]


def test_officers_only_use_the_pistol_and_anyone_ordinary_may_use_it() -> None:
    """(R10) officers: the Pistol and nothing else; the Pistol is not the officers' alone."""
    state = pos({"d4": "GOR", "d5": "AR", "d6": "AR"}, g=["pistol", "bayonet", "grenade"], phase=FIGHTING)
    assert targets(state, "Od4", "pistol") == {"d5", "d6"}
    assert targets(state, "Rd4", "pistol") == {"d5", "d6"}
    assert targets(state, "Od4", "bayonet") == set()
    assert "cannot be used by an officer" in refused(state, "bayonet Od4xd5")


def test_heavy_weapons_use_only_their_own_weapon_and_nobody_else_uses_it() -> None:
    state = pos({"d4": "GHR", "d6": "AR", "d5": "AR"}, g=["flamer", "bayonet", "pistol"], phase=FIGHTING)
    assert targets(state, "Hd4", "flamer") == {"d6"}
    assert targets(state, "Rd4", "flamer") == set()
    assert "cannot be used by a rifleman" in refused(state, "flamer Rd4xd6")
    assert targets(state, "Hd4", "bayonet") == set() and targets(state, "Hd4", "pistol") == set()
    assert "cannot be used by a specialist" in refused(state, "pistol Hd4xd5")


def test_flame_thrower_is_german_and_burns_the_whole_stack() -> None:
    state = pos({"d4": "GH", "d6": "AORR"}, g=["flamer"], phase=FIGHTING)
    events = play(state, "flamer Hd4xd6")
    (k,) = of(events, Killed)
    assert k.whole and k.kinds == "ORR"
    assert "d6" not in men(state)
    american = pos({"d4": "AH", "d6": "GR"}, a=["flamer"], phase=FIGHTING, active=A)
    assert "for the Germans only" in refused(american, "flamer Hd4xd6")


def test_machine_gun_is_american_range_4_to_5_and_kills_the_stack() -> None:
    state = pos({"d1": "AH", "d5": "GRR", "d6": "GSU", "d4": "GR"}, a=["mg"], phase=FIGHTING, active=A)
    assert targets(state, "Hd1", "mg") == {"d5", "d6"}
    events = play(state, "mg Hd1xd6")
    assert of(events, Killed)[0].kinds == "SU" and "d6" not in men(state)
    german = pos({"d8": "GH", "d4": "AR"}, g=["mg"], phase=FIGHTING)
    assert "for the Americans only" in refused(german, "mg Hd8xd4")


def test_only_snipers_use_the_sniper_card_at_five_or_six() -> None:
    state = pos({"d1": "ASR", "d6": "GR", "d7": "GR", "d5": "GR"}, a=["sniper"], phase=FIGHTING, active=A)
    assert targets(state, "Sd1", "sniper") == {"d6", "d7"}
    assert targets(state, "Rd1", "sniper") == set()
    assert "only snipers may use it" in refused(state, "sniper Rd1xd6")


def test_the_sniper_card_stops_at_six_and_the_sniper_and_runner_carry_ordinary_weapons() -> None:
    """Caught before only by random games against a second reading (rules10): the Sniper card
    reaching 7, and the sniper or the runner without the ordinary weapons (R10)."""
    state = pos(
        {"d1": "ASU", "d6": "GR", "d8": "GR", "d2": "GR"}, a=["sniper", "bayonet"], phase=FIGHTING, active=A
    )
    assert targets(state, "Sd1", "sniper") == {"d6"}  # d8 is seven squares away
    assert targets(state, "Sd1", "bayonet") == {"d2"} == targets(state, "Ud1", "bayonet")


def test_an_attack_never_targets_a_square_of_one_s_own_side() -> None:
    """Caught before only by random games against a second reading (rules10)."""
    state = pos({"d4": "GR", "d5": "GR", "d6": "AR"}, g=["pistol"], phase=FIGHTING)
    assert targets(state, "Rd4", "pistol") == {"d6"}
    assert refused(state, "pistol Rd4xd5") == "There is no enemy on d5 to attack."


def test_grenade_jumps_like_a_knight_and_kills_the_whole_stack() -> None:
    state = pos({"d4": "GR", "e6": "AOR", "d5": "AR"}, g=["grenade"], phase=FIGHTING)
    assert targets(state, "Rd4", "grenade") == {"e6"}
    events = play(state, "grenade Rd4xe6")
    assert of(events, Killed)[0].kinds == "OR" and of(events, Killed)[0].whole


@pytest.mark.parametrize(
    ("code", "n"), [("crawl", 1), ("march", 2), ("double", 3), ("run", 4), ("charge", 5)]
)
def test_move_cards_move_exactly_their_number_in_a_straight_line(code: str, n: int) -> None:
    """(R6) exact, in any of the eight directions, never off the board."""
    state = pos({"c3": "GR"}, g=[code])
    expected = set()
    for df, dr in ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)):
        f, r = 2 + df * n, 2 + dr * n
        if 0 <= f < 8 and 0 <= r < 8:
            expected.add("abcdefgh"[f] + str(r + 1))
    assert moves(state, "Rc3", code) == expected and expected
    dst = sorted(expected)[-1]
    events = play(state, f"{code} Rc3-{dst}")
    assert of(events, Moved)[0].moves == (("R", "c3", dst),)
    assert men(state)[dst] == "GR" and "c3" not in men(state)


def test_a_shorter_move_than_the_number_is_refused() -> None:
    state = pos({"d4": "GR"}, g=["run"])
    assert "exactly 4 squares" in refused(state, "run Rd4-d6")


def test_zigzag_jumps_like_a_knight_over_enemies_onto_any_square_without_them() -> None:
    """(R8) the jump ignores what it passes; only the landing square must hold no enemy."""
    state = pos({"d4": "GR", "d5": "AR", "e5": "AR", "e6": "AR", "c6": "GR"}, g=["zigzag"])
    assert moves(state, "Rd4", "zigzag") == {"b3", "b5", "c2", "c6", "e2", "f3", "f5"}
    play(state, "zigzag Rd4-c6")
    assert men(state)["c6"] == "GRR"
    assert "knight" in refused(pos({"d4": "GR"}, g=["zigzag"]), "zigzag Rd4-d6")


def test_advance_is_german_and_counter_attack_american() -> None:
    g = pos({"d7": "GR"}, g=["advance", "counter"])
    assert moves(g, "Rd7", "advance") and not moves(g, "Rd7", "counter")
    assert "for the Americans only" in refused(g, "counter Rd7-d4")
    play(g, "advance Rd7-d5")
    a = pos({"d2": "AR"}, a=["advance", "counter"], active=A)
    assert moves(a, "Rd2", "counter") and not moves(a, "Rd2", "advance")
    assert "for the Germans only" in refused(a, "advance Rd2-d4")
    play(a, "counter Rd2-d5")
    assert men(a)["d5"] == "AR"


@pytest.mark.parametrize(
    ("mover", "played", "answer", "works"),
    [
        (G, "rifle3 Rd4xd7", "trees", True),
        (G, "rifle3 Rd4xd7", "foxholes", True),
        (A, "rifle3 Rd7xd4", "trees", True),
        (A, "rifle3 Rd7xd4", "foxholes", False),  # Fox Holes is American
        (G, "march Rd4-d6", "rough", True),
        (A, "march Rd7-d5", "rough", True),
        (A, "march Rd7-d5", "hold", True),
        (G, "march Rd4-d6", "hold", False),  # Hold Ground is German
        (G, "rifle3 Rd4xd7", "rough", False),  # a move-canceller cannot stop an attack
        (G, "march Rd4-d6", "trees", False),  # and the other way round
    ],
)
def test_terrain_cards_cancel_the_right_cards_for_the_right_side(
    mover: str, played: str, answer: str, works: bool
) -> None:
    phase = FIGHTING if "x" in played else "move"
    code = played.split()[0]
    if mover == G:
        state = pos({"d4": "GR", "d7": "AR"}, g=[code], a=[answer], phase=phase, active=G)
    else:
        state = pos({"d7": "AR", "d4": "GR"}, a=[code], g=[answer], phase=phase, active=A)
    before = men(state)
    play(state, played)
    other = A if mover == G else G
    assert state.to_act() == {other}
    if works:
        events = play(state, f"negate {answer}")
        assert of(events, Negated)[0].card == answer
        assert men(state) == before
        assert card(answer) not in state.hands[other] and card(answer) in state.deck.discard
    else:
        assert f"negate {answer}" not in legal(state)
        refused(state, f"negate {answer}")
