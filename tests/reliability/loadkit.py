"""Many matches at once through the fake Discord, against a bot in another process; then the audit.

The fake's own driver calls (`slash`, `click`) wait until the *whole* bot goes quiet, which never
happens with 200 games in flight. `LoadFake` adds a lean per-interaction driver instead: dispatch
INTERACTION_CREATE, wait for this interaction's callback and, after a "thinking" defer, for the
follow-up that fills it in. Latency is measured from the dispatch to that moment. It also drops
the PNG bytes once they were checked, so a long run does not hoard gigabytes of boards.

`Harness` owns the fake, the bot process and the per-match drivers; `audit` checks the database
file afterwards: every answered move is in the log, every snapshot equals its replay, no open match
is stuck.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import chance
from engine.blockwars import Options, Side, State, replay
from play.stamps import stamp_of
from play.undo import MID_TURN_NOTE
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from tests.fakediscord.records import EPHEMERAL
from tests.fakediscord.server import APPLICATION_COMMAND, AUTOCOMPLETE, MESSAGE_COMPONENT, _Interaction

ROOT = Path(__file__).resolve().parents[2]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
TOKEN = "load.test.token.bW91c2UtdHJhcA"  # never real: the tests grep the bot's stderr for it
MENTION = re.compile(r"<@(\d+)>")
KINDS = ("move", "attack", "fire", "tank", "reinforce")
PRIVATE = ("orders", "autoretreat")  # actions that change a private setting, not the game


class InteractionFailed(Exception):
    """No answer in time (Discord would show "This interaction failed")."""


@dataclass(slots=True)
class Answer:
    """What the bot did with one interaction."""

    interaction_id: int
    callback_type: int | None
    data: Mapping[str, Any]
    message: FakeMessage | None
    latency_s: float
    ack_s: float = 0.0  # until the first callback (a defer comes after the move is stored)

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and bool(self.message.flags & EPHEMERAL)

    @property
    def content(self) -> str:
        return self.message.content if self.message is not None else ""

    @property
    def is_board(self) -> bool:
        """A message with the board image: a move (or a start) that landed; public, or for the
        mover alone when their turn goes on (`MID_TURN_NOTE`, issue 30)."""
        if self.message is None or not self.message.attachments:
            return False
        return not self.ephemeral or MID_TURN_NOTE in self.message.content

    @property
    def choices(self) -> list[dict[str, Any]]:
        return list(self.data.get("choices", [])) if self.callback_type == 8 else []


def label_of(data: Mapping[str, Any]) -> str:
    """ "bw:act:3:9" for a component, "blockwars move" for a command: how the audit tells moves apart."""
    if "custom_id" in data:
        return str(data["custom_id"])
    subs = [o["name"] for o in data.get("options", []) if o.get("type") in (1, 2)]
    return " ".join([str(data.get("name")), *subs[:1]])


NOT_MOVES = ("bw:accept:", "blockwars board", "blockwars challenge", "blockwars replay")


class LoadFake(FakeDiscord):
    """FakeDiscord plus a concurrent, per-interaction driver for load and crash runs."""

    def __init__(self, *, timeout: float = 10.0) -> None:
        super().__init__(settle=0.0, timeout=timeout)
        self._progress: dict[int, asyncio.Event] = {}
        self._send_lock = asyncio.Lock()
        self.pngs = 0
        self.bad_pngs = 0
        self.png_bytes = 0
        # per channel, the bot's latest public board (AI games wait on it) and who waits for one
        self.boards: dict[int, FakeMessage] = {}
        self._board_waiters: dict[int, asyncio.Event] = {}

    # Every message the bot makes or edits passes here: note progress, check and drop the PNG bytes.
    def _create(self, channel: FakeChannel, fields: Any, files: Any, **kw: Any) -> FakeMessage:
        message = super()._create(channel, fields, files, **kw)
        self._note(message)
        return message

    def _edit(self, message: FakeMessage, fields: Any, files: Any) -> None:
        super()._edit(message, fields, files)
        self._note(message)

    def _note(self, message: FakeMessage) -> None:
        for att in message.attachments:
            if att.data:
                self.pngs += 1
                self.png_bytes += len(att.data)
                if att.filename.endswith(".png") and not att.data.startswith(PNG_MAGIC):
                    self.bad_pngs += 1
                att.data = b""
        if message.attachments and not message.flags & EPHEMERAL:
            self.boards[message.channel_id] = message
            waiter = self._board_waiters.get(message.channel_id)
            if waiter is not None:
                waiter.set()
        event = self._progress.get(message.interaction_id or 0)
        if event is not None:
            event.set()

    async def interact(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        message: FakeMessage | None = None,
        timeout: float | None = None,  # noqa: ASYNC109 (a driver API wants a per-call timeout)
    ) -> Answer:
        """Dispatch one interaction and wait for its answer (and the follow-up after a defer)."""
        conn = self._require_connection(channel.guild_id)
        loop = asyncio.get_running_loop()
        payload = self._interaction_payload(itype, user, channel, data, message=message)
        inter = _Interaction(
            id=int(payload["id"]),
            token=payload["token"],
            type=itype,
            user=user,
            channel=channel,
            label=label_of(data),
            sent_at=loop.time(),
            component_message=message,
        )
        self._interactions[inter.id] = inter
        self._by_token[inter.token] = inter
        progress = self._progress[inter.id] = asyncio.Event()
        deadline = loop.time() + (timeout or self.timeout)
        started = time.perf_counter()
        try:
            async with self._send_lock:
                await conn.dispatch("INTERACTION_CREATE", payload)
            try:
                await asyncio.wait_for(inter.answered.wait(), max(0.0, deadline - loop.time()))
                acked = time.perf_counter() - started
                shown: FakeMessage | None = None
                if inter.original_message_id is not None:
                    shown = self.messages.get(inter.original_message_id)
                if inter.callback_type == 5 and shown is not None:
                    while shown.loading:  # bounded by the deadline
                        progress.clear()
                        await asyncio.wait_for(progress.wait(), max(0.0, deadline - loop.time()))
            except TimeoutError:
                waited = timeout or self.timeout
                raise InteractionFailed(f"{inter.label}: no answer within {waited}s") from None
        finally:
            self._progress.pop(inter.id, None)
        total = time.perf_counter() - started
        return Answer(inter.id, inter.callback_type, inter.callback_data or {}, shown, total, acked)

    async def slash_cmd(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        options: Mapping[str, Any],
        *,
        group: str = "blockwars",
        **kw: Any,
    ) -> Answer:
        data = self._command_data(channel, [group, name], options, focused=None)
        return await self.interact(APPLICATION_COMMAND, user, channel, data, **kw)

    async def complete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        name: str,
        typed: str = "",
        *,
        group: str = "blockwars",
        **kw: Any,
    ) -> Answer:
        data = self._command_data(channel, [group, name], {"action": typed}, focused="action")
        return await self.interact(AUTOCOMPLETE, user, channel, data, **kw)

    async def next_board(
        self,
        channel: FakeChannel,
        after: FakeMessage | None,
        timeout: float,  # noqa: ASYNC109 (a driver API wants a per-call timeout)
    ) -> FakeMessage:
        """The bot's next public board in `channel` that is not `after` (nor `after` unchanged),
        posted or edited; TimeoutError after `timeout` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        seen = after.content if after is not None else None
        while True:
            latest = self.boards.get(channel.id)
            if latest is not None and (latest is not after or latest.content != seen):
                return latest
            waiter = self._board_waiters.setdefault(channel.id, asyncio.Event())
            waiter.clear()
            await asyncio.wait_for(waiter.wait(), max(0.0, deadline - loop.time()))

    async def press(self, user: FakeUser, message: FakeMessage, custom_id: str, **kw: Any) -> Answer:
        """A button click; the custom_id need not be on the message (forged ids are allowed here)."""
        data = {"custom_id": custom_id, "component_type": 2}
        channel = self.channels[message.channel_id]
        return await self.interact(MESSAGE_COMPONENT, user, channel, data, message=message, **kw)

    async def choose(
        self, user: FakeUser, message: FakeMessage, custom_id: str, values: list[str], **kw: Any
    ) -> Answer:
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        channel = self.channels[message.channel_id]
        return await self.interact(MESSAGE_COMPONENT, user, channel, data, message=message, **kw)


