"""The planned levels: they concentrate attacks, guard their Headquarters, move when a move helps,
stay within their budgets and are deterministic per seed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.combinedarms import plan
from engine.combinedarms.game import PLANNED, WWI_GAME, WWII_GAME
from engine.combinedarms.state import ATTACK, MOVE, State
from tests.combinedarms.helpers import AMERICANS, BRITISH, GERMANS, build, code_at

LEVELS = ("easy", "normal", "hard")


def _mid_game(game: object, seed: int) -> State:
    """A position some turns into a game between two `easy` sides."""
    assert game is WWI_GAME or game is WWII_GAME
    s = game.new_game({}, seed)
    n = 0
    while not s.is_over() and s.turn < 5:
        side = min(s.to_act())
        s.apply(game.choose(s.view(side), "easy", n), side)
        n += 1
    while s.step != MOVE or s.pending is not None:
        side = min(s.to_act())
        s.apply(game.choose(s.view(side), "easy", n), side)
        n += 1
    return s


def _turn(s: State, side: str, level: str, seed: int = 1, game: object = WWI_GAME) -> list[str]:
    """Let `level` play `side`'s whole turn (the defender answering retreats as the AI would)."""
    assert game is WWI_GAME or game is WWII_GAME
    played: list[str] = []
    start = s.turn
    n = 0
    while not s.is_over() and s.turn == start:
        who = min(s.to_act())
        action = game.choose(s.view(who), level, seed * 1000 + n)
        if who == side:
            played.append(str(action))
        s.apply(action, who)
        n += 1
    return played


@pytest.mark.parametrize("game", [WWI_GAME, WWII_GAME], ids=["wwi", "wwii"])
@pytest.mark.parametrize("level", LEVELS)
def test_each_level_is_deterministic_for_a_seed(game: object, level: str) -> None:
    assert game is WWI_GAME or game is WWII_GAME
    s = _mid_game(game, 4)
    side = min(s.to_act())
    first = game.choose(s.view(side), level, 7)
    plan._PLANS.clear()  # a fresh process: no plan remembered
    again = game.choose(s.view(side), level, 7)
    assert first == again
    assert str(first) in {str(a) for a in s.legal_actions(side)}


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_an_attack_plan_stays_within_its_budget_of_positions(level: str) -> None:
    s = _mid_game(WWI_GAME, 6)
    side = min(s.to_act())
    s.apply("done", side)
    assert s.step == ATTACK
    cfg = PLANNED["wwi"][level]
    actions, _ = plan.plan_attacks(s, s.active, cfg)
    assert 0 < plan.LAST_POSITIONS <= cfg.positions
    tight = plan.Config(beam=cfg.beam, deep=cfg.deep, positions=5)
    actions, _ = plan.plan_attacks(s, s.active, tight)
    assert plan.LAST_POSITIONS <= 5
    assert str(actions[-1]) == "end" or s.clone().apply(actions[0], side) is not None


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_two_attackers_that_together_force_a_retreat_hit_the_same_target(level: str) -> None:
    """The German Artillery on e7 (defence 2) gives way only to both Infantry beside it; the
    Infantry on c5 (defence 3) cannot be forced by anyone, so hitting it wastes an attack."""
    s = build("wwi", {"d6": "I", "f6": "I", "c5": "i", "e7": "a", "a1": "H", "h8": "h"})
    s.apply("done", BRITISH)
    played = _turn(s, BRITISH, level)
    assert {"d6xe7", "f6xe7"} <= set(played), played
    assert code_at(s, "e7") is None  # it fell back


def test_easy_wastes_no_plan_on_it_but_attacks_too() -> None:
    s = build("wwi", {"d6": "I", "f6": "I", "c5": "i", "e7": "a", "a1": "H", "h8": "h"})
    s.apply("done", BRITISH)
    played = _turn(s, BRITISH, "easy")
    assert any("x" in p for p in played)


RING = {
    "a1": "H", "a2": "F", "b1": "F", "c3": "I", "h3": "T",
    "c2": "e", "d1": "a", "d4": "a", "d2": "k", "f3": "l", "h8": "h",
}  # fmt: skip


