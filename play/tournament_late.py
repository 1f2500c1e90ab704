"""Late entry (RULES.md "Tournaments": Late entry): a player may join a running tournament while the
round under way is at most half its rounds, so they play at least as many rounds as they miss. Each
round they missed is theirs without a game, a zero-point bye: it scores nothing, and counts in the
tie-breaks as any round without a game does (play/swiss.py `standings`). Their sign-up input (the
id mixed into their games' dice) is taken at that moment like any other, and kept (migration 0015).
"""

from __future__ import annotations

from data import Database
from data.tournaments import Entry, LateRefused, Tournament, TournamentStatus, TournamentStore
from play.errors import BadRequest
from play.markup import Markup
from play.tournament_formats import cap, full_refusal, is_knockout, is_round_robin
from play.tournament_refusals import closed_text, removed_text


def late_open(tournament: Tournament) -> bool:
    """Whether a latecomer may still join: it runs, and the round under way is at most half the
    rounds (a round is paired as the one before ends, so joining in round 2 of 4 plays 3 and 4);
    never a round-robin or a knockout, whose table of games or bracket was set at its start."""
    fixed = is_round_robin(tournament) or is_knockout(tournament)
    running = tournament.status is TournamentStatus.RUNNING and not fixed
    return running and tournament.round * 2 <= tournament.rounds


def last_late_round(tournament: Tournament) -> int:
    """The last round during which a latecomer may join."""
    return tournament.rounds // 2


def _rounds(n: int) -> str:
    """ "round 1", "rounds 1 and 2", "rounds 1 to 3"."""
    if n == 1:
        return "round 1"
    return "rounds 1 and 2" if n == 2 else f"rounds 1 to {n}"


def _missed(n: int, who: str, tense: str) -> str:
    """ "round 1, which you miss, counts 0 points"; "rounds 1 and 2, which they missed, count 0 points"."""
    return f"{_rounds(n)}, which {who} {tense}, count{'s' if n == 1 else ''} 0 points"


def missed_by_them(n: int) -> str:
    """ "round 1, which they missed, counts 0 points", of a latecomer the channel is told about."""
    return _missed(n, "they", "missed")


def late_closed_text(tournament: Tournament, markup: Markup) -> str:
    """Why a latecomer may not join, and what is possible."""
    name = markup.strong(tournament.name)
    if tournament.status is not TournamentStatus.RUNNING:
        return closed_text(tournament)
    if is_round_robin(tournament):
        return (
            f"{name} is a round-robin and has begun: its table of who meets whom was set at the start "
            "for the players then, so nobody can join it now. Look out for the next tournament in "
            "this channel."
        )
    if is_knockout(tournament):
        return (
            f"{name} is a knockout and has begun: its bracket was drawn from the players at the start, "
            "so nobody can join it now. Look out for the next tournament in this channel."
        )
    if last_late_round(tournament) == 0:
        return (
            f"{name} has only {tournament.rounds} round and it has begun, so it is too late to join: "
            "a latecomer must still have at least as many rounds to play as they miss. Look out for the "
            "next tournament in this channel."
        )
    return (
        f"{name} is in round {tournament.round} of {tournament.rounds}, so it is too late to join: a "
        "latecomer may join only while at most half the rounds have begun (here until round "
        f"{last_late_round(tournament)} ends), so they still play at least as many rounds as they "
        "miss. Look out for the next tournament in this channel."
    )


def started_meanwhile_text(tournament: Tournament, markup: Markup) -> str:
    """A sign-up that the start overtook: it did not count, and joining late is still possible."""
    name = markup.strong(tournament.name)
    if not late_open(tournament):
        return late_closed_text(tournament, markup)
    return (
        f"{name} started just before your sign-up, so round 1 was paired without you. You may still "
        f"join late: join again to play from round {tournament.round + 1}; "
        f"{_missed(tournament.round, 'you', 'miss')}."
    )


