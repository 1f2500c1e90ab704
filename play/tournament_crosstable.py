"""A tournament's crosstable: each player's result against each opponent, round by round, in the
notation clubs use, and how each game ended (RULES.md "The crosstable and the export").

Read from the tournament's boards and their matches, beside the standings it extends
(play/tournament_table.py): the same rounds, the same order, and every point counted by the same
`Pairing.points` the standings add up, so the cells can never disagree with the points column.
Players are numbered in standing order, and a cell names the opponent by that number: `W5` won
against no. 5, `L3` lost, `D2` drawn, `+4` / `-4` a game won or lost by forfeit (a round-robin's game
left by a withdrawn player too), `B1` a bye and its
points, `—` a round without a pairing, `×4` a round-robin game struck out (its player withdrew
before half their games), the number alone a game whose result is not in yet. A game
still going shows nothing but who plays whom, which the round's announcement already told.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from data import Database, Match, Status
from data.tournaments import Board, TournamentStore
from engine.protocol import EndReason
from play.results import game_of, own_rows
from play.swiss import Pairing
from play.tournament_formats import forfeit_wins, struck
from play.tournament_table import Line, Table

NOT_PAIRED = "—"
STRUCK = "×"  # before the opponent's number: a game struck out (RULES.md "Round-robin")


class Ended(StrEnum):
    """How a tournament game ended, as a rating officer files it."""

    PLAYED = "played"  # its players reached a result: the game's own end, a resignation, a draw agreed
    TIME = "time"  # a player who had moved let their time run out (or both players did: a draw)
    FORFEIT = "forfeit"  # lost on time with no move of the loser's stored: a game never played
    BYE = "bye"  # no opponent
    STOPPED = (
        "stopped"  # stopped without a result: a draw at the round's end, nothing in a cancelled tournament
    )
    STRUCK = "struck"  # a round-robin game of a player who withdrew before half their games: not counted
    GOING = "going"  # still being played
    WAITING = "waiting"  # paired; its game has not begun


class Mark(StrEnum):
    """What a cell says for its player, so a picture can colour it without reading its text."""

    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"
    BYE = "bye"
    PENDING = "pending"  # paired, no result yet
    NONE = "none"  # not paired


@dataclass(frozen=True, slots=True)
class Record:
    """One board of the tournament and how it ended: `reason` is the game's typed end where it
    ended by itself (None for a bye, a game stopped, going or not begun)."""

    board: Board
    ended: Ended
    reason: EndReason | None = None
    against: int | None = None  # a round-robin's forfeit win (no opponent seated): the withdrawn player

    def points(self, user_id: int) -> float | None:
        """`user_id`'s points from it, exactly as the standings count them (None: not yet, not
        theirs, or struck out; the withdrawn player of a forfeit win scores 0, as unpaired)."""
        if self.ended is Ended.STRUCK:
            return None
        if user_id == self.against:
            return 0.0
        b = self.board
        return Pairing(b.round, b.first_id, b.second_id, b.result).points(user_id)


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    mark: Mark


@dataclass(frozen=True, slots=True)
class Player:
    """One line of the crosstable: the player's number in it, their standings line, a cell a round."""

    number: int
    line: Line
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class Crosstable:
    """The standings (`table`) with every player's rounds, and every board of those rounds."""

    table: Table
    players: list[Player]
    records: list[Record]

    @property
    def rounds(self) -> int:
        return self.table.round


def points_text(value: float) -> str:
    """Half points as clubs write them: 0, ½, 1, 1½."""
    whole = int(value + 1e-9)
    if value - whole >= 0.5 - 1e-9:
        return f"{whole}½" if whole else "½"
    return str(whole)


