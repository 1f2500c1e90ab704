"""The Discord layer for real: the bot built as `python bot.py` builds it (tests/botkit.py), connected
to a fake Discord.

Every story drives slash commands, buttons and selects exactly as Discord would deliver them and
checks what the bot sent back: text, components and a PNG that decodes. The database is a real
SQLite file, the renderer and the engine are the real ones, and the clock is ours.
"""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import io
import logging
import os
import random
import re
import time
from collections.abc import Callable
from dataclasses import replace

import discord
import pytest
from PIL import GifImagePlugin, Image

from bot import WargamesBot, intents
from cogs.core import APOLOGY, Core
from data import Status
from engine.blockwars import Side, State
from engine.blockwars.events import Event
from engine.blockwars.position import build
from engine.protocol import State as AnyGame
from play.service import MatchService
from play.undo import MID_TURN_NOTE
from render.blockwars import render_board
from settings import Settings, load_settings
from tests.botkit import BotKit
from tests.fakediscord import MANAGE_CHANNELS, FakeDiscord, FakeDiscordError, FakeMessage, InteractionResult
from tests.fakediscord.fixtures import TEST_TOKEN, ForwardErrors, HandClock
from tests.ids import button_id
from tests.pings import after_ping


class World:
    """The fake guild, its players and a helper to (re)start the bot on the same database."""

    def __init__(self, fake: FakeDiscord, start_bot, botkit: BotKit) -> None:
        self.fake = fake
        self.start_bot = start_bot
        self.kit = botkit
        self.guild = fake.add_guild("Western Front", channels=("general", "trenches"))
        self.general = self.guild.channel("general")
        self.trenches = self.guild.channel("trenches")
        self.thread = fake.add_thread(self.general, "match-2")
        self.alice = fake.add_user("alice")
        self.bob = fake.add_user("bob")
        self.eve = fake.add_user("eve")
        mods = fake.add_role(self.guild, "mods", MANAGE_CHANNELS)
        self.mod = fake.add_user("mod", roles=[mods])
        self.other_bot = fake.add_user("otherbot", bot=True)
        self.clock = HandClock()
        self.env: dict[str, str] = {}  # the bot's environment, beyond the kit's (a database in tmp_path)
        self.bot: WargamesBot | None = None

    @property
    def settings(self) -> Settings:
        """What the running bot read from its environment."""
        assert self.bot is not None
        return self.bot.settings

    async def start(self) -> WargamesBot:
        bot = await self.kit.build(self.env, clock=self.clock, rng=random.Random(1))
        await self.start_bot(bot)
        self.bot = bot
        return bot

    async def restart(self) -> WargamesBot:
        assert self.bot is not None
        await self.cog.idle()
        await self.kit.stop(self.bot)
        return await self.start()

    @property
    def cog(self) -> Core:
        assert self.bot is not None
        cog = self.bot.get_cog("Core")
        # load_extension imports the module afresh, so compare by name, not class identity
        assert cog is not None and type(cog).__name__ == Core.__name__
        return cog  # type: ignore[return-value]

    async def match(self, channel=None):
        assert self.bot is not None
        return await self.bot.database.get_channel_match((channel or self.general).id)

    async def slash(
        self, user, name: str, options: dict | None = None, channel=None, **kw
    ) -> InteractionResult:
        return await self.fake.slash(user, channel or self.general, "blockwars", name, options or {}, **kw)

    async def vs_ai(self, side: str = "canadians", level: str = "easy") -> InteractionResult:
        """Alice challenges the bot itself to Block Wars, playing `side`: the game begins at once."""
        options = {"opponent": self.fake.bot_user, "side": side, "level": level}
        return await self.slash(self.alice, "challenge", options)


@pytest.fixture
async def world(fake_discord: FakeDiscord, start_bot, botkit: BotKit):
    handler = ForwardErrors(fake_discord)
    logger = logging.getLogger("bot")
    logger.addHandler(handler)
    w = World(fake_discord, start_bot, botkit)
    w.errors = handler  # type: ignore[attr-defined]
    try:
        await w.start()
        yield w
        await w.cog.idle()
    finally:
        logger.removeHandler(handler)
        if w.bot is not None:
            await w.kit.stop(w.bot)


def png_of(message: FakeMessage) -> Image.Image:
    data = message.attachment("board.png").data
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG" and image.size[0] > 100
    return image


def assert_private_board(message: FakeMessage, player) -> None:
    """The answer to a step of a turn that stays with its player: their board, for them alone, saying
    it is still their turn; the channel waits for the hand-off (issue 30)."""
    assert message.ephemeral
    png_of(message)
    assert f"<@{player.id}>" in message.content and MID_TURN_NOTE in message.content


def story(text: str) -> str:
    """A board message's words after the private note a mid-turn answer starts with."""
    return text.removeprefix(f"{MID_TURN_NOTE}\n")


def assert_board_post(message: FakeMessage, next_player) -> None:
    """A board post: the image, who is to move (mentioned), and the deadline as a Discord timestamp."""
    assert not message.ephemeral
    png_of(message)
    assert f"<@{next_player.id}>" in message.content
    assert re.search(r"<t:\d+:R>", message.content), message.content


async def challenge_accepted(w: World, channel=None) -> FakeMessage:
    """Alice (Germans) challenges Bob, who accepts with the button; returns the first board."""
    channel = channel or w.general
    result = await w.slash(w.alice, "challenge", {"opponent": w.bob, "side": "germans"}, channel=channel)
    assert not result.ephemeral
    assert f"<@{w.bob.id}>" in result.content
    assert re.search(r"the challenge expires <t:(\d+):R> \(<t:\1:f>\)\.", result.content), result.content
    match = await w.match(channel)
    assert match.status is Status.CHALLENGED
    assert result.message.custom_ids == [f"bw:accept:{match.id}", f"bw:decline:{match.id}"]
    accepted = await w.fake.click(w.bob, result.message, f"bw:accept:{match.id}")
    assert accepted.deferred
    (challenge,) = accepted.edited  # the challenge message loses its buttons
    assert challenge.components == [] and "Accepted." in challenge.content
    board = accepted.message
    assert_board_post(board, w.alice)
    assert "deploy" in board.content
    return board


