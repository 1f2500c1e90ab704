"""A tournament's standings as posted: points and tiebreaks (play/swiss.py), and the rating change
its own games made, read from what each result recorded (migration 0008) rather than replayed."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from data import elo
from data.tournaments import Board, Entry, GameRating, Tournament, TournamentStatus, TournamentStore
from engine import registry
from engine.protocol import Game
from play.swiss import Entrant, Pairing, standings


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the standings as shown: `change` is the rating the tournament's own games gained."""

    rank: int
    user_id: int
    points: float
    buchholz: float
    sonneborn: float
    change: float
    withdrawn: bool
    joined: int = 0  # a latecomer: the round under way when they joined (its rounds so far scored 0)


@dataclass(frozen=True, slots=True)
class Table:
    """The standings of a tournament after `round` rounds (`final`: the last)."""

    tournament: Tournament
    game: Game
    round: int
    lines: list[Line]
    final: bool

    @property
    def winners(self) -> list[int]:
        return [line.user_id for line in self.lines if line.rank == 1]


async def table(store: TournamentStore, tournament: Tournament, round_no: int | None = None) -> Table:
    """The standings after `round_no` (default: every result so far)."""
    entries = await store.tournament_entries(tournament.id)
    upto = tournament.round if round_no is None else round_no
    boards = [b for b in await store.tournament_boards(tournament.id) if b.round <= upto]
    games = [Pairing(b.round, b.first_id, b.second_id, b.result) for b in boards]
    players = [Entrant(e.user_id, e.rating if e.rating is not None else 0.0) for e in entries]
    changes = rating_changes(entries, boards, await store.game_ratings(tournament.id))
    gone = {e.user_id for e in entries if e.withdrawn}
    late = {e.user_id: e.joined_round for e in entries}
    lines = [
        Line(
            s.rank,
            s.user_id,
            s.points,
            s.buchholz,
            s.sonneborn,
            changes[s.user_id],
            s.user_id in gone,
            late.get(s.user_id, 0),
        )
        for s in standings(players, games)
    ]
    final = tournament.status is TournamentStatus.FINISHED and upto >= tournament.round
    return Table(tournament, registry.game(tournament.game), upto, lines, final)


def rating_changes(
    entries: Sequence[Entry], boards: Sequence[Board], recorded: Sequence[GameRating]
) -> defaultdict[int, float]:
    """What the tournament's own games did to each rating: the changes recorded as each was rated.
    A game rated before they were recorded (migration 0008) is estimated as the bot did then: by
    Elo, from the rating at the start plus the changes of the games before it."""
    start = {e.user_id: e.rating for e in entries if e.rating is not None}
    change: defaultdict[int, float] = defaultdict(float)
    rated = {(g.round, g.board): g for g in recorded}
    for board in sorted(boards, key=lambda b: (b.round, b.board)):
        game = rated.get((board.round, board.board))
        if game is None or board.result is None or board.second_id is None:
            continue  # a bye, or a game not over
        for user, (before, after) in game.changes.items():
            change[user] += after - before
        pair = (board.first_id, board.second_id)
        if game.changes or not game.finished or not set(pair) <= set(start):
            continue  # recorded, or never rated (stopped without a result)
        was = [start[user] + change[user] for user in pair]
        for user, now, then in zip(pair, elo.updated(was[0], was[1], board.result), was, strict=True):
            change[user] += now - then
    return change
