"""The crosstable's and the export's words, for the cog and the console alike: the picture's title and
key, the line above the pictures, and the private answer that carries the files."""

from __future__ import annotations

from data.tournaments import Tournament, TournamentStatus
from play.errors import BadRequest
from play.markup import Markup
from play.tiebreaks import order_said
from play.tournament import TournamentService
from play.tournament_crosstable import NOT_PAIRED, STRUCK, Crosstable, Ended, Mark, crosstable
from play.tournament_formats import is_knockout
from play.tournament_text import _round_over, _standing_at, ranking_said


async def channel_crosstable(
    service: TournamentService, channel_id: int, what: str, found: Tournament | None = None
) -> Crosstable:
    """The crosstable of the channel's tournament (or of `found`, one named by its number) up to the
    round its channel was told of (as its standings are); `what` ("crosstable", "export") words the
    refusal before round 1 is paired."""
    table = await service.standings_of(channel_id, found)
    if table.round <= 0:
        name = service.matches.markup.strong(table.tournament.name)
        if what == "export":
            raise BadRequest(
                f"{name} has not started yet, so there is no game to export: ask again once it has."
            )
        raise BadRequest(
            f"{name} has not started yet: its crosstable begins with round 1's pairings. "
            "`/tournament standings` shows who has signed up."
        )
    return await crosstable(service.db, service.store, table)


def _moment(cross: Crosstable) -> str:
    """Which moment it shows: "after round 2 of 3", "during round 2 of 3", or, of a tournament
    cancelled, "(cancelled in round 2 of 3)" (not "crosstable cancelled in...", which reads as if
    the crosstable were)."""
    t = cross.table.tournament
    at = _standing_at(t, cross.table.round)
    return f"({at})" if t.status is TournamentStatus.CANCELLED else at


def crosstable_title(cross: Crosstable) -> str:
    """ "Club Swiss: crosstable after round 2 of 3" (or during it)."""
    return f"{cross.table.tournament.name}: crosstable {_moment(cross)}"


def crosstable_key(cross: Crosstable) -> str:
    """What the cells mean, said under the title: only the marks this crosstable uses, beyond the
    win, loss and draw every one has."""
    marks = {c.mark for p in cross.players for c in p.cells}
    texts = {c.text for p in cross.players for c in p.cells}
    parts = ["W5 beat no. 5, L lost to, D drew with"]
    if any(r.ended is Ended.FORFEIT for r in cross.records):
        parts.append("+5 and -5 won and lost by forfeit")
    if Mark.BYE in marks:
        parts.append("B a bye and its points")
    if NOT_PAIRED in texts:
        parts.append(f"{NOT_PAIRED} not paired")
    if any(r.ended is Ended.STRUCK for r in cross.records):
        parts.append(f"{STRUCK}5 a game with no. 5 struck out (a withdrawal before half the games)")
    if any(r.ended in (Ended.GOING, Ended.WAITING) for r in cross.records):
        parts.append("a number alone: that game is still going")
    elif Mark.PENDING in marks:  # the tournament was cancelled with games going
        parts.append("a number alone: that game was stopped without a result")
    if any(p.line.withdrawn for p in cross.players):
        parts.append("a grey name has withdrawn")
    return f"{ranking_said(cross.table)} " + "; ".join(parts) + "."


def crosstable_said(cross: Crosstable, markup: Markup, drawn: int) -> str:
    """The words above the pictures; `drawn`: how many players they show (the rest: the export)."""
    t = cross.table.tournament
    said = f"{markup.strong(t.name)}, the crosstable {_moment(cross)}"
    if not _round_over(t, cross.table.round) and t.status is TournamentStatus.RUNNING:
        said += ": a game counts once it ends, a bye at once"
    said += "."
    if drawn < len(cross.players):
        said += (
            f" The pictures show the first {drawn} of the {len(cross.players)} players; "
            "`/tournament export` has everyone's games and standings."
        )
    return said


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _order(cross: Crosstable) -> str:
    """The standings' order as the export's words say it."""
    if is_knockout(cross.table.tournament):
        return "by how far each got in the knockout (the winner first)"
    return f"by points, then {order_said(cross.table.order)}"


def export_said(cross: Crosstable, markup: Markup, games: str, standings: str) -> str:
    """The private answer carrying the two files (`games`, `standings`: their names or paths)."""
    t = cross.table.tournament
    when = "the final results" if cross.table.final else f"the results {_moment(cross)}"
    byes = sum(1 for r in cross.records if r.ended is Ended.BYE)
    played = len(cross.records) - byes
    going = sum(1 for r in cross.records if r.ended in (Ended.GOING, Ended.WAITING))
    counted = _count(played, "game")
    if going:
        counted += f" ({going} still being played, result *)"
    if byes:
        counted += f" and {_count(byes, 'bye')}"
    ends = "played, time, forfeit, bye or stopped"
    if any(r.ended is Ended.STRUCK for r in cross.records):
        ends = "played, time, forfeit, bye, stopped, or struck out by a withdrawal"
    return (
        f"{markup.strong(t.name)}, {when}: {counted}. `{games}` has a row a game or bye (round, board, "
        f"sides, players, result, and how it ended: {ends}); "
        f"`{standings}` a row a player, in standing order: {_order(cross)}. "
        "Comma-separated text, for a spreadsheet or a rating officer."
    )


__all__ = [
    "channel_crosstable",
    "crosstable_key",
    "crosstable_said",
    "crosstable_title",
    "export_said",
]