async def battlefronts_accepted(w: World) -> MatchService:
    """Alice (the Reds) challenges Bob to Battlefronts in #general and he accepts by the button:
    the bot's service, to read the game the tests then play through the bot."""
    challenge = await w.fake.slash(
        w.alice, w.general, "battlefronts", "challenge", {"opponent": w.bob, "side": "red"}
    )
    match = await w.match()
    await w.fake.click(w.bob, challenge.message, f"bw:accept:{match.id}")
    await w.cog.idle()
    assert w.bot is not None
    return w.bot.service


async def private_steps_until(
    w: World, service: MatchService, seed: int, stop: Callable[[bool, AnyGame, list[str]], bool]
) -> list[str]:
    """Play the game in #general at random (seeded) through the bot, each step a `play` command of
    the player to act, until a step answered privately meets `stop(quick_before, after, private)`:
    the steps of the turn the channel has not seen (the last one included)."""
    rng = random.Random(seed)
    private: list[str] = []
    for _ in range(300):
        match, state = await service.current(w.general.id)
        side = sorted(state.to_act())[0]
        user = w.alice if match.sides[side] == w.alice.id else w.bob
        quick = state.quick_decision()
        action = str(rng.choice(state.legal_actions(side)))
        step = await w.fake.slash(user, w.general, match.game, "play", {"action": action})
        await w.cog.idle()
        hidden = all(m.ephemeral for m in step.messages)
        private = [*private, action] if hidden else []
        _, after = await service.current(w.general.id)
        if hidden and stop(quick, after, private):
            return private
    raise AssertionError("no private step met the test's condition")


async def deployed(w: World, channel=None) -> FakeMessage:
    """Both sides deploy the standard layout: the Germans by button, the Canadians by command."""
    channel = channel or w.general
    board = await challenge_accepted(w, channel)
    match = await w.match(channel)
    std = button_id("dec", match, "setup std")
    assert std in board.custom_ids
    after = await w.fake.click(w.alice, board, std)
    assert_board_post(after.message, w.bob)
    result = await w.slash(w.bob, "setup", {"layout": "std"}, channel=channel)
    assert_board_post(result.message, w.alice)
    assert "Germans" in result.content and "2 actions left" in result.content
    return result.message


# ---------------------------------------------------------------------- the core story


async def test_challenge_accept_setup_and_move(world: World):
    w = world
    assert w.bot is not None and w.bot.http.connector.limit == w.settings.http_connections
    board = await deployed(w)
    match = await w.match()
    assert board.custom_ids == [
        button_id("act", match),
        button_id("dec", match, "end"),
    ]
    public = len([m for m in w.fake.messages_in(w.general) if not m.ephemeral])
    moved = await w.slash(w.alice, "move", {"action": "e6-e5"})
    assert moved.deferred
    message = moved.message
    assert message.content.startswith(f"{MID_TURN_NOTE}\nGermans:")
    assert "1 action left" in message.content
    assert_private_board(message, w.alice)  # her turn goes on: the channel sees it when it passes
    assert len([m for m in w.fake.messages_in(w.general) if not m.ephemeral]) == public
    assert (await w.match()).version == match.version + 1


async def test_moves_by_the_take_action_select_flow(world: World):
    w = world
    board = await deployed(w)
    match = await w.match()
    opened = await w.fake.click(w.alice, board, button_id("act", match))
    assert opened.ephemeral
    unit_id = button_id("unit", match)
    units = [o["value"] for o in opened.message.component(unit_id)["options"]]
    assert 0 < len(units) <= 25 and "e6" in units
    picked = await w.fake.select(w.alice, opened.message, unit_id, ["e6"])
    assert picked.response_type == 7  # the ephemeral prompt is replaced by the unit's actions
    do_id = button_id("do", match, "e6:0")
    options = picked.edited[0].component(do_id)["options"]
    assert {o["value"] for o in options} >= {"e6-e5"}
    assert any(o["label"] == "Move e6 → e5" for o in options)
    played = await w.fake.select(w.alice, picked.edited[0], do_id, ["e6-e5"])
    assert played.message.content.startswith(f"{MID_TURN_NOTE}\nGermans:")
    assert_private_board(played.message, w.alice)
    # the End turn button on her private board ends the turn: the Canadians are to move
    match = await w.match()
    ended = await w.fake.click(w.alice, played.message, button_id("dec", match, "end"))
    assert after_ping(ended.message.content).startswith("Germans:")
    assert_board_post(ended.message, w.bob)
    assert "Canadians" in ended.message.content


async def put_position(w: World, state: State, channel=None) -> None:
    """Replace the live game's snapshot by a built position (replay consistency is not needed here)."""
    assert w.bot is not None
    match = await w.match(channel)
    side = state.current_player()
    assert side is not None
    await w.bot.database.update_match(
        match.id,
        expected_version=match.version,
        snapshot=state.to_json(),
        turn_player_id=match.sides[side.value],
    )
    w.bot.service.forget(match.channel_id)  # written behind the service's back: it must re-read


async def attack_with_the_card_on_top(w: World, card: str) -> InteractionResult:
    """Deployed, then a small position where the Germans' e5 attacks e4 turning `card` first."""
    await deployed(w)
    await put_position(
        w,
        build(
            {"e5": "G", "e4": "C", "a8": "G", "h1": "C"},
            decks={Side.GERMANS: [card, "9S"], Side.CANADIANS: ["5C", "3D"]},
        ),
    )
    return await w.slash(w.alice, "attack", {"action": "e5xe4"})


async def test_a_pending_decision_is_answered_by_the_player_whose_turn_it_is_not(world: World):
    w = world
    attacked = await attack_with_the_card_on_top(w, "JH")  # a Jack: the Canadians may dogfight
    message = attacked.message
    assert "Jack of hearts" in message.content
    assert_board_post(message, w.bob)  # Bob must decide although it is the Germans' turn
    # the decision is told by its buttons, which the board carries (tests/test_status_buttons.py)
    assert "**Dogfight with aircraft A**" in message.content and "**Let it pass**" in message.content
    match = await w.match()
    ids = [button_id("dec", match, n) for n in ("dogfight A", "dogfight B", "decline")]
    assert message.custom_ids == ids
    refused = await w.fake.click(w.alice, message, ids[0])
    assert refused.ephemeral and "not your turn" in refused.content and "must decide" in refused.content
    assert (await w.match()).version == match.version
    answered = await w.fake.click(w.bob, message, ids[0])
    assert after_ping(answered.message.content).startswith("Canadians:")
    png_of(answered.message)


