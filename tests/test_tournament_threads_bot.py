"""A tournament whose bot may not open threads in its channel, through the fake Discord on SQLite and
on PostgreSQL: the channel is told once what permission is missing (not the log alone, every
minute), and the games start at the next sweep once an admin grants it."""

from __future__ import annotations

from bot import WargamesBot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.records import CREATE_PUBLIC_THREADS
from tests.test_tournament_bot import (  # noqa: F401 (the `bot` fixture)
    bot,
    create_and_fill,
    first_post,
    setup_club,
    sweep,
    threads_of,
    until,
)

MISSING = "I cannot open the game threads of **Threadless**, round 1: I need the Create Public Threads"


async def test_no_thread_permission_is_told_once_and_the_games_start_when_it_is_granted(
    fake_discord: FakeDiscord,
    start_bot,
    bot: WargamesBot,  # noqa: F811
):
    fake = fake_discord
    guild, club, players = await setup_club(fake, 4)
    everyone = guild.roles[guild.id]
    everyone.permissions &= ~CREATE_PUBLIC_THREADS
    await start_bot(bot)
    await create_and_fill(fake, bot, club, players, "Threadless")
    started = await fake.slash(fake.owner, club, "wargames", "tournament", "start", messages=2)
    assert "has begun: round 1 of 3" in started.messages[0].content
    await until(lambda: any(MISSING in m.content for m in fake.messages_in(club)))
    told = [m for m in fake.messages_in(club) if MISSING in m.content]
    assert len(told) == 1 and "Meanwhile the round's days are running." in told[0].content
    assert not threads_of(fake, club)

    await sweep(bot)  # still refused: tried again, not said again
    assert len([m for m in fake.messages_in(club) if MISSING in m.content]) == 1
    assert not threads_of(fake, club)

    everyone.permissions |= CREATE_PUBLIC_THREADS  # an admin grants it
    await sweep(bot)
    await until(lambda: len(threads_of(fake, club)) == 2)
    for thread in threads_of(fake, club):
        await until(lambda: bool(fake.messages_in(thread)))  # noqa: B023 (awaited before the loop moves on)
        post = first_post(fake, thread)
        match, _ = await bot.service.current(thread.id)
        assert all(f"<@{user}>" in post.content for user in match.players)
