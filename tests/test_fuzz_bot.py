"""Bad input, fuzzed through the fake Discord: the bot must answer everything clearly and break nothing.

Hypothesis (derandomized, bounded) sends random `/blockwars` subcommands with random option values
(very long strings up to Discord's 6,000 characters, unicode, SQL, notation look-alikes), forged and
garbage custom_ids on bot messages, clicks by people outside the game, commands in channels with no
game, and autocomplete with anything typed. Every time:

- nothing raises: the `fake_discord` fixture fails the call when discord.py logs an ERROR, and so
  does our own `blockwars` logger (the cog logs there before apologising for a bug);
- every answer is a clear refusal (ephemeral, never the apology for a bug) or a legal result;
- a refused command changes nothing: the match rows (version, status, snapshot) and the action log
  are byte-identical before and after;
- the database stays consistent: every snapshot equals its seed + log replayed, no open game stuck.

SQL parameterisation is proven statically by tests/test_data.py::test_no_sql_is_built_from_strings
(every statement in data/ is a literal), and dynamically here: SQL-ish text goes through every
string option and comes back as plain text at most.
"""

from __future__ import annotations

import logging
import random
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import WargamesBot
from cogs._views import DYNAMIC_ITEMS
from cogs.core import APOLOGY
from play.stamps import stamp
from tests.botkit import BotKit
from tests.fakediscord import MANAGE_CHANNELS, FakeChannel, FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.fixtures import TEST_TOKEN, ForwardErrors, HandClock
from tests.fakediscord.server import FakeDiscordError
from tests.ids import button_id
from tests.pings import after_ping
from tests.reliability.loadkit import audit

FUZZ = settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
NASTY = [
    "",
    " ",
    "'; DROP TABLE matches; --",
    '" OR 1=1 --',
    "e2-e3; DELETE FROM actions",
    "Robert'); DROP TABLE users;--",
    "%s %d {0} {}",
    "\x00\x01\x02",
    "e9-e10",
    "e4-e5xe6xe7",
    "setup aaaa/bbbb/cc",
    "setup std std",
    "T@z9",
    "R@a1",
    "gas a1",
    "barrage i9",
    "dogfight Z",
    "resign",
    "accept draw",
    "timeout",
    "ＥＲＲＯＲ",
    "🂡🂱🃁🃑",
    "<@123456789012345678>",
    "@everyone",
    "`" * 100,
]
TEXT = st.one_of(
    st.sampled_from(NASTY),
    st.sampled_from("xé🂡'").flatmap(lambda c: st.sampled_from([c * 2000, c * 6000])),  # Discord's limit
    st.text(max_size=60),
    st.text(alphabet="abcdefgh12345678-x@+TR /", max_size=20),
    st.builds(lambda s, n: (s or "z") * n, st.text(min_size=1, max_size=3), st.integers(100, 2000)),
).map(lambda s: s[:6000])


@dataclass
class Arena:
    fake: FakeDiscord
    bot: WargamesBot
    clock: HandClock
    db_path: Path
    general: FakeChannel
    empty: FakeChannel
    thread: FakeChannel
    alice: FakeUser
    bob: FakeUser
    eve: FakeUser
    mod: FakeUser
    other_bot: FakeUser

    @property
    def humans(self) -> list[FakeUser]:
        return [self.alice, self.bob, self.eve, self.mod]

    @property
    def channels(self) -> list[FakeChannel]:
        return [self.general, self.general, self.empty, self.thread]

    def rows(self) -> tuple[list[tuple[Any, ...]], int]:
        """Everything a refused command must leave alone: the match rows and the length of the log."""
        conn = sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True)
        try:
            matches = conn.execute(
                "SELECT id, status, version, snapshot, turn_player_id, deadline FROM matches ORDER BY id"
            ).fetchall()
            (actions,) = conn.execute("SELECT count(*) FROM actions").fetchone()
        finally:
            conn.close()
        return matches, actions

    async def match(self, channel: FakeChannel | None = None) -> Any:
        assert self.bot.database is not None
        return await self.bot.database.get_channel_match((channel or self.general).id)

    async def slash(self, user: FakeUser, name: str, options: dict[str, Any] | None = None, channel=None):
        return await self.fake.slash(user, channel or self.general, "blockwars", name, options or {})

    async def ensure_game(self) -> FakeMessage | None:
        """A deployed game between Alice (Germans) and Bob in #general, whatever the last example did."""
        match = await self.match()
        if match is not None and match.status == "active":
            return None
        if match is not None:  # a challenge left open by the fuzz: withdraw it
            await self.slash(self.mod, "cancel")
        made = await self.slash(self.alice, "challenge", {"opponent": self.bob, "side": "germans"})
        match = await self.match()
        accepted = await self.fake.click(self.bob, made.message, f"bw:accept:{match.id}")
        assert accepted.message.attachments
        await self.slash(self.alice, "setup", {"layout": "std"})
        done = await self.slash(self.bob, "setup", {"layout": "std"})
        return done.message

    async def board(self) -> FakeMessage:
        """The latest board of #general, posted fresh (with its live buttons)."""
        await self.ensure_game()
        shown = await self.slash(self.eve, "board")
        return shown.message


