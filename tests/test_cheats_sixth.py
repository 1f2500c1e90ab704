"""The sixth review (2026-11-29): what a player or a server member can learn or do that they should
not (docs/fairness.md, "What a nosy member tried: the sixth review"). Each hole found has a test here
that failed before its fix; each probe that held has one too."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from data import Database, Status
from play import MatchService
from play.errors import BadRequest
from play.results import AWAY_DAYS_A_YEAR
from tests.fakediscord.fixtures import HandClock
from tests.test_tournament import CHANNEL, PLAYERS, open_one
from tests.test_tournament import services as tournament_services

ADMIN = 99
GUILD6 = 66 << 22
HOUR = 3600.0
DAY6 = 86400.0

# ------------------------------------------------------------------ a tournament's challenge, cancelled


async def test_an_admin_cannot_cancel_a_tournaments_waiting_challenge(
    store_world, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board's challenge waits in its thread (the accept held up for the next sweep, or a crash
    between the two). A member who may manage the channel cancelled it like a casual challenge, and
    the board could never begin. The tournament manages its games: the cancel is refused, saying
    what an organiser does instead, nothing changes, and the sweep still begins the game."""
    db, clock = store_world
    t = tournament_services(db, clock)
    await open_one(t, PLAYERS[:2], rounds=1)
    started = await t.start(CHANNEL, organiser=True)
    (board,) = started.boards
    thread = 4343

    async def crash(*args: object, **kwargs: object) -> None:
        raise ConnectionError("the bot died between the challenge and its accept")

    with monkeypatch.context() as patched:
        patched.setattr(t.matches, "accept", crash)
        with pytest.raises(ConnectionError):
            await t.start_board(board, thread)
    waiting = await db.get_channel_match(thread)
    assert waiting is not None and waiting.status is Status.CHALLENGED
    for who in (ADMIN, board.first_id):
        with pytest.raises(BadRequest) as refused:
            await t.matches.cancel(thread, who, is_admin=True)
        words = refused.value.message
        assert "tournament" in words and "/wargames tournament remove" in words, words
        assert "/wargames tournament cancel" in words, words
    after = await db.get_channel_match(thread)
    assert after is not None and (after.status, after.version) == (Status.CHALLENGED, waiting.version)
    tournament = await t.open_in(CHANNEL)
    (owed,) = await t.pending_starts(tournament)
    begun = await t.start_board(owed, thread)
    assert begun.id == waiting.id and begun.status is Status.ACTIVE


# ------------------------------------------------------------------ an away's days left


async def test_an_aways_days_left_are_counted_inside_its_lock(store: str) -> None:
    """Alice sends `/wargames away days:5` and, while it holds her time-away lock (moving many
    clocks, a slow store), `away days:3` two hours later. The second read her days taken before
    the lock (none: the first was not written yet), then ended the first away two hours in, which
    takes a day: its answer said 27 days left where 26 were, and its check let a player with 3
    days left take 3 more after that day. The count now comes from inside the lock."""
    clock = HandClock()
    db = await Database.open(store, clock=clock)
    try:
        svc = MatchService(db, clock=clock, rng=random.Random(6))
        entered, release = asyncio.Event(), asyncio.Event()
        real = db.set_time_away

        async def paused(*args: Any, **kwargs: Any) -> None:
            if not entered.is_set():  # the first away, inside its lock, before its write
                entered.set()
                await release.wait()
            await real(*args, **kwargs)

        db.set_time_away = paused  # type: ignore[method-assign]
        first = asyncio.create_task(svc.away(GUILD6, 10, 5))
        await asyncio.wait_for(entered.wait(), 5)
        clock.now += 2 * HOUR
        second = asyncio.create_task(svc.away(GUILD6, 10, 3))
        await asyncio.sleep(0.3)  # the second reads what it reads before it waits for the lock
        release.set()
        await first
        answer = await second
        assert answer.until == clock.now + 3 * DAY6
        clock.now += 4 * DAY6  # both over: what the year really holds
        taken = await svc.away_taken(GUILD6, 10)
        assert taken == 4, taken  # a day of the first (two hours, less the free hour), 3 of the second
        assert answer.left == AWAY_DAYS_A_YEAR - taken, f"{answer.left} days left said, {30 - taken} left"
    finally:
        await db.close()
