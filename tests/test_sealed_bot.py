"""A channel's seal as players meet it, through the fake Discord and the console: every end of a game
(declined, cancelled, resigned, lost on time, expired) says the next game here is sealed; a game
against the AI started there says its dice were sealed in advance, and `/wargames verify` checks the
seal's message came before the challenge; the secret of a seal is in no message or log before its
game ends (docs/fairness.md, "Sealed in advance")."""

from __future__ import annotations

import asyncio
import io
import logging
import random
import re
import time
from pathlib import Path

import pytest

from console.app import Console
from data import Database
from engine import fairness
from play import MatchService
from tests.clock import Clock
from tests.fakediscord import FakeDiscordError
from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)
from tests.test_bot import World, deployed, world  # noqa: F401 (pytest fixtures)
from tests.test_console import close_consoles, open_console  # noqa: F401 (pytest fixture)

SEALED = re.compile(r"The next game here is sealed: dice commitment `([0-9a-f]{32})…`\.")


def discord_ids(w: World) -> None:
    """Make the bot's players' inputs the ids the fake Discord gives (not numbers from its seeded
    rng) and its clock the fake's, which mints ids from the wall clock: then a record's ids and
    times agree as in production, and `verify` compares the ids' own times."""
    assert w.bot is not None
    w.bot.service.seeded_inputs = False
    w.clock.now = time.time()


def sealed_by(text: str) -> str:
    """The short commitment an end message seals the next game with (it says one, exactly once)."""
    found = SEALED.findall(text)
    assert len(found) == 1, text
    return found[0]


async def test_each_end_seals_the_next_game_which_an_ai_game_takes_and_verify_checks(
    world: World,  # noqa: F811
    caplog,
) -> None:
    caplog.set_level(logging.DEBUG)
    w = world
    assert w.bot is not None
    service, db = w.bot.service, w.bot.database
    discord_ids(w)
    # A challenge declined by its button: the channel is free, and its next game is sealed.
    made = await w.slash(w.alice, "challenge", {"opponent": w.bob})
    match = await w.match()
    declined = await w.fake.click(w.bob, made.message, f"bw:decline:{match.id}")
    said = [m for m in declined.messages if not m.ephemeral]
    (answer,) = said
    first = sealed_by(answer.content)
    seal = await service.next_seal(w.general.id)  # the one it holds: not taken, not drawn again
    assert seal.commitment.startswith(first) and seal.message_id == answer.id
    assert seal.shown_at == w.clock()
    # Alice takes on the AI here: its first board says the dice were sealed before she asked.
    w.clock.now += 600
    started = await w.slash(
        w.alice, "challenge", {"opponent": w.fake.bot_user, "side": "canadians", "level": "easy"}
    )
    board = started.messages[0].content
    assert f"Dice sealed in advance: commitment `{first}…`, shown in this channel on <t:" in board
    assert "before this challenge" in board
    game = await w.match()
    assert game.seed_commitment == seal.commitment and game.seal_message_id == answer.id
    await w.cog.idle()
    # Nothing shown before the end holds the seal's secret: not a message, not a log line.
    everything = [m.content for m in w.fake.messages_in(w.general)]
    assert all(seal.secret not in text for text in everything)
    assert seal.secret not in caplog.text
    resigned = await w.slash(w.alice, "resign")
    await w.cog.idle()
    end = resigned.message.content
    assert f"The secret seed was `{seal.secret}`" in end  # revealed at the end, as every game's is
    second = sealed_by(end)
    assert second != first and not seal.commitment.startswith(second)
    verified = await w.fake.slash(w.eve, w.general, "wargames", "verify", {})
    assert "Verified" in verified.content and "❌" not in verified.content, verified.content
    assert f"✅ The commitment was shown by message {answer.id}" in verified.content
    assert "before the challenge" in verified.content
    # The seal the end showed is the channel's next, and it was shown by that message.
    assert sum(second in m.content for m in w.fake.messages_in(w.general)) == 1  # said once
    following = await service.next_seal(w.general.id)
    assert following.commitment.startswith(second) and following.message_id == resigned.message.id
    assert following.secret not in caplog.text
    assert all(following.secret not in m.content for m in w.fake.messages_in(w.general))
    assert fairness.snowflake_time(answer.id) is not None
    assert db is not None


async def test_a_cancelled_game_and_an_expired_challenge_seal_their_channel_once(world: World) -> None:  # noqa: F811
    w = world
    assert w.bot is not None
    await w.slash(w.alice, "challenge", {"opponent": w.bob})
    done = await w.slash(w.mod, "cancel")
    assert not done.ephemeral
    cancelled = sealed_by(done.content)
    # the next challenge takes that seal; left unanswered, it expires, and the sweep's notice seals
    made = await w.slash(w.alice, "challenge", {"opponent": w.bob})
    assert f"Dice sealed in advance: commitment `{cancelled}…`" in made.content
    w.clock.now += 8 * 86400
    await w.cog.run_sweep()
    await w.cog.idle()
    notices = [m for m in w.fake.messages_in(w.general) if "so it has expired" in m.content]
    (notice,) = notices
    expired = sealed_by(notice.content)
    assert expired != cancelled
    seal = await w.bot.service.next_seal(w.general.id)
    assert seal.commitment.startswith(expired) and seal.message_id == notice.id