def in_already_text(entry: Entry, tournament: Tournament, markup: Markup) -> str:
    """Why someone already on the list cannot join again: in, withdrawn, or removed."""
    if not entry.withdrawn:
        return "You are already playing in this tournament."
    when = f" in round {entry.withdrawn_round}" if entry.withdrawn_round else ""
    if entry.withdrawn_by is None:
        return (
            f"You withdrew from {markup.strong(tournament.name)}{when} (or left the server), and a "
            "withdrawal cannot be undone, so you cannot join it again."
        )
    if entry.withdrawn_round == tournament.round:
        return (
            f"An organiser removed you from {markup.strong(tournament.name)}{when}. Only an organiser "
            "can put you back (`/tournament reinstate`), and only until the next round is "
            "paired: ask one of them."
        )
    return (
        f"An organiser removed you from {markup.strong(tournament.name)}{when}, and a round has been "
        "paired since, so it can no longer be undone."
    )


def late_joined_text(tournament: Tournament, joined_round: int, markup: Markup) -> str:
    """A latecomer's own answer: the rounds they missed, what those count, when their first game is."""
    missed = _rounds(joined_round)
    count = "counts" if joined_round == 1 else "each count"
    first = joined_round + 1
    ends = markup.deadline(tournament.round_ends_at or 0.0)
    return (
        f"You are in {markup.strong(tournament.name)} from round {first} of {tournament.rounds}. "
        f"You missed {missed}: {'it' if joined_round == 1 else 'they'} {count} as a bye without "
        f"points (0) in the standings and the tie-breaks. Round {first} is paired when round "
        f"{joined_round} ends ({ends} at the latest); your game then gets a thread in this channel, "
        "where you are pinged (`/wargames notify` also tells you by DM)."
    )


def late_notice(tournament: Tournament, user_id: int, joined_round: int, markup: Markup) -> str:
    """One line in the tournament's channel: who joined late, from which round."""
    return (
        f"{markup.mention(user_id)} joined {markup.strong(tournament.name)} late: they play from round "
        f"{joined_round + 1}, and {_missed(joined_round, 'they', 'missed')}."
    )


async def join_late(
    store: TournamentStore,
    db: Database,
    markup: Markup,
    now: float,
    tournament: Tournament,
    user_id: int,
    given: str,
) -> Tournament:
    """Sign a latecomer up to a running tournament at `now` with the input `given`; a refusal says
    why not and what is possible. Their rating in the game now orders them in the next pairing.
    The cap, the round and a removal read here are checked again by the store's write; refused, it
    says why from what the write found (`LateRefused`, read under its lock), not from a read after."""

    def theirs(entries: list[Entry]) -> Entry | None:
        return next((e for e in entries if e.user_id == user_id), None)

    mine = theirs(await store.tournament_entries(tournament.id))
    if mine is not None:
        raise BadRequest(in_already_text(mine, tournament, markup))
    if not late_open(tournament):
        raise BadRequest(late_closed_text(tournament, markup))
    if await store.removed_by(tournament.id, user_id) is not None:  # taken off before the start
        raise BadRequest(removed_text(tournament, markup))
    rating = (await db.player_stats(tournament.guild_id, tournament.game, user_id)).rating
    refused = await store.join_late(tournament.id, user_id, now, rating, given, cap(tournament))
    if isinstance(refused, LateRefused):
        # moved on meanwhile (a round paired, a join in another process took the last place)
        fresh, entries = refused.tournament, refused.entries
        mine = theirs(entries)
        if mine is not None:
            raise BadRequest(in_already_text(mine, fresh, markup))
        if late_open(fresh) and refused.removed_by is not None:
            raise BadRequest(removed_text(fresh, markup))  # the write refused it
        if late_open(fresh) and (full := full_refusal(fresh, entries, user_id, markup.strong(fresh.name))):
            raise BadRequest(full)  # the write counted the players again
        raise BadRequest(late_closed_text(fresh, markup))
    return await store.get_tournament(tournament.id) or tournament


__all__ = [
    "in_already_text",
    "join_late",
    "late_closed_text",
    "late_joined_text",
    "late_notice",
    "late_open",
    "missed_by_them",
    "started_meanwhile_text",
]
