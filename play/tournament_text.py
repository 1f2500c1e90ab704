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
from play.tournament import DAY, Withdrawal
from play.tournament_round import BoardNow, RoundNow
from play.tournament_table import Table
from play.words import duration_text, largest_units

LIMIT = 2000  # one Discord message
TO_MOVE = "▶"


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
        gone = " (withdrawn)"
        players = ", ".join(markup.mention(e.user_id) + (gone if e.withdrawn else "") for e in entries)
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


def standings_title(tournament: Tournament, after_round: int) -> str:
    """The standings picture's title: after which round, or, before the first, that it has not
    begun (it said "after round 0 of 3")."""
    if after_round <= 0:
        return f"{tournament.name}: signed up, not begun yet"
    return f"{tournament.name}: after round {after_round} of {tournament.rounds}"


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


def game_text(
    game: Game, tournament: Tournament, board: Board, markup: Markup, clock: int | None = None
) -> str:
    """The first message of a tournament game's thread; `clock`: each player's time for the whole
    game (None for a game begun before tournament games had one)."""
    assert board.second_id is not None
    head = (
        f"{markup.strong(tournament.name)}, round {board.round}: {markup.mention(board.first_id)} "
        f"({game.sides[0].title}) v {markup.mention(board.second_id)} ({game.sides[1].title}). "
    )
    ends = markup.relative(tournament.round_ends_at or 0.0)
    if clock is None:
        return f"{head}The round ends {ends}; a game still going then is stopped and counts as a draw."
    return (
        f"{head}Each of you has {duration_text(clock)} on a clock for the whole game: it runs only on your "
        "own turns, also while you are away; whoever runs out loses on time. The round ends "
        f"{ends}; a game still going then is stopped and counts as a draw."
    )


def thread_name(tournament: Tournament, board: Board, name: Callable[[int], str]) -> str:
    second = name(board.second_id) if board.second_id is not None else "bye"
    return f"R{board.round} {name(board.first_id)} v {second}"[:100]


def cancelled_text(tournament: Tournament, by: str, markup: Markup) -> str:
    name = markup.strong(tournament.name)
    return f"{name} was cancelled by {by}; games still going were stopped without a result."


def no_threads_text(tournament: Tournament, markup: Markup) -> str:
    """Said once in the channel when the bot may not open the round's game threads: nothing can start
    until an admin grants the permission, while the round's days run."""
    return (
        f"I cannot open the game threads of {markup.strong(tournament.name)}, round {tournament.round}: "
        "I need the Create Public Threads and Send Messages in Threads permissions in this channel. "
        "Someone who can manage the server can grant them; I try again every minute and start the games "
        "as soon as I can. Meanwhile the round's days are running."
    )


def _boards(numbers: Sequence[int]) -> str:
    """ "board 2", "boards 1 and 3", "boards 1, 2 and 5"."""
    if len(numbers) == 1:
        return f"board {numbers[0]}"
    return f"boards {', '.join(str(n) for n in numbers[:-1])} and {numbers[-1]}"


def round_moved_text(tournament: Tournament, late: Sequence[int], games: int, markup: Markup) -> str:
    """Said once in the channel when games begun late (`late`: their board numbers, of the round's
    `games`) moved the round's end: everyone in the round learns the new end, and why."""
    name, ends = markup.strong(tournament.name), markup.relative(tournament.round_ends_at or 0.0)
    head = f"{name}: round {tournament.round} of {tournament.rounds} now ends {ends}"
    if len(late) >= games:
        return f"{head}, because its games began late and each has the whole round."
    many = len(late) > 4
    which = f"{len(late)} of its games" if many else _boards(late)
    verb = "began late and have" if len(late) > 1 else "began late and has"
    return (
        f"{head}, because {which} {verb} the whole round; the other games may go on until then, "
        "on the clocks they have."
    )


