"""Writes computed from a read that another writer changes before the write lands, each made to
happen every time: one process (or two, on PostgreSQL) pauses at the point between its read and its
write while the other's command lands whole (docs/architecture.md, "Reads and the writes made of
them"). Each failed before its fix."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from data import Database
from play import BadRequest, MatchService, NoMatch
from play.results import Notice
from tests.fakediscord.fixtures import HandClock
from tests.pgraces import World, cancel_tournament, game, signup
from tests.test_tournament import CHANNEL, open_one, services

DAY = 86400


@pytest.fixture
async def world(pg_url: str) -> AsyncIterator[World]:
    w = World(pg_url)
    try:
        yield w
    finally:
        await w.close()


def first_call_runs(obj: Any, name: str, before: Callable[[], Awaitable[Any]], done: list[Any]) -> None:
    """`obj.name`'s first call runs `before` whole first (its result kept in `done`): the other
    writer landing in the moment between this one's read and its write."""
    real = getattr(obj, name)

    async def paused(*args: Any, **kwargs: Any) -> Any:
        if not done:
            done.append(await before())
        return await real(*args, **kwargs)

    setattr(obj, name, paused)


def reminders(notices: list[Notice]) -> list[Notice]:
    return [n for n in notices if n.kind == "reminder"]


async def reminder_against_away(
    sweeper: MatchService, goer: MatchService, now: Callable[[float], None]
) -> None:
    """`sweeper`'s sweep finds a turn's reminder due; before it marks it sent, the player on turn
    goes away for 5 days (through `goer`), which moves the turn's deadline and its reminder, owed
    again. The sweep must not send the reminder it read (no longer due, and naming the old deadline)
    nor mark the moved one sent: it comes when it is due."""
    guild, channel = 77 << 22, 4242
    await sweeper.challenge(
        guild_id=guild, channel_id=channel, challenger_id=10, opponent_id=20, game="blockwars", side="germans"
    )
    match = await sweeper.accept(channel, 20)
    assert match.turn_player_id == 10 and match.reminder_at is not None and match.deadline is not None
    now(match.reminder_at + 1)
    gone: list[Any] = []
    first_call_runs(sweeper.db, "mark_reminded", lambda: goer.away(guild, 10, 5), gone)
    told = reminders(await sweeper.sweep())
    assert gone, "the sweep found no reminder due"
    assert told == [], f"a reminder sent as the player went away, due {told[0].due} (not moved)"
    stored = await sweeper.db.get_match(match.id)
    assert (stored.deadline, stored.reminder_at) == (match.deadline + 5 * DAY, match.reminder_at + 5 * DAY)
    assert not stored.reminded, "the moved reminder was marked sent"
    assert stored.reminder_at is not None
    now(stored.reminder_at + 1)
    (later,) = reminders(await sweeper.sweep())
    assert later.user_id == 10 and later.due == stored.deadline


async def test_a_reminder_read_due_as_its_player_goes_away_waits_for_the_moved_one(store: str) -> None:
    """One process (either store): the sweep and the `away` meet between the sweep's read of the
    due reminders and its mark; nothing else holds the two apart (the sweep takes no game's lock)."""
    clock = HandClock()
    db = await Database.open(store, clock=clock)
    try:
        svc = MatchService(db, clock=clock, rng=random.Random(5))

        def at(t: float) -> None:
            clock.now = t

        await reminder_against_away(svc, svc, at)
    finally:
        await db.close()


async def test_a_reminder_read_due_as_its_player_goes_away_elsewhere_waits(world: World) -> None:
    """The same between two processes on PostgreSQL: the away in one, the sweep in the other."""
    a, b = await world.start(2, seed=51)

    def at(t: float) -> None:
        world.now = t

    await reminder_against_away(a.service, b.service, at)


async def test_a_read_of_the_game_that_a_move_overtook_does_not_hide_the_move_from_an_away(
    store: str,
) -> None:
    """One process (either store): a read of the channel's game from the store (memory had none:
    evicted, or after a restart) is overtaken by a move handing the turn over, which remembers its
    new row; the read, coming back, must not put the older row back in memory. Before, it did, and
    the waiting player's `away` then moved the clocks of the game as that row had it (not their
    turn): their turn's clock ran while they were away."""
    clock = HandClock()
    db = await Database.open(store, clock=clock)
    try:
        svc = MatchService(db, clock=clock, rng=random.Random(6))
        guild, channel = 78 << 22, 4343
        await svc.challenge(
            guild_id=guild,
            channel_id=channel,
            challenger_id=10,
            opponent_id=20,
            game="blockwars",
            side="germans",
        )
        match = await svc.accept(channel, 20)
        assert match.turn_player_id == 10
        svc.forget(channel)  # not in memory: the next read goes to the store
        real = db.get_channel_match
        moved: list[Any] = []

        async def overtaken(channel_id: int) -> Any:
            row = await real(channel_id)
            if not moved:  # read; then the move lands whole before the read is remembered
                db.get_channel_match = real  # type: ignore[method-assign]
                moved.append(await svc.act(channel, 10, "setup std"))
            return row

        db.get_channel_match = overtaken  # type: ignore[method-assign]
        seen, _ = await svc.current(channel)
        assert moved and moved[0].match.turn_player_id == 20
        assert seen.version == moved[0].match.version, "the read put the older row back"
        away = await svc.away(guild, 20, 5)
        assert away.until is not None and [g.id for g in away.games] == [match.id]
        stored = await db.get_match(match.id)
        assert stored.turn_player_id == 20 and stored.deadline == away.until + match.turn_seconds
    finally:
        await db.close()


