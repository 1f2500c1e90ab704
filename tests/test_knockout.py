"""The knockout's bracket (play/knockout.py) as properties over every size from 2 to 32, and its
rulings (RULES.md "Knockout"): a draw sends the higher seed on, a withdrawal the opponent."""

from __future__ import annotations

import random

import pytest

from play import knockout
from play.swiss import Entrant, Pairing


def field(n: int) -> list[Entrant]:
    """`n` players, ids 1..n, rated so that id 1 is seed 1 (ratings shuffled in by id order)."""
    return [Entrant(i, 2000.0 - 10 * i) for i in range(1, n + 1)]


def play_out(n: int, rng: random.Random, draws: bool = False) -> list[list[Pairing]]:
    """A whole knockout of `n` players with random results: each round's pairings, with results."""
    players = field(n)
    games: list[Pairing] = []
    rounds: list[list[Pairing]] = []
    for r in range(1, knockout.rounds_for(n) + 1):
        paired = knockout.pair_round(players, r, {}, games)
        done = []
        for p in paired:
            outcome = rng.choice([1.0, 0.0, 0.5] if draws else [1.0, 0.0])
            done.append(p if p.second is None else Pairing(p.round, p.first, p.second, outcome))
        games.extend(done)
        rounds.append(done)
    return rounds


@pytest.mark.parametrize("n", range(2, 33))
def test_every_size_halves_each_round_byes_only_in_round_one_to_the_top_seeds(n: int) -> None:
    rng = random.Random(n)
    rounds = play_out(n, rng, draws=True)
    size = 2 ** knockout.rounds_for(n)
    assert size // 2 < n <= size  # the power of two that holds them
    assert len(rounds) == knockout.rounds_for(n)
    for r, paired in enumerate(rounds, start=1):
        assert len(paired) == size >> r  # each round has half the ties of the one before
        seated = [u for p in paired for u in (p.first, p.second) if u is not None]
        assert len(seated) == len(set(seated))  # nobody twice
        byes = [p.first for p in paired if p.second is None]
        if r == 1:
            assert sorted(byes) == list(range(1, size - n + 1))  # the top seeds, as many as places spare
        else:
            assert byes == []
    seeds = knockout.seeded(field(n))
    games = [p for paired in rounds for p in paired]
    final = knockout.champion(seeds, games, {})
    assert final is not None and final.winner is not None
    assert knockout.still_in(seeds, games, {}) == [final.winner]
    places = knockout.places(seeds, games, {})
    assert sorted(places.values()).count(1) == 1
    assert places[final.loser or final.winner] in (1, 2)


def test_round_one_is_one_v_last_and_seeds_one_and_two_meet_only_in_the_final() -> None:
    paired = knockout.pair_round(field(8), 1, {})
    assert {(p.first, p.second) for p in paired} == {(1, 8), (4, 5), (2, 7), (3, 6)}
    games = [Pairing(1, p.first, p.second, 1.0) for p in paired]  # the higher seeds all win
    second = knockout.pair_round(field(8), 2, {}, games)
    assert {frozenset((p.first, p.second)) for p in second} == {frozenset((1, 4)), frozenset((2, 3))}


def test_a_draw_sends_the_higher_seed_on_whichever_side_they_played() -> None:
    seeds = knockout.seeded(field(4))
    for first, second in ((1, 4), (4, 1)):
        games = [Pairing(1, first, second, 0.5), Pairing(1, 2, 3, 0.0)]
        ties = knockout.bracket(seeds, games, {})
        drawn = next(t for t in ties[0] if 1 in (t.top, t.bottom))
        assert (drawn.winner, drawn.how) == (1, knockout.DRAWN)
        (final,) = knockout.pair_round(field(4), 2, {}, games)
        assert {final.first, final.second} == {1, 3}


def test_the_higher_seed_keeps_the_first_side_unless_they_had_it_more() -> None:
    games = [Pairing(1, 1, 4, 1.0), Pairing(1, 3, 2, 0.0)]  # 2 played the second side in round 1
    (final,) = knockout.pair_round(field(4), 2, {}, games)
    assert (final.first, final.second) == (2, 1)  # 1 had the first side, 2 had not: 2 takes it


def test_a_withdrawal_sends_the_opponent_on_whatever_the_game_said() -> None:
    seeds = knockout.seeded(field(4))
    games = [Pairing(1, 1, 4, 1.0), Pairing(1, 2, 3, 1.0)]
    # 1 won, then withdrew while round 1 was still under way: 4 goes on by forfeit
    ties = knockout.bracket(seeds, games, {1: 1})
    tie = next(t for t in ties[0] if 1 in (t.top, t.bottom))
    assert (tie.winner, tie.how) == (4, knockout.FORFEIT)
    (final,) = knockout.pair_round(field(4), 2, {1: 1}, games)
    assert {final.first, final.second} == {2, 4}
    # a finalist withdrawing in round 2, their game still going: the other wins the knockout
    final_games = [*games, Pairing(2, 2, 4)]
    won = knockout.champion(seeds, final_games, {1: 1, 4: 2})
    assert won is not None and (won.winner, won.how) == (2, knockout.FORFEIT)


def test_both_withdrawn_leave_a_walkover_for_the_next_opponent() -> None:
    games = [Pairing(1, 1, 4, 1.0), Pairing(1, 2, 3, None)]
    (final,) = knockout.pair_round(field(4), 2, {2: 1, 3: 1}, games)
    assert (final.first, final.second) == (1, None)  # a walkover, a win, as a bye is