@pytest.fixture
async def arena(fake_discord: FakeDiscord, start_bot, botkit: BotKit):
    fake_discord.settle = 0.03
    guild = fake_discord.add_guild("Fuzz Front", channels=("general", "quiet"))
    general = guild.channel("general")
    thread = fake_discord.add_thread(general, "side-game")
    alice, bob, eve = (fake_discord.add_user(n) for n in ("alice", "bob", "eve"))
    mod = fake_discord.add_user("mod", roles=[fake_discord.add_role(guild, "mods", MANAGE_CHANNELS)])
    other_bot = fake_discord.add_user("otherbot", bot=True)
    clock = HandClock()
    bot = await botkit.build(clock=clock, rng=random.Random(7))
    handler = ForwardErrors(fake_discord)
    logger = logging.getLogger("bot")
    logger.addHandler(handler)
    try:
        await start_bot(bot)
        world = Arena(
            fake_discord, bot, clock, bot.settings.database_path, general, guild.channel("quiet"), thread,
            alice, bob, eve, mod, other_bot,
        )  # fmt: skip
        yield world
        cog = bot.get_cog("Core")
        await cog.idle()  # type: ignore[union-attr]
        # errors logged outside a driver call (the sweep, background tasks) fail the test here
        assert fake_discord.bot_errors == [], fake_discord.bot_errors
    finally:
        logger.removeHandler(handler)
        await bot.close()


def check_answer(messages: list[FakeMessage]) -> bool:
    """Every message is plain words; returns True if all of them were ephemeral (a refusal or a help text)."""
    assert messages, "the bot did not answer"
    for message in messages:
        text = message.content
        assert text or message.attachments or message.components, "an empty answer"
        assert APOLOGY not in text, f"the bot hit a bug: {text!r}"
        for leak in ("Traceback", "Exception(", "sqlite3", "<class ", "object at 0x"):
            assert leak not in text, f"internal detail shown to a user: {text!r}"
        assert TEST_TOKEN not in text
    return all(m.ephemeral for m in messages)


def assert_consistent(w: Arena) -> None:
    checked = audit(w.db_path)
    assert checked.replay_mismatches == [] and checked.stuck == [], checked


# ---------------------------------------------------------------------- slash commands


def subcommands(fake: FakeDiscord) -> list[tuple[list[str], list[dict[str, Any]]]]:
    """(["move"], options) for every leaf of /blockwars as synced, and a subgroup's leaves
    (["group", "leaf"]) should it have any."""
    (root,) = [c for c in fake.synced_commands() if c["name"] == "blockwars"]
    out = []
    for option in root.get("options", []):
        if option["type"] == 1:
            out.append(([option["name"]], option.get("options", [])))
        elif option["type"] == 2:
            for sub in option.get("options", []):
                out.append(([option["name"], sub["name"]], sub.get("options", [])))
    return out


def value_for(w: Arena, option: dict[str, Any]) -> st.SearchStrategy[Any]:
    """A value Discord would deliver for this option: choices and ranges are enforced by Discord itself."""
    if option.get("choices"):
        return st.sampled_from([c["value"] for c in option["choices"]])
    kind = option["type"]
    if kind == 3:
        limit = option.get("max_length", 6000)
        return TEXT.map(lambda s: s[:limit])
    if kind == 4:
        return st.integers(option.get("min_value", -(2**53)), option.get("max_value", 2**53))
    if kind == 5:
        return st.booleans()
    if kind == 6:
        return st.sampled_from([w.alice, w.bob, w.eve, w.mod, w.other_bot])
    raise AssertionError(f"an option type the fuzz does not know yet: {option}")