async def test_a_read_of_the_game_that_its_end_overtook_does_not_bring_it_back(store: str) -> None:
    """One process (either store): a read of the channel's game from the store is overtaken by a
    resignation that ends it. The read, coming back, must not put the game back in memory as still
    going: before, the channel's board and the next command read it as going (and a move on it
    was refused as out of date, not as the game being over)."""
    clock = HandClock()
    db = await Database.open(store, clock=clock)
    try:
        svc = MatchService(db, clock=clock, rng=random.Random(7))
        channel = 4444
        await svc.challenge(
            guild_id=78 << 22, channel_id=channel, challenger_id=10, opponent_id=20, game="blockwars"
        )
        await svc.accept(channel, 20)
        svc.forget(channel)
        real = db.get_channel_match
        ended: list[Any] = []

        async def overtaken(channel_id: int) -> Any:
            row = await real(channel_id)
            if not ended:
                db.get_channel_match = real  # type: ignore[method-assign]
                ended.append(await svc.act(channel, 20, "resign"))
            return row

        db.get_channel_match = overtaken  # type: ignore[method-assign]
        with pytest.raises(NoMatch, match="is over"):
            await svc.current(channel)
        assert ended and ended[0].over
        with pytest.raises(NoMatch, match="is over"):
            await svc.act(channel, 10, "resign")
    finally:
        await db.close()


async def test_a_read_that_another_processs_move_overtook_is_not_kept(world: World) -> None:
    """Two processes on PostgreSQL: process A reads the channel's game from the store (it had no
    copy); before the read is kept, process B stores a move and A hears of it (nothing of that game
    in A's memory to drop then). A must not keep the older row it read: before, it served it (the
    board, the turn) until a move on it was refused as out of date."""
    a, b = await world.start(2, seed=53)
    channel = world.channel()
    player, version = await game(b, channel)
    real = a.db.get_channel_match
    moved: list[Any] = []
    heard = asyncio.Event()  # A's listeners are told in order: its service's first, then this one
    a.db.watch(lambda change: heard.set() if change is not None and change.channel_id == channel else None)

    async def overtaken(channel_id: int) -> Any:
        row = await real(channel_id)
        if not moved:
            a.db.get_channel_match = real  # type: ignore[method-assign]
            heard.clear()
            moved.append(await b.service.act(channel, player, "setup std"))
            await asyncio.wait_for(heard.wait(), 30)  # A has heard of B's move (30 s: a loaded machine)
        return row

    a.db.get_channel_match = overtaken  # type: ignore[method-assign]
    seen, _ = await a.service.current(channel)
    assert moved and seen.version == version + 1, "A kept the row its read found"


async def test_a_move_overtaken_by_another_processs_move_before_it_is_kept_is_not_kept(world: World) -> None:
    """Two processes on PostgreSQL: process A stores a move (the turn passes); before A keeps its new
    row in memory, the next player's move is stored by process B and A hears of it (its copy, still
    the older one, is dropped then). A must not then keep its own row, older than B's: before, it
    served it, and the player whose turn it now was heard from A that it was not their turn."""
    a, b = await world.start(2, seed=54)
    channel = world.channel()
    player, version = await game(a, channel)
    other = 20 if player == 10 else 10
    await a.service.current(channel)
    real = a.db.commit_action
    answered: list[Any] = []
    heard = asyncio.Event()
    a.db.watch(lambda change: heard.set() if change is not None and change.channel_id == channel else None)

    async def overtaken(*args: Any, **kwargs: Any) -> Any:
        row = await real(*args, **kwargs)
        a.db.commit_action = real  # type: ignore[method-assign]
        heard.clear()
        answered.append(await b.service.act(channel, other, "setup std"))
        await asyncio.wait_for(heard.wait(), 30)  # A has heard of B's move (30 s: a loaded machine)
        return row

    a.db.commit_action = overtaken  # type: ignore[method-assign]
    await a.service.act(channel, player, "setup std")
    assert answered and answered[0].match.version == version + 2
    seen, _ = await a.service.current(channel)
    assert seen.version == version + 2, "A kept its own row, older than the move it heard of"


