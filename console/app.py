"""The local console: a terminal stand-in for a Discord channel, on the same match service and SQLite.

You type the commands the bot takes (`/<game> challenge @bob`, `/<game> board`...), switch
who you are with `/as bob`, and every board is written as a PNG whose path is printed with the text
the bot would post. Every hosted game is here: its commands come from the same specification the
Discord groups are built from (`Game.verbs`, `Game.options`...), so the console needs no change when
a game is added. Lines can come from the keyboard, a script file or stdin, and `--demo` plays a
whole game by itself. There is no game logic here: everything goes through `play.MatchService`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import difflib
import random
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import TextIO

from console import names
from console.lines import Outcome, UsageError, options
from console.names import BOT_ID, GUILD_ID, BadName
from console.tournament import ConsoleTournaments
from data import Database, Match, Status
from engine import registry
from engine.errors import InvalidNotation
from engine.protocol import Event, Game, State, Verb
from play import MatchService, Notice, Played, ServiceError, fairness, knockout_text
from play.ai_turns import answering_draw
from play.commands import (
    SUBGROUPS,
    TOURNAMENT_HELP,
    Command,
    game_commands,
    tournament_commands,
    wargames_commands,
)
from play.fairness import engine_seed
from play.guide import game_help, overview
from play.listings import (
    ai_stats_text,
    away_notice,
    away_text,
    back_notice,
    back_text,
    games_text,
    leaderboard_text,
    my_games_text,
    review_text,
    stats_text,
)
from play.news import played_story, told
from play.notices import notice_words
from play.present import (
    chosen_side_text,
    draw_answer_text,
    history_text,
    private_text,
    rules_text,
    standing_actions,
    status_text,
    tells_why,
    terms_text,
    turn_dm_text,
)
from play.ratings import level_label
from play.results import HINTS, declines_now
from play.service import AWAY_DAYS_A_YEAR, game_of, merged, split_actions, waiting_ids
from play.undo import MID_TURN_NOTE
from play.words import duration_text, replay_length
from render import board as render_board
from render import renderer
from render.replay import render_replay
from settings import load_settings

# The demo's seed when none is given: the first demo a newcomer runs (the default game, both sides
# at its easy level) must show a decisive game, not a draw at a turn limit; docs/console.md gives the
# figures behind the choice, and tests/test_console_frictions.py checks it.
DEMO_SEED = 1


def hours_text(seconds: int) -> str:
    """ "1 hour", "72 hours", "1.5 hours": a turn's length as a person says it."""
    hours = seconds / 3600
    shown = f"{hours:g}"
    return f"{shown} hour" if hours == 1 else f"{shown} hours"


def _usage(command: Command) -> str:
    return f"{command.name} {command.usage}".rstrip()


def _group_help(head: str, table: list[Command], description: str) -> list[str]:
    """A group's help lines (`/tournament`, a `/wargames` subgroup): a command with options on a
    line of its own, the others together with the group's description ([] when the console offers
    none of it)."""
    lines = [f"{head}{_usage(c)}" for c in table if c.usage]
    plain = " | ".join(c.name for c in table if not c.usage)
    if plain:
        lines.append(f"{head}{plain}   {description}")
    return lines


def _joined(head: str, items: list[str], width: int = 100) -> list[str]:
    """`items` joined by " | " on lines of about `width` characters, each line starting with `head`."""
    lines: list[str] = []
    line: list[str] = []
    for item in items:
        if line and len(head) + len(" | ".join([*line, item])) > width:
            lines.append(head + " | ".join(line))
            line = []
        line.append(item)
    return [*lines, head + " | ".join(line)] if line else lines


def help_text(only: Game | None = None) -> str:
    """The command list, from the command table (play/commands.py) and every hosted game's spec;
    `only`: that game's commands alone (`/GAME help all`), then those of every game. `/help` alone
    is brief (play/guide.py)."""
    lines = ["Commands (the same as the bot's slash commands; the game's /group may be left out):"]
    for game in registry.games() if only is None else [only]:
        g = f"/{game.name}"
        table = [c for c in game_commands(game) if c.on("console") and c.listed and c.name != "help"]
        challenge = next(c for c in table if c.name == "challenge")
        choices = {o.name: "|".join(v for _, v in o.choices) for o in challenge.options}
        extra = " ".join(
            f"[{o.name}:{'true' if o.kind == 'bool' else '…'}]"
            for o in challenge.options
            if o.name not in ("opponent", "side", "hours_per_turn", "level")
        )
        sides = choices["side"].removeprefix("random|")
        lines.append(f"{game.title}:")
        lines.append(
            f"  {g} challenge @bob [side:{sides}|random] {extra} [hours_per_turn:72]".replace("  [", " [")
        )
        lines.append(f"  {g} challenge @bot [level:{choices['level']}]    play the AI")
        verbs = " | ".join(_usage(c) for c in table if c.verb is not None)
        if verbs:
            lines.append(f"  {g} {verbs}")
        rest = [_usage(c) for c in table if c.verb is None and c.name != "challenge"]
        lines += _joined(f"  {g} ", rest)
    lines.append("Every game:")
    for command in wargames_commands("console"):
        lines.append(f"  {'/wargames ' + _usage(command):<39}{command.help}")
    for sub, description in SUBGROUPS.items():
        lines += _group_help(f"  /wargames {sub} ", wargames_commands("console", sub), description)
    lines += _group_help("  /tournament ", tournament_commands("console"), TOURNAMENT_HELP)
    lines += [
        "  vs ai [GAME] [level]                   shortcut: play the AI; a bare action (e2-e3) also works",
        "Console:",
        "  /as bob          play as bob from now on        /channel name    switch channel (a thread too)",
        "  /whoami          who and where you are          /quit            leave (games stay stored)",
        "  /help            this channel's game, briefly   /help all        "
        + ("this text" if only is None else "every game's commands"),
    ]
    return "\n".join(lines)


GAME_MORE = (
    "Here the `/{game}` may be left out. Every command with its options: `/help all`; the other "
    "games: `/help` followed by a game's name, or `/wargames games`."
)
OVERVIEW_MORE = (
    "In a game's channel `/help` shows its commands; `/help all` lists every command of every game. "
    "Here `vs ai GAME` plays me at once, `/as bob` plays as bob, `/channel name` moves to another "
    "channel, `/quit` leaves."
)


def _plain(rules: str) -> str:
    """A game's rule texts are the game's own words in Markdown (engine/<game>/help.py), which
    Discord shows as bold; the terminal shows them without the asterisks."""
    return rules.replace("**", "")


