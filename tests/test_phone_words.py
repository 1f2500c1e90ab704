"""What a phone player meets on Discord, second pass (the 2026-11-29 play-through by buttons): the
notification's first line names the game, the hand names what to tap, and a status names only
buttons that are there. One bot serves the module (each test plays in its own channel).
"""

from __future__ import annotations

import logging
import math
from collections.abc import AsyncIterator
from itertools import islice
from typing import Any

import pytest
import pytest_asyncio

from cogs.room import OWED_AFTER
from engine import registry
from tests.fakediscord import FakeMessage
from tests.fakediscord.records import SEND_MESSAGES
from tests.onebot import ON_THE_BOT, Table, one_bot
from tests.random_play import random_steps


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def table(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Table]:
    async with one_bot(tmp_path_factory.mktemp("phone2"), "Phones") as world:
        yield world


@ON_THE_BOT
async def test_the_hand_off_ping_names_the_game_and_notifies_only_the_player_to_move(table: Table) -> None:
    """A server may run several games: the board at a hand-off opens with whose move it is, in which
    game and against whom, the one line a phone's notification shows. It notifies the player to
    move, not the opponent it names, who made the move."""
    channel, first = await table.accepted("blockwars", "germans")
    assert first.content.startswith("Block Wars: challenge accepted."), first.content
    (layout,) = [c for c in first.custom_ids if c.endswith(":setup std")]
    deployed = await table.fake.click(table.alice, first, layout)
    await table.idle()
    (handed,) = [m for m in deployed.messages if m.channel_id == channel.id]
    first_line = handed.content.splitlines()[0]
    assert first_line == f"<@{table.bob.id}>, your move in Block Wars (vs <@{table.alice.id}>).", (
        handed.content
    )
    assert handed.notified == [table.bob.id]


def disabled_labels(message: FakeMessage) -> list[str]:
    return [c["label"] for c in message.iter_components() if c.get("type") == 2 and c.get("disabled")]


@ON_THE_BOT
async def test_a_step_the_status_names_before_it_is_legal_shows_its_button_disabled(table: Table) -> None:
    """Battlefronts names End turn before the turn's first action, Company Commander its Done deploying
    while units wait: each board shows that button, disabled (Discord refuses a tap on it), so the
    status names a button the player sees instead of a command to type."""
    _, board = await table.accepted("battlefronts", "red")
    assert "then **End turn** (you may act again later) or **Pass** to finish the phase" in board.content
    assert "`end`" not in board.content and disabled_labels(board) == ["End turn"], board.content
    _, board = await table.accepted("companycommander", "americans")
    # one instruction: the button by its name, what it does said once (not "Done deploying: draw
    # Tactics to draw your two Tactics cards")
    assert "then **Done deploying** to draw your two Tactics cards." in board.content, board.content
    assert "`tactics`" not in board.content and "draw Tactics**" not in board.content, board.content
    assert disabled_labels(board) == ["Done deploying (draw 2 Tactics cards)"]


async def my_hand(table: Table, user: Any, board: FakeMessage) -> str:
    (hand,) = [c for c in board.custom_ids if c.startswith("bw:hand:")]
    answer = await table.fake.click(user, board, hand)
    assert answer.ephemeral
    return answer.content


@ON_THE_BOT
async def test_the_hand_names_what_to_tap_not_what_to_type(table: Table) -> None:
    """My hand on Discord: Company Commander's cards say what they do and that Take action plays
    them (no `play sniper L` to type); Fix Bayonets' standing orders are changed by their button,
    not by `orders …`. The console's hand keeps the commands (tests/companycommander, fixbayonets)."""
    channel, _ = await table.accepted("companycommander", "germans")
    match, state = await table.bot.service.current(channel.id)
    (side,) = state.to_act()  # who deploys first is drawn
    first = table.alice if match.sides[side] == table.alice.id else table.bob
    u = side[0].upper()
    deploy = f"deploy {u}3 L; deploy {u}2 L; deploy {u}1 L; tactics"
    step = await table.fake.slash(first, channel, "companycommander", "play", {"action": deploy})
    await table.idle()
    hand = await my_hand(table, first, step.message)
    assert hand.startswith("Your hand (5 cards): "), hand  # three dealt, two drawn
    assert "`" not in hand and "**Take action**" in hand, hand
    _, board = await table.accepted("fixbayonets", "germans")
    hand = await my_hand(table, table.alice, board)
    assert "Change them with **Standing orders…** under the board at any time." in hand, hand
    assert "`orders" not in hand


async def seated(table: Table, name: str, steps: int) -> FakeMessage:
    """A new game of `name` in a channel, set to the position after `steps` seeded random steps
    (seed 0); the `board` its player to act asks for."""
    channel, _ = await table.accepted(name, "random")
    state, _, _ = next(islice(random_steps(registry.game(name), 0), steps, None))
    side = min(state.to_act())
    match = await table.bot.database.get_channel_match(channel.id)
    await table.bot.database.update_match(
        match.id, expected_version=match.version, snapshot=state.to_json(), turn_player_id=match.sides[side]
    )
    table.bot.service.forget(channel.id)  # written behind the service's back: it must re-read
    player = table.alice if match.sides[side] == table.alice.id else table.bob
    return (await table.fake.slash(player, channel, name, "board", {})).message


