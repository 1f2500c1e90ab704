"""Writes computed from a read that another writer changes before the write lands, each made to
happen every time: one process (or two, on PostgreSQL) pauses at the point between its read and its
write while the other's command lands whole (docs/architecture.md, "Reads and the writes made of
them"). Each failed before its fix."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from data import Database
from play import MatchService
from play.results import Notice
from tests.fakediscord.fixtures import HandClock
from tests.pgraces import World

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
    assert told == [], f"a reminder sent as the player went away, due {told[0].due - match.deadline:+}s"
    stored = await sweeper.db.get_match(match.id)
    assert (stored.deadline, stored.reminder_at) == (match.deadline + 5 * DAY, match.reminder_at + 5 * DAY)
    assert not stored.reminded, "the moved reminder was marked sent"
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
