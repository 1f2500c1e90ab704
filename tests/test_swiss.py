"""Swiss pairing and tiebreaks (play/swiss.py) against worked examples.

The examples follow the Dutch system as FIDE's handbook describes it (C.04.3), restated and worked
by hand here: players are ordered by score, then rating; within a score group the top half meets
the bottom half in order (1 v 5, 2 v 6, 3 v 7, 4 v 8 of eight); in round 1 the top player of board 1
takes the first side and the sides alternate down the boards; later, colour (side) preferences come
before that order, and a swap within the bottom half (a transposition) is tried before a swap across
the halves (an exchange). Tiebreaks are Buchholz (the sum of the opponents' points) and
Sonneborn-Berger (the points of the opponents beaten, plus half those of the opponents drawn).
"""

from __future__ import annotations

import itertools
import random

import pytest

from play.swiss import Entrant, Pairing, pair, scores, standings


def seeded(n: int) -> list[Entrant]:
    """Players 1..n, player 1 the highest rated."""
    return [Entrant(i, 2000.0 - 10 * i) for i in range(1, n + 1)]


def boards(pairings: list[Pairing]) -> list[tuple[int, int | None]]:
    return [(p.first, p.second) for p in pairings]


def test_round_one_of_eight_is_top_half_against_bottom_half_with_sides_alternating():
    """FIDE Dutch, round 1 of eight: 1-5, 2-6, 3-7, 4-8; 1 takes the first side (White), then the
    higher-ranked player's side alternates: 6-2, 3-7, 8-4."""
    assert boards(pair(seeded(8), [], 1)) == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_round_two_puts_side_preferences_before_the_order():
    """After round 1 above, every higher-ranked player won. The 1-point group is 1, 2, 3, 4: the
    plain order 1-3, 2-4 would give 1 and 3 (both had the first side) and 2 and 4 (both had the
    second) the same side again; the first transposition, 1-4, 2-3, satisfies everyone, and so does
    5-8, 6-7 in the 0-point group. Sides: whoever had the second side takes the first."""
    first = [
        Pairing(1, 1, 5, 1.0),
        Pairing(1, 6, 2, 0.0),
        Pairing(1, 3, 7, 1.0),
        Pairing(1, 8, 4, 0.0),
    ]
    assert sorted(boards(pair(seeded(8), first, 2))) == sorted([(4, 1), (2, 3), (5, 8), (7, 6)])


def test_four_players_over_three_rounds_meet_everyone_once():
    """By hand: round 1 is 1-3, 2-4; if 1 and 2 win, round 2 pairs the winners (1-2) and the losers
    (3-4); round 3 can only be 1-4 and 2-3 without a rematch."""
    players = seeded(4)
    r1 = pair(players, [], 1)
    assert set(map(frozenset, boards(r1))) == set(map(frozenset, [(1, 3), (2, 4)]))
    done = [Pairing(1, p.first, p.second, 1.0 if p.first in (1, 2) else 0.0) for p in r1]
    r2 = pair(players, done, 2)
    assert set(map(frozenset, boards(r2))) == set(map(frozenset, [(1, 2), (3, 4)]))
    done += [Pairing(2, p.first, p.second, 1.0) for p in r2]
    r3 = pair(players, done, 3)
    assert set(map(frozenset, boards(r3))) == set(map(frozenset, [(1, 4), (2, 3)]))


def test_the_bye_goes_to_the_lowest_ranked_player_and_never_twice():
    """Five players: the lowest rated (5) sits out round 1 with a win; then the lowest-ranked who has
    not had a bye, by score then rating, each round."""
    players = seeded(5)
    r1 = pair(players, [], 1)
    assert r1[-1] == Pairing(1, 5, None)
    assert set(map(frozenset, boards(r1[:-1]))) == set(map(frozenset, [(1, 3), (2, 4)]))
    games = [
        Pairing(1, p.first, p.second, 1.0 if p.second is not None and p.first < p.second else 0.0) for p in r1
    ]
    games = [g if g.second is not None else Pairing(1, 5, None) for g in games]
    had = [5]
    for round_no in (2, 3, 4, 5):
        made = pair(players, games, round_no)
        bye = [p.first for p in made if p.second is None]
        assert len(bye) == 1 and bye[0] not in had
        had.append(bye[0])
        games += [Pairing(round_no, p.first, p.second, None if p.second is None else 0.5) for p in made]
    assert sorted(had) == [1, 2, 3, 4, 5]


