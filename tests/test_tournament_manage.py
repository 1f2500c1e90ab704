"""Managing a running tournament (play/tournament.py, play/tournament_round.py), on both stores: a
player withdraws after the start or an organiser removes them; they are not paired again, their game
of the round plays on and counts, their results and their opponents' tiebreaks stand; fewer than 2
players left ends it after the round; the round's view in words, within one message for 64 players;
the sweep reads a round's matches in one query."""

from __future__ import annotations

import functools
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bench.pgproxy import PgProxy
from cogs._format import DISCORD
from data import Database, PostgresDatabase, SqliteDatabase, Status
from data.tournaments import Board, Tournament, TournamentMoved, TournamentStatus
from play import BadRequest, MatchService, NotAPlayer
from play.markup import PLAIN
from play.results import Notice
from play.tournament import DAY, TournamentService
from play.tournament_leaving_text import withdraw_question, withdrawal_notice, withdrawn_text
from play.tournament_round import BoardNow, RoundNow, acting
from play.tournament_round_text import _short_clock
from play.tournament_text import LIMIT, round_now_text
from tests.clock import Clock
from tests.console_run import fresh_console
from tests.test_tournament import CHANNEL, open_one, services
from tests.test_tournament_ratings import proxied  # noqa: F401 (a fixture)

ORGANISER = 1


async def begin(t: TournamentService, players: list[int], rounds: int = 3) -> Tournament:
    """A tournament of `players` started in CHANNEL, its first round's games begun in threads."""
    await open_one(t, players, rounds)
    started = await t.start(CHANNEL, organiser=True)
    await start_games(t)
    return started.tournament


async def start_games(t: TournamentService) -> None:
    tournament = await t.open_in(CHANNEL)
    for board in await t.pending_starts(tournament):
        await t.start_board(board, 1000 + 100 * board.round + board.board)


async def boards_of(t: TournamentService, tournament_id: int, round_no: int) -> list[Board]:
    return [b for b in await t.store.tournament_boards(tournament_id) if b.round == round_no]


def board_of(boards: list[Board], user: int) -> Board:
    return next(b for b in boards if user in (b.first_id, b.second_id))


async def one_board(t: TournamentService, game: str) -> tuple[Tournament, Board]:
    """A one-round tournament of `game` (2 days) for players 11 and 12, started in CHANNEL with its
    one game begun in a thread: the tournament as made, and that game's board."""
    made = await t.create(
        guild_id=5, channel_id=CHANNEL, user_id=ORGANISER, game=game, rounds=1, days=2, organiser=True
    )
    await t.seal_shown(made)  # as the adapter shows it, before anyone may join
    for user in (11, 12):
        await t.join(made, user)
    await t.start(CHANNEL, organiser=True)
    await start_games(t)
    (board,) = await boards_of(t, made.id, 1)
    assert board.thread_id is not None and board.second_id is not None and board.match_id is not None
    return made, board


async def test_a_withdrawn_player_is_not_paired_again_and_their_game_plays_on(store_world):
    db, clock = store_world
    t = services(db, clock)
    tournament = await begin(t, [11, 12, 13, 14])
    mine = board_of(await boards_of(t, tournament.id, 1), 14)
    opponent = mine.first_id if mine.second_id == 14 else mine.second_id
    assert opponent is not None and mine.thread_id is not None

    asked = await t.withdrawal(tournament, 14)  # what the confirmation states; nothing changed yet
    assert (asked.remaining, asked.game, asked.ends) == (3, mine, False)
    question = withdraw_question(asked, PLAIN)
    assert "cannot be undone" in question
    assert f"Your game of this round with @{opponent} plays on in #{mine.thread_id}" in question
    assert "resign it there" in question
    assert not any(e.withdrawn for e in await t.entries(tournament))

    done = await t.withdraw_from(tournament.id, 14)
    assert done.tournament.version > tournament.version  # a sweep that read the players before loses
    assert [e.user_id for e in await t.entries(tournament) if e.withdrawn] == [14]
    assert withdrawn_text(done, PLAIN).startswith(
        f"You have withdrawn from {tournament.name}: you will not be paired again."
    )
    assert withdrawal_notice(done, None, PLAIN) == (
        f"@14 has withdrawn from {tournament.name}: they will not be paired again, and their "
        "results stand; their game of this round plays on."
    )
    # their game plays on, and its result counts: they win it
    match = await db.get_match(mine.match_id or 0)
    assert match.status is Status.ACTIVE
    await t.matches.act(mine.thread_id, opponent, "resign")
    for board in await boards_of(t, tournament.id, 1):
        if board != mine:
            assert board.thread_id is not None
            await t.matches.act(board.thread_id, board.second_id or 0, "resign")
    await t.sweep()
    round2 = await boards_of(t, tournament.id, 2)
    assert 14 not in {u for b in round2 for u in (b.first_id, b.second_id)}
    assert [b.second_id for b in round2].count(None) == 1  # three left: one of them has the bye
    table = await t.table(await t.open_in(CHANNEL), 1)
    line = next(x for x in table.lines if x.user_id == 14)
    assert line.points == 1.0 and line.withdrawn