@ON_THE_BOT
async def test_a_template_filled_by_the_select_below_says_so(table: Table) -> None:
    """Block Wars' Ace: "Answer `R@<square>` for infantry" named a notation a phone cannot type;
    the squares are the options of the select under the board, as the barrage's are."""
    board = await seated(table, "blockwars", 179)  # seed 0: an Ace's reinforcement
    assert "Answer from the list below for infantry" in board.content, board.content
    assert "<square>" not in board.content
    assert "Choose what comes on, and where" in [
        c.get("placeholder") for c in board.iter_components() if c.get("type") == 3
    ]


@ON_THE_BOT
async def test_the_standing_orders_are_named_by_their_button(table: Table) -> None:
    """Fix Bayonets' first cancel-or-let-stand question explains the standing orders: on Discord by
    the button that sets them, each order in words, not as `orders never` to type."""
    board = await seated(table, "fixbayonets", 9)  # seed 0: the Americans' Counter Attack
    assert (
        "Cancel it with a terrain card (**Cancel it…**) or **let it stand**. You are asked after every "
        "card, whatever you hold; **standing orders** answer for you: let every card stand, cancel only "
        "attacks on your officers, or ask again."
    ) in board.content, board.content
    assert "`" not in board.content.split("Due")[0], board.content


@ON_THE_BOT
async def test_a_status_shows_the_notation_to_type_once_then_names_the_steps(table: Table) -> None:
    """Company Commander's Recon phase lists its steps each with its notation: on Discord the first
    is introduced by Take action (its notation kept for whoever types); the later ones read as
    words, not as more commands a phone cannot tap."""
    board = await seated(table, "companycommander", 10)  # seed 0: fire, assault and cards
    assert (
        "Suppression fire by A3 (**Take action**, or type `fire A3`); then assaults by A3; then "
        "**End turn**. You may also play Tactics cards."
    ) in board.content, board.content


@ON_THE_BOT
async def test_the_sweeps_board_names_its_buttons_too(table: Table) -> None:
    """The board the sweep posts when it finishes a late player's turn named `end` and `pass` to
    type, where a move's board names its buttons. (Last in the module: it moves the bot's clock
    past every deadline here.)"""
    channel, _ = await table.accepted("battlefronts", "red")
    # every zone called up: only `pass` is left, a formality the sweep plays when time runs out
    calls = "call T1 1; call T2 1; call T3 1; call T4 1"
    await table.fake.slash(table.alice, channel, "battlefronts", "play", {"action": calls})
    await table.idle()
    match, _ = await table.bot.service.current(channel.id)
    assert match.deadline is not None
    before = len(table.fake.messages_in(channel))
    table.bot.service.clock.now = match.deadline + 1
    await table.bot.get_cog("Core").run_sweep()
    await table.idle()
    (notice,) = [m for m in table.fake.messages_in(channel)[before:] if not m.ephemeral]
    assert "did not finish their turn in time" in notice.content, notice.content
    assert "**Pass**" in notice.content and "`pass`" not in notice.content, notice.content


@ON_THE_BOT
@pytest.mark.parametrize(
    ("name", "steps", "limit"), [("companycommander", 9, "seven"), ("fixbayonets", 7, "five")]
)
async def test_my_hand_while_discarding_names_the_discard_button(
    table: Table, name: str, steps: int, limit: str
) -> None:
    """A player over the hand limit must discard now: My hand said "to play one on your turn, tap
    Take action" (Company Commander), which is not under the board then; it names Discard…, which is."""
    board = await seated(table, name, steps)  # seed 0: the Americans hold one card too many
    assert "Discard…" in [c["label"] for c in board.iter_components() if c.get("type") == 2]
    player = table.alice if f"<@{table.alice.id}>" in board.content else table.bob
    hand = await my_hand(table, player, board)
    told = f"You are 1 over {limit}: tap **Discard…** under the board and choose one to discard."
    assert told in hand, hand
    assert "Take action" not in hand and "`" not in hand, hand


async def owed_start(table: Table) -> Any:
    """A human game in a fresh channel whose first board Discord refused: owed, not posted."""
    channel = table.channel()
    fake = table.fake
    challenge = await fake.slash(table.alice, channel, "blockwars", "challenge", {"opponent": table.bob})
    (accept,) = [c for c in challenge.message.custom_ids if c.startswith("bw:accept:")]
    fake.followup_uploads_refused = True
    try:
        await fake.click(table.bob, challenge.message, accept)
    finally:
        fake.followup_uploads_refused = False
    await table.idle()
    return channel