async def test_a_win_ends_the_game_and_counts_in_the_stats(world: World):
    w = world
    await deployed(w)
    await put_position(w, build({"c1": "G", "d2": "G", "h8": "C"}))
    match = await w.match()
    won = await w.slash(w.alice, "move", {"action": "d2-d1"})
    assert f"Game over: <@{w.alice.id}> wins with the Germans" in won.content
    assert won.message.custom_ids == [f"bw:review:{match.id}"]  # a finished game offers only a look back
    png_of(won.message)
    assert await w.match() is None  # the channel is free again
    stats = await w.slash(w.alice, "stats")
    assert "1 won, 0 lost" in stats.content
    lb = await w.slash(w.bob, "leaderboard")
    assert f"<@{w.alice.id}>" in lb.content


async def test_restart_in_the_middle_and_click_a_button_posted_before_it(world: World):
    w = world
    board = await deployed(w)
    match = await w.match()
    await w.restart()
    # a button on a board posted before the restart still works
    opened = await w.fake.click(w.alice, board, button_id("act", match))
    assert opened.ephemeral and opened.message.custom_ids == [button_id("unit", match)]
    ended = await w.fake.click(w.alice, board, button_id("dec", match, "end"))
    assert_board_post(ended.message, w.bob)
    moved = await w.slash(w.bob, "move", {"action": "e3-e4"})
    assert story(moved.content).startswith("Canadians:") and moved.ephemeral
    # the select opened before the move is now stale: nothing is applied
    stale = await w.fake.select(w.alice, opened.message, button_id("unit", match), ["e6"])
    assert stale.ephemeral and "out of date" in stale.content


async def test_a_stale_button_is_refused_politely(world: World):
    w = world
    board = await deployed(w)
    match = await w.match()
    await w.slash(w.alice, "move", {"action": "e6-e5"})
    version = (await w.match()).version
    stale = await w.fake.click(w.alice, board, button_id("dec", match, "end"))
    assert stale.ephemeral and "out of date" in stale.content
    stale = await w.fake.click(w.alice, board, button_id("act", match))
    assert stale.ephemeral and "out of date" in stale.content
    assert (await w.match()).version == version


async def test_an_outsider_cannot_move(world: World):
    w = world
    board = await deployed(w)
    match = await w.match()
    refused = await w.slash(w.eve, "move", {"action": "e6-e5"})
    assert refused.ephemeral and "not playing" in refused.content
    clicked = await w.fake.click(w.eve, board, button_id("act", match))
    assert clicked.ephemeral and "not playing" in clicked.content
    clicked = await w.fake.click(w.eve, board, button_id("dec", match, "end"))
    assert clicked.ephemeral and "not playing" in clicked.content
    not_yet = await w.slash(w.bob, "move", {"action": "e3-e4"})
    assert not_yet.ephemeral and "not your turn" in not_yet.content
    assert f"<@{w.alice.id}>" in not_yet.content  # the service words it in Discord's markup
    illegal = await w.slash(w.alice, "move", {"action": "e6-e3"})
    assert illegal.ephemeral
    assert (await w.match()).version == match.version


async def test_autocomplete_offers_at_most_25_legal_choices(world: World):
    w = world
    await deployed(w)
    _, state = await w.bot.service.current(w.general.id)  # type: ignore[union-attr]
    legal = {str(a) for a in state.legal_actions()}
    choices = await w.fake.autocomplete(
        w.alice, w.general, "blockwars", "move", {"action": ""}, focused="action"
    )
    assert 0 < len(choices) <= 25
    assert all(c["value"] in legal and "-" in c["value"] and "x" not in c["value"] for c in choices)
    typed = await w.fake.autocomplete(
        w.alice, w.general, "blockwars", "move", {"action": "e6"}, focused="action"
    )
    assert typed and all("e6" in c["value"] for c in typed)
    attacks = await w.fake.autocomplete(
        w.alice, w.general, "blockwars", "fire", {"action": ""}, focused="action"
    )
    assert len(attacks) <= 25
    nobody = await w.fake.autocomplete(
        w.eve, w.general, "blockwars", "move", {"action": ""}, focused="action"
    )
    assert nobody == []
    waiting = await w.fake.autocomplete(
        w.bob, w.general, "blockwars", "move", {"action": ""}, focused="action"
    )
    assert waiting == [{"name": "Not your turn: the game waits for the Germans.", "value": "not your turn"}]
    chosen = await w.slash(w.bob, "move", {"action": "not your turn"})  # picking it anyway
    assert chosen.ephemeral and "not your turn" in chosen.content and "Germans" in chosen.content


async def test_a_deadline_passing_forfeits_the_game(world: World):
    w = world
    await deployed(w)
    match = await w.match()
    w.clock.now = match.deadline - 3600  # the reminder comes first
    notices = await w.cog.run_sweep()
    assert [n.kind for n in notices] == ["reminder"]
    reminder = w.fake.messages_in(w.general)[-1]
    assert f"<@{w.alice.id}>" in reminder.content and "<t:" in reminder.content
    w.clock.now = match.deadline + 1
    notices = await w.cog.run_sweep()
    assert [n.kind for n in notices] == ["forfeit"]
    posted = w.fake.messages_in(w.general)[-1]
    assert "ran out of time" in posted.content and "wins with the Canadians" in posted.content
    # the notice says why; the status only who won (it said the loss on time twice)
    assert f"Game over: <@{w.bob.id}> wins with the Canadians**.\n" in posted.content, posted.content
    assert posted.content.count("ran out of time") == 1, posted.content
    png_of(posted)
    assert await w.match() is None


