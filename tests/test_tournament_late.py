"""Late entry (play/tournament_late.py, RULES.md "Late entry"), on both stores: a latecomer joins a
running tournament while at most half its rounds have begun, is paired from the next round, and
the rounds they missed are zero-point byes in the standings and the tie-breaks; their sign-up
input is taken then and kept; the refusals say why and what is possible."""

from __future__ import annotations

import pytest

from data.db import Transaction, rows
from engine import registry
from play import BadRequest
from play.markup import PLAIN
from play.swiss import Entrant, Pairing, standings
from play.tournament import TournamentService
from play.tournament_late import late_closed_text, late_notice, late_open
from play.tournament_text import joined_text, round_now_text, signup_text, standings_subtitle, standings_title
from render.standings import Row, name_cell, standings_png
from tests.test_tournament import CHANNEL, services
from tests.test_tournament_manage import begin, boards_of, start_games


async def finish_round(t: TournamentService, tournament_id: int, round_no: int) -> None:
    """Every game of the round ends: the second named resigns; then the sweep pairs the next."""
    for board in await boards_of(t, tournament_id, round_no):
        if board.second_id is not None:
            assert board.thread_id is not None
            await t.matches.act(board.thread_id, board.second_id, "resign")
    await t.sweep()
    await start_games(t)


async def kept_inputs(t: TournamentService, tournament_id: int) -> dict[int, str]:
    def read() -> Transaction[dict[int, str]]:
        found = yield rows(
            "SELECT user_id, join_input FROM tournament_inputs WHERE tournament_id = ?", (tournament_id,)
        )
        return {int(r["user_id"]): r["join_input"] for r in found}

    kept: dict[int, str] = await t.db._transact(read)
    return kept


async def test_a_latecomer_plays_from_the_next_round_and_the_rounds_missed_score_nothing(store_world):
    db, clock = store_world
    t = services(db, clock)
    tournament = await begin(t, [11, 12, 13, 14], rounds=4)
    assert late_open(tournament)
    joined = await t.join(tournament, 15, entropy=10**18)
    assert joined.version > tournament.version  # a sweep that read the players before it is refused
    entry = next(e for e in await t.entries(joined) if e.user_id == 15)
    assert (entry.joined_round, entry.withdrawn) == (1, False)
    assert entry.join_input is not None and (await kept_inputs(t, tournament.id))[15] == entry.join_input
    assert entry.rating == pytest.approx((await db.player_stats(5, "blockwars", 15)).rating)
    assert joined_text(joined, PLAIN, 1).startswith(
        f"You are in {tournament.name} from round 2 of 4. You missed round 1: it counts as a bye "
        "without points (0) in the standings and the tie-breaks. Round 2 is paired when round 1 ends"
    )
    assert late_notice(joined, 15, 1, PLAIN) == (
        f"@15 joined {tournament.name} late: they play from round 2, and round 1, which they missed, "
        "counts 0 points."
    )
    listed = signup_text(registry.game("blockwars"), joined, await t.entries(joined), PLAIN, buttons=False)
    assert "Players (5): @11, @12, @13, @14, @15 (from round 2)." in listed
    assert "latecomers may still join until round 2 ends: type `/tournament join`" in signup_text(
        registry.game("blockwars"),
        joined,
        await t.entries(joined),
        PLAIN,
        buttons=False,
    )
    with pytest.raises(BadRequest, match="You are already playing in this tournament"):
        await t.join(joined, 15)
    # not in round 1, which was paired before they came; in the standings with 0 and marked
    assert 15 not in {u for b in await boards_of(t, tournament.id, 1) for u in (b.first_id, b.second_id)}
    shown = round_now_text(await t.round_of(CHANNEL), PLAIN)
    assert shown.endswith("\nJoined late, paired from round 2: @15.")
    line = next(x for x in (await t.table(joined)).lines if x.user_id == 15)
    assert (line.points, line.joined, line.withdrawn) == (0.0, 1, False)
    table = await t.table(joined)
    assert standings_subtitle(table).endswith(' "From R2": joined late, the rounds before scored 0.')
    rows = [
        Row(x.rank, f"P{x.user_id}", x.points, x.buchholz, x.sonneborn, x.change, x.withdrawn, x.joined)
        for x in table.lines
    ]
    assert name_cell(rows[-1]) == "P15 (from R2)"
    assert (
        standings_png(standings_title(joined, 1), standings_subtitle(table), rows)[:8] == b"\x89PNG\r\n\x1a\n"
    )

    await finish_round(t, tournament.id, 1)
    round2 = await boards_of(t, tournament.id, 2)
    assert 15 in {u for b in round2 for u in (b.first_id, b.second_id)}
    # five now: the bye passes over the latecomer's first round (they came to play), though they
    # rank last with 0 points; it goes to a player who lost in round 1 (RULES.md "Pairing")
    (bye,) = [b for b in round2 if b.second_id is None]
    assert bye.first_id != 15
    assert (
        next(
            x for x in (await t.table(await t.open_in(CHANNEL), 1)).lines if x.user_id == bye.first_id
        ).points
        == 0
    )

    await finish_round(t, tournament.id, 2)  # round 3 of 4 under way: too late now
    now = await t.open_in(CHANNEL)
    assert not late_open(now)
    with pytest.raises(BadRequest, match="too late to join") as refused:
        await t.join(now, 16)
    assert refused.value.message == late_closed_text(now, PLAIN)
    assert "until round 2 ends" in refused.value.message
    assert "Sign-ups are closed." in signup_text(registry.game("blockwars"), now, await t.entries(now), PLAIN)


async def test_a_one_round_tournament_takes_no_latecomer(store_world):
    db, clock = store_world
    t = services(db, clock)
    tournament = await begin(t, [11, 12], rounds=1)
    with pytest.raises(BadRequest, match="has only 1 round and it has begun, so it is too late to join"):
        await t.join(tournament, 13)
    assert [e.user_id for e in await t.entries(tournament)] == [11, 12]


async def test_the_rounds_a_latecomer_missed_count_as_zero_point_byes_in_the_tiebreaks():
    """RULES.md "Standings": their own missed round is a round without a game (a stand-in worth their
    own points, at most ½ per round so far, in Buchholz; nothing in Sonneborn-Berger), and in their opponents'
    Buchholz it counts as the 0 it scored (they played on after it), not as a withdrawn player's ½."""
    players = [Entrant(u, 1200.0) for u in (1, 2, 3, 4, 5)]
    games = [
        Pairing(1, 1, 2, 1.0),
        Pairing(1, 3, 4, 1.0),  # 5 joined during round 1
        Pairing(2, 5, 1, 1.0),  # the latecomer beats the leader
        Pairing(2, 3, 2, 1.0),
        Pairing(2, 4, None),
    ]
    table = {s.user_id: s for s in standings(players, games)}
    assert table[5].points == 1.0
    # player 1's point, and for round 1 a stand-in with the latecomer's own 1 point (within ½ a round)
    assert table[5].buchholz == 1.0 + 1.0
    assert table[5].sonneborn == 1.0  # the win over player 1 only: the missed round adds nothing
    assert table[1].buchholz == 0.0 + 1.0  # player 2's 0, and the latecomer's 1 (their round 1: 0)