async def test_the_refusals_say_why_and_change_nothing(store_world):
    db, clock = store_world
    t = services(db, clock)
    await open_one(t, [11, 12, 13])
    signup = await t.open_in(CHANNEL)
    with pytest.raises(BadRequest, match="sign-ups are closed"):  # not running: leaving is `leave`
        await t.withdrawal(signup, 11)
    with pytest.raises(NotAPlayer, match="may remove a player"):
        await t.remove(CHANNEL, 12, organiser=False)
    with pytest.raises(BadRequest, match="@99 is not signed up for this tournament"):
        await t.remove(CHANNEL, 99, organiser=True)
    removed = await t.remove(CHANNEL, 13, organiser=True)  # before the start: off the list
    assert [e.user_id for e in await t.entries(signup)] == [11, 12]
    assert withdrawal_notice(removed, ORGANISER, PLAIN) == (
        f"@1 took @13 off the sign-up list of {signup.name}."
    )
    started = (await t.start(CHANNEL, organiser=True)).tournament
    with pytest.raises(BadRequest, match="You are not playing in this tournament"):
        await t.withdrawal(started, 13)
    with pytest.raises(BadRequest, match="@13 is not playing in this tournament"):
        await t.remove(CHANNEL, 13, organiser=True)
    with pytest.raises(BadRequest, match="has started: withdrawing from it is asked and confirmed"):
        await t.leave(started, 11)
    await t.withdraw_from(started.id, 11)
    with pytest.raises(BadRequest, match="You have already withdrawn from this tournament: you will not be"):
        await t.withdraw_from(started.id, 11)
    with pytest.raises(BadRequest, match="@11 has already withdrawn, left the server or been removed"):
        await t.remove(CHANNEL, 11, organiser=True)
    assert [e.user_id for e in await t.entries(started) if e.withdrawn] == [11]


async def test_an_organiser_removes_a_player_whose_game_plays_on_and_counts(store_world):
    """RULES.md "Leaving": a removed player's game in progress is not stopped; they may still win it."""
    db, clock = store_world
    t = services(db, clock)
    tournament = await begin(t, [11, 12, 13, 14, 15])
    boards = await boards_of(t, tournament.id, 1)
    playing = next(b for b in boards if b.second_id is not None)
    removed, other = playing.first_id, playing.second_id
    assert other is not None and playing.thread_id is not None
    done = await t.remove(CHANNEL, removed, organiser=True)
    assert done.game == playing and done.remaining == 4
    assert withdrawal_notice(done, ORGANISER, PLAIN) == (
        f"@1 removed @{removed} from {tournament.name}: they will not be paired again, and their "
        "results stand; their game of this round plays on."
    )
    assert (await db.get_match(playing.match_id or 0)).status is Status.ACTIVE
    await t.matches.act(playing.thread_id, other, "resign")  # the removed player wins it
    for board in boards:
        if board is not playing and board.second_id is not None:
            assert board.thread_id is not None
            await t.matches.act(board.thread_id, board.first_id, "resign")
    await t.sweep()
    assert board_of(await boards_of(t, tournament.id, 1), removed).result == 1.0
    round2 = await boards_of(t, tournament.id, 2)
    assert removed not in {u for b in round2 for u in (b.first_id, b.second_id)}
    assert len(round2) == 2 and all(b.second_id is not None for b in round2)  # four left: no bye