async def test_challenges_that_are_refused(world: World):
    w = world
    me = await w.slash(w.alice, "challenge", {"opponent": w.alice})
    assert me.ephemeral and "yourself" in me.content
    bot = await w.slash(w.alice, "challenge", {"opponent": w.other_bot})
    assert bot.ephemeral and "Bots cannot play" in bot.content
    await w.slash(w.alice, "challenge", {"opponent": w.bob})
    not_eve = await w.slash(w.eve, "accept")
    assert not_eve.ephemeral and not_eve.content == f"Only <@{w.bob.id}> can accept this challenge."
    second = await w.slash(w.eve, "challenge", {"opponent": w.mod})
    assert second.ephemeral and "thread" in second.content
    in_thread = await w.slash(w.eve, "challenge", {"opponent": w.mod}, channel=w.thread)
    assert not in_thread.ephemeral
    thread_match = await w.match(w.thread)
    said_no = await w.fake.click(w.mod, in_thread.message, f"bw:decline:{thread_match.id}")
    assert "declined" in said_no.content and await w.match(w.thread) is None
    declined = await w.slash(w.bob, "decline")
    assert "declined" in declined.content
    assert await w.match() is None


async def test_an_unexpected_error_apologises_and_leaves_the_game_alone(world: World, monkeypatch):
    w = world
    await deployed(w)
    match = await w.match()

    async def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(w.bot.service, "act", broken)  # type: ignore[union-attr]
    w.errors.enabled = False  # type: ignore[attr-defined]
    result = await w.slash(w.alice, "move", {"action": "e6-e5"})
    assert result.ephemeral and result.content == APOLOGY
    assert (await w.match()).version == match.version


async def test_only_moderators_cancel(world: World):
    w = world
    await w.slash(w.alice, "challenge", {"opponent": w.bob})
    refused = await w.slash(w.eve, "cancel")
    assert refused.ephemeral and "manage this channel" in refused.content
    done = await w.slash(w.mod, "cancel")
    assert "cancelled" in done.content and not done.ephemeral
    assert await w.match() is None


async def test_rules_history_notify_and_resign(world: World):
    w = world
    rules = await w.slash(w.eve, "rules", {"topic": "wire"})
    assert rules.ephemeral and "wire" in rules.content.lower()
    await deployed(w)
    await w.slash(w.alice, "move", {"action": "e6-e5"})
    # Alice's turn is hers alone until it passes: Eve sees the unit on e6, where the channel saw it
    board = await w.slash(w.eve, "board", {"unit": "e6"})
    png_of(board.message)
    assert f"<@{w.alice.id}>" in board.content and not board.message.ephemeral
    moved = await w.slash(w.eve, "board", {"unit": "e5"})
    assert moved.ephemeral and not moved.message.attachments  # not a unit's square, as far as she knows
    units = await w.fake.autocomplete(w.eve, w.general, "blockwars", "board", {"unit": "e"}, focused="unit")
    assert 0 < len(units) <= 25 and all(c["value"].startswith("e") for c in units)
    assert "e6" in [c["value"] for c in units] and "e5" not in [c["value"] for c in units]
    mine = await w.slash(w.alice, "board", {"unit": "e5"})  # hers: the position as it is, privately
    assert mine.ephemeral and MID_TURN_NOTE in mine.content
    png_of(mine.message)
    # the replay and history show Eve the game before Alice's turn too
    replayed = await w.slash(w.eve, "replay")
    with Image.open(io.BytesIO(replayed.message.attachment("replay.gif").data)) as gif:
        assert gif.format == "GIF" and isinstance(gif, GifImagePlugin.GifImageFile)
        assert gif.n_frames == 3  # the start and two set-ups
    history = await w.slash(w.eve, "history", {"count": 60})
    assert "**Set-up**\n1. The Germans deploy " in history.content and "Turn 1" not in history.content
    mine = await w.slash(w.alice, "history", {"count": 60})
    assert "**Turn 1**\n3. Germans: " in mine.content
    notify = await w.fake.slash(w.bob, w.general, "wargames", "notify", {"enabled": True})
    assert notify.ephemeral
    # help: this channel's game first and briefly; in a channel without one, the games hosted
    helped = await w.fake.slash(w.eve, w.general, "wargames", "help")
    assert helped.ephemeral and helped.content.startswith("**Block Wars**: each command starts `/blockwars`")
    assert "`legal`" not in helped.content and len(helped.content) < 1000  # `legal` is the console's
    other = await w.fake.slash(w.eve, w.trenches, "wargames", "help")
    assert other.content.startswith("The games I host:") and "**/companycommander**" in other.content
    await w.slash(w.alice, "end")
    await w.cog.idle()
    replayed = await w.slash(w.eve, "replay")
    with Image.open(io.BytesIO(replayed.message.attachment("replay.gif").data)) as gif:
        assert isinstance(gif, GifImagePlugin.GifImageFile)
        assert gif.n_frames == 5  # the start, two set-ups, the move and the end of the turn
    history = await w.slash(w.eve, "history", {"count": 60})
    assert "**Turn 1**\n3. Germans: " in history.content
    assert any("Your move" in m.content for m in w.fake.dms_to(w.bob))
    offered = await w.slash(w.bob, "draw", {"choice": "offer"})
    assert not offered.ephemeral
    resigned = await w.slash(w.bob, "resign")
    # the history line says why, the status who won: the resignation is told once
    lines = resigned.content.splitlines()
    assert lines[1:3] == [  # after the draw offer its stretch began with
        "The Canadians resigned: the Germans win",
        f"**Game over: <@{w.alice.id}> wins with the Germans**.",
    ], resigned.content
    assert resigned.content.count("resigned") == 1, resigned.content


async def test_the_token_never_reaches_the_logs(fake_discord, start_bot, botkit, caplog):
    caplog.set_level(logging.DEBUG)
    w = World(fake_discord, start_bot, botkit)
    await w.start()
    await w.slash(w.alice, "rules")
    await w.bot.close()  # type: ignore[union-attr]
    assert TEST_TOKEN not in caplog.text
    settings = load_settings({"DISCORD_TOKEN": "secret.token.value", "DEV_GUILD_ID": "42"}, dotenv=False)
    assert "secret" not in repr(settings) and settings.dev_guild_id == 42


def test_no_privileged_intents():
    wanted = intents()
    assert not wanted.members and not wanted.presences and not wanted.message_content