class ConsoleMarkup:
    """The console's `play.markup.Markup`: what play/ words for it reads as plain text."""

    def __init__(self, console: Console, *, named: float | None = None) -> None:
        self.console = console
        # Discord's live countdown shows its date when a reader points at it; the terminal writes
        # it out, except for the moment `named`, whose date the sentence gives already ("away
        # until <date> (in 5 days)" said the date twice).
        self.named = None if named is None else int(named)

    def mention(self, user_id: int) -> str:
        return "@" + names.user_name(user_id)

    def channel(self, channel_id: int) -> str:
        return "#" + names.channel_name(channel_id)

    def relative(self, ts: float) -> str:
        # whole seconds, as Discord's timestamps
        return self.console.when(int(ts), dated=int(ts) != self.named)

    def date(self, ts: float) -> str:
        return self.console.date(int(ts))

    def day(self, ts: float) -> str:
        return datetime.fromtimestamp(int(ts)).strftime("%d %b %Y").lstrip("0")

    def deadline(self, ts: float) -> str:
        return self.relative(ts)  # dated already, unless the sentence names the date

    def strong(self, text: str) -> str:
        return text


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
        self.markup = ConsoleMarkup(self)
        service.markup = self.markup  # the refusals that name a player name them as @name
        self.ai_budget = ai_budget
        self.refused = 0  # lines answered with an error
        self.written: list[Path] = []  # every board and replay file, in order
        # What the bot would have sent each player by direct message while someone else sat at the
        # terminal (the cards an opponent's move dealt them): shown when the console becomes them.
        self.inbox: dict[int, list[tuple[int, str]]] = {}  # user id -> (match id, text)
        self.file_prefix: str | None = None  # files are named by channel unless this is set (a demo)
        self.tournaments = ConsoleTournaments(self)
        # Whether this channel's game may be waiting on the AI (`_resume_ai`): at the start, and
        # after any line but one whose AI's answer was played out (`_ai_moves`), so that a turn cut
        # short (an error while the AI thought) is played at the next line.
        self._ai_may_owe = True

    async def close(self) -> None:
        await self.service.close()

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
        """Print what the bot would say; play/ worded it in this console's markup already."""
        print(text, file=self.out, flush=True)

    @staticmethod
    def date(ts: float) -> str:
        """A Discord timestamp written as a date ("Tue 24 Nov 20:05")."""
        return datetime.fromtimestamp(ts).strftime("%a %d %b %H:%M")

    def when(self, ts: float, *, dated: bool = True) -> str:
        """A deadline as "in 3 days (Tue 24 Nov 20:05)", relative to the service clock (without the
        date: "in 3 days"), in its two largest units ("in 1 day 12 hours")."""
        delta = ts - self.service.clock()
        span = round(abs(delta) / 60) * 60 if abs(delta) >= 60 else abs(delta)  # a day, not 23.99 hours
        # its two largest units, as every other time here says it: 36 hours is "1 day 12 hours", not
        # "2 days" (a round of 3 days' clock, half of it, read as the whole round's length)
        n = round(span)
        rel = duration_text(span) if span >= 60 else f"{n} second{'' if n == 1 else 's'}"
        rel = f"in {rel}" if delta >= 0 else f"{rel} ago"
        return f"{rel} ({self.date(ts)})" if dated else rel

    def refuse(self, message: str, legal: Iterable[str] = (), total: int = 0) -> Outcome:
        """The console's ephemeral reply: one line, the game untouched. `total`: how many actions
        are legal in all, where the examples are only some of them."""
        self.refused += 1
        self.say(f"✗ {message}")
        shown = list(legal)
        if shown:
            total = max(total, len(shown))
            more = f" … ({total} in all; `legal` lists them)" if total > min(len(shown), HINTS) else ""
            self.say("  You can play: " + ", ".join(shown[:HINTS]) + more)
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
        png = render_board(match.game, state, list(events), None, overlay)
        suffix = f"-{overlay}" if overlay else ""
        return self._write(f"{self._file_stem(match)}-{seq:04d}{suffix}.png", png)

    def _file_stem(self, match: Match) -> str:
        """A match's files begin with its channel's name and its number ("general-1")."""
        return f"{self.file_prefix or names.channel_name(match.channel_id)}-{match.id}"

    async def _seq(self, match: Match) -> int:
        """The number in a board's file name: the actions stored up to `match`'s version (the
        channel's, for a board of what it saw: a name counting a private turn's steps told them)."""
        return await self.service.action_count(match.id, upto=match.version)

    async def show_played(
        self,
        played: Played,
        seq: int | None = None,
        *,
        mine: bool = False,
        told_already: bool = False,
        why_told: bool = False,
    ) -> Path:
        """Write the board after a command (at a hand-off: after the whole stretch since the
        players now waiting last acted, as in Discord) and print its path with the bot's text: for
        the command typed here (`mine`), what each of its actions did; else what the stretch did.
        `seq` is the number of actions played by then (the file name's), default: all so far.
        `told_already`: the words came before (a sweep's notice), so only the board and the status
        follow, as in Discord; `why_told`: they said why the game ended, which the status then
        does not say again (as the words of an action that ended it)."""
        if seq is None:
            seq = await self._seq(played.match)
        shown = await self.service.stretch(played) if played.hands_off else played
        path = self._board_file(shown.match, shown.state, shown.events, seq)
        if played.mid_turn:
            # the turn stays with the mover: as in Discord, this is theirs alone until the hand-off,
            # so its story is told as they saw it (the cards they drew, not only how many)
            self.say(f"(only you see this) board: {path}")
            mover = played.match.side_of(played.actor_id) if played.actor_id == self.my_id else None
            self.say(played_story(played, mover))
            self.say(status_text(shown.match, shown.state, self.markup))
            self.say(MID_TURN_NOTE)
            return path
        self.say(f"board: {path}")
        said = ""
        if not told_already:
            said = played_story(played) if mine else told(shown, self.markup)
            self.say(said)
        if mine and len(shown.steps) > len(played.steps):
            said = told(shown, self.markup)
            gap = "\n" if "\n" in said else " "  # several lines start on a line of their own, aligned
            self.say(f"The channel sees your turn:{gap}{said}")
        why_told = why_told or tells_why(said, shown.state)
        self.say(status_text(shown.match, shown.state, self.markup, why_told=why_told))
        await self.say_draw_answer(shown)
        await self.seal_next(played.match)
        return path

    async def say_draw_answer(self, shown: Played) -> None:
        """With a draw offer standing after what the channel saw: who may answer it and how, as the
        line under Discord's board does, and in a knockout's game whom the draw sends on."""
        answering = answering_draw(shown)
        if not answering:
            return
        declines = any(declines_now(shown.match, shown.state, user) for user in answering)
        line = draw_answer_text(shown.match.game, answering, self.markup, declines=declines)
        higher = await self.tournaments.service.draw_sends_on(shown.match.id)
        self.say(line if higher is None else f"{line} {knockout_text.draw_sends_on(higher, self.markup)}")

    async def seal_next(self, match: Match) -> None:
        """After what said `match` ended (its channel is free): the line sealing the channel's next
        game, recorded as shown (docs/fairness.md, "Sealed in advance"); nothing while it goes on,
        nor after a tournament's game (`seals_after`)."""
        if not await self.service.seals_after(match):
            return
        seal = await self.service.next_seal(match.channel_id)
        self.say(fairness.seal_text(seal))
        await self.service.seal_shown(seal)

    def tell_players(self, played: Played, *, actor_told: bool = True) -> None:
        """What the game dealt a player privately (but the mover, told already unless `actor_told`
        is False): at once if they sit at the terminal (playing the AI), else kept until the console
        becomes them (`/as`), as a direct message waits for its reader."""
        match = played.match
        for side, user in sorted(match.sides.items()):
            secret = played.private.get(side)
            if not secret or user == match.ai_player_id or (actor_told and user == played.actor_id):
                continue
            if user == self.my_id:
                self.say(f"(only you see this) {secret}.")
            else:
                self.inbox.setdefault(user, []).append((match.id, private_text(match, secret, self.markup)))

    async def show_notices(self, notices: list[Notice]) -> None:
        """What the sweep did, each in its channel's words and board; then what the AI owes after
        it (its turn after a default, a draw offer to answer), as Discord's sweep loop has it played:
        no command of the player's would bring it, when the turn is the AI's."""
        for notice in notices:
            words = notice_words(notice, self.markup)
            self.say(f"[{names.channel_name(notice.match.channel_id)}] {words.text}")
            if notice.played is None:
                await self.seal_next(notice.match)  # an expired challenge, a game ended on time
            else:
                await self.show_played(notice.played, told_already=True, why_told=words.tells_why)
                self.tell_players(notice.played, actor_told=False)
                if not notice.played.over:
                    await self._ai_moves(notice.played.match)

    # ------------------------------------------------------------------ lines

    async def handle(self, line: str) -> Outcome | None:
        """Run one line; None means quit. Never raises: every problem becomes a one-line reply."""
        text = line.strip()
        if not text or text.startswith("#"):
            return Outcome()
        try:
            notices = await self.service.sweep()
            await self.show_notices(notices)
            await self.tournaments.sweep()  # a tournament's games have no AI: none waits on it after
            if notices or self._ai_may_owe:
                await self._resume_ai()
            self._ai_may_owe = True  # until the command's AI answer, if any, is played out
            return await self._dispatch(text)
        except ServiceError as exc:
            return self.refuse(exc.message, exc.legal, exc.legal_total)
        except (UsageError, BadName) as exc:
            return self.refuse(str(exc))
        except Exception as exc:  # one handler for the unexpected, like the cog's
            print(f"console: internal error on {text!r}: {type(exc).__name__}: {exc}", file=sys.stderr)
            return self.refuse("Something went wrong; the game is unchanged.")

    @staticmethod
    def _did_you_mean(group: str) -> str:
        """A misspelt group (`/blokwars`): the command it is closest to, if one is close."""
        known = [*registry.names(), "tournament", "help", "as", "channel", "whoami", "quit"]
        close = difflib.get_close_matches(group, known, n=1, cutoff=0.75)
        return f" Did you mean /{close[0]}?" if close else ""

    async def channel_game(self) -> Game:
        """The game of this channel's match (open or latest), else the first hosted game."""
        found = await self.service.last_match(self.channel_id)
        return game_of(found) if found else registry.default()

    async def _dispatch(self, text: str) -> Outcome | None:
        words = text.split()
        head = words[0].lower()
        group = head.lstrip("/")
        if group in registry.names():
            if len(words) == 1:
                raise UsageError(f"Which command of /{group}? `/{group} help` lists them.")
            return await self._game_command(registry.game(group), words[1].lower(), words[2:])
        if group in ("quit", "exit", "q"):
            return None
        if group in ("help", "h", "?"):
            return await self._help(words[1:])
        if group == "wargames":  # the core group; its admin tools are Discord's own
            return await self._wargames(words[1:])
        if group == "tournament":  # a group of the table (play/commands.py), run by console/tournament.py
            return await self.tournaments.command(words[1:])
        if group in ("mygames", "away", "back", "verify", "export", "undo"):
            return await self._wargames(words)
        if group in ("as", "iam"):
            return await self._as(words[1:])
        if group in ("channel", "thread"):
            return self._channel(words[1:])
        if group == "whoami":
            self.say(f"You are @{self.me} in #{self.channel}.")
            return Outcome()
        if group == "vs" and len(words) >= 2 and words[1].lower().lstrip("@") in names.BOT_NAMES:
            rest = words[2:]
            game = (
                registry.game(rest.pop(0).lower()) if rest and rest[0].lower() in registry.names() else None
            )
            named = game is not None
            game = game or await self.channel_game()
            level = rest[0].split(":")[-1] if rest else game.ai.default
            if not named and level.lower() not in game.ai.names and ":" not in rest[0]:
                # a misspelt game reads as a level: say both lists
                raise UsageError(
                    f"'{level[:20]}' is neither a game nor an AI level. Games: "
                    f"{', '.join(registry.names())}; levels of {game.title}: {', '.join(game.ai.names)}."
                )
            return await self._game_command(game, "challenge", ["@bot", f"level:{level}"])
        game = await self.channel_game()
        if any(c.name == group and c.on("console") for c in game_commands(game)):
            return await self._game_command(game, group, words[1:])
        if text.startswith("/"):
            raise UsageError(
                f"Unknown command '{text[:40]}'.{self._did_you_mean(group)} Type /help for the list."
            )
        # Anything else is actions: the one the game cannot read says why, and which one it is.
        pieces = split_actions(text)
        for n, piece in enumerate(pieces, 1):
            try:
                game.parse(piece)
            except InvalidNotation as exc:
                if await self._in_play():
                    return await self._act(text, game)  # refused where it would be played (Game.parse_in)
                if await self.service.last_match(self.channel_id) is None:
                    # no game here, ever: another game's notation would only mislead a newcomer
                    raise UsageError(
                        f"'{text[:40]}' is not a command, and #{self.channel} has no game to play it in. "
                        "`vs ai` starts a game against the AI; /help lists the games and commands."
                    ) from None
                if len(pieces) > 1:
                    raise UsageError(f"Action {n} of {len(pieces)}: {exc} Nothing was played.") from None
                raise UsageError(f"{exc} (/help lists the commands.)") from None
        return await self._act(text, game)

    async def _wargames(self, args: list[str]) -> Outcome:
        """The core group's commands for every game: the games hosted, your open games, time away."""
        sub = args[0].lower() if args else ""
        if sub == "tournament":  # its old place: the tournaments have a command of their own now
            typed = " ".join(["/tournament", *args[1:]])
            typed = typed if len(typed) <= 80 else typed[:79] + "…"
            raise UsageError(
                f"The tournaments have a command of their own now: type `{typed}` (without /wargames)."
            )
        handler = WARGAMES_COMMANDS.get(sub)
        if handler is None or not any(c.name == sub for c in wargames_commands("console")):
            raise self._wargames_usage()
        return await handler(self, args[1:])

    @staticmethod
    def _wargames_usage() -> UsageError:
        subgroups = [sub for sub in SUBGROUPS if wargames_commands("console", sub)]
        listed = ", ".join([*(_usage(c) for c in wargames_commands("console")), *subgroups])
        return UsageError(
            f"The /wargames commands here: {listed} (its admin tools are Discord's only; "
            "the tournaments have /tournament)."
        )

    async def wg_games(self, rest: list[str]) -> Outcome:
        self._no_wargames_args("games", rest)
        self.say(games_text(self.markup))
        return Outcome()

    async def wg_mygames(self, rest: list[str]) -> Outcome:
        self._no_wargames_args("mygames", rest)
        games = await self.service.open_games(GUILD_ID, self.my_id)
        self.say(
            my_games_text(games, self.my_id, self.markup, await self.service.away_until(GUILD_ID, self.my_id))
        )
        return Outcome()

    async def wg_away(self, rest: list[str]) -> Outcome:
        raw = self._words(rest)
        if not raw.isdecimal():
            raise UsageError(f"Usage: /wargames away days:N (1 to {AWAY_DAYS_A_YEAR}).")
        away = await self.service.away(GUILD_ID, self.my_id, int(raw))
        assert away.until is not None
        once = ConsoleMarkup(self, named=away.until)  # "away until <date> (in N days)": the date once
        self.say(away_text(away, once))
        for match in away.games:
            notice = away_notice(match, self.my_id, away.until, match.id in away.owing, once)
            self.say(f"[{names.channel_name(match.channel_id)}] {notice}")
        return Outcome()

    async def wg_back(self, rest: list[str]) -> Outcome:
        self._no_wargames_args("back", rest)
        away = await self.service.back(GUILD_ID, self.my_id)
        self.say(back_text(away))
        for match in away.games:
            notice = back_notice(match, self.my_id, match.id in away.owing, self.markup)
            self.say(f"[{names.channel_name(match.channel_id)}] {notice}")
        return Outcome()

    async def wg_undo(self, rest: list[str]) -> Outcome:
        self._no_wargames_args("undo", rest)
        match, state, notation = await self.service.undo(self.channel_id, self.my_id)
        self.say(f"Only you see this: you took back `{notation}`. It is still your turn.")
        path = self._board_file(match, state, (), await self._seq(match))
        self.say(f"(only you see this) board: {path}")  # as every board of a turn still going on
        self.say(status_text(match, state, self.markup))
        return Outcome(files=[path])

    async def wg_seal(self, rest: list[str]) -> Outcome:
        self._no_wargames_args("seal", rest)
        seal = await self.service.next_seal(self.channel_id)
        if seal.shown_at is not None:
            self.say(f"(only you see this) {fairness.sealed_already_text(seal, self.markup)}")
        else:
            self.say(fairness.seal_posted_text(seal))
            await self.service.seal_shown(seal)
        return Outcome()

    async def wg_verify(self, rest: list[str]) -> Outcome:
        return await self._check_or_export("verify", rest)

    async def wg_export(self, rest: list[str]) -> Outcome:
        return await self._check_or_export("export", rest)

    async def _check_or_export(self, sub: str, rest: list[str]) -> Outcome:
        """`/wargames verify` and `export`: a finished game (this channel's last, or `game:ID`)."""
        raw = self._words(rest)
        if raw and not raw.isdecimal():
            raise UsageError(f"Usage: /wargames {sub} [game:ID], ID being a finished game's number.")
        match_id = int(raw) if raw else None
        if sub == "verify":
            match, report = await fairness.verify(
                self.service, GUILD_ID, self.channel_id, match_id, self.my_id
            )
            self.say(fairness.verify_text(match, report, self.markup))
            return Outcome(ok=report.ok)
        match, data = await fairness.export(self.service, GUILD_ID, self.channel_id, match_id, self.my_id)
        path = self._write(fairness.record_name(match), data)
        self.say(f"{fairness.export_text(match)}\nexport: {path}")
        return Outcome(files=[path])

    def _no_wargames_args(self, name: str, rest: list[str]) -> None:
        if rest:  # as before the table: a word too many gets the list of what is here
            raise self._wargames_usage()

    async def _as(self, args: list[str]) -> Outcome:
        if len(args) != 1:
            raise UsageError("Usage: /as NAME (for example /as bob).")
        if names.user_id(args[0]) == BOT_ID:
            raise UsageError("You cannot be the bot; challenge it with a game's challenge command, to @bot.")
        self.me = names.clean(args[0], "user name")
        self.say(f"You are now @{self.me}.")
        pinged = await self._turn_ping()
        for match_id, text in self.inbox.pop(self.my_id, []):
            if match_id != pinged:
                self.say(f"[direct message] {text}")
        return Outcome()

    async def _turn_ping(self) -> int | None:
        """Becoming a player this channel's game waits for: the turn ping, what the opponent did since
        they last acted, as their side knows it (their drawn cards too). Returns the match's id."""
        try:
            match, state = await self.service.current(self.channel_id)
        except ServiceError:
            return None
        if self.my_id not in waiting_ids(match, state):
            return None
        try:
            stretch = await self.service.latest_stretch(match)
        except ValueError:  # a log that does not replay to the position (one set by hand): no news
            return None
        if stretch is None:
            return None
        if all(step.player_id == self.my_id for step in stretch.steps):
            return None  # they acted last: nothing new to tell
        # what the game dealt them is said even where the recap is summed up in a few lines (the
        # waiting direct message is not printed a second time), as the bot's turn DM says it
        side = match.side_of(self.my_id)
        secret = stretch.private.get(side) if side else None
        self.say(f"[turn] {turn_dm_text(match, stretch, self.my_id, self.markup, secret)}")
        return match.id

    def _channel(self, args: list[str]) -> Outcome:
        if len(args) != 1:
            raise UsageError("Usage: /channel NAME (for example /channel game-2).")
        self.channel = names.clean(args[0], "channel name")
        self.say(f"Now in #{self.channel}.")
        return Outcome()

    async def _game_command(self, game: Game, sub: str, args: list[str]) -> Outcome:
        """One command of a game's group: the platform's, or one of the game's verbs."""
        command = next((c for c in game_commands(game) if c.name == sub and c.on("console")), None)
        if command is None:
            raise UsageError(
                f"/{game.name} has no command '{sub[:20]}'. `/{game.name} help` lists its commands."
            )
        if command.verb is not None:
            return await self._verb(game, command.verb, args)
        if command.about_channel_game:
            await self._check_game(game)
        return await COMMANDS[sub](self, game, args)

    async def _check_game(self, game: Game) -> None:
        found = await self.service.last_match(self.channel_id)
        if found and found.game != game.name:
            other = game_of(found)
            raise UsageError(f"This channel's game is {other.title}: use the /{other.name} commands.")

    def _no_args(self, game: Game, name: str, args: list[str]) -> None:
        if args:
            raise UsageError(f"/{game.name} {name} takes no options.")

    # ------------------------------------------------------------------ challenges

    async def cmd_challenge(self, game: Game, args: list[str]) -> Outcome:
        opts, positional = options(args)
        who = opts.pop("opponent", None) or opts.pop("user", None)
        sides = {s.name for s in game.sides} | {"random"}
        switches = {o.name for o in game.options if isinstance(o.default, bool)}
        rest: list[str] = []
        for word in positional:
            low = word.lower()
            if who is None and (word.startswith("@") or not rest):
                who = word
            elif low in sides:
                opts.setdefault("side", low)
            elif low in game.ai.names:
                opts.setdefault("level", low)
            elif low in switches:
                opts.setdefault(low, "true")
            elif low.isdecimal():
                opts.setdefault("hours_per_turn", low)
            else:
                rest.append(word)
        if who is None:
            raise UsageError(f"Whom? Usage: /{game.name} challenge @bob (or @bot to play the AI).")
        if rest:
            raise UsageError(f"I do not understand '{' '.join(rest)[:40]}' in a challenge. Type /help.")
        known = ["side", *(o.name for o in game.options), "hours_per_turn", "level"]
        unknown = set(opts) - set(known)
        if unknown:
            listed = ", ".join(known[:-1]) + f" and {known[-1]}"
            raise UsageError(f"Unknown option {sorted(unknown)[0]}: the options are {listed}.")
        opponent = names.user_id(who)
        vs_bot = opponent == BOT_ID
        level = opts.get("level")
        if level is not None and not vs_bot:
            raise UsageError("The `level` option is only for games against me (@bot), the AI.")
        if vs_bot:
            level = (level or game.ai.default).lower()
            if level not in game.ai.names:
                raise UsageError(f"The AI's level must be one of {', '.join(game.ai.names)}.")
        hours = opts.get("hours_per_turn")
        turn_seconds: int | None = None
        if hours is not None:
            try:
                turn_seconds = round(float(hours) * 3600)
            except ValueError:
                raise UsageError("`hours_per_turn` must be a number of hours, for example 72.") from None
        chosen = {o.name: opts[o.name] for o in game.options if o.name in opts}
        match = await self.service.challenge(
            guild_id=GUILD_ID,
            channel_id=self.channel_id,
            challenger_id=self.my_id,
            opponent_id=opponent,
            game=game.name,
            side=opts.get("side", "random"),
            options=chosen,
            turn_seconds=turn_seconds,
            opponent_is_bot=vs_bot,
            ai_level=level if vs_bot else None,
        )
        rules = terms_text(game, match.options)
        me = self.markup.mention(self.my_id)
        if vs_bot:
            label = level_label(game, level or game.ai.default)
            self.say(f"{me} takes on the AI ({label}): a game of {game.title}.{rules}")
            return await self._started(match)
        wanted = chosen_side_text(game, match.challenger_side)
        them = self.markup.mention(opponent)
        self.say(
            f"{me} challenges {them} to {game.title} (side: {wanted}, "
            f"{hours_text(match.turn_seconds)} per turn).{rules} "
            f"{them}: `/{game.name} accept` or `/{game.name} decline`. "
            f"Expires {self.markup.deadline(int(match.challenge_expires_at or 0))}."
        )
        if match.seed_commitment:
            self.say(fairness.commitment_text(match, self.markup))
        return Outcome()

    async def _started(self, match: Match) -> Outcome:
        """The first board of a new game, then whatever the AI owes (it may act first)."""
        match, state = await self.service.current(match.channel_id)
        game = game_of(match)
        mention = self.markup.mention
        sides = ", ".join(f"{mention(uid)} the {game.side(side).title}" for side, uid in match.sides.items())
        self.say(f"The game is on: {sides}.")
        if match.seed_commitment:
            self.say(fairness.commitment_text(match, self.markup))
        path = self._board_file(match, state, (), 0)
        self.say(f"board: {path}")
        self.say(status_text(match, state, self.markup))
        files = [path] + await self._ai_moves(match)
        return Outcome(files=files)

    async def cmd_accept(self, game: Game, args: list[str]) -> Outcome:
        if args == ["draw"]:  # "accept draw", as the game's own words put it, is an action
            return await self._act("accept draw")
        self._no_args(game, "accept", args)
        match = await self.service.accept(self.channel_id, self.my_id)
        self.say(f"{self.markup.mention(self.my_id)} accepts.")
        return await self._started(match)

    async def cmd_decline(self, game: Game, args: list[str]) -> Outcome:
        if args == ["draw"]:
            return await self._act("decline draw")
        self._no_args(game, "decline", args)
        current = await self.service.channel_match(self.channel_id)
        if current is not None and current.status is Status.ACTIVE:
            # In a game, "decline" is the game's answer to an offer (a dogfight, a Cross...), if it
            # has one; the challenge is long accepted.
            with contextlib.suppress(InvalidNotation):
                game.parse("decline")
                return await self._act("decline")
        match = await self.service.decline(self.channel_id, self.my_id)
        verb = "declines the challenge" if match.status is Status.DECLINED else "withdraws the challenge"
        self.say(f"{self.markup.mention(self.my_id)} {verb}.")
        await self.seal_next(match)
        return Outcome()

    async def cmd_cancel(self, game: Game, args: list[str]) -> Outcome:
        self._no_args(game, "cancel", args)
        # The person at the terminal owns this server, so they have Manage Channels.
        match = await self.service.cancel(self.channel_id, self.my_id, is_admin=True)
        self.say(f"{self.markup.mention(self.my_id)} cancelled game #{match.id}; no result is recorded.")
        await self.seal_next(match)
        return Outcome()

    # ------------------------------------------------------------------ playing

    async def _in_play(self) -> bool:
        """Whether this channel has a game in play (the service then words a refusal for its position)."""
        try:
            await self.service.current(self.channel_id)
        except ServiceError:
            return False
        return True

    async def _act(self, notation: str, game: Game | None = None) -> Outcome:
        played = await self.service.act(self.channel_id, self.my_id, notation)
        side = played.match.side_of(self.my_id)
        secret = played.private.get(side) if side else None
        if played.secret:
            # Nothing the channel may see happened (a standing order): as in Discord, its words to
            # the mover alone and no board, which would draw a turn the other player still keeps.
            self.say(f"(only you see this) {secret or 'done'}.")
            self.tell_players(played)
            return Outcome()
        files = [await self.show_played(played, mine=True)]
        if secret and not (played.mid_turn and secret.lower() in played_story(played, side).lower()):
            self.say(f"(only you see this) {secret}.")  # unless its private story told it already
        self.tell_players(played)
        if not played.over:
            files += await self._ai_moves(played.match)
        return Outcome(files=files)

    async def _resume_ai(self) -> None:
        """This channel's AI game left waiting on the AI (the console was closed while it thought,
        after the player's move was saved): it plays now, as the bot's start-up resumes such games,
        instead of the game standing still until the AI lost on time."""
        try:
            match, state = await self.service.current(self.channel_id)
        except ServiceError:
            self._ai_may_owe = False
            return
        if match.ai_player_id is not None and match.ai_player_id in waiting_ids(match, state):
            await self._ai_moves(match)
        self._ai_may_owe = False

    async def _ai_moves(self, match: Match) -> list[Path]:
        """After a human action in an AI game, the AI plays what it owes; show each of its boards."""
        if match.ai_player_id is None:
            self._ai_played_out(match)
            return []
        plays = await self.service.ai_turns(match.channel_id, budget_s=self.ai_budget)
        self._ai_played_out(match)
        if not plays:
            return []
        # One board for the AI's whole stretch, as in Discord; `history` keeps every step.
        whole = merged(plays)
        path = await self.show_played(whole)
        self.tell_players(whole)
        return [path]

    def _ai_played_out(self, match: Match) -> None:
        """The AI owes nothing more in `match` (it played all it owed, or has no seat): if that is
        this channel's game, the next line need not look for a turn left to it."""
        if match.channel_id == self.channel_id:
            self._ai_may_owe = False

    def _words(self, args: list[str]) -> str:
        # `move:e2-e3` and `move e2-e3` both work: notation never contains a colon.
        words = [w.split(":", 1)[1] if ":" in w else w for w in args]
        return " ".join(w for w in words if w)

    @staticmethod
    def _usage(game: Game, verb: Verb) -> str:
        """A verb typed without its action: what to add, and where the legal ones are listed (the
        description's "choose from the list" is Discord's autocomplete, which a terminal has not)."""
        assert verb.arg is not None
        about = verb.arg_description.replace("(choose from the list)", "").replace("(the list", "(`legal`")
        return (
            f"Usage: /{game.name} {verb.name} {verb.arg.upper()}: {about.strip()}. "
            f"`/{game.name} legal` lists what you can play now."
        )

    async def _verb(self, game: Game, verb: Verb, args: list[str]) -> Outcome:
        await self._check_game(game)
        if verb.arg is None:
            self._no_args(game, verb.name, args)
            return await self._act(verb.notation(None))
        text = self._words(args)
        if not text and verb.default is None:
            raise UsageError(self._usage(game, verb))
        return await self._act(verb.notation(text or None))

    async def cmd_play(self, game: Game, args: list[str]) -> Outcome:
        if args and args[0].lower().startswith("action:"):  # Discord's typed syntax, as for the verbs
            args = [args[0][len("action:") :], *args[1:]]
        text = " ".join(a for a in args if a)
        if not text:
            raise UsageError(
                f"Usage: /{game.name} play ACTION (several: a; b). Examples: {game.notation_help}"
            )
        return await self._act(text)

    async def cmd_resign(self, game: Game, args: list[str]) -> Outcome:
        self._no_args(game, "resign", args)
        return await self._act("resign")

    async def cmd_draw(self, game: Game, args: list[str]) -> Outcome:
        what = self._words(args).lower()
        if what not in ("offer", "accept", "decline"):
            raise UsageError(f"Usage: /{game.name} draw offer | accept | decline")
        return await self._act(f"{what} draw")

    async def cmd_legal(self, game: Game, args: list[str]) -> Outcome:
        self._no_args(game, "legal", args)
        legal = await self.service.legal(self.channel_id, self.my_id)
        match, state = await self.service.current(self.channel_id)
        mine = match.side_of(self.my_id)
        private = await self.service.channel_view(match)
        if private is not None and private.player_id != self.my_id:
            state = private.seen.state  # nothing of another player's turn while it is theirs alone
        if not legal:
            if mine is None:
                self.say(f"You are not playing in this game. {status_text(match, state, self.markup)}")
                return Outcome()
            self.say(f"Nothing to play right now. {status_text(match, state, self.markup)}")
        else:
            n = len(legal)
            self.say(f"{n} legal {'action' if n == 1 else 'actions'} for @{self.me}:")
            self._command_lines(game, state, legal)
        standing = [str(a) for a in standing_actions(game, None, state, mine)] if mine else []
        if mine is not None and standing:
            self.say("At any time, on turn or not:")
            self._command_lines(game, state, standing)
        return Outcome()

    def _command_lines(self, game: Game, state: State, notations: list[str]) -> None:
        """Notations as the commands that play them, one line per command."""
        by_cmd: dict[str, list[str]] = {}
        for notation in notations:
            cmd, arg = command_for(game, state, notation)
            by_cmd.setdefault(cmd, []).append(arg)
        for cmd, items in by_cmd.items():
            self.say(f"  /{game.name} {cmd}: " + (", ".join(items) if items != [""] else "(no options)"))

    # ------------------------------------------------------------------ reading

    async def cmd_board(self, game: Game, args: list[str]) -> Outcome:
        opts, positional = options(args)
        focus_name = game.focus.name if game.focus else "focus"
        focus = opts.pop(focus_name, None) or (positional[0] if positional else None)
        if opts or len(positional) > 1 or (focus is not None and game.focus is None):
            usage = f" [{focus_name}:…]" if game.focus else ""
            raise UsageError(f"Usage: /{game.name} board{usage}")
        match, state = await self.service.latest(self.channel_id)
        private = await self.service.channel_view(match)
        mine = private is not None and private.player_id == self.my_id
        if private is not None and not mine:  # what the channel saw before that turn began
            state = private.seen.state
        if focus is not None:
            focus = focus.lower()
            if focus not in {c.lower() for c in game.focus_choices(state.view(None))}:
                unknown = game.focus.unknown if game.focus else "`{}` is not one of the choices."
                raise UsageError(unknown.format(focus[:12]).replace("`", "'"))
        if private is not None and not mine:
            events, seq = private.seen.events, await self._seq(private.seen.match)
        else:
            events, seq = await self.service.last_events(match), await self._seq(match)
        path = self._board_file(match, state, events, seq, overlay=focus)
        self.say(f"(only you see this) board: {path}" if mine else f"board: {path}")
        self.say(status_text(match, state, self.markup))
        if mine:
            self.say(MID_TURN_NOTE)
        return Outcome(files=[path])

    async def cmd_hand(self, game: Game, args: list[str]) -> Outcome:
        self._no_args(game, "hand", args)
        _, text = await self.service.hand(self.channel_id, self.my_id)
        if text is None:
            raise UsageError("Only the two players have hands in this game.")
        self.say(text or "You hold nothing secret in this game.")
        return Outcome()

    async def cmd_history(self, game: Game, args: list[str]) -> Outcome:
        opts, positional = options(args)
        raw = opts.pop("count", None) or (positional[0] if positional else "20")
        if opts or len(positional) > 1 or not raw.isdecimal() or not 1 <= int(raw) <= 500:
            raise UsageError(f"Usage: /{game.name} history [count:20] (1 to 500 actions)")
        entries = await self.service.history_entries(self.channel_id, limit=int(raw), asker=self.my_id)
        self.say(history_text(entries, self.markup, limit=100_000))
        return Outcome()

    async def cmd_review(self, game: Game, args: list[str]) -> Outcome:
        """The look back at the channel's finished game: the asker's costliest choices, each board."""
        self._no_args(game, "review", args)
        match, found = await self.service.review(self.channel_id, self.my_id)
        rules = game_of(match)
        self.say(review_text(rules, match, found, self.markup))
        for n, moment in enumerate(found.moments, 1):
            png = renderer(match.game).board(rules.view_from_json(moment.view), [])
            path = self._write(f"{names.channel_name(match.channel_id)}-{match.id}-review-{n}.png", png)
            self.say(f"  board {n}: {path}")
        return Outcome()

    async def cmd_replay(self, game: Game, args: list[str]) -> Outcome:
        self._no_args(game, "replay", args)
        match, _ = await self.service.latest(self.channel_id)
        private = await self.service.channel_view(match)  # a turn still private is not replayed yet
        upto = private.seen.match.version if private is not None else None
        log = [(side, notation) for side, notation, _ in await self.service.log(match, upto)]
        gif = render_replay(match.game, match.options, engine_seed(match), log)
        path = self._write(f"{self._file_stem(match)}-replay.gif", gif)
        self.say(f"replay: {path} ({len(gif) // 1024} KiB): {replay_length(len(log))}.")
        return Outcome(files=[path])

    async def cmd_rules(self, game: Game, args: list[str]) -> Outcome:
        topic = " ".join(args).split(":")[-1].strip().lower()
        match = await self.service.channel_match(self.channel_id)  # its game keeps its rules' edition
        here = match.options if match is not None and match.game == game.name else None
        if not topic:
            self.say(_plain(rules_text(game, None, here)))
            return Outcome()
        found = next((t for t in game.rules if topic in t.lower()), None)
        if found is None:
            raise UsageError(f"No rules topic '{topic[:20]}'. Topics: {', '.join(game.rules)}.")
        self.say(_plain(rules_text(game, found, here)))
        return Outcome()

    async def cmd_stats(self, game: Game, args: list[str]) -> Outcome:
        opts, positional = options(args)
        who = opts.get("user") or opts.get("member") or (positional[0] if positional else self.me)
        uid = names.user_id(who)
        if uid == BOT_ID:  # the AI: a rating per level
            self.say(
                ai_stats_text(game, uid, await self.service.ai_records(GUILD_ID, game.name), self.markup)
            )
            return Outcome()
        self.say(stats_text(game, await self.service.stats(GUILD_ID, game.name, uid), self.markup))
        return Outcome()

    async def cmd_leaderboard(self, game: Game, args: list[str]) -> Outcome:
        self._no_args(game, "leaderboard", args)
        self.say(
            leaderboard_text(
                game, await self.service.leaderboard(GUILD_ID, game.name, ai_user_id=BOT_ID), self.markup
            )
        )
        return Outcome()

    async def cmd_help(self, game: Game, args: list[str]) -> Outcome:
        return await self._help([game.name, *args])

    async def wg_help(self, rest: list[str]) -> Outcome:
        return await self._help(rest)

    async def _help(self, args: list[str]) -> Outcome:
        """`/help`: this channel's game briefly, else the games and how to start one; `/help GAME`
        one game's; `/help all` every command and option (`/GAME help all`: that game's in full)."""
        words = [w.lower().lstrip("/").removeprefix("game:") for w in args]  # Discord's way too
        game = registry.game(words.pop(0)) if words and words[0] in registry.names() else None
        if words == ["all"]:
            self.say(help_text(game))
        elif words:
            raise UsageError(f"Help takes a game ({', '.join(registry.names())}), `all`, or nothing.")
        else:
            found = await self.service.last_match(self.channel_id) if game is None else None
            game = game or (game_of(found) if found else None)
            if game is None:
                self.say(overview(self.markup, OVERVIEW_MORE))
            else:
                more = GAME_MORE.format(game=game.name)
                self.say(game_help(game, "console", self.markup, more))
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

    async def demo(
        self, *, game: Game | None = None, level: str | None = None, seed: int = 1, max_actions: int = 3000
    ) -> int:
        """Play a whole game by typing commands as two players would, then write the replay.

        Both sides are played by the game's AI at `level` (default: its easiest search level)."""
        game = game or registry.default()
        level = level or ("easy" if "easy" in game.ai.names else game.ai.default)
        self.file_prefix = f"demo-{game.name}"  # each game's demo keeps its own files
        self.say(f"Demo: a complete game of {game.title} played by the AI ({level}), seed {seed}.")
        first, second = (s.name for s in game.sides)
        players = {first: "alpha", second: "bravo"}
        script = [
            f"/channel {self.channel}",
            f"/as {players[first]}",
            f"/{game.name} challenge @{players[second]} side:{first}",
            f"/as {players[second]}",
            f"/{game.name} accept",
        ]
        if await self.service.channel_match(self.channel_id) is not None:
            script.insert(1, f"/{game.name} cancel")
        await self.run_lines(script)
        for n in range(max_actions):
            match, state = await self.service.latest(self.channel_id)
            if state.is_over() or not match.status.is_open:
                break
            side = min(state.to_act())
            if self.me != players[side]:
                await self.run_lines([f"/as {players[side]}"])
            view = state.view(side)
            try:
                action = await asyncio.to_thread(game.choose, view, level, seed * 1000 + n, self.ai_budget)
                notation = str(action)
            except Exception as exc:  # a broken AI must not stop the demo: say so and play on
                print(f"console: the AI failed ({type(exc).__name__}: {exc}); random move", file=sys.stderr)
                notation = str(random.Random(seed * 1000 + n).choice(state.legal_actions(side)))
            cmd, arg = command_for(game, state, notation)
            await self.run_lines([f"/{game.name} {cmd} {arg}".rstrip()])
        await self.run_lines([f"/{game.name} replay"])
        match, state = await self.service.latest(self.channel_id)
        boards = sum(1 for p in self.written if p.suffix == ".png")
        self.say(f"Demo over: {boards} boards and the replay are in {self.boards}/.")
        return 0 if state.is_over() and not self.refused else 1


