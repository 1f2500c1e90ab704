"""Company Commander through the real bot on the fake Discord: a Recon look shows the enemy's hand
to the Recon player alone, in a message only they see, once; each hand reaches its owner only; a
whole turn goes in one command and its dice are in the channel's words.

The positions are set into the match row directly, so these tests do not ask for the history,
which the bot rebuilds from the match's seed and log."""

from __future__ import annotations

import io
import logging
import random

import pytest
from PIL import Image

from engine.companycommander import GAME
from engine.companycommander.model import AMERICANS, GERMANS
from engine.companycommander.position import build, rig
from play.undo import MID_TURN_NOTE
from tests.botkit import BotKit
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.fixtures import ForwardErrors, HandClock
from tests.pings import after_ping

NAME = "companycommander"


class Table:
    def __init__(self, fake: FakeDiscord, bot, guild) -> None:
        self.fake, self.bot = fake, bot
        self.channel = guild.channel("general")
        self.alice = fake.add_user("alice")
        self.bob = fake.add_user("bob")

    async def match(self):
        return await self.bot.database.get_channel_match(self.channel.id)

    async def slash(self, user, name: str, options: dict | None = None, messages: int = 0):
        return await self.fake.slash(user, self.channel, NAME, name, options or {}, messages=messages)


def public(result, channel_id: int) -> FakeMessage:
    """The one message the command posted in the channel (the bot may also write to a player)."""
    (board,) = [m for m in result.messages if not m.ephemeral and m.channel_id == channel_id]
    Image.open(io.BytesIO(board.attachment("board.png").data)).load()
    return board


def private(result, channel_id: int) -> FakeMessage:
    """The one answer to a step of a turn that stays with its player: their board, for them alone;
    the channel waits for the hand-off (issue 30)."""
    (answer,) = [m for m in result.messages if m.channel_id == channel_id]
    assert answer.ephemeral and MID_TURN_NOTE in answer.content
    Image.open(io.BytesIO(answer.attachment("board.png").data)).load()
    return answer


@pytest.fixture
async def table(fake_discord: FakeDiscord, start_bot, botkit: BotKit):
    fake = fake_discord
    fake.settle = 0.02
    guild = fake.add_guild("Normandy", channels=("general",))
    errors = ForwardErrors(fake)
    logging.getLogger("bot").addHandler(errors)
    bot = await botkit.build(clock=HandClock(), rng=random.Random(2))
    t = Table(fake, bot, guild)
    try:
        await start_bot(bot)
        yield t
    finally:
        logging.getLogger("bot").removeHandler(errors)
        await bot.close()


async def seat(t: Table, position) -> None:
    """Alice (Americans) challenges Bob, who accepts; then the game is set to `position`."""
    challenged = await t.slash(t.alice, "challenge", {"opponent": t.bob, "side": AMERICANS})
    match = await t.match()
    await t.fake.click(t.bob, challenged.message, f"bw:accept:{match.id}")
    match = await t.match()
    await t.bot.database.update_match(
        match.id, expected_version=match.version, snapshot=position.to_json(), turn_player_id=t.alice.id
    )
    t.bot.service.forget(t.channel.id)


async def test_a_recon_look_shows_the_hand_to_the_recon_player_alone(table: Table) -> None:
    t = table
    position = build(
        {"A1": "scouts C", "A2": "hmg C", "A3": "rifles L", "A4": "rifles R"}
        | {"G1": "rifles C", "G2": "mg42 L", "G3": "rifles R"},
        hands={AMERICANS: ["sniper"], GERMANS: ["airstrike", "rally"]},
    )
    await seat(t, rig(position, (6,)))
    looked = await t.fake.slash(t.alice, t.channel, NAME, "recon", {"mission": "A1 look"})
    secret = private(looked, t.channel.id)  # her turn goes on: the answer is hers alone
    assert all(m.channel_id == t.channel.id for m in looked.messages)  # no news by letter for Bob
    # told once, in the mission's own line (the story as she saw it), not again after the note
    assert secret.content.lower().count("you see the germans' hand: air strike and rally") == 1
    _, state = await t.bot.service.current(t.channel.id)
    assert state.view(AMERICANS).state.hands[GERMANS] == []  # once: the view keeps nothing of it
    mine = await t.slash(t.alice, "hand")
    assert mine.ephemeral and "Sniper" in mine.content and "Air Strike" not in mine.content
    # the channel's next board comes when her turn passes, and never names the cards
    ended = await t.slash(t.alice, "play", {"action": "end"})
    public(ended, t.channel.id)
    # Bob's own hand (asked once her turn is handed over: while it is private his answer is read
    # from the position the channel saw, which for a position set by hand is not this one)
    theirs = await t.slash(t.bob, "hand")
    assert theirs.ephemeral and "Air Strike" in theirs.content and "Sniper" not in theirs.content
    shown = [m.content for m in t.fake.messages_in(t.channel) if not m.ephemeral]
    assert not any("Air Strike" in text or "Rally" in text for text in shown)