async def test_a_loss_on_time_seals_the_next_game_in_the_sweeps_notice(world: World) -> None:  # noqa: F811
    w = world
    assert w.bot is not None
    await deployed(w)
    match = await w.match()
    w.clock.now = match.deadline + 1
    notices = await w.cog.run_sweep()
    assert [n.kind for n in notices] == ["forfeit"]
    posted = w.fake.messages_in(w.general)[-1]
    assert "ran out of time" in posted.content and posted.attachments
    seal = await w.bot.service.next_seal(w.general.id)
    assert seal.commitment.startswith(sealed_by(posted.content)) and seal.message_id == posted.id
    assert sum(seal.commitment[:32] in m.content for m in w.fake.messages_in(w.general)) == 1


async def test_wargames_seal_seals_a_new_thread_once_for_its_first_game(world: World) -> None:  # noqa: F811
    """A thread that never held a game has no end message to seal it: `/wargames seal` posts the
    seal there, once (asked again, it is told privately), and the thread's first game, against the
    AI, takes it and verifies with it."""
    w = world
    assert w.bot is not None
    discord_ids(w)
    posted = await w.fake.slash(w.eve, w.thread, "wargames", "seal", {})
    assert not posted.ephemeral
    short = sealed_by(posted.content)
    assert "before anyone challenges" in posted.content
    again = await w.fake.slash(w.alice, w.thread, "wargames", "seal", {})
    assert (
        again.ephemeral and f"sealed already: dice commitment `{short}…`, shown here on <t:" in again.content
    )
    w.clock.now += 60
    started = await w.slash(
        w.alice,
        "challenge",
        {"opponent": w.fake.bot_user, "side": "canadians", "level": "easy"},
        channel=w.thread,
    )
    assert (
        f"Dice sealed in advance: commitment `{short}…`, shown in this channel" in started.messages[0].content
    )
    await w.cog.idle()
    await w.slash(w.alice, "resign", channel=w.thread)
    await w.cog.idle()
    verified = await w.fake.slash(w.eve, w.thread, "wargames", "verify", {})
    assert "Verified" in verified.content and f"shown by message {posted.message.id}" in verified.content


async def test_the_console_seals_the_next_game_at_each_end(tmp_path: Path) -> None:
    console, out = await open_console(tmp_path)
    await console.run_lines(["/blockwars challenge @bob", "/as bob", "/blockwars decline"])
    first = sealed_by(out.getvalue())
    out.truncate(0)
    out.seek(0)
    await console.run_lines(["/as alice", "/blockwars challenge @bob"])
    text = out.getvalue()
    assert f"Dice sealed in advance: commitment `{first}…`, shown in this channel" in text
    match = await console.service.db.get_channel_match(console.channel_id)
    assert match is not None
    assert match.sealed_at is not None and match.seal_message_id is None  # the console has no ids
    out.truncate(0)
    out.seek(0)
    await console.run_lines(["/as bob", "/blockwars accept", "/blockwars resign"])
    second = sealed_by(out.getvalue())
    assert second != first and "Game over" in out.getvalue()
    out.truncate(0)
    out.seek(0)
    await console.run_lines(["/wargames verify"])
    text = out.getvalue()
    assert "Verified" in text and "❌" not in text, text
    assert "✅ The bot's clock says the commitment was shown at" in text and "the challenge at" in text
    out.truncate(0)
    out.seek(0)
    await console.run_lines(["/wargames seal", "/wargames seal"])
    text = out.getvalue()
    # the end showed the seal already: it is said again privately, not posted or drawn anew
    assert (
        text.count(
            f"(only you see this) This channel's next game is sealed already: dice commitment `{second}…`"
        )
        == 2
    )
    await console.close()


async def test_a_games_end_owed_since_a_crash_seals_the_next_game_when_posted(world: World) -> None:  # noqa: F811
    """The bot stores a resignation and dies before posting its board: the restarted bot posts the
    owed end, with the seal of the next game, recorded as shown by that post."""
    w = world
    assert w.bot is not None
    await deployed(w)

    async def died(*args, **kwargs) -> None:
        return None  # as if the process were killed right after the acknowledgement

    w.cog.post_board = died  # type: ignore[method-assign]
    with pytest.raises(FakeDiscordError):
        await w.slash(w.bob, "resign", timeout=1.0)
    assert await w.match() is None  # the game is over, its board owed
    await w.restart()
    (end,) = await w.fake.wait_for_messages(
        lambda m: m.channel_id == w.general.id and not m.ephemeral and "Game over" in m.content, timeout=10
    )
    seal = await w.bot.service.next_seal(w.general.id)
    assert seal.commitment.startswith(sealed_by(end.content))
    for _ in range(100):  # recorded as shown right after the post lands
        if (seal := await w.bot.service.next_seal(w.general.id)).message_id is not None:
            break
        await asyncio.sleep(0.02)
    assert seal.message_id == end.id


async def test_the_console_claims_no_input_after_the_seal_when_it_has_no_ids(tmp_path: Path) -> None:
    """The console's commands have no ids (a `-` stands for each), as `make run` plays: its verify
    says no input was given and that the seal alone set the dice, not that inputs came after it."""
    clock = Clock(1_790_000_000.0)
    db = await Database.open(tmp_path / "console.db", clock=clock)
    out = io.StringIO()
    service = MatchService(db, clock=clock, rng=random.Random(5), seeded_inputs=False)
    console = Console(service, boards=tmp_path / "boards", out=out, ai_budget=0.05)
    try:
        lines = ["/wargames seal", "/blockwars challenge @bob", "/as bob", "/blockwars accept"]
        assert await console.run_lines([*lines, "/blockwars resign", "/wargames verify"]) == 0
        text = out.getvalue()
        assert "Verified" in text and "❌" not in text, text
        assert "challenge:-, accept:- (no ids: none was given). The sealed secret alone" in text
        assert "all after the sealed commitment was shown" not in text
    finally:
        await db.close()
