"""What the parts of `TournamentService` (play/tournament.py) share: the store, the match service
and the clock it holds, and the finding of a tournament it provides. Each part (the sweep,
the organiser's tools, leaving) is a base of the service, split by idea; declaring these once keeps
them typed alike.
"""

from __future__ import annotations

from collections.abc import Callable

from data import Database
from data.tournaments import Entry, Tournament, TournamentStore
from play.errors import NotAPlayer
from play.service import MatchService
from play.tournament_refusals import interested_text


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

    async def _not_a_rival(self, tournament: Tournament, by: int | None, what: str, why: str) -> None:
        """Refuse an organiser (`by`) who still plays in `tournament` a tool that decides a rival's
        result or place (RULES.md "An organiser who plays"): `what` they tried, `why` it is theirs
        to gain by. Another organiser, or a member who may manage the server, does it."""
        if by is None or not by:
            return
        if any(e.user_id == by and not e.withdrawn for e in await self.entries(tournament)):
            raise NotAPlayer(interested_text(what, why))


__all__ = ["TournamentParts"]