# ---------------------------------------------------------------------- the bot process


def children_of(pid: int) -> list[int]:
    """Processes whose parent is `pid` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:  # the field after the state is the parent pid
            found.append(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    """Running or sleeping; gone and zombie (dead, waiting to be reaped) both count as dead."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@dataclass
class BotProcess:
    """The bot in a child process; stderr goes to a file the tests read for the token."""

    proc: subprocess.Popen[bytes]
    stats_path: Path
    stderr_path: Path
    children: list[int] = field(default_factory=list)  # its child processes, noted at a kill

    def stats(self) -> dict[str, Any]:
        try:
            return dict(json.loads(self.stats_path.read_text()))
        except (OSError, ValueError):
            return {}

    def signal(self, sig: int) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)

    def kill(self) -> None:
        """SIGKILL: no clean-up runs, exactly like a crash or an OOM kill."""
        self.children = children_of(self.proc.pid)
        self.signal(signal.SIGKILL)
        self.proc.wait(10)

    async def orphans(self, grace_s: float = 5.0) -> list[int]:
        """The bot's child processes (board painters) still alive `grace_s` after a kill."""
        left = list(self.children)
        for _ in range(int(grace_s * 10)):
            left = [pid for pid in left if _alive(pid)]
            if not left:
                break
            await asyncio.sleep(0.1)
        return left

    async def stop(self, timeout: float = 15.0) -> dict[str, Any]:  # noqa: ASYNC109
        """SIGTERM, wait for the final figures; SIGKILL if it hangs."""
        self.signal(signal.SIGTERM)
        for _ in range(int(timeout * 20)):
            if self.proc.poll() is not None:
                break
            await asyncio.sleep(0.05)
        else:
            self.kill()
        return self.stats()

    def stderr(self) -> str:
        try:
            return self.stderr_path.read_text(errors="replace")
        except OSError:
            return ""


def spawn(cmd: list[str], stats: Path, stderr: Path, extra: Mapping[str, str] | None = None) -> BotProcess:
    """Popen returns at once; kept out of the async function only to say so plainly. `extra` adds
    settings to the environment (DATABASE_URL, SHARD_COUNT, SHARD_IDS: never argv, where `ps` shows
    a password)."""
    env = dict(os.environ, DISCORD_TOKEN=TOKEN, PYTHONPATH=str(ROOT), **(extra or {}))
    with stderr.open("wb") as err:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err)
    return BotProcess(proc, stats, stderr)