@ON_THE_BOT
async def test_an_owed_board_that_cannot_be_posted_holds_up_no_other(table: Table, caplog) -> None:
    """Two games' first boards are owed; an admin has taken Send Messages from the bot in the first
    game's channel. The outbox raised on that board at every sweep, so the second game's board, which
    it could post, waited for ever behind it. Each is tried on its own: the second is posted, the
    first stays owed (warned of once) and goes out once the bot may post there again."""
    fake, bot = table.fake, table.bot
    closed, open_ = await owed_start(table), await owed_start(table)
    fake.deny_bot(closed, SEND_MESSAGES)
    core, clock = bot.get_cog("Core"), bot.service.clock
    clock.now += OWED_AFTER
    try:
        with caplog.at_level(logging.DEBUG, logger="bot.core"):
            assert await core.deliver_owed(older_than=OWED_AFTER) == 1
            assert await core.deliver_owed(older_than=OWED_AFTER) == 0  # tried again, told quietly
        assert [m for m in fake.messages_in(open_) if m.attachments]
        assert not [m for m in fake.messages_in(closed) if m.attachments]
        (owed,) = await bot.service.owed_boards()
        assert owed[2] == closed.id
        warned = [r for r in caplog.records if "cannot be posted yet" in r.getMessage()]
        assert [r.levelno for r in warned] == [logging.WARNING, logging.DEBUG]
        fake.allow_bot(closed)
        assert await core.deliver_owed(older_than=OWED_AFTER) == 1
    finally:
        clock.now -= OWED_AFTER
        fake.allow_bot(closed)
    assert [m for m in fake.messages_in(closed) if m.attachments]
    assert await bot.service.owed_boards() == []


@ON_THE_BOT
async def test_a_game_whose_first_board_discord_refuses_says_it_has_begun(table: Table) -> None:
    """Bob accepts; the game is stored, then Discord refuses the board's upload (not an expired
    token). He read "Sorry, something went wrong; the game is unchanged", though the game had begun.
    He reads that it has, and when its board comes: the outbox posts it once it has been owed for
    `OWED_AFTER` seconds, at the next sweep (every `sweep_seconds`), pinging both players."""
    fake, bot = table.fake, table.bot
    channel = table.channel()
    challenge = await fake.slash(table.alice, channel, "blockwars", "challenge", {"opponent": table.bob})
    (accept,) = [c for c in challenge.message.custom_ids if c.startswith("bw:accept:")]
    fake.followup_uploads_refused = True
    try:
        answer = await fake.click(table.bob, challenge.message, accept)
    finally:
        fake.followup_uploads_refused = False
    await table.idle()
    minutes = math.ceil((OWED_AFTER + bot.get_cog("Core").settings.sweep_seconds) / 60)
    assert minutes == 3
    assert answer.message.content == (
        "The game has begun, but I could not post its board just now. It will appear in this channel "
        "within 3 minutes, pinging whoever is to move; until then, the `board` command shows you the "
        "position."
    )
    assert challenge.message.content.endswith("**Accepted.**")  # the challenge's buttons are gone
    match, _ = await bot.service.current(channel.id)
    assert match.status.is_open
    assert await bot.service.owed_boards() == [(match.id, match.version, channel.id)]
    core, clock = bot.get_cog("Core"), bot.service.clock
    assert await core.deliver_owed(older_than=OWED_AFTER) == 0  # not yet: it might still be on its way
    clock.now += OWED_AFTER
    try:
        assert await core.deliver_owed(older_than=OWED_AFTER) == 1  # the sweep's call, two minutes on
    finally:
        clock.now -= OWED_AFTER
    (board,) = [m for m in fake.messages_in(channel) if m.attachments]
    assert board.content.startswith("Block Wars: challenge accepted.")
    assert set(board.notified) == {table.alice.id, table.bob.id}


@ON_THE_BOT
async def test_an_ai_game_whose_first_board_discord_refuses_shows_the_commitment_on_the_next(
    table: Table,
) -> None:
    """Alice plays the Canadians against the AI; Discord refuses the first board's upload, so the
    AI's set-up board was the first she saw, and it had no dice commitment: nothing she saw before
    the dice rolled fixed them. The next board posted carries it, once."""
    fake, bot = table.fake, table.bot
    channel = table.channel()
    options = {"opponent": fake.bot_user, "side": "canadians", "level": "easy"}
    fake.followup_uploads_refused = True
    try:
        await fake.slash(table.alice, channel, "blockwars", "challenge", options)
        await table.idle()
    finally:
        fake.followup_uploads_refused = False
    match, _ = await bot.service.current(channel.id)
    assert match.seed_commitment is not None
    (board,) = [m for m in fake.messages_in(channel) if m.attachments]  # the AI's set-up, then hers
    assert board.content.startswith(f"<@{table.alice.id}>, your move in Block Wars (vs the AI).")
    assert f"Dice commitment: `{match.seed_commitment[:32]}" in board.content
    await fake.slash(table.alice, channel, "blockwars", "setup", {"layout": "std"})
    await table.idle()
    later = [m for m in fake.messages_in(channel) if m.attachments][1:]
    assert later and not any("Dice commitment" in m.content for m in later)  # said once is enough
