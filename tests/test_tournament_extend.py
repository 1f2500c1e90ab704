"""An organiser extends the running round (play/tournament_extend.py, RULES.md "Extending a
round"), on both stores: its end moves, both players of a game still going get the same time on
their game clocks, a turn the clock had cut short is due later, and a turn already overdue is
decided as it was; the refusals change nothing."""

from __future__ import annotations

import pytest

from cogs._format import DISCORD
from data import Database, Status
from play import BadRequest, NotAPlayer
from play.markup import PLAIN
from play.tournament_extend import extended_text
from tests.clock import Clock
from tests.test_game_clock import (
    CHANNEL,
    DAY,
    GUILD,
    HALF,
    HOUR,
    QUICK,
    ROUND,
    STALLER,
    THREAD,
    TURN,
    one_game,
    services,
    whole_turn,
)
from tests.test_tournament import open_one

ORGANISER = 1


async def test_an_extension_moves_the_round_and_both_clocks_alike(store_world: tuple[Database, Clock]):
    db, clock = store_world
    t = services(db, clock)
    await one_game(t)
    svc = t.matches
    before = await t.open_in(CHANNEL)
    assert before.round_ends_at is not None
    # refused, and nothing changed: a player, hours out of bounds, a channel without a tournament
    with pytest.raises(NotAPlayer, match="Only members who can manage the server"):
        await t.extend(CHANNEL, 24, organiser=False, by=QUICK)
    for hours in (0, 169):
        with pytest.raises(BadRequest) as refused:
            await t.extend(CHANNEL, hours, organiser=True, by=ORGANISER)
        assert str(refused.value) == (
            "A round is extended by 1 to 168 hours at a time (a week); extend it again for more."
        )
    with pytest.raises(BadRequest, match="no tournament"):
        await t.extend(CHANNEL + 1, 24, organiser=True, by=ORGANISER)
    assert (await t.open_in(CHANNEL)).round_ends_at == before.round_ends_at

    # the staller's clock comes to hold less than a turn: it sets the turn's deadline
    clock.now += HOUR
    await whole_turn(svc, QUICK)
    clock.now += 2 * DAY
    await whole_turn(svc, STALLER)
    clock.now += HOUR
    played = await whole_turn(svc, QUICK)
    match = played.match
    assert match.game_clock is not None and match.deadline == clock.now + 36 * HOUR
    lead = match.deadline - (match.reminder_at or 0.0)

    clock.now += HOUR
    done = await t.extend(CHANNEL, 24, organiser=True, by=ORGANISER)
    assert done.games == 1 and done.tournament.round_ends_at == before.round_ends_at + DAY
    given, _ = await svc.current(THREAD)
    assert given.game_clock is not None and given.deadline is not None
    assert match.game_clock.since is not None and match.deadline is not None
    # half the day each, the same for both, on top of what each had
    assert given.game_clock.left == {QUICK: HALF - 2 * HOUR + 12 * HOUR, STALLER: HALF - 2 * DAY + 12 * HOUR}
    assert given.game_clock.running == (STALLER,) and given.game_clock.since == match.game_clock.since
    assert given.deadline == match.deadline + 12 * HOUR < match.game_clock.since + TURN  # the clock's end
    assert given.reminder_at == given.deadline - lead and given.version == match.version
    ends = int(before.round_ends_at + DAY)  # stated with its date: 36 hours is not "in 2 days"
    assert extended_text(done, DISCORD) == (
        f"<@{ORGANISER}> extended round 1 of **Block Wars Swiss** by 1 day: it now ends "
        f"<t:{ends}:R> (<t:{ends}:f>). Both players of the game still going have 12 hours "
        "more on their game clocks. Results already in stand."
    )

    # a turn already overdue when the round is extended again is decided as it was: a loss on time
    clock.now = (given.deadline or 0.0) + 1
    again = await t.extend(CHANNEL, 2, organiser=True, by=ORGANISER)
    assert again.games == 0 and "No game's clock changed" in extended_text(again, PLAIN)
    (lost,) = await svc.sweep()
    assert lost.kind == "forfeit" and lost.user_id == STALLER
    over = await db.get_match(given.id)
    assert over.status is Status.FINISHED and over.winner_id == QUICK
    with pytest.raises(BadRequest) as over_now:  # the round is not closed yet, but has nothing going on
        await t.extend(CHANNEL, 24, organiser=True, by=ORGANISER)
    assert str(over_now.value) == (
        "Every game of round 1 of Block Wars Swiss is over: the round closes by itself within a "
        "minute, and there is nothing to extend."
    )
    await t.sweep()  # the round's last game is over: the tournament ends, nothing left to extend
    with pytest.raises(BadRequest):
        await t.extend(CHANNEL, 24, organiser=True, by=ORGANISER)


async def test_a_game_begun_after_an_extension_gets_the_usual_clock(store_world: tuple[Database, Clock]):
    """RULES.md "Extending a round": the extension's half is time given back to players whose clocks
    ran; a game not begun when the round was extended spent none, so it begins with the usual
    clock (half the round), and the round waits for it as for any game begun late."""
    db, clock = store_world
    t = services(db, clock)
    await open_one(t, [QUICK, STALLER], rounds=1, days=ROUND // DAY)
    (board,) = (await t.start(CHANNEL, organiser=True)).boards  # its thread not opened yet
    paired = await t.open_in(CHANNEL)
    clock.now += HOUR
    done = await t.extend(CHANNEL, 48, organiser=True, by=ORGANISER)
    assert done.games == 0 and "a game not begun yet gets its whole clock" in extended_text(done, PLAIN)
    assert done.tournament.round_ends_at == (paired.round_ends_at or 0.0) + 2 * DAY
    clock.now += 6 * DAY  # begun a day before the extended end
    match = await t.start_board(board, THREAD)
    assert match.game_clock is not None and match.game_clock.left == {QUICK: HALF, STALLER: HALF}
    assert (await t.open_in(CHANNEL)).round_ends_at == clock.now + ROUND  # the whole round from its start


async def test_an_extension_gives_a_player_back_from_time_away_their_turns_whole_own_time(
    store_world: tuple[Database, Clock],
):
    """The staller's turn begins; an hour in they go away for two days, which moves the turn's own
    deadline two days later, past their game clock's end, which now sets it. An extension of two
    days gives each clock a day: the turn is due at its own deadline (its start, its whole time and
    the two days away), now before the clock's new end. Before, the turn's own time was counted from
    the clock's start without the time away: the turn stayed due at the old clock's end, and the
    extension gave the staller nothing on this turn."""
    db, clock = store_world
    t = services(db, clock)
    await one_game(t)
    svc = t.matches
    clock.now += HOUR
    played = await whole_turn(svc, QUICK)
    began = clock.now
    assert played.match.turn_player_id == STALLER and played.match.deadline == began + TURN
    clock.now += HOUR
    await svc.away(GUILD, STALLER, 2)
    away, _ = await svc.current(THREAD)
    assert away.deadline == began + HALF  # the clock's end: before the turn's own, two days later
    clock.now += HOUR
    done = await t.extend(CHANNEL, 48, organiser=True, by=ORGANISER)
    assert done.games == 1
    given, _ = await svc.current(THREAD)
    assert given.game_clock is not None and given.game_clock.since == began
    assert given.deadline == began + TURN + 2 * DAY < began + HALF + DAY  # its own, not the clock's
