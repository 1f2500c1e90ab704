"""A tournament game's clock through the fake Discord, on SQLite and on PostgreSQL: the thread's first
message states it, and the ping of a turn whose deadline the clock sets says so and how much is left;
a loss on time that fell due while the bot was down stands when it comes back after the round's end."""

from __future__ import annotations

import re

from bot import WargamesBot
from data import Status
from data.tournaments import TournamentStore
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser
from tests.test_tournament_bot import (  # noqa: F401 (the `bot` fixture)
    GAME,
    bot,
    create_and_fill,
    setup_club,
    sweep,
    threads_of,
    until,
)

HOUR = 3600


async def duel(
    fake: FakeDiscord,
    start_bot,
    bot: WargamesBot,  # noqa: F811
) -> tuple[FakeChannel, list[FakeUser], FakeChannel]:
    """A two-player tournament (rounds of 2 days: turns of 16 hours, clocks of 1 day each) started,
    its one game's thread open and posted in: the club, the players and the thread."""
    _guild, club, players = await setup_club(fake, 2)
    await start_bot(bot)
    await create_and_fill(fake, bot, club, players, "Duel")
    await fake.slash(fake.owner, club, "tournament", "start", messages=2)
    await until(lambda: len(threads_of(fake, club)) == 1)
    (thread,) = threads_of(fake, club)
    await until(lambda: bool(fake.messages_in(thread)))
    return club, players, thread


async def test_a_tournament_games_ping_shows_the_clock(
    fake_discord: FakeDiscord,
    start_bot,
    bot: WargamesBot,  # noqa: F811
):
    fake = fake_discord
    _club, players, thread = await duel(fake, start_bot, bot)
    first = fake.messages_in(thread)[0].content
    assert (
        "Each of you has 1 day on a clock for the whole game: it runs only while the game waits on you"
        in first
    )
    match, _ = await bot.service.current(thread.id)
    users = {u.id: u for u in players}
    germans, canadians = users[match.sides["germans"]], users[match.sides["canadians"]]
    assert "clock for this game runs out" not in first  # a whole day left: the turn's 16 hours rule

    # the Germans take 9 hours to set up: 15 hours are left on their clock, less than a turn
    bot.clock.now += 9 * HOUR  # type: ignore[attr-defined]
    await fake.slash(germans, thread, GAME, "setup", {"layout": "std"})
    await fake.slash(canadians, thread, GAME, "setup", {"layout": "std"})
    await bot.get_cog("Core").idle()  # type: ignore[union-attr]
    ping = fake.messages_in(thread)[-1].content
    assert f"<@{germans.id}>" in ping
    due = int(bot.clock.now + 15 * HOUR)  # type: ignore[attr-defined]
    found = re.search(
        r"Due <t:(\d+):R> \(<t:\1:f>\), when their clock for this game runs out "
        r"\(15 hours left on it as this turn began\)\.",
        ping,
    )
    assert found is not None, ping
    assert int(found.group(1)) == due


async def test_a_loss_on_time_while_the_bot_was_down_stands_at_the_rounds_end(
    fake_discord: FakeDiscord,
    start_bot,
    bot: WargamesBot,  # noqa: F811
):
    """The bot was down across a turn's deadline and the round's end: on its return the tournament's
    sweep (here before the deadline sweep) applies the loss on time, tells the thread, and only then
    posts the standings, with the win in them, not the round's draw."""
    fake = fake_discord
    _guild, club, players = await setup_club(fake, 2)
    await start_bot(bot)
    await create_and_fill(fake, bot, club, players, "Duel")  # rounds of 2 days: turns of 16 hours
    await fake.slash(fake.owner, club, "tournament", "start", messages=2)
    await until(lambda: len(threads_of(fake, club)) == 1)
    (thread,) = threads_of(fake, club)
    await until(lambda: bool(fake.messages_in(thread)))
    match, _ = await bot.service.current(thread.id)
    users = {u.id: u for u in players}
    germans, canadians = users[match.sides["germans"]], users[match.sides["canadians"]]
    assert match.deadline is not None
    assert bot.database is not None
    tournaments = TournamentStore(bot.database)
    tournament = await tournaments.channel_tournament(club.id)
    assert tournament is not None and tournament.round_ends_at is not None
    assert match.deadline < tournament.round_ends_at

    bot.clock.now = tournament.round_ends_at + HOUR  # type: ignore[attr-defined]
    before = len(fake.messages_in(club))
    await sweep(bot)
    lost = fake.messages_in(thread)[-1].content
    assert f"<@{germans.id}> ran out of time and loses the game." in lost
    posts = [m for m in fake.messages_in(club)[before:] if m.attachment("standings.png") is not None]
    assert len(posts) == 1
    (board,) = [b for b in await tournaments.tournament_boards(tournament.id) if b.round == 1]
    assert board.result == 0.0 and board.first_id == germans.id  # the Canadians' win stands
    over = await bot.database.get_match(match.id)
    assert over.status is Status.FINISHED and over.winner_id == canadians.id
    assert await bot.get_cog("Core").run_sweep() == []  # type: ignore[union-attr]  # nothing left due


async def test_going_away_in_a_tournament_game_is_told_the_clock_runs_on(
    fake_discord: FakeDiscord,
    start_bot,
    bot: WargamesBot,  # noqa: F811
):
    fake = fake_discord
    club, players, thread = await duel(fake, start_bot, bot)
    match, _ = await bot.service.current(thread.id)
    users = {u.id: u for u in players}
    germans, canadians = users[match.sides["germans"]], users[match.sides["canadians"]]
    bot.clock.now += 2 * HOUR  # type: ignore[attr-defined]
    said = await fake.slash(germans, club, "wargames", "away", {"days": 3})
    (answer,) = [m.content for m in said.messages if m.ephemeral]
    assert (
        f"Your tournament game in <#{thread.id}> does not wait: your clock for the whole game keeps running "
        "on your turns while you are away (22 hours left on it), and you lose on time if it runs out."
    ) in answer
    assert "no loss on time until you are back" not in answer
    await bot.get_cog("Core").idle()  # type: ignore[union-attr]
    (told,) = [m.content for m in fake.messages_in(thread) if "is away until" in m.content]
    assert told.startswith(f"<@{canadians.id}>: <@{germans.id}> is away until <t:")
    assert "This tournament game does not wait: their clock for the whole game keeps running" in told
    # the turn's own 16 hours moved 3 days, but the clock ends first: the turn is due when it runs out
    assert match.game_clock is not None and match.game_clock.since is not None
    moved = (await bot.service.current(thread.id))[0]
    assert moved.deadline == match.game_clock.since + 24 * HOUR
    due = int(moved.deadline)
    assert f"Their move here is now due <t:{due}:R> (<t:{due}:f>)." in told