async def test_an_away_whose_game_moves_on_elsewhere_before_its_clock_is_moved_moves_it(world: World) -> None:
    """Two processes on PostgreSQL, Fix Bayonets' set-up made by both sides at once: the player on
    turn goes away in one; in the other, their opponent sets up (no new clock: the turn still waits
    on the player away), landing between the away's read of the game and its clock shift. The shift
    must still land, on the game as it now is. Before, the shift was refused by the version and given
    up: the turn's clock ran while its player was away."""
    a, b = await world.start(2, seed=52)
    guild, channel = (79 << 22), world.channel()
    await a.service.challenge(
        guild_id=guild,
        channel_id=channel,
        challenger_id=10,
        opponent_id=20,
        game="fixbayonets",
        side="germans",
    )
    match = await a.service.accept(channel, 20)
    assert match.turn_player_id == 20 and match.deadline is not None
    setup = (await b.service.legal(channel, 10))[0]
    done: list[Any] = []
    first_call_runs(a.db, "shift_clock", lambda: b.service.act(channel, 10, setup), done)
    away = await a.service.away(guild, 20, 3)
    assert done and done[0].match.turn_player_id == 20 and done[0].match.deadline == match.deadline
    stored = await a.db.get_match(match.id)
    assert stored.version == match.version + 1
    assert stored.deadline is not None and match.deadline is not None
    assert stored.deadline == match.deadline + 3 * DAY, (stored.deadline - match.deadline) / DAY
    assert away.games[0].deadline == stored.deadline


async def test_both_players_away_at_once_in_two_processes_wait_for_the_later_return(world: World) -> None:
    """Two processes on PostgreSQL, Fix Bayonets' set-up owed by both players at once, whose clock
    starts when the later of them is back: one goes away for 3 days in process A, the other for 5 in
    process B, B's `away` coming while A's is between its read of the game and its clock shift.
    The set-up is then due 5 days and a turn from now, as when the two come one after the other.
    Before, B's shift was computed from A's time away (written) and a deadline A had not moved yet
    (2 days), then A's shift (3 days) was written over it: the clock ran for the last 2 days of the
    second player's absence."""
    a, b = await world.start(2, seed=55)
    guild, channel = (80 << 22), world.channel()
    await a.service.challenge(
        guild_id=guild,
        channel_id=channel,
        challenger_id=10,
        opponent_id=20,
        game="fixbayonets",
        side="germans",
    )
    match = await a.service.accept(channel, 20)
    _, state = await a.service.current(channel)
    assert len(state.to_act()) == 2
    other: list[asyncio.Task[Any]] = []

    async def b_goes_away() -> Any:
        other.append(asyncio.create_task(b.service.away(guild, 20, 5)))
        while not other[0].done():  # B's away lands whole, or waits for a lock A holds
            waiting = await world.sql(
                "SELECT 1 FROM pg_locks AS l JOIN pg_database AS d ON d.oid = l.database "
                "WHERE l.locktype = 'advisory' AND NOT l.granted AND d.datname = current_database()"
            )
            if waiting:
                break
            await asyncio.sleep(0.005)
        return True

    first_call_runs(a.db, "shift_clock", b_goes_away, [])
    mine = await a.service.away(guild, 10, 3)
    theirs = await other[0]
    assert mine.until is not None and theirs.until is not None
    stored = await a.db.get_match(match.id)
    assert stored.deadline is not None
    assert stored.deadline == theirs.until + match.turn_seconds, (stored.deadline - world.now) / DAY


