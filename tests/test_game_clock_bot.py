"""A tournament game's clock through the fake Discord, on SQLite and on PostgreSQL: the thread's first
message states it, and the ping of a turn whose deadline the clock sets says so and how much is left."""

from __future__ import annotations

import re

from bot import WargamesBot
from tests.fakediscord import FakeDiscord
from tests.test_tournament_bot import (  # noqa: F401 (the `bot` fixture)
    GAME,
    bot,
    create_and_fill,
    setup_club,
    threads_of,
    until,
)

HOUR = 3600


async def test_a_tournament_games_ping_shows_the_clock(
    fake_discord: FakeDiscord,
    start_bot,
    bot: WargamesBot,  # noqa: F811
):
    fake = fake_discord
    _guild, club, players = await setup_club(fake, 2)
    await start_bot(bot)
    await create_and_fill(fake, bot, club, players, "Duel")  # rounds of 2 days: turns of 16 hours
    await fake.slash(fake.owner, club, "wargames", "tournament", "start", messages=2)
    await until(lambda: len(threads_of(fake, club)) == 1)
    (thread,) = threads_of(fake, club)
    await until(lambda: bool(fake.messages_in(thread)))
    first = fake.messages_in(thread)[0].content
    assert "Each of you has 1 day on a clock for the whole game: it runs only on your own turns" in first
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
        r"Due <t:(\d+):R>, when their clock for this game runs out "
        r"\(15 hours left on it as this turn began\)\.",
        ping,
    )
    assert found is not None, ping
    assert int(found.group(1)) == due