def cell(record: Record | None, user_id: int, number: dict[int, int]) -> Cell:
    """`user_id`'s round as the crosstable writes it (`number`: each player's number in it)."""
    if record is None:
        return Cell(NOT_PAIRED, Mark.NONE)
    board = record.board
    got = record.points(user_id)
    if board.second_id is None and record.against is not None:  # a round-robin's forfeit win
        if user_id == board.first_id:
            return Cell(f"+{number.get(record.against, '?')}", Mark.WIN)
        return Cell(f"-{number.get(board.first_id, '?')}", Mark.LOSS)
    if board.second_id is None:
        return Cell(f"B{points_text(got or 0.0)}", Mark.BYE)
    opponent = board.second_id if user_id == board.first_id else board.first_id
    who = str(number.get(opponent, "?"))
    if record.ended is Ended.STRUCK:
        return Cell(f"{STRUCK}{who}", Mark.NONE)
    if got is None:
        return Cell(who, Mark.PENDING)
    if record.ended is Ended.FORFEIT:
        return Cell(f"+{who}", Mark.WIN) if got > 0.5 else Cell(f"-{who}", Mark.LOSS)
    if got > 0.5:
        return Cell(f"W{who}", Mark.WIN)
    if got < 0.5:
        return Cell(f"L{who}", Mark.LOSS)
    return Cell(f"D{who}", Mark.DRAW)


async def _moved(db: Database, match: Match, user_id: int) -> bool:
    """Whether `user_id` has a move of their own stored in `match` before its last commit (the one
    that ended it on time, whose rows the bot wrote in the late player's name)."""
    log = await db.actions(match.id)
    last = max((row.version for row in log), default=0)
    return any(row.version < last for row in own_rows(log, user_id))


async def ending(db: Database, board: Board, match: Match | None) -> Record:
    """How `board`'s game ended, from its match; a result not recorded yet is still going, as in
    the standings (the sweep records it)."""
    if board.second_id is None:
        return Record(board, Ended.BYE)
    if board.result is None:
        if match is None:
            return Record(board, Ended.WAITING)
        if match.status is Status.CANCELLED:  # the tournament cancelled: stopped, and never scored
            return Record(board, Ended.STOPPED)
        return Record(board, Ended.GOING)  # or just ended: scored once the sweep records it
    if match is None or match.status is not Status.FINISHED:
        return Record(board, Ended.STOPPED)  # the round closed first, a cancel, or before it began
    full = await db.get_match(match.id)  # the round's query leaves the snapshot out
    outcome = game_of(full).from_json(full.snapshot).outcome() if full.snapshot is not None else None
    if outcome is None:
        return Record(board, Ended.STOPPED)
    reason = outcome.reason
    if reason is EndReason.TIMEOUT and full.winner_id is not None:
        loser = board.second_id if full.winner_id == board.first_id else board.first_id
        late = Ended.TIME if await _moved(db, full, loser) else Ended.FORFEIT
        return Record(board, late, reason)
    if reason is EndReason.ABANDONED:
        return Record(board, Ended.TIME, reason)
    return Record(board, Ended.PLAYED, reason)


async def crosstable(db: Database, store: TournamentStore, table: Table) -> Crosstable:
    """The crosstable of the rounds `table` shows (those the channel was told of). One query for
    the boards and one a round for their matches; a finished game's own record is read to tell how
    it ended (a forfeit's log too)."""
    tournament = table.tournament
    boards = [b for b in await store.tournament_boards(tournament.id) if b.round <= table.round]
    entries = await store.tournament_entries(tournament.id)
    gone = struck(tournament, entries, boards)
    forfeits = forfeit_wins(tournament, entries, boards)
    records: list[Record] = []
    for round_no in range(1, table.round + 1):
        matches = await store.round_matches(tournament.id, round_no)
        for board in (b for b in boards if b.round == round_no):
            record = await ending(db, board, matches.get(board.board))
            if gone & {board.first_id, board.second_id} and board.second_id is not None:
                record = replace(record, ended=Ended.STRUCK)  # the standings leave it out too
            if (against := forfeits.get((board.round, board.first_id))) is not None:
                record = replace(record, ended=Ended.FORFEIT, against=against)  # it said "B1"
            records.append(record)
    number = {line.user_id: n for n, line in enumerate(table.lines, start=1)}
    seat: dict[tuple[int, int], Record] = {}
    for record in records:
        for user in (record.board.first_id, record.board.second_id, record.against):
            if user is not None:
                seat[(user, record.board.round)] = record
    players = [
        Player(
            number[line.user_id],
            line,
            tuple(cell(seat.get((line.user_id, r)), line.user_id, number) for r in range(1, table.round + 1)),
        )
        for line in table.lines
    ]
    return Crosstable(table, players, records)


__all__ = [
    "NOT_PAIRED",
    "STRUCK",
    "Cell",
    "Crosstable",
    "Ended",
    "Mark",
    "Player",
    "Record",
    "cell",
    "crosstable",
    "ending",
    "points_text",
]
