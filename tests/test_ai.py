"""The AI opponent: legal, answers every decision, keeps to its budget, is deterministic, never peeks."""

from __future__ import annotations

import random

import pytest

from engine import search
from engine.blockwars import Options, State, ai, new_game
from engine.blockwars.actions import Action
from engine.blockwars.ai import (
    EASY,
    HARD,
    HARD_WEIGHTS,
    LEVELS,
    NORMAL,
    PLAIN,
    RANDOM,
    SEARCH,
    TUNED,
    choose,
    evaluate,
    fight_odds,
    level_weights,
    reply_value,
    search_config,
    threat,
)
from engine.blockwars.model import Side
from engine.blockwars.position import build

OPTS = Options(crosses=True, fighter_aces=True)
DECISIONS = ("barrage", "ace", "fly", "dogfight", "strafe", "cross")
SMALL = {RANDOM: None, EASY: None, NORMAL: 8, HARD: 12}


def _random_walk(seed: int, steps: int) -> list[State]:
    """Positions along one seeded random game (including set-up and decisions)."""
    rng = random.Random(seed)
    s = new_game(OPTS, seed)
    out = []
    for _ in range(steps):
        if s.is_over():
            break
        out.append(s.clone())
        s.apply(rng.choice(s.legal_actions()))
    return out


def _pending_examples() -> dict[str, State]:
    """The first position of each pending-decision kind met in seeded random games."""
    found: dict[str, State] = {}
    for seed in range(40):
        rng = random.Random(seed)
        s = new_game(OPTS, seed)
        while not s.is_over() and len(found) < len(DECISIONS):
            if s.pending is not None and s.pending.kind not in found:
                found[s.pending.kind] = s.clone()
            s.apply(rng.choice(s.legal_actions()))
        if len(found) == len(DECISIONS):
            break
    return found


PENDING = _pending_examples()


def _pick(s: State, level: str, seed: int = 0) -> Action:
    side = s.current_player()
    assert side is not None
    return choose(s.view(side), level, seed, budget_s=30.0, iterations=SMALL[level])


@pytest.mark.parametrize("level", LEVELS)
def test_only_legal_actions(level: str) -> None:
    positions = [p for seed in (1, 2) for p in _random_walk(seed, 400)[::20]]
    assert len(positions) >= 30
    for i, s in enumerate(positions):
        a = _pick(s, level, i)
        assert a in s.legal_actions(), (level, str(a))
        s.apply(a)  # and the engine accepts it


def test_every_decision_kind_occurs() -> None:
    assert sorted(PENDING) == sorted(DECISIONS)


@pytest.mark.parametrize("kind", DECISIONS)
@pytest.mark.parametrize("level", LEVELS)
def test_answers_every_pending_decision(kind: str, level: str) -> None:
    s = PENDING[kind]
    assert s.pending is not None and s.pending.kind == kind
    a = _pick(s.clone(), level)
    assert a in s.legal_actions()


def test_answers_set_up_for_both_sides() -> None:
    s = new_game(OPTS, 3)
    for level in (EASY, HARD, EASY):
        if s.phase != "setup":
            break
        s.apply(_pick(s, level))
    assert s.phase == "play"


def test_barrage_goes_where_the_enemy_is() -> None:
    """A King's barrage lands on the enemy cluster, away from our own units."""
    s = build(
        {"e4": "C", "e5": "G", "b7": "G", "b6": "G", "a7": "G", "c7": "C"},
        active=Side.CANADIANS,
        decks={Side.CANADIANS: ["KC"], Side.GERMANS: ["2D"]},
    )
    s.apply("e4xe5")
    assert s.pending is not None and s.pending.kind == "barrage"
    a = choose(s.view(Side.CANADIANS), EASY, 0)
    assert str(a) in {"barrage a6", "barrage a7", "barrage a8", "barrage b8"}


def test_spends_the_cross_on_an_advanced_unit() -> None:
    s = build(
        {"e6": "C", "e7": "G"},
        active=Side.CANADIANS,
        options=OPTS,
        decks={Side.CANADIANS: ["2C"], Side.GERMANS: ["9D"]},
    )
    s.apply("e6xe7")
    assert s.pending is not None and s.pending.kind == "cross"
    assert str(choose(s.view(Side.CANADIANS), HARD, 0, iterations=4)) == "cross"


def test_steps_onto_the_back_row_to_win() -> None:
    s = build({"b8": "C", "e7": "C", "a1": "G", "h1": "G", "d6": "G"}, active=Side.CANADIANS)
    for level in (EASY, NORMAL, HARD):
        a = choose(s.view(Side.CANADIANS), level, 0, budget_s=30.0, iterations=20)
        t = s.clone()
        t.apply(a)
        outcome = t.outcome()
        assert t.is_over() and outcome is not None and outcome.winner is Side.CANADIANS, (level, str(a))


