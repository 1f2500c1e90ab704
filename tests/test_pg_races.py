"""Races between bot processes on one PostgreSQL database, with real concurrent connections
(tests/pgraces.py says how, and holds each race's round): every race runs for many seeded rounds,
each in a channel of its own, and what must hold is checked after each one. bench/pgrace.py soaks
the same races for longer, between more processes."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from data import db, postgres, tournaments
from data.db import away_key
from data.errors import AwayChanged
from data.models import AwaySeen, Match, NewAction
from play import ServiceError, StalePrompt
from play.results import TimeAway
from tests.benchrun import last_figures
from tests.pgraces import (
    GUILD,
    SCENARIOS,
    World,
    a_turn_to_hand_over,
    assert_chained,
    away_or_move,
    cancel_tournament,
    game,
    log_of,
    race,
    ratings_chain,
    removal_against_join,
    signup,
    staggered,
    wins,
)

LOCK_SHARED = "pg_try_advisory_xact_lock_shared(k)"  # the player's lock, as the store takes it
STALLED_ROUNDS = 12  # rounds of the race whose move stalls before that lock (30 ms each)
ROUNDS = 30  # rounds of each race: each takes a few hundredths of a second
# Rounds of the slower races (a tournament set up each round), and what every round of each shows.
RACES = {
    "two_accepts": ROUNDS,
    "accept_or_withdraw": ROUNDS,
    "double_click": ROUNDS,
    "draw_or_resign": ROUNDS,
    "sealed_challenges": ROUNDS,
    "move_or_timeout": ROUNDS,
    "cancel_or_move": ROUNDS,
    "cancel_or_resign": ROUNDS,
    "two_aways": ROUNDS // 2,
    "away_or_move": ROUNDS,
    "accept_or_away": ROUNDS,
    "two_joins": ROUNDS // 2,
    "join_or_start": ROUNDS // 2,
    "two_starts": ROUNDS // 2,
    "resign_as_round_ends": ROUNDS // 3,
    "two_round_sweeps": ROUNDS // 3,
    "late_join_or_pairing": ROUNDS // 3,
    "two_joins_for_the_last_place": ROUNDS // 5,
    "two_latecomers_for_the_last_place": ROUNDS // 5,
    "remove_or_join": ROUNDS // 5,
    "two_reinstates": ROUNDS // 6,
    "two_late_reinstates": ROUNDS // 6,
    "remove_or_start": ROUNDS // 5,
    "leave_or_start": ROUNDS // 5,
}
STALL = "CAST(:by AS BIGINT) + 0 * length(CAST(pg_sleep(0.05) AS TEXT))"  # the removal's mark, 50 ms late


@pytest.fixture
async def world(pg_url: str) -> AsyncIterator[World]:
    w = World(pg_url)
    try:
        yield w
    finally:
        await w.close()


@pytest.mark.parametrize("name", sorted(RACES))
async def test_a_race_between_two_processes_holds_its_invariants(world: World, name: str) -> None:
    """Each round of the race `name` (its docstring in tests/pgraces.py says what must hold) between
    two processes, from a seeded stagger; each round's checks are the scenario's own."""
    a, b = await world.start(2, seed=sorted(RACES).index(name) + 1)
    rng = random.Random(name)
    seen = Counter([await SCENARIOS[name](world, a, b, rng) for _ in range(RACES[name])])
    assert sum(seen.values()) == RACES[name], seen
    # and whatever ended how: one rating change a player for each result, each from where the one
    # before it left their rating (no result started from a rating another one had moved)
    for row in await world.sql("SELECT DISTINCT guild_id, user_id FROM player_stats"):
        changes, rating, played = await ratings_chain(world, row["user_id"], row["guild_id"])
        assert len(changes) == played
        assert_chained(changes, rating)


async def test_games_of_one_player_ending_at_once_in_two_processes_lose_no_rating(world: World) -> None:
    """One player's many games end at the same moment, half through each process: every result
    moves their rating from where the one before left it (the rows are locked, in one order)."""
    a, b = await world.start(2, seed=4)
    games = 24
    for n in range(games):
        channel = 4000 + n
        await a.service.challenge(
            game="blockwars", guild_id=GUILD, channel_id=channel, challenger_id=10, opponent_id=100 + n
        )
        await a.service.accept(channel, 100 + n)
    rng = random.Random(14)
    # each game's loser resigns: player 10 in two of three, the opponent in the others
    ends = [(a, b)[n % 2].service.act(4000 + n, 10 if n % 3 else 100 + n, "resign") for n in range(games)]
    done = await race(rng, *ends)
    assert len(wins(done)) == games
    changes, rating, played = await ratings_chain(world, 10)
    assert played == games and len(changes) == games
    assert_chained(changes, rating)


async def test_two_sweeps_act_on_each_due_game_once(world: World) -> None:
    """Two processes serving the same guild (a shard given to both by mistake) sweep at the same
    moment, three times over: every reminder is sent once, every game lost on time once (one
    `timeout`, one result, one rating change each), every unanswered challenge expired once."""
    a, b = await world.start(2, seed=7)
    rng = random.Random(17)
    games = [7000 + n for n in range(ROUNDS)]
    challenges = [7100 + n for n in range(10)]
    for channel in games:
        await game(a, channel)
    for channel in challenges:
        await b.service.challenge(
            game="blockwars", guild_id=GUILD, channel_id=channel, challenger_id=10, opponent_id=20
        )
    first, _ = await a.service.current(games[0])
    assert first.reminder_at is not None and first.deadline is not None
    notices = []
    for moment in (first.reminder_at + 1, first.deadline + 1, first.deadline + 2):
        world.now = moment
        done = await race(rng, a.service.sweep(), b.service.sweep())
        notices += [n for found in done for n in found]
    kinds = Counter((n.kind, n.match.channel_id) for n in notices)
    assert {(k, c) for (k, c), times in kinds.items() if times > 1} == set()
    assert {c for k, c in kinds if k == "reminder"} == set(games)
    assert {c for k, c in kinds if k == "forfeit"} == set(games)
    assert {c for k, c in kinds if k == "expired"} == set(challenges)
    for channel in games:
        assert await log_of(world, channel) == ["timeout"]
    changes = await world.sql("SELECT count(*) AS n FROM rating_changes")
    assert changes[0]["n"] == 2 * len(games)


async def test_a_start_refused_while_a_time_away_is_written_elsewhere_says_so(world: World) -> None:
    """An accept whose first turn waits on a player whose time away another process keeps writing
    (its lock held longer than a few tries) starts nothing and says why in words; the challenge
    is still there, and accepted once that is done."""
    (a,) = await world.start(1, seed=9)
    channel = world.channel()
    await a.service.challenge(
        game="blockwars", guild_id=GUILD, channel_id=channel, challenger_id=10, opponent_id=20, side="germans"
    )
    other = await asyncpg.connect(world.url)  # the other process's `away`, stalled mid-way
    try:
        await other.execute("SELECT pg_advisory_lock($1)", away_key(GUILD, 10))
        with pytest.raises(StalePrompt) as refused:
            await a.service.accept(channel, 20)
        assert refused.value.message == (
            "A player's time away was changing just now, so the game did not start. Try again."
        )
        rows = await world.sql("SELECT status, version FROM matches WHERE channel_id = $1", channel)
        assert [(r["status"], r["version"]) for r in rows] == [("challenged", 0)]
    finally:
        await other.close()  # and its lock with it
    match = await a.service.accept(channel, 20)
    assert match.turn_player_id == 10 and match.deadline == world.now + match.turn_seconds


async def test_a_move_whose_backend_stalls_before_the_lock_misses_no_time_away(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`away_or_move` with the move's backend stalled for 30 ms just before it takes the waiting
    player's lock: the away in the other process writes, reclocks and lets go of its lock within
    that stall. The move must still see that time away (its read comes after the lock), in every
    round. The stall is put into a copy of the store's own statements and function (the production
    path, only slower at that one point); before the fix it went wrong in most rounds."""
    stall = "pg_try_advisory_xact_lock_shared(k + 0 * length(CAST(pg_sleep(0.03) AS TEXT)))"
    stalled = [
        (module, name)
        for module in (db, postgres)
        for name, sql in vars(module).items()
        if isinstance(sql, str) and name.startswith("_") and LOCK_SHARED in sql
    ]
    assert (postgres, "_AWAY_HELD_FUNCTION") in stalled, "the move's lock is not where it was"
    for module, name in stalled:  # the processes started below create the function so stalled
        monkeypatch.setattr(module, name, getattr(module, name).replace(LOCK_SHARED, stall))
    a, b = await world.start(2, seed=11)
    rng = random.Random("stalled")
    wrong = []
    for n in range(STALLED_ROUNDS):
        try:
            await away_or_move(world, a, b, rng)
        except AssertionError as exc:
            wrong.append(f"round {n}: {exc}")
    assert not wrong, f"wrong in {len(wrong)} of {STALLED_ROUNDS} rounds: {wrong[:3]}"


