"""`/wargames mygames`: a player's open games in this server, those waiting on them first, through
the fake Discord and the console."""

from __future__ import annotations

import io
import logging
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import WargamesBot
from console import Console, names
from data import Database
from play import MatchService
from tests.botkit import BotKit
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import ForwardErrors, HandClock

DAY = 86400


@pytest.fixture
async def bot(fake_discord: FakeDiscord, start_bot, botkit: BotKit) -> AsyncIterator[WargamesBot]:
    fake_discord.settle = 0.01
    errors = ForwardErrors(fake_discord)
    logging.getLogger("bot").addHandler(errors)
    made = await botkit.build({"AI_BUDGET_SECONDS": "0.02"}, clock=HandClock(), rng=random.Random(4))
    try:
        yield made
    finally:
        logging.getLogger("bot").removeHandler(errors)
        await made.close()


async def test_mygames_lists_every_open_game_here_waiting_on_you_first(
    fake_discord: FakeDiscord, start_bot, bot
):
    fake = fake_discord
    guild = fake.add_guild("Front", channels=("general", "trenches", "argonne", "somme", "quiet"))
    elsewhere = fake.add_guild("Other server", channels=("general",))
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    fake.add_member(elsewhere, alice)
    fake.add_member(elsewhere, bob)
    await start_bot(bot)
    svc = bot.service
    clock = bot.clock
    ch = {name: guild.channel(name).id for name in ("general", "trenches", "argonne", "somme", "quiet")}

    async def game(channel: str, game: str, side: str, hours: int) -> None:
        await svc.challenge(
            guild_id=guild.id,
            channel_id=ch[channel],
            challenger_id=alice.id,
            opponent_id=bob.id,
            game=game,
            side=side,
            turn_seconds=hours * 3600,
        )
        await svc.accept(ch[channel], bob.id)

    await game("general", "blockwars", "germans", 48)  # the Germans set up first: Alice's move
    await game("argonne", "blockwars", "canadians", 72)  # Bob's move
    await svc.challenge(  # against the AI: both choose their army at once, Alice owes hers
        guild_id=guild.id,
        channel_id=ch["trenches"],
        challenger_id=alice.id,
        opponent_id=fake.bot_user.id,
        game="combinedarms",
        opponent_is_bot=True,
        ai_level="easy",
    )
    await svc.challenge(  # Carol's challenge to Alice, waiting for her answer
        guild_id=guild.id,
        channel_id=ch["somme"],
        challenger_id=carol.id,
        opponent_id=alice.id,
        game="fixbayonets",
    )
    # Not listed: a finished game, and a game in another server.
    await game("quiet", "blockwars", "germans", 72)
    await svc.act(ch["quiet"], alice.id, "resign")
    await svc.challenge(
        guild_id=elsewhere.id,
        channel_id=elsewhere.channel("general").id,
        challenger_id=alice.id,
        opponent_id=bob.id,
        game="blockwars",
    )
    clock.now += 3600

    result = await fake.slash(alice, guild.channel("general"), "wargames", "mygames")
    assert result.ephemeral
    text = result.content
    lines = text.splitlines()
    assert lines[0] == "**Your open games here** (4; 3 waiting on you):"
    entries = lines[1:]
    assert len(entries) == 4
    # waiting on Alice first, the soonest due first among them: the challenge (a day), then 2 and 3 days
    assert [int(re.search(r"<#(\d+)>", e).group(1)) for e in entries] == [  # type: ignore[union-attr]
        ch["somme"],
        ch["general"],
        ch["trenches"],
        ch["argonne"],
    ]
    assert entries[0] == (
        f"1. **Challenge to you**: Fix Bayonets from <@{carol.id}> in <#{ch['somme']}>, expires "
        f"<t:{int(clock.now) - 3600 + 86400}:R> (<t:{int(clock.now) - 3600 + 86400}:f>)."
    )
    assert entries[1].startswith(
        f"2. **Your move**: Block Wars (you are the Germans) against <@{bob.id}> in "
    )
    assert (
        entries[2].startswith("3. **Your move**: WWI Combined Arms (you are the ")
        and "the AI (easy)" in entries[2]
    )
    assert entries[3].startswith(
        f"4. <@{bob.id}>'s move: Block Wars (you are the Canadians) against <@{bob.id}>"
    )
    for entry in entries:
        assert re.search(r"<t:(\d+):R> \(<t:\1:f>\)\.$", entry)  # the date beside "in 2 days"
    match = await bot.database.get_channel_match(ch["general"])
    assert f"due <t:{int(match.deadline)}:R>" in entries[1]
    assert f"<#{ch['quiet']}>" not in text and str(elsewhere.channel("general").id) not in text
    # Bob's list: the same games seen from his side
    theirs = (await fake.slash(bob, guild.channel("general"), "wargames", "mygames")).content
    assert theirs.splitlines()[0] == "**Your open games here** (2; 1 waiting on you):"
    assert theirs.splitlines()[1].startswith(
        f"1. **Your move**: Block Wars (you are the Germans) against <@{alice.id}>"
    )
    nobody = (await fake.slash(carol, guild.channel("quiet"), "wargames", "mygames")).content
    assert "Your challenge: Fix Bayonets to <@" in nobody and "unanswered" in nobody


async def test_mygames_with_no_game_says_how_to_start_one(fake_discord: FakeDiscord, start_bot, bot):
    guild = fake_discord.add_guild("Front", channels=("general",))
    eve = fake_discord.add_user("eve")
    await start_bot(bot)
    result = await fake_discord.slash(eve, guild.channel("general"), "wargames", "mygames")
    assert result.ephemeral and result.content.startswith("You have no open games in this server.")


async def test_mygames_in_the_console(tmp_path: Path):
    clock = HandClock()
    out = io.StringIO()
    db = await Database.open(tmp_path / "c.db", clock=clock)
    console = Console(MatchService(db, clock=clock, rng=random.Random(5)), boards=tmp_path / "b", out=out)
    script = [
        "/blockwars challenge @bob side:germans",
        "/as bob",
        "/blockwars accept",
        "/channel game-2",
        "/fixbayonets challenge @alice",
        "/as alice",
        "/wargames mygames",
    ]
    assert await console.run_lines(script) == 0
    shown = out.getvalue().split("alice #game-2> /wargames mygames\n", 1)[1]
    assert shown.startswith(
        "Your open games here (2; all waiting on you):\n1. Challenge to you: Fix Bayonets"
    )
    assert "from @bob in #game-2, expires in 1 day" in shown
    assert "2. Your move: Block Wars (you are the Germans) against @bob in #general, due in 3 days" in shown
    assert await console.run_lines(["/wargames mygames please"]) == 1  # refused, with the commands
    assert "games, help [game], mygames, away days:N, back" in out.getvalue().splitlines()[-1]
    assert names.user_id("alice") == console.my_id
    await console.close()