@FUZZ
@given(data=st.data())
async def test_random_commands_answer_clearly_and_refusals_change_nothing(arena: Arena, data: st.DataObject):
    w = arena
    await w.ensure_game()
    names, options = data.draw(st.sampled_from(subcommands(w.fake)), label="command")
    chosen: dict[str, Any] = {}
    for option in options:
        if option.get("required") or data.draw(st.booleans(), label=f"give {option['name']}"):
            chosen[option["name"]] = data.draw(value_for(w, option), label=option["name"])
    user = data.draw(st.sampled_from(w.humans), label="user")
    channel = data.draw(st.sampled_from(w.channels), label="channel")
    before = w.rows()
    result = await w.fake.slash(user, channel, "blockwars", *names, chosen)
    refused = check_answer(result.messages)
    if refused:
        assert w.rows() == before, f"/blockwars {' '.join(names)} {chosen} was refused but changed the game"
    assert_consistent(w)


@FUZZ
@given(data=st.data())
async def test_autocomplete_offers_only_legal_choices_whatever_is_typed(arena: Arena, data: st.DataObject):
    w = arena
    await w.ensure_game()
    name = data.draw(
        st.sampled_from(["move", "attack", "fire", "tank", "reinforce", "decide", "setup", "board"])
    )
    focused = "unit" if name == "board" else "layout" if name == "setup" else "action"
    typed = data.draw(TEXT, label="typed")
    user = data.draw(st.sampled_from(w.humans), label="user")
    channel = data.draw(st.sampled_from(w.channels), label="channel")
    before = w.rows()
    choices = await w.fake.autocomplete(user, channel, "blockwars", name, {focused: typed}, focused=focused)
    assert len(choices) <= 25
    for choice in choices:
        assert 1 <= len(choice["name"]) <= 100 and 1 <= len(str(choice["value"])) <= 100, choice
    if choices and name not in ("board", "setup"):
        legal = set(await w.bot.service.legal(channel.id, user.id))
        if not legal:  # not this user's move: one entry says whose it is, and picking it is refused
            assert [c["value"] for c in choices] == ["not your turn"]
        else:
            assert {c["value"] for c in choices} <= legal
    assert w.rows() == before


# ---------------------------------------------------------------------- buttons and selects


def forged_ids(mid: int, version: int) -> st.SearchStrategy[str]:
    """custom_ids an old or tampered message could carry: real templates with wrong parts, and garbage."""
    number = st.one_of(st.sampled_from([mid, version, 0, 1, mid + 1]), st.integers(0, 2**70))
    notation = TEXT.map(lambda s: s[:70]).filter(bool)
    templated = st.one_of(
        st.builds(lambda m: f"bw:accept:{m}", number),
        st.builds(lambda m: f"bw:decline:{m}", number),
        st.builds(lambda m, v: f"bw:act:{m}:{v}", number, number),
        st.builds(lambda m, v: f"bw:gas:{m}:{v}", number, number),
        st.builds(lambda m, v, n: f"bw:dec:{m}:{v}:{n}", number, number, notation),
    )
    garbage = st.one_of(
        st.text(min_size=1, max_size=100),
        st.builds(lambda s: ("bw:" + s)[:100], st.text(max_size=97)),
        st.sampled_from(["bw:act:", "bw:act:1", "bw:act:-1:0", "bw:dec:1:1:", "bw:unknown:1:1", "bw"]),
    )
    return st.one_of(templated, garbage).filter(lambda s: 1 <= len(s) <= 100)


def matches_a_template(custom_id: str) -> bool:
    return any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in DYNAMIC_ITEMS)


def forged_message(fake: FakeDiscord, channel: FakeChannel, custom_id: str, select: bool, values: list[str]):
    """A message by the bot carrying the forged component (Discord only delivers ids of real components)."""
    if select:
        component = {
            "type": 3,
            "custom_id": custom_id,
            "options": [{"label": v[:100] or "?", "value": v} for v in values],
        }
    else:
        component = {"type": 2, "style": 1, "label": "Press", "custom_id": custom_id}
    fields = {"content": "An old prompt", "components": [{"type": 1, "components": [component]}]}
    return fake._create(channel, fields, {}, kind="channel")