async def start_bot_process(
    fake: FakeDiscord,
    db_path: Path,
    workdir: Path,
    *,
    tag: str = "bot",
    log_level: str = "INFO",
    profile: Path | None = None,
    # generous: on a machine shared with other test runs a start-up has taken over 30 s
    timeout: float = 90.0,  # noqa: ASYNC109
    env: Mapping[str, str] | None = None,
    sweep_seconds: float | None = None,
) -> BotProcess:
    """Start `tests.reliability.botproc` and wait until it is READY on the fake gateway. `env` adds
    settings (a PostgreSQL DATABASE_URL, the process's shards); `db_path` still names where its
    health note goes."""
    stats = workdir / f"{tag}.stats.json"
    stderr = workdir / f"{tag}.stderr.log"
    stats.unlink(missing_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "tests.reliability.botproc",
        "--api",
        fake.api_base,
        "--gateway",
        fake.gateway_url,
        "--db",
        str(db_path),
        "--stats",
        str(stats),
        "--log-level",
        log_level,
        "--sync",
    ]
    if profile is not None:
        cmd += ["--profile", str(profile)]
    if sweep_seconds is not None:
        cmd += ["--sweep-seconds", str(sweep_seconds)]
    bot = spawn(cmd, stats, stderr, env)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if bot.proc.poll() is not None:
            raise RuntimeError(f"the bot process exited with {bot.proc.returncode}:\n{bot.stderr()[-3000:]}")
        if bot.stats().get("ready") and fake.connected and fake.commands:
            return bot
        await asyncio.sleep(0.05)
    bot.kill()
    raise RuntimeError(f"the bot process was not ready within {timeout}s:\n{bot.stderr()[-3000:]}")


ANSI = re.compile(r"\x1b\[[0-9;]*m")
PROBLEM = re.compile(r"\b(ERROR|CRITICAL)\b|^Traceback")


def start_control(workdir: Path) -> BotProcess:
    """A process with an idle event loop and the same stall watch: the machine's own noise floor."""
    stats = workdir / "control.stats.json"
    cmd = [sys.executable, "-m", "tests.reliability.botproc", "--control", "--api", "-", "--gateway", "-"]
    return spawn([*cmd, "--db", "-", "--stats", str(stats)], stats, workdir / "control.stderr.log")


def bot_log_problems(text: str) -> list[str]:
    """Lines of the bot's log that show a bug: errors and tracebacks (warnings are allowed)."""
    return [line for line in ANSI.sub("", text).splitlines() if PROBLEM.search(line)]


# ---------------------------------------------------------------------- the world and the drivers


@dataclass
class Stats:
    """What the drivers saw: latencies of moves and of autocomplete, errors, answered moves."""

    move_latencies: list[float] = field(default_factory=list)
    move_acks: list[float] = field(default_factory=list)
    other_latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)  # unanswered because the bot was killed
    answered_moves: dict[int, int] = field(default_factory=dict)  # interaction id -> channel id
    games_started: int = 0
    games_finished: int = 0
    counting: bool = False
    window_moves: int = 0

    def error(self, text: str) -> None:
        if len(self.errors) < 10_000:
            self.errors.append(text[:300])


@dataclass
class Table:
    """One channel and its two players."""

    channel: FakeChannel
    a: FakeUser
    b: FakeUser
    board: FakeMessage | None = None
    match_id: int | None = None


def build_world(fake: FakeDiscord, matches: int, shards: int | None = None) -> tuple[FakeGuild, list[Table]]:
    """One guild with a channel per match and two players per channel (users join the guild only).
    With `shards`, one guild on each shard of a bot with that many, the tables dealt round them."""
    if shards is None:
        guilds = [fake.add_guild("Load Front", channels=[f"front-{i:03d}" for i in range(matches)])]
    else:
        guilds = [
            fake.add_guild(
                f"Front {k}",
                channels=[f"front-{i:03d}" for i in range(k, matches, shards)],
                shard=(k, shards),
            )
            for k in range(shards)
        ]
    channels = sorted((c for g in guilds for c in g.text_channels), key=lambda c: c.name)
    tables = []
    for i, channel in enumerate(channels):
        guild = fake.guilds[channel.guild_id or 0]
        a = fake.add_user(f"ger{i:03d}", guilds=[guild])
        b = fake.add_user(f"can{i:03d}", guilds=[guild])
        tables.append(Table(channel, a, b))
    return guilds[0], tables


def actor_of(board: FakeMessage) -> int | None:
    """Who must act according to the board's status line (the last line); None when the game is over."""
    last = board.content.rsplit("\n", 1)[-1]
    if "Game over" in last:
        return None
    found = MENTION.search(last)
    return int(found.group(1)) if found else None