async def test_a_whole_turn_in_one_command_is_summarised_by_its_results_in_the_channel(table: Table) -> None:
    """Every roll of a turn was listed in the channel, the results buried in dice: now the channel
    gets the results, a line each, and a count of the rest (the board's record has the dice)."""
    t = table
    position = build(
        {
            "A1": "rifles -",
            "A2": "hmg C",
            "A3": "rifles C",
            "G1": "mg42 C",
            "G2": "rifles L",
            "G3": "rifles R",
        },
        phase="deploy",
        hands={GERMANS: ["medic"]},
    )
    await seat(t, position)
    played = await t.slash(t.alice, "play", {"action": "deploy A1 L; tactics; fire A2; assault A3; end"})
    board = public(played, t.channel.id)
    lines = after_ping(board.content).splitlines()
    assert lines[:4] == [
        "**Americans, 5 actions.**",
        "A2 Heavy MG team fires at the German Center: G1 Casualty",
        "A3 Rifle squad assaults G1 in the Center: stalls, A3 Pinned",
        "And 3 routine actions: `/companycommander history` lists each action.",
    ]
    assert f"<@{t.bob.id}>" in board.content  # the Germans' turn now, their Squad cards drawn
    match = await t.match()
    assert match.turn_player_id == t.bob.id
    _, state = await t.bot.service.current(t.channel.id)
    assert state.active == GERMANS and state.phase == "deploy" and state.arriving(GERMANS)
    assert GAME.status(state.view(None), GERMANS).startswith("{player} (Germans), round 3, Deploy phase")


# ---------------------------------------------------------------- issue 31: as a new user types


async def test_a_card_play_in_every_printed_spelling_through_discord(table: Table) -> None:
    t = table
    position = build(
        {"A1": "hmg L", "A2": "rifles L", "G1": "rifles L", "G2": "rifles L", "G3": "rifles C"}
        | {"G4": "rifles C", "G5": "rifles C", "G6": "rifles C"},
        hands={AMERICANS: ["sniper", "sniper", "mortars", "mortars", "mortars"], GERMANS: ["medic"]},
    )
    await seat(t, position)
    # `/companycommander play action:mortars L`: the command already says play
    played = await t.slash(t.alice, "play", {"action": "mortars L"})
    assert "Mortar Barrage" in private(played, t.channel.id).content
    # the whole form as the hand, the help and the page print it
    played = await t.slash(t.alice, "play", {"action": "play mortars C"})
    assert "Mortar Barrage" in private(played, t.channel.id).content
    # the game's own `card` command, whether or not the word play is typed again
    played = await t.slash(t.alice, "card", {"card": "sniper C"})
    assert "Sniper" in private(played, t.channel.id).content
    # in a chain, each spelling: the card command's word too
    played = await t.slash(t.alice, "play", {"action": "fire A1; card mortars L; play sniper C; end"})
    assert "Mortar Barrage" in public(played, t.channel.id).content  # (the post sums up the rest)
    match = await t.match()
    assert match.turn_player_id == t.bob.id
    _, state = await t.bot.service.current(t.channel.id)
    assert sorted(c.code for c in state.tactics_discard) == [
        "mortars",
        "mortars",
        "mortars",
        "sniper",
        "sniper",
    ]


async def test_a_refusal_says_the_true_reason_and_its_example_works(table: Table) -> None:
    t = table
    position = build(
        {"A1": "rifles -", "A2": "hmg -", "G1": "rifles C"}, phase="deploy", hands={AMERICANS: ["mortars"]}
    )
    await seat(t, position)
    # the board and the private note of the cards drawn, both in before the next command
    played = await t.slash(t.alice, "play", {"action": "deploy A1 C; deploy A2 C; tactics"})
    assert "draw 2 Snipers" in " ".join(m.content for m in played.messages if m.ephemeral)
    refused = await t.slash(t.alice, "fire", {"unit": "A1"})
    assert refused.ephemeral and "A1, a Rifle squad, has no long-range fire" in refused.content
    assert "deployed this turn" not in refused.content
    refused = await t.slash(t.alice, "recon", {"mission": "A2 look"})
    assert refused.ephemeral and "A2, a Heavy MG team, is not a Recon unit" in refused.content
    refused = await t.slash(t.alice, "play", {"action": "mortars"})  # no front named
    assert refused.ephemeral and "`play mortars C`" in refused.content
    played = await t.slash(t.alice, "play", {"action": "play mortars C"})  # the example, as printed
    assert "Mortar Barrage" in private(played, t.channel.id).content


async def test_the_extra_card_may_be_declined_with_a_button(table: Table) -> None:
    t = table
    position = build(
        {"A1": "cc C", "A2": "rifles L", "A3": "rifles R", "G1": "rifles C"}, phase="deploy", extra=True
    )
    await seat(t, position)
    shown = await t.slash(t.alice, "board")
    board = public(shown, t.channel.id)
    (button,) = [c for c in board.iter_components() if c.get("label") == "No extra card"]
    clicked = await t.fake.click(t.alice, board, button["custom_id"])
    after = private(clicked, t.channel.id)
    assert "go without their Company Commander's extra card" in after.content
    _, state = await t.bot.service.current(t.channel.id)
    assert not state.extra and not state.arriving(AMERICANS)
    assert "tactics" in [str(a) for a in state.legal_actions(AMERICANS)]