async def test_the_opponents_tiebreaks_stand_after_a_withdrawal(store_world):
    """Chess arbiters' practice: the withdrawn player's games are played games, so what their
    opponents scored against them and the points they bring to a Buchholz are unchanged; the
    rounds they then sit out count as draws."""
    db, clock = store_world
    t = services(db, clock)
    tournament = await begin(t, [11, 12, 13, 14])
    for board in await boards_of(t, tournament.id, 1):
        assert board.thread_id is not None
        await t.matches.act(board.thread_id, board.second_id or 0, "resign")
    await t.sweep()
    await start_games(t)
    before = await t.table(await t.open_in(CHANNEL))
    loser = before.lines[-1].user_id
    await t.withdraw_from(tournament.id, loser)
    after = await t.table(await t.open_in(CHANNEL))
    shown = {x.user_id: (x.rank, x.points, x.buchholz, x.sonneborn) for x in after.lines}
    assert shown == {x.user_id: (x.rank, x.points, x.buchholz, x.sonneborn) for x in before.lines}
    assert [x.user_id for x in after.lines if x.withdrawn] == [loser]

    # round 2 ends and round 3 is paired without them: the round they sit out counts as a draw in
    # the tiebreaks of everyone who met them (FIDE's article 16; RULES.md "Standings")
    for board in await boards_of(t, tournament.id, 2):
        assert board.thread_id is not None
        await t.matches.act(board.thread_id, board.second_id or 0, "resign")
    await t.sweep()
    round3 = await boards_of(t, tournament.id, 3)
    assert loser not in {u for b in round3 for u in (b.first_id, b.second_id)}
    table = await t.table(await t.open_in(CHANNEL))
    points = {x.user_id: x.points for x in table.lines}
    met: dict[int, list[int]] = {}
    for board in await t.store.tournament_boards(tournament.id):
        if board.second_id is not None:
            met.setdefault(board.first_id, []).append(board.second_id)
            met.setdefault(board.second_id, []).append(board.first_id)
    byes = {b.first_id for b in round3 if b.second_id is None}
    for line in table.lines:
        if line.user_id in (loser, *byes) or loser not in met[line.user_id]:
            continue
        worth = {o: points[o] + (0.5 if o == loser else 0.0) for o in met[line.user_id]}
        assert line.buchholz == sum(worth.values())  # the loser: their points and ½ for round 3
    assert any(loser in met[x.user_id] and x.user_id not in byes for x in table.lines if x.user_id != loser)


async def test_fewer_than_two_players_left_ends_the_tournament_after_the_round(store_world):
    db, clock = store_world
    t = services(db, clock)
    tournament = await begin(t, [11, 12], rounds=3)
    asked = await t.withdrawal(tournament, 12)
    assert asked.ends and asked.remaining == 1
    assert "With only 1 player left to pair, the tournament ends when this round is over." in (
        withdraw_question(asked, PLAIN)
    )
    await t.withdraw_from(tournament.id, 12)
    assert await t.sweep() == []  # the round still runs: their game plays on
    clock.now += 2 * DAY + 1  # the round's days run out; nobody moved, so 11's first turn fell due first
    timed_out, done = await t.sweep()
    assert isinstance(timed_out, Notice) and timed_out.kind == "forfeit" and timed_out.user_id == 11
    table = done.table  # type: ignore[union-attr]
    assert table.final and table.round == 1
    assert [(x.user_id, x.points) for x in table.lines] == [(12, 1.0), (11, 0.0)]
    ended = await t.store.get_tournament(tournament.id)
    assert ended is not None and ended.status is TournamentStatus.FINISHED and ended.round == 1
    with pytest.raises(BadRequest, match="This tournament is over"):
        await t.withdrawal(ended, 11)


async def test_in_the_last_round_the_question_says_nobody_is_paired_again_anyway(store_world):
    db, clock = store_world
    t = services(db, clock)
    tournament = await begin(t, [11, 12], rounds=1)
    asked = await t.withdrawal(tournament, 12)
    assert asked.ends
    question = withdraw_question(asked, PLAIN)
    assert question.startswith(
        f"Withdraw from {tournament.name}? This is the last round, so nobody is paired again anyway; "
        "the standings will show you as withdrawn, and this cannot be undone;"
    )
    assert "ends when this round is over" not in question