class Driver:
    """Plays one table: challenge, accept, deploy, then legal actions as fast as the bot answers."""

    def __init__(self, fake: LoadFake, table: Table, stats: Stats, stop: asyncio.Event, seed: int) -> None:
        self.fake = fake
        self.t = table
        self.stats = stats
        self.stop = stop
        self.rng = random.Random(seed)
        self.lost = False  # an answer went missing: look at the board again, as a player would

    async def run(self, until: float, *, max_interactions: int = 1_000_000, delay: float = 0.0) -> None:
        """Play until `until` (loop time), the stop event, or the interaction budget runs out;
        `delay` holds back the first action (a load test's ramp-up)."""
        loop = asyncio.get_running_loop()
        await asyncio.sleep(delay)
        for _ in range(max_interactions):
            if self.stop.is_set() or loop.time() >= until:
                return
            try:
                await self.step()
            except InteractionFailed as exc:
                if self.stop.is_set():
                    self.stats.lost.append(str(exc))
                    return
                self.stats.error(f"{self.t.channel.name}: {exc}")
                self.lost = True
                await asyncio.sleep(0.5)
            except Exception as exc:  # a driver bug must not hide the others' figures
                self.stats.error(f"{self.t.channel.name}: driver: {exc!r}")
                await asyncio.sleep(0.5)

    async def start_game(self) -> None:
        t = self.t
        made = await self.fake.slash_cmd(t.a, t.channel, "challenge", {"opponent": t.b, "side": "germans"})
        self.note(made, move=False)
        if made.message is None or made.ephemeral:
            self.stats.error(f"{t.channel.name}: challenge refused: {made.content[:200]}")
            await asyncio.sleep(0.5)
            return
        accept = next((c for c in made.message.custom_ids if c.startswith("bw:accept:")), None)
        if accept is None:
            self.stats.error(f"{t.channel.name}: no accept button")
            return
        t.match_id = int(accept.rsplit(":", 1)[1])
        accepted = await self.fake.press(t.b, made.message, accept)
        self.note(accepted, move=False)
        if accepted.is_board:
            t.board = accepted.message
            self.stats.games_started += 1
        else:
            self.stats.error(f"{t.channel.name}: accept refused: {accepted.content[:200]}")

    async def step(self) -> None:
        """One action (or the start of a game) for whoever is to act on the latest board."""
        t = self.t
        if self.lost and t.match_id is not None:
            self.lost = False
            await resync(self.fake, t)
            return
        if t.board is None:
            await self.start_game()
            return
        actor = actor_of(t.board)
        if actor is None:
            self.stats.games_finished += 1
            t.board = None
            return
        user = t.a if actor == t.a.id else t.b
        ids = t.board.custom_ids
        last = t.board.content.rsplit("\n", 1)[-1]
        if any(c.startswith("bw:act:") for c in ids):
            answer = await self.normal_turn(user, last)
        else:
            answer = await self.decision(user, ids)
        if answer is None:
            return
        self.note(answer, move=True)
        if answer.is_board:
            t.board = answer.message
        else:
            self.stats.error(f"{t.channel.name}: legal action refused: {answer.content[:200]!r}")
            self.lost = True

    async def normal_turn(self, user: FakeUser, status: str) -> Answer | None:
        t = self.t
        if "no actions left" not in status:
            kinds = list(KINDS)
            self.rng.shuffle(kinds)
            for kind in kinds:
                offered = await self.fake.complete(user, t.channel, kind)
                self.note(offered, move=False)
                if offered.choices:
                    value = self.rng.choice(offered.choices)["value"]
                    return await self.fake.slash_cmd(user, t.channel, kind, {"action": value})
        return await self.fake.slash_cmd(user, t.channel, "end", {})

    async def decision(self, user: FakeUser, ids: list[str]) -> Answer | None:
        """Set-up and decisions come as buttons and selects on the board: use them."""
        t = self.t
        assert t.board is not None
        tappable = set(t.board.tappable_ids)  # a step named as coming next shows disabled
        buttons = [c for c in ids if c.startswith("bw:dec:") and c in tappable]
        picks = [c for c in ids if c.startswith("bw:pick:")]
        if picks and (not buttons or self.rng.random() < 0.8):
            cid = self.rng.choice(picks)
            values = [o["value"] for o in t.board.component(cid).get("options", [])]
            return await self.fake.choose(user, t.board, cid, [self.rng.choice(values)])
        if buttons:
            return await self.fake.press(user, t.board, self.rng.choice(buttons))
        self.stats.error(f"{t.channel.name}: a board with nothing to press: {ids}")
        await asyncio.sleep(0.5)
        return None

    def note(self, answer: Answer, *, move: bool) -> None:
        if move and answer.is_board:
            self.stats.answered_moves[answer.interaction_id] = self.t.channel.id
            if self.stats.counting:
                self.stats.move_latencies.append(answer.latency_s)
                self.stats.move_acks.append(answer.ack_s)
                self.stats.window_moves += 1
        elif self.stats.counting:
            self.stats.other_latencies.append(answer.latency_s)


class AiDriver(Driver):
    """Plays one table against the bot's own AI: `a` challenges the bot in `game` at `level`, plays
    any legal action autocomplete offers (`/<game> play`), then waits for the AI's board.

    Any registered game: it needs only the platform's commands. `ai_turns` collects the seconds from
    a human move's board to the board that gives the turn back (the AI's whole turn, queueing for
    the AI's worker process included)."""

    def __init__(
        self,
        fake: LoadFake,
        table: Table,
        stats: Stats,
        stop: asyncio.Event,
        seed: int,
        *,
        game: str,
        level: str,
        ai_turns: list[float],
        mine: list[float] | None = None,
    ) -> None:
        super().__init__(fake, table, stats, stop, seed)
        self.game = game
        self.level = level
        self.ai_turns = ai_turns
        self.mine = mine  # this game's own AI turns, when several games share the run
        self.until = float("inf")

    async def run(self, until: float, *, max_interactions: int = 1_000_000, delay: float = 0.0) -> None:
        self.until = until
        await super().run(until, max_interactions=max_interactions, delay=delay)

    async def start_game(self) -> None:
        t = self.t
        options = {"opponent": self.fake.bot_user, "side": "random", "level": self.level}
        made = await self.fake.slash_cmd(t.a, t.channel, "challenge", options, group=self.game)
        self.note(made, move=False)
        if made.is_board:
            t.board = made.message
            self.stats.games_started += 1
        else:
            self.stats.error(f"{t.channel.name}: AI challenge refused: {made.content[:200]}")
            await asyncio.sleep(0.5)

    async def step(self) -> None:
        t = self.t
        if self.lost:
            self.lost = False
            answer = await self.fake.slash_cmd(t.a, t.channel, "board", {}, group=self.game)
            if answer.is_board:
                t.board = answer.message
            return
        if t.board is None:
            await self.start_game()
            return
        actor = actor_of(t.board)
        if actor is None:  # over: the status line (the last) names nobody, or the reveal follows it
            self.stats.games_finished += 1
            t.board = None
            return
        if actor != t.a.id:
            await self.await_ai()
            return
        offered = await self.fake.complete(t.a, t.channel, "play", group=self.game)
        self.note(offered, move=False)
        if not offered.choices:
            self.stats.error(f"{t.channel.name}: no action offered on: {t.board.content[-200:]!r}")
            await asyncio.sleep(0.5)
            return
        # standing orders (Fix Bayonets) are a private setting, answered to the player alone: not a move
        values = [c["value"] for c in offered.choices if not str(c["value"]).startswith(PRIVATE)]
        value = self.rng.choice(values or [c["value"] for c in offered.choices])
        answer = await self.fake.slash_cmd(t.a, t.channel, "play", {"action": value}, group=self.game)
        self.note(answer, move=True)
        if answer.is_board:
            t.board = answer.message
        else:
            self.stats.error(f"{t.channel.name}: legal action {value!r} refused: {answer.content[:200]!r}")
            self.lost = True

    async def await_ai(self) -> None:
        """Boards until one gives the human the turn (or ends the game), within the run's window."""
        t = self.t
        loop = asyncio.get_running_loop()
        started = loop.time()
        while t.board is not None and actor_of(t.board) not in (t.a.id, None):
            left = self.until - loop.time()
            if left <= 0 or self.stop.is_set():
                return
            try:
                t.board = await self.fake.next_board(t.channel, t.board, timeout=left)
            except TimeoutError:
                return
        if self.stats.counting:
            took = loop.time() - started
            self.ai_turns.append(took)
            if self.mine is not None:
                self.mine.append(took)


