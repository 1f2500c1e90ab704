"""The standings' rating change is what each of the tournament's own games really did to a rating,
recorded when the game was rated (migration 0008) and read in one query, on both stores.

Before, the column replayed Elo over the tournament's boards from the ratings at its start: a rated
game a player played outside the tournament between two rounds moved the rating their next
tournament game started from, which the replay never knew, and every board's match was read one by
one to learn whether it had been rated.
"""

from __future__ import annotations

import functools
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bench.pgproxy import PgProxy
from data import Database, PostgresDatabase, SqliteDatabase, Status, elo
from data.tournaments import Board
from play import MatchService
from play.tournament import RoundDone, TournamentService
from tests import pgserver
from tests.benchrun import last_figures
from tests.clock import Clock
from tests.round_end import going_at_the_round_end
from tests.test_tournament import open_one, services

GUILD, CHANNEL, ORGANISER, GAME = 5, 100, 1, "blockwars"
OUTSIDER, BOT = 99, 98


@pytest.fixture
async def proxied(
    monkeypatch: pytest.MonkeyPatch, pg_server: pgserver.PgServer, pg_url: str
) -> AsyncIterator[tuple[Database, PgProxy]]:
    """A PostgreSQL store of one connection reached through a proxy that counts its round trips
    (as tests/test_round_trips.py does): one connection, so no second one prepares its statements."""
    monkeypatch.setattr("data.postgres.POOL_SIZE", 1)
    proxy = await PgProxy(str(pg_server.root)).start()
    database = urlsplit(pg_url).path.lstrip("/")
    try:
        async with Database.open(proxy.url(pgserver.USER, pgserver.PASSWORD, database), clock=Clock()) as db:
            yield db, proxy
    finally:
        await proxy.stop()


async def begin(t: TournamentService, players: list[int], rounds: int) -> int:
    """A tournament of `players` started in CHANNEL, its first round's games begun; its id."""
    await open_one(t, players, rounds)
    started = await t.start(CHANNEL, organiser=True)
    await start_games(t)
    return started.tournament.id


async def start_games(t: TournamentService) -> None:
    """What the adapter does: a thread per pairing (numbered after the match ids), the game in it."""
    tournament = await t.open_in(CHANNEL)
    for board in await t.pending_starts(tournament):
        await t.start_board(board, 1000 + 100 * board.round + board.board)


async def round_boards(t: TournamentService, tournament_id: int, round_no: int) -> list[Board]:
    return [b for b in await t.store.tournament_boards(tournament_id) if b.round == round_no]


async def rating(db: Database, user: int) -> float:
    return (await db.player_stats(GUILD, GAME, user)).rating


async def resign(t: TournamentService, board: Board, loser: int, deltas: dict[int, float]) -> None:
    """`loser` resigns the board's game; what it did to both ratings is added to `deltas`, read from
    the players' stats either side of it (not from anything the standings compute)."""
    assert board.thread_id is not None and board.second_id is not None
    players = (board.first_id, board.second_id)
    before = [await rating(t.db, user) for user in players]
    await t.matches.act(board.thread_id, loser, "resign")
    for user, was in zip(players, before, strict=True):
        deltas[user] = deltas.get(user, 0.0) + await rating(t.db, user) - was


async def recorded(db: Database, match_id: int) -> list[tuple[int, float, float]]:
    """The rows the result wrote for `match_id`, read behind the standings' back."""
    rows = await db._query(
        "SELECT user_id, rating_before, rating_after FROM rating_changes WHERE match_id = ? ORDER BY user_id",
        (match_id,),
    )
    return [(int(r["user_id"]), float(r["rating_before"]), float(r["rating_after"])) for r in rows]


def replayed(start: dict[int, float], boards: list[Board]) -> dict[int, float]:
    """What the column used to show: Elo replayed in round order from the ratings at the start."""
    now, change = dict(start), dict.fromkeys(start, 0.0)
    for b in sorted(boards, key=lambda b: (b.round, b.board)):
        if b.second_id is None or b.result is None:
            continue
        after = elo.updated(now[b.first_id], now[b.second_id], b.result)
        for user, new in zip((b.first_id, b.second_id), after, strict=True):
            change[user] += new - now[user]
            now[user] = new
    return change


