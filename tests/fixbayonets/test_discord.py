"""Fix Bayonets through the real bot on the fake Discord: hands reach their owner only, the player not
on turn cancels a move with a card from their hand, standing orders are given off-turn in private."""

from __future__ import annotations

import io
import logging
import random

import pytest
from PIL import Image

from engine.fixbayonets.model import AMERICANS, GERMANS
from engine.fixbayonets.position import build
from tests.botkit import BotKit
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.fixtures import ForwardErrors, HandClock
from tests.ids import button_id

NAME = "fixbayonets"


class Table:
    def __init__(self, fake: FakeDiscord, bot, guild) -> None:
        self.fake, self.bot = fake, bot
        self.channel = guild.channel("general")
        self.alice = fake.add_user("alice")
        self.bob = fake.add_user("bob")
        self.eve = fake.add_user("eve")

    async def match(self):
        return await self.bot.database.get_channel_match(self.channel.id)

    async def slash(self, user, name: str, options: dict | None = None):
        return await self.fake.slash(user, self.channel, NAME, name, options or {})


def public(result) -> FakeMessage:
    (board,) = [m for m in result.messages if not m.ephemeral and m.kind != "dm"]
    Image.open(io.BytesIO(board.attachment("board.png").data)).load()
    return board


@pytest.fixture
async def table(fake_discord: FakeDiscord, start_bot, botkit: BotKit):
    fake = fake_discord
    fake.settle = 0.02
    guild = fake.add_guild("Argonne", channels=("general",))
    errors = ForwardErrors(fake)
    logging.getLogger("bot").addHandler(errors)
    bot = await botkit.build(clock=HandClock(), rng=random.Random(2))
    t = Table(fake, bot, guild)  # users exist before the bot connects: they join the guild
    try:
        await start_bot(bot)
        yield t
    finally:
        logging.getLogger("bot").removeHandler(errors)
        await bot.close()


async def started(t: Table) -> FakeMessage:
    """Alice (Germans) challenges Bob; both take the standard set-up by the board's button."""
    challenged = await t.slash(t.alice, "challenge", {"opponent": t.bob, "side": GERMANS})
    match = await t.match()
    board = (await t.fake.click(t.bob, challenged.message, f"bw:accept:{match.id}")).message
    for n, user in enumerate((t.alice, t.bob)):
        match = await t.match()
        std = next(c for c in board.custom_ids if c.endswith(":setup std") or "setup " in c)
        # The board, then the set-up privately to its owner (wait for both: a late private reply
        # would be taken for the next interaction's)
        result = await t.fake.click(user, board, std, messages=2)
        await t.bot.get_cog("Core").idle()  # the DM of the Germans' first cards is sent by now
        board = public(result)
        if n == 0:  # until both have set up, the layout goes to its owner only
            secret = [m for m in result.messages if m.ephemeral]
            assert secret and "set up" in secret[0].content
            assert "RR" not in board.content
    return board


async def test_each_hand_reaches_its_owner_only(table: Table):
    t = table
    board = await started(t)
    match = await t.match()
    hand_id = f"bw:hand:{match.id}"
    assert hand_id in board.custom_ids
    _, state = await t.bot.service.current(t.channel.id)
    mine = await t.fake.click(t.alice, board, hand_id)
    theirs = await t.fake.click(t.bob, board, hand_id)
    assert mine.ephemeral and theirs.ephemeral
    from engine.fixbayonets.game import GAME

    assert mine.content == GAME.private_text(state.view(GERMANS), tapping=True)  # Discord: the buttons
    assert theirs.content == GAME.private_text(state.view(AMERICANS), tapping=True)
    assert mine.content != theirs.content
    for card in state.view(GERMANS).state.hands[GERMANS]:
        assert card.name not in board.content  # never in the channel's words
    nosy = await t.slash(t.eve, "hand")
    assert nosy.ephemeral and "Only the two players" in nosy.content
    by_command = await t.slash(t.bob, "hand")
    assert by_command.ephemeral and by_command.content == theirs.content


