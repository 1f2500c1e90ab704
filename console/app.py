"""The local console: a terminal stand-in for a Discord channel, on the same match service and SQLite.

You type the commands the bot takes (`/blockwars challenge @bob`, `/blockwars move e2-e3`...),
switch who you are with `/as bob`, and every board is written as a PNG whose path is printed with
the text the bot would post. Lines can come from the keyboard, a script file or stdin, and
`--demo` plays a whole game by itself. There is no game logic here: everything goes through
`play.MatchService`, so a console game and a Discord game are played by the same code.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import re
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TextIO

from console import names
from console.names import BOT_ID, GUILD_ID, BadName
from data import Database, Match, Status, default_path
from engine.blockwars import InvalidNotation, Options, Side, State, parse
from engine.blockwars.events import Event
from play import MatchService, Notice, Played, ServiceError
from play.present import status_text
from render.blockwars import render_board
from render.replay import render_replay

RULES_PATH = Path(__file__).resolve().parents[1] / "RULES.md"
LEVELS = ("easy", "normal", "hard", "random")
SIDES = ("germans", "canadians", "random")
TRUE = ("true", "yes", "on", "1")
FALSE = ("false", "no", "off", "0")
GROUP = ("/blockwars", "blockwars", "/bw", "bw")
UNITS = (("day", 86400), ("hour", 3600), ("minute", 60))

HELP = """\
Commands (the same as the bot's slash commands; `/blockwars` may be left out):
  /blockwars challenge @bob [side:germans|canadians|random] [crosses:true] [fighter_aces:true]
                       [hours_per_turn:72]          challenge someone in this channel
  /blockwars challenge @bot [level:easy|normal|hard]    play the AI (shortcut: vs ai [level])
  /blockwars accept | decline | cancel
  /blockwars setup [std | bcfg/cdef/cf]              deploy (the Germans first)
  /blockwars move e2-e3 | attack e4-e5xe6 | fire c6xd4 | tank T+ | tank Txd5 | reinforce R@c1
  /blockwars end                                     end your turn early
  /blockwars decide barrage e4 | gas e4 | fly A | dogfight B | strafe e4 | cross | decline
  /blockwars resign | draw offer | draw accept | draw decline
  /blockwars board [unit:d6] | history | replay | legal | rules [topic] | stats [@user] | leaderboard
  A bare action (e2-e3) also works.
Console:
  /as bob          play as bob from now on        /channel name    switch channel (a thread is one too)
  /whoami          who and where you are          /help            this text
  /quit            leave (games stay in the database)"""


class UsageError(Exception):
    """A console line that makes no sense; its message is shown as the bot's ephemeral reply would be."""


@dataclass(slots=True)
class Outcome:
    """What one line did, for scripts and tests: refused or not, and the files written."""

    ok: bool = True
    files: list[Path] | None = None


class Console:
    """One terminal session: an identity, a channel, and the service every command goes through."""

    def __init__(
        self,
        service: MatchService,
        *,
        boards: Path,
        out: TextIO | None = None,
        me: str = "alice",
        channel: str = "general",
        ai_budget: float | None = None,
    ) -> None:
        self.service = service
        self.boards = boards
        self.out = out or sys.stdout
        self.me = names.clean(me, "user name")
        self.channel = names.clean(channel, "channel name")
        self.ai_budget = ai_budget
        self.refused = 0  # lines answered with an error
        self.written: list[Path] = []  # every board and replay file, in order

    async def close(self) -> None:
        await self.service.db.close()

    # ------------------------------------------------------------------ identities

    @property
    def my_id(self) -> int:
        return names.user_id(self.me)

    @property
    def channel_id(self) -> int:
        return names.channel_id(self.channel)

    @property
    def prompt(self) -> str:
        return f"{self.me} #{self.channel}> "

    # ------------------------------------------------------------------ output

    def say(self, text: str = "") -> None:
        """Print bot text with Discord markup made readable: mentions as @name, timestamps as times."""
        print(self.humanize(text), file=self.out, flush=True)

    def humanize(self, text: str) -> str:
        text = re.sub(r"<@!?(\d+)>", lambda m: "@" + names.user_name(int(m.group(1))), text)
        return re.sub(r"<t:(\d+)(?::[a-zA-Z])?>", lambda m: self.when(int(m.group(1))), text)

    def when(self, ts: float) -> str:
        """A deadline as "in 3 days (Tue 24 Nov 20:05)", relative to the service clock."""
        delta = ts - self.service.clock()
        span = round(abs(delta) / 60) * 60 if abs(delta) >= 60 else abs(delta)  # a day, not 23.99 hours
        unit, n = next(
            ((u, round(span / size)) for u, size in UNITS if span >= size), ("second", round(span))
        )
        rel = f"{n} {unit}{'' if n == 1 else 's'}"
        rel = f"in {rel}" if delta >= 0 else f"{rel} ago"
        return f"{rel} ({datetime.fromtimestamp(ts).strftime('%a %d %b %H:%M')})"

    def refuse(self, message: str, legal: Iterable[str] = ()) -> Outcome:
        """The console's ephemeral reply: one line, the game untouched."""
        self.refused += 1
        self.say(f"✗ {message}")
        shown = list(legal)
        if shown:
            more = f" … ({len(shown)} in all; /blockwars legal lists them)" if len(shown) > 12 else ""
            self.say("  You can play: " + ", ".join(shown[:12]) + more)
        return Outcome(ok=False)

    # ------------------------------------------------------------------ files

    def _write(self, name: str, data: bytes) -> Path:
        self.boards.mkdir(parents=True, exist_ok=True)
        path = self.boards / name
        path.write_bytes(data)
        self.written.append(path)
        return path

    def _board_file(
        self, match: Match, state: State, events: Iterable[Event], seq: int, overlay: str | None = None
    ) -> Path:
        png = render_board(state, list(events), overlay=overlay)
        suffix = f"-{overlay}" if overlay else ""
        return self._write(f"{names.channel_name(match.channel_id)}-{match.id}-{seq:04d}{suffix}.png", png)

    async def _seq(self, match: Match) -> int:
        return len(await self.service.db.actions(match.id))

    async def show_played(self, played: Played) -> Path:
        """Write the board after an action and print its path with the bot's text."""
        seq = await self._seq(played.match)
        path = self._board_file(played.match, played.state, played.events, seq)
        self.say(f"board: {path}")
        self.say(played.line)
        self.say(status_text(played.match, played.state))
        return path

    async def show_notices(self, notices: list[Notice]) -> None:
        for notice in notices:
            self.say(f"[{names.channel_name(notice.match.channel_id)}] {notice.text}")
            if notice.played is not None:
                await self.show_played(notice.played)

    # ------------------------------------------------------------------ lines

    async def handle(self, line: str) -> Outcome | None:
        """Run one line; None means quit. Never raises: every problem becomes a one-line reply."""
        text = line.strip()
        if not text or text.startswith("#"):
            return Outcome()
        try:
            await self.show_notices(await self.service.sweep())
            return await self._dispatch(text)
        except ServiceError as exc:
            return self.refuse(exc.message, exc.legal)
        except (UsageError, BadName) as exc:
            return self.refuse(str(exc))
        except Exception as exc:  # one handler for the unexpected, like the cog's
            print(f"console: internal error on {text!r}: {type(exc).__name__}: {exc}", file=sys.stderr)
            return self.refuse("Something went wrong; the game is unchanged.")

    async def _dispatch(self, text: str) -> Outcome | None:
        words = text.split()
        head = words[0].lower()
        if head in GROUP:
            if len(words) == 1:
                raise UsageError("Which command? Type /help for the list.")
            return await self._blockwars(words[1].lower(), words[2:])
        console_cmd = head.lstrip("/")
        if console_cmd in ("quit", "exit", "q"):
            return None
        if console_cmd in ("help", "h", "?"):
            self.say(HELP)
            return Outcome()
        if console_cmd in ("as", "iam"):
            return self._as(words[1:])
        if console_cmd == "channel" or console_cmd == "thread":
            return self._channel(words[1:])
        if console_cmd == "whoami":
            self.say(f"You are @{self.me} in #{self.channel}.")
            return Outcome()
        if console_cmd == "vs" and len(words) >= 2 and words[1].lower().lstrip("@") in names.BOT_NAMES:
            level = words[2] if len(words) > 2 else "normal"
            return await self._blockwars("challenge", ["@bot", f"level:{level.split(':')[-1]}"])
        if console_cmd in COMMANDS:
            return await self._blockwars(console_cmd, words[1:])
        try:
            parse(text)
        except InvalidNotation:
            raise UsageError(f"Unknown command '{text[:40]}'. Type /help for the list.") from None
        return await self._act(text)

    def _as(self, args: list[str]) -> Outcome:
        if len(args) != 1:
            raise UsageError("Usage: /as NAME (for example /as bob).")
        if names.user_id(args[0]) == BOT_ID:
            raise UsageError("You cannot be the bot; challenge it with /blockwars challenge @bot.")
        self.me = names.clean(args[0], "user name")
        self.say(f"You are now @{self.me}.")
        return Outcome()

    def _channel(self, args: list[str]) -> Outcome:
        if len(args) != 1:
            raise UsageError("Usage: /channel NAME (for example /channel game-2).")
        self.channel = names.clean(args[0], "channel name")
        self.say(f"Now in #{self.channel}.")
        return Outcome()

    async def _blockwars(self, sub: str, args: list[str]) -> Outcome:
        handler = COMMANDS.get(sub)
        if handler is None:
            raise UsageError(f"/blockwars has no command '{sub[:20]}'. Type /help for the list.")
        return await handler(self, args)

    # ------------------------------------------------------------------ challenges

    async def cmd_challenge(self, args: list[str]) -> Outcome:
        opts, positional = options(args)
        who = opts.pop("opponent", None) or opts.pop("user", None)
        rest: list[str] = []
        for word in positional:
            low = word.lower()
            if who is None and (word.startswith("@") or not rest):
                who = word
            elif low in SIDES:
                opts.setdefault("side", low)
            elif low in LEVELS:
                opts.setdefault("level", low)
            elif low in ("crosses", "fighter_aces"):
                opts.setdefault(low, "true")
            elif low.isdigit():
                opts.setdefault("hours_per_turn", low)
            else:
                rest.append(word)
        if who is None:
            raise UsageError("Whom? Usage: /blockwars challenge @bob (or @bot to play the AI).")
        if rest:
            raise UsageError(f"I do not understand '{' '.join(rest)[:40]}' in a challenge. Type /help.")
        unknown = set(opts) - {"side", "crosses", "fighter_aces", "hours_per_turn", "level"}
        if unknown:
            raise UsageError(
                f"Unknown option {sorted(unknown)[0]}: the options are side, crosses, "
                "fighter_aces, hours_per_turn and level."
            )
        opponent = names.user_id(who)
        vs_bot = opponent == BOT_ID
        level = opts.get("level")
        if level is not None and not vs_bot:
            raise UsageError("level: only applies when you challenge me (@bot) to play the AI.")
        if vs_bot:
            level = (level or "normal").lower()
            if level not in LEVELS:
                raise UsageError(f"level must be one of {', '.join(LEVELS)}.")
        hours = opts.get("hours_per_turn")
        turn_seconds: int | None = None
        if hours is not None:
            try:
                turn_seconds = round(float(hours) * 3600)
            except ValueError:
                raise UsageError("hours_per_turn must be a number of hours, for example 72.") from None
        match = await self.service.challenge(
            guild_id=GUILD_ID,
            channel_id=self.channel_id,
            challenger_id=self.my_id,
            opponent_id=opponent,
            side=opts.get("side", "random"),
            options=Options(crosses=flag(opts, "crosses"), fighter_aces=flag(opts, "fighter_aces")),
            turn_seconds=turn_seconds,
            opponent_is_bot=vs_bot,
            ai_level=level if vs_bot else None,
        )
        extras = [
            n
            for n, on in (
                ("Crosses", match.options.get("crosses")),
                ("Fighter aces", match.options.get("fighter_aces")),
            )
            if on
        ]
        rules = f" Optional rules: {', '.join(extras)}." if extras else ""
        if vs_bot:
            self.say(f"<@{self.my_id}> takes on the AI ({level}).{rules}")
            return await self._started(match)
        self.say(
            f"<@{self.my_id}> challenges <@{opponent}> to Block Wars (side: {match.challenger_side}, "
            f"{match.turn_seconds // 3600} hours per turn).{rules} "
            f"<@{opponent}>: `/blockwars accept` or `/blockwars decline`. "
            f"Expires <t:{int(match.challenge_expires_at or 0)}:R>."
        )
        return Outcome()

    async def _started(self, match: Match) -> Outcome:
        """The first board of a new game, then whatever the AI owes (it may deploy first)."""
        match, state = await self.service.current(match.channel_id)
        sides = ", ".join(f"<@{uid}> the {Side(side).title}" for side, uid in match.sides.items())
        self.say(f"The game is on: {sides}.")
        path = self._board_file(match, state, (), 0)
        self.say(f"board: {path}")
        self.say(status_text(match, state))
        files = [path] + await self._ai_moves(match)
        return Outcome(files=files)

    async def cmd_accept(self, args: list[str]) -> Outcome:
        self._no_args("accept", args)
        match = await self.service.accept(self.channel_id, self.my_id)
        self.say(f"<@{self.my_id}> accepts.")
        return await self._started(match)

    async def cmd_decline(self, args: list[str]) -> Outcome:
        self._no_args("decline", args)
        match = await self.service.decline(self.channel_id, self.my_id)
        verb = "declines the challenge" if match.status is Status.DECLINED else "withdraws the challenge"
        self.say(f"<@{self.my_id}> {verb}.")
        return Outcome()

    async def cmd_cancel(self, args: list[str]) -> Outcome:
        self._no_args("cancel", args)
        # The person at the terminal owns this server, so they have Manage Channels.
        match = await self.service.cancel(self.channel_id, self.my_id, is_admin=True)
        self.say(f"<@{self.my_id}> cancelled game {match.id}; no result is recorded.")
        return Outcome()

    def _no_args(self, name: str, args: list[str]) -> None:
        if args:
            raise UsageError(f"/blockwars {name} takes no options.")

    # ------------------------------------------------------------------ playing

    async def _act(self, notation: str) -> Outcome:
        played = await self.service.act(self.channel_id, self.my_id, notation)
        files = [await self.show_played(played)]
        if not played.over:
            files += await self._ai_moves(played.match)
        return Outcome(files=files)

    async def _ai_moves(self, match: Match) -> list[Path]:
        """After a human action in an AI game, the AI plays what it owes; show each of its boards."""
        if match.ai_player_id is None or match.turn_player_id != match.ai_player_id:
            return []
        try:
            plays = await self.service.ai_turns(match.channel_id, budget_s=self.ai_budget)
        except ImportError:
            self.say("The AI is not available in this build; the game waits for it.")
            return []
        return [await self.show_played(p) for p in plays]

    def _notation(self, args: list[str], usage: str) -> str:
        # `move:e2-e3` and `move e2-e3` both work: notation never contains a colon.
        words = [w.split(":", 1)[1] if ":" in w else w for w in args]
        text = " ".join(w for w in words if w)
        if not text:
            raise UsageError(f"Usage: {usage}")
        return text

    async def cmd_move(self, args: list[str]) -> Outcome:
        return await self._act(self._notation(args, "/blockwars move e2-e3"))

    async def cmd_attack(self, args: list[str]) -> Outcome:
        return await self._act(self._notation(args, "/blockwars attack e4-e5xe6 (or e5xe6)"))

    async def cmd_fire(self, args: list[str]) -> Outcome:
        return await self._act(self._notation(args, "/blockwars fire c6xd4"))

    async def cmd_tank(self, args: list[str]) -> Outcome:
        return await self._act(self._notation(args, "/blockwars tank T+ | T- | Txd5"))

    async def cmd_reinforce(self, args: list[str]) -> Outcome:
        return await self._act(self._notation(args, "/blockwars reinforce R@c1 (or T@c1 for the tank)"))

    async def cmd_decide(self, args: list[str]) -> Outcome:
        return await self._act(self._notation(args, "/blockwars decide barrage e4 | fly A | decline ..."))

    async def cmd_setup(self, args: list[str]) -> Outcome:
        layout = self._notation(args, "") if args else "std"
        return await self._act(f"setup {layout}")

    async def cmd_end(self, args: list[str]) -> Outcome:
        self._no_args("end", args)
        return await self._act("end")

    async def cmd_resign(self, args: list[str]) -> Outcome:
        self._no_args("resign", args)
        return await self._act("resign")

    async def cmd_draw(self, args: list[str]) -> Outcome:
        what = self._notation(args, "/blockwars draw offer | accept | decline").lower()
        if what not in ("offer", "accept", "decline"):
            raise UsageError("Usage: /blockwars draw offer | accept | decline")
        return await self._act(f"{what} draw")

    async def cmd_legal(self, args: list[str]) -> Outcome:
        self._no_args("legal", args)
        legal = await self.service.legal(self.channel_id, self.my_id)
        if not legal:
            match, state = await self.service.current(self.channel_id)
            if match.side_of(self.my_id) is None:
                self.say(f"You are not playing in this game. {status_text(match, state)}")
            else:
                self.say(f"Nothing to play right now. {status_text(match, state)}")
            return Outcome()
        _, state = await self.service.current(self.channel_id)
        by_cmd: dict[str, list[str]] = {}
        for notation in legal:
            cmd, arg = command_for(notation, state)
            by_cmd.setdefault(cmd, []).append(arg)
        self.say(f"{len(legal)} legal for @{self.me}:")
        for cmd, items in by_cmd.items():
            self.say(f"  /blockwars {cmd}: " + (", ".join(items) if items != [""] else "(no options)"))
        return Outcome()

    # ------------------------------------------------------------------ reading

    async def cmd_board(self, args: list[str]) -> Outcome:
        opts, positional = options(args)
        unit = opts.pop("unit", None) or (positional[0] if positional else None)
        if opts or len(positional) > 1:
            raise UsageError("Usage: /blockwars board [unit:d6]")
        if unit is not None:
            unit = unit.lower()
            if not re.fullmatch(r"[a-h][1-8]", unit):
                raise UsageError(f"'{unit[:10]}' is not a square: use a1 to h8.")
        match, state = await self.service.latest(self.channel_id)
        events = await self.service.last_events(match)
        path = self._board_file(match, state, events, await self._seq(match), overlay=unit)
        self.say(f"board: {path}")
        self.say(status_text(match, state))
        return Outcome(files=[path])

    async def cmd_history(self, args: list[str]) -> Outcome:
        self._no_args("history", args)
        lines = await self.service.history(self.channel_id)
        self.say("\n".join(lines) if lines else "No actions yet.")
        return Outcome()

    async def cmd_replay(self, args: list[str]) -> Outcome:
        self._no_args("replay", args)
        match, _ = await self.service.latest(self.channel_id)
        _, _, log = await self.service.replayed(match)
        gif = render_replay("blockwars", match.options, match.seed, log)
        path = self._write(f"{names.channel_name(match.channel_id)}-{match.id}-replay.gif", gif)
        self.say(f"replay: {path} ({len(log)} actions, {len(gif) // 1024} KiB)")
        return Outcome(files=[path])

    async def cmd_rules(self, args: list[str]) -> Outcome:
        self.say(rules_text(" ".join(args).split(":")[-1].strip()))
        return Outcome()

    async def cmd_stats(self, args: list[str]) -> Outcome:
        opts, positional = options(args)
        who = opts.get("user") or (positional[0] if positional else self.me)
        uid = names.user_id(who)
        s = await self.service.stats(GUILD_ID, uid)
        self.say(f"<@{uid}>: {s.wins} won, {s.losses} lost, {s.draws} drawn; rating {s.rating:.0f}.")
        return Outcome()

    async def cmd_leaderboard(self, args: list[str]) -> Outcome:
        self._no_args("leaderboard", args)
        rows = await self.service.leaderboard(GUILD_ID)
        if not rows:
            self.say("No finished games yet.")
        for i, s in enumerate(rows, 1):
            self.say(f"{i:>2}. <@{s.user_id}> {s.rating:.0f} ({s.wins} W, {s.losses} L, {s.draws} D)")
        return Outcome()

    async def cmd_help(self, args: list[str]) -> Outcome:
        self.say(HELP)
        return Outcome()

    # ------------------------------------------------------------------ scripts and the demo

    async def run_lines(self, lines: Iterable[str], echo: bool = True) -> int:
        """Run a script; returns 0, or 1 if any line was refused (handy in CI)."""
        for line in lines:
            if echo and line.strip():
                self.say(self.prompt + line.rstrip("\n"))
            if await self.handle(line) is None:
                break
        return 1 if self.refused else 0

    async def demo(self, *, level: str = "easy", seed: int = 1, max_actions: int = 2000) -> int:
        """Play a whole game by typing commands as two players would, then write the replay.

        Both sides are played by the engine AI when it is available, else by seeded random legal play.
        """
        try:
            from engine.blockwars import ai

            chooser: Callable[[State, Side, int], str] = lambda s, side, n: str(  # noqa: E731
                ai.choose(s.view(side), level, seed * 1000 + n, self.ai_budget)
            )
            who = f"the engine AI ({level})"
        except ImportError:
            rng = random.Random(seed)
            chooser = lambda s, side, n: str(rng.choice(s.legal_actions()))  # noqa: E731
            who = "seeded random play (the AI module is not available)"
        self.say(f"Demo: a complete game played by {who}, seed {seed}.")
        players = {Side.GERMANS: "ludendorff", Side.CANADIANS: "currie"}
        script = [
            f"/channel {self.channel}",
            f"/as {players[Side.GERMANS]}",
            f"/blockwars challenge @{players[Side.CANADIANS]} side:germans",
            f"/as {players[Side.CANADIANS]}",
            "/blockwars accept",
        ]
        if await self.service.db.get_channel_match(self.channel_id) is not None:
            script.insert(1, "/blockwars cancel")
        await self.run_lines(script)
        for n in range(max_actions):
            match, state = await self.service.latest(self.channel_id)
            if state.is_over() or not match.status.is_open:
                break
            side = state.current_player()
            assert side is not None
            if self.me != players[side]:
                await self.run_lines([f"/as {players[side]}"])
            try:
                notation = await asyncio.to_thread(chooser, state, side, n)
            except Exception as exc:  # a broken AI must not stop the demo: say so and play on
                print(f"console: the AI failed ({type(exc).__name__}: {exc}); random move", file=sys.stderr)
                notation = str(random.Random(seed * 1000 + n).choice(state.legal_actions()))
            cmd, arg = command_for(notation, state)
            await self.run_lines([f"/blockwars {cmd} {arg}".rstrip()])
        await self.run_lines(["/blockwars replay"])
        match, state = await self.service.latest(self.channel_id)
        boards = sum(1 for p in self.written if p.suffix == ".png")
        self.say(f"Demo over: {boards} boards and the replay are in {self.boards}/.")
        return 0 if state.is_over() and not self.refused else 1


Handler = Callable[[Console, list[str]], Awaitable[Outcome]]
COMMANDS: dict[str, Handler] = {
    "challenge": Console.cmd_challenge,
    "accept": Console.cmd_accept,
    "decline": Console.cmd_decline,
    "cancel": Console.cmd_cancel,
    "setup": Console.cmd_setup,
    "move": Console.cmd_move,
    "attack": Console.cmd_attack,
    "fire": Console.cmd_fire,
    "tank": Console.cmd_tank,
    "reinforce": Console.cmd_reinforce,
    "decide": Console.cmd_decide,
    "end": Console.cmd_end,
    "resign": Console.cmd_resign,
    "draw": Console.cmd_draw,
    "legal": Console.cmd_legal,
    "board": Console.cmd_board,
    "history": Console.cmd_history,
    "replay": Console.cmd_replay,
    "rules": Console.cmd_rules,
    "stats": Console.cmd_stats,
    "leaderboard": Console.cmd_leaderboard,
    "help": Console.cmd_help,
}


def options(args: list[str]) -> tuple[dict[str, str], list[str]]:
    """Split `key:value` options (Discord's typed syntax) from plain positional words."""
    opts: dict[str, str] = {}
    positional: list[str] = []
    for word in args:
        key, sep, value = word.partition(":")
        if sep and key and value:
            opts[key.lower()] = value
        elif sep:
            raise UsageError(f"'{word[:30]}' needs both a name and a value, like side:germans.")
        else:
            positional.append(word)
    return opts, positional


def flag(opts: dict[str, str], key: str) -> bool:
    value = opts.get(key, "false").lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise UsageError(f"{key} must be true or false.")


def command_for(notation: str, state: State | None = None) -> tuple[str, str]:
    """The slash command a player would type for `notation`: ("move", "e2-e3"), ("end", "")..."""
    low = notation.lower()
    if low.startswith("setup "):
        return "setup", notation[6:]
    if low in ("end", "resign"):
        return low, ""
    if low.endswith(" draw"):
        return "draw", low.split()[0]
    if low in ("t+", "t-") or low.startswith("tx"):
        return "tank", notation
    if "@" in low:
        return "reinforce", notation
    if re.fullmatch(r"[a-h][1-8]-[a-h][1-8]", low):
        return "move", notation
    if "x" in low and " " not in low:
        unit = state.unit_at(_square(low[:2])) if state is not None else None
        return ("fire" if unit is not None and unit[1] == "M" else "attack"), notation
    return "decide", notation


def _square(name: str) -> int:
    from engine.blockwars.squares import square

    return square(name)


def rules_text(topic: str) -> str:
    """A section or ruling of RULES.md: the one whose title mentions `topic`, else the first that does."""
    sections: list[tuple[str, str]] = []
    try:
        text = RULES_PATH.read_text(encoding="utf-8")
    except OSError:
        return "The rules file is missing; see RULES.md in the repository."
    title, body = "Block Wars", []
    for line in text.splitlines():
        heading = re.match(r"^#+\s+(.*)", line)
        ruling = re.match(r"^\*\*(R\d+\.[^*]*)\*\*\s*(.*)", line)
        if heading or ruling:
            sections.append((title, "\n".join(body).strip()))
            title = heading.group(1) if heading else ruling.group(1)  # type: ignore[union-attr]
            body = [ruling.group(2)] if ruling else []
        else:
            body.append(line)
    sections.append((title, "\n".join(body).strip()))
    if not topic:
        titles = [t for t, _ in sections[1:]]
        return "Topics: " + "; ".join(titles) + "\nUse /blockwars rules TOPIC (for example: rules wire)."
    low = topic.lower()
    for match_title in (True, False):
        for t, b in sections:
            if (low in t.lower()) if match_title else (low in b.lower()):
                return f"{t}\n{b}"[:1900]
    return f"No rules section mentions '{topic[:30]}'. /blockwars rules lists the topics."


# ---------------------------------------------------------------------- entry point


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m console",
        description="Play Block Wars in the terminal with the bot's commands; boards are written as PNGs.",
    )
    p.add_argument("--db", type=Path, default=None, help="SQLite file (default: DATABASE_PATH or data/)")
    p.add_argument("--boards", type=Path, default=Path("boards"), help="where board PNGs go (boards/)")
    p.add_argument("--script", default=None, help="read commands from FILE ('-' for stdin)")
    p.add_argument("--demo", action="store_true", help="play a complete game by itself and exit")
    p.add_argument("--seed", type=int, default=None, help="seed for new games (and the demo)")
    p.add_argument("--as", dest="me", default="alice", help="who you are at the start (alice)")
    p.add_argument("--channel", default="general", help="the channel you start in (general)")
    p.add_argument("--level", default="easy", choices=LEVELS, help="AI level for --demo (easy)")
    p.add_argument("--ai-budget", type=float, default=None, help="seconds the AI may think per action")
    return p.parse_args(argv)


