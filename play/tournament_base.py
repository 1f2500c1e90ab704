"""What the parts of `TournamentService` (play/tournament.py) share: the store, the match service
and the clock it holds, and the finding of a tournament it provides. Each part (the sweep,
the organiser's tools, leaving) is a base of the service, split by idea; declaring these once keeps
them typed alike.
"""

from __future__ import annotations

from collections.abc import Callable

from data import Database
from data.tournaments import Entry, Tournament, TournamentStore
from play import knockout
from play.errors import NotAPlayer
from play.service import MatchService
from play.swiss import Pairing
from play.tournament_formats import entrants, gone_in, is_knockout
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
            if is_knockout(tournament) and by not in await self._in_the_bracket(tournament):
                return  # out of the knockout: no result or place of theirs hangs on it any more
            raise NotAPlayer(interested_text(what, why))

    async def _in_the_bracket(self, tournament: Tournament) -> list[int]:
        """The knockout's players not yet out by the results recorded so far (a tie whose game just
        ended counts as undecided until the sweep records it)."""
        entries = await self.entries(tournament)
        every = await self.store.tournament_boards(tournament.id)
        games = [Pairing(b.round, b.first_id, b.second_id, b.result) for b in every]
        return knockout.still_in(knockout.seeded(entrants(entries)), games, gone_in(tournament, entries))


__all__ = ["TournamentParts"]