@pytest.mark.skipif(importlib.util.find_spec("engine.blockwars.ai") is None, reason="the AI is not built yet")
async def test_challenging_the_bot_starts_an_ai_game(world: World):
    w = world
    me = w.fake.bot_user
    started = await w.vs_ai()
    png_of(started.messages[0])
    match = await w.match()
    assert match.status is Status.ACTIVE and match.ai_player_id == me.id
    # the AI deploys the Germans on its own and posts its board
    await w.cog.idle()
    posts = [
        m for m in w.fake.messages_in(w.general) if after_ping(m.content).startswith("The Germans deploy")
    ]
    assert posts and f"<@{w.alice.id}>" in posts[-1].content
    await w.slash(w.alice, "setup")
    await w.cog.idle()
    match = await w.match()
    assert match.turn_player_id == w.alice.id  # the AI played its turn and it is Alice's again
    assert any(
        after_ping(m.content).startswith("Germans:") and m.attachments
        for m in w.fake.messages_in(w.general)[-3:]
    )


async def test_only_the_owner_syncs_and_a_dev_guild_gets_the_commands(world: World):
    w = world
    assert any(c["name"] == "blockwars" for c in w.fake.synced_commands())  # the --sync at start-up
    refused = await w.fake.slash(w.eve, w.general, "wargames", "admin", "sync")
    assert refused.ephemeral and "owner" in refused.content
    w.bot.settings = replace(w.bot.settings, dev_guild_id=w.guild.id)  # type: ignore[union-attr]
    synced = await w.fake.slash(w.fake.owner, w.general, "wargames", "admin", "sync")
    assert synced.ephemeral and "Synced" in synced.content
    names = [c["name"] for c in w.fake.synced_commands(w.guild)]
    assert "wargames" in names and "tournament" in names and "blockwars" in names


def test_without_a_token_main_starts_the_console(monkeypatch):
    import sys
    import types

    import bot as bot_module

    seen: list[list[str] | None] = []
    console = types.ModuleType("console")

    def fake_main(argv: list[str] | None = None) -> int:
        seen.append(argv)
        return 0

    console.main = fake_main  # type: ignore[attr-defined]  # typeshed's ModuleType has no settable attributes
    monkeypatch.setitem(sys.modules, "console", console)
    monkeypatch.setattr(bot_module, "load_settings", lambda: load_settings({}, dotenv=False))  # no token
    assert bot_module.main(["--demo"]) == 0
    assert seen == [["--demo"]]


async def test_a_barrage_with_gas_fits_discords_component_limits(world: World):
    """64 squares (and 64 gas squares) do not fit one select: chunks of 25 plus a gas button."""
    w = world
    attacked = await attack_with_the_card_on_top(w, "KH")  # a King: a barrage, gas allowed
    message = attacked.message
    assert "barrage" in message.content.lower()
    match = await w.match()
    rows = message.components
    assert len(rows) <= 5
    selects = [c for row in rows for c in row["components"] if c["type"] == 3]
    assert len(selects) == 3 and all(len(s["options"]) <= 25 for s in selects)
    assert sum(len(s["options"]) for s in selects) == 64
    gas = await w.fake.click(w.alice, message, button_id("open", match, "gas"))
    assert gas.ephemeral and all(
        len(s["options"]) <= 25 for r in gas.message.components for s in r["components"]
    )
    first = button_id("pick", match, "0")
    fired = await w.fake.select(w.alice, message, first, ["barrage a1"])
    assert story(fired.message.content).startswith("The Germans fire an artillery barrage")
    png_of(fired.message)


async def test_boards_drawn_in_a_painter_process_match_the_engine_and_come_in_order(
    fake_discord, start_bot, botkit
):
    """The set-up `make run` picks on a multi-core machine: boards drawn in a worker process, and
    one posting slot, so boards queue. Two games move at once; each board is the true position."""
    w = World(fake_discord, start_bot, botkit)
    w.env = {"RENDER_PROCESSES": "1", "POSTING_SLOTS": "1"}
    await w.start()
    try:
        assert w.bot is not None and w.bot.painter.processes == 1
        await deployed(w)
        await deployed(w, w.trenches)
        moves = await asyncio.gather(
            w.slash(w.alice, "move", {"action": "e6-e5"}),
            w.slash(w.alice, "move", {"action": "d6-d5"}, channel=w.trenches),
        )
        for result, channel in zip(moves, (w.general, w.trenches), strict=True):
            match = await w.match(channel)
            state = State.from_json(match.snapshot)
            logged = await w.bot.service.last_events(match)
            events = [e for e in logged if isinstance(e, Event)]
            assert len(events) == len(logged)  # all of them Block Wars's
            (board,) = [m for m in result.messages if m.channel_id == channel.id]
            assert board.attachment("board.png").data == render_board(state, events)
    finally:
        await w.cog.idle()
        await w.bot.close()  # type: ignore[union-attr]


async def test_in_an_ai_game_the_ai_thinks_in_its_worker_process(fake_discord, start_bot, botkit):
    """The set-up `make run` picks on a multi-core machine: the AI's decisions come from a worker
    process (play/thinking.py), and the game goes on as with the AI in a thread."""
    w = World(fake_discord, start_bot, botkit)
    w.env = {"AI_PROCESSES": "1"}
    await w.start()
    try:
        assert w.bot is not None and w.bot.thinker.processes == 1
        asked: list[str] = []
        choose = w.bot.thinker.choose

        async def spy(game: str, *args: object, **kwargs: object) -> str:
            asked.append(game)
            return await choose(game, *args, **kwargs)  # type: ignore[arg-type]

        w.bot.thinker.choose = spy  # type: ignore[method-assign]
        me = w.fake.bot_user
        await w.vs_ai()
        await w.cog.idle()
        await w.slash(w.alice, "setup")
        await w.cog.idle()
        match = await w.match()
        assert match.turn_player_id == w.alice.id  # the AI set up and played its turn
        assert asked and set(asked) == {"blockwars"}
        rows = await w.bot.service.db.actions(match.id)
        assert sum(1 for r in rows if r.player_id == me.id) == len(asked)
    finally:
        await w.cog.idle()
        await w.bot.close()  # type: ignore[union-attr]