class MixDriver(Driver):
    """Two people play `game` (any registered game) through what a player uses: `/<game> challenge`,
    the Accept button, the board's decision buttons and selects when it has them (set-ups, quick
    decisions), `/<game> play` with an action autocomplete offers otherwise (turns of many
    actions), and now and then "My hand" (a private look). Moves are noted in the shared `stats`
    and in `mine`, this game's own figures (bench/load.py --mix)."""

    def __init__(
        self,
        fake: LoadFake,
        table: Table,
        stats: Stats,
        stop: asyncio.Event,
        seed: int,
        *,
        game: str,
        mine: Stats,
    ) -> None:
        super().__init__(fake, table, stats, stop, seed)
        self.game = game
        self.mine = mine

    async def start_game(self) -> None:
        t = self.t
        made = await self.fake.slash_cmd(t.a, t.channel, "challenge", {"opponent": t.b}, group=self.game)
        self.note(made, move=False)
        accept = next(
            (c for c in (made.message.custom_ids if made.message else []) if c.startswith("bw:accept:")), None
        )
        if made.ephemeral or accept is None:
            self.stats.error(f"{t.channel.name}: challenge refused: {made.content[:200]}")
            await asyncio.sleep(0.5)
            return
        assert made.message is not None
        t.match_id = int(accept.rsplit(":", 1)[1])
        accepted = await self.fake.press(t.b, made.message, accept)
        self.note(accepted, move=False)
        if accepted.is_board:
            t.board = accepted.message
            self.stats.games_started += 1
        else:
            self.stats.error(f"{t.channel.name}: accept refused: {accepted.content[:200]}")

    async def step(self) -> None:
        t = self.t
        if self.lost and t.match_id is not None:
            self.lost = False
            shown = await self.fake.slash_cmd(t.a, t.channel, "board", {}, group=self.game)
            if shown.is_board:
                t.board = shown.message
            return
        if t.board is None:
            await self.start_game()
            return
        actor = actor_of(t.board)
        if actor is None:
            self.stats.games_finished += 1
            self.mine.games_finished += 1
            t.board = None
            return
        user = t.a if actor == t.a.id else t.b
        ids = t.board.tappable_ids  # a disabled button (a step to come) is not pressed
        if any(c.startswith("bw:hand:") for c in ids) and self.rng.random() < 0.05:
            look = await self.fake.press(user, t.board, next(c for c in ids if c.startswith("bw:hand:")))
            self.note(look, move=False)
            if not look.ephemeral:
                self.stats.error(f"{t.channel.name}: My hand was not private: {look.content[:200]!r}")
            return
        answer: Answer | None
        if any(c.startswith(("bw:dec:", "bw:pick:")) for c in ids) and self.rng.random() < 0.7:
            answer = await self.decision(user, ids)
            value = "a button"
        else:
            offered = await self.fake.complete(user, t.channel, "play", group=self.game)
            self.note(offered, move=False)
            if not offered.choices:
                self.stats.error(f"{t.channel.name}: no action offered on: {t.board.content[-200:]!r}")
                self.lost = True
                await asyncio.sleep(0.5)
                return
            values = [c["value"] for c in offered.choices if not str(c["value"]).startswith(PRIVATE)]
            value = self.rng.choice(values or [c["value"] for c in offered.choices])
            answer = await self.fake.slash_cmd(user, t.channel, "play", {"action": value}, group=self.game)
        if answer is None:
            return
        self.note(answer, move=True)
        if answer.is_board:
            t.board = answer.message
        elif not answer.ephemeral or not str(value).startswith(PRIVATE):
            self.stats.error(f"{t.channel.name}: legal action {value!r} refused: {answer.content[:200]!r}")
            self.lost = True

    def note(self, answer: Answer, *, move: bool) -> None:
        super().note(answer, move=move)
        if move and answer.is_board and self.stats.counting:
            self.mine.move_latencies.append(answer.latency_s)
            self.mine.move_acks.append(answer.ack_s)
            self.mine.window_moves += 1
        elif self.stats.counting:
            self.mine.other_latencies.append(answer.latency_s)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


# ---------------------------------------------------------------------- the audit


