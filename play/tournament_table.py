"""A tournament's standings as posted: points and tiebreaks (play/swiss.py), and the rating change
its own games made, read from what each result recorded (migration 0008) rather than replayed."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from data import elo
from data.tournaments import Board, Entry, GameRating, Tournament, TournamentStatus, TournamentStore
from engine import registry
from engine.protocol import Game
from play import knockout
from play.knockout import Tie
from play.swiss import Entrant, Pairing
from play.tiebreaks import Tiebreak, ranked
from play.tournament_formats import (
    counted,
    entrants,
    forfeit_wins,
    gone_in,
    is_knockout,
    order,
    struck_meetings,
)


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
    tiebreaks: tuple[float, ...] = ()  # in the tournament's order (`Table.order`)


@dataclass(frozen=True, slots=True)
class Table:
    """The standings of a tournament after `round` rounds (`final`: the last)."""

    tournament: Tournament
    game: Game
    round: int
    lines: list[Line]
    final: bool
    order: tuple[Tiebreak, ...] = (Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN)
    # a round-robin's forfeit wins, the next round's too: (round, winner) -> the withdrawn player
    forfeits: dict[tuple[int, int], int] = field(default_factory=dict)
    # a round-robin's players left without a game, the next round's too: (round, player) -> whom they
    # were to meet, a withdrawn player whose games are struck out
    unmet: dict[tuple[int, int], int] = field(default_factory=dict)
    # a knockout's bracket as it stands after `round` (each round's ties; empty in other formats)
    bracket: list[list[Tie]] = field(default_factory=list)

    @property
    def heads(self) -> tuple[str, str]:
        """The headings of the two tie-break columns a picture shows: the first two of the order."""
        return (self.order[0].short, self.order[1].short)

    def values(self, line: Line) -> tuple[float, ...]:
        """A line's tie-breaks in the order (a line made without them: its Buchholz and SB)."""
        return line.tiebreaks or (line.buchholz, line.sonneborn)

    def shown(self, line: Line) -> tuple[float, float]:
        """A line's values in the two columns."""
        first, second, *_ = self.values(line)
        return (first, second)

    @property
    def winners(self) -> list[int]:
        return [line.user_id for line in self.lines if line.rank == 1]


async def table(store: TournamentStore, tournament: Tournament, round_no: int | None = None) -> Table:
    """The standings after `round_no` (default: every result so far)."""
    entries = await store.tournament_entries(tournament.id)
    upto = tournament.round if round_no is None else round_no
    every = await store.tournament_boards(tournament.id)
    boards = [b for b in every if b.round <= upto]
    played = [Pairing(b.round, b.first_id, b.second_id, b.result) for b in boards]
    games = counted(tournament, entries, played)  # a round-robin strikes out some (RULES.md)
    players = [Entrant(e.user_id, e.rating if e.rating is not None else 0.0) for e in entries]
    changes = rating_changes(entries, boards, await store.game_ratings(tournament.id))
    gone = {e.user_id for e in entries if e.withdrawn}
    late = {e.user_id: e.joined_round for e in entries}
    breaks = order(tournament)
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
            values,
        )
        for s, values in ((r.standing, r.values) for r in ranked(players, games, breaks))
    ]
    final = tournament.status is TournamentStatus.FINISHED and upto >= tournament.round
    tree: list[list[Tie]] = []
    if is_knockout(tournament):  # ranked by how far each got, not by points (RULES.md "Knockout")
        seeds = knockout.seeded(entrants(entries))
        left = {u: r for u, r in gone_in(tournament, entries).items() if r <= upto}
        tree = knockout.bracket(seeds, played, left, upto)
        place = knockout.places(seeds, played, left)
        lines = sorted(
            (replace(x, rank=place.get(x.user_id, 1)) for x in lines),
            key=lambda x: (x.rank, seeds.index(x.user_id) if x.user_id in seeds else 0),
        )
    forfeits = forfeit_wins(tournament, entries, every)  # the round paired after `upto` is announced with it
    unmet = struck_meetings(tournament, entries, every)
    game = registry.game(tournament.game)
    return Table(tournament, game, upto, lines, final, breaks, forfeits, unmet, tree)


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