async def test_a_rated_game_outside_the_tournament_between_rounds_does_not_bend_the_change(store_world):
    db, clock = store_world
    t = services(db, clock)
    players = [11, 12, 13, 14]
    tid = await begin(t, players, rounds=2)
    deltas: dict[int, float] = {}
    for board in await round_boards(t, tid, 1):
        assert board.second_id is not None
        await resign(t, board, board.second_id, deltas)
    await t.sweep()  # round 1 closed, round 2 paired
    await start_games(t)
    round2 = await round_boards(t, tid, 2)
    # between the rounds a player of round 2 loses a rated game outside the tournament
    wanderer = round2[0].first_id
    await t.matches.challenge(
        game=GAME, guild_id=GUILD, channel_id=777, challenger_id=wanderer, opponent_id=OUTSIDER
    )
    await t.matches.accept(777, OUTSIDER)
    await t.matches.act(777, wanderer, "resign")
    # round 2 finishes in the other order of boards
    for board in reversed(round2):
        await resign(t, board, board.first_id, deltas)
    (table,) = [d.table for d in await t.sweep() if isinstance(d, RoundDone) and d.table.round == 2]
    assert table.final
    change = {line.user_id: line.change for line in table.lines}
    assert change == {user: pytest.approx(deltas[user]) for user in players}
    assert sum(change.values()) == pytest.approx(0.0)  # between people Elo is zero-sum
    # what the column used to show differs for the player who played outside
    boards = await t.store.tournament_boards(tid)
    old = replayed({user: elo.START_RATING for user in players}, boards)
    assert old[wanderer] != pytest.approx(deltas[wanderer])
    # and the outside game is in their rating, not in the column
    assert await rating(db, wanderer) - elo.START_RATING != pytest.approx(change[wanderer])
    # the standings after round 1 hold round 1's games only
    after1 = {line.user_id: line.change for line in (await t.table(table.tournament, 1)).lines}
    won = elo.updated(elo.START_RATING, elo.START_RATING, 1.0)[0] - elo.START_RATING  # all started equal
    winners = {b.first_id for b in boards if b.round == 1}
    assert after1 == {user: pytest.approx(won if user in winners else -won) for user in players}


async def test_a_bye_and_a_game_stopped_at_the_rounds_end_move_no_rating(store_world):
    db, clock = store_world
    t = services(db, clock)
    tid = await begin(t, [11, 12, 13], rounds=1)
    (game, bye) = sorted(await round_boards(t, tid, 1), key=lambda b: b.second_id is None)
    assert bye.second_id is None and game.match_id is not None and game.second_id is not None
    await going_at_the_round_end(t, tid, game.match_id, clock)  # its turn runs past the round's end
    clock.now = (await t.by_id(tid)).round_ends_at or 0
    clock.now += 1  # the round's days run out: the game is stopped, a draw unrated
    (done,) = await t.sweep()
    lines = {line.user_id: line for line in done.table.lines}  # type: ignore[union-attr]
    assert lines[bye.first_id].points == 1.0 and lines[bye.first_id].change == 0.0
    assert [(lines[u].points, lines[u].change) for u in (game.first_id, game.second_id)] == [(0.5, 0.0)] * 2
    assert (await db.get_match(game.match_id)).status is Status.CANCELLED
    assert await recorded(db, game.match_id) == []
    (stopped,) = await t.store.game_ratings(tid)  # the bye has no match
    assert (stopped.finished, stopped.changes) == (False, {})


async def test_a_cancelled_tournament_shows_no_change_for_its_stopped_games(store_world):
    db, clock = store_world
    t = services(db, clock)
    tid = await begin(t, [11, 12, 13, 14], rounds=3)
    boards = await round_boards(t, tid, 1)
    deltas: dict[int, float] = {}
    assert boards[0].second_id is not None
    await resign(t, boards[0], boards[0].second_id, deltas)  # one game ends, the other is going
    await t.sweep()
    await t.cancel(CHANNEL, organiser=True)
    table = await t.standings_of(CHANNEL)
    change = {line.user_id: line.change for line in table.lines}
    assert change == {u: pytest.approx(deltas.get(u, 0.0)) for u in (11, 12, 13, 14)}
    assert boards[1].match_id is not None and await recorded(db, boards[1].match_id) == []