@FUZZ
@given(data=st.data())
async def test_forged_and_garbage_custom_ids_are_refused_or_ignored(arena: Arena, data: st.DataObject):
    w = arena
    await w.ensure_game()
    match = await w.match()
    select = data.draw(st.booleans(), label="select")
    if select:
        kind = data.draw(st.sampled_from(["pick", "unit", "do"]))
        m = data.draw(st.sampled_from([match.id, match.id + 7, 2**66]))
        v = data.draw(st.sampled_from([stamp(match), match.version, stamp(match, match.version - 1), 0]))
        custom_id = {"pick": f"bw:pick:{m}:{v}:0", "unit": f"bw:unit:{m}:{v}", "do": f"bw:do:{m}:{v}:e6:0"}[
            kind
        ]
        value = data.draw(TEXT.map(lambda s: s[:100]).filter(bool), label="value")
        values = [value]
    else:
        custom_id = data.draw(forged_ids(match.id, match.version), label="custom_id")
        values = []
    user = data.draw(st.sampled_from(w.humans), label="user")
    channel = data.draw(st.sampled_from(w.channels), label="channel")
    message = forged_message(w.fake, channel, custom_id, select, values)
    before = w.rows()
    # An id no template matches is never dispatched by discord.py: the bot, in this process, would
    # answer it (if it wrongly did) in a few milliseconds, so a tenth of a second shows it stays
    # unanswered. An id a template matches gets the fake's whole timeout to be answered, as it must.
    wait = None if matches_a_template(custom_id) else 0.1
    try:
        if select:
            result = await w.fake.select(user, message, custom_id, values, timeout=wait)
        else:
            result = await w.fake.click(user, message, custom_id, timeout=wait)
    except FakeDiscordError as exc:
        # discord.py answers only custom_ids that match one of the bot's templates; anything else
        # stays unanswered (Discord shows "This interaction failed"), and must change nothing.
        assert "never answered" in str(exc), exc
        assert not matches_a_template(custom_id), f"{custom_id!r} matches a template but got no answer"
        assert w.rows() == before
        return
    refused = check_answer(result.messages + result.edited)
    if refused:
        assert w.rows() == before, f"{custom_id!r} was refused but changed the game"
    assert_consistent(w)


async def test_outsiders_cannot_use_any_button_or_select_of_a_real_board(arena: Arena):
    w = arena
    board = await w.board()
    match = await w.match()
    before = w.rows()
    for user in (w.eve, w.mod):
        for custom_id in board.custom_ids:
            clicked = await w.fake.click(user, board, custom_id)
            assert clicked.ephemeral and "not playing" in clicked.content, (custom_id, clicked.content)
    # the Take-action flow: the player opens it, an outsider uses the selects it opened
    opened = await w.fake.click(w.alice, board, button_id("act", match))
    unit_id = button_id("unit", match)
    unit = opened.message.component(unit_id)["options"][0]["value"]
    snooped = await w.fake.select(w.eve, opened.message, unit_id, [unit])
    assert snooped.ephemeral and "not playing" in snooped.content
    picked = await w.fake.select(w.alice, opened.message, unit_id, [unit])
    (prompt,) = picked.edited
    do_id = next(c for c in prompt.custom_ids if c.startswith("bw:do:"))
    action = prompt.component(do_id)["options"][0]["value"]
    stolen = await w.fake.select(w.eve, prompt, do_id, [action])
    assert stolen.ephemeral and "not playing" in stolen.content
    # the player whose turn it is not cannot use them either
    waiting = await w.fake.select(w.bob, prompt, do_id, [action])
    assert waiting.ephemeral and "turn" in waiting.content
    assert w.rows() == before


async def test_a_double_click_lands_once(arena: Arena):
    w = arena
    board = await w.board()
    match = await w.match()
    end = button_id("dec", match, "end")
    first = await w.fake.click(w.alice, board, end)
    assert first.message.attachments
    second = await w.fake.click(w.alice, board, end)
    assert second.ephemeral and "out of date" in second.content
    assert (await w.match()).version == match.version + 1
    assert_consistent(w)


