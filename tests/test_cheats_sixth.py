"""The sixth review (2026-11-29): what a player or a server member can learn or do that they should
not (docs/fairness.md, "What a nosy member tried: the sixth review"). Each hole found has a test here
that failed before its fix; each probe that held has one too."""

from __future__ import annotations

import pytest

from data import Status
from play.errors import BadRequest
from tests.test_tournament import CHANNEL, PLAYERS, open_one
from tests.test_tournament import services as tournament_services

ADMIN = 99

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