async def test_each_rated_result_records_the_ratings_it_moved_and_against_the_ai_only_the_persons(
    store_world,
):
    db, clock = store_world
    service = MatchService(db, clock=clock, rng=random.Random(3))
    # between people: both rows, as the stats moved
    await service.challenge(game=GAME, guild_id=GUILD, channel_id=1, challenger_id=11, opponent_id=12)
    await service.accept(1, 12)
    done = await service.act(1, 12, "resign")
    rows = await recorded(db, done.match.id)
    assert [(u, b) for u, b, _ in rows] == [(11, elo.START_RATING), (12, elo.START_RATING)]
    assert [a for _, _, a in rows] == [await rating(db, 11), await rating(db, 12)]
    # against the AI: the person's row only, against the level's fixed rating
    await service.challenge(
        game=GAME,
        guild_id=GUILD,
        channel_id=2,
        challenger_id=12,
        opponent_id=BOT,
        side="canadians",
        opponent_is_bot=True,
        ai_level="easy",
    )
    before = await rating(db, 12)
    lost = await service.act(2, 12, "resign")
    assert lost.match.ai_player_id == BOT and lost.match.status is Status.FINISHED
    assert await recorded(db, lost.match.id) == [(12, before, await rating(db, 12))]
    assert await rating(db, 12) < before
    # a game an admin cancels mid-way: no rating moved, nothing recorded
    m = await service.challenge(game=GAME, guild_id=GUILD, channel_id=3, challenger_id=11, opponent_id=13)
    await service.accept(3, 13)
    await service.cancel(3, 0, is_admin=True)
    assert (await db.get_match(m.id)).status is Status.CANCELLED
    assert await recorded(db, m.id) == []
    assert await rating(db, 13) == elo.START_RATING


# --- a fixed number of statements, whatever the number of boards ------------------------------------


async def played_out(db: Database, players: int) -> TournamentService:
    """A one-round tournament of `players` people, every game resigned, the round swept."""
    clock = Clock()
    t = TournamentService(db, MatchService(db, clock=clock, rng=random.Random(2)), clock=clock)
    tid = await begin(t, list(range(100, 100 + players)), rounds=1)
    for board in await round_boards(t, tid, 1):
        if board.second_id is not None:
            await resign(t, board, board.second_id, {})
    await t.sweep()
    return t


async def standings_statements(t: TournamentService, count: Callable[[], int]) -> int:
    """How many statements drawing the standings costs, on a store already warm (PostgreSQL prepares
    a statement on a connection's first use of it: one more trip, once)."""
    table = await t.standings_of(CHANNEL)
    assert sum(line.change for line in table.lines) == pytest.approx(0.0)
    before = count()
    again = await t.standings_of(CHANNEL)
    assert again == table
    return int(count() - before)


async def test_the_standings_take_the_same_few_statements_for_two_boards_or_twenty_on_sqlite(tmp_path: Path):
    found = []
    for players in (4, 40):
        db = await Database.open(tmp_path / f"{players}.db", clock=Clock())
        try:
            t = await played_out(db, players)
            assert (
                len(await t.store.game_ratings((await t.standings_of(CHANNEL)).tournament.id)) == players // 2
            )
            assert isinstance(db, SqliteDatabase)
            traced: list[str] = []
            for conn in (db._conn, db._reader):  # the writer and the reader: every statement either runs
                await conn.set_trace_callback(traced.append)
            found.append(await standings_statements(t, functools.partial(len, traced)))
        finally:
            await db.close()
    # the tournament, its players, its boards, their rating changes: not one query per board
    assert found == [4, 4]


async def test_the_standings_take_the_same_few_round_trips_for_two_boards_or_twenty_on_postgresql(
    proxied: tuple[Database, PgProxy],
):
    db, proxy = proxied
    assert isinstance(db, PostgresDatabase)
    found = []
    for players in (4, 40):  # one channel: the first tournament is over when the second is made
        t = await played_out(db, players)
        await db.announced()
        found.append(await standings_statements(t, lambda: proxy.round_trips))
    assert found == [4, 4]


def test_the_standings_bench_runs_and_ends_with_its_figures() -> None:
    """bench/standings.py (docs/performance.md), at its smallest: it must not rot unseen."""
    figures = last_figures("standings.py", "--players", "4", "--rounds", "1", "--draws", "2")
    assert figures["bench"] == "standings" and figures["players"] == 4
    assert figures["sqlite"]["median_ms"] > 0 and "postgresql" not in figures
