"""An organiser extends the running round (RULES.md "Tournaments": Extending a round): its end
moves later, and each game of it still going gives both its players the same time on their game
clocks, half the extension each, as each player's clock holds half the round. A base of
`TournamentService`, with the words both adapters post.

Why no pause: a pause stops every clock of the round until an organiser resumes it, and a round
forgotten paused holds every player of it; an extension asks for one number, ends by itself, and
does for a slow round what a pause would. A player's own absence has `/wargames away`.
"""

from __future__ import annotations

from dataclasses import dataclass

from data import Status
from data.tournaments import Tournament
from play.errors import BadRequest, NotAPlayer
from play.markup import Markup
from play.tournament_base import TournamentParts
from play.tournament_formats import is_knockout
from play.words import duration_text

HOUR = 3600
MIN_HOURS, MAX_HOURS = 1, 7 * 24  # a week at a time; asked again, it extends again


@dataclass(frozen=True, slots=True)
class Extended:
    """A round extended by `hours` by `by`: `tournament` with its new end; `games` how many of the
    round's games still going were given time (each player half the extension)."""

    tournament: Tournament
    hours: int
    games: int
    by: int


class Extending(TournamentParts):
    """`TournamentService`'s extension of a round (it provides the attributes and `open_in`)."""

    async def extend(self, channel_id: int, hours: int, *, organiser: bool, by: int) -> Extended:
        """Move the running round's end `hours` later and give each player of its games still going
        half of that on their game clock. Refused, saying why, with no running round, a round whose
        time is up or whose games are all over (it closes by itself), or hours out of bounds.
        A game already over, a loss on time already due included, keeps its result."""
        tournament = await self._running_in(channel_id, organiser, "extend a round")
        name, r = self.matches.markup.strong(tournament.name), tournament.round
        if not MIN_HOURS <= hours <= MAX_HOURS:
            raise BadRequest(
                f"A round is extended by {MIN_HOURS} to {MAX_HOURS} hours at a time (a week); "
                "extend it again for more."
            )
        now = self.clock()
        if tournament.round_ends_at is None or tournament.round_ends_at <= now:
            raise BadRequest(
                f"The time of round {r} of {name} is up: it is being closed, and cannot be extended."
            )
        boards = [b for b in await self.store.tournament_boards(tournament.id) if b.round == r]
        matches = await self.store.round_matches(tournament.id, r)
        going = [
            b
            for b in boards
            if b.second_id is not None
            and b.result is None
            and (b.board not in matches or matches[b.board].status.is_open)
        ]
        if not going:
            raise BadRequest(
                f"Every game of round {r} of {name} is over: the round closes by itself within a "
                "minute, and there is nothing to extend."
            )
        if any(by in (b.first_id, b.second_id) for b in going):
            # an organiser short of time on their own clock would be its first to gain (RULES.md
            # "An organiser who plays"): the same for both players of a game is not the same to both
            raise NotAPlayer(
                f"You cannot extend round {r} of {name} while your own game of it is still going: the "
                "time would go on your own clock as well. Ask another organiser, or a member who can "
                "manage the server; once your game is over, you may."
            )
        if is_knockout(tournament) and by in await self._in_the_bracket(tournament):
            # the ties still going decide whom they meet next, and an extension saves whichever
            # player of a tie is short of time (RULES.md "An organiser who plays")
            raise NotAPlayer(
                f"You cannot extend round {r} of {name} while you are still in the knockout: the games "
                "still going decide whom you meet next, and the time would save whichever player of a "
                "game is running short. Ask another organiser, or a member who can manage the server."
            )
        if not await self.store.lengthen_round(tournament.id, r, hours * HOUR, now):
            raise BadRequest(f"Round {r} of {name} changed just now (it may have ended): look and try again.")
        given = 0
        for board in going:
            match = matches.get(board.board)
            if match is None or match.status is not Status.ACTIVE:
                continue  # not begun yet: it gets its whole clock when it begins
            if await self.matches.give_time(match.id, hours * HOUR / 2) is not None:
                given += 1
        return Extended(await self.by_id(tournament.id), hours, given, by)


def extended_text(done: Extended, markup: Markup) -> str:
    """Said in the tournament's channel: who extended which round, its new end, and what each
    player of a game still going gained (nobody is pinged: it is good news with nothing to do)."""
    t = done.tournament
    head = (
        f"{markup.mention(done.by)} extended round {t.round} of {markup.strong(t.name)} by "
        f"{duration_text(done.hours * HOUR)}: it now ends {markup.deadline(t.round_ends_at or 0.0)}."
    )
    half = duration_text(done.hours * HOUR // 2)
    if done.games == 0:
        return (
            f"{head} No game's clock changed: a game not begun yet gets its whole clock when it "
            "begins, and a turn already overdue is decided as it was."
        )
    games = "the game still going" if done.games == 1 else f"each of the {done.games} games still going"
    return f"{head} Both players of {games} have {half} more on their game clocks. Results already in stand."


__all__ = ["MAX_HOURS", "MIN_HOURS", "Extended", "Extending", "extended_text"]