Handler = Callable[[Console, Game, list[str]], Awaitable[Outcome]]
WargamesHandler = Callable[[Console, list[str]], Awaitable[Outcome]]
WARGAMES_COMMANDS: dict[str, WargamesHandler] = {
    "games": Console.wg_games,
    "help": Console.wg_help,
    "mygames": Console.wg_mygames,
    "away": Console.wg_away,
    "back": Console.wg_back,
    "undo": Console.wg_undo,
    "verify": Console.wg_verify,
    "export": Console.wg_export,
    "seal": Console.wg_seal,
}
COMMANDS: dict[str, Handler] = {
    "challenge": Console.cmd_challenge,
    "accept": Console.cmd_accept,
    "decline": Console.cmd_decline,
    "cancel": Console.cmd_cancel,
    "play": Console.cmd_play,
    "resign": Console.cmd_resign,
    "draw": Console.cmd_draw,
    "legal": Console.cmd_legal,
    "board": Console.cmd_board,
    "hand": Console.cmd_hand,
    "history": Console.cmd_history,
    "replay": Console.cmd_replay,
    "review": Console.cmd_review,
    "rules": Console.cmd_rules,
    "stats": Console.cmd_stats,
    "leaderboard": Console.cmd_leaderboard,
    "help": Console.cmd_help,
}