@pytest.mark.parametrize("paused", ["the sweep", "the start"])
async def test_a_round_closed_as_one_of_its_games_begins_late_elsewhere_stops_that_game(
    world: World, paused: str
) -> None:
    """Two processes on PostgreSQL: a round's days ran out before its game could begin (the bot
    could not open threads); process A's sweep closes the round as process B starts that game late
    (moving the round's end), one landing whole in the other's midst: B's start between A's read of
    the round and its draw, or A's sweep between B's start of the game and its move of the end.
    Either the game plays (the round waits for it, no result yet) or the board is the round's draw,
    its game is stopped and the start says so. Before, in the first order the board was a draw and
    the game ran on, in a round the next sweep paired past at once; in the second the start
    handed back the game the sweep had stopped, as begun."""
    a, b = await world.start(2, seed=56)
    channel, thread = world.channel(), world.channel()
    made = await signup(a, channel, [11, 12])
    started = await a.tournaments.start(channel, organiser=True)
    (board,) = started.boards
    ends = started.tournament.round_ends_at
    assert ends is not None
    world.now = ends + 1  # the round ran out before its game began
    sweeping, starting = a.tournaments, b.tournaments
    met: list[Any] = []
    if paused == "the sweep":
        first_call_runs(sweeping.store, "set_board_result", lambda: starting.start_board(board, thread), met)
        await sweeping.sweep()
        begun: Any = met[0]
    else:
        first_call_runs(starting.store, "extend_round", sweeping.sweep, met)
        try:
            begun = await starting.start_board(board, thread)
        except BadRequest as refused:
            begun = refused
    assert met, f"{paused} was never paused"
    (row,) = await world.sql(
        "SELECT result, match_id FROM tournament_games WHERE tournament_id = $1 AND round = 1", made.id
    )
    games = await world.sql("SELECT id, status FROM matches WHERE channel_id = $1", thread)
    playing = [g["id"] for g in games if g["status"] == "active"]
    if row["result"] is None:
        now = await a.tournaments.by_id(made.id)
        assert now.round == 1 and playing == [row["match_id"]], (now, [dict(g) for g in games])
        assert not isinstance(begun, BaseException)
    else:
        assert playing == [], f"board {row['result']}, its game {playing} still played"
        if paused == "the start":
            assert isinstance(begun, BadRequest), begun
            assert begun.message == "This game's round ended before it could begin: it counts as a draw."
    await cancel_tournament(a, channel)


@pytest.mark.parametrize("who", ["an organiser's removal", "the player's leave"])
async def test_a_removal_or_a_leave_that_the_start_overtook_says_it_started(world: World, who: str) -> None:
    """Process B takes player 14 off the sign-up list (an organiser's removal, or their own leave)
    having read the tournament taking sign-ups; process A's start lands whole before B's write,
    which then finds it running and changes nothing. B must say it started, with 14 in it, and
    how to withdraw them; before, it said 14 was not signed up (`remove_or_start` and
    `leave_or_start` race the same two at random)."""
    a, b = await world.start(2, seed=57)
    channel = world.channel()
    made = await signup(a, channel, [11, 12, 13, 14])
    leaving = b.tournaments
    met: list[Any] = []
    write = "remove_signup" if who == "an organiser's removal" else "leave_tournament"
    first_call_runs(leaving.store, write, lambda: a.tournaments.start(channel, organiser=True), met)
    with pytest.raises(BadRequest) as refused:
        if write == "remove_signup":
            await leaving.remove(channel, 14, organiser=True, by=1)
        else:
            await leaving.leave(made, 14)
    assert met, "the start never came between"
    said = refused.value.message
    if write == "remove_signup":
        assert said.endswith(
            "started just now, with <@14> in it: remove them again to withdraw them from it."
        ), said
    else:
        assert said == "This tournament has started: withdrawing from it is asked and confirmed first.", said
    boards = await world.sql(
        "SELECT first_id, second_id FROM tournament_games WHERE tournament_id = $1", made.id
    )
    assert sorted(u for r in boards for u in (r["first_id"], r["second_id"])) == [11, 12, 13, 14]
    await cancel_tournament(a, channel)


async def test_a_latecomer_whose_read_found_the_last_place_free_is_told_it_is_full(store_world: Any) -> None:
    """One process, both stores: a running tournament with a cap of 5 has 4 players; latecomer 15's
    join reads the list (a place free), and latecomer 16's join lands whole before 15's write. The
    write counts the list again: 15 is told it is full, and 5 players it stays. Before, only the
    read counted (the join before the start always counted in its write). The refusal is said from
    what the write read under its lock, the list read once: before, read twice more after it."""
    db, clock = store_world
    t = services(db, clock)
    made = await open_one(t, [11, 12, 13, 14], rounds=2, max_players=5)
    await t.start(CHANNEL, organiser=True)
    met: list[Any] = []
    other = services(db, clock, seed=2)  # the other latecomer's command, its own store object
    first_call_runs(t.store, "join_late", lambda: other.join(made, 16), met)
    reads: list[str] = []
    written = t.store.join_late
    listed = t.store.tournament_entries

    async def write(*args: Any, **kwargs: Any) -> Any:
        done = await written(*args, **kwargs)
        reads.append("the write")
        return done

    async def read(tournament_id: int) -> Any:
        reads.append("a read of the list")
        return await listed(tournament_id)

    t.store.join_late = write  # type: ignore[method-assign]
    t.store.tournament_entries = read  # type: ignore[method-assign]
    with pytest.raises(BadRequest) as refused:
        await t.join(made, 15)
    del t.store.join_late, t.store.tournament_entries
    assert met, "the other latecomer never came between"
    assert reads[reads.index("the write") :] == ["the write"], reads
    assert refused.value.message.endswith(
        "is full: it takes at most 5 players. Ask an organiser if a place comes free."
    )
    assert sorted(e.user_id for e in await t.entries(made)) == [11, 12, 13, 14, 16]