def test_wwii_hard_fills_the_square_beside_its_headquarters_an_enemy_engineer_could_use() -> None:
    """Two Howitzers and two tanks in reach, and Engineers (2 damage to a Headquarters) that can step
    into b2, would bring 6 damage to the Headquarters on a1, its defence; the Fortifications on a2
    and b1 cannot move. The Infantry on c3 steps into b2 and the ring is closed."""
    s = build("wwii", RING)
    weights = PLANNED["wwii"]["hard"].weights
    assert plan.hq_risk(s, 0, weights) >= 1.0
    played = _turn(s, AMERICANS, "hard", game=WWII_GAME)
    assert "c3-b2" in played
    assert plan.hq_risk(s, 0, weights) < 1.0  # the Germans cannot destroy it now


def test_without_its_guard_weight_hard_leaves_that_square_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same position with `guard` at 0 (WWI's `hard`) and no veto on a Headquarters left open
    (`ai.hq_veto`, issue 32): nothing else draws the Infantry to b2. With the veto (every level
    now), the ring closes all the same."""
    from engine.combinedarms import ai

    unguarded = replace(PLANNED["wwii"]["hard"], guard=0.0)
    monkeypatch.setattr(WWII_GAME, "planned", {**PLANNED["wwii"], "hard": unguarded})
    veto = ai.hq_veto
    monkeypatch.setattr(ai, "hq_veto", lambda s, side, pick, weights: pick)
    s = build("wwii", RING)
    played = _turn(s, AMERICANS, "hard", game=WWII_GAME)
    assert "c3-b2" not in played
    assert plan.hq_risk(s, 0, unguarded.weights) >= 1.0
    monkeypatch.setattr(ai, "hq_veto", veto)
    s = build("wwii", RING)
    assert "c3-b2" in _turn(s, AMERICANS, "hard", game=WWII_GAME)


@pytest.mark.parametrize("level", LEVELS)
def test_the_wwii_ai_moves_when_a_move_helps(level: str) -> None:
    """Far from the enemy, every unit of the planned levels has somewhere better to be: the move
    phase is never skipped (the AI once played whole turns without a move)."""
    s = build(
        "wwii", {"b1": "H", "c2": "T", "d2": "I", "e2": "A", "f2": "L", "g8": "h", "f7": "i", "e7": "t"}
    )
    played = _turn(s, AMERICANS, level, game=WWII_GAME)
    moves = [p for p in played if "-" in p]
    assert moves, played


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_planned_level_takes_the_headquarters_when_it_can(level: str) -> None:
    s = build("wwi", {"c7": "F", "e7": "F", "d6": "I", "d8": "h", "c8": "i", "e8": "i", "b5": "i", "a1": "H"})
    _turn(s, BRITISH, level)
    assert s.is_over() and s.result is not None and s.result.winner == BRITISH


def test_the_corner_layout_rings_the_headquarters() -> None:
    s = WWI_GAME.new_game({}, 3)
    s.apply("army balanced", BRITISH)
    s.apply("army guns", GERMANS)
    action = WWI_GAME.choose(s.view(BRITISH), "hard", 5)
    s.apply(action, BRITISH)
    hq = s.hq(0)
    assert hq is not None
    sq = s.u_sq[hq]
    assert sq in (s.g.index["a1"], s.g.index["h1"])
    assert bin(s.g.near[sq] & s.occ[0]).count("1") == 3


@pytest.mark.parametrize("game", [WWI_GAME, WWII_GAME], ids=["wwi", "wwii"])
@pytest.mark.parametrize("options", [{"elite": True}, {"campaign": True}], ids=["elite", "campaign"])
def test_the_corner_layout_is_legal_with_elite_units_and_on_the_campaign_board(
    game: object, options: dict[str, bool]
) -> None:
    """Elite units are written with a star after their letter: the corner layout keeps them whole
    (it once split them and sent rows of the wrong length)."""
    assert game is WWI_GAME or game is WWII_GAME
    s = game.new_game(options, 2)
    first, second = (side.name for side in game.sides)
    s.apply("army balanced", first)
    s.apply("army balanced", second)
    for side in (first, second):
        action = game.choose(s.view(side), "hard", 9)
        s.apply(action, side)
    assert s.phase == "play"
    for who in (0, 1):
        hq = s.hq(who)
        assert hq is not None
        assert bin(s.g.near[s.u_sq[hq]] & s.occ[who]).count("1") == 3
    if options.get("elite"):
        assert sum(s.elite) == 4