def read_script(args: argparse.Namespace) -> list[str] | None:
    """The script's lines: --script FILE, --script - (stdin), or stdin when it is not a terminal."""
    if args.demo:
        return None
    if args.script is None and sys.stdin.isatty():
        return None
    if args.script in (None, "-"):
        return sys.stdin.read().splitlines()
    return Path(args.script).read_text(encoding="utf-8").splitlines()


async def _run(args: argparse.Namespace, script: list[str] | None) -> int:
    tmp: tempfile.TemporaryDirectory[str] | None = None
    db_path = args.db
    if db_path is None and args.demo:
        tmp = tempfile.TemporaryDirectory(prefix="blockwars-demo-")  # the demo leaves no game behind
        db_path = Path(tmp.name) / "demo.db"
    db_path = db_path or default_path()
    try:
        db = await Database.open(db_path)
        seed = args.seed
        rng = random.Random(seed) if seed is not None else None
        service = MatchService(db, rng=rng)
        channel = "demo" if args.demo and args.channel == "general" else args.channel
        console = Console(service, boards=args.boards, me=args.me, channel=channel, ai_budget=args.ai_budget)
        try:
            if args.demo:
                return await console.demo(level=args.level, seed=1 if seed is None else seed)
            if script is not None:
                return await console.run_lines(script)
            return await interactive(console, db_path)
        finally:
            await console.close()
    except BadName as exc:
        print(f"console: {exc}", file=sys.stderr)
        return 2
    finally:
        if tmp is not None:
            tmp.cleanup()


async def interactive(console: Console, db_path: Path) -> int:
    """The read-eval-print loop; the input() call runs in a thread so the event loop stays free."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (line editing and history where available)
    console.say(f"Block Wars console on {db_path}. Boards go to {console.boards}/. Type /help.")
    while True:
        try:
            line = await asyncio.to_thread(input, console.prompt)
        except (EOFError, KeyboardInterrupt):
            console.say()
            return 0
        if await console.handle(line) is None:
            return 0


async def amain(argv: list[str] | None = None) -> int:
    """The console as a coroutine, for callers that already run an event loop (tests, the bot)."""
    started = time.perf_counter()
    args = parse_args(argv)
    try:
        script = read_script(args)
    except OSError as exc:
        print(f"console: cannot read the script: {exc}", file=sys.stderr)
        return 2
    code = await _run(args, script)
    if args.demo:
        print(f"({time.perf_counter() - started:.1f} s)", file=sys.stderr)
    return code


def main(argv: list[str] | None = None) -> int:
    """Run the console; `bot.py` calls this when DISCORD_TOKEN is not set."""
    return asyncio.run(amain(argv))
