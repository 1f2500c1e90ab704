"""What a tournament says in its channel: shared by the Discord cog and the console.

Each function takes the adapter's `Markup` (play/markup.py): a player is named as a mention in
Discord and as @name in the console, a time as a live timestamp or a local time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from data.tournaments import Board, Entry, Tournament, TournamentStatus
from engine.protocol import Game
from play.markup import Markup
from play.present import terms_text
from play.tournament import DAY
from play.tournament_table import Table


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _points(value: float) -> str:
    whole = int(value + 1e-9)
    if value - whole >= 0.5 - 1e-9:
        return f"{whole}½" if whole else "½"
    return str(whole)


def options_text(game: Game, tournament: Tournament) -> str:
    """The game's optional rules and limits, worded as a challenge states them."""
    return terms_text(game, tournament.options)


def signup_text(
    game: Game, tournament: Tournament, entries: Sequence[Entry], markup: Markup, *, buttons: bool = True
) -> str:
    """The sign-up message: what, how long, who is in, what to do (`buttons`: under it)."""
    days = tournament.round_seconds // DAY
    head = (
        f"{markup.strong(tournament.name)}: a Swiss tournament of {game.title}, "
        f"{_plural(tournament.rounds, 'round')} of {_plural(days, 'day')} each."
        f"{options_text(game, tournament)}"
    )
    if tournament.status is TournamentStatus.CANCELLED:
        return f"{head}\nThis tournament was cancelled."
    if tournament.status is not TournamentStatus.SIGNUP:
        players = ", ".join(markup.mention(e.user_id) for e in entries)
        return f"{head}\nSign-ups are closed. Players ({len(entries)}): {players}."
    if not entries:
        listed = "Nobody has signed up yet."
    else:
        listed = f"Signed up ({len(entries)}): " + ", ".join(markup.mention(e.user_id) for e in entries) + "."
    how = (
        f"Press {markup.strong('Join')} to play (or {markup.strong('Leave')} to change your mind)"
        if buttons
        else "Type `/wargames tournament join` to play (or `leave` to change your mind)"
    )
    return (
        f"{head}\n{listed}\n{how}; an organiser starts it with `/wargames tournament start` once at "
        "least 2 players are in."
    )


def pairings_text(boards: Sequence[Board], markup: Markup) -> str:
    who = markup.mention
    lines = []
    for board in boards:
        if board.second_id is None:
            lines.append(f"{who(board.first_id)} has a bye (a win) this round.")
        else:
            lines.append(f"{who(board.first_id)} v {who(board.second_id)}")
    return "\n".join(lines)


def started_text(game: Game, tournament: Tournament, boards: Sequence[Board], markup: Markup) -> str:
    due = markup.relative(tournament.round_ends_at or 0.0)
    return (
        f"{markup.strong(tournament.name)} has begun: round 1 of {tournament.rounds}, ends {due}.\n"
        f"{pairings_text(boards, markup)}\nEach game has its own thread below; the first named plays "
        f"the {game.sides[0].title}."
    )


def round_text(table: Table, boards: Sequence[Board], markup: Markup) -> str:
    """After a round: its standings in words (the picture has the tiebreaks), then the next round."""
    t = table.tournament
    if table.final:
        winners = table.winners
        names = " and ".join(markup.mention(u) for u in winners)
        top = table.lines[0].points if table.lines else 0.0
        verb = "wins" if len(winners) == 1 else "share first place in"
        return (
            f"{markup.strong(t.name)} is over after {_plural(table.round, 'round')}: {names} {verb} it with "
            f"{_points(top)} {'point' if top == 1 else 'points'}. Congratulations! The final standings "
            "are below (points, then Buchholz, then Sonneborn-Berger); every game was rated as usual."
        )
    head = f"{markup.strong(t.name)}: round {table.round} of {t.rounds} is over. Standings below."
    if not boards:
        return head
    due = markup.relative(t.round_ends_at or 0.0)
    return f"{head}\nRound {table.round + 1} ends {due}:\n{pairings_text(boards, markup)}"


def game_text(game: Game, tournament: Tournament, board: Board, markup: Markup) -> str:
    """The first message of a tournament game's thread."""
    assert board.second_id is not None
    return (
        f"{markup.strong(tournament.name)}, round {board.round}: {markup.mention(board.first_id)} "
        f"({game.sides[0].title}) v {markup.mention(board.second_id)} ({game.sides[1].title}). "
        f"The round ends {markup.relative(tournament.round_ends_at or 0.0)}; "
        "a game still going then is stopped and counts as a draw."
    )


def thread_name(tournament: Tournament, board: Board, name: Callable[[int], str]) -> str:
    second = name(board.second_id) if board.second_id is not None else "bye"
    return f"R{board.round} {name(board.first_id)} v {second}"[:100]


def cancelled_text(tournament: Tournament, by: str, markup: Markup) -> str:
    name = markup.strong(tournament.name)
    return f"{name} was cancelled by {by}; games still going were stopped without a result."


__all__ = [
    "cancelled_text",
    "game_text",
    "options_text",
    "pairings_text",
    "round_text",
    "signup_text",
    "started_text",
    "thread_name",
]