def command_for(game: Game, state: State, notation: str) -> tuple[str, str]:
    """The command a player would type for `notation`: ("move", "e2-e3"), ("end", ""), ("play", ...)."""
    low = " ".join(notation.lower().split())
    if low == "resign":
        return "resign", ""
    if low.endswith(" draw"):
        return "draw", low.split()[0]
    owed = sorted(state.to_act())
    view = state.view(owed[0] if owed else None)
    kind = game.verb_of(view, game.parse(notation))
    for verb in game.verbs:
        if kind in verb.plays:
            return verb.name, verb.argument(notation)
    return "play", notation


# ---------------------------------------------------------------------- entry point


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m console",
        description="Play the bot's games in the terminal with its commands; boards are written as PNGs.",
    )
    p.add_argument("--db", type=Path, default=None, help="SQLite file (default: the bot's, see .env.example)")
    p.add_argument("--boards", type=Path, default=Path("boards"), help="where board PNGs go (boards/)")
    p.add_argument("--script", default=None, help="read commands from FILE ('-' for stdin)")
    p.add_argument("--demo", action="store_true", help="play a complete game by itself and exit")
    p.add_argument("--seed", type=int, default=None, help="seed for new games (and the demo)")
    p.add_argument("--as", dest="me", default="alice", help="who you are at the start (alice)")
    p.add_argument("--channel", default="general", help="the channel you start in (general)")
    p.add_argument("--game", default=None, choices=registry.names(), help="the game --demo plays")
    p.add_argument("--level", default=None, help="AI level for --demo (default: the game's easy level)")
    p.add_argument("--ai-budget", type=float, default=None, help="seconds the AI may think per action")
    args = p.parse_args(argv)
    # Checked here, before a database is opened: a level the game lacks made every demo move fail
    # (a random move instead), and --level or --game without --demo was ignored without a word.
    if (args.level is not None or args.game is not None) and not args.demo:
        p.error(
            "--level and --game choose what --demo plays; to play the AI yourself, "
            "type `vs ai GAME LEVEL` in the console"
        )
    if args.level is not None:
        game = registry.game(args.game) if args.game else registry.default()
        if args.level not in game.ai.names:
            p.error(f"--level must be one of {', '.join(game.ai.names)} ({game.title})")
    return args


