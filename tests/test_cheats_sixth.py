"""The sixth review (2026-11-29): what a player or a server member can learn or do that they should
not (docs/fairness.md, "What a nosy member tried: the sixth review"). Each hole found has a test here
that failed before its fix; each probe that held has one too."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Collection
from typing import Any

import pytest

from data import START_RATING, Database, Status
from play import MatchService
from play.errors import BadRequest, NoMatch, NotAPlayer
from play.results import AWAY_DAYS_A_YEAR
from tests.fakediscord.fixtures import HandClock
from tests.test_cheats_fourth import challenge_left_waiting
from tests.test_tournament import CHANNEL, GUILD, PLAYERS, open_one
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
    thread = 4343
    t, board, waiting = await challenge_left_waiting(db, clock, thread, monkeypatch)
    for who in (ADMIN, board.first_id):
        with pytest.raises(BadRequest) as refused:
            await t.matches.cancel(thread, who, is_admin=True)
        words = refused.value.message
        assert "tournament" in words and "/tournament remove" in words, words
        assert "/tournament cancel" in words, words
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


# ------------------------------------------------------------------ a tournament's ratings at its start


async def test_a_tournaments_start_stores_the_ratings_as_they_are_when_it_is_stored(store_world) -> None:
    """The start read each player's rating, paired round 1 from them, then stored both in its
    transaction. A rated game of one of them ending in between (another channel, the same
    moment) was missed: the tournament kept the rating before it, though it began after it, and
    its seeding and tie-breaks read a rating the player no longer had. The ratings are now read
    again inside the transaction; if one moved, the start pairs again from the new ones."""
    db, clock = store_world
    t = tournament_services(db, clock)
    await open_one(t, PLAYERS[:4], rounds=1)
    outside = 5151
    await t.matches.challenge(
        guild_id=GUILD, channel_id=outside, challenger_id=PLAYERS[3], opponent_id=77, game="blockwars"
    )
    await t.matches.accept(outside, 77)
    done: list[Any] = []
    real = t.store.advance_tournament

    async def paused(*args: Any, **kwargs: Any) -> Any:
        if not done:  # the game ends between the start's read and its write
            done.append(await t.matches.act(outside, 77, "resign"))
        return await real(*args, **kwargs)

    t.store.advance_tournament = paused  # type: ignore[method-assign]
    started = await t.start(CHANNEL, organiser=True)
    assert done and done[0].over and done[0].match.winner_id == PLAYERS[3]
    now = (await db.player_stats(GUILD, "blockwars", PLAYERS[3])).rating
    assert now > START_RATING
    stored = {e.user_id: e.rating for e in await t.store.tournament_entries(started.tournament.id)}
    assert stored[PLAYERS[3]] == now, f"stored {stored[PLAYERS[3]]}, the rating at the start was {now}"
    first = min(started.boards, key=lambda b: b.board)
    assert PLAYERS[3] in (first.first_id, first.second_id), "round 1 was not paired from the new rating"


# ------------------------------------------------------------------ records of games one cannot see

ALICE, BOB, CAROL, DAVE, AI = 10, 20, 30, 40, 99
OPEN_ROOM, CLOSED_ROOM, AI_ROOM = 601, 602, 603


async def _won(svc: MatchService, channel: int, winner: int, loser: int) -> None:
    await svc.challenge(
        guild_id=GUILD6, channel_id=channel, challenger_id=winner, opponent_id=loser, game="blockwars"
    )
    await svc.accept(channel, loser)
    await svc.act(channel, loser, "resign")


async def test_a_record_counts_only_the_games_its_reader_may_see(store_world) -> None:
    """Alice beats Bob in an open channel, then Carol in a channel Dave cannot view (a private
    thread, a staff room), and plays the AI there. Dave's `stats` of Alice, the leaderboard and
    the AI's record told him, the moment each ended, that those games were over and how (a win
    more, the rating up; Carol on the board; the AI's level one loss more). For Dave they now count
    as if never played; for Carol, who played one, it counts, and for anyone who can look."""
    db, clock = store_world
    svc = MatchService(db, clock=clock, rng=random.Random(7))
    await _won(svc, OPEN_ROOM, ALICE, BOB)
    seen = await svc.stats(GUILD6, "blockwars", ALICE)
    await _won(svc, CLOSED_ROOM, ALICE, CAROL)
    await svc.challenge(
        guild_id=GUILD6,
        channel_id=AI_ROOM,
        challenger_id=ALICE,
        opponent_id=AI,
        game="blockwars",
        opponent_is_bot=True,
        ai_level="random",
    )
    await svc.act(AI_ROOM, ALICE, "resign")
    asked: list[frozenset[int]] = []

    async def dave_sees(channels: Collection[int]) -> Collection[int]:
        asked.append(frozenset(channels))
        return set(channels) - {CLOSED_ROOM, AI_ROOM}

    full = await svc.stats(GUILD6, "blockwars", ALICE)
    assert (full.wins, full.losses) == (2, 1) and full.rating != seen.rating
    for_dave = await svc.stats(GUILD6, "blockwars", ALICE, asker=DAVE, sees=dave_sees)
    assert (for_dave.wins, for_dave.losses, for_dave.draws) == (1, 0, 0), for_dave
    assert for_dave.rating == pytest.approx(seen.rating), "the rating told that a hidden game ended"
    assert asked and asked[-1] == {OPEN_ROOM, CLOSED_ROOM, AI_ROOM}
    carol = await svc.stats(GUILD6, "blockwars", CAROL, asker=DAVE, sees=dave_sees)
    assert (carol.games, carol.rating) == (0, START_RATING)
    by_carol = await svc.stats(GUILD6, "blockwars", ALICE, asker=CAROL, sees=dave_sees)
    assert (by_carol.wins, by_carol.losses) == (2, 0), "her own game was hidden from her"
    board = await svc.leaderboard(GUILD6, "blockwars", ai_user_id=AI, asker=DAVE, sees=dave_sees)
    assert [(s.user_id, s.level, s.wins, s.losses) for s in board] == [(ALICE, None, 1, 0), (BOB, None, 0, 1)]
    assert board[0].rating == pytest.approx(seen.rating)
    assert await svc.ai_records(GUILD6, "blockwars", asker=DAVE, sees=dave_sees) == []
    everyone = await svc.leaderboard(GUILD6, "blockwars", ai_user_id=AI)
    assert {(s.user_id, s.level) for s in everyone} == {
        (ALICE, None),
        (BOB, None),
        (CAROL, None),
        (AI, "random"),
    }
    (level,) = await svc.ai_records(GUILD6, "blockwars", asker=DAVE, sees=lambda c: _all(c))
    assert (level.level, level.wins) == ("random", 1)


async def _all(channels: Collection[int]) -> Collection[int]:
    return channels


async def test_a_look_back_button_tells_a_stranger_nothing_of_a_game_number(store_world) -> None:
    """A finished board's "Look back" button carries its game's number, and a client can click one
    with any number (a forged custom_id). A stranger heard "Only the two players can look back"
    for a game that exists (in any channel, of any server) and "no longer stored" for one that
    does not: game numbers count up, so clicks told how many games were played and which exist.
    Both now hear the same words; in the game's own channel, whose readers see it, the button and
    the command keep their plain refusal."""
    db, clock = store_world
    svc = MatchService(db, clock=clock, rng=random.Random(8))
    await _won(svc, CLOSED_ROOM, ALICE, BOB)
    match = await db.get_channel_match(CLOSED_ROOM) or (await db.list_matches(channel_id=CLOSED_ROOM))[0]
    words = []
    for number in (match.id, match.id + 1000):
        with pytest.raises(NoMatch) as refused:
            await svc.review(OPEN_ROOM, DAVE, number)
        words.append(refused.value.message.replace(str(number), "N"))
    assert words[0] == words[1], words
    for number in (match.id, None):  # in the game's own channel: its button, or the command
        with pytest.raises(NotAPlayer, match="Only the two players"):
            await svc.review(CLOSED_ROOM, DAVE, number)


async def test_an_admin_who_plays_in_a_tournament_cannot_cancel_a_rivals_game(store_world) -> None:
    """An admin's cancel of a tournament's game counts as a draw of its round (RULES.md). An admin who
    is in the tournament could so hand a draw to each of their rivals' games, one command each,
    however those games stood. Such a cancel is refused, saying who may; an admin outside the
    tournament still may (a draw, as ruled)."""
    db, clock = store_world
    t = tournament_services(db, clock)
    await open_one(t, PLAYERS[:4], rounds=1)
    started = await t.start(CHANNEL, organiser=True)
    threads = {}
    for n, board in enumerate(started.boards):
        threads[board.board] = 7000 + n
        await t.start_board(board, 7000 + n)
    one, two = sorted(started.boards, key=lambda b: b.board)
    rival_thread = threads[two.board]
    before = await db.get_channel_match(rival_thread)
    assert before is not None and before.status is Status.ACTIVE
    with pytest.raises(BadRequest) as refused:
        await t.matches.cancel(rival_thread, one.first_id, is_admin=True)
    assert "you play in this tournament" in refused.value.message, refused.value.message
    after = await db.get_channel_match(rival_thread)
    assert after is not None and (after.status, after.version) == (Status.ACTIVE, before.version)
    done = await t.matches.cancel(rival_thread, ADMIN, is_admin=True)
    assert done.status is Status.CANCELLED