def test_render_processes_and_posting_slots_come_from_the_environment():
    chosen = load_settings(
        {"RENDER_PROCESSES": "2", "POSTING_SLOTS": "3", "HTTP_CONNECTIONS": "0"}, dotenv=False
    )
    assert (chosen.render_processes, chosen.posting_slots, chosen.http_connections) == (2, 3, 0)
    assert load_settings({"AI_PROCESSES": "2"}, dotenv=False).ai_processes == 2
    default = load_settings({}, dotenv=False)
    assert default.render_processes == (1 if (os.cpu_count() or 1) > 1 else 0)
    assert default.ai_processes == (1 if (os.cpu_count() or 1) > 1 else 0)
    assert (default.posting_slots, default.http_connections) == (4, 32)
    for bad in (
        {"RENDER_PROCESSES": "many"},
        {"POSTING_SLOTS": "-1"},
        {"HTTP_CONNECTIONS": "x"},
        {"AI_PROCESSES": "-1"},
    ):
        with pytest.raises(SystemExit, match=r"whole number|negative"):
            load_settings(bad, dotenv=False)


async def test_a_board_that_cannot_be_drawn_still_tells_the_move_and_keeps_the_buttons(
    world: World, monkeypatch
):
    """The move is stored before its picture is drawn: if drawing fails, the players must hear
    what was played and keep their buttons, not an apology saying nothing changed."""
    w = world
    await deployed(w)
    match = await w.match()

    async def broken(*args, **kwargs):
        raise OSError("out of memory drawing")

    monkeypatch.setattr(w.bot.painter, "board", broken)  # type: ignore[union-attr]
    w.errors.enabled = False  # type: ignore[attr-defined]  # it is logged as an ERROR, rightly
    moved = await w.slash(w.alice, "move", {"action": "e6-e5"})
    message = moved.message  # her turn goes on: the answer is hers alone, picture or not
    assert message.ephemeral and APOLOGY not in message.content
    assert (
        message.content.startswith(f"{MID_TURN_NOTE}\nGermans: e6-e5")
        and "`board` command" in message.content
    )
    assert not message.attachments
    after = await w.match()
    assert after.version == match.version + 1
    assert button_id("act", after) in message.custom_ids


async def test_players_who_opted_in_get_their_turn_and_reminder_by_dm(world: World):
    w = world
    await deployed(w)
    opted = await w.fake.slash(w.bob, w.general, "wargames", "notify", {"enabled": True})
    assert opted.ephemeral
    await w.slash(w.alice, "move", {"action": "e6-e5"})
    assert w.fake.dms_to(w.bob) == []  # still Alice's turn: nothing to say yet
    ended = await w.slash(w.alice, "end")
    await w.cog.idle()
    match = await w.match()
    assert match.turn_player_id == w.bob.id
    (turn,) = w.fake.dms_to(w.bob)  # it became Bob's turn
    assert f"<#{w.general.id}>" in turn.content and "<t:" in turn.content
    assert [m for m in ended.messages if m.channel_id == w.general.id]  # the board, as always
    assert w.fake.dms_to(w.alice) == []  # Alice never opted in
    w.clock.now = match.deadline - 3600
    await w.cog.run_sweep()
    await w.cog.idle()
    reminder = w.fake.dms_to(w.bob)[-1]
    assert reminder.content.startswith("Reminder:") and f"<#{w.general.id}>" in reminder.content


async def test_an_ai_move_owed_when_the_bot_went_down_is_played_after_the_restart(world: World, monkeypatch):
    w = world
    me = w.fake.bot_user
    await w.vs_ai()
    await w.cog.idle()  # the AI (Germans) deploys
    monkeypatch.setattr(w.cog, "schedule_ai", lambda channel_id: None)  # the bot "dies" before answering
    await w.slash(w.alice, "setup")
    await w.cog.idle()
    owed = await w.match()
    assert owed.turn_player_id == me.id  # the AI owes its turn, and nobody is playing it
    posts_before = len(w.fake.messages_in(w.general))
    await w.restart()
    for _ in range(100):  # the sweep loop resumes AI games once the bot is ready
        await asyncio.sleep(0.05)
        await w.cog.idle()
        if (await w.match()).turn_player_id == w.alice.id:
            break
    after = await w.match()
    assert after.turn_player_id == w.alice.id and after.version > owed.version
    new_posts = w.fake.messages_in(w.general)[posts_before:]
    assert any(after_ping(m.content).startswith("Germans:") and m.attachments for m in new_posts)


async def test_poison_gas_is_chosen_through_the_gas_picker(world: World):
    w = world
    board = (await attack_with_the_card_on_top(w, "KH")).message
    match = await w.match()
    picker = (await w.fake.click(w.alice, board, button_id("open", match, "gas"))).message
    selects = [c for row in picker.components for c in row["components"] if c["type"] == 3]
    values = [o["value"] for s in selects for o in s["options"]]
    assert len(values) == 64 and all(v.startswith("gas ") for v in values)
    fired = await w.fake.select(w.alice, picker, selects[0]["custom_id"], ["gas h1"])
    told = story(fired.message.content)
    assert told.startswith("The Germans fire a gas barrage on h1"), fired.message.content
    png_of(fired.message)
    after = await w.match()
    assert after.version == match.version + 1
    assert (await w.bot.database.actions(match.id))[-1].notation == "gas h1"  # type: ignore[union-attr]


HANDLER_TASKS = ("CommandTree-invoker", "discord-ui-")  # discord.py's names for its handler tasks
CYCLIC_BEFORE = (
    discord.Interaction,
    discord.InteractionResponse,
    discord.ui.View,
    discord.ui.Item,
    io.BytesIO,
)


async def test_handled_interactions_are_freed_without_the_cyclic_collector(world: World):
    """discord.py makes reference cycles per interaction (interaction and response, view and items, a
    sent file's buffer). The bot cuts them when an interaction has been handled, so the objects die
    by reference counting and the collector's full passes, which stall the event loop, stay short."""
    w = world
    board = await deployed(w)
    match = await w.match()
    gc.collect()
    gc.disable()  # from here on, only reference counting frees anything
    try:
        await w.fake.autocomplete(w.alice, w.general, "blockwars", "move", {"action": ""}, focused="action")
        opened = await w.fake.click(w.alice, board, button_id("act", match))  # a view, sent
        assert opened.ephemeral
        moved = await w.slash(w.alice, "move", {"action": "e6-e5"})  # a board: file and view, sent
        assert_private_board(moved.message, w.alice)
        refused = await w.slash(w.eve, "move", {"action": "e6-e5"})  # an error path
        assert refused.ephemeral
        await w.cog.idle()
        for _ in range(200):  # the handlers' tasks end just after their last message
            handling = [t for t in asyncio.all_tasks() if t.get_name().startswith(HANDLER_TASKS)]
            if not handling:
                break
            await asyncio.sleep(0.01)
        gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector would have to free, kept to look at
        gc.collect()
        cyclic = [o for o in gc.garbage if isinstance(o, CYCLIC_BEFORE)]
        gc.garbage.clear()
        assert cyclic == []
    finally:
        gc.set_debug(0)
        gc.enable()