def read_script(args: argparse.Namespace) -> list[str] | None:
    """The script's lines: --script FILE, --script - (stdin), or stdin when it is not a terminal."""
    if args.demo:
        return None
    if args.script is None and sys.stdin.isatty():
        return None
    if args.script in (None, "-"):
        return sys.stdin.read().splitlines()
    return Path(args.script).read_text(encoding="utf-8").splitlines()


# The console sweeps every game of its store, as a bot does, and prints what the sweep tells; on the
# bot's PostgreSQL it would end Discord games on time where no player reads it. So it stays local.
POSTGRES_NOTE = (
    "console: DATABASE_URL is set, but the console keeps its own games in the SQLite file {path}, "
    "never in PostgreSQL: the Discord bot's games stay untouched (--db chooses another file)."
)


async def _run(args: argparse.Namespace, script: list[str] | None) -> int:
    tmp: tempfile.TemporaryDirectory[str] | None = None
    db_path = args.db
    if db_path is None and args.demo:
        tmp = tempfile.TemporaryDirectory(prefix="wargames-demo-")  # the demo leaves no game behind
        db_path = Path(tmp.name) / "demo.db"
    if db_path is None:
        settings = load_settings()
        db_path = settings.database_path
        if settings.database_url:
            print(POSTGRES_NOTE.format(path=db_path), file=sys.stderr)
    if script is None and not args.demo:
        hold_ctrl_c()  # before the first thread starts, so that every thread inherits it
    try:
        db = await Database.open(db_path)
        # The demo plays the same game every time (DEMO_SEED unless --seed says otherwise).
        seed = DEMO_SEED if args.demo and args.seed is None else args.seed
        rng = random.Random(seed) if seed is not None else None
        service = MatchService(db, rng=rng)
        channel = "demo" if args.demo and args.channel == "general" else args.channel
        console = Console(service, boards=args.boards, me=args.me, channel=channel, ai_budget=args.ai_budget)
        try:
            if args.demo:
                game = registry.game(args.game) if args.game else None
                assert seed is not None
                return await console.demo(game=game, level=args.level, seed=seed)
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


