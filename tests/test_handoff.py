"""One board per hand-off, and what a player needs at the start of their turn, through the fake Discord.

When one side plays several steps before the other must act (an AI's turn), the channel gets one
board drawing the whole stretch and a short text; the player now owed an action is pinged with what
the opponent did since they last acted, and what the game dealt them privately (drawn cards) reaches
them by DM at that moment, never the channel.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import pytest
from PIL import Image

from bot import WargamesBot
from cogs._format import DISCORD
from cogs.core import Core
from data import ActionRecord, Match
from engine import registry
from engine.meta import PlainEvent
from engine.protocol import Event, State, Weight
from play.fairness import engine_seed
from play.news import recap
from play.service import Step
from render import board as render_board
from tests.botkit import BotKit
from tests.fakediscord import FakeDiscord, FakeMessage, FakeUser
from tests.fakediscord.fixtures import ForwardErrors, HandClock


class Table:
    """A guild with one channel, Alice and Bob, and the bot (restartable on the same database)."""

    def __init__(self, fake: FakeDiscord, start_bot, botkit: BotKit) -> None:
        self.fake = fake
        self.start_bot = start_bot
        self.kit = botkit
        guild = fake.add_guild("Front", channels=("general",))
        self.channel = guild.channel("general")
        self.alice = fake.add_user("alice")
        self.bob = fake.add_user("bob")
        self.clock = HandClock()
        self.bot: WargamesBot | None = None

    async def start(self) -> WargamesBot:
        # seed 5: its deals give the Germans a busy first turn in Fix Bayonets (the dice of a seeded
        # run come from this rng, docs/fairness.md)
        self.bot = await self.kit.build({"AI_BUDGET_SECONDS": "0.02"}, clock=self.clock, rng=random.Random(5))
        await self.start_bot(self.bot)
        return self.bot

    async def restart(self) -> WargamesBot:
        assert self.bot is not None
        await self.core.idle()
        await self.kit.stop(self.bot)
        return await self.start()

    @property
    def core(self) -> Core:
        assert self.bot is not None
        return cast(Core, self.bot.get_cog("Core"))  # load_extension imports it afresh: no isinstance

    async def match(self) -> Match:
        assert self.bot is not None and self.bot.database is not None
        found = await self.bot.database.list_matches(channel_id=self.channel.id, limit=1)
        return found[0]

    async def log(self) -> list[ActionRecord]:
        assert self.bot is not None and self.bot.database is not None
        return await self.bot.database.actions((await self.match()).id)

    def images(self) -> list[FakeMessage]:
        """Every message in the channel with a picture, in order."""
        return [m for m in self.fake.messages_in(self.channel) if m.attachments]


@pytest.fixture
async def table(fake_discord: FakeDiscord, start_bot, botkit: BotKit) -> AsyncIterator[Table]:
    fake_discord.settle = 0.01
    errors = ForwardErrors(fake_discord)
    logging.getLogger("bot").addHandler(errors)
    t = Table(fake_discord, start_bot, botkit)
    try:
        await t.start()
        yield t
        await t.core.idle()
    finally:
        logging.getLogger("bot").removeHandler(errors)
        if t.bot is not None:
            await t.kit.stop(t.bot)


def pick(legal: list[str], rng: random.Random) -> str:
    """A quick player: ends a turn or a phase when they may, lets a card stand, else plays anything."""
    for word in ("end", "done", "fight", "pass"):
        if word in legal:
            return word
    return rng.choice(legal)


async def play_until(t: Table, game: str, user: FakeUser, done, rng: random.Random, most: int = 400) -> None:
    """`user` plays (by the game's `play` command) whenever they owe an action, until `done()`."""
    assert t.bot is not None
    for _ in range(most):
        await t.core.idle()
        if await done():
            return
        legal = await t.bot.service.legal(t.channel.id, user.id)
        assert legal, "the game waits for nobody we play"
        await t.fake.slash(user, t.channel, game, "play", {"action": pick(legal, rng)})
    raise AssertionError("the game did not get there")


def replayed_since(match: Match, rows: list[ActionRecord], first: int) -> tuple[State, list[Event]]:
    """The game replayed from its seed: the final state and the events of rows `first` onwards."""
    rules = registry.game(match.game)
    state = rules.new_game(match.options, engine_seed(match))
    events: list[Event] = []
    for n, row in enumerate(rows):
        side = match.side_of(row.player_id) if row.player_id is not None else None
        done = state.apply(rules.parse(row.notation), side or rules.sides[0].name)
        if n >= first:
            events.extend(done)
    return state, events


async def test_an_ai_turn_of_many_actions_is_one_board_drawing_all_of_it(table: Table):
    """WWI Combined Arms against the AI: its turn (moves, then attacks) is 15-30 actions. The channel
    gets one picture for each of its turns, drawn from every event of the turn, and a few lines of
    text; the steps stay in `history`."""
    t = table
    name = "combinedarms"
    bot_user = t.fake.bot_user
    await t.fake.slash(t.alice, t.channel, name, "challenge", {"opponent": bot_user, "level": "easy"})

    def ai_runs(rows: list[ActionRecord]) -> list[tuple[int, int]]:
        """Each stretch of the AI's actions in the log: (first row, end)."""
        runs: list[tuple[int, int]] = []
        for n, row in enumerate(rows):
            if row.player_id != bot_user.id:
                continue
            if runs and runs[-1][1] == n:
                runs[-1] = (runs[-1][0], n + 1)
            else:
                runs.append((n, n + 1))
        return runs

    async def long_ai_turn() -> bool:
        return any(end - first >= 12 for first, end in ai_runs(await t.log()))

    await play_until(t, name, t.alice, long_ai_turn, random.Random(1))
    await t.core.idle()
    rows = await t.log()
    runs = ai_runs(rows)
    ai_boards = [m for m in t.images() if m.interaction_user is None]  # Alice's have her command
    assert len(ai_boards) == len(runs), [m.content[:60] for m in ai_boards]  # one per AI stretch
    (first, end), board = next((r, b) for r, b in zip(runs, ai_boards, strict=True) if r[1] - r[0] >= 12)
    assert end == len(rows)  # the long turn is the last thing played: its board is the newest
    match = await t.match()
    state, events = replayed_since(match, rows, first)
    assert board.attachment("board.png").data == render_board(name, state, events)  # all of it drawn
    Image.open(io.BytesIO(board.attachment("board.png").data)).load()
    text = board.content
    assert f"<@{t.alice.id}>" in text or "Game over" in text  # the turn ping
    # the ping's line (whose move, in which game), then six lines at most, not one per action
    assert text.startswith(f"<@{t.alice.id}>, your move in ") or "Game over" in text, text
    assert len(text) <= 1000 and text.count("\n") <= 6, text
    assert f"{end - first} actions" in text and f"`/{name} history`" in text
    history = await t.fake.slash(t.alice, t.channel, name, "history", {"count": end - first})
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", history.content, re.M)]
    assert numbers == list(range(first + 1, end + 1))  # every step of the turn is still there


async def test_an_ai_turn_cut_by_a_restart_is_still_one_board_for_all_of_it(table: Table, monkeypatch):
    """The outbox holds: the AI played part of its turn and the bot died before any board. After the
    restart the AI finishes, and one board covers the whole turn, the part before the crash too."""
    t = table
    assert t.bot is not None
    bot_user = t.fake.bot_user
    challenge = {"opponent": bot_user, "side": "canadians"}
    await t.fake.slash(t.alice, t.channel, "blockwars", "challenge", challenge)
    await t.core.idle()  # the AI (Germans) sets up
    monkeypatch.setattr(t.core, "schedule_ai", lambda channel_id: None)  # the bot "dies" before its turn
    await t.fake.slash(t.alice, t.channel, "blockwars", "setup", {})
    await t.core.idle()
    match = await t.match()
    assert match.turn_player_id == bot_user.id
    # The AI's first action lands (its board owed), then the process dies.
    _, state = await t.bot.service.current(t.channel.id)

    def keeps_the_turn(action: object) -> bool:
        after = state.clone()
        after.apply(action, "germans")  # type: ignore[arg-type]
        return "germans" in after.to_act()

    action = next(a for a in state.legal_actions("germans") if keeps_the_turn(a))
    first = await t.bot.service.act(t.channel.id, bot_user.id, str(action))
    assert not first.hands_off  # a turn has two actions: the AI is not done
    assert await t.bot.service.owed_boards()
    before = len(t.images())
    await t.restart()
    for _ in range(200):
        await asyncio.sleep(0.02)
        await t.core.idle()
        if (await t.match()).turn_player_id == t.alice.id and not await t.bot.service.owed_boards():
            break
    rows = await t.log()
    start = max(n for n, r in enumerate(rows) if r.player_id == t.alice.id) + 1
    assert len(rows) - start >= 2
    (board,) = t.images()[before:]  # one board for the AI's turn, not one per action, not two
    ping, story = board.content.split("\n", 1)  # whose move, in which game; then what the AI did
    assert ping == f"<@{t.alice.id}>, your move in Block Wars (vs the AI)." and story.startswith("Germans:")
    assert first.line.split(": ", 1)[1].split(";")[0] in board.content  # the action before the crash
    state, events = replayed_since(await t.match(), rows, start)
    assert board.attachment("board.png").data == render_board("blockwars", state, events)
    assert await t.bot.service.owed_boards() == []


async def cards_dealt_by_the_other_side(t: Table, vs_ai: bool, busy: int = 0) -> tuple[str, FakeUser]:
    """Fix Bayonets: the Germans play their first turn (`busy` commands other than ending it first)
    and end it; the Americans draw 3 cards. Returns the Americans' private words for that draw and
    the American player."""
    assert t.bot is not None
    name = "fixbayonets"
    german, american = (t.fake.bot_user, t.alice) if vs_ai else (t.alice, t.bob)
    opponent = t.fake.bot_user if vs_ai else t.bob
    options = {"opponent": opponent, "side": "americans" if vs_ai else "germans"}
    challenged = await t.fake.slash(t.alice, t.channel, name, "challenge", options)
    if not vs_ai:
        match = await t.match()
        await t.fake.click(t.bob, challenged.message, f"bw:accept:{match.id}")
    rng = random.Random(3)
    for user in (american,) if vs_ai else (t.alice, t.bob):
        await t.fake.slash(user, t.channel, name, "setup", {"layout": "std"})
    await t.core.idle()

    async def americans_turn() -> bool:
        match = await t.match()
        _, state = await t.bot.service.current(t.channel.id)  # type: ignore[union-attr]
        return state.to_act() == {"americans"} and not state.quick_decision() and match.version > 3

    while not await americans_turn():
        _, state = await t.bot.service.current(t.channel.id)
        (side,) = state.to_act()
        user = {"germans": german, "americans": american}[side]
        if user is t.fake.bot_user:
            await t.core.idle()
            continue
        legal = await t.bot.service.legal(t.channel.id, user.id)
        others = [a for a in legal if a not in ("end", "fight", "pass") and not a.startswith("negate")]
        action = rng.choice(others) if busy and side == "germans" and others else pick(legal, rng)
        if side == "germans" and action in others:
            busy -= 1
        await t.fake.slash(user, t.channel, name, "play", {"action": action})
        await t.core.idle()
    stretch = await t.bot.service.latest_stretch(await t.match())
    assert stretch is not None
    secret = stretch.private["americans"]
    assert secret.startswith("the Americans draw ") and "3 cards" not in secret
    return secret, american


def never_in_the_channel(t: Table, secret: str) -> None:
    """No message of the channel (nor any ephemeral answer in it) carries the private words."""
    for message in t.fake.messages_in(t.channel):
        assert secret not in message.content
    drawn = secret.removeprefix("the Americans draw ")
    assert all(drawn not in m.content for m in t.fake.messages_in(t.channel))


async def test_cards_an_opponent_deals_you_reach_you_by_dm_never_the_channel(table: Table):
    t = table
    secret, american = await cards_dealt_by_the_other_side(t, vs_ai=False)
    dms = [m.content for m in t.fake.dms_to(american)]
    assert any(secret in dm and f"<#{t.channel.id}>" in dm for dm in dms), dms
    never_in_the_channel(t, secret)
    public = [m.content for m in t.fake.messages_in(t.channel) if "the Americans draw 3 cards" in m.content]
    assert public  # the channel hears that they drew, and how many
    assert all(secret not in m.content for m in t.fake.dms_to(t.alice))  # the Germans never see them


async def test_cards_the_ai_deals_you_reach_you_by_dm_never_the_channel(table: Table):
    t = table
    secret, american = await cards_dealt_by_the_other_side(t, vs_ai=True)
    assert any(secret in dm.content for dm in t.fake.dms_to(american))
    never_in_the_channel(t, secret)


async def test_with_dms_closed_the_channel_points_to_my_hand_without_the_cards(table: Table):
    t = table
    t.fake.dms_closed.add(t.bob.id)
    secret, american = await cards_dealt_by_the_other_side(t, vs_ai=False)
    assert t.fake.dms_to(american) == []
    never_in_the_channel(t, secret)
    notices = [m for m in t.fake.messages_in(t.channel) if "could not send you a direct message" in m.content]
    assert len(notices) == 1 and f"<@{t.bob.id}>" in notices[0].content and "My hand" in notices[0].content


async def test_the_turn_dm_says_what_the_opponent_did_since_you_last_acted(table: Table):
    """Bob asked for turn DMs: when the Germans' turn ends, his DM says what they did since his last
    action (several commands of theirs), and what he drew."""
    t = table
    await t.fake.slash(t.bob, t.channel, "wargames", "notify", {"enabled": True})
    secret, american = await cards_dealt_by_the_other_side(t, vs_ai=False, busy=2)
    rows = await t.log()
    last_bob = max(n for n, r in enumerate(rows) if r.player_id == t.bob.id)
    assert len(rows) - last_bob - 1 >= 2  # the Germans played several commands since
    ping = next(m.content for m in reversed(t.fake.dms_to(american)) if m.content.startswith("Your move"))
    assert f"<#{t.channel.id}>" in ping and "<t:" in ping
    assert "Since you last acted:" in ping and "Germans" in ping
    assert "the germans end their turn" in ping.lower()
    assert secret in ping and ping.count(secret) == 1  # what he drew, as his side is told it, once
    assert ping.count("Your move") == 1
    # the recap reads as his side is told it, not as the channel ("draw 3 cards" and the cards apart)
    assert "draw 3 cards" not in ping and "Only you see this" not in ping, ping


# ---------------------------------------------------------------------- the console


async def test_the_console_keeps_a_players_dealt_cards_until_it_becomes_them(tmp_path: Path):
    """Hot-seat Fix Bayonets in the console: when the Germans end their turn, what the Americans
    drew is not printed for the table; `/as bob` prints it to him, as his DM."""
    from console import Console, names
    from data import Database
    from play import MatchService

    clock = HandClock()
    out = io.StringIO()
    db = await Database.open(tmp_path / "c.db", clock=clock)
    console = Console(MatchService(db, clock=clock, rng=random.Random(5)), boards=tmp_path / "b", out=out)
    lines = [
        "/fixbayonets challenge @bob side:germans",
        "/as bob",
        "/fixbayonets accept",
        "/fixbayonets setup std",
        "/as alice",
        "/fixbayonets setup std",
    ]
    assert await console.run_lines(lines) == 0
    bob = names.user_id("bob")
    rng = random.Random(2)
    for _ in range(60):
        match, state = await console.service.current(console.channel_id)
        if state.to_act() == {"americans"} and not state.quick_decision():
            break
        who = "alice" if state.to_act() == {"germans"} else "bob"
        if console.me != who:
            await console.run_lines([f"/as {who}"])
        legal = await console.service.legal(console.channel_id, console.my_id)
        assert await console.run_lines([f"/fixbayonets play {pick(legal, rng)}"]) == 0
    if console.me != "alice":
        await console.run_lines(["/as alice"])
    stretch = await console.service.latest_stretch(match)
    assert stretch is not None
    secret = stretch.private["americans"]
    assert secret.startswith("the Americans draw ")
    at_the_table = out.getvalue()
    assert secret not in at_the_table and "the Americans draw 3 cards" in at_the_table
    assert console.inbox.get(bob)
    await console.run_lines(["/channel mess", "/as bob"])  # Bob, somewhere else: his DM waits for him
    told = out.getvalue()[len(at_the_table) :]
    assert f"[direct message] In Fix Bayonets in #general, only you see this: {secret}." in told
    await console.run_lines(["/as alice", "/as bob"])
    assert out.getvalue().count(secret) == 1  # told once
    # Becoming Bob in the game's channel: the turn ping, what the Germans did since he last acted,
    # as his side knows it (so what he drew too), and no second copy of the DM.
    console.inbox[bob] = [(match.id, "a DM about this game")]
    before = len(out.getvalue())
    await console.run_lines(["/channel general", "/as alice", "/as bob"])
    ping = out.getvalue()[before:]
    assert (
        "[turn] Your move in Fix Bayonets in #general, due in " in ping and "Since you last acted:\n" in ping
    )
    assert "The Germans end their turn" in ping and secret in ping
    assert "a DM about this game" not in ping
    before = len(out.getvalue())
    await console.run_lines(["/as alice"])
    assert "[turn]" not in out.getvalue()[before:]  # not Alice's move: no ping for her
    await console.close()


async def test_the_console_shows_cards_the_ai_deals_you_at_once(tmp_path: Path):
    from console import Console
    from data import Database
    from play import MatchService

    clock = HandClock()
    out = io.StringIO()
    db = await Database.open(tmp_path / "c.db", clock=clock)
    console = Console(
        MatchService(db, clock=clock, rng=random.Random(5)), boards=tmp_path / "b", out=out, ai_budget=0.02
    )
    assert (
        await console.run_lines(["/fixbayonets challenge @bot side:americans", "/fixbayonets setup std"]) == 0
    )
    rng = random.Random(2)
    for _ in range(60):  # let the AI's cards stand until its turn ends
        _, state = await console.service.current(console.channel_id)
        if not state.quick_decision():
            break
        legal = await console.service.legal(console.channel_id, console.my_id)
        assert await console.run_lines([f"/fixbayonets play {pick(legal, rng)}"]) == 0
    match, _ = await console.service.current(console.channel_id)
    rows = await console.service.db.actions(match.id)
    drawn = [
        line
        for line in out.getvalue().splitlines()
        if line.startswith("(only you see this) the Americans draw")
    ]
    assert rows[-1].player_id != console.my_id and drawn  # the AI's turn ended and dealt us our cards
    await console.close()


# ---------------------------------------------------------------------- the recap's words


@dataclass(frozen=True, slots=True)
class Said(PlainEvent):
    words: str

    def text(self, viewer: str | None = None) -> str:
        return self.words


def test_a_short_stretch_is_told_line_by_line():
    steps = [
        Step("Germans", "e6-e5", [Said("e6-e5")]),
        Step("Germans", "end", [Said("the Germans end their turn")]),
    ]
    assert recap(steps, DISCORD) == "Germans: e6-e5\nThe Germans end their turn"


@dataclass(frozen=True, slots=True)
class Weighed(PlainEvent):
    """An event of a made-up game with a weight and, maybe, a loss and a score."""

    words: str
    weight: Weight = Weight.DECISIVE
    loss: tuple[str, str] | None = None
    score: str | None = None

    def text(self, viewer: str | None = None) -> str:
        return self.words


def test_a_long_stretch_is_summarised_losses_first_then_what_mattered_then_a_count():
    """25 moves, two hits of which one destroyed a unit, then the end of the turn: the summary names
    the count and the loss first, then both hits in the order played, then how many routine actions
    it left out, in at most five lines; no move is told one by one."""
    moves = [Step("British", f"a{n}", [Said(f"Infantry move number {n}")]) for n in range(25)]
    hit = Step("British", "a3xa6", [Weighed("Tank a3xa6: 1 damage")])
    kill = Step(
        "British",
        "b3xb6",
        [
            Weighed("Tank b3xb6: 1 damage (3 of 3 this turn)"),
            Weighed(
                "Tank on b6 destroyed", Weight.CHANGED, ("Germans", "the Tank on b6"), "Germans lost 4 of 9"
            ),
        ],
    )
    end = Step("British", "end", [Said("the British end their turn")])
    text = recap([*moves[:12], kill, *moves[12:], hit, end], DISCORD)
    lines = text.split("\n")
    assert lines[0] == "**British, 28 actions.** The Germans lost the Tank on b6. Germans lost 4 of 9."
    assert lines[1] == "Tank b3xb6: 1 damage (3 of 3 this turn); Tank on b6 destroyed"
    assert lines[2] == "Tank a3xa6: 1 damage"
    assert lines[3] == "And 26 routine actions: `history` lists each action."
    assert len(lines) == 4 and "Infantry move" not in text
    secret = Step("British", "orders", [])  # an action the channel may not see says so, briefly
    assert "(something only they may see)" not in recap([*moves, secret, end], DISCORD)
    quiet = recap([*moves, end], DISCORD).split("\n")
    assert quiet == ["**British, 26 actions.**", "No attack and no loss: `history` lists each action."]


def test_a_summary_keeps_the_weightiest_and_latest_results_when_they_do_not_all_fit():
    hits = [Step("British", f"h{n}", [Weighed(f"hit number {n}")]) for n in range(8)]
    kill = Step("British", "k", [Weighed("a kill", Weight.CHANGED, ("Germans", "G1"))])
    lines = recap([*hits[:2], kill, *hits[2:]], DISCORD).split("\n")
    assert len(lines) == 5
    assert lines[1:4] == ["A kill", "Hit number 6", "Hit number 7"]  # in the order played
    assert lines[4] == "And 6 more results of note: `history` lists each action."


# ---------------------------------------------------------------------- the stretch, kept or replayed


@pytest.mark.parametrize("name", ["blockwars", "fixbayonets", "combinedarms"])
async def test_a_stretch_kept_in_memory_is_the_one_the_log_replays(name: str, store: str):
    """A hand-off's stretch comes from the steps the service kept as it stored them (no replay); a
    service that has just started (after a restart) replays the log instead. Both give the same
    steps and events, at every hand-off of a game played command by command."""
    from data import Database
    from play import MatchService

    clock = HandClock()
    db = await Database.open(store, clock=clock)  # both stores: the log is read back from each
    svc = MatchService(db, clock=clock, rng=random.Random(2))
    game = registry.game(name)
    await svc.challenge(guild_id=1, channel_id=7, challenger_id=1, opponent_id=2, game=name)
    await svc.accept(7, 2)
    rng = random.Random(4)
    handoffs = 0
    for _ in range(150):
        match, state = await svc.current(7)
        if state.is_over():
            break
        side = min(state.to_act())
        user = match.sides[side]
        played = await svc.act(7, user, str(rng.choice(list(state.legal_actions(side)))))
        if not played.hands_off:
            continue
        handoffs += 1
        assert svc._run_up_to(played.match) is not None  # kept as stored
        kept = await svc.stretch(played)
        fresh = MatchService(db, clock=clock)  # nothing in memory: the log is replayed
        replayed = await fresh.stretch(played)
        assert [(s.who, s.notation, s.player_id) for s in kept.steps] == [
            (s.who, s.notation, s.player_id) for s in replayed.steps
        ]
        assert [e.to_json() for e in kept.events] == [e.to_json() for e in replayed.events]
        latest = await svc.latest_stretch(played.match)
        again = await fresh.latest_stretch(await db.get_match(played.match.id))
        assert latest is not None and again is not None
        assert [s.notation for s in latest.steps] == [s.notation for s in again.steps]
        if played.over:
            break
    assert handoffs >= 5, game.title
    await db.close()


# ---------------------------------------------------------------------- games ending under background jobs


class HeldThinker:
    """Wraps the service's thinker: the first answer the AI thinks about after an action of its own
    in the same run (the middle of its turn) waits until the test releases it, so the test can act
    while the AI is still thinking (as a player resigning during the AI's turn)."""

    def __init__(self, t: Table) -> None:
        assert t.bot is not None
        self.t = t
        self.real = t.bot.service.thinker.choose
        self.thinking = asyncio.Event()
        self.release = asyncio.Event()

    async def __call__(self, *args, **kwargs) -> str:
        rows = await self.t.log()
        if not self.thinking.is_set() and len(rows) > 2 and rows[-1].player_id == self.t.fake.bot_user.id:
            self.thinking.set()
            await self.release.wait()
        return await self.real(*args, **kwargs)


async def until_held(t: Table, game: str, held: HeldThinker, rng: random.Random) -> None:
    """Alice plays whenever she owes an action until the AI is held in the middle of its turn."""
    assert t.bot is not None
    for _ in range(200):
        while t.core._tasks and not held.thinking.is_set():  # noqa: ASYNC110 (two conditions, one an event)
            await asyncio.sleep(0.01)
        if held.thinking.is_set():
            return
        legal = await t.bot.service.legal(t.channel.id, t.alice.id)
        assert legal, "the game waits for nobody"
        await t.fake.slash(t.alice, t.channel, game, "play", {"action": pick(legal, rng)})
    raise AssertionError("the AI never played two actions in a row")


async def test_resigning_while_the_ai_plays_its_turn_ends_quietly_and_shows_what_it_played(
    table: Table, monkeypatch, caplog
):
    """Issue 22, bug 1: the AI stored the first action of its turn and was thinking about the next
    when its opponent resigned. The AI stops without an error, and the action it stored before the
    resignation is posted in the channel with its board (the channel would otherwise never see it)."""
    t = table
    assert t.bot is not None
    bot_user = t.fake.bot_user
    await t.fake.slash(
        t.alice, t.channel, "blockwars", "challenge", {"opponent": bot_user, "side": "canadians"}
    )
    await t.core.idle()  # the AI (Germans) sets up
    held = HeldThinker(t)
    monkeypatch.setattr(t.bot.service.thinker, "choose", held)
    await t.fake.slash(t.alice, t.channel, "blockwars", "setup", {})
    await until_held(t, "blockwars", held, random.Random(2))
    rows = await t.log()
    assert rows[-1].player_id == bot_user.id
    stored = rows[-1].notation
    before = len(t.fake.messages_in(t.channel))
    caplog.set_level(logging.WARNING)
    resigned = await t.fake.slash(t.alice, t.channel, "blockwars", "resign", {})
    assert "Game over" in resigned.content
    held.release.set()
    await t.core.idle()
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert t.fake.bot_errors == []
    assert (await t.log())[-1].notation == "resign"  # the AI played nothing after the resignation
    later = [
        m for m in t.fake.messages_in(t.channel)[before:] if m.attachments and m.interaction_user is None
    ]
    (shown,) = [m for m in later if stored in m.content]  # the stored action is announced, once
    assert "Germans" in shown.content and "Game over" in shown.content, shown.content
    assert not shown.components  # no buttons of a game that is over
    assert await t.bot.service.owed_boards() == []


async def test_a_reminder_found_due_is_not_sent_for_a_game_that_ended_meanwhile(table: Table):
    """The sweep found Bob's reminder due; before it was posted, the game ended (Alice resigned).
    The channel is not told that a move is due in a game that is over."""
    t = table
    assert t.bot is not None
    challenged = await t.fake.slash(t.alice, t.channel, "blockwars", "challenge", {"opponent": t.bob})
    await t.fake.click(t.bob, challenged.message, f"bw:accept:{(await t.match()).id}")
    match = await t.match()
    assert match.reminder_at is not None
    t.clock.now = match.reminder_at + 1
    notices = [n for n in await t.bot.service.sweep() if n.kind == "reminder"]
    assert notices
    await t.fake.slash(t.alice, t.channel, "blockwars", "resign", {})
    before = len(t.fake.messages_in(t.channel))
    for notice in notices:
        await t.core.announce(notice)
    assert [m.content for m in t.fake.messages_in(t.channel)[before:] if "is due" in m.content] == []


def test_a_summary_line_that_opens_with_a_square_keeps_it_in_lower_case():
    """ "D5 attacks e6: 6 of diamonds vs 5 of hearts" in a Block Wars turn's summary: a square is
    never written in capitals."""
    moves = [Step("Canadians", f"a{n}", [Said(f"Infantry move number {n}")]) for n in range(8)]
    attack = Step("Canadians", "e4-d5xe6", [Weighed("d5 attacks e6: 6 of diamonds vs 5 of hearts, a tie")])
    lines = recap([*moves, attack], DISCORD).split("\n")
    assert "d5 attacks e6: 6 of diamonds vs 5 of hearts, a tie" in lines, lines
