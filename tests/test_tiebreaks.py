"""Tie-breaks chosen per tournament (play/tiebreaks.py): the usual order ranks exactly as the Swiss
standings always did, and each other kind on a worked example."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from play.swiss import Entrant, Pairing, pair, standings
from play.tiebreaks import PRESETS, Tiebreak, contributions, order_said, ranked


def _tournament(seed: int, players: int, rounds: int) -> tuple[list[Entrant], list[Pairing]]:
    """A Swiss of seeded random results (some players withdrawn on the way)."""
    rng = random.Random(seed)
    everyone = [Entrant(10 + k, float(rng.randrange(1000, 1400))) for k in range(players)]
    still = list(everyone)
    games: list[Pairing] = []
    for r in range(1, rounds + 1):
        for p in pair(still, games, r):
            games.append(p if p.is_bye else Pairing(r, p.first, p.second, rng.choice((0.0, 0.5, 1.0))))
        if len(still) > 3 and rng.random() < 0.3:
            still.remove(rng.choice(still))
    return everyone, games


@settings(max_examples=40, deadline=None)  # the first pairing imports networkx
@given(st.integers(0, 10_000), st.integers(2, 9), st.integers(1, 5))
def test_the_usual_order_ranks_as_the_swiss_standings(seed: int, players: int, rounds: int):
    entrants, games = _tournament(seed, players, rounds)
    before = standings(entrants, games)
    now = ranked(entrants, games, PRESETS["buchholz"])
    assert [r.standing for r in now] == before
    assert [r.values for r in now] == [(s.buchholz, s.sonneborn) for s in before]
    terms = contributions(entrants, games)
    assert all(abs(sum(terms[s.user_id]) - s.buchholz) < 1e-9 for s in before)


A, B, C, D = 1, 2, 3, 4
ALL = [Entrant(u, 1200.0) for u in (A, B, C, D)]


def test_the_direct_encounter_parts_players_who_met():
    """A and B both score 2 of 3; A beat B: A first by the encounter, whatever else says."""
    games = [
        Pairing(1, A, B, 1.0),
        Pairing(1, C, D, 0.5),
        Pairing(2, A, C, 0.0),
        Pairing(2, B, D, 1.0),
        Pairing(3, A, D, 1.0),
        Pairing(3, B, C, 1.0),
    ]
    lines = ranked(ALL, games, PRESETS["direct"])
    assert [(r.standing.user_id, r.standing.rank, r.values[0]) for r in lines[:2]] == [
        (A, 1, 1.0),
        (B, 2, 0.0),
    ]
    # players level who did not all meet: the encounter leaves them level, the next tie-break decides
    two = [Pairing(1, A, B, 1.0), Pairing(1, C, D, 1.0)]
    lines = ranked(ALL, two, (Tiebreak.DIRECT, Tiebreak.WINS))
    assert {r.standing.user_id: r.values for r in lines} == {
        A: (0.0, 1.0),
        C: (0.0, 1.0),
        B: (0.0, 0.0),
        D: (0.0, 0.0),
    }
    assert [r.standing.rank for r in lines] == [1, 1, 3, 3]


def test_wins_count_games_won_over_the_board_not_byes():
    games = [Pairing(1, A, B, 1.0), Pairing(1, C, None), Pairing(2, A, C, 0.5), Pairing(2, B, None)]
    found = {r.standing.user_id: r.values[0] for r in ranked(ALL[:3], games, PRESETS["wins"])}
    assert found == {A: 1.0, B: 0.0, C: 0.0}


def test_median_buchholz_drops_the_best_and_the_worst_opponent():
    games = [
        Pairing(1, A, B, 1.0),
        Pairing(1, C, D, 1.0),
        Pairing(2, A, C, 1.0),
        Pairing(2, B, D, 1.0),
        Pairing(3, A, D, 1.0),
        Pairing(3, B, C, 0.0),
    ]
    lines = {r.standing.user_id: r for r in ranked(ALL, games, PRESETS["median"])}
    assert sorted(contributions(ALL, games)[A]) == [0.0, 1.0, 2.0]  # D, B and C's points
    assert lines[A].values[0] == 1.0 and lines[A].values[1] == lines[A].standing.buchholz == 3.0


def test_the_order_said():
    assert order_said(PRESETS["sonneborn"]) == (
        "Sonneborn-Berger (SB), then direct encounter (DE), then wins (W)"
    )