class FakeClock:
    """A clock that moves `step` seconds each time it is read: a time cap binds after a known
    number of reads, whatever the machine's load."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


@pytest.mark.parametrize("level", [NORMAL, HARD])
def test_respects_the_time_budget(level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ten million rollouts asked for, the time cap alone ends the thinking: on a clock that
    moves 0.01 s a read, a 0.15 s cap allows 15 reads, and each stage gives up at its next read."""
    s = _random_walk(5, 60)[-1]
    while s.pending is not None or s.current_player() is None:
        s.apply(s.legal_actions()[0])
    side = s.current_player()
    assert side is not None
    fake = FakeClock(0.01)
    monkeypatch.setattr(search, "clock", fake)
    a = choose(s.view(side), level, 1, budget_s=0.15, iterations=10**7)
    assert a in s.legal_actions()
    assert fake.reads <= 15 + 10, fake.reads


@pytest.mark.parametrize("level", LEVELS)
def test_deterministic_for_a_seed(level: str) -> None:
    for s in _random_walk(7, 300)[40::50]:
        side = s.current_player()
        assert side is not None
        got = {str(choose(s.view(side), level, 11, budget_s=60.0, iterations=SMALL[level])) for _ in range(2)}
        assert len(got) == 1


def _reshuffled(s: State, seed: int) -> State:
    """The same public position with the hidden deck order (and match seed) changed."""
    t = s.clone()
    rng = random.Random(seed)
    cards = [c for d in (t.decks[Side.GERMANS], t.decks[Side.CANADIANS]) for c in d]
    rng.shuffle(cards)
    n = len(t.decks[Side.GERMANS])
    t.decks = {Side.GERMANS: cards[:n], Side.CANADIANS: cards[n:]}
    t.seed = seed + 12345
    return t


@pytest.mark.parametrize("level", LEVELS)
def test_does_not_peek_at_the_deck_order(level: str) -> None:
    positions = [*_random_walk(9, 300)[30::60], *PENDING.values()]
    for i, s in enumerate(positions):
        if s.phase != "play":
            continue
        side = s.current_player()
        assert side is not None
        picks = {
            str(choose(_reshuffled(s, k).view(side), level, i, budget_s=60.0, iterations=SMALL[level]))
            for k in range(3)
        }
        assert len(picks) == 1, (level, picks)


def _game(levels: dict[Side, str], seed: int, iters: int, cap: int = 3000) -> State:
    s = new_game(OPTS, seed)
    n = 0
    while not s.is_over() and n < cap:
        side = s.current_player()
        assert side is not None
        s.apply(choose(s.view(side), levels[side], seed * 10_000 + n, budget_s=30.0, iterations=iters), side)
        n += 1
    return s


@pytest.mark.parametrize(
    ("germans", "canadians", "seed"), [(EASY, EASY, 1), (NORMAL, EASY, 2), (EASY, NORMAL, 3)]
)
def test_ai_games_play_to_the_end(germans: str, canadians: str, seed: int) -> None:
    s = _game({Side.GERMANS: germans, Side.CANADIANS: canadians}, seed, iters=6)
    assert s.is_over() and s.outcome() is not None


def test_easy_beats_random() -> None:
    wins = 0
    for g in range(10):
        tested = Side.GERMANS if g % 2 == 0 else Side.CANADIANS
        s = _game({tested: EASY, tested.other: RANDOM}, 100 + g, iters=0)
        outcome = s.outcome()
        wins += outcome is not None and outcome.winner is tested
    assert wins >= 8


def test_evaluation_is_antisymmetric_and_sees_wins() -> None:
    s = _random_walk(4, 200)[-1]
    assert evaluate(s, Side.GERMANS) == pytest.approx(-evaluate(s, Side.CANADIANS))
    won = build({"b8": "C", "c8": "C", "a1": "G"}, active=Side.GERMANS)
    won._check_breakthrough(Side.CANADIANS)
    assert evaluate(won, Side.CANADIANS) > 100


def test_rejects_unknown_levels_and_wrong_side() -> None:
    s = new_game(OPTS, 0)
    with pytest.raises(ValueError):
        choose(s.view(Side.GERMANS), "grandmaster", 0)
    with pytest.raises(ValueError):
        choose(s.view(Side.CANADIANS), EASY, 0)


