"""A tournament whose bot may not open threads in its channel, through the fake Discord on SQLite and
on PostgreSQL: the channel is told once what permission is missing (not the log alone, every
minute), and the games start at the next sweep once an admin grants it; begun late, they move the
round's end, and the channel is told so once."""

from __future__ import annotations

from bot import WargamesBot
from tests.fakediscord import FakeDiscord
from tests.fakediscord.records import CREATE_PUBLIC_THREADS
from tests.test_tournament_bot import (  # noqa: F401 (the `bot` fixture)
    GAME,
    bot,
    create_and_fill,
    first_post,
    setup_club,
    sweep,
    threads_of,
    until,
)

HOUR, DAY = 3600, 86400
MISSING = "I cannot open the game threads of **Threadless**, round 1: I need the Create Public Threads"


def deadline(ts: int) -> str:
    """A round's end as the bot states it: the countdown and, beside it, the date and time."""
    return f"<t:{ts}:R> (<t:{ts}:f>)"


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
    started = await fake.slash(fake.owner, club, "tournament", "start", messages=2)
    assert "has begun: round 1 of 3" in started.messages[0].content
    await until(lambda: any(MISSING in m.content for m in fake.messages_in(club)))
    told = [m for m in fake.messages_in(club) if MISSING in m.content]
    assert len(told) == 1 and "Meanwhile the round's days are running." in told[0].content
    assert not threads_of(fake, club)

    await sweep(bot)  # still refused: tried again, not said again
    assert len([m for m in fake.messages_in(club) if MISSING in m.content]) == 1
    assert not threads_of(fake, club)

    bot.clock.now += 12 * HOUR  # type: ignore[attr-defined]
    everyone.permissions |= CREATE_PUBLIC_THREADS  # an admin grants it, half a day into the round
    await sweep(bot)
    await until(lambda: len(threads_of(fake, club)) == 2)
    ends = int(bot.clock.now + 2 * DAY)  # type: ignore[attr-defined]  # the whole round from now
    for thread in threads_of(fake, club):
        await until(lambda: bool(fake.messages_in(thread)))  # noqa: B023 (awaited before the loop moves on)
        post = first_post(fake, thread)
        match, _ = await bot.service.current(thread.id)
        assert all(f"<@{user}>" in post.content for user in match.players)
        # begun late, it still has the whole round: full clocks, and the round ends later
        assert "Each of you has 1 day on a clock for the whole game" in post.content, post.content
        assert f"The round ends {deadline(ends)}" in post.content, post.content
    # the channel is told once, in one line, that the round ends later and why; nobody is pinged
    await until(lambda: any("now ends" in m.content for m in fake.messages_in(club)))
    (moved,) = [m for m in fake.messages_in(club) if "now ends" in m.content]
    assert moved.content == (
        f"**Threadless**: round 1 of 3 now ends {deadline(ends)}, because its games began late and each has "
        "the whole round."
    )
    await sweep(bot)  # the next sweep starts nothing and says nothing more
    assert len([m for m in fake.messages_in(club) if "now ends" in m.content]) == 1
    # the round view reads the new end
    view = await fake.slash(players[0], club, "tournament", "round")
    assert view.ephemeral and f"the round ends {deadline(ends)}" in view.content, view.content


async def test_a_game_begun_before_a_restart_gets_the_board_the_channel_may_see(
    fake_discord: FakeDiscord,
    start_bot,
    bot: WargamesBot,  # noqa: F811
):
    """A restart cut a start between the game's acceptance and its post; meanwhile its players
    deployed in the thread, the first offered a draw and took a step of her turn (hers alone). The
    restarted bot's first post of that game drew the game as it is, her step on it, with no way to
    answer the offer. It now shows what the thread saw (the board after her offer) and the answers
    to the offer, for the player who must give them."""
    fake = fake_discord
    _guild, club, players = await setup_club(fake, 4)
    await start_bot(bot)
    await create_and_fill(fake, bot, club, players, "Restart Cup")
    await fake.slash(fake.owner, club, "tournament", "start", messages=3)
    await until(lambda: len(threads_of(fake, club)) == 2)
    thread = threads_of(fake, club)[0]
    await until(lambda: bool(fake.messages_in(thread)))
    match, _ = await bot.service.current(thread.id)
    users = {u.id: u for u in players}
    first, second = users[match.sides["germans"]], users[match.sides["canadians"]]
    for user in (first, second):
        await fake.slash(user, thread, GAME, "setup", {"layout": "std"})
    offered = await fake.slash(first, thread, GAME, "draw", {"choice": "offer"})
    step = await fake.slash(first, thread, GAME, "play", {"action": "a6-a5"})
    assert all(m.ephemeral for m in step.messages)
    cog = bot.get_cog("Tournaments")
    assert cog is not None
    service = cog.service  # type: ignore[attr-defined]
    tournament = await service.store.channel_tournament(club.id)
    [board] = [b for b in await service.store.tournament_boards(tournament.id) if b.thread_id == thread.id]
    before = len(fake.messages_in(thread))
    # the crash kept the first post from the thread: the one this test's start made does not count
    # (posted again with the same nonce, Discord would answer with it)
    fake.nonce_window = 0.0
    assert await cog.start_board(tournament, board)  # type: ignore[attr-defined]
    [post] = fake.messages_in(thread)[before:]
    assert post.attachments[0].data == offered.message.attachments[0].data  # not her step
    seen = [c for c in offered.message.custom_ids if not c.startswith("bw:undo:")]  # hers to take back
    accept = next(c for c in seen if c.endswith(":accept draw"))
    assert post.custom_ids == seen, (post.custom_ids, seen)
    assert post.content.endswith(  # her turn: he may accept now, and decline on his own turn
        f"<@{second.id}>: accept the draw with the button (or the `draw` command), or decline it once "
        "it is your turn."
    )
    answered = await fake.click(second, post, accept)
    assert "Game over: a draw" in answered.message.content, answered.message.content