async def test_a_sweep_that_read_the_players_before_a_withdrawal_pairs_nothing(store_world):
    """The withdrawal moves the tournament's version: a sweep holding the older one is refused, and
    the next pairs the round without the player."""
    db, clock = store_world
    t = services(db, clock)
    tournament = await begin(t, [11, 12, 13, 14])
    for board in await boards_of(t, tournament.id, 1):
        assert board.thread_id is not None
        await t.matches.act(board.thread_id, board.first_id, "resign")
    stale = await t.store.get_tournament(tournament.id)
    assert stale is not None
    await t.withdraw_from(tournament.id, 11)
    with pytest.raises(TournamentMoved):
        await t.store.advance_tournament(
            stale, status=TournamentStatus.RUNNING, round_no=2, round_ends_at=None, now=clock.now
        )
    await t.sweep()
    round2 = await boards_of(t, tournament.id, 2)
    assert len(round2) == 2 and 11 not in {u for b in round2 for u in (b.first_id, b.second_id)}


@pytest.mark.parametrize("how", ["leave", "left the server"])
async def test_a_withdrawal_between_the_sweeps_read_and_its_commit_is_not_paired(store_world, how):
    """The race: the sweep reads the players, pairs them, then commits the round. A withdrawal that
    lands in between (its own `leave`, or leaving the server) must keep the player out of the round
    being committed, not only the next one: that commit is refused and the next sweep pairs without
    them."""
    db, clock = store_world
    t = services(db, clock)
    tournament = await begin(t, [11, 12, 13, 14])
    for board in await boards_of(t, tournament.id, 1):
        assert board.thread_id is not None
        await t.matches.act(board.thread_id, board.first_id, "resign")
    commit = t.store.advance_tournament
    raced: list[int] = []

    async def withdraw_then_commit(*args: Any, **kwargs: Any) -> Tournament:
        if not raced:  # the sweep has read the players and paired them: now the withdrawal lands
            raced.append(11)
            if how == "leave":
                await t.withdraw_from(tournament.id, 11)
            else:
                await t.withdraw(tournament.guild_id, 11)
        return await commit(*args, **kwargs)

    t.store.advance_tournament = withdraw_then_commit  # type: ignore[method-assign]
    await t.sweep()
    assert raced == [11]
    assert [e.user_id for e in await t.entries(tournament) if e.withdrawn] == [11]
    await t.sweep()
    round2 = await boards_of(t, tournament.id, 2)
    assert len(round2) == 2  # three left: a game and a bye
    assert 11 not in {u for b in round2 for u in (b.first_id, b.second_id)}


async def test_leaving_the_server_while_round_1_is_paired_refuses_the_start(store_world):
    """The same race at the start: the organiser's start read the list, and a player left the server
    (which takes them off it) before the pairing was written. The start is refused, nobody is paired,
    and starting again pairs those still signed up."""
    db, clock = store_world
    t = services(db, clock)
    await open_one(t, [11, 12, 13, 14])
    made = await t.open_in(CHANNEL)
    commit = t.store.advance_tournament
    raced: list[int] = []

    async def leave_then_commit(*args: Any, **kwargs: Any) -> Tournament:
        if not raced:
            raced.append(14)
            await t.withdraw(made.guild_id, 14)
        return await commit(*args, **kwargs)

    t.store.advance_tournament = leave_then_commit  # type: ignore[method-assign]
    with pytest.raises(BadRequest, match="Someone joined or left just now"):
        await t.start(CHANNEL, organiser=True)
    assert await t.store.tournament_boards(made.id) == []
    assert (await t.open_in(CHANNEL)).status is TournamentStatus.SIGNUP
    await t.start(CHANNEL, organiser=True)
    round1 = await t.store.tournament_boards(made.id)
    assert sorted(u for b in round1 for u in (b.first_id, b.second_id) if u is not None) == [11, 12, 13]


# --- the round's view ------------------------------------------------------------------------------