def _view_timers() -> list[discord.ui.View]:
    """The views discord.py keeps with a timeout running (it gives an ephemeral one 15 minutes)."""
    found = []
    for task in asyncio.all_tasks():
        coro = task.get_coro()
        if "__timeout_task_impl" in getattr(coro, "__qualname__", ""):
            found.append(coro.cr_frame.f_locals["self"])  # type: ignore[union-attr]
    return found


async def test_private_boards_leave_no_view_for_discord_py_to_time_out(world: World):
    """discord.py stores a sent view to dispatch its items, and gives an ephemeral one a 15-minute
    timeout: a task, a timer and the view kept alive per private board or menu, thousands under load,
    every one walked by each full garbage collection (the loop stalled 60 ms with 20 AI games beside
    200 human ones). The bot's views are stopped before they are sent, so none is stored, and their
    buttons answer all the same (their classes are registered at start-up)."""
    w = world
    board = await deployed(w)
    match = await w.match()
    opened = await w.fake.click(w.alice, board, button_id("act", match))  # ephemeral menu
    assert opened.ephemeral
    moved = await w.slash(w.alice, "move", {"action": "e6-e5"})  # a private board, with Undo
    assert_private_board(moved.message, w.alice)
    ended = await w.slash(w.alice, "move", {"action": "end"})  # her turn passes: the channel's board
    await w.cog.idle()
    timed = _view_timers()
    match = await w.match()
    again = await w.fake.click(w.bob, ended.message, button_id("act", match))
    assert again.ephemeral and again.message is not None and again.message.components, again.content
    assert timed == [] and not w.bot._connection._view_store._synced_message_views  # type: ignore[union-attr]


async def test_the_ai_answers_even_when_the_players_board_cannot_be_posted(world: World):
    """The board of a move is posted after the move is stored; if Discord refuses that post (here an
    expired interaction token), the move still stands and the AI still answers it."""
    w = world
    await w.vs_ai()
    await w.cog.idle()
    match = await w.match()
    w.fake.followups_expired = True
    w.errors.enabled = False  # type: ignore[attr-defined]  # the refused post is logged
    result = await w.slash(w.alice, "setup")
    assert result.deferred
    await w.cog.idle()
    after = await w.match()
    assert after.version > match.version + 1  # Alice's set-up, then the AI's turn
    assert after.turn_player_id == w.alice.id
    ai_boards = [m for m in w.fake.messages_in(w.general) if after_ping(m.content).startswith("Germans:")]
    assert ai_boards[-1].attachments  # the AI's own board went to the channel


async def test_a_board_owed_when_the_bot_died_is_posted_after_the_restart(world: World):
    """The bot stores a hand-off, says "thinking…" and dies before posting the board: the board is
    owed (written with the move), and the restarted bot posts it to the channel, with the whole
    turn. Steps of the next player's turn, private until it passes, owe nothing and do not make the
    channel lose the board it is owed (issue 30)."""
    w = world
    await deployed(w)
    await w.slash(w.alice, "move", {"action": "e6-e5"})  # her turn goes on: no board owed
    assert await w.bot.service.owed_boards() == []  # type: ignore[union-attr]

    async def died(*args, **kwargs) -> None:
        return None  # as if the process were killed right after the acknowledgement

    w.cog.post_board = died  # type: ignore[method-assign]
    with pytest.raises(FakeDiscordError):
        await w.slash(w.alice, "end", timeout=1.0)
    match = await w.match()
    assert (await w.bot.database.actions(match.id))[-1].notation == "end"  # type: ignore[union-attr]
    assert await w.bot.service.owed_boards() == [(match.id, match.version, w.general.id)]  # type: ignore[union-attr]
    await w.restart()  # a new bot: a new cog
    (board,) = await w.fake.wait_for_messages(
        lambda m: (
            m.channel_id == w.general.id
            and not m.ephemeral
            and after_ping(m.content).startswith("Germans: e6-e5")
        ),
        timeout=10,
    )
    assert_board_post(board, w.bob)
    for _ in range(100):  # the post is marked delivered right after it lands
        if not await w.bot.service.owed_boards():  # type: ignore[union-attr]
            break
        await asyncio.sleep(0.02)
    assert await w.bot.service.owed_boards() == []  # type: ignore[union-attr]
    # delivered once: a second restart posts nothing more
    await w.restart()
    await asyncio.sleep(0.3)
    again = [m for m in w.fake.messages_in(w.general) if after_ping(m.content).startswith("Germans: e6-e5")]
    assert len([m for m in again if not m.ephemeral]) == 1


async def test_a_board_owed_survives_the_next_players_private_steps(world: World):
    """Alice hands over and the bot dies before her board is posted; Bob, who learnt of his turn
    another way, makes a step of his turn (private) before the restart: the channel still gets
    Alice's turn, and nothing of Bob's."""
    w = world
    await deployed(w)
    await w.slash(w.alice, "move", {"action": "e6-e5"})

    async def died(*args, **kwargs) -> None:
        return None

    real = w.cog.post_board
    w.cog.post_board = died  # type: ignore[method-assign]
    with pytest.raises(FakeDiscordError):
        await w.slash(w.alice, "end", timeout=1.0)
    owed = await w.match()
    w.cog.post_board = real  # type: ignore[method-assign]
    step = await w.slash(w.bob, "move", {"action": "e3-e4"})
    assert_private_board(step.message, w.bob)
    assert await w.bot.service.owed_boards() == [(owed.id, owed.version, w.general.id)]  # type: ignore[union-attr]
    await w.restart()
    (board,) = await w.fake.wait_for_messages(
        lambda m: (
            m.channel_id == w.general.id
            and not m.ephemeral
            and after_ping(m.content).startswith("Germans: e6-e5")
        ),
        timeout=10,
    )
    assert board.attachments and "e3" not in board.content and f"<@{w.bob.id}>" in board.content
    public = [m for m in w.fake.messages_in(w.general) if not m.ephemeral]
    assert all("e3-e4" not in m.content for m in public)
    for _ in range(100):
        if not await w.bot.service.owed_boards():  # type: ignore[union-attr]
            break
        await asyncio.sleep(0.02)
    assert await w.bot.service.owed_boards() == []  # type: ignore[union-attr]


