"""The AI's judgement: it takes a won Headquarters, finishes what it starts, and keeps to the view."""

from __future__ import annotations

import random

from engine.combinedarms import ai
from engine.combinedarms.game import WWI_GAME, WWII_GAME
from tests.combinedarms.helpers import AMERICANS, BRITISH, GERMANS, at, build, play


def test_evaluate_is_bounded_and_likes_material_and_threats_on_the_hq():
    s = build("wwi", {"d4": "T", "e4": "A", "d5": "i", "a1": "H", "h8": "h"})
    v = ai.evaluate(s, BRITISH)
    assert -1.0 < v < 1.0 and v > 0  # more material
    assert abs(ai.evaluate(s, GERMANS) + v) < 1e-9
    near = build("wwi", {"g6": "T", "h6": "T", "a1": "H", "h8": "h"})
    far = build("wwi", {"a3": "T", "b3": "T", "a1": "H", "h8": "h"})
    assert ai.evaluate(near, BRITISH) > ai.evaluate(far, BRITISH)


def test_the_order_puts_the_killing_attack_first():
    s = build("wwi", {"c7": "F", "e7": "F", "d6": "I", "d8": "h", "c8": "i", "e8": "i", "b5": "i", "a1": "H"})
    play(s, BRITISH, "done", "c7xd8")
    ranked = ai.order(s, BRITISH, s.legal_actions(BRITISH), random.Random(0))
    assert str(ranked[0]) == "e7xd8"  # the second Flame Thrower destroys the trapped HQ


def test_the_order_knows_the_wwi_headquarters_falls_even_with_room_behind_it():
    """R14: a forced retreat destroys the Headquarters wherever it stands, so the attack that brings
    it to its defence outranks one that destroys an Infantry caught with nowhere to go."""
    s = build(
        "wwi",
        {"d5": "F", "e5": "F", "d6": "h", "b4": "F", "b5": "i", "a6": "i", "b6": "i", "c6": "i", "a1": "H"},
    )
    play(s, BRITISH, "done", "d5xd6")
    s.u_dmg[at(s, "b5")] = 1
    assert s.retreat_squares(at(s, "d6")) and not s.retreat_squares(at(s, "b5"))
    hq, infantry = (next(a for a in s.legal_actions(BRITISH) if str(a) == x) for x in ("e5xd6", "b4xb5"))
    assert ai.score(s, 0, hq) > ai.score(s, 0, infantry)
    assert str(ai.order(s, BRITISH, s.legal_actions(BRITISH), random.Random(0))[0]) == "e5xd6"


def test_the_search_takes_the_headquarters_when_it_can():
    s = build("wwi", {"c7": "F", "e7": "F", "d6": "I", "d8": "h", "c8": "i", "e8": "i", "b5": "i", "a1": "H"})
    play(s, BRITISH, "done", "c7xd8")
    action = WWI_GAME.choose(s.view(BRITISH), "normal", seed=1, budget_s=5.0, iterations=60)
    assert str(action) == "e7xd8"


def test_retreats_go_where_fewer_enemies_can_reach():
    s = build("wwi", {"d1": "A", "b4": "A", "a4": "A", "d5": "i", "h1": "H", "h8": "h"})
    s.u_dmg[at(s, "d5")] = 2
    play(s, BRITISH, "done", "d1xd5")
    options = s.legal_actions(GERMANS)
    best = ai.order(s, GERMANS, options, random.Random(0))[0]
    # b4 and a4 (range 4, not yet fired) reach every option but e-files less: e6 and e5 are the
    # farthest from them; the order prefers a square fewer unspent guns can hit.
    scores = {str(a): ai.score(s, 1, a) for a in options}
    assert scores[str(best)] == max(scores.values())


def test_the_ai_never_sees_a_secret_army():
    s = WWII_GAME.new_game({}, 3)
    s.apply(WWII_GAME.parse("army fortress"), GERMANS)
    view = s.view(AMERICANS)
    assert view.state.armies[1] is None
    a = WWII_GAME.choose(view, "normal", seed=2, budget_s=5.0, iterations=20)
    assert str(a).startswith("army ")
    b = WWII_GAME.choose(s.view(AMERICANS), "normal", seed=2, budget_s=5.0, iterations=20)
    assert a == b  # deterministic per seed


def test_rollouts_play_a_whole_game_quickly_to_an_end():
    s = WWI_GAME.new_game({}, 9)
    rng = random.Random(9)
    n = 0
    while not s.is_over() and n < 3000:
        side = min(s.to_act())
        s.apply(ai.rollout(s, side, rng), side)
        n += 1
    assert s.is_over()


def test_with_city_spaces_it_values_the_cities_and_takes_the_last_one():
    """Holding every city wins (W6): the evaluation counts cities, so the search walks onto the
    last one instead of ignoring it."""
    # The last city, h4, lies away from the enemy: nothing but the city draws a unit there.
    cities = ["b4", "d5", "e4", "h4"]
    three = {"b4": "I", "d5": "I", "e4": "I", "h3": "I", "a1": "H", "a8": "h", "b8": "i"}
    four = {**{k: v for k, v in three.items() if k != "h3"}, "h4": "I"}
    held = build("wwii", four, options={"cities": True}, cities=cities)
    short = build("wwii", three, options={"cities": True}, cities=cities)
    assert ai.evaluate(held, AMERICANS) > ai.evaluate(short, AMERICANS) + 0.2
    action = WWII_GAME.choose(short.view(AMERICANS), "normal", seed=3, budget_s=5.0, iterations=120)
    assert str(action) == "h3-h4"