def test_the_bye_passes_over_a_no_show_and_a_latecomers_first_round_while_someone_else_can_take_it():
    """RULES.md "Pairing": the lowest-ranked player without a bye gets it, but not one who lost
    their last game without a move (a point for not coming) nor a latecomer in their first round
    (they came to play); when everyone left is passed over, the usual order decides."""
    players = seeded(5)
    assert pair(players, [], 1, skip={5})[-1] == Pairing(1, 4, None)
    assert pair(players, [], 1, skip={5, 4})[-1] == Pairing(1, 3, None)
    assert pair(players, [], 1, skip={1, 2, 3, 4, 5})[-1] == Pairing(1, 5, None)
    # one who had the bye stays out of it, passed over or not: the next passed-over player takes it
    had = [Pairing(1, 5, None)]
    assert pair(players, had, 2, skip={1, 2, 3, 4})[-1] == Pairing(2, 4, None)


@pytest.mark.parametrize("n", [4, 6, 7, 8, 10])
def test_random_results_never_bring_a_rematch_while_one_can_be_avoided(n: int):
    """Over n - 1 rounds (a round robin's length, where the last rounds are the tightest) with
    seeded random results, no two players meet twice and sides stay within one of even."""
    rng = random.Random(n)
    players = seeded(n)
    games: list[Pairing] = []
    rounds = n - 1 if n % 2 == 0 else n
    for round_no in range(1, min(rounds, 5) + 1):
        for p in pair(players, games, round_no):
            result = None if p.second is None else rng.choice([0.0, 0.5, 1.0])
            games.append(Pairing(round_no, p.first, p.second, result))
    met = [frozenset((g.first, g.second)) for g in games if g.second is not None]
    assert len(met) == len(set(met))
    for e in players:
        firsts = sum(1 for g in games if g.second is not None and g.first == e.user_id)
        seconds = sum(1 for g in games if g.second == e.user_id)
        assert abs(firsts - seconds) <= 2


def test_pairing_prefers_equal_scores():
    """Six players after a round in which 1, 2, 3 won: the winners meet winners where they can; with
    three in a group one floats down to meet the top of the next group."""
    players = seeded(6)
    first = [Pairing(1, 1, 4, 1.0), Pairing(1, 5, 2, 0.0), Pairing(1, 3, 6, 1.0)]
    made = pair(players, first, 2)
    points = scores(first)
    mixed = [p for p in made if points.get(p.first, 0) != points.get(p.second or 0, 0)]
    assert len(mixed) == 1


def test_tiebreaks_worked_by_hand():
    """Four players, three rounds:
    R1: A beats B, C draws D. R2: A draws C, B beats D. R3: A beats D, B draws C.
    Points: A 2.5, B 1.5, C 1.5, D 0.5.
    Buchholz: A = B + C + D = 3.5; B = A + D + C = 4.5; C = D + A + B = 4.5; D = C + B + A = 5.5.
    Sonneborn-Berger: A = B(1.5) + ½C(0.75) + D(0.5) = 2.75; B = D(0.5) + ½C(0.75) = 1.25;
    C = ½D(0.25) + ½A(1.25) + ½B(0.75) = 2.25; D = ½C(0.75) = 0.75.
    So B and C share points and Buchholz and Sonneborn-Berger puts C ahead."""
    a, b, c, d = 1, 2, 3, 4
    games = [
        Pairing(1, a, b, 1.0),
        Pairing(1, c, d, 0.5),
        Pairing(2, a, c, 0.5),
        Pairing(2, b, d, 1.0),
        Pairing(3, a, d, 1.0),
        Pairing(3, b, c, 0.5),
    ]
    table = standings(seeded(4), games)
    got = {s.user_id: (s.rank, s.points, s.buchholz, s.sonneborn) for s in table}
    assert got == {
        a: (1, 2.5, 3.5, 2.75),
        c: (2, 1.5, 4.5, 2.25),
        b: (3, 1.5, 4.5, 1.25),
        d: (4, 0.5, 5.5, 0.75),
    }
    assert [s.user_id for s in table] == [a, c, b, d]