def _their_game(w: Withdrawal, markup: Markup, you: bool) -> str:
    """Where the player's game of this round stands once they withdraw: it plays on."""
    if w.game is None:
        return ""
    board = w.game
    other = board.second_id if board.first_id == w.user_id else board.first_id
    assert other is not None
    where = f" in {markup.channel(board.thread_id)}" if board.thread_id is not None else ""
    if you:
        return (
            f" Your game of this round with {markup.mention(other)} plays on{where}: finish it, "
            "or resign it there if you cannot play."
        )
    return f" Their game of this round with {markup.mention(other)} plays on{where}."


def _last(w: Withdrawal) -> bool:
    return w.tournament.round >= w.tournament.rounds


def _ending(w: Withdrawal) -> str:
    if not w.ends or _last(w):
        return ""
    left = "nobody else" if w.remaining == 0 else "only 1 player"
    return f" With {left} left to pair, the tournament ends when this round is over."


def withdraw_question(w: Withdrawal, markup: Markup) -> str:
    """Asked privately before a player withdraws from a running tournament (it cannot be undone)."""
    later = (
        "This is the last round, so nobody is paired again anyway; the standings will show you as withdrawn"
        if _last(w)
        else "You will not be paired in any later round"
    )
    return (
        f"Withdraw from {markup.strong(w.tournament.name)}? {later}, and this cannot be undone; your "
        f"results so far stand.{_their_game(w, markup, True)}{_ending(w)}"
    )


def withdrawn_text(w: Withdrawal, markup: Markup) -> str:
    """The player's own confirmation, privately."""
    return (
        f"You have withdrawn from {markup.strong(w.tournament.name)}: you will not be paired again."
        f"{_their_game(w, markup, True)}{_ending(w)}"
    )


def withdrawal_notice(w: Withdrawal, by: int | None, markup: Markup) -> str:
    """The channel is told: `by` None when the player withdrew themselves, else the organiser."""
    name, who = markup.strong(w.tournament.name), markup.mention(w.user_id)
    if w.tournament.status is TournamentStatus.SIGNUP:
        assert by is not None
        return f"{markup.mention(by)} took {who} off the sign-up list of {name}."
    head = f"{who} has withdrawn from {name}"
    if by is not None:
        head = f"{markup.mention(by)} removed {who} from {name}"
    game = "; their game of this round plays on" if w.game is not None else ""
    return f"{head}: they will not be paired again, and their results stand{game}.{_ending(w)}"


def _result(now: BoardNow, markup: Markup, short: bool) -> str:
    board, result = now.board, now.result
    assert result is not None and board.second_id is not None
    if short:
        return {1.0: "1–0", 0.0: "0–1"}.get(result, "½–½")
    if result == 0.5:
        return "a draw"
    return f"{markup.mention(board.first_id if result == 1.0 else board.second_id)} won"


def _short_clock(seconds: float, units: int) -> str:
    """Time left on a game clock as a short line has room for: "1d 23h", "15h", "40m" (rounded
    down to its `units` largest units, so it never shows more time than there is)."""
    shown = largest_units(seconds, ("d", "h", "m"), units)
    return " ".join(f"{n}{u}" for n, u in shown) if shown else "<1m"


# How much of the game clocks a short line shows (`round_now_text` tries them in turn): whose, and in
# how many units.
_BOTH, _MOVER, _NONE = "both", "mover", "none"


def _board_line(
    now: BoardNow,
    name: Callable[[int], str],
    markup: Markup,
    short: bool,
    clocks: tuple[str, int] = (_NONE, 0),
) -> str:
    board = now.board
    n = f"{board.board}."
    if board.second_id is None:
        return f"{name(board.first_id)}: bye" if short else f"{n} {name(board.first_id)} has the bye (a win)."
    first, second = name(board.first_id), name(board.second_id)
    if short:
        if now.result is not None:
            return f"{first} v {second}: {_result(now, markup, True)}"
        whose, units = clocks

        def seat(user: int, left: float | None) -> str:
            mover = user in now.to_move
            shown = name(user)
            if left is not None and (whose == _BOTH or (whose == _MOVER and mover)):
                shown += " " + _short_clock(left, units)
            return TO_MOVE + shown if mover else shown

        a, b = now.clocks if now.clocks is not None else (None, None)
        return f"{seat(board.first_id, a)} v {seat(board.second_id, b)}"
    where = f" in {markup.channel(board.thread_id)}" if board.thread_id is not None else ""
    if now.result is not None:
        state = _result(now, markup, False)
    elif not now.started:
        state = "the game is being set up"
    elif len(now.to_move) > 1:  # a simultaneous set-up: both act at once
        state = f"{' and '.join(markup.mention(u) for u in now.to_move)} both to move"
    elif now.to_move:
        state = f"{markup.mention(now.to_move[0])} to move"
    else:
        state = "under way"
    if now.result is None and now.clocks is not None:
        a_, b_ = (duration_text(s) for s in now.clocks)
        first_, second_ = markup.mention(board.first_id), markup.mention(board.second_id)
        state += f"; clocks: {a_} left for {first_}, {b_} for {second_}"
    return f"{n} {first} v {second}{where}: {state}."