@dataclass
class Audit:
    """What the database says after a run (or a crash and restart)."""

    matches: int = 0
    open_matches: int = 0
    actions: int = 0
    missing_moves: list[int] = field(default_factory=list)
    replay_mismatches: list[int] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)
    ended: set[int] = field(default_factory=set)  # ids of matches no longer open

    @property
    def ok(self) -> bool:
        return not (self.missing_moves or self.replay_mismatches or self.stuck)


Store = Path | str  # an SQLite file, or a PostgreSQL URL


def read_rows(store: Store, *queries: str) -> list[list[tuple[Any, ...]]]:
    """The rows of each query, read behind the bot's back (read-only for a file). PostgreSQL is read
    through asyncpg on a thread of its own, so a caller inside an event loop may call this too."""
    if isinstance(store, str):
        import asyncpg

        async def fetch() -> list[list[tuple[Any, ...]]]:
            conn = await asyncpg.connect(store)
            try:
                return [[tuple(r.values()) for r in await conn.fetch(q)] for q in queries]
            finally:
                await conn.close()

        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, fetch()).result()
    conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=10)
    try:
        return [conn.execute(q).fetchall() for q in queries]
    finally:
        conn.close()


def audit(store: Store, answered: Mapping[int, int] | None = None) -> Audit:
    """Every answered move is logged; every snapshot equals seed + log replayed; no open match is stuck."""
    result = Audit()
    matches, actions = read_rows(
        store,
        "SELECT id, status, seed, options, sides, snapshot, turn_player_id, deadline, game, "
        "chance_version, seed_secret, seed_inputs FROM matches ORDER BY id",
        "SELECT match_id, player_id, notation, interaction_id FROM actions ORDER BY match_id, seq",
    )
    logged = {iid for *_, iid in actions if iid is not None}
    result.missing_moves = sorted(set(answered or {}) - logged)
    by_match: dict[int, list[tuple[int | None, str]]] = {}
    for mid, pid, notation, _ in actions:
        if notation == "undo":  # a step taken back (play/undo.py): it and the undo leave the game
            by_match.setdefault(mid, []).pop()
            continue
        by_match.setdefault(mid, []).append((pid, notation))
    for row in matches:
        mid, status, seed, options, sides_text, snapshot, turn_player, deadline, game = row[:9]
        seed = _game_seed(seed, *row[9:])
        result.matches += 1
        if snapshot is None:
            continue
        if game != "blockwars":  # an AI game of another game (bench/load.py --ai-game)
            _audit_other(result, game, mid, status, seed, options, sides_text, snapshot, deadline, by_match)
            continue
        sides = json.loads(sides_text)
        by_player = {uid: Side(side) for side, uid in sides.items()}
        log_rows = by_match.get(mid, [])
        result.actions += len(log_rows)
        log = [(by_player.get(pid, Side.GERMANS), notation) for pid, notation in log_rows]
        replayed = replay(Options.from_json(json.loads(options)), seed, log)
        if replayed.to_json() != json.loads(snapshot):
            result.replay_mismatches.append(mid)
        if status != "active":
            result.ended.add(mid)
            continue
        result.open_matches += 1
        state = State.from_json(json.loads(snapshot))
        side = state.current_player()
        if state.is_over() or side is None:
            result.stuck.append(f"match {mid}: active but the game is over")
        elif sides.get(side.value) != turn_player:
            result.stuck.append(f"match {mid}: turn_player_id {turn_player} is not {side.value}")
        elif deadline is None:
            result.stuck.append(f"match {mid}: no deadline")
        elif not state.legal_actions():
            result.stuck.append(f"match {mid}: no legal action for {side.value}")
    return result


def _game_seed(seed: int, version: int, secret: str | None, inputs: str | None) -> int:
    """The seed the rules drew from: the stored one (chance version 1), else the one the revealed
    secret and the players' inputs give (docs/fairness.md), worked out here from the definition."""
    if version == 2 and secret:
        return chance.game_seed(bytes.fromhex(secret), [str(i) for i in json.loads(inputs or "[]")])
    return seed


def _audit_other(
    result: Audit,
    game: str,
    mid: int,
    status: str,
    seed: int,
    options: str,
    sides_text: str,
    snapshot: str,
    deadline: Any,
    by_match: Mapping[int, list[tuple[int | None, str]]],
) -> None:
    """The audit of a match of any registered game, through the protocol alone."""
    from engine import registry

    rules = registry.game(game)
    by_player = {uid: side for side, uid in json.loads(sides_text).items()}
    log_rows = by_match.get(mid, [])
    result.actions += len(log_rows)
    state = rules.new_game(json.loads(options), seed)
    try:
        for pid, notation in log_rows:
            state.apply(rules.parse(notation), by_player[pid])
    except (KeyError, ValueError):
        result.replay_mismatches.append(mid)
        return
    stored = rules.from_json(json.loads(snapshot))
    if state.to_json() != stored.to_json():
        result.replay_mismatches.append(mid)
    if status != "active":
        result.ended.add(mid)
        return
    result.open_matches += 1
    if stored.is_over():
        result.stuck.append(f"match {mid}: active but the game is over")
    elif deadline is None:
        result.stuck.append(f"match {mid}: no deadline")
    elif not any(stored.legal_actions(side) for side in stored.to_act()):
        result.stuck.append(f"match {mid}: no legal action for {sorted(stored.to_act())}")


# ---------------------------------------------------------------------- crash, restart, check


