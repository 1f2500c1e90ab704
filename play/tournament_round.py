"""The round now (`/tournament round`): each board of a tournament's current round with its
thread, its result once over and, while it runs, whose move it is; the bye; who has withdrawn.

Read in two queries whatever the number of boards (the boards, then their matches in one), plus
the players; what it shows is what the match row says (status, winner, whose clocks run, what is
left on them), or for a game without a running clock who must act, which every board's status line
shows too: nothing depends on a card or a draw a player may not see.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from data import Database, Match, Status
from data.tournaments import Board, Tournament, TournamentStore
from engine import registry
from engine.protocol import EndReason, Game
from play.results import game_clock_left, game_of, own_rows, waiting_ids
from play.swiss import DRAW, LOSS, WIN
from play.tournament_formats import forfeit_wins, struck_meetings


@dataclass(frozen=True, slots=True)
class BoardNow:
    """One board as it stands: `result` is `first_id`'s points once over (recorded by the sweep, or
    read from a match that ended since); `to_move` who must act in a game still going (both
    players in a simultaneous set-up, as play/results.py `waiting_ids` says); `started`
    whether its game has begun (its thread is made a moment after the pairing); `clocks` what is
    left on each player's clock for the game (first, second; seconds), if it has one; `stopped`
    whether the bot stopped it without a result (it counts as a draw, which nobody agreed)."""

    board: Board
    result: float | None
    to_move: tuple[int, ...]
    started: bool
    clocks: tuple[float, float] | None = None
    stopped: bool = False  # stopped without a result (the round's end, a cancel): its ½ was not played
    against: int | None = None  # a round-robin's forfeit win: the withdrawn player it was against

    @property
    def is_bye(self) -> bool:
        return self.board.second_id is None


@dataclass(frozen=True, slots=True)
class RoundNow:
    """The boards of a tournament's latest round, the players who have withdrawn, and the
    latecomers who joined during it (paired from the next round)."""

    tournament: Tournament
    game: Game
    boards: list[BoardNow]
    withdrawn: frozenset[int]
    late: frozenset[int] = frozenset()
    # a round-robin's players without a game this round, and whom they were to meet: a withdrawn
    # player whose games are struck out
    unmet: tuple[tuple[int, int], ...] = ()


def acting(match: Match) -> tuple[int, ...]:
    """Who must act in an open match, challenger (a tournament's first named) first: whose game
    clocks run (kept as `waiting_ids` by play/clocks.py, so both players of a simultaneous set-up,
    with no state read); without a running clock (a game begun before clocks, a quick decision),
    from its position, as every other whose-move line says it."""
    clock = match.game_clock
    if clock is not None and clock.running:
        waiting: set[int] = set(clock.running)
    elif match.snapshot is not None:
        waiting = set(waiting_ids(match, game_of(match).from_json(match.snapshot)))
    else:
        waiting = set()
    if not waiting and match.turn_player_id is not None:
        waiting = {match.turn_player_id}
    return tuple(u for u in match.players if u in waiting)


def result_of(board: Board, match: Match) -> float | None:
    """`first_id`'s points from the match, once it is over; a game stopped without a result (an
    admin's cancel, the round's time running out) counts as a draw."""
    if match.status.is_open:
        return None
    if match.status is Status.FINISHED and match.winner_id is not None:
        return WIN if match.winner_id == board.first_id else LOSS
    return DRAW


async def timed_out(
    db: Database, store: TournamentStore, tournament_id: int, round_no: int
) -> tuple[int, ...]:
    """Who let their time run out in a game of round `round_no`, in board order: the loser on time
    (a turn's deadline or their game clock), or both players of a game abandoned (both owed an
    action and neither came). The sign an organiser looks for of a player who no longer plays.
    Read from each finished game's own outcome (its typed reason; the stored reason is the game's
    words), once a round."""
    out: list[int] = []
    for _, row in sorted((await store.round_matches(tournament_id, round_no)).items()):
        if row.status is not Status.FINISHED:
            continue
        match = await db.get_match(row.id)
        outcome = game_of(match).from_json(match.snapshot).outcome() if match.snapshot else None
        if outcome is None:
            continue
        if outcome.reason is EndReason.TIMEOUT and match.winner_id is not None:
            out.extend(u for u in match.players if u != match.winner_id)
        elif outcome.reason is EndReason.ABANDONED:
            out.extend(match.players)
    return tuple(out)


async def no_shows(db: Database, store: TournamentStore, tournament_id: int, round_no: int) -> frozenset[int]:
    """Who lost their game of round `round_no` without a move of theirs in it (on time, abandoned,
    or ended by an organiser as a no-show): passed over for the next round's bye, a point they
    would score for not coming (RULES.md "Pairing"). Read from each game's log."""
    out: set[int] = set()
    for _, row in sorted((await store.round_matches(tournament_id, round_no)).items()):
        if row.status is not Status.FINISHED:
            continue
        losers = [u for u in row.players if u != row.winner_id] if row.winner_id is not None else row.players
        log = await db.actions(row.id)  # the loss on time is logged as the late player's
        out.update(u for u in losers if not own_rows(log, u))
    return frozenset(out)


async def round_now(store: TournamentStore, tournament: Tournament, now: float) -> RoundNow:
    """The tournament's latest round as it stands at `now`."""
    boards = [b for b in await store.tournament_boards(tournament.id) if b.round == tournament.round]
    matches = await store.round_matches(tournament.id, tournament.round)
    shown: list[BoardNow] = []
    for board in boards:
        match = matches.get(board.board)
        stopped = match is not None and match.status is Status.CANCELLED
        if board.result is not None or match is None:
            begun = match is not None or board.second_id is None
            shown.append(BoardNow(board, board.result, (), begun, stopped=stopped))
            continue
        result = result_of(board, match)
        to_move = acting(match) if result is None else ()
        clocks = None
        if result is None and board.second_id is not None:
            a, b = game_clock_left(match, board.first_id, now), game_clock_left(match, board.second_id, now)
            clocks = None if a is None or b is None else (a, b)
        shown.append(BoardNow(board, result, to_move, True, clocks, stopped))
    entries = await store.tournament_entries(tournament.id)
    forfeits = forfeit_wins(tournament, entries, boards)
    shown = [replace(b, against=forfeits.get((b.board.round, b.board.first_id))) for b in shown]
    gone = frozenset(e.user_id for e in entries if e.withdrawn)
    late = frozenset(e.user_id for e in entries if not e.withdrawn and e.joined_round == tournament.round > 0)
    unmet = tuple(sorted((u, x) for (_, u), x in struck_meetings(tournament, entries, boards).items()))
    return RoundNow(tournament, registry.game(tournament.game), shown, gone, late, unmet)


__all__ = ["BoardNow", "RoundNow", "acting", "no_shows", "result_of", "round_now", "timed_out"]