def test_a_bye_counts_as_a_win_over_a_stand_in_and_equal_lines_share_a_rank():
    """FIDE's tie-break regulations (article 16.4; the cap is the 2026 edition's): the bye is a win
    over a stand-in with the player's own points, at most half a point per round: 3 has 1 point
    after 1 round, so 0.5."""
    games = [Pairing(1, 1, 2, 0.5), Pairing(1, 3, None)]
    table = standings([Entrant(1, 1200), Entrant(2, 1200), Entrant(3, 1100)], games)
    assert [(s.user_id, s.rank, s.points, s.buchholz, s.sonneborn) for s in table] == [
        (3, 1, 1.0, 0.5, 0.5),
        (1, 2, 0.5, 0.5, 0.25),
        (2, 2, 0.5, 0.5, 0.25),
    ]


# Eight players over three rounds; W withdraws after round 1 (so sits out rounds 2 and 3), P has the
# bye in round 2 and S in round 3. X and Y each beat someone who scored nothing: W, who left, and V,
# who played every round and lost them all.
X, Y, W, V, P, Q, R, S = 1, 2, 3, 4, 5, 6, 7, 8
WITHDRAWAL = [
    Pairing(1, X, W, 1.0),
    Pairing(1, Y, V, 1.0),
    Pairing(1, P, Q, 0.5),
    Pairing(1, R, S, 0.5),
    Pairing(2, X, Q, 1.0),
    Pairing(2, Y, S, 1.0),
    Pairing(2, R, V, 1.0),
    Pairing(2, P, None),
    Pairing(3, X, R, 0.5),
    Pairing(3, Y, P, 0.5),
    Pairing(3, Q, V, 1.0),
    Pairing(3, S, None),
]
RATED = [Entrant(user, 1500.0 + (50 if user == Y else 0)) for user in (X, Y, W, V, P, Q, R, S)]


def test_a_withdrawn_opponents_rounds_after_leaving_count_as_draws_in_the_tiebreaks():
    """Points: X 2.5, Y 2.5, P 2, R 2, Q 1.5, S 1.5, W 0, V 0. For the tiebreaks of those who met W,
    W's two rounds sat out count as draws: W is worth 0 + ½ + ½ = 1, V (who lost three games) 0.
    X: Buchholz W 1 + Q 1.5 + R 2 = 4.5; Sonneborn-Berger 1 + 1.5 + ½·2 = 3.5.
    Y: Buchholz V 0 + S 1.5 + P 2 = 3.5; Sonneborn-Berger 0 + 1.5 + ½·2 = 2.5.
    Counted as before (W worth the 0 he scored) both had 3.5 and 2.5, and Y's higher rating put Y
    first; now X, whose opponent left, is not the one who pays for it."""
    table = {s.user_id: s for s in standings(RATED, WITHDRAWAL)}
    assert (table[X].buchholz, table[X].sonneborn) == (4.5, 3.5)
    assert (table[Y].buchholz, table[Y].sonneborn) == (3.5, 2.5)
    assert (table[X].rank, table[Y].rank) == (1, 2)
    # without the withdrawal (W lost rounds 2 and 3 over the board instead) X's tiebreak is Y's
    played = [*WITHDRAWAL, Pairing(2, W, 99, 0.0), Pairing(3, W, 98, 0.0)]
    also = [*RATED, Entrant(99, 1500.0), Entrant(98, 1500.0)]
    table = {s.user_id: s for s in standings(also, played)}
    assert table[X].buchholz == table[Y].buchholz == 3.5
    assert table[X].sonneborn == table[Y].sonneborn == 2.5
    assert [s.user_id for s in standings(also, played)][:2] == [Y, X]  # on rating


