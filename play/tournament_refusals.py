"""Why a tournament command cannot be done now, and what to do instead: the refusals the service
raises (play/tournament.py), worded once for the cog and the console. Split from the service, whose
size said it held two jobs."""

from __future__ import annotations

from data.tournaments import Tournament, TournamentStatus
from play.markup import Markup

ORGANISERS_ONLY = "Only members who can manage the server, or hold its tournament organiser role, may {}."


def interested_text(what: str, why: str) -> str:
    """An organiser who plays in the tournament refused a tool that decides a rival's result or place
    (`what`, e.g. "end a no-show's game"; `why`, how it could serve their own standing)."""
    return (
        f"You cannot {what}: you play in this tournament, and {why}. Ask another organiser, or a "
        "member who can manage the server."
    )


def closed_text(tournament: Tournament) -> str:
    """A sign-up or start refused: the tournament is past taking them."""
    if tournament.status is TournamentStatus.CANCELLED:
        return "This tournament was cancelled."
    if tournament.status is TournamentStatus.FINISHED:
        return "This tournament is over."
    return "This tournament has started: sign-ups are closed."


def begun_text(tournament: Tournament, markup: Markup) -> str:
    """The answer to a second `start`: what the bot does next by itself, and when (it said only
    that the tournament had started, and an organiser was left to wonder how to begin round 2)."""
    if tournament.status is not TournamentStatus.RUNNING:
        return closed_text(tournament)
    ends = markup.deadline(tournament.round_ends_at or 0.0)
    return (
        f"This tournament has already started: round {tournament.round} of {tournament.rounds} ends "
        f"{ends}, or as soon as its games are over. Then the standings are posted and the next round "
        "is paired by itself; `/tournament round` shows how each game stands."
    )


def busy_text(here: Tournament | None, markup: Markup) -> str:
    """Why a second tournament may not be made in a channel: the one it runs (`here`), named, and
    where it stands (it said only "a tournament", leaving an organiser to guess whose and how far)."""
    if here is None:  # it ended just now
        return "This channel ran a tournament a moment ago: try again."
    state = (
        "taking sign-ups"
        if here.status is TournamentStatus.SIGNUP
        else f"in round {here.round} of {here.rounds}"
    )
    return (
        f"This channel already runs a tournament, {markup.strong(here.name)} ({state}), and a channel "
        "holds one at a time. Make the new one in another channel, or wait for this one to end (an "
        "organiser may cancel it)."
    )


def none_open_text(last: Tournament | None, markup: Markup) -> str:
    """A command for a running tournament in a channel that runs none: its last one, if it had one
    (it said "runs no tournament" to an organiser just after the final standings)."""
    if last is None:
        return "This channel runs no tournament: `/tournament create` starts one."
    ended = "was cancelled" if last.status is TournamentStatus.CANCELLED else "is over"
    return (
        f"{markup.strong(last.name)}, this channel's last tournament, {ended}; "
        "`/tournament create` starts a new one."
    )


def removed_text(tournament: Tournament, markup: Markup) -> str:
    """A join refused: an organiser took the player off the sign-up list (RULES.md "Leaving"), and
    only an organiser may put them back; before the start or after it (migration 0018)."""
    return (
        f"An organiser took you off the list of {markup.strong(tournament.name)}; ask them to put you "
        "back (`/tournament reinstate`)."
    )


__all__ = ["ORGANISERS_ONLY", "begun_text", "busy_text", "closed_text", "none_open_text", "removed_text"]