@pytest.mark.parametrize("way", ["one statement", "several statements"])
async def test_a_clocked_move_is_stored_only_as_the_time_away_it_assumed(world: World, way: str) -> None:
    """A move whose new clock assumed the waiting player's time away (`AwaySeen`) is stored by
    neither of the store's ways (`_MOVE`; the statements a move with the crash hook sends) while
    another process holds that player's lock (its `away` mid-way), nor when that time away is not
    as assumed: nothing is written, `AwayChanged`. As assumed and unlocked, it is stored."""
    (a,) = await world.start(1, seed=12)
    channel = world.channel()
    mover, version = await game(a, channel)
    waiting = 20 if mover == 10 else 10
    match, _ = await a.service.current(channel)
    hook = None if way == "one statement" else (lambda: None)

    async def store(count: int) -> Match:
        return await a.db.commit_action(
            match.id,
            expected_version=version,
            actions=[NewAction("pass", mover)],
            away_seen=AwaySeen(GUILD, (waiting,), count, None),
            before_commit=hook,
        )

    other = await asyncpg.connect(world.url)  # the other process's `away`, stalled mid-way
    try:
        await other.execute("SELECT pg_advisory_lock($1)", away_key(GUILD, waiting))
        with pytest.raises(AwayChanged):
            await store(0)
    finally:
        await other.close()  # and its lock with it
    with pytest.raises(AwayChanged):
        await store(1)  # one stretch of time away assumed, none there
    assert await log_of(world, channel) == []
    assert (await store(0)).version == version + 1
    assert await log_of(world, channel) == ["pass"]