def answered_moves(fake: LoadFake) -> dict[int, int]:
    """Interaction id -> channel of every move whose board reached the fake (the bot's word that it landed).

    Taken from the fake's own records, not the drivers', so a board that arrived while its driver
    was being cancelled still counts. Starting boards (accept) are not moves: they log no action.
    """
    found: dict[int, int] = {}
    for message in list(fake.messages.values()):
        if message.interaction_id is None or not message.attachments:
            continue
        if message.ephemeral and MID_TURN_NOTE not in message.content:  # a private answer to a step lands too
            continue
        inter = fake._interactions.get(message.interaction_id)
        if inter is None or inter.label.startswith(NOT_MOVES):
            continue
        found[message.interaction_id] = message.channel_id
    return found


@dataclass
class CrashReport:
    """One kill-and-restart cycle."""

    moves_before: int = 0
    lost_in_flight: int = 0
    answered: int = 0
    audit_after_kill: Audit = field(default_factory=Audit)
    buttons_clicked: int = 0
    buttons_worked: int = 0  # the flow answered (picker, board, or a polite "out of date")
    buttons_opened: int = 0  # of those, the Take-action picker or a new board
    button_failures: list[str] = field(default_factory=list)
    moves_after: int = 0
    errors_after: list[str] = field(default_factory=list)
    audit_after_restart: Audit = field(default_factory=Audit)
    log_problems: list[str] = field(default_factory=list)
    token_leaked: bool = False
    painters_killed_with_it: int = 0  # the bot's child processes at the kill
    orphans: list[int] = field(default_factory=list)  # of those, still alive 5 s later
    owed_at_kill: int = 0  # boards of stored moves the kill kept from their channel (the outbox)
    owed_undelivered: list[int] = field(default_factory=list)  # of those, matches with no board after restart
    owed_left: int = 0  # outbox rows still there once the restarted bot settled
    owed_found: int = 0  # of the owed, boards posted before the kill cut off their record
    owed_twice: list[int] = field(
        default_factory=list
    )  # of those, channels the restart posted a board in again

    @property
    def ok(self) -> bool:
        return (
            self.audit_after_kill.ok
            and self.audit_after_restart.ok
            and not self.button_failures
            and not self.errors_after
            and not self.log_problems
            and not self.token_leaked
            and not self.orphans
            and not self.owed_undelivered
            and not self.owed_twice
            and self.owed_left == 0
            and self.buttons_worked == self.buttons_clicked
        )


def owed_boards(store: Store) -> list[tuple[int, int]]:
    """(match id, channel id) of every board the outbox still owes."""
    (rows,) = read_rows(store, "SELECT DISTINCT match_id, channel_id FROM owed_boards")
    return [(int(m), int(c)) for m, c in rows]


@dataclass(frozen=True, slots=True)
class Owed:
    """A board the outbox owes: its match, channel, and the stamp its buttons carry (its version's)."""

    match_id: int
    channel_id: int
    stamp: str
    over: bool  # the game is over: its last board carries the look-back button, no stamp


def owed_now(store: Store) -> list[Owed]:
    """The newest board the outbox owes of each match, read behind the bot's back."""
    (rows,) = read_rows(
        store,
        "SELECT o.match_id, o.channel_id, MAX(o.version), m.chance_version, m.seed_secret, m.status "
        "FROM owed_boards AS o JOIN matches AS m ON m.id = o.match_id "
        "GROUP BY o.match_id, o.channel_id, m.chance_version, m.seed_secret, m.status",
    )
    return [
        Owed(
            int(m), int(c), stamp_of(int(m), int(v), int(cv), secret), status not in ("challenged", "active")
        )
        for m, c, v, cv, secret, status in rows
    ]


def boards_delivered(fake: FakeDiscord, owed: list[Owed], since: int) -> set[int]:
    """The channels of `owed` that have their board now: one posted after message `since`, or the
    owed board itself, posted before a crash cut off its record (its buttons carry the owed stamp;
    the restarted bot finds it and posts it no more: `Outbox.shown_in`)."""
    messages = [m for m in list(fake.messages.values()) if not m.ephemeral]
    return {m.channel_id for m in messages if m.id > since and m.attachments} | boards_carrying(fake, owed)


def boards_carrying(fake: FakeDiscord, owed: list[Owed]) -> set[int]:
    """The channels of `owed` where the owed board itself is (its buttons carry the owed stamp)."""
    messages = [m for m in list(fake.messages.values()) if not m.ephemeral]
    out: set[int] = set()
    for board in owed:
        for message in messages:
            if message.channel_id != board.channel_id:
                continue
            for custom_id in message.custom_ids:
                parts = custom_id.split(":")
                if parts[2:4] == [str(board.match_id), board.stamp] or (
                    board.over and parts[:3] == ["bw", "review", str(board.match_id)]
                ):
                    out.add(board.channel_id)
    return out


async def outbox_drained(db_path: Store, within: float) -> int:
    """Wait for the restarted bot to post what it owed; the rows left when the time is up."""
    deadline = asyncio.get_running_loop().time() + within
    while True:
        left = len(await asyncio.to_thread(owed_boards, db_path))
        if left == 0 or asyncio.get_running_loop().time() >= deadline:
            return left
        await asyncio.sleep(0.2)