def test_a_players_own_unplayed_rounds_count_against_a_stand_in_with_their_own_points():
    """P's bye (round 2) is a win over a stand-in worth P's own 2 points, at most ½ per round: 1.5.
    P: Buchholz Q 1.5 + 1.5 + Y 2.5 = 5.5; Sonneborn-Berger ½·1.5 + 1.5 + ½·2.5 = 3.5. R, level on 2
    points with no bye: Buchholz S 1.5 + V 0 + X 2.5 = 4; Sonneborn-Berger ½·1.5 + 0 + ½·2.5 = 2.
    W's own two rounds sat out are losses to a stand-in worth W's 0: Buchholz X 2.5 + 0 + 0."""
    table = {s.user_id: s for s in standings(RATED, WITHDRAWAL)}
    assert (table[P].buchholz, table[P].sonneborn, table[P].rank) == (5.5, 3.5, 3)
    assert (table[R].buchholz, table[R].sonneborn, table[R].rank) == (4.0, 2.0, 4)
    assert (table[W].points, table[W].buchholz, table[W].sonneborn) == (0.0, 2.5, 0.0)


def test_an_absence_followed_by_a_played_round_counts_as_the_zero_it_scored():
    """Article 16 counts as a draw only a round sat out that no played round follows (our
    withdrawals are for good, so that is every one; the rule is kept whole all the same)."""
    games = [
        Pairing(1, 1, 2, 1.0),
        Pairing(1, 3, 4, 1.0),
        Pairing(2, 1, 3, 1.0),  # 2 and 4 sit round 2 out, then play on
        Pairing(3, 2, 4, 0.5),
        Pairing(3, 3, 1, 1.0),
    ]
    table = {s.user_id: s for s in standings(seeded(4), games)}
    assert table[3].buchholz == 0.5 + 2.0 + 2.0  # 4 worth the ½ scored (not 1), 1 worth 2 twice


def test_a_withdrawn_players_round_counts_from_its_pairing():
    """While round 2 runs, W's absence from it already counts as a draw for X (as Y's bye scores
    at once); X's game with V, still going, counts nothing yet."""
    now = [Pairing(1, X, W, 1.0), Pairing(1, Y, V, 1.0), Pairing(2, X, V), Pairing(2, Y, None)]
    table = {s.user_id: s for s in standings([Entrant(u, 1500.0) for u in (X, Y, W, V)], now)}
    assert table[X].buchholz == 0.5  # W: 0 scored, ½ for round 2
    assert table[Y].buchholz == 0.0 + 1.0  # V: 0 so far; the bye: Y's 2 points, at most ½ a round


def test_pairing_is_deterministic_and_total():
    """Every player still in is paired exactly once (or has the bye), whatever the order given."""
    players = seeded(9)
    for perm in itertools.islice(itertools.permutations(players), 0, 50, 7):
        made = pair(list(perm), [], 1)
        seen = [u for p in made for u in (p.first, p.second) if u is not None]
        assert sorted(seen) == list(range(1, 10))
        assert boards(made) == boards(pair(players, [], 1))


def test_the_bot_loads_its_tournament_commands_without_the_graph_library():
    """networkx costs the bot process 24 MB once imported (docs/performance.md, issue 35's memory
    target): it is imported when a round is first paired, not when the commands load."""
    import subprocess
    import sys

    modules = "cogs.tournament, play.tournament, console.tournament"
    code = f"import sys, {modules}\nprint('networkx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