def test_the_soak_bench_runs_at_its_smallest(pg_url: str) -> None:
    """bench/pgrace.py (docs/performance.md), for half a second: it must not rot unseen."""
    figures = last_figures("pgrace.py", "--database-url", pg_url, "--seconds", "0.5", "--burst", "4")
    assert figures["bench"] == "pgrace" and figures["violations"] == 0, figures
    assert figures["rounds"] >= 1 and figures["players_chained"] >= 1


async def test_a_time_away_between_the_moves_clock_and_its_check_is_in_the_stored_clock(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The waiting player's `away` (process A) lands whole, and process B hears of it, after B's move
    computed the turn's clock from their time away but before it read that time away again for the
    store's check (`AwaySeen`). The check then matched the store, so the move was stored with a clock
    that ignored the absence, and the away, done before the turn was theirs, moved nothing: the turn
    ran while they were away (seen once in CI as one round of the stalled race above). The clock must
    come from the time away the check holds the store to: read after it."""
    a, b = await world.start(2, seed=13)
    guild, channel, match, mover, waiting = await a_turn_to_hand_over(world, a)
    move = (await b.service.legal(channel, mover))[0]
    await b.service.current(channel)
    read_again = b.service._away_seen
    gone: list[TimeAway] = []

    async def away_first(*args: Any) -> AwaySeen | None:
        if not gone:  # the first read for the check: the away comes whole before it
            gone.append(await a.service.away(guild, waiting, 3))
            for _ in range(200):  # until B has heard of it (its memory of their time away forgotten)
                if await b.db.time_away(guild, waiting, world.now):
                    break
                await asyncio.sleep(0.01)
        return await read_again(*args)

    monkeypatch.setattr(b.service, "_away_seen", away_first)
    await b.service.act(
        channel, mover, move, interaction_id=world.interaction(), expected_version=match.version
    )
    rows = await world.sql("SELECT * FROM matches WHERE channel_id = $1", channel)
    assert gone and rows[0]["turn_player_id"] == waiting
    assert gone[0].until is not None
    assert rows[0]["deadline"] == gone[0].until + match.turn_seconds, (
        rows[0]["deadline"] - world.now
    ) / 86400


async def test_a_join_while_the_removal_is_not_yet_committed_does_not_put_the_player_back(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`remove_or_join` with the removal stalled for 50 ms between taking the player's row off the
    list and its commit (in its last write, the mark that holds the removal), and the join pressed
    20 ms after it: the join's insert, waiting on the row being deleted, went ahead once the removal
    committed, from a snapshot that saw no removal, and the player was back on the list, removed,
    in every round. A join waits for any change of the list in flight before it reads."""
    monkeypatch.setattr(tournaments, "_MARK_REMOVED", tournaments._MARK_REMOVED.replace(":by", STALL))
    a, b = await world.start(2, seed=15)
    seen: Counter[str] = Counter()
    for _ in range(3):
        seen[
            await removal_against_join(
                world, a, b, lambda r, j: asyncio.gather(r, staggered(0.02, j), return_exceptions=True)
            )
        ] += 1
    assert seen == {"removal first": 3}, seen


async def test_a_second_reinstate_that_waited_for_the_first_changes_nothing(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two organisers put player 14 back on the sign-up list at once, in two processes; the first's
    putting back (its last write) stalled 50 ms, the second pressed 20 ms after it. The second
    waited on the tournament's row, then went ahead on what its statement had read before: the
    removal standing. It moved the tournament's version (a sweep's read, a player's join, stale for
    nothing) and put nobody back. It must change nothing and say that 14 is on the list already."""
    stall = "CAST(:now AS DOUBLE PRECISION) + 0 * length(CAST(pg_sleep(0.05) AS TEXT)), COALESCE("
    a, b = await world.start(2, seed=61)
    channel = world.channel()
    made = await signup(a, channel, [11, 12, 13, 14])
    await a.tournaments.remove(channel, 14, organiser=True, by=1)
    before = (await a.tournaments.by_id(made.id)).version
    monkeypatch.setattr(tournaments, "_JOIN", tournaments._JOIN.replace(":now, COALESCE(", stall))
    done = await asyncio.gather(
        a.tournaments.reinstate(channel, 14, organiser=True, by=1),
        staggered(0.02, b.tournaments.reinstate(channel, 14, organiser=True, by=2)),
        return_exceptions=True,
    )
    monkeypatch.undo()
    after = await a.tournaments.by_id(made.id)
    await cancel_tournament(a, channel)
    assert not isinstance(done[0], BaseException), done[0]
    assert isinstance(done[1], ServiceError), done[1]
    assert after.version == before + 1, f"the version moved {after.version - before} times"
    said = done[1].message
    assert said == f"<@14> is on the sign-up list of **{made.name}** already, so nothing changed.", said