async def click_old_button(fake: LoadFake, table: Table, report: CrashReport, ended: set[int]) -> None:
    """Press a button of the last board posted before the crash, as its player would.

    It must answer: the flow or a new board, "out of date" (the move was stored but its board
    never posted), or, for a game that had just ended, that the game is over."""
    board = table.board
    if board is None:
        return
    actor = actor_of(board)
    if actor is None:
        return
    user = table.a if actor == table.a.id else table.b
    ids = board.custom_ids
    target = next((c for c in ids if c.startswith("bw:act:")), None)
    target = target or next((c for c in board.tappable_ids if c.startswith("bw:dec:")), None)
    if target is None:
        return  # a board with only selects (a barrage square): the select flow is fuzzed elsewhere
    report.buttons_clicked += 1
    try:
        answer = await fake.press(user, board, target)
    except InteractionFailed as exc:
        report.button_failures.append(f"{table.channel.name}: {exc}")
        return
    # (an ephemeral answer has a message: the second test only says so to mypy)
    # (Take action opens the piece select, or the actions at once when only one piece can act)
    opened = answer.is_board or (
        answer.ephemeral
        and answer.message is not None
        and any(c.startswith(("bw:unit:", "bw:do:")) for c in answer.message.custom_ids)
    )
    over = int(target.split(":")[2]) in ended and "game that is over" in answer.content
    if opened or (answer.ephemeral and ("out of date" in answer.content or over)):
        report.buttons_worked += 1
        report.buttons_opened += int(opened)
    else:
        report.button_failures.append(f"{table.channel.name}: {target} -> {answer.content[:200]!r}")


async def resync(fake: LoadFake, table: Table) -> None:
    """After a restart a player asks for the board again (`/blockwars board`), as people do."""
    if table.match_id is None:
        return
    answer = await fake.slash_cmd(table.a, table.channel, "board", {})
    actor = actor_of(answer.message) if answer.is_board and answer.message is not None else None
    if actor == table.b.id:  # the player on turn asks too: their turn may hold steps only they see
        answer = await fake.slash_cmd(table.b, table.channel, "board", {})
    if answer.is_board:
        table.board = answer.message


async def drive(fake: LoadFake, tables: list[Table], stats: Stats, seconds: float, seed: int) -> None:
    """Every table plays for `seconds` (its first game is started if it has none)."""
    stop = asyncio.Event()
    until = asyncio.get_running_loop().time() + seconds
    drivers = [Driver(fake, t, stats, stop, seed=seed * 1000 + i) for i, t in enumerate(tables)]
    await asyncio.gather(*(d.run(until) for d in drivers))


async def crash_cycle(
    fake: LoadFake,
    tables: list[Table],
    db: Path,
    workdir: Path,
    *,
    load_s: float,
    after_s: float,
    seed: int,
    log_level: str = "INFO",
    env: Mapping[str, str] | None = None,
    least_answered: int = 0,
) -> CrashReport:
    """Load, SIGKILL mid-flight, check the database, restart, click old buttons, play on, check again.
    With a DATABASE_URL in `env`, the database is that PostgreSQL one (`db` only holds the health note).
    The kill waits, past its random moment, until `least_answered` moves were answered (at most a
    minute more): on a loaded machine the bot answers fewer in `load_s`, and the kill must still
    land mid-play, not before it."""
    store: Store = (env or {}).get("DATABASE_URL") or db
    report = CrashReport()
    rng = random.Random(seed)
    unanswered_before = sum(1 for inter in fake._interactions.values() if not inter.answered.is_set())
    bot = await start_bot_process(fake, db, workdir, tag=f"crash{seed}-a", log_level=log_level, env=env)
    stats = Stats()
    stop = asyncio.Event()
    drivers = [Driver(fake, t, stats, stop, seed=seed * 1000 + i) for i, t in enumerate(tables)]
    now = asyncio.get_running_loop().time()
    # The first table stops well before the kill, so at least one board posted before the crash is
    # still current and its button must open the flow after the restart (the others may rightly
    # say "out of date": their last move was stored, its board cut off by the kill).
    ends = [now + load_s * 0.4] + [now + 3600] * (len(drivers) - 1)
    tasks = [asyncio.create_task(d.run(end)) for d, end in zip(drivers, ends, strict=True)]
    try:
        await asyncio.sleep(load_s * rng.uniform(0.7, 1.0))  # kill at a moment nobody chose
        for _ in range(1200):  # a minute at most: polled, the drivers keep no event of their count
            if len(stats.answered_moves) >= least_answered:
                break
            await asyncio.sleep(0.05)
        bot.kill()
        report.painters_killed_with_it = len(bot.children)
        report.orphans = await bot.orphans()
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    unanswered = sum(1 for inter in fake._interactions.values() if not inter.answered.is_set())
    report.lost_in_flight = unanswered - unanswered_before
    answered = answered_moves(fake)
    report.answered = len(answered)
    report.moves_before = len(stats.answered_moves)
    report.audit_after_kill = audit(store, answered)
    first_log = bot.stderr()
    owed = owed_now(store)
    report.owed_at_kill = len(owed)
    last_message = max(fake.messages, default=0)
    found = boards_carrying(fake, owed)  # posted, their record cut off: the restart finds them
    report.owed_found = len(found)

    bot = await start_bot_process(fake, db, workdir, tag=f"crash{seed}-b", log_level=log_level, env=env)
    try:
        # Before anyone moves again, each board the kill kept from its channel must arrive.
        report.owed_left = await outbox_drained(store, within=15.0)
        delivered = boards_delivered(fake, owed, last_message)
        report.owed_undelivered = [o.match_id for o in owed if o.channel_id not in delivered]
        report.owed_twice = sorted(
            {m.channel_id for m in list(fake.messages.values()) if m.id > last_message and m.attachments}
            & found
        )
        for table in tables:
            await click_old_button(fake, table, report, report.audit_after_kill.ended)
        for table in tables:
            await resync(fake, table)
        after = Stats()
        await drive(fake, tables, after, after_s, seed + 1)
        report.moves_after = len(after.answered_moves)
        report.errors_after = after.errors[:20]
    finally:
        await bot.stop()
    report.audit_after_restart = audit(store, answered_moves(fake))
    logs = first_log + bot.stderr()
    report.log_problems = bot_log_problems(logs)[:20]
    report.token_leaked = TOKEN in logs
    return report
