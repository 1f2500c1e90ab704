"""A tournament's sweep: record the results of games that ended, close a round whose games are over
or whose days ran out, and pair the next (RULES.md "Tournaments": The end of a round).

Closing a round on time first applies, through the deadline sweep's own path, every turn's deadline
that fell at or before the round's end (the bot may have been down across both), so a loss on time
stands; only a game still within its deadline at the end is stopped and counts as a draw. Moving
the tournament on is one versioned write (`TournamentStore.advance_tournament`): of two sweeps, one
pairs the round and the other is refused; so is a pairing of a player who withdrew (or left the
server) after the players were read, and the next sweep pairs the round without them. Pairing runs
in a thread, so the event loop answers meanwhile.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from data import Status
from data.tournaments import (
    Board,
    Entry,
    Tournament,
    TournamentMoved,
    TournamentStatus,
)
from play import tournament_table
from play.errors import ServiceError, StalePrompt
from play.results import Notice
from play.swiss import DRAW, Pairing
from play.tournament_base import TournamentParts
from play.tournament_formats import decided, next_pairings
from play.tournament_round import no_shows, result_of, timed_out
from play.tournament_table import Table

Present = Callable[[int, int], Awaitable[bool]]  # (guild, user) -> still a member?

log = logging.getLogger("wargames.tournament")

# Players asked about at once, whether they are still in the server (a Discord request each).
ASK_AT_ONCE = 8

# How often a game to stop is read again when another process moved it between the read and the write.
STOP_TRIES = 5


@dataclass(frozen=True, slots=True)
class RoundDone:
    """A round is over: post its standings (`table`) and the next round's `pairings` (its bye
    too), then start `boards` (those of its games not yet begun). `timed_out`: who let their
    time run out in a game of the round, for the organiser to judge whether they still play."""

    table: Table
    boards: list[Board]
    pairings: list[Board] = field(default_factory=list)
    timed_out: tuple[int, ...] = ()
    forfeited: frozenset[int] = frozenset()  # of them, who never moved: a forfeit (RULES.md)


@dataclass(frozen=True, slots=True)
class GameOver:
    """A game ended while its round runs on (`going`: the round's games still going): its thread
    is told until when the round may last and what comes next, since its players otherwise heard
    nothing until the next round's ping. Told at most once (from the sweep that recorded it)."""

    tournament: Tournament
    board: Board
    going: int


@dataclass(frozen=True, slots=True)
class Started:
    """A tournament started: its first round's boards are to be started."""

    tournament: Tournament
    boards: list[Board]


class RoundSweep(TournamentParts):
    """The sweep of `TournamentService` (which holds the store, the match service and the clock)."""

    async def sweep(
        self, now: float | None = None, present: Present | None = None, *, games: bool = False
    ) -> list[RoundDone | Started | Notice | GameOver]:
        """Record the results of games that ended; close a round whose games are all over or whose
        days ran out (a turn that fell due before its end is decided by its deadline first, a game
        still within it is stopped and counts as a draw); pair and open the next, or finish; and hand
        back what the channels must be told (those deadlines' notices first), shown or started, in
        this process's guilds. `games`: also each game that ended while its round runs on, recorded
        by this sweep (once), for its thread (the adapters ask for it)."""
        now = self.clock() if now is None else now
        out: list[RoundDone | Started | Notice | GameOver] = []
        for tournament in await self.store.running_tournaments():
            if not self.matches.serves(tournament.guild_id):
                continue
            if tournament.status is TournamentStatus.RUNNING:
                moved = await self._sweep_one(tournament, now, present, out, games)
                if moved is not None:
                    tournament = moved
            for round_no in range(tournament.announced + 1, tournament.round + 1):
                closed = round_no < tournament.round or tournament.status is TournamentStatus.FINISHED
                if not closed:
                    break
                table = await tournament_table.table(self.store, tournament, round_no)
                nxt = await self._unstarted(tournament) if round_no == tournament.round - 1 else []
                paired = [
                    b
                    for b in await self.store.tournament_boards(tournament.id)
                    if b.round == round_no + 1 and round_no == tournament.round - 1
                ]
                timed = await timed_out(self.db, self.store, tournament.id, round_no)
                unmoved = await no_shows(self.db, self.store, tournament.id, round_no) if timed else set()
                out.append(RoundDone(table, nxt, paired, timed, frozenset(unmoved) & frozenset(timed)))
            if tournament.status is TournamentStatus.RUNNING and tournament.announced >= tournament.round - 1:
                waiting = await self._unstarted(tournament)
                if waiting:
                    out.append(Started(tournament, waiting))
        return out

    async def announced(self, table: Table) -> None:
        await self.store.mark_announced(table.tournament.id, table.round)

    async def _sweep_one(
        self,
        tournament: Tournament,
        now: float,
        present: Present | None,
        told: list[RoundDone | Started | Notice | GameOver],
        games: bool = False,
    ) -> Tournament | None:
        boards = [b for b in await self.store.tournament_boards(tournament.id) if b.round == tournament.round]
        recorded: list[Board] = []  # by this sweep
        if any(b.result is None and b.match_id is not None for b in boards):
            matches = await self.store.round_matches(tournament.id, tournament.round)  # one query
            for board in boards:
                if board.result is None and board.board in matches:
                    result = result_of(board, matches[board.board])
                    if result is not None and await self.store.set_board_result(board, result):
                        recorded.append(board)
        boards = [b for b in await self.store.tournament_boards(tournament.id) if b.round == tournament.round]
        ends = tournament.round_ends_at
        due = ends is not None and now >= ends
        going = sum(1 for b in boards if b.result is None)
        if games and going and not due:  # the round runs on: each game's players learn until when
            told.extend(GameOver(tournament, board, going) for board in recorded)
        if any(b.result is None for b in boards):
            if not due:
                return None
            assert ends is not None
            for board in boards:
                if board.result is None and board.match_id is not None:
                    await self._due_before(board, ends, now, told)
            boards = [
                b for b in await self.store.tournament_boards(tournament.id) if b.round == tournament.round
            ]
            for board in boards:
                if board.result is None:
                    ended: float | None = None
                    if board.thread_id is not None:
                        await self._stop(board)
                    if board.match_id is not None:
                        # ended by itself meanwhile (a resignation stored by another process before the
                        # stop): that result counts, as its ratings did; a game stopped counts as a draw
                        ended = result_of(board, await self.db.get_match(board.match_id))
                    if await self.store.set_board_result(board, DRAW if ended is None else ended):
                        await self._stop_begun(board)
        return await self._next_round(tournament, now, present)

    async def _stop_begun(self, board: Board) -> None:
        """After a board's result was recorded as its round closed: stop a game another process
        began on it since it was read (late, its round's end moved: the pairing below is then
        refused, but the result stands). That start, finding the result once its game is recorded,
        stops the game itself (`start_board`): so whichever comes last, the board's game is not
        played on in a round that is over."""
        if board.thread_id is not None:
            return  # stopped above
        fresh = await self._board_now(board)
        if fresh.thread_id is not None:
            await self._stop(fresh)

    async def _board_now(self, board: Board) -> Board:
        """`board` as stored now."""
        found = await self.store.tournament_boards(board.tournament_id)
        return next(b for b in found if (b.round, b.board) == (board.round, board.board))

    async def _due_before(
        self, board: Board, ends: float, now: float, told: list[RoundDone | Started | Notice | GameOver]
    ) -> None:
        """Decide a board's game by a deadline that fell before its round ended (`ends`), as the
        deadline sweep would have, had the bot been up then: the loss on time stands, or a quick
        decision gets its automatic answer (and the next turn's deadline, from now, is past the
        round's end). Its notices go to `told`; the game's result, if it ended, to the board."""
        assert board.match_id is not None
        match = await self.db.get_match(board.match_id)
        while match.status is Status.ACTIVE and match.deadline is not None and match.deadline <= ends:
            notice = await self.matches.overdue(match, now)
            if notice is None:
                break  # moved meanwhile (a move, or the deadline sweep acted first): read below
            told.append(notice)
            match = await self.db.get_match(board.match_id)
        result = result_of(board, match)
        if result is not None:
            await self.store.set_board_result(board, result)

    async def _next_round(
        self, tournament: Tournament, now: float, present: Present | None
    ) -> Tournament | None:
        entries = await self._drop_the_departed(
            tournament, await self.store.tournament_entries(tournament.id), present
        )
        boards = await self.store.tournament_boards(tournament.id)
        games = [Pairing(b.round, b.first_id, b.second_id, b.result) for b in boards]
        still_in = sum(1 for e in entries if not e.withdrawn)
        last = tournament.round >= tournament.rounds or still_in < 2 or decided(tournament, entries, games)
        try:
            if last:
                return await self.store.advance_tournament(
                    tournament,
                    status=TournamentStatus.FINISHED,
                    round_no=tournament.round,
                    round_ends_at=None,
                    now=now,
                )
            round_no = tournament.round + 1
            # passed over for the bye: who lost this round's game without a move, a latecomer's first
            skip = await no_shows(self.db, self.store, tournament.id, tournament.round)
            skip |= {e.user_id for e in entries if 0 < e.joined_round == tournament.round}
            return await self.store.advance_tournament(
                tournament,
                status=TournamentStatus.RUNNING,
                round_no=round_no,
                round_ends_at=now + tournament.round_seconds,
                now=now,
                boards=self._rows(
                    await asyncio.to_thread(next_pairings, tournament, entries, games, round_no, skip)
                ),
            )
        except TournamentMoved:
            return None  # another sweep moved it on first: it posts and starts what follows

    async def _drop_the_departed(
        self,
        tournament: Tournament,
        entries: list[Entry],
        present: Present | None,
        within: float | None = None,
    ) -> list[Entry]:
        """Withdraw the players no longer in the server (each asked of `present`, a few at once),
        before a round is paired, round 1 too; the entries as they then are (RULES.md "Leaving").
        `within`: seconds to wait for the answers (an organiser's start must be answered soon); one
        not given by then counts as still there, as an answer the adapter cannot give does."""
        if present is None:
            return entries
        ask = asyncio.Semaphore(ASK_AT_ONCE)

        async def here(user_id: int) -> bool:
            async with ask:
                return await present(tournament.guild_id, user_id)

        still = [e for e in entries if not e.withdrawn]
        asked = [asyncio.ensure_future(here(e.user_id)) for e in still]
        if asked:
            await asyncio.wait(asked, timeout=within)
        for late in asked:
            late.cancel()  # a no-op for those answered
        answers = [a.result() if a.done() and not a.cancelled() else True for a in asked]
        gone = [e.user_id for e, yes in zip(still, answers, strict=True) if not yes]
        for user_id in gone:
            await self.store.withdraw_player(tournament.guild_id, user_id)
        return await self.store.tournament_entries(tournament.id) if gone else entries

    @staticmethod
    def _rows(pairings: Sequence[Pairing]) -> list[tuple[int, int | None, float | None]]:
        return [(p.first, p.second, 1.0 if p.is_bye else None) for p in pairings]

    async def _unstarted(self, tournament: Tournament) -> list[Board]:
        boards = await self.store.tournament_boards(tournament.id)
        return [
            b
            for b in boards
            if b.round == tournament.round and b.second_id is not None and b.match_id is None
        ]

    async def _stop(self, board: Board) -> None:
        """Stop a game left open (the round's time ran out, or the tournament was cancelled). It must
        not go on: the tournament's secret, told at its end, would tell its dice."""
        assert board.thread_id is not None
        for _ in range(STOP_TRIES):
            try:
                await self.matches.cancel(board.thread_id, 0, is_admin=True, by_tournament=True)
            except StalePrompt:
                continue  # moved meanwhile (a move stored by another process): read it again
            except ServiceError:
                pass  # it ended meanwhile (or never started): its own result stands
            return
        log.warning(
            "Tournament %s: could not stop the game in thread %s", board.tournament_id, board.thread_id
        )


__all__ = ["GameOver", "Present", "RoundDone", "RoundSweep", "Started"]
