"""The fake Discord drives a real discord.py bot: slash commands, autocomplete, buttons, selects, files.

The demo bot below is self-contained; it is the pattern the real cogs' tests follow.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord import EPHEMERAL, FakeDiscord, FakeDiscordError
from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)
from tests.fakediscord.records import ATTACH_FILES, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS

ACTIONS = [f"{f}{r}-{f}{r + 1}" for f in "abcdefgh" for r in range(1, 8)]  # 56 actions


class MoveButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bw:move:(?P<match>\d+):(?P<action>[a-h][1-8]-[a-h][1-8])",
):
    """A persistent button whose custom_id carries the match and the move, so it survives restarts."""

    def __init__(self, match_id: int, action: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=action, style=discord.ButtonStyle.primary, custom_id=f"bw:move:{match_id}:{action}"
            )
        )
        self.match_id = match_id
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveButton:
        return cls(int(match["match"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"match {self.match_id}: {interaction.user.name} played {self.action}"
        )


class PickView(discord.ui.View):
    """An ordinary (non-persistent) view with a string select."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(
        custom_id="bw:pick",
        placeholder="Pick a square",
        options=[discord.SelectOption(label=s, value=s) for s in ("a1", "b2", "c3")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(
            content=f"{interaction.user.name} picked {select.values[0]}", view=None
        )


class ResignView(discord.ui.View):
    """A button answered with a deferred update (type 6), then an edit of the original message."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.button(label="Resign", style=discord.ButtonStyle.danger, custom_id="bw:resign")
    async def resign(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content=f"{interaction.user.name} resigned", view=None)


class RenameModal(discord.ui.Modal, title="Rename the match"):
    name: discord.ui.TextInput[RenameModal] = discord.ui.TextInput(
        label="New name", custom_id="bw:rename:name", max_length=40
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}")


def render_png() -> bytes:
    """Stands in for render/: a tiny board image."""
    image = Image.new("RGB", (16, 16), (30, 120, 30))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def make_bot(fake: FakeDiscord) -> commands.Bot:
    bot = commands.Bot(
        command_prefix=commands.when_mentioned,
        intents=discord.Intents.default(),
        help_command=None,
        guild_ready_timeout=0.05,
        chunk_guilds_at_startup=False,
    )
    group = app_commands.Group(name="blockwars", description="Play Block Wars")

    @group.command(name="move", description="Make a move")
    @app_commands.describe(
        action="The move, e.g. e2-e3",
        opponent="Who you play against",
        confirm="Skip the confirmation",
        count="How many times",
    )
    async def move(
        interaction: discord.Interaction,
        action: str,
        opponent: discord.Member | None = None,
        confirm: bool = False,
        count: int = 1,
    ) -> None:
        vs = opponent.display_name if opponent else "nobody"
        await interaction.response.send_message(
            f"{interaction.user.name} plays {action} against {vs} (confirm={confirm}, count={count})"
        )

    @move.autocomplete("action")
    async def move_autocomplete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=a, value=a) for a in ACTIONS if a.startswith(current)][:25]

    @group.command(name="board", description="Show the board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        png = await asyncio.to_thread(render_png)
        await interaction.followup.send("the board", file=discord.File(io.BytesIO(png), filename="board.png"))

    @group.command(name="hand", description="Look at your hand")
    async def hand(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you can see this", ephemeral=True)

    @group.command(name="prompt", description="Offer moves as buttons and a select")
    async def prompt(interaction: discord.Interaction, match_id: int) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(MoveButton(match_id, "e2-e3"))
        view.add_item(MoveButton(match_id, "d2-d4"))
        await interaction.response.send_message("your move", view=view)
        await interaction.followup.send("or pick a square", view=PickView())

    @group.command(name="announce", description="Post in the channel and DM a player")
    async def announce(interaction: discord.Interaction, player: discord.Member) -> None:
        await interaction.response.send_message("announcing", ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        await interaction.channel.send(f"{player.mention} has been challenged")
        await player.send("you have been challenged")

    @group.command(name="resign", description="Offer a resign button")
    async def resign(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("sure?", view=ResignView())

    @group.command(name="rename", description="Rename the match")
    async def rename(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(RenameModal())

    @group.command(name="slow", description="Defer ephemerally, then edit the original response")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await asyncio.sleep(0.05)
        await interaction.edit_original_response(content="done thinking")
        original = await interaction.original_response()
        await interaction.followup.send(f"original was {original.id}", ephemeral=True)

    @group.command(name="sleepy", description="Answers too late")
    async def sleepy(interaction: discord.Interaction) -> None:
        await asyncio.sleep(0.3)
        await interaction.response.send_message("too late")

    @group.command(name="ponder", description="Answers, thinks without a word, then follows up")
    async def ponder(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("let me think")
        await asyncio.sleep(0.3)  # longer than the fake's quiet spell, with no request meanwhile
        await interaction.followup.send("thought it over")

    later = asyncio.Event()
    bot.later = later  # type: ignore[attr-defined]
    background: set[asyncio.Task[None]] = set()

    @group.command(name="later", description="Answers; a background job posts when the test says")
    async def later_command(interaction: discord.Interaction) -> None:
        assert isinstance(interaction.channel, discord.TextChannel)
        channel = interaction.channel

        async def post_when_told() -> None:
            await later.wait()
            await channel.send("as promised")

        task = asyncio.create_task(post_when_told())
        background.add(task)
        task.add_done_callback(background.discard)
        await interaction.response.send_message("later, then")
        await asyncio.sleep(0.3)  # the handler itself is waited for, quiet or not
        await interaction.followup.send("and this now")

    @group.command(name="broken", description="Always fails")
    async def broken(interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")

    bot.tree.add_command(group)

    # The pattern for every test bot: a tree error handler that fails the driving test at once
    # (otherwise a broken command only logs and the test waits for a reply that never comes).
    @bot.tree.error
    async def on_tree_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        name = interaction.command.qualified_name if interaction.command else "?"
        fake.report_bot_error(error, context=f"/{name}")

    async def setup_hook() -> None:
        bot.add_dynamic_items(MoveButton)
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@pytest.fixture
def world(fake_discord: FakeDiscord):  # noqa: F811
    guild = fake_discord.add_guild("Western Front", channels=("general", "trenches"))
    thread = fake_discord.add_thread(guild.channel("general"), "match-1")
    alice = fake_discord.add_user("alice")
    bob = fake_discord.add_user("bob")
    return fake_discord, guild, thread, alice, bob


@pytest.fixture
async def bot(world, start_bot):  # noqa: F811
    fake = world[0]
    client = make_bot(fake)
    await start_bot(client)
    return client


async def test_connects_and_sees_the_guild(world, bot):
    fake, guild, thread, _alice, _bob = world
    assert bot.is_ready()
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    g = bot.get_guild(guild.id)
    assert g is not None and g.name == "Western Front"
    assert {c.name for c in g.text_channels} == {"general", "trenches"}
    assert g.get_thread(thread.id) is not None
    assert g.me is not None
    # the tree sync in setup_hook reached the fake, with the group and its subcommands
    [cmd] = fake.synced_commands()
    assert cmd["name"] == "blockwars"
    assert {o["name"] for o in cmd["options"]} >= {"move", "board", "hand", "prompt"}
    # discord.py asks for a compressed stream; the fake answers with plain text frames, which it accepts
    assert fake.gateway_queries[0]["compress"] in ("zlib-stream", "zstd-stream")
    assert fake.gateway_queries[0]["encoding"] == "json"
    assert fake.tokens_seen == {"fake.bot.token"}


async def test_slash_subcommand_with_options(world, bot):
    fake, guild, _thread, alice, bob = world
    result = await fake.slash(
        alice,
        guild.channel("general"),
        "blockwars",
        "move",
        {"action": "e2-e3", "opponent": bob, "confirm": True, "count": 2},
    )
    assert result.response_type == 4
    assert result.content == "alice plays e2-e3 against Bob (confirm=True, count=2)"
    assert not result.ephemeral
    assert result.message.channel_id == guild.channel("general").id
    assert result.message.interaction_user is alice
    assert fake.messages_in(guild.channel("general")) == [result.message]


async def test_slash_in_a_thread(world, bot):
    fake, _guild, thread, alice, _bob = world
    result = await fake.slash(alice, thread, "blockwars", "move", {"action": "a1-a2"})
    assert result.message.channel_id == thread.id
    assert "a1-a2" in result.content


async def test_deferred_reply_with_png(world, bot):
    fake, guild, _thread, alice, _bob = world
    result = await fake.slash(alice, guild.channel("general"), "blockwars", "board")
    assert result.deferred and result.response_type == 5
    message = result.message  # the "thinking" message, filled in by the follow-up
    assert message.content == "the board"
    assert not message.loading
    png = message.attachment("board.png")
    assert png.data.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(png.data)) as image:
        assert image.format == "PNG" and image.size == (16, 16)


async def test_ephemeral_reply(world, bot):
    fake, guild, _thread, alice, _bob = world
    result = await fake.slash(alice, guild.channel("general"), "blockwars", "hand")
    assert result.ephemeral
    assert result.message.flags & EPHEMERAL


async def test_autocomplete_offers_at_most_25(world, bot):
    fake, guild, _thread, alice, _bob = world
    choices = await fake.autocomplete(
        alice, guild.channel("general"), "blockwars", "move", {"action": "e"}, focused="action"
    )
    assert len(choices) == 7 and all(c["value"].startswith("e") for c in choices)
    choices = await fake.autocomplete(
        alice, guild.channel("general"), "blockwars", "move", {"action": ""}, focused="action"
    )
    assert len(choices) == 25


async def test_persistent_button_survives_a_restart(world, bot, start_bot):  # noqa: F811
    fake, guild, _thread, alice, _bob = world
    result = await fake.slash(
        alice, guild.channel("general"), "blockwars", "prompt", {"match_id": 42}, messages=2
    )
    prompt = next(m for m in result.messages if m.content == "your move")
    assert prompt.custom_ids == ["bw:move:42:e2-e3", "bw:move:42:d2-d4"]

    # restart: the old client goes away, a brand-new one connects to the same fake
    await bot.close()
    assert not fake.connected
    new_bot = make_bot(fake)
    await start_bot(new_bot)
    assert new_bot is not bot and fake.connected

    clicked = await fake.click(alice, prompt, "bw:move:42:d2-d4")
    assert clicked.content == "match 42: alice played d2-d4"


async def test_string_select_edits_the_message(world, bot):
    fake, guild, _thread, alice, _bob = world
    result = await fake.slash(
        alice, guild.channel("general"), "blockwars", "prompt", {"match_id": 7}, messages=2
    )
    picker = next(m for m in result.messages if m.content == "or pick a square")
    assert picker.component("bw:pick")["type"] == 3

    picked = await fake.select(alice, picker, "bw:pick", ["b2"])
    assert picked.response_type == 7
    assert picked.edited == [picker]
    assert picker.content == "alice picked b2"
    assert picker.components == []
    assert picker.history[0]["content"] == "or pick a square"


async def test_channel_message_and_dm(world, bot):
    fake, guild, _thread, alice, bob = world
    result = await fake.slash(
        alice, guild.channel("general"), "blockwars", "announce", {"player": bob}, messages=3
    )
    kinds = {m.kind: m for m in result.messages}
    assert kinds["interaction_response"].ephemeral
    assert kinds["channel"].content == f"<@{bob.id}> has been challenged"
    assert [m.content for m in fake.dms_to(bob)] == ["you have been challenged"]
    assert fake.messages_in(guild.channel("general"))[-1] is kinds["channel"]


async def test_a_failing_command_fails_the_test_at_once(world, bot):
    fake, guild, _thread, alice, _bob = world
    with pytest.raises(FakeDiscordError, match="boom"):
        await fake.slash(alice, guild.channel("general"), "blockwars", "broken", timeout=2)


async def test_driver_checks_options_against_the_synced_schema(world, bot):
    fake, guild, _thread, alice, _bob = world
    with pytest.raises(FakeDiscordError, match="required options missing"):
        await fake.slash(alice, guild.channel("general"), "blockwars", "move", {})
    with pytest.raises(FakeDiscordError, match="no options"):
        await fake.slash(
            alice, guild.channel("general"), "blockwars", "move", {"action": "e2-e3", "colour": "red"}
        )


async def test_deferred_component_update_then_edit_original(world, bot):
    fake, guild, _thread, alice, _bob = world
    prompt = (await fake.slash(alice, guild.channel("general"), "blockwars", "resign")).message
    clicked = await fake.click(alice, prompt, "bw:resign")
    assert clicked.response_type == 6
    assert clicked.messages == [] and clicked.edited == [prompt]
    assert prompt.content == "alice resigned" and prompt.components == []


async def test_ephemeral_defer_then_edit_original_and_followup(world, bot):
    fake, guild, _thread, alice, _bob = world
    result = await fake.slash(alice, guild.channel("general"), "blockwars", "slow", messages=2)
    original, followup = result.messages
    assert original.ephemeral and original.content == "done thinking" and not original.loading
    assert followup.ephemeral and followup.content == f"original was {original.id}"


async def test_modal_round_trip(world, bot):
    fake, guild, _thread, alice, _bob = world
    opened = await fake.slash(alice, guild.channel("general"), "blockwars", "rename")
    assert opened.modal["title"] == "Rename the match"
    submitted = await fake.submit_modal(alice, opened, {"bw:rename:name": "Somme 1916"})
    assert submitted.content == "renamed to Somme 1916"


async def test_answering_after_three_seconds_is_refused(world, bot):
    fake, guild, _thread, alice, _bob = world
    fake.interaction_deadline = 0.1  # stands in for Discord's 3 s, to keep the test fast
    with pytest.raises(FakeDiscordError, match="Unknown interaction"):
        await fake.slash(alice, guild.channel("general"), "blockwars", "sleepy", timeout=2)


async def test_user_message_reaches_the_bot(world, bot):
    fake, guild, _thread, alice, _bob = world
    waiter = asyncio.create_task(bot.wait_for("message", timeout=2))
    await asyncio.sleep(0)
    sent = await fake.say(alice, guild.channel("general"), "hello bot")
    received = await waiter
    assert received.id == sent.id and received.author.id == alice.id


async def test_reconnect_resumes_on_the_resume_gateway_url(world, bot):
    fake, guild, _thread, alice, _bob = world
    await fake.force_reconnect()
    assert len(fake.gateway_queries) == 2 and fake.resumes == 1
    result = await fake.slash(alice, guild.channel("general"), "blockwars", "hand")
    assert result.ephemeral


async def test_a_call_ends_when_the_handler_is_done_not_after_a_quiet_spell(world, bot):
    """The driver waits for the handler of the interaction, however long it is quiet, and no more."""
    fake, guild, _thread, alice, _bob = world
    fake.settle = 3.0  # a quiet spell no call below may wait for
    began = asyncio.get_running_loop().time()
    result = await fake.slash(alice, guild.channel("general"), "blockwars", "hand", timeout=2)
    assert result.ephemeral
    result = await fake.slash(alice, guild.channel("general"), "blockwars", "ponder", timeout=2)
    assert [m.content for m in result.messages] == ["let me think", "thought it over"]
    assert asyncio.get_running_loop().time() - began < 1.5  # 0.3 s of pondering, not 3 s of quiet


async def test_background_work_left_running_ends_the_call_after_the_quiet_spell(world, bot):
    """Work the handler leaves running (here waiting on the test, as an AI's turn may think a
    while) does not hold the call: it ends after the quiet spell, once the handler is done; the
    work is waited for apart."""
    fake, guild, _thread, alice, _bob = world
    result = await fake.slash(alice, guild.channel("general"), "blockwars", "later", timeout=2)
    assert [m.content for m in result.messages] == ["later, then", "and this now"]
    bot.later.set()
    [posted] = await fake.wait_for_messages(lambda m: m.content == "as promised", timeout=2)
    assert posted.channel_id == guild.channel("general").id


async def test_the_fakes_multipart_reader_agrees_with_aiohttps_writer():
    """The fake reads uploads with a lean parser of its own; it must see what aiohttp (and so
    discord.py) wrote: the JSON part and every file, byte for byte, names included."""
    import json

    import aiohttp

    from tests.fakediscord.server import _BOUNDARY, _multipart_parts

    png = bytes(range(256)) * 40 + b"\r\n--not-a-boundary\r\n"  # binary, with a line that looks like one
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps({"content": "Germans: e6-e5"}), content_type="application/json")
    form.add_field("files[0]", png, filename="board.png", content_type="image/png")
    form.add_field("files[1]", b"", filename="empty.txt")
    writer = form()
    body = bytearray()

    class Sink:
        async def write(self, data: bytes) -> None:
            body.extend(data)

    await writer.write(Sink())  # type: ignore[arg-type]
    boundary = _BOUNDARY.search(writer.content_type)
    assert boundary is not None
    parts = _multipart_parts(bytes(body), boundary.group(1))
    assert parts == [
        ("payload_json", None, json.dumps({"content": "Germans: e6-e5"}).encode()),
        ("files[0]", "board.png", png),
        ("files[1]", "empty.txt", b""),
    ]


async def test_a_post_again_with_the_same_nonce_returns_the_first_within_the_window(world, bot):
    """Discord's `enforce_nonce`: the same author's post with the same nonce in the same channel, a
    moment later, is the first post again (nothing new appears); in another channel, without a nonce
    of its own, or once the window has passed, it is a new post."""
    fake, guild, _thread, _alice, _bob = world
    general, trenches = (
        bot.get_channel(guild.channel("general").id),
        bot.get_channel(guild.channel("trenches").id),
    )
    first = await general.send("round 1 is over", nonce="t1r2")
    again = await general.send("round 1 is over (said again)", nonce="t1r2")
    assert again.id == first.id and again.nonce == "t1r2"
    assert [m.content for m in fake.messages_in(guild.channel("general"))] == ["round 1 is over"]
    elsewhere = await trenches.send("round 1 is over", nonce="t1r2")
    plain = [await general.send("hello"), await general.send("hello")]  # discord.py's own random nonces
    assert elsewhere.id != first.id and plain[0].id != plain[1].id
    with pytest.raises(discord.HTTPException):
        await general.send("too long a nonce", nonce="x" * 26)
    fake.nonce_clock = lambda: float("inf")  # minutes later: Discord has forgotten it
    late = await general.send("round 1 is over", nonce="t1r2")
    assert late.id != first.id
    assert len(fake.messages_in(guild.channel("general"))) == 4


async def test_a_follow_up_with_a_file_is_refused_when_uploads_are(world, bot):
    """`followup_uploads_refused`: a follow-up carrying a file gets Discord's 413 (40005), not the
    404 of an expired token; one with text alone still goes through."""
    fake, guild, _thread, alice, _bob = world
    fake.followup_uploads_refused = True
    with pytest.raises(FakeDiscordError, match="40005"):
        await fake.slash(alice, guild.channel("general"), "blockwars", "board", timeout=2)
    result = await fake.slash(alice, guild.channel("general"), "blockwars", "ponder")
    assert result.messages[-1].content == "thought it over"


async def test_a_post_needs_the_bots_permissions_in_that_channel(world, bot):
    """As Discord: a post needs Send Messages in the channel (Send Messages in Threads in a thread,
    judged by its parent's overwrites) and Attach Files for a file; a member overwrite for the bot
    (`deny_bot`) takes them there alone, and `allow_bot` gives them back."""
    fake, guild, thread, _alice, _bob = world
    general, trenches = guild.channel("general"), guild.channel("trenches")
    fake.deny_bot(general, SEND_MESSAGES)
    with pytest.raises(discord.Forbidden):
        await bot.get_channel(general.id).send("hello")
    await bot.get_channel(trenches.id).send("hello")  # another channel: as before
    fake.deny_bot(general, ATTACH_FILES)
    await bot.get_channel(general.id).send("hello")
    with pytest.raises(discord.Forbidden):
        await bot.get_channel(general.id).send("a board", file=discord.File(io.BytesIO(b"png"), "b.png"))
    parent = fake.channels[thread.parent_id]
    fake.deny_bot(parent, SEND_MESSAGES_IN_THREADS)
    with pytest.raises(discord.Forbidden):
        await bot.get_channel(thread.id).send("in the thread")
    fake.allow_bot(parent)
    fake.allow_bot(general)
    await bot.get_channel(thread.id).send("in the thread")
    await bot.get_channel(general.id).send("a board", file=discord.File(io.BytesIO(b"png"), "b.png"))
    assert [m.content for m in fake.messages_in(general)] == ["hello", "a board"]