def _round_head(now: RoundNow, markup: Markup) -> str:
    t = now.tournament
    name, of = markup.strong(t.name), f"round {t.round} of {t.rounds}"
    if t.status is TournamentStatus.CANCELLED:
        return f"{name} was cancelled in {of}; its games still going then were stopped."
    games = [b for b in now.boards if not b.is_bye]
    over = sum(1 for b in games if b.result is not None)
    if t.status is TournamentStatus.FINISHED:
        return f"{name} is over; its last round was {of}."
    return (
        f"{name}, {of}: {over} of {_plural(len(games), 'game')} over; the round ends "
        f"{markup.relative(t.round_ends_at or 0.0)}. "
        f"The first named plays the {now.game.sides[0].title}."
    )


def round_now_text(now: RoundNow, markup: Markup, limit: int = LIMIT) -> str:
    """The round's boards in one message (`limit` characters): in full where they fit; else each
    board on a short line in board order, without its number or thread (▶ marks whose move it is,
    both players in a simultaneous set-up),
    with as much of the game clocks as fits: both players' (two units), the clock of the player to
    move (two units, then one), none; else the first boards and how many more. A withdrawn player
    is marked where named and listed at the end. At 64 players the clock of the player to move
    fits (tests/test_tournament_manage.py)."""

    def name(user: int) -> str:
        return markup.mention(user) + (" (withdrawn)" if user in now.withdrawn else "")

    seated = {u for b in now.boards for u in (b.board.first_id, b.board.second_id) if u is not None}
    away = [u for u in sorted(now.withdrawn) if u not in seated]
    tail = f"Withdrawn, not paired again: {', '.join(markup.mention(u) for u in away)}." if away else ""
    head = _round_head(now, markup)
    full = [_board_line(b, name, markup, False) for b in now.boards]
    text = "\n".join([head, *full, *([tail] if tail else [])])
    if len(text) <= limit:
        return text
    timed = any(b.clocks is not None and b.result is None for b in now.boards)
    shortened = f"Shortened to fit one message: {TO_MOVE} marks whose move it is"
    threads = "the threads are in this channel."
    mover = f"{shortened} and the time left on their clock; {threads}"
    tiers = [
        ((_BOTH, 2), f"{shortened}; beside each name, the time left on that player's clock; {threads}"),
        ((_MOVER, 2), mover),
        ((_MOVER, 1), mover),
    ]
    short: list[str] = []
    for clocks, note in [*(tiers if timed else []), ((_NONE, 0), f"{shortened}; {threads}")]:
        short = [_board_line(b, name, markup, True, clocks) for b in now.boards]
        text = "\n".join([head, *short, *([tail] if tail else []), note])
        if len(text) <= limit:
            return text
    keep = len(short)
    while keep > 0:
        keep -= 1
        more = _plural(len(short) - keep, "more board")
        text = "\n".join([head, *short[:keep], f"{shortened}; {more} not shown here."])
        if len(text) <= limit:
            return text
    return head[:limit]


__all__ = [
    "cancelled_text",
    "game_text",
    "options_text",
    "pairings_text",
    "round_moved_text",
    "round_now_text",
    "round_text",
    "signup_text",
    "standings_title",
    "started_text",
    "thread_name",
    "withdraw_question",
    "withdrawal_notice",
    "withdrawn_text",
]