async def test_the_round_view_names_each_board_as_it_stands(store_world):
    db, clock = store_world
    t = services(db, clock)
    with pytest.raises(BadRequest, match="no tournament"):
        await t.round_of(CHANNEL)
    await open_one(t, [11, 12, 13, 14, 15])
    with pytest.raises(BadRequest, match="has not started yet"):
        await t.round_of(CHANNEL)
    tournament = (await t.start(CHANNEL, organiser=True)).tournament
    boards = await boards_of(t, tournament.id, 1)
    fresh = await t.round_of(CHANNEL)  # paired, the threads not made yet
    assert [b.started for b in fresh.boards] == [b.second_id is None for b in boards]
    assert "the game is being set up." in round_now_text(fresh, PLAIN)
    await start_games(t)
    boards = await boards_of(t, tournament.id, 1)
    games = [b for b in boards if b.second_id is not None]
    bye = next(b.first_id for b in boards if b.second_id is None)
    won, running = games
    assert won.thread_id is not None and running.thread_id is not None
    await t.matches.act(won.thread_id, won.second_id or 0, "resign")  # over, not yet swept
    await t.withdraw_from(tournament.id, running.first_id)
    now = await t.round_of(CHANNEL)
    assert [b.result for b in now.boards if b.board.second_id is not None] == [1.0, None]
    (mover,) = next(b.to_move for b in now.boards if b.board == running)
    match = await db.get_match(running.match_id or 0)
    assert mover == match.turn_player_id and mover in (running.first_id, running.second_id)
    text = round_now_text(now, PLAIN)
    lines = text.splitlines()
    ends = tournament.round_ends_at or 0
    assert lines[0] == (
        f"{tournament.name}, round 1 of 3: 1 of 2 games over; the round ends at {int(ends)}. "
        "The first named plays the Germans."
    )
    name = {u: f"@{u}" + (" (withdrawn)" if u == running.first_id else "") for u in range(11, 16)}
    assert lines[won.board] == (
        f"{won.board}. {name[won.first_id]} v {name[won.second_id or 0]} in #{won.thread_id}: "
        f"@{won.first_id} won."
    )
    assert lines[running.board] == (
        f"{running.board}. {name[running.first_id]} v {name[running.second_id or 0]} in "
        f"#{running.thread_id}: @{mover} to move; clocks: 1 day left for @{running.first_id}, 1 day for "
        f"@{running.second_id}."
    )
    bye_board = next(b.board for b in boards if b.second_id is None)
    assert lines[bye_board] == f"{bye_board}. @{bye} has the bye (a win)."
    assert len(lines) == 4  # the withdrawn player sits at a board: no list of others at the end