async def test_the_player_not_on_turn_cancels_a_move_with_a_card_from_their_hand(table: Table):
    t = table
    await started(t)
    match = await t.match()
    position = build(
        {"d8": "GOOR", "d7": "GR", "d1": "AOOR", "e2": "AR"},
        hands={GERMANS: ["march", "rifle3"], AMERICANS: ["rough", "bayonet"]},
        active=GERMANS,
    )
    await t.bot.database.update_match(
        match.id, expected_version=match.version, snapshot=position.to_json(), turn_player_id=t.alice.id
    )
    t.bot.service.forget(t.channel.id)
    legal = await t.bot.service.legal(t.channel.id, t.alice.id)
    move = next(a for a in legal if a.startswith("march "))
    moved = await t.slash(t.alice, "play", {"action": move})
    board = public(moved)
    assert f"<@{t.bob.id}>" in board.content  # Bob owes the answer though it is Alice's turn
    match = await t.match()
    assert match.turn_player_id == t.bob.id
    refused = await t.fake.click(t.alice, board, button_id("dec", match, "pass"))
    assert refused.ephemeral and "not your turn" in refused.content
    opened = await t.fake.click(t.bob, board, button_id("open", match, "negate"))
    assert opened.ephemeral  # what he could cancel with is his business
    cancel = next(c for c in opened.message.custom_ids if "negate" in c)
    cancelled = await t.fake.click(t.bob, opened.message, cancel)
    after = public(cancelled)
    assert "Rough Ground" in after.content and f"<@{t.alice.id}>" in after.content
    _, state = await t.bot.service.current(t.channel.id)
    assert "rough" not in [c.code for c in state.view(AMERICANS).state.hands[AMERICANS]]


async def test_standing_orders_are_given_off_turn_and_in_private(table: Table):
    t = table
    board = await started(t)
    match = await t.match()
    assert match.turn_player_id == t.alice.id  # the Germans' turn: Bob gives orders meanwhile
    before = len([m for m in t.fake.messages_in(t.channel) if not m.ephemeral])
    opened = await t.fake.click(t.bob, board, button_id("open", match, "orders"))
    assert opened.ephemeral
    select = next(c for c in opened.message.custom_ids if c.startswith("bw:pick:"))
    options = [o["value"] for o in opened.message.component(select)["options"]]
    assert "orders never" in options
    given = await t.fake.select(t.bob, opened.message, select, ["orders never"])
    assert given.ephemeral and given.content.startswith("Only you see this")
    assert len([m for m in t.fake.messages_in(t.channel) if not m.ephemeral]) == before  # nothing public
    history = await t.slash(t.alice, "history", {"count": 60})
    assert "never" not in history.content and "orders" not in history.content
    # The channel's board is still the newest it has: its buttons work for Alice, whose turn it is,
    # and do not tell her that something happened.
    take = await t.fake.click(t.alice, board, button_id("act", match))
    assert take.ephemeral and "out of date" not in take.content, take.content
    assert any(c.startswith("bw:") for c in take.message.custom_ids)


async def test_orders_given_during_the_others_private_turn_keep_it_private(table: Table):
    """Alice takes a step of her turn (hers alone until she hands it over); Bob gives standing orders
    from the channel's board meanwhile: taken, in private, and the channel, Bob's board and history
    still show the game as it was before her turn (the orders used to end its privacy)."""
    t = table
    board = await started(t)
    match = await t.match()
    from engine import registry
    from play.undo import MID_TURN_NOTE
    from tests.test_undo_hidden import quiet_step

    _, state = await t.bot.service.current(t.channel.id)
    found = quiet_step(registry.game(NAME), state, GERMANS, random.Random(1), set())
    assert found is not None
    action, line = found
    square = action.split("-")[-1]
    step = await t.slash(t.alice, "play", {"action": action})
    assert step.ephemeral and MID_TURN_NOTE in step.content and all(m.ephemeral for m in step.messages)
    opened = await t.fake.click(t.bob, board, button_id("open", match, "orders"))
    assert opened.ephemeral and "still taking" not in opened.content
    select = next(c for c in opened.message.custom_ids if c.startswith("bw:pick:"))
    given = await t.fake.select(t.bob, opened.message, select, ["orders never"])
    assert given.ephemeral and given.content.startswith("Only you see this")
    take = await t.fake.click(t.bob, board, button_id("act", match))
    assert take.ephemeral and take.content == f"It is not your turn: <@{t.alice.id}> is to play."
    history = await t.slash(t.bob, "history", {"count": 60})
    assert line not in history.content and square not in history.content
    seen = await t.slash(t.bob, "board")
    assert not seen.ephemeral and square not in seen.content
    assert button_id("act", match) in seen.message.custom_ids  # the board as it was