async def test_every_command_is_for_servers_only(world: World):
    """A challenge in a DM with the bot would be a game nobody can see: Discord offers the commands
    in servers only (no DM permission, guild context only)."""
    w = world
    synced = w.fake.synced_commands()
    assert {c["name"] for c in synced} >= {"wargames", "blockwars"}
    for command in synced:
        assert command.get("dm_permission") is False, command["name"]
        assert command.get("contexts") in (None, [0]), command["name"]


async def test_a_draw_offer_names_the_opponent_and_is_answered_by_button(world: World):
    w = world
    await deployed(w)
    offered = await w.slash(w.alice, "draw", {"choice": "offer"})
    board = offered.message
    assert f"<@{w.bob.id}>: accept the draw with the button" in board.content
    match = await w.match()
    accept = button_id("dec", match, "accept draw")
    # Alice is on turn: Bob may accept now, and decline on his own turn (a button would refuse)
    assert accept in board.custom_ids
    assert button_id("dec", match, "decline draw") not in board.custom_ids
    own = await w.fake.click(w.alice, board, accept)
    assert own.ephemeral and "no draw offer from your opponent" in own.content
    answered = await w.fake.click(w.bob, board, accept)
    assert "Game over: a draw" in answered.message.content
    assert (await w.bot.database.get_match(match.id)).status is Status.FINISHED  # type: ignore[union-attr]


async def test_a_declined_challenge_loses_its_buttons(world: World):
    w = world
    made = await w.slash(w.alice, "challenge", {"opponent": w.bob})
    match = await w.match()
    declined = await w.fake.click(w.bob, made.message, f"bw:decline:{match.id}")
    assert "declined by" in declined.message.content
    (challenge,) = declined.edited
    assert challenge.components == [] and "Declined." in challenge.content


async def test_the_ai_answers_a_draw_offer_by_its_judgement(world: World):
    w = world
    await w.vs_ai("germans")
    await w.slash(w.alice, "setup")
    await w.cog.idle()  # the AI deploys
    await w.slash(w.alice, "draw", {"choice": "offer"})
    await w.cog.idle()  # the AI weighs the offer
    match = (await w.bot.database.list_matches(channel_id=w.general.id, limit=1))[0]  # type: ignore[union-attr]
    log = [a.notation for a in await w.bot.database.actions(match.id)]  # type: ignore[union-attr]
    assert log[-1] in ("accept draw", "decline draw"), log
    view = State.from_json(match.snapshot).view(Side.CANADIANS)  # type: ignore[arg-type]
    from engine.blockwars import GAME

    expected = GAME.accepts_draw(view, match.seed ^ (match.version - 1))
    assert log[-1] == ("accept draw" if expected else "decline draw")


async def test_the_running_bot_notes_its_health(world: World):
    """Docker's HEALTHCHECK (`bot.py --health`) reads this note: connected while the bot is, not after."""
    from bot import health

    w = world
    path = w.settings.health_path
    assert health(path, time.time())[0] is True and w.bot is not None
    await w.kit.stop(w.bot)
    ok, why = health(path, time.time())
    assert not ok and "not connected" in why
    await w.start()  # a running bot again, for the fixture's tidy-up


async def test_the_opponents_buttons_wait_for_a_private_turn_to_be_handed_over(world: World):
    """While Alice's turn is hers alone, Bob's clicks on the channel's board answer him, privately,
    that it is her turn, in the same words as before her first step (nothing tells him whether she
    has begun): nothing is played, nothing of her step is shown, and the buttons act as usual once
    she hands the turn over."""
    w = world
    board = await deployed(w)
    match = await w.match()
    take = button_id("act", match)
    assert take in board.custom_ids
    buttons = [c for c in board.custom_ids if c.startswith(("bw:act:", "bw:dec:", "bw:open:"))]
    before = {c: (await w.fake.click(w.bob, board, c)).content for c in buttons}
    step = await w.slash(w.alice, "move", {"action": "e6-e5"})
    assert_private_board(step.message, w.alice)
    for custom_id in buttons:
        answer = await w.fake.click(w.bob, board, custom_id)
        assert answer.ephemeral, custom_id
        assert answer.content == before[custom_id], (custom_id, answer.content)
        assert "e5" not in answer.content and "1 action left" not in answer.content
    assert (await w.match()).version == match.version + 1
    await w.slash(w.alice, "end")
    handed = await w.match()
    after = [m for m in w.fake.messages_in(w.general) if not m.ephemeral and m.attachments][-1]
    assert button_id("act", handed) in after.custom_ids
    picker = await w.fake.click(w.bob, after, button_id("act", handed))
    assert picker.ephemeral and picker.content == "Pick what acts for the Canadians, then what it does."


async def test_a_replay_counts_its_actions_in_words(world: World):
    """A replay before anyone had moved said "0 actions"; it now says no moves have been played,
    and a replay of one action says "1 action"."""
    w = world
    board = await challenge_accepted(w)
    match = await w.match()
    replayed = await w.slash(w.eve, "replay")
    assert replayed.content == (
        f"Replay of game #{match.id}: no moves have been played, so it shows only the starting position."
    )
    png = replayed.message.attachment("replay.gif").data
    assert Image.open(io.BytesIO(png)).format == "GIF"
    await w.fake.click(w.alice, board, button_id("dec", match, "setup std"))
    await w.cog.idle()
    replayed = await w.slash(w.eve, "replay")
    assert replayed.content == f"Replay of game #{match.id}: 1 action.", replayed.content
