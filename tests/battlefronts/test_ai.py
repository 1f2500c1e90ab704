"""Battlefronts' AI levels: each deterministic for a seed, each within its iteration budget."""

from __future__ import annotations

from typing import Any

import pytest

from engine import search
from engine.battlefronts.state import ATTRITION, MOVE
from engine.search import Settings
from tests.ai_levels import check_level, positions

from .helpers import GAME


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_level_is_deterministic_for_a_seed_and_keeps_to_its_iterations(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    check_level(GAME, level, positions(GAME, (3, 4), (8, 20)), monkeypatch)


def _leaf_phases(to_turn_end: bool) -> list[bool]:
    """For each leaf a small search judges: whether it is at the start of a round (no battalion
    moved yet this round, nothing but attrition or the move phase begun)."""
    at_start: list[bool] = []

    def evaluate(state: Any, side: str) -> float:
        fresh = state.phase in (ATTRITION, MOVE) and not any(b.moved for b in state.battalions)
        at_start.append(fresh)
        return GAME.evaluate(state, side)

    settings = Settings(iterations=60, budget_s=60.0, rollout_depth=30, to_turn_end=to_turn_end)
    for i, state in enumerate(positions(GAME, (3, 4), (8, 20))):
        side = min(state.to_act())
        search.choose(
            state.view(side), evaluate, seed=i, settings=settings, rollout=GAME.rollout, order=GAME.order
        )
    return at_start


def test_playouts_to_the_turn_end_judge_every_leaf_at_the_start_of_a_round() -> None:
    """Hard's playouts run on to the round's end, so no leaf is judged halfway through one side's
    moves or call-ups; fixed-length playouts (normal's) stop anywhere in a round."""
    ended = _leaf_phases(True)
    fixed = _leaf_phases(False)
    assert len(ended) > 100 and len(fixed) > 100
    assert sum(ended) >= 0.95 * len(ended), (sum(ended), len(ended))
    assert sum(fixed) <= 0.5 * len(fixed), (sum(fixed), len(fixed))


def test_the_level_descriptions_say_what_the_searches_do() -> None:
    """The challenge's level choices name each search's playouts, and only hard's run to the round's end."""
    for level in ("normal", "hard"):
        settings = GAME.search_levels[level]
        said = GAME.ai.descriptions[level]
        assert f"{settings.iterations} playouts" in said, (level, said)
        assert ("round's end" in said) == settings.to_turn_end, (level, said)
    assert GAME.search_levels["hard"].to_turn_end and not GAME.search_levels["normal"].to_turn_end


def _round_start(red_at_f4: list[str], blue_t4: list[str]) -> float:
    """Red's evaluation at the start of round 4 (attrition still to run), the Blues holding F1 and
    F5 alone, Red F2 and F3 alone and F4 with `red_at_f4`; `blue_t4` waits in T4, a step from F4."""
    from engine.battlefronts.position import build
    from engine.battlefronts.state import ATTRITION

    places: dict[str, dict[str, list[str]]] = {
        "F1": {"blue": ["B1:9C 8C 7C"]},
        "F5": {"blue": ["B2:9D 8D 7D"]},
        "F2": {"red": ["R1:TH 9H 8H"]},
        "F3": {"red": ["R3:TD 9D 8D"]},
        "F4": {"red": red_at_f4},
    }
    if blue_t4:
        places["T4"] = {"blue": blue_t4}
    return GAME.evaluate(build(places, round=4, phase=ATTRITION), "red")


def test_a_front_within_the_enemy_s_reach_is_valued_as_the_risk_it_is() -> None:
    """Issue 32: a one-card battalion holding the third front, with an enemy battalion a step
    away while the enemy holds two fronts alone, is a game about to be lost; the same front held by
    a deep battalion, or with no enemy in reach, is not."""
    thin_in_reach = _round_start(["R6:2C"], ["B5:?7S 6S 5S"])
    thin_out_of_reach = _round_start(["R6:2C"], [])
    deep_in_reach = _round_start(["R6:KH 7H 6H 5H 4H"], ["B5:?7S 6S 5S"])
    assert thin_in_reach < deep_in_reach - 0.2, (thin_in_reach, deep_in_reach)
    assert thin_in_reach < thin_out_of_reach - 0.2, (thin_in_reach, thin_out_of_reach)


def test_a_face_card_s_jump_counts_in_the_reach() -> None:
    """A Queen-led battalion may jump to any front: far from F4 it threatens the one-card battalion
    there as a battalion a step away would; a plain one that far does not."""
    queen = _round_start(["R6:2C"], []) - _round_start_with("F1", "B5:QS 6S 5S")
    plain = _round_start(["R6:2C"], []) - _round_start_with("F1", "B5:7S 6S 5S")
    assert queen > plain + 0.1, (queen, plain)


def _round_start_with(place: str, blue: str) -> float:
    from engine.battlefronts.position import build
    from engine.battlefronts.state import ATTRITION

    places: dict[str, dict[str, list[str]]] = {
        "F1": {"blue": ["B1:9C 8C 7C", blue] if place == "F1" else ["B1:9C 8C 7C"]},
        "F5": {"blue": ["B2:9D 8D 7D"]},
        "F2": {"red": ["R1:TH 9H 8H"]},
        "F3": {"red": ["R3:TD 9D 8D"]},
        "F4": {"red": ["R6:2C"]},
    }
    return GAME.evaluate(build(places, round=4, phase=ATTRITION), "red")


def test_easy_judges_its_turn_blind_to_next_round_s_threats(monkeypatch: pytest.MonkeyPatch) -> None:
    """The threat term made easy stronger than normal could bear (normal beat it 55 % of 40): easy
    judges the end of its turn by what holds then (`ai.evaluate_now`), the other levels by all of
    `evaluate`."""
    from engine.battlefronts import ai
    from engine.battlefronts.position import build

    thin, far = _round_start(["R6:2C"], ["B5:?7S 6S 5S"]), _round_start(["R6:2C"], [])
    places = {"F1": {"blue": ["B1:9C 8C 7C"]}, "F5": {"blue": ["B2:9D 8D 7D"]}, "F4": {"red": ["R6:2C"]}}
    blind = [
        ai.evaluate_now(build(places | extra, round=4, phase=ATTRITION), "red")
        for extra in (
            {"T4": {"blue": ["B5:?7S 6S 5S"]}},
            {},
        )
    ]
    assert thin < far - 0.2 and abs(blind[0] - blind[1]) < 0.1, (thin, far, blind)
    judged: list[str] = []
    real = ai.evaluate_now

    def counted(state: Any, side: str) -> float:
        judged.append(side)
        return real(state, side)

    monkeypatch.setattr(ai, "evaluate_now", counted)
    (position,) = positions(GAME, (5,), (10,))
    side = min(position.to_act())
    GAME.choose(position.view(side), "normal", 1)
    assert not judged and GAME.judge_of("normal") is None
    GAME.choose(position.view(side), "easy", 1)
    assert judged and set(judged) == {side}


def test_correspondence_solves_the_issue_s_two_games() -> None:
    """Issue 32's two lost games, played again at the correspondence level (one deal each: about
    ten seconds of CPU; bench/puzzles.py plays every puzzle in four)."""
    from engine.base import CORRESPONDENCE
    from tests.ai_puzzles import kit

    examples = [p for p in kit.load("battlefronts") if p.build is not None]
    assert len(examples) == 2
    missed = [p for p in examples if not kit.solved(p, CORRESPONDENCE, 1)]
    assert not missed, kit.describe(missed)


def test_correspondence_is_deterministic_for_a_seed_and_keeps_to_its_iterations(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine.base import CORRESPONDENCE

    check_level(GAME, CORRESPONDENCE, positions(GAME, (3,), (8, 20)), monkeypatch)


def test_correspondence_judges_each_leaf_after_the_next_round() -> None:
    """Correspondence's leaves are judged one round later than hard's: the round after the
    playout's own is played out, both sides' moves and the battle included, and the position the
    search handed over is left as it was."""
    from engine.battlefronts.correspondence import judge_later
    from engine.battlefronts.state import new_game

    state = new_game(7)
    for n in range(100):  # into the game, as easy plays both sides, to the start of a round's moves
        side = min(state.to_act())
        state.apply(GAME.choose(state.view(side), "easy", n), side)
        if state.round >= 4 and state.phase == MOVE and not any(b.moved for b in state.battalions):
            break
    assert state.round >= 4 and not state.is_over()
    before = state.to_json()
    judged: list[tuple[int, bool]] = []  # the round judged, and whether anything moved in it yet

    def evaluate(s: Any, side: str) -> float:
        if not s.is_over():  # a game won in the round played out is judged as won or lost
            judged.append((s.round, any(b.moved for b in s.battalions)))
        return GAME.evaluate(s, side)

    for seed in range(8):
        judge_later(seed, 1, evaluate)(state, "red")
    assert state.to_json() == before
    assert len(judged) >= 4
    assert all(r == state.round + 1 and not moved for r, moved in judged), judged


def test_correspondence_is_shown_with_its_measured_rating() -> None:
    """Correspondence is offered above hard, at the rating its match against hard measured, uncut
    on a phone."""
    from engine.base import CORRESPONDENCE
    from play.ratings import about, level_choice, level_rating

    rating, hard = level_rating(GAME, CORRESPONDENCE), level_rating(GAME, "hard")
    assert rating is not None and hard is not None
    choice = level_choice(GAME, CORRESPONDENCE)
    assert choice.startswith(f"correspondence, about {about(rating)}: hard's search")
    assert not choice.endswith("…")