# ---------------------------------------------------------------------- channels that disappear


async def test_a_deleted_channel_does_not_break_the_sweep_or_other_games(arena: Arena):
    w = arena
    await w.ensure_game()
    made = await w.slash(w.alice, "challenge", {"opponent": w.bob, "side": "germans"}, channel=w.thread)
    doomed = await w.match(w.thread)
    await w.fake.click(w.bob, made.message, f"bw:accept:{doomed.id}")
    doomed = await w.match(w.thread)
    # the thread is deleted: Discord tells the bot, and the channel is gone for good
    conn = w.fake._require_connection()
    gone = {"id": str(w.thread.id), "guild_id": str(w.thread.guild_id), "type": w.thread.type}
    await conn.dispatch("THREAD_DELETE", gone | {"parent_id": str(w.thread.parent_id)})
    w.fake.channels.pop(w.thread.id)
    assert w.thread.guild_id is not None
    w.fake.guilds[w.thread.guild_id].channels.pop(w.thread.id)
    # its deadline passes: the sweep forfeits the game although it cannot post anywhere
    w.clock.now = doomed.deadline + 1
    cog = w.bot.get_cog("Core")
    notices = await cog.run_sweep()  # type: ignore[union-attr]
    assert any(n.kind == "forfeit" and n.match.id == doomed.id for n in notices)
    assert await w.match(w.thread) is None
    # the game in #general was forfeited too (same clock) and announced there; the bot carries on
    assert "ran out of time" in w.fake.messages_in(w.general)[-1].content
    again = await w.slash(w.alice, "challenge", {"opponent": w.bob})
    assert not again.ephemeral
    assert_consistent(w)


async def test_a_channel_deleted_while_the_bot_was_not_told(arena: Arena):
    """The cache still has the channel (the delete event was missed): posting fails with 404, handled."""
    w = arena
    await w.ensure_game()
    match = await w.match()
    w.fake.channels.pop(w.general.id)  # gone on Discord's side, not in the bot's cache
    w.clock.now = match.deadline + 1
    cog = w.bot.get_cog("Core")
    notices = await cog.run_sweep()  # type: ignore[union-attr]
    assert [n.kind for n in notices] == ["forfeit"]
    assert await w.match() is None
    assert_consistent(w)
    logged, w.fake.bot_errors[:] = list(w.fake.bot_errors), []
    assert logged == [], "a vanished channel is expected, not an error: log a warning"


async def test_a_move_whose_interaction_expired_still_shows_its_board(arena: Arena):
    """Under load the answer may come after Discord's 3 s: the move is stored, so its board is posted;
    a step of a turn that goes on is told to its player alone, by DM, and not to the channel."""
    w = arena
    await w.ensure_game()
    match = await w.match()
    w.fake.interaction_deadline = -1.0  # every callback is too late: Discord answers 404 10062
    try:
        with pytest.raises(FakeDiscordError, match="never answered"):
            await w.fake.slash(w.alice, w.general, "blockwars", "move", {"action": "e6-e5"}, timeout=1.5)
        (dm,) = await w.fake.wait_for_messages(lambda m: m.kind == "dm" and "`e6-e5` was played" in m.content)
        assert "only you see this" in dm.content
        assert not any("e6-e5" in m.content for m in w.fake.messages_in(w.general) if not m.ephemeral)
        with pytest.raises(FakeDiscordError, match="never answered"):
            await w.fake.slash(w.alice, w.general, "blockwars", "end", {}, timeout=1.5)
    finally:
        w.fake.interaction_deadline = 3.0
    await w.fake.wait_for_messages(
        lambda m: (
            after_ping(m.content).startswith("Germans: e6-e5") and bool(m.attachments) and not m.ephemeral
        )
    )
    assert (await w.match()).version == match.version + 2
    assert_consistent(w)


# ---------------------------------------------------------------------- the token


async def test_bad_input_never_brings_the_token_into_the_logs(arena: Arena, caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.DEBUG)
    w = arena
    await w.ensure_game()
    for text in NASTY[:8]:
        await w.slash(w.eve, "move", {"action": text})
        await w.slash(w.alice, "setup", {"layout": text or "x"})
    assert caplog.text and TEST_TOKEN not in caplog.text
