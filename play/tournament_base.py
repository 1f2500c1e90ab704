"""What the parts of `TournamentService` (play/tournament.py) share: the store, the match service
and the clock it holds, and the finding of a tournament it provides. Each part (the sweep,
the organiser's tools, leaving) is a base of the service, split by idea; declaring these once keeps
them typed alike.
"""

from __future__ import annotations

from collections.abc import Callable

from data import Database
from data.tournaments import Entry, Tournament, TournamentStore
from play.service import MatchService


class TournamentParts:
    """The attributes `TournamentService` sets and the lookups it defines, for its bases."""

    store: TournamentStore
    db: Database
    matches: MatchService
    clock: Callable[[], float]

    async def open_in(self, channel_id: int) -> Tournament:
        raise NotImplementedError  # TournamentService's

    async def by_id(self, tournament_id: int, channel_id: int | None = None) -> Tournament:
        raise NotImplementedError  # TournamentService's

    async def entries(self, tournament: Tournament) -> list[Entry]:
        raise NotImplementedError  # TournamentService's

    async def _running_in(self, channel_id: int, organiser: bool, what: str) -> Tournament:
        raise NotImplementedError  # Organising's: the channel's running tournament, for an organiser


__all__ = ["TournamentParts"]
