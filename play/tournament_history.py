"""A server's tournaments past and present: the list `/tournament past` shows, and the
finding of one by its number for `standings`, `crosstable` and `export` (the service's `round_of`
takes one too), so a club reaches last season's results once its channel holds the next one. A
base of `TournamentService`, with the words both adapters say.

What is private (RULES.md, "What is private"): a tournament lives in one channel, and its list,
its number's answers and the autocomplete show only those of channels the asker can view now
(`sees`, the adapter's answer; the console sees every one). A number of another server's
tournament, of one in a channel the asker cannot view, or of none, is answered in the same words,
so nothing is told of what exists where they cannot look.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from data.tournaments import Held, Tournament, TournamentStatus
from engine import registry
from play.errors import BadRequest
from play.markup import Markup
from play.privacy import Sees
from play.tournament_base import TournamentParts
from play.tournament_formats import FORMAT_NAMES, SWISS
from play.tournament_table import Table

SHOWN = 12  # at most this many lines in one answer; the rest are counted, and reached by number
BUDGET = 1900  # of the 2,000 characters a Discord message holds: the lines stop before this
CHOICES = 25  # the autocomplete's choices (Discord shows 25 at most)


def no_such_text(number: int) -> str:
    """The answer to a number that names no tournament the asker may read here: the same words
    whether it is another server's, one in a channel they cannot view, or none at all."""
    return (
        f"There is no tournament with the number {number} here: `/tournament past` lists this "
        "server's tournaments with their numbers."
    )


@dataclass(frozen=True, slots=True)
class Past:
    """One line of the list: the tournament, when it began or ended, and, once it is over, who came
    first as its final standings say (several: a shared first place)."""

    held: Held
    winners: tuple[int, ...] = ()


class History(TournamentParts):
    """`TournamentService`'s list of a server's tournaments and its finding of one by number."""

    async def standings_of(self, channel_id: int, found: Tournament | None = None) -> Table:
        raise NotImplementedError  # TournamentService's

    async def held(self, guild_id: int, sees: Sees | None = None) -> list[Held]:
        """The server's tournaments in channels the asker can view (`sees`; None: all), newest first."""
        every = await self.store.guild_tournaments(guild_id)
        if sees is None or not every:
            return every
        seen = set(await sees(frozenset(h.tournament.channel_id for h in every)))
        return [h for h in every if h.tournament.channel_id in seen]

    async def numbered(self, number: int, guild_id: int, sees: Sees | None = None) -> Tournament:
        """The tournament numbered `number`, if it is this server's and in a channel the asker can
        view; otherwise one refusal for every case (`no_such_text`)."""
        found = await self.store.get_tournament(number)
        if found is None or found.guild_id != guild_id:
            raise BadRequest(no_such_text(number))
        if sees is not None and found.channel_id not in set(await sees(frozenset((found.channel_id,)))):
            raise BadRequest(no_such_text(number))
        return found

    async def past(self, guild_id: int, sees: Sees | None = None) -> tuple[list[Past], int]:
        """The newest `SHOWN` tournaments the asker can see, each finished one with its winners, and
        how many older ones they can see besides."""
        every = await self.held(guild_id, sees)
        shown = []
        for held in every[:SHOWN]:
            t = held.tournament
            winners: tuple[int, ...] = ()
            if t.status is TournamentStatus.FINISHED:
                winners = tuple((await self.standings_of(t.channel_id, t)).winners)
            shown.append(Past(held, winners))
        return shown, len(every) - len(shown)


def _and(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _kind(t: Tournament) -> str:
    """The game and the format, each left out where the tournament's name says it already (the
    default name is the game's title and the format)."""
    try:
        game = registry.game(t.game).title
    except registry.UnknownGame:
        game = t.game
    form = FORMAT_NAMES.get(t.format, t.format)
    form = form if t.format == SWISS else form.lower()
    said = [w for w in (game, form) if w.lower() not in t.name.lower()]
    return f" ({', '.join(said)})" if said else ""


def _status(past: Past, markup: Markup) -> str:
    """Where it stands, dated: who won and when it ended, when it was cancelled, which round is
    under way, or since when it takes sign-ups."""
    t, held = past.held.tournament, past.held
    if t.status is TournamentStatus.FINISHED:
        names = [markup.mention(u) for u in past.winners]
        if not names:
            won = "finished"
        elif len(names) == 1:
            won = f"won by {names[0]}"
        else:
            won = f"{_and(names)} shared first place"
        return f"{won}; ended {markup.day(held.changed_at)}"
    if t.status is TournamentStatus.CANCELLED:
        when = "before it began" if t.round == 0 else f"in round {t.round} of {t.rounds}"
        return f"cancelled {when} on {markup.day(held.changed_at)}"
    if t.status is TournamentStatus.RUNNING:
        began = f"; began {markup.day(held.began_at)}" if held.began_at is not None else ""
        return f"round {t.round} of {t.rounds} under way{began}"
    return f"taking sign-ups since {markup.day(t.created_at)}"


def past_line(past: Past, markup: Markup) -> str:
    """One tournament on one short line: number, name, game and format, channel, state and date."""
    t = past.held.tournament
    where = markup.channel(t.channel_id)
    return f"No. {t.id} {markup.strong(t.name)}{_kind(t)} in {where}: {_status(past, markup)}."


def past_text(shown: Sequence[Past], more: int, markup: Markup, command: str) -> str:
    """The list, newest first, within one message; the lines that do not fit are counted with the
    older ones, and how to reach any of them by its number is said (`command`: the adapter's way of
    naming a command, "/tournament")."""
    if not shown:
        return f"No tournament to show here yet. An organiser opens one in a channel with `{command} create`."
    head = "This server's tournaments, newest first:"
    over = [p for p in shown if not p.held.tournament.status.is_open]  # the likeliest to be asked of
    example = (over or list(shown))[0].held.tournament.id
    tail = (
        f"Give a number as `tournament:` to `standings`, `crosstable`, `export` or `round`, e.g. "
        f"`{command} standings tournament:{example}`."
    )
    lines: list[str] = []
    size = len(head) + len(tail) + 120  # room for the count of those left out
    for past in shown:
        line = past_line(past, markup)
        if size + len(line) + 1 > BUDGET:
            break
        lines.append(line)
        size += len(line) + 1
    left = more + len(shown) - len(lines)
    if left:
        older = "older one" if left == 1 else "older ones"
        tail = f"…and {left} {older}: type its name or number in `tournament:` to find it. {tail}"
    return "\n".join([head, *lines, tail])


def choice_label(held: Held) -> str:
    """An autocomplete choice: "No. 7 Spring Swiss: finished" (Discord's 100 characters)."""
    t = held.tournament
    state = {
        TournamentStatus.FINISHED: "finished",
        TournamentStatus.CANCELLED: "cancelled",
        TournamentStatus.RUNNING: f"round {t.round} of {t.rounds}",
        TournamentStatus.SIGNUP: "taking sign-ups",
    }[t.status]
    return f"No. {t.id} {t.name}: {state}"[:100]


def choices(held: Sequence[Held], typed: str) -> list[Held]:
    """The tournaments whose number begins with, or whose name holds, what was typed (all of them
    when nothing was), newest first, as many as the list shows."""
    needle = typed.strip().lower().removeprefix("no.").strip()
    found = [
        h
        for h in held
        if not needle or str(h.tournament.id).startswith(needle) or needle in h.tournament.name.lower()
    ]
    return found[:CHOICES]


__all__ = [
    "CHOICES",
    "SHOWN",
    "History",
    "Past",
    "choice_label",
    "choices",
    "no_such_text",
    "past_line",
    "past_text",
]
