"""The round now in words (`/tournament round`), for the cog and the console alike: each
board in full where they fit one message, else shortened with as much of the game clocks as fits.

Split from play/tournament_text.py (the tournament's posts), whose size said it held two jobs.
"""

from __future__ import annotations

from collections.abc import Callable

from data.tournaments import TournamentStatus
from play.knockout_text import DRAW_RULE
from play.markup import Markup
from play.tournament_formats import is_knockout
from play.tournament_round import BoardNow, RoundNow
from play.words import duration_text, largest_units

LIMIT = 2000  # one Discord message
TO_MOVE = "▶"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _result(now: BoardNow, markup: Markup, short: bool, cancelled: bool = False) -> str:
    board, result = now.board, now.result
    assert result is not None and board.second_id is not None
    if short:
        return {1.0: "1–0", 0.0: "0–1"}.get(result, "½–½")
    if now.stopped:  # it said "a draw" of a game the cancel had said was stopped without a result
        if cancelled:
            return "stopped when the tournament was cancelled"
        return "stopped without a result, so it counts as a draw"
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
    cancelled: bool = False,
    knockout: bool = False,
) -> str:
    board = now.board
    n = f"{board.board}."
    if board.second_id is None and now.against is not None:  # a round-robin's game with a withdrawn player
        if short:
            return f"{name(board.first_id)}: won by forfeit"
        return f"{n} {name(board.first_id)} wins by forfeit against {name(now.against)}."
    if board.second_id is None and board.round > 1 and knockout:  # past round 1, a walkover, not a bye
        if short:
            return f"{name(board.first_id)}: walkover"
        return f"{n} {name(board.first_id)} goes on without a game: their opponent withdrew."
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
        state = _result(now, markup, False, cancelled)
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


def _round_head(now: RoundNow, markup: Markup, *, dated: bool = True) -> str:
    """The round's first line; `dated` False: its end only as "in 2 days" (a shortened view)."""
    t = now.tournament
    name, of = markup.strong(t.name), f"round {t.round} of {t.rounds}"
    if t.status is TournamentStatus.CANCELLED:
        return f"{name} was cancelled in {of}; its games still going then were stopped."
    games = [b for b in now.boards if not b.is_bye]
    over = sum(1 for b in games if b.result is not None)
    if t.status is TournamentStatus.FINISHED:
        return f"{name} is over; its last round was {of}."
    rule = f" {DRAW_RULE}" if is_knockout(t) else ""
    return (
        f"{name}, {of}: {over} of {_plural(len(games), 'game')} over; the round ends "
        f"{(markup.deadline if dated else markup.relative)(t.round_ends_at or 0.0)}. "
        f"The first named plays the {now.game.sides[0].title}.{rule}"
    )


def round_now_text(now: RoundNow, markup: Markup, limit: int = LIMIT) -> str:
    """The round's boards in one message (`limit` characters): in full where they fit; else each
    board on a short line in board order, without its number or thread (▶ marks whose move it is,
    both players in a simultaneous set-up),
    with as much of the game clocks as fits: both players' (two units), the clock of the player to
    move (two units, then one), none; else the first boards and how many more. A withdrawn player
    is marked where named and listed at the end, and so are this round's latecomers. At 64 players
    the clock of the player to move fits (tests/test_tournament_manage.py)."""

    def name(user: int) -> str:
        return markup.mention(user) + (" (withdrawn)" if user in now.withdrawn else "")

    seated = {u for b in now.boards for u in (b.board.first_id, b.board.second_id) if u is not None}
    away = [u for u in sorted(now.withdrawn) if u not in seated]
    tails = [f"Withdrawn, not paired again: {', '.join(markup.mention(u) for u in away)}."] if away else []
    tails += [
        f"No game this round for {markup.mention(u)}: their opponent, {markup.mention(x)}, withdrew early "
        "and those games are struck out."
        for u, x in now.unmet
    ]
    if now.late and now.tournament.status is TournamentStatus.RUNNING:
        joined = ", ".join(markup.mention(u) for u in sorted(now.late))
        tails.append(f"Joined late, paired from round {now.tournament.round + 1}: {joined}.")
    tail = "\n".join(tails)
    head = _round_head(now, markup)
    cancelled = now.tournament.status is TournamentStatus.CANCELLED
    ko = is_knockout(now.tournament)
    full = [_board_line(b, name, markup, False, cancelled=cancelled, knockout=ko) for b in now.boards]
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
    head = _round_head(now, markup, dated=False)  # the clocks of 64 players before the round's date
    for clocks, note in [*(tiers if timed else []), ((_NONE, 0), f"{shortened}; {threads}")]:
        short = [_board_line(b, name, markup, True, clocks, knockout=ko) for b in now.boards]
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


__all__ = ["LIMIT", "TO_MOVE", "round_now_text"]
