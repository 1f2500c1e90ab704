"""Swiss tournaments over days, for any registered game: the life cycle, game-free and Discord-free.

A tournament lives in one channel of one guild (so one shard serves it); each pairing's game is an
ordinary rated match in a thread of that channel, started through `MatchService` (challenge and
accept on the players' behalf), so its deadlines, reminders, time away and ratings are the usual
ones. The adapter (cogs/tournament.py, the console) makes the threads and posts what `sweep`
(play/tournament_sweep.py: closing rounds) returns; the rules are in RULES.md ("Tournaments").

Exactly once across processes: moving a tournament on (start, next round, the end, cancel) is one
versioned write with the new round's pairings (`TournamentStore.advance_tournament`), so of two
sweeps that find a round over, one pairs it and the other is refused and does nothing; a game's
result, thread and match are each recorded once. The standings after a round are posted at least
once (`announced` is marked after the post). Pairing runs in a thread (bench/swiss.py: about 40 ms
of CPU for 64 players, 180 ms for 128), so the event loop keeps answering meanwhile.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import replace

from data import Database, Match, Status
from data.tournaments import (
    Board,
    Entry,
    RatingsMoved,
    Tournament,
    TournamentBusy,
    TournamentMoved,
    TournamentStatus,
    TournamentStore,
)
from engine import chance, fairness, registry
from play import knockout, tournament_table
from play.errors import BadRequest, NotAPlayer
from play.service import DEFAULT_TURN_SECONDS, MatchService
from play.swiss import Entrant
from play.tournament_extend import Extending
from play.tournament_formats import (
    Settings,
    cap,
    entrants,
    full_refusal,
    is_knockout,
    join_refusal,
    start_pairings,
)
from play.tournament_history import History
from play.tournament_late import join_late, started_meanwhile_text
from play.tournament_leaving import Leaving, Withdrawal
from play.tournament_options import parse_options
from play.tournament_organise import Organising
from play.tournament_refusals import (
    ORGANISERS_ONLY,
    begun_text,
    busy_text,
    closed_text,
    none_open_text,
    removed_text,
)
from play.tournament_round import RoundNow, result_of, round_now
from play.tournament_sweep import GameOver, Present, RoundDone, RoundSweep, Started
from play.tournament_table import Table

DAY = 24 * 3600
MIN_ROUNDS, MAX_ROUNDS = 1, 12
MIN_DAYS, MAX_DAYS = 1, 14
NAME_LIMIT = 60
START_TRIES = 3  # a start whose players' ratings moved meanwhile pairs again, this many times
MIN_TURN = 3600
# seconds the start waits to hear who left the server: it answers before its defer, and Discord wants
# an answer within 3 s of the click, the start's own work and a loaded machine included
START_ASKS = 1.0


LATE = 15 * 60  # a game begun this much after its round's pairing is told in the channel as late


def began_late(ends_before: float | None, ends_now: float | None) -> bool:
    """Whether starting a game moved its round's end (`ends_before` -> `ends_now`) as a game begun
    late does; every game moves it by the moment it takes to start, which is no news (RULES.md "A
    game begun late")."""
    return ends_before is not None and ends_now is not None and ends_now - ends_before > LATE


def seal_owed(tournament: Tournament) -> bool:
    """The tournament has a seal that no message has shown yet: no sign-up counts until one does."""
    return tournament.seal_commitment is not None and tournament.sealed_at is None


def turn_seconds(round_seconds: int) -> int:
    """A tournament game's time per turn: the usual three days, but at most a third of a round."""
    return max(MIN_TURN, min(DEFAULT_TURN_SECONDS, round_seconds // 3))


def game_seconds(tournament: Tournament) -> int:
    """Each player's clock for a whole game: half the round's length, so the two clocks together
    run out no later than the round does, which waits for a game begun late (RULES.md "The game
    clock", "A game begun late")."""
    return tournament.round_seconds // 2


class TournamentService(RoundSweep, Organising, Leaving, Extending, History):
    """Create, join, start, pair, adjudicate and close tournaments; every guild's, or this process's."""

    def __init__(
        self, db: Database, matches: MatchService, *, clock: Callable[[], float] | None = None
    ) -> None:
        self.store = TournamentStore(db)
        self.db = db
        self.matches = matches
        self.clock = clock or matches.clock

    @classmethod
    def over(cls, matches: MatchService) -> TournamentService:
        """Tournaments kept in the match service's own store: what an adapter builds (it never holds
        the store itself)."""
        return cls(matches.db, matches)

    # ------------------------------------------------------------------ sign-up

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        game: str,
        rounds: int | None,
        days: int,
        name: str | None = None,
        options: str = "",
        organiser: bool,
        format: str | None = None,
        max_players: int | None = None,
        tiebreaks: str | None = None,
        signup_days: int | None = None,
    ) -> Tournament:
        """A tournament taking sign-ups (a round-robin's rounds are set at its start: `Settings`)."""
        if not organiser:
            raise NotAPlayer(ORGANISERS_ONLY.format("create one"))
        try:  # typed in a console, a game's name may come capitalised, as its title is written
            rules = registry.game(game.strip().lower())
        except registry.UnknownGame:
            names = ", ".join(f"`{g.name}`" for g in registry.games())
            raise BadRequest(f"There is no game `{game[:30]}` here; the games are {names}.") from None
        chose = Settings.chosen(format, rounds, max_players, tiebreaks, (MIN_ROUNDS, MAX_ROUNDS), signup_days)
        if not MIN_DAYS <= days <= MAX_DAYS:
            raise BadRequest(f"Each round lasts {MIN_DAYS} to {MAX_DAYS} days.")
        chosen = parse_options(rules, options)
        title = " ".join((name or "").split())[:NAME_LIMIT] or f"{rules.title} {chose.title}"
        seal = self.matches.new_seal()  # every game's secret comes from it (docs/fairness.md)
        try:
            return await self.store.create_tournament(
                guild_id=guild_id,
                channel_id=channel_id,
                game=rules.name,
                options=dict(chosen),
                name=title,
                rounds=chose.rounds,
                round_seconds=days * DAY,
                created_by=user_id,
                now=self.clock(),
                seal_secret=seal.hex(),
                seal_commitment=chance.commitment(seal),
                format=chose.format,
                max_players=chose.max_players,
                tiebreaks=chose.tiebreaks,
                signup_closes_at=chose.closes(self.clock()),
            )
        except TournamentBusy:
            here = await self.store.channel_tournament(channel_id)
            raise BadRequest(busy_text(here, self.matches.markup)) from None

    async def open_in(self, channel_id: int) -> Tournament:
        found = await self.store.channel_tournament(channel_id)
        if found is None:
            last = await self.store.channel_tournament(channel_id, open_only=False)
            raise BadRequest(none_open_text(last, self.matches.markup))
        return found

    async def by_id(self, tournament_id: int, channel_id: int | None = None) -> Tournament:
        """The tournament a button names. With `channel_id` (the channel clicked in, or the parent
        of its thread), only that channel's: a button's id can be forged, and another channel's or
        server's tournament, perhaps one the clicker cannot see, answers as one that does not exist."""
        found = await self.store.get_tournament(tournament_id)
        if found is None or (channel_id is not None and found.channel_id != channel_id):
            raise BadRequest("This button belongs to no tournament of this channel.")
        return found

    async def join(
        self, tournament: Tournament, user_id: int, *, entropy: int | str | None = None
    ) -> Tournament:
        """Sign a player up; `entropy` (the id of the interaction) is their input to their games'
        dice, unless they signed up before and left: their first input is kept for the whole
        tournament, so leaving and joining again draws no new dice. A player an organiser took off
        the list is refused, by the store's write itself, until an organiser puts them back. Only a
        sign-up given after the tournament's seal was shown counts (its id is later than the seal
        message's), so every input mixed into a game's dice follows the seal (docs/fairness.md,
        "Tournaments"). Once it runs, a latecomer's (play/tournament_late.py)."""
        tournament = await self.by_id(tournament.id)
        if not tournament.status.is_open:
            raise BadRequest(closed_text(tournament))
        name = self.matches.markup.strong(tournament.name)
        if seal_owed(tournament):
            raise BadRequest(
                f"Sign-ups to {name} count only once its dice seal is shown in its channel, and it has "
                "not been yet: try again in a minute."
            )
        entries = await self.entries(tournament)  # past its sign-up deadline, or full?
        if why := join_refusal(tournament, entries, user_id, self.clock(), self.matches.markup):
            raise BadRequest(why)
        shown = tournament.seal_message_id
        if isinstance(entropy, int) and shown is not None and entropy <= shown:  # the later, the larger
            raise BadRequest(
                f"Your sign-up came before the dice seal of {name} was shown, and only a sign-up "
                "after it counts. The seal is in the channel now: join again."
            )
        given = str(self.matches.player_input(entropy))
        if tournament.status is TournamentStatus.RUNNING:  # a latecomer (RULES.md "Late entry")
            markup = self.matches.markup
            return await join_late(self.store, self.db, markup, self.clock(), tournament, user_id, given)
        if not await self.store.join_tournament(tournament.id, user_id, self.clock(), given, cap(tournament)):
            fresh = await self.by_id(tournament.id)  # started (or cancelled) by another process meanwhile?
            if await self.store.removed_by(tournament.id, user_id) is not None:  # the write refused it
                raise BadRequest(removed_text(fresh, self.matches.markup))
            if fresh.status is not TournamentStatus.SIGNUP:
                raise BadRequest(started_meanwhile_text(fresh, self.matches.markup))
            entries = await self.entries(fresh)
            if any(e.user_id == user_id for e in entries):
                raise BadRequest("You are already signed up for this tournament.")
            raise BadRequest(full_refusal(fresh, entries, user_id, name) or "It changed just now; try again.")
        return await self.by_id(tournament.id)

    async def entries(self, tournament: Tournament) -> list[Entry]:
        return await self.store.tournament_entries(tournament.id)

    async def seal_shown(self, tournament: Tournament, message_id: int | None = None) -> bool:
        """A message of its own (`message_id`, where the platform gives one) showed the tournament's
        seal in its channel, before anyone could join."""
        return await self.store.tournament_seal_shown(tournament.id, message_id, self.clock())

    async def set_message(self, tournament: Tournament, message_id: int) -> None:
        await self.store.set_tournament_message(tournament.id, message_id)

    async def unshown(self) -> list[Tournament]:
        """This process's tournaments taking sign-ups whose seal or sign-up list never went out (a
        crash right after one was made, a post that failed): owed to their channels, the seal first."""
        return [t for t in await self.store.unshown_tournaments() if self.matches.serves(t.guild_id)]

    async def round_shown(self, tournament: Tournament, round_no: int, message_id: int) -> None:
        """The message that announced round `round_no`, with its end (edited if the end moves)."""
        await self.store.set_round_message(tournament.id, round_no, message_id)

    async def round_message(self, tournament: Tournament, round_no: int) -> int | None:
        return await self.store.round_message(tournament.id, round_no)

    async def board_shown(self, board: Board, message_id: int) -> None:
        """The first message of the board's thread, which states its round's end."""
        await self.store.set_board_message(board, message_id)

    async def set_organiser_role(self, guild_id: int, role_id: int | None, *, organiser: bool) -> None:
        if not organiser:
            raise NotAPlayer("Only members who can manage the server may choose who runs tournaments.")
        await self.store.set_organiser_role(guild_id, role_id)

    async def organiser_role(self, guild_id: int) -> int | None:
        return await self.store.organiser_role(guild_id)

    # ------------------------------------------------------------------ running

    async def start(self, channel_id: int, *, organiser: bool, present: Present | None = None) -> Started:
        """Pair round 1 of the players signed up and still in the server (`present`: the adapter's
        answer; one who left is taken off the list first, as before any round's pairing)."""
        tournament = await self.open_in(channel_id)
        if not organiser:
            raise NotAPlayer(ORGANISERS_ONLY.format("start it"))
        if tournament.status is not TournamentStatus.SIGNUP:
            raise BadRequest(begun_text(tournament, self.matches.markup))
        entries = await self._drop_the_departed(
            tournament, await self.entries(tournament), present, START_ASKS
        )
        if len(entries) < 2:
            n = len(entries)
            raise BadRequest(
                f"A tournament needs at least 2 players; {n} {'has' if n == 1 else 'have'} signed up so far. "
                "Players sign up with `/tournament join` or the sign-up list's Join button."
            )
        try:
            started = await self._store_start(tournament, entries)
        except TournamentMoved:
            fresh = await self.by_id(tournament.id)  # another process's start (or cancel) came first?
            if fresh.status is TournamentStatus.RUNNING:
                raise BadRequest(begun_text(fresh, self.matches.markup)) from None
            if fresh.status is not TournamentStatus.SIGNUP:
                raise BadRequest(closed_text(fresh)) from None
            raise BadRequest("Someone joined or left just now: look at the list and start again.") from None
        return Started(started, await self._unstarted(started))

    async def _store_start(self, tournament: Tournament, entries: Sequence[Entry]) -> Tournament:
        """Pair round 1 from the players' ratings and store it with them. The store reads the
        ratings again in its transaction: a game of a player's that ended since this read (in
        another channel, the same moment) refuses it, and round 1 is paired again from the ratings
        as they are (a few tries; then the organiser starts again)."""
        for attempt in range(1, START_TRIES + 1):
            ratings = {
                e.user_id: (
                    await self.db.player_stats(tournament.guild_id, tournament.game, e.user_id)
                ).rating
                for e in entries
            }
            players = [Entrant(user, rating) for user, rating in ratings.items()]
            pairings, rounds = await asyncio.to_thread(start_pairings, tournament, players)
            now = self.clock()
            try:
                return await self.store.advance_tournament(
                    tournament,
                    status=TournamentStatus.RUNNING,
                    round_no=1,
                    round_ends_at=now + tournament.round_seconds,
                    now=now,
                    boards=self._rows(pairings),
                    ratings=ratings.items(),
                    rounds=rounds,
                )
            except RatingsMoved:
                if attempt == START_TRIES:
                    raise BadRequest(
                        "A player's rating changed just as the tournament started (a game of theirs "
                        "ended), so it did not start. Start it again."
                    ) from None
        raise AssertionError("unreachable")

    async def cancel(self, channel_id: int, *, organiser: bool, by: int | None = None) -> Tournament:
        """Stop the tournament and its games still going (none of them gets a result). Not, once it
        runs, by an organiser (`by`) still in it: their own game, lost, would be stopped unrated
        (RULES.md "An organiser who plays")."""
        tournament = await self.open_in(channel_id)
        if not organiser:
            raise NotAPlayer(ORGANISERS_ONLY.format("cancel it"))
        if tournament.status is TournamentStatus.RUNNING:
            await self._not_a_rival(
                tournament, by, "cancel it", "it would stop every game still going unscored, your own too"
            )
        try:
            done = await self.store.advance_tournament(
                tournament,
                status=TournamentStatus.CANCELLED,
                round_no=tournament.round,
                round_ends_at=None,
                now=self.clock(),
            )
        except TournamentMoved:
            raise BadRequest("The tournament changed just now; try again.") from None
        for board in await self.store.tournament_boards(tournament.id):
            if board.result is None and board.thread_id is not None:
                await self._stop(board)
        return done

    async def start_board(self, board: Board, thread_id: int) -> Match:
        """Start a pairing's game in its thread (made by the adapter): first side to `first_id`.
        After a crash it finds the game already begun there instead of starting a second one.
        Refused once the tournament is over or cancelled: its seal's secret is told then, and would
        tell this game's dice (docs/fairness.md, "What a cheater tried", second review)."""
        tournament = await self._running(board.tournament_id)
        if not await self.store.set_board_thread(board, thread_id):
            fresh = [
                b for b in await self.store.tournament_boards(board.tournament_id) if b.board == board.board
            ]
            thread_id = next(b.thread_id for b in fresh if b.round == board.round) or thread_id
        rules = registry.game(tournament.game)
        assert board.second_id is not None
        secret, inputs = await self._dice(tournament, board)
        try:
            match = await self.matches.challenge(
                guild_id=tournament.guild_id,
                channel_id=thread_id,
                challenger_id=board.first_id,
                opponent_id=board.second_id,
                game=tournament.game,
                side=rules.sides[0].name,
                options=tournament.options,
                turn_seconds=turn_seconds(tournament.round_seconds),
                game_seconds=game_seconds(tournament),
                secret=secret,
                inputs=inputs,
            )
            match = await self.matches.accept(thread_id, board.second_id, match.id, for_tournament=True)
        except BadRequest:
            found = await self.db.get_channel_match(thread_id)  # begun there before a crash
            if found is None or set(found.players) != {board.first_id, board.second_id}:
                raise
            match = found
            if match.status is Status.CHALLENGED:  # the crash came between the two steps
                match = await self.matches.accept(thread_id, board.second_id, match.id, for_tournament=True)
        # Begun late (the bot was down, or could not open the threads): it still has the whole round
        if match.game_clock is not None:
            ends = match.created_at + tournament.round_seconds
            await self.store.extend_round(tournament.id, board.round, ends, self.clock())
        await self.store.set_board_match(board, match.id)
        if (await self.by_id(board.tournament_id)).status is not TournamentStatus.RUNNING:
            # cancelled while it was being started: its secret is being told, so it must not be played
            await self._stop(replace(board, thread_id=thread_id))
            raise BadRequest(closed_text(await self.by_id(board.tournament_id)))
        if (await self._board_now(board)).result is not None:
            # its round closed while it was being started (another process's sweep): the board is the
            # round's draw, so its game is not played (`RoundSweep._stop_begun`)
            await self._stop(replace(board, thread_id=thread_id))
            raise BadRequest("This game's round ended before it could begin: it counts as a draw.")
        return match

    async def _running(self, tournament_id: int) -> Tournament:
        """The tournament, if its games may still start."""
        tournament = await self.by_id(tournament_id)
        if tournament.status is not TournamentStatus.RUNNING:
            raise BadRequest(closed_text(tournament))
        return tournament

    async def _dice(self, tournament: Tournament, board: Board) -> tuple[bytes | None, list[str] | None]:
        """A game's secret from the tournament's seal and its label, and its players' joins as the
        inputs; (None, None) for a tournament stored before seals (its games draw as ordinary ones)."""
        if tournament.seal_secret is None:
            return None, None
        label = fairness.tournament_label(tournament.id, board.round, board.board)
        joined = {e.user_id: e.join_input for e in await self.store.tournament_entries(tournament.id)}
        players = [board.first_id] if board.second_id is None else [board.first_id, board.second_id]
        inputs = [f"join:{joined.get(uid) or '-'}" for uid in players]
        return fairness.tournament_secret(bytes.fromhex(tournament.seal_secret), label), inputs

    async def draw_sends_on(self, match_id: int) -> int | None:
        """The higher seed of a knockout's game, whom a draw sends on (RULES.md "Knockout"); None for
        any other game, or once either player withdrew. Told under a board with a draw offer
        standing, days after the rule was."""
        board = await self.store.board_of_match(match_id)
        if board is None or board.second_id is None:
            return None
        tournament = await self.store.get_tournament(board.tournament_id)
        if tournament is None or not is_knockout(tournament):
            return None
        entries = await self.store.tournament_entries(tournament.id)
        if any(e.withdrawn for e in entries if e.user_id in (board.first_id, board.second_id)):
            return None  # one of them withdrew: the other goes on whatever the game says
        seeds = knockout.seeded(entrants(entries))
        pair = [u for u in (board.first_id, board.second_id) if u in seeds]
        return min(pair, key=seeds.index) if len(pair) == 2 else None

    async def pending_starts(self, tournament: Tournament) -> list[Board]:
        """The boards of the round still to start: none once the tournament is over or cancelled."""
        now = await self.by_id(tournament.id)
        return await self._unstarted(now) if now.status is TournamentStatus.RUNNING else []

    async def table(self, tournament: Tournament, round_no: int | None = None) -> Table:
        """The standings after `round_no` (default: every result so far)."""
        return await tournament_table.table(self.store, tournament, round_no)

    async def latest_in(self, channel_id: int) -> Tournament:
        """The channel's latest tournament, whatever its state: what a command about "this channel's
        tournament" reads when no number names another (`History.numbered`)."""
        found = await self.store.channel_tournament(channel_id, open_only=False)
        if found is None:
            raise BadRequest("This channel has had no tournament: `/tournament create` starts one.")
        return found

    async def standings_of(self, channel_id: int, found: Tournament | None = None) -> Table:
        """The standings up to the round whose pairings the channel was told: a round paired but not
        yet posted (the sweep posts it next) would tell its bye, a pairing, before the channel. Of
        the channel's latest tournament, or of `found` (one named by its number)."""
        found = found or await self.latest_in(channel_id)
        return await self.table(found, min(found.round, found.announced + 1))

    async def round_of(
        self, channel_id: int, found: Tournament | None = None, *, asked_in: int | None = None
    ) -> RoundNow:
        """The latest round as it stands (its last, once it is over) of the channel's tournament,
        or of `found` (a tournament named by its number, perhaps from another channel). `asked_in`:
        where the asker is, when not `channel_id` (a game's thread, whose tournament is its parent's)."""
        found = found or await self.latest_in(channel_id)
        if found.round == 0:
            raise BadRequest(
                "This tournament has not started yet: round 1 is paired when an organiser starts it."
            )
        if found.announced + 1 < found.round:  # paired and stored, not yet posted: nobody is told first
            # asked from a game's thread, or about a tournament by its number from another channel,
            # "this channel" is not the tournament's
            here = channel_id if asked_in is None else asked_in
            where = "this channel" if found.channel_id == here else "the tournament's own channel"
            raise BadRequest(
                f"Round {found.round - 1} is over and round {found.round} is paired: its pairings are "
                f"posted in {where} first. Ask again once they are."
            )
        return await round_now(self.store, found, self.clock())

    async def withdraw(self, guild_id: int, user_id: int) -> None:
        """A player left the server: off the sign-up lists, never paired again (games run on)."""
        await self.store.withdraw_player(guild_id, user_id)


__all__ = [
    "MAX_DAYS",
    "MAX_ROUNDS",
    "MIN_DAYS",
    "MIN_ROUNDS",
    "GameOver",
    "RoundDone",
    "Started",
    "Table",
    "TournamentService",
    "Withdrawal",
    "began_late",
    "game_seconds",
    "parse_options",
    "result_of",
    "seal_owed",
    "turn_seconds",
]
