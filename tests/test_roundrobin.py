"""Round-robin pairing (play/roundrobin.py): FIDE's Berger tables, every pair once, the sides
balanced, one bye each for an odd count, and a withdrawal's games forfeited or struck out."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from play.roundrobin import MAX_PLAYERS, berger, counted, pair_round, rounds_for, seeded, struck
from play.swiss import Entrant, Pairing, standings


def test_the_berger_table_of_six_is_fides():
    """FIDE's table for 6 (numbered 1..6 there, 0..5 here): round 1 is 1-6 2-5 3-4, round 2
    6-4 5-3 1-2, round 3 2-6 3-1 4-5."""
    table = [[(a + 1, b + 1 if b is not None else None) for a, b in r] for r in berger(6)]
    assert table[0] == [(1, 6), (2, 5), (3, 4)]
    assert table[1] == [(6, 4), (5, 3), (1, 2)]
    assert table[2] == [(2, 6), (3, 1), (4, 5)]
    assert len(table) == 5


@given(st.integers(min_value=2, max_value=MAX_PLAYERS + 4))
def test_every_pair_meets_exactly_once_and_the_sides_are_balanced(players: int):
    table = berger(players)
    assert len(table) == rounds_for(players)
    met: list[frozenset[int]] = []
    firsts = dict.fromkeys(range(players), 0)
    sides: dict[int, list[int]] = {user: [] for user in range(players)}
    byes = dict.fromkeys(range(players), 0)
    for games in table:
        seated = sorted(u for g in games for u in g if u is not None)
        assert seated == list(range(players))  # everyone once a round
        for a, b in games:
            if b is None:
                byes[a] += 1
                continue
            met.append(frozenset((a, b)))
            firsts[a] += 1
            sides[a].append(1)
            sides[b].append(2)
    assert sorted(met, key=sorted) == sorted(
        (frozenset((a, b)) for a in range(players) for b in range(a + 1, players)), key=sorted
    )
    for user in range(players):
        assert abs(2 * firsts[user] - (players - 1)) <= 1  # as many first sides as second, or one more
        assert byes[user] == players % 2  # one bye each for an odd count, none for an even
        seq = sides[user]
        assert sum(1 for x, y in pairwise(seq) if x == y) <= 1  # they alternate, bar one


def _everyone(n: int) -> list[Entrant]:
    return [Entrant(100 + k, 1200.0 - k) for k in range(n)]


def test_the_numbers_follow_the_ratings_and_a_bye_comes_last():
    players = _everyone(5)
    assert [e.user_id for e in seeded(players[::-1])] == [100, 101, 102, 103, 104]
    first = pair_round(players, 1)
    assert first[-1].is_bye and not any(p.is_bye for p in first[:-1])
    assert pair_round(players, 6) == []  # past the last round


def _play(players: list[Entrant], rounds: range, withdrawn: set[int], games: list[Pairing]) -> None:
    """Pair `rounds` and record each game as a win for its first player."""
    for r in rounds:
        for p in pair_round(players, r, withdrawn, games):
            games.append(p if p.is_bye else Pairing(r, p.first, p.second, 1.0))


def test_a_player_gone_before_half_their_games_is_struck_out_for_everyone():
    players = _everyone(6)  # five games each; leaving after 2 is before half
    games: list[Pairing] = []
    _play(players, range(1, 3), set(), games)
    gone = {103}
    _play(players, range(3, 6), gone, games)
    later = [g for g in games if g.round >= 3]
    assert all(103 not in (g.first, g.second) for g in later)  # never paired again
    assert not any(g.is_bye for g in later)  # an even field: nobody gets a forfeit win
    assert struck(players, gone, games) == {103}
    kept = counted(players, gone, games)
    assert all(103 not in (g.first, g.second) for g in kept)
    assert len(kept) == len(games) - 2
    lines = {s.user_id: s for s in standings(players, kept)}
    assert lines[103].points == 0 and lines[103].played == 0


def test_a_player_gone_after_half_their_games_forfeits_the_rest():
    players = _everyone(6)
    games: list[Pairing] = []
    _play(players, range(1, 4), set(), games)
    gone = {103}
    _play(players, range(4, 6), gone, games)
    later = [g for g in games if g.round >= 4]
    forfeits = [g for g in later if g.is_bye]
    assert len(forfeits) == 2  # one a round, each a win for the player who would have met them
    assert all(103 not in (g.first, g.second) for g in later)
    assert struck(players, gone, games) == set()
    assert counted(players, gone, games) == games
    opponents = {g.first for g in forfeits}
    assert len(opponents) == 2 and 103 not in opponents
