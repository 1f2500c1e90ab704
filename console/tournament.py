"""`/tournament ...` in the console, over the same `TournamentService` as the bot.

The console is the organiser's own terminal, so whoever types may create, start and cancel. Each
pairing's game gets a thread of its own, named `t<id>r<round>b<board>` (switch to it with
`/channel`); the standings picture is written beside the boards. Every line runs the tournament
sweep after the deadline sweep, as the bot's loop would.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Protocol

from console import names, tournament_files
from console.lines import Outcome, UsageError, options
from console.names import GUILD_ID
from data import Match
from data.tournaments import Board, Tournament, TournamentStatus
from engine import registry
from engine.protocol import Event, State
from play import fairness, knockout_text
from play.commands import tournament_commands
from play.errors import AwayBusy, ServiceError
from play.markup import Markup
from play.results import Notice
from play.service import MatchService
from play.tournament import (
    MAX_DAYS,
    MAX_ROUNDS,
    MIN_DAYS,
    MIN_ROUNDS,
    GameOver,
    RoundDone,
    Started,
    TournamentService,
    seal_owed,
)
from play.tournament_extend import extended_text
from play.tournament_history import past_text
from play.tournament_late import late_notice
from play.tournament_leaving_text import undo_hint, withdraw_question, withdrawal_notice, withdrawn_text
from play.tournament_organise import forfeited_text, reinstated_text
from play.tournament_table import Table
from play.tournament_text import (
    cancelled_text,
    game_over_text,
    game_text,
    joined_text,
    round_now_text,
    round_text,
    signup_text,
    standings_said,
    standings_subtitle,
    standings_title,
    started_text,
)
from render.bracket import bracket_png
from render.standings import Row, standings_png


class Console(Protocol):
    """What the tournaments use of the console (console/app.py's `Console`, which imports this)."""

    service: MatchService
    channel: str  # its name: a game's thread is named for its tournament

    @property
    def markup(self) -> Markup: ...
    @property
    def my_id(self) -> int: ...
    @property
    def channel_id(self) -> int: ...
    def say(self, text: str = "") -> None: ...
    def _write(self, name: str, data: bytes) -> Path: ...
    def _board_file(
        self, match: Match, state: State, events: Iterable[Event], seq: int, overlay: str | None = None
    ) -> Path: ...
    async def show_notices(self, notices: list[Notice]) -> None: ...


USAGE = (
    "The tournament commands: "
    + ", ".join(f"{c.name} {c.usage}".rstrip() for c in tournament_commands("console"))
    + "."
)


THREAD = re.compile(r"^t(\d+)r\d+b\d+$")  # a tournament game's thread, as `thread_name` names it


def create_usage(opts: dict[str, str]) -> str:
    """What a half-typed `create` lacks, with an example and the choices (Discord's form asks for
    each; it said only "Usage: ... game:GAME rounds:N days:N", and no game's name)."""
    swiss = opts.get("format", "swiss").lower() == "swiss"
    needed = ("game", "rounds", "days") if swiss else ("game", "days")
    missing = [k for k in needed if k not in opts]
    numbers = ("rounds", "days", "max_players", "signup_days")
    bad = [k for k in numbers if k in opts and not opts[k].isdecimal()]
    what = f"Missing: {', '.join(missing)}. " if missing else ""
    what += f"Not a whole number: {', '.join(bad)}. " if bad else ""
    return (
        "A tournament needs a game, the days each round lasts and, for a Swiss one, a number of "
        f"rounds, e.g. `/tournament create game:{registry.default().name} rounds:3 days:3`; "
        f"a round-robin (`format:round-robin`, everyone meets everyone) or a knockout (`format:knockout`, "
        f"the winner of each game goes on) leaves the rounds out. {what}"
        f"Games: {', '.join(registry.names())}; {MIN_ROUNDS} to {MAX_ROUNDS} rounds of "
        f"{MIN_DAYS} to {MAX_DAYS} days."
    )


def thread_name(board: Board) -> str:
    return f"t{board.tournament_id}r{board.round}b{board.board}"


def threaded(boards: list[Board]) -> list[Board]:
    """The pairings with their threads, whose names are known before they are opened here."""
    return [
        b if b.second_id is None else replace(b, thread_id=names.channel_id(thread_name(b))) for b in boards
    ]


class ConsoleTournaments:
    """The console's adapter: parse the line, call the service, print its words."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._service: TournamentService | None = None

    @property
    def service(self) -> TournamentService:
        if self._service is None:  # made on first use, over the console's own match service
            self._service = TournamentService.over(self.console.service)
        return self._service

    async def room(self) -> int:
        """The tournament's channel: this one, or the one whose tournament a game's thread
        (`t1r2b3`) belongs to, as Discord takes a thread's parent; it answered in a game's thread
        that the channel had had no tournament."""
        found = THREAD.match(self.console.channel)
        if found is not None:
            with contextlib.suppress(ServiceError):
                return (await self.service.by_id(int(found.group(1)))).channel_id
        return self.console.channel_id

    async def command(self, args: list[str]) -> Outcome:
        console = self.console
        sub = args[0].lower() if args else ""
        opts, rest = options(args[1:])
        channel = await self.room()
        if sub == "create":
            if "game" not in opts or "days" not in opts:
                raise UsageError(create_usage(opts))
            try:
                days = int(opts.get("days", ""))
                rounds = int(opts["rounds"]) if "rounds" in opts else None
                most = int(opts["max_players"]) if "max_players" in opts else None
                closes = int(opts["signup_days"]) if "signup_days" in opts else None
            except ValueError:
                raise UsageError(create_usage(opts)) from None
            made = await self.service.create(
                guild_id=GUILD_ID,
                channel_id=channel,
                user_id=console.my_id,
                game=opts.get("game", ""),
                rounds=rounds,
                days=days,
                name=" ".join([opts["name"], *rest]) if "name" in opts else None,
                options=opts.get("options", ""),
                organiser=True,
                format=opts.get("format"),
                max_players=most,
                tiebreaks=opts.get("tiebreaks"),
                signup_days=closes,
            )
            if made.seal_commitment is not None:  # its own line, first: every sign-up follows it
                console.say(fairness.tournament_seal_text(made))
                await self.service.seal_shown(made)
            console.say(signup_text(registry.game(made.game), made, [], console.markup, buttons=False))
        elif sub in ("join", "leave") and rest in ([], ["confirm"]):
            tournament = await self.service.open_in(channel)
            if sub == "leave" and tournament.status is TournamentStatus.RUNNING:
                await self.withdraw(tournament, confirmed=bool(rest))
                return Outcome()
            if rest and sub == "leave":  # nothing to confirm before it begins
                raise UsageError(
                    "The tournament has not begun, so there is nothing to confirm: "
                    "`/tournament leave` alone takes you off the list."
                )
            if rest:
                raise UsageError(USAGE)
            if sub == "join":
                if seal_owed(tournament):  # cut short by a crash: shown first, as Discord's owed seal
                    console.say(fairness.tournament_seal_text(tournament))
                    await self.service.seal_shown(tournament)
                tournament = await self.service.join(tournament, console.my_id)
                if tournament.status is TournamentStatus.RUNNING:  # a latecomer: from which round
                    mine = [e for e in await self.service.entries(tournament) if e.user_id == console.my_id]
                    late = mine[0].joined_round if mine else tournament.round
                    console.say(joined_text(tournament, console.markup, late))
                    console.say(late_notice(tournament, console.my_id, late, console.markup))
                    return Outcome()
            else:
                tournament = await self.service.leave(tournament, console.my_id)
            entries = await self.service.entries(tournament)
            console.say(
                signup_text(
                    registry.game(tournament.game), tournament, entries, console.markup, buttons=False
                )
            )
        elif sub == "start" and not rest:
            started = await self.service.start(channel, organiser=True)
            boards = await self.service.store.tournament_boards(started.tournament.id)
            game = registry.game(started.tournament.game)
            console.say(started_text(game, started.tournament, threaded(boards), console.markup))
            await self.start_boards(started.tournament, started.boards)
        elif sub == "standings" and not rest:
            table = await self.service.standings_of(channel, await self.numbered(opts))
            console.say(standings_said(table, console.markup))  # as Discord says it, above the picture
            self.show_table(table)
        elif sub == "crosstable" and not rest:
            await tournament_files.crosstable(self.service, console, channel, await self.numbered(opts))
        elif sub == "export" and not rest:
            await tournament_files.export(self.service, console, channel, await self.numbered(opts))
        elif sub == "round" and not rest:
            # asked in a game's thread, the pairings are not posted in "this channel"
            now = await self.service.round_of(channel, await self.numbered(opts), asked_in=console.channel_id)
            console.say(round_now_text(now, console.markup))
        elif sub == "past" and not rest:
            shown, more = await self.service.past(GUILD_ID)
            console.say(past_text(shown, more, console.markup, "/tournament"))
        elif sub == "remove" and not rest and "member" in opts:
            removed = await self.service.remove(
                channel, names.user_id(opts["member"]), organiser=True, by=console.my_id
            )
            console.say(withdrawal_notice(removed, console.my_id, console.markup))
            if hint := undo_hint(removed, console.markup):
                console.say(hint)
        elif sub == "reinstate" and not rest and "member" in opts:
            back = await self.service.reinstate(
                channel, names.user_id(opts["member"]), organiser=True, by=console.my_id
            )
            console.say(reinstated_text(back, console.my_id, console.markup))
        elif sub == "forfeit" and not rest and "member" in opts:
            ended = await self.service.forfeit(
                channel, names.user_id(opts["member"]), organiser=True, by=console.my_id
            )
            console.say(forfeited_text(ended, console.markup))
            await console.show_notices([ended.notice])  # in its thread, as Discord posts it there
            await self.sweep()  # the round closes now if that was its last game, as in Discord
        elif sub == "extend" and not rest and "hours" in opts:
            try:
                hours = int(opts["hours"])
            except ValueError:
                raise UsageError("Type the hours as a number: `/tournament extend hours:24`.") from None
            longer = await self.service.extend(channel, hours, organiser=True, by=console.my_id)
            console.say(extended_text(longer, console.markup))
        elif sub == "cancel" and not rest:
            done = await self.service.cancel(channel, organiser=True, by=console.my_id)
            console.say(cancelled_text(done, console.markup.mention(console.my_id), console.markup))
            if reveal := fairness.tournament_reveal_text(done):
                console.say(reveal)
        else:
            raise UsageError(USAGE)
        return Outcome()

    async def numbered(self, opts: dict[str, str]) -> Tournament | None:
        """The tournament a `tournament:N` option names (the console's one server sees them all),
        or None without one: the channel's latest is meant."""
        if "tournament" not in opts:
            return None
        typed = opts["tournament"].strip().lower().removeprefix("no.")
        if not typed.isdecimal() or int(typed) < 1:
            raise UsageError(
                f"'{opts['tournament'][:30]}' is not a tournament's number: `/tournament past` "
                "lists them, e.g. `tournament:3`."
            )
        return await self.service.numbered(int(typed), GUILD_ID)

    async def withdraw(self, tournament: Tournament, *, confirmed: bool) -> None:
        """Withdrawing once it runs: the question first, then `leave confirm` does it (no buttons here)."""
        console = self.console
        if not confirmed:
            ahead = await self.service.withdrawal(tournament, console.my_id)
            console.say(
                f"{withdraw_question(ahead, console.markup)} Type `/tournament leave confirm` to withdraw."
            )
            return
        done = await self.service.withdraw_from(tournament.id, console.my_id)
        console.say(withdrawn_text(done, console.markup))
        console.say(withdrawal_notice(done, None, console.markup))

    def show_table(self, table: Table) -> None:
        if table.bracket:  # a knockout: its bracket is the picture (RULES.md "Knockout")
            named = {x.user_id: names.user_name(x.user_id) for x in table.lines}
            drawn = bracket_png(*knockout_text.picture(table, named))
            where = self.console._write(f"tournament-{table.tournament.id}-round-{table.round}.png", drawn)
            self.console.say(f"bracket: {where}")
            return
        rows = [
            Row(
                x.rank,
                names.user_name(x.user_id),
                x.points,
                *table.shown(x),
                x.change,
                x.withdrawn,
                x.joined,
            )
            for x in table.lines
        ]
        t = table.tournament
        png = standings_png(standings_title(t, table.round), standings_subtitle(table), rows, table.heads)
        path = self.console._write(f"tournament-{t.id}-round-{table.round}.png", png)
        self.console.say(f"standings: {path}")

    async def start_boards(self, tournament: Tournament, boards: list[Board]) -> None:
        game = registry.game(tournament.game)
        for board in boards:
            thread = thread_name(board)
            try:
                match = await self.service.start_board(board, names.channel_id(thread))
            except AwayBusy:  # another process writes a player's time away: `sweep` starts it
                self.console.say(f"[{thread}] This game waits for a moment: `sweep` begins it.")
                continue
            clock = match.game_clock.total if match.game_clock is not None else None
            self.console.say(f"[{thread}] {game_text(game, tournament, board, self.console.markup, clock)}")
            match, state = await self.console.service.current(
                match.channel_id
            )  # its first board, as in Discord
            self.console.say(f"[{thread}] board: {self.console._board_file(match, state, (), 0)}")

    async def sweep(self) -> None:
        for item in await self.service.sweep(games=True):
            if isinstance(item, GameOver):
                thread = thread_name(item.board)
                self.console.say(
                    f"[{thread}] {game_over_text(item.tournament, item.going, self.console.markup)}"
                )
            elif isinstance(item, RoundDone):
                tournament = item.table.tournament
                channel = names.channel_name(tournament.channel_id)
                said = round_text(
                    item.table, threaded(item.pairings), self.console.markup, item.timed_out, item.forfeited
                )
                self.console.say(f"[{channel}] {said}")
                if item.table.final and (reveal := fairness.tournament_reveal_text(tournament)):
                    self.console.say(f"[{channel}] {reveal}")
                self.show_table(item.table)
                await self.service.announced(item.table)
                await self.start_boards(tournament, item.boards)
            elif isinstance(item, Started):
                await self.start_boards(item.tournament, item.boards)
            else:  # a deadline that fell before its round's end, told ahead of the standings
                await self.console.show_notices([item])


__all__ = ["ConsoleTournaments"]
