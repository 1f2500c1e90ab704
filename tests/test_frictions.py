"""Small frictions a player met in Discord (issue 21, item 6), each through the real bot on the fake
Discord: what the player reads in a select, a challenge, an autocomplete list or a refusal."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from bot import create_bot
from engine import registry
from engine.protocol import Game
from play.service import game_of
from settings import Settings
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.fixtures import ForwardErrors, HandClock

GAMES = registry.names()


class Table:
    """A guild with one channel, two players and a spectator, and the bot connected."""

    def __init__(self, fake: FakeDiscord, guild) -> None:
        self.fake = fake
        self.bot = None
        self.channel = guild.channel("general")
        self.alice = fake.add_user("alice")
        self.bob = fake.add_user("bob")
        self.eve = fake.add_user("eve")

    @property
    def users(self) -> dict[int, object]:
        return {self.alice.id: self.alice, self.bob.id: self.bob}

    async def match(self):
        return await self.bot.database.get_channel_match(self.channel.id)

    async def slash(self, user, game: str, name: str, options: dict | None = None, **kw):
        return await self.fake.slash(user, self.channel, game, name, options or {}, **kw)

    async def start(self, game: Game) -> FakeMessage:
        """Alice (the first side) challenges Bob, who accepts with the button: the first board."""
        first = game.sides[0].name
        asked = {"opponent": self.bob, "side": first}
        challenged = await self.slash(self.alice, game.name, "challenge", asked)
        match = await self.match()
        return (await self.fake.click(self.bob, challenged.message, f"bw:accept:{match.id}")).message

    async def play_until(self, game: Game, done, seed: int = 1, limit: int = 400) -> None:
        """Seeded random legal actions through the service until `done(state, side)` holds for the
        side to act."""
        rng = random.Random(seed)
        for _ in range(limit):
            match, state = await self.bot.service.current(self.channel.id)
            side = min(state.to_act())
            if done(state, side):
                return
            legal = await self.bot.service.legal(self.channel.id, match.sides[side])
            await self.bot.service.act(self.channel.id, match.sides[side], rng.choice(legal))
        raise AssertionError("the wanted position never came")


@pytest.fixture
async def table(fake_discord: FakeDiscord, start_bot, tmp_path: Path):
    fake = fake_discord
    fake.settle = 0.02
    guild = fake.add_guild("Front", channels=("general",))
    errors = ForwardErrors(fake)
    logging.getLogger("bot").addHandler(errors)
    t = Table(fake, guild)  # users exist before the bot connects: they join the guild
    t.bot = create_bot(
        Settings(token=None, database_path=tmp_path / "f.db", sync_commands=True),
        clock=HandClock(),
        rng=random.Random(2),
        guild_ready_timeout=0.05,
        chunk_guilds_at_startup=False,
    )
    try:
        await start_bot(t.bot)
        yield t
    finally:
        logging.getLogger("bot").removeHandler(errors)
        await t.bot.close()


# ------------------------------------------------------------------------- Take action placeholders


@pytest.mark.parametrize("name", GAMES)
async def test_take_action_asks_in_words_that_read_for_every_piece(table: Table, name: str):
    """'What should the the rifleman on a8 do?', 'What should the call up into travel zone T3 do?':
    the second select's words must read whatever the game calls its pieces."""
    t, game = table, registry.game(name)
    await t.start(game)

    def has_groups(state, side) -> bool:
        view = state.view(side)
        return state.turn_number() >= 1 and any(game.group_of(view, a) for a in state.legal_actions(side))

    await t.play_until(game, has_groups)
    match, state = await t.bot.service.current(t.channel.id)
    side = min(state.to_act())
    user = t.users[match.sides[side]]
    board = (await t.slash(user, name, "board")).message
    opened = await t.fake.click(user, board, f"bw:act:{match.id}:{match.version}")
    picker = opened.message
    (unit_select,) = [c for c in picker.custom_ids if c.startswith("bw:unit:")]
    options = picker.component(unit_select)["options"]
    for option in options[:3]:
        await t.fake.select(user, picker, unit_select, [option["value"]])  # edits the picker
        label = option["label"]
        assert picker.content == f"{label}: what now?"
        for custom_id in picker.custom_ids:
            placeholder = picker.component(custom_id)["placeholder"]
            assert placeholder.startswith("Choose an action"), placeholder
            assert "the the" not in placeholder.lower()
        picker = (await t.fake.click(user, board, f"bw:act:{match.id}:{match.version}")).message


# ------------------------------------------------------------------------------- the challenge text


@pytest.mark.parametrize("name", GAMES)
async def test_the_challenge_names_the_challengers_side_as_a_title(table: Table, name: str):
    t, game = table, registry.game(name)
    second = game.sides[1]
    challenged = await t.slash(t.alice, name, "challenge", {"opponent": t.bob, "side": second.name})
    assert f"challenger's side: the {second.title};" in challenged.content
    assert f"side: {second.name};" not in challenged.content
    match = await t.match()
    await t.fake.click(t.alice, challenged.message, f"bw:decline:{match.id}")
    chance = await t.slash(t.alice, name, "challenge", {"opponent": t.bob})
    assert "challenger's side: chosen at random;" in chance.content
    assert game_of(await t.match()).name == name