def discord_round(players: int, withdrawn: int = 0, together: bool = False) -> RoundNow:
    """A round of `players` at its busiest in words: every board running, real Discord-sized ids
    (19 digits), a long name, every thread made, some players withdrawn (`together`: both players of
    every board setting up at once)."""
    base = 1_234_567_890_123_456_789
    tournament = Tournament(
        id=1,
        guild_id=5,
        channel_id=100,
        game="blockwars",
        options={},
        name="The Winter Championship of the Old Comrades of the Somme, 16",  # the longest allowed
        rounds=7,
        round_seconds=7 * DAY,
        status=TournamentStatus.RUNNING,
        round=4,
        round_ends_at=1_800_000_000.0,
        announced=3,
        message_id=None,
        created_by=1,
        version=9,
        created_at=0.0,
    )
    boards = []
    for n in range(players // 2):
        first, second = base + 2 * n, base + 2 * n + 1
        board = Board(1, 4, n + 1, first, second, base + 1000 + n, base + 2000 + n, None)
        # the clock of the player to move at its widest short form ("13h 37m", "13h"), the other's
        # days and hours: half of a 7-day round each at most
        mover, other = (10 + n % 14) * 3600 + 37 * 60.0, 2 * DAY + 5 * 3600.0
        left = (other, mover) if n % 2 else (mover, other)
        movers = (first, second) if together else (second if n % 2 else first,)
        boards.append(BoardNow(board, None, movers, True, left))
    if players % 2:
        bye = Board(1, 4, players // 2 + 1, base + players - 1, None, None, None, 1.0)
        boards.append(BoardNow(bye, 1.0, (), True))
    from engine import registry

    gone = frozenset(base + 2 * n for n in range(withdrawn))
    return RoundNow(tournament, registry.game("blockwars"), boards, gone)


def test_the_round_view_of_64_players_fits_one_message_with_the_clock_of_each_player_to_move():
    small = round_now_text(discord_round(8), DISCORD)
    assert "Shortened" not in small and "<#" in small and "to move; clocks: " in small
    text = round_now_text(discord_round(64), DISCORD)
    assert len(text) <= LIMIT
    lines = text.splitlines()
    assert len(lines) == 1 + 32 + 1  # every board is shown, each on one line
    assert lines[-1] == (
        "Shortened to fit one message: ▶ marks whose move it is and the time left on their clock; "
        "the threads are in this channel."
    )
    assert lines[1] == "▶<@1234567890123456789> 10h v <@1234567890123456790>"
    assert lines[2] == "<@1234567890123456791> v ▶<@1234567890123456792> 11h"
    assert all(re.search(r"▶<@\d+> \d+h", line) for line in lines[1:-1])
    assert "<t:1800000000:R>" in lines[0]
    odd = round_now_text(discord_round(65, withdrawn=2), DISCORD)  # a bye and 2 marked withdrawn
    assert len(odd) <= LIMIT and "Shortened to fit one message" in odd
    assert "(withdrawn)" in odd and odd.splitlines()[-2].endswith(": bye")


def test_the_round_view_of_64_players_setting_up_at_once_marks_both_and_fits_one_message():
    full = round_now_text(discord_round(4, together=True), DISCORD)
    assert "<@1234567890123456789> and <@1234567890123456790> both to move; clocks: " in full
    text = round_now_text(discord_round(64, together=True), DISCORD)
    assert len(text) <= LIMIT
    lines = text.splitlines()
    assert len(lines) == 1 + 32 + 1  # every board is shown, each on one line
    assert all(line.count("▶") == 2 for line in lines[1:-1])
    assert lines[1].startswith("▶<@1234567890123456789>") and " v ▶<@1234567890123456790>" in lines[1]


async def test_the_round_view_names_both_players_of_a_simultaneous_set_up(store_world):
    """Fix Bayonets' deployment: both players act at once, so the round view names both (it
    followed the match's one `turn_player_id`), then only the one still to deploy."""
    db, clock = store_world
    t = services(db, clock)
    _, board = await one_board(t, "fixbayonets")
    assert board.second_id is not None and board.thread_id is not None
    now = await t.round_of(CHANNEL)
    assert now.boards[0].to_move == (board.first_id, board.second_id)
    line = round_now_text(now, PLAIN).splitlines()[1]
    assert f": @{board.first_id} and @{board.second_id} both to move; clocks: " in line
    match = await db.get_match(board.match_id or 0)
    assert acting(replace(match, game_clock=None)) == (board.first_id, board.second_id)  # read from play
    await t.matches.act(board.thread_id, board.first_id, "setup std")
    now = await t.round_of(CHANNEL)
    assert now.boards[0].to_move == (board.second_id,)
    line = round_now_text(now, PLAIN).splitlines()[1]
    assert f": @{board.second_id} to move; clocks: " in line


def test_a_mid_sized_round_view_shows_both_clocks_on_its_short_lines():
    """24 players: the full lines (thread, whose move, both clocks in words) do not fit one message,
    the short ones with both clocks do."""
    text = round_now_text(discord_round(24), DISCORD)
    assert len(text) <= LIMIT
    lines = text.splitlines()
    assert len(lines) == 1 + 12 + 1
    assert lines[1] == "▶<@1234567890123456789> 10h 37m v <@1234567890123456790> 2d 5h"
    assert lines[2] == "<@1234567890123456791> 2d 5h v ▶<@1234567890123456792> 11h 37m"
    assert "beside each name, the time left on that player's clock" in lines[-1]


def test_a_short_clock_is_rounded_down_never_up():
    assert _short_clock(DAY + 23 * 3600 + 59 * 60, 2) == "1d 23h"
    assert _short_clock(DAY + 23 * 3600 + 59 * 60, 1) == "1d"
    assert _short_clock(DAY + 59, 2) == "1d"  # no "0h"
    assert _short_clock(5 * 60 + 59, 1) == "5m"
    assert _short_clock(59, 2) == "<1m"


def test_the_round_view_cuts_the_last_boards_when_even_the_short_lines_do_not_fit():
    text = round_now_text(discord_round(64, withdrawn=32), DISCORD)
    assert len(text) <= LIMIT
    tail = text.splitlines()[-1]
    assert tail.startswith("Shortened to fit one message") and "more boards not shown here." in tail


# --- the sweep reads a round's matches in one query -------------------------------------------------


async def test_the_sweep_reads_a_rounds_matches_in_one_statement_whatever_its_size(tmp_path: Path):
    found = []
    for players in (4, 40):
        clock = Clock()
        db = await Database.open(tmp_path / f"{players}.db", clock=clock)
        try:
            t = TournamentService(db, MatchService(db, clock=clock, rng=random.Random(3)), clock=clock)
            await begin(t, list(range(100, 100 + players)), rounds=2)
            assert isinstance(db, SqliteDatabase)
            traced: list[str] = []
            for conn in (db._conn, db._reader):
                await conn.set_trace_callback(traced.append)
            count = functools.partial(len, traced)
            before = count()
            assert await t.sweep() == []  # every game still going: nothing recorded
            found.append(count() - before)
            assert sum("FROM matches" in s for s in traced) == 0
            assert sum("JOIN matches" in s for s in traced) == 1
        finally:
            await db.close()
    assert found[0] == found[1]


async def test_the_sweep_takes_the_same_round_trips_for_two_boards_or_twenty_on_postgresql(
    proxied: tuple[Database, PgProxy],  # noqa: F811
):
    db, proxy = proxied
    assert isinstance(db, PostgresDatabase)
    found = []
    for players in (4, 40):
        clock = Clock()
        t = TournamentService(db, MatchService(db, clock=clock, rng=random.Random(3)), clock=clock)
        await begin(t, list(range(100, 100 + players)), rounds=2)
        assert await t.sweep() == []  # warm: PostgreSQL prepares a statement on its first use
        before = proxy.round_trips
        assert await t.sweep() == []
        found.append(proxy.round_trips - before)
        await t.cancel(CHANNEL, organiser=True)  # the channel is free for the next size
    assert found[0] == found[1]


async def test_the_console_withdraws_removes_and_shows_the_round(tmp_path: Path):
    """The console has no buttons: `leave` once it runs asks, `leave confirm` withdraws; `remove`
    and `round` as in Discord, in the console's plain words."""
    from console import names

    async with fresh_console(tmp_path) as (console, out):
        first = names.user_name(console.my_id)
        for line in (
            "/tournament create game:blockwars rounds:2 days:1 name:Club",
            "/tournament join",
            "/as bob",
            "/tournament join",
            "/as carol",
            "/tournament join",
            "/tournament start",
            "/tournament round",
        ):
            await console.handle(line)
        text = out.getvalue()
        assert "Club, round 1 of 2: 0 of 1 game over; the round ends" in text
        assert "has the bye (a win)." in text and " to move; clocks: 12 hours left for @" in text
        tournament = await TournamentService.over(console.service).open_in(names.channel_id("general"))
        service = console.tournaments.service
        (game,) = [b for b in await service.store.tournament_boards(tournament.id) if b.second_id]
        leaver = names.user_name(game.first_id)
        await console.handle(f"/as {leaver}")
        await console.handle("/tournament leave")
        assert "Withdraw from Club? You will not be paired in any later round" in out.getvalue()
        assert "Type `/tournament leave confirm` to withdraw." in out.getvalue()
        assert not any(e.withdrawn for e in await service.entries(tournament))
        await console.handle("/tournament leave confirm")
        assert "You have withdrawn from Club: you will not be paired again." in out.getvalue()
        assert f"@{leaver} has withdrawn from Club" in out.getvalue()
        other = next(n for n in (first, "bob", "carol") if names.user_id(n) != game.first_id)
        await console.handle(f"/tournament remove member:{other}")
        assert f"removed @{other} from Club: they will not be paired again" in out.getvalue()
        await console.handle(f"/tournament remove member:{other}")
        assert f"✗ @{other} has already withdrawn, left the server or been removed" in out.getvalue()
        gone = [e.user_id for e in await service.entries(tournament) if e.withdrawn]
        assert sorted(gone) == sorted([game.first_id, names.user_id(other)])
        assert console.refused == 1