def test_threat_counts_the_attacks_left_to_the_opponent() -> None:
    """Hard charges a turn for the enemy's best attacks: an advanced unit next to the enemy is at risk."""
    full = [0, 0] + [4] * 13
    odds = {need: fight_odds(full, need) for need in (1, 2)}
    near = build({"e2": "C", "e3": "G", "a1": "G", "h8": "C"}, active=Side.GERMANS)
    far = build({"e2": "C", "e7": "G", "a1": "G", "h8": "C"}, active=Side.GERMANS)
    assert threat(near, Side.CANADIANS, odds, TUNED) > 0.1
    assert threat(far, Side.CANADIANS, odds, TUNED) == 0.0
    assert near.active is Side.GERMANS  # judged on a copy


def test_only_hard_judges_or_searches_differently_by_side() -> None:
    """Easy and normal judge plainly; hard's per-side settings must not touch them."""
    for side in Side:
        assert level_weights(EASY, side) == PLAIN
        assert level_weights(NORMAL, side) == PLAIN
        assert search_config(HARD, side).lookahead == SEARCH[HARD].lookahead > 0
    assert search_config(HARD, Side.CANADIANS).wary == 0.0 < search_config(HARD, Side.GERMANS).wary


def test_hard_spends_the_cross_to_stop_a_breakthrough() -> None:
    """A back-row defender lost to an attacker a step from breaking through: the Cross kills the attacker."""
    s = build(
        {"g2": "G", "h1": "C", "a8": "G", "a3": "C"},
        active=Side.GERMANS,
        options=OPTS,
        decks={Side.GERMANS: ["TC"], Side.CANADIANS: ["3D"]},
    )
    s.apply("g2xh1")
    assert s.pending is not None and s.pending.kind == "cross"
    assert str(choose(s.view(Side.CANADIANS), EASY, 0)) == "decline"  # the plain rule keeps it
    assert str(choose(s.view(Side.CANADIANS), HARD, 0, iterations=4)) == "cross"


def test_hard_clears_the_way_for_the_tank_to_break_through() -> None:
    """One man through and the tank a move from the back row: hard steps aside so the tank rolls in."""
    s = build({"b8": "C", "a6": "CT", "f6": "GM", "h8": "G"}, active=Side.CANADIANS)
    assert str(choose(s.view(Side.CANADIANS), HARD, 0, budget_s=30.0)) == "b8-c8"
    t = s.clone()
    t.apply("b8-c8")
    t.apply("end")
    t.apply("end")  # the Germans pass
    t.apply("T+")
    outcome = t.outcome()
    assert outcome is not None and outcome.winner is Side.CANADIANS


def test_hard_germans_fear_the_tank_gun() -> None:
    """A German unit in the tank's sights costs hard (as the Germans) more than one out of its reach."""
    w = level_weights(HARD, Side.GERMANS)
    seen = build({"c1": "CT", "c4": "G", "h8": "G"}, active=Side.GERMANS)
    unseen = build({"c1": "CT", "c5": "G", "h8": "G"}, active=Side.GERMANS)
    plain = evaluate(unseen, Side.GERMANS, TUNED) - evaluate(seen, Side.GERMANS, TUNED)
    assert evaluate(unseen, Side.GERMANS, w) - evaluate(seen, Side.GERMANS, w) > plain + 0.2


def test_reply_value_foresees_a_greedy_breakthrough() -> None:
    """After our turn a greedy opponent steps its second man onto our back row: the plan is lost."""
    lost = build({"b8": "C", "c7": "C", "a1": "G", "h1": "G"}, active=Side.GERMANS)
    held = build({"b8": "C", "c5": "C", "a1": "G", "h1": "G"}, active=Side.GERMANS)
    counts = ai._rank_counts(lost)
    assert reply_value([(1.0, lost)], Side.GERMANS, counts, 10, 0, HARD_WEIGHTS) == -ai.WIN
    assert reply_value([(1.0, held)], Side.GERMANS, counts, 10, 0, HARD_WEIGHTS) > -ai.WIN / 2
    assert lost.active is Side.GERMANS and lost.phase == "play"  # judged on copies


def test_hard_fades_towards_a_coming_dead_position_draw() -> None:
    """Ahead but near the quiet-turn limit (R24), hard's judgement shrinks towards the draw's 0."""
    s = build({"c4": "C", "d4": "C", "a8": "G"}, active=Side.CANADIANS)
    fresh = evaluate(s, Side.CANADIANS, HARD_WEIGHTS)
    s.quiet_turns = 50
    assert 0 < evaluate(s, Side.CANADIANS, HARD_WEIGHTS) < fresh / 2
    assert evaluate(s, Side.CANADIANS, TUNED) == pytest.approx(fresh)  # normal's judgement does not fade