def main_thread_only() -> bool:
    return threading.current_thread() is threading.main_thread()


def hold_ctrl_c() -> None:
    """Keep SIGINT blocked in this thread, and so in every thread it starts: Linux hands a signal
    to any thread that does not block it, and one that reached the database's thread left the
    prompt waiting in `select` until the next key (the half-typed line then survived Ctrl-C)."""
    if main_thread_only():
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def read_line(prompt: str) -> str:
    """input(), with Ctrl-C raising KeyboardInterrupt inside it as in any plain Python program, so
    readline throws the half-typed line away. Only while the player types may SIGINT arrive (in this
    thread, the one that does not block it). It holds the event loop while the player types; the
    console has nothing else to do meanwhile (every command runs the deadline sweep first)."""
    if not main_thread_only():
        return input(prompt)  # signal handlers belong to the main thread
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        return input(prompt)
    finally:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        signal.signal(signal.SIGINT, previous)


def ctrl_c_came() -> bool:
    """Whether a Ctrl-C came while a command ran (held back, since a move is stored whole or not at
    all); it is taken, so it does not also clear the next line."""
    if not main_thread_only() or signal.SIGINT not in signal.sigpending():
        return False
    signal.sigwait({signal.SIGINT})
    return True


async def interactive(console: Console, db_path: Path) -> int:
    """The read-eval-print loop. Ctrl-C clears the line being typed, as shells do; Ctrl-D at the
    prompt leaves, games kept. A Ctrl-C while a command runs lets it finish (a move is stored whole or
    not at all) and says so."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401  (line editing and history where available)
    titles = ", ".join(g.title for g in registry.games())
    console.say(
        f"Wargames console ({titles}) on {db_path}. Boards go to {console.boards}/. "
        "Type /help; Ctrl-D leaves."
    )
    while True:
        try:
            line = read_line(console.prompt)
        except KeyboardInterrupt:
            console.say()  # the line is gone: a fresh prompt on a line of its own
            continue
        except EOFError:
            console.say()
            return 0
        done = await console.handle(line)
        if ctrl_c_came():
            console.say("(Ctrl-C came while that command ran; it finished all the same. Ctrl-D leaves.)")
        if done is None:
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
