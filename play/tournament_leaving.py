"""How a player leaves a tournament (RULES.md "Tournaments": Leaving): off the sign-up list before
the start, withdrawn after it (by their own choice, asked and confirmed, or by an organiser), their
game of the round playing on. A base of `TournamentService`, which holds the store, the match
service and the clock, and finds a channel's tournament.
"""

from __future__ import annotations

from dataclasses import dataclass

from data.tournaments import Board, Tournament, TournamentStatus
from play.errors import BadRequest, NotAPlayer
from play.markup import Markup
from play.tournament_base import TournamentParts
from play.tournament_formats import games_played
from play.tournament_refusals import ORGANISERS_ONLY, closed_text


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """A player leaving a tournament after its start (or an organiser taking them off, before or
    after): `remaining` players are still to be paired without them; `game` is their game of this
    round still going, which plays on (RULES.md "Leaving")."""

    tournament: Tournament
    user_id: int
    remaining: int
    game: Board | None
    played: tuple[int, int] | None = None  # a round-robin's: games paired so far, and in all

    @property
    def ends(self) -> bool:
        """Fewer than 2 players are left: the tournament ends when this round is over."""
        return self.remaining < 2


class Leaving(TournamentParts):
    """`TournamentService`'s withdrawals and removals (it provides the attributes, `open_in`,
    `by_id` and `entries`)."""

    async def leave(self, tournament: Tournament, user_id: int) -> Tournament:
        """Off the sign-up list; once it runs, leaving is a withdrawal (`withdrawal`, `withdraw_from`)."""
        started = "This tournament has started: withdrawing from it is asked and confirmed first."
        if tournament.status is TournamentStatus.RUNNING:
            raise BadRequest(started)
        if tournament.status is not TournamentStatus.SIGNUP:
            raise BadRequest(closed_text(tournament))
        if not await self.store.leave_tournament(tournament.id, user_id, self.clock()):
            if await self._started_with(tournament.id, user_id):
                raise BadRequest(started)
            raise BadRequest("You are not signed up for this tournament.")
        return await self.by_id(tournament.id)

    async def _started_with(self, tournament_id: int, user_id: int) -> Tournament | None:
        """The tournament, if another process started it with `user_id` on its list since it was read:
        a leave or a removal the start overtook is told that, not that they were not signed up."""
        fresh = await self.by_id(tournament_id)
        if fresh.status is TournamentStatus.RUNNING and any(
            e.user_id == user_id for e in await self.entries(fresh)
        ):
            return fresh
        return None

    async def withdrawal(self, tournament: Tournament, user_id: int, *, own: bool = True) -> Withdrawal:
        """What withdrawing `user_id` from a running tournament would do (shown before they confirm),
        or a refusal saying why not (`own`: they asked, else an organiser names them)."""
        them = self.matches.markup.mention(user_id)
        if tournament.status is not TournamentStatus.RUNNING:
            raise BadRequest(closed_text(tournament))
        entries = await self.entries(tournament)
        entry = next((e for e in entries if e.user_id == user_id), None)
        if entry is None:
            raise BadRequest(f"{'You are' if own else f'{them} is'} not playing in this tournament.")
        if entry.withdrawn:
            raise BadRequest(
                "You have already withdrawn from this tournament: you will not be paired again."
                if own
                else f"{them} has already withdrawn, left the server or been removed: they will not be "
                "paired again."
            )
        remaining = sum(1 for e in entries if not e.withdrawn and e.user_id != user_id)
        boards = await self.store.tournament_boards(tournament.id)
        played = games_played(tournament, entries, boards, user_id)  # a round-robin's rule needs it
        return Withdrawal(tournament, user_id, remaining, await self._going(tournament, user_id), played)

    async def _going(self, tournament: Tournament, user_id: int) -> Board | None:
        """`user_id`'s game of the tournament's current round, if it is still going."""
        boards = await self.store.tournament_boards(tournament.id)
        matches = await self.store.round_matches(tournament.id, tournament.round)
        going = [
            b
            for b in boards
            if b.round == tournament.round
            and user_id in (b.first_id, b.second_id)
            and b.second_id is not None
            and b.result is None
            and (b.board not in matches or matches[b.board].status.is_open)
        ]
        return going[0] if going else None

    async def withdraw_from(
        self, tournament_id: int, user_id: int, *, own: bool = True, by: int | None = None
    ) -> Withdrawal:
        """Withdraw a player from a running tournament: never paired again, their game of this round
        (if still going) plays on, their results stand (the rounds they then sit out count as
        draws in their opponents' tiebreaks). The game is read again after the write: a round
        paired just before it (with them) is the one that plays on."""
        ahead = await self.withdrawal(await self.by_id(tournament_id), user_id, own=own)
        if not await self.store.withdraw_entry(tournament_id, user_id, self.clock(), by):
            # it moved on meanwhile: the refusal that now applies
            await self.withdrawal(await self.by_id(tournament_id), user_id, own=own)
            raise BadRequest("The tournament changed just now; try again.")
        now = await self.by_id(tournament_id)
        boards = await self.store.tournament_boards(tournament_id)  # a round paired meanwhile counts
        played = games_played(now, await self.entries(now), boards, user_id)
        return Withdrawal(now, user_id, ahead.remaining, await self._going(now, user_id), played)

    async def remove(
        self, channel_id: int, user_id: int, *, organiser: bool, by: int | None = None
    ) -> Withdrawal:
        """An organiser (`by`) takes a player off: off the sign-up list before the start, and their
        own join refused until an organiser puts them back (`reinstate`); withdrawn after (undone
        with `reinstate` until the next round is paired)."""
        tournament = await self.open_in(channel_id)
        if not organiser:
            raise NotAPlayer(ORGANISERS_ONLY.format("remove a player"))
        if tournament.status is TournamentStatus.RUNNING:
            if by != user_id:
                await self._not_a_rival(
                    tournament, by, "remove a player", "a removed player is out of the running"
                )
            return await self.withdraw_from(tournament.id, user_id, own=False, by=by or 0)
        if not await self.store.remove_signup(tournament.id, user_id, self.clock(), by or 0):
            them = self.matches.markup.mention(user_id)
            if fresh := await self._started_with(tournament.id, user_id):
                name = self.matches.markup.strong(fresh.name)
                raise BadRequest(
                    f"{name} started just now, with {them} in it: remove them again to withdraw them from it."
                )
            if await self.store.removed_by(tournament.id, user_id) is not None:
                raise BadRequest(f"{them} is off the sign-up list already: an organiser took them off.")
            if await self.store.signed_up_once(tournament.id, user_id):  # their leave came first
                raise BadRequest(left_already_text(tournament, user_id, self.matches.markup))
            raise BadRequest(f"{them} is not signed up for this tournament.")
        left = await self.entries(tournament)
        return Withdrawal(await self.by_id(tournament.id), user_id, len(left), None)


def left_already_text(tournament: Tournament, user_id: int, markup: Markup) -> str:
    """An organiser's removal that a player's own leave overtook (or came after it): nothing to take
    off, and their own join is not barred; when they left is not kept, so it is not said."""
    them, name = markup.mention(user_id), markup.strong(tournament.name)
    return (
        f"{them} had already left the sign-up list of {name} (themselves, or by leaving the server), "
        "so there was nobody to remove. If they sign up again, you can remove them then."
    )


__all__ = ["Leaving", "Withdrawal", "left_already_text"]
