"""One board per hand-off for people too (issue 30, item 5): a player's step of a turn they go on
with is answered to them alone, the channel sees the turn once it passes, and a step taken back is
never shown to the opponent: no public message, no board, no line, no DM. Through the real bot on the
fake Discord and through the console, in two games with turns of several steps."""

from __future__ import annotations

import io
import logging
import random
from pathlib import Path
from typing import cast

import pytest

from cogs.core import Core
from console import Console
from data import Database
from engine import registry
from engine.protocol import drew_or_revealed
from play import MatchService
from play.undo import MID_TURN_NOTE
from play.words import history_line
from tests.botkit import BotKit
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import ForwardErrors, HandClock
from tests.ids import button_id

GAMES = ["blockwars", "combinedarms"]  # turns of several steps that draw nothing


def quiet_step(game, state, side: str, rng: random.Random, avoid: set[str]) -> tuple[str, str] | None:
    """A step `side` may take and take back (it draws nothing, shows nothing, keeps the turn), and its
    line as the channel would read it; None if there is none."""
    legal = [a for a in state.legal_actions(side) if not a.anytime and str(a) not in avoid]
    rng.shuffle(legal)
    for action in legal:
        trial = state.clone()
        drawn = trial.chance_drawn()
        events = list(trial.apply(action, side))
        if drew_or_revealed(drawn, trial.chance_drawn(), events) or trial.is_over():
            continue
        if trial.to_act() != {side} or state.to_act() != {side}:
            continue
        return str(action), history_line(game.side(side).title, str(action), events)
    return None


@pytest.mark.parametrize("name", GAMES)
async def test_the_opponent_never_sees_a_step_taken_back(
    name: str, fake_discord: FakeDiscord, start_bot, botkit: BotKit
) -> None:
    fake = fake_discord
    fake.settle = 0.01
    guild = fake.add_guild("Front", channels=("general",))
    channel = guild.channel("general")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    errors = ForwardErrors(fake)
    logging.getLogger("bot").addHandler(errors)
    bot = await botkit.build(clock=HandClock(), rng=random.Random(3))
    try:
        await start_bot(bot)
        core = cast(Core, bot.get_cog("Core"))
        game = registry.game(name)
        users = {alice.id: alice, bob.id: bob}
        await fake.slash(bob, channel, "wargames", "notify", {"enabled": True})
        await fake.slash(alice, channel, "wargames", "notify", {"enabled": True})
        challenged = await fake.slash(
            alice, channel, name, "challenge", {"opponent": bob, "side": game.sides[0].name}
        )
        database = bot.database
        assert database is not None
        match = await database.get_channel_match(channel.id)
        assert match is not None
        await fake.click(bob, challenged.message, f"bw:accept:{match.id}")
        rng = random.Random(11)
        hidden_turns = 0
        for _ in range(300):
            live, state = await bot.service.current(channel.id)
            if state.is_over() or hidden_turns >= 2:
                break
            side = sorted(state.to_act())[0]
            user = users[live.sides[side]]
            other = bob if user is alice else alice
            found = quiet_step(game, state, side, rng, set()) if len(state.to_act()) == 1 else None
            if found is None:  # play on until a turn with a step to take back comes
                legal = await bot.service.legal(channel.id, user.id)
                await fake.slash(user, channel, name, "play", {"action": rng.choice(legal)})
                await core.idle()
                continue
            step, line = found
            public_before = [m.id for m in fake.messages_in(channel) if not m.ephemeral]
            dms_before = len(fake.dms_to(other))
            played = await fake.slash(user, channel, name, "play", {"action": step})
            await core.idle()
            answer = played.message
            assert answer.ephemeral and MID_TURN_NOTE in answer.content, answer.content
            assert answer.attachment("board.png").data[:4] == b"\x89PNG"
            now = await database.get_channel_match(channel.id)
            assert now is not None
            version = now.version
            assert button_id("undo", match, version=version) in answer.custom_ids
            taken = await fake.slash(user, channel, "wargames", "undo", {})
            assert taken.ephemeral and f"you took back `{step}`" in taken.content
            # play the turn out with other steps, until it passes to the other side
            for _ in range(60):
                _, state = await bot.service.current(channel.id)
                if state.is_over() or state.to_act() != {side}:
                    break
                legal = [a for a in await bot.service.legal(channel.id, user.id) if a != step]
                ends = [a for a in legal if a in ("end", "done", "pass")]
                choice = ends[0] if ends and rng.random() < 0.3 else rng.choice(legal)
                await fake.slash(user, channel, name, "play", {"action": choice})
                await core.idle()
            public = [m for m in fake.messages_in(channel) if not m.ephemeral and m.id not in public_before]
            # exactly one public message since the step: the hand-off's board, with the turn's story
            boards = [m for m in public if m.attachments]
            assert len(boards) == 1, [m.content for m in public]
            for message in public:
                assert line not in message.content, message.content
            history = await bot.service.history(channel.id, limit=200)
            assert line not in history
            assert all(line not in m.content for m in fake.dms_to(other)[dms_before:])
            hidden_turns += 1
        assert hidden_turns >= 1
    finally:
        logging.getLogger("bot").removeHandler(errors)
        await bot.close()


async def test_the_console_keeps_a_turn_private_until_it_passes(tmp_path: Path) -> None:
    """The console's answer to a step of a turn that goes on is marked as the player's alone; at the
    hand-off the turn is told without the step taken back."""
    db = await Database.open(tmp_path / "c.db", clock=HandClock())
    out = io.StringIO()
    service = MatchService(db, clock=HandClock(), rng=random.Random(2))
    console = Console(service, boards=tmp_path / "b", out=out)
    try:
        lines = [
            "/blockwars challenge @bob side:germans",
            "/as bob",
            "/blockwars accept",
            "/as alice",
            "/blockwars setup",
            "/as bob",
            "/blockwars setup",
            "/as alice",
        ]
        assert await console.run_lines(lines) == 0, out.getvalue()[-500:]
        out.truncate(0)
        out.seek(0)
        assert await console.run_lines(["/blockwars move c7-b7"]) == 0, out.getvalue()
        said = out.getvalue()
        assert "(only you see this) board:" in said and MID_TURN_NOTE in said
        assert await console.run_lines(["/wargames undo", "/blockwars move e6-e5"]) == 0, out.getvalue()
        out.truncate(0)
        out.seek(0)
        assert await console.run_lines(["/blockwars end"]) == 0, out.getvalue()
        said = out.getvalue()
        assert "(only you see this)" not in said and "board:" in said
        assert "The channel sees your turn:" in said and "c7" not in said and "e5" in said, said
    finally:
        await db.close()
