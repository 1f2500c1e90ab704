"""What a tournament says in its channel: shared by the Discord cog and the console.

Each function takes the adapter's `Markup` (play/markup.py): a player is named as a mention in
Discord and as @name in the console, a time as a live timestamp or a local time.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace

from data.tournaments import Board, Entry, Tournament, TournamentStatus
from engine.protocol import Game
from play import knockout_text
from play.markup import Markup
from play.present import terms_text
from play.tiebreaks import PRESETS, Tiebreak, order_said
from play.tournament import DAY
from play.tournament_formats import cap_said, is_knockout, is_round_robin, order, rounds_said
from play.tournament_late import last_late_round, late_joined_text, late_open
from play.tournament_round_text import LIMIT, TO_MOVE, round_now_text
from play.tournament_table import Table
from play.words import duration_text


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _and(items: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _points(value: float) -> str:
    whole = int(value + 1e-9)
    if value - whole >= 0.5 - 1e-9:
        return f"{whole}½" if whole else "½"
    return str(whole)


def options_text(game: Game, tournament: Tournament) -> str:
    """The game's optional rules and limits, worded as a challenge states them."""
    return terms_text(game, tournament.options, "by the organiser when the tournament was made")


def signup_text(
    game: Game, tournament: Tournament, entries: Sequence[Entry], markup: Markup, *, buttons: bool = True
) -> str:
    """The sign-up message: what, how long, who is in, what to do (`buttons`: under it)."""
    days = tournament.round_seconds // DAY
    if is_knockout(tournament) and tournament.round == 0:  # not begun: its rounds not yet set
        taking = tournament.status is TournamentStatus.SIGNUP
        kind = knockout_text.shape_text(game.title, _plural(days, "day"), len(entries) if taking else None)
    elif is_round_robin(tournament) and tournament.round == 0:  # not begun: its rounds not yet set
        taking = tournament.status is TournamentStatus.SIGNUP and len(entries) >= 2
        size = f" ({rounds_said(len(entries))} so far)" if taking else ""
        kind = (
            f"a round-robin of {game.title}: everyone plays everyone once, in rounds of "
            f"{_plural(days, 'day')} each; the players at the start set how many rounds{size}."
        )
    else:
        shape = (
            "round-robin"
            if is_round_robin(tournament)
            else "knockout"
            if is_knockout(tournament)
            else "Swiss tournament"
        )
        kind = (
            f"a {shape} of {game.title}, {_plural(tournament.rounds, 'round')} of "
            f"{_plural(days, 'day')} each."
        )
    most = cap_said(tournament, len(entries))
    full = f" At most {most} players." if most is not None else ""
    breaks = order(tournament)
    ties = f" {tiebreaks_short(breaks)}" if breaks != PRESETS["buchholz"] else ""  # the usual Swiss
    head = f"{markup.strong(tournament.name)}: {kind}{full}{ties}{options_text(game, tournament)}"
    if tournament.status is TournamentStatus.CANCELLED:
        return f"{head}\nThis tournament was cancelled."
    if tournament.status is not TournamentStatus.SIGNUP:

        def mark(e: Entry) -> str:  # withdrawn, or a latecomer's first round
            return (
                " (withdrawn)"
                if e.withdrawn
                else f" (from round {e.joined_round + 1})"
                if e.joined_round
                else ""
            )

        players = ", ".join(markup.mention(e.user_id) + mark(e) for e in entries)
        listed = f"Players ({len(entries)}): {players}."
        if not late_open(tournament):
            return f"{head}\nSign-ups are closed. {listed}"
        how = f"press {markup.strong('Join')}" if buttons else "type `/tournament join`"
        return (
            f"{head}\n{listed}\nIt has begun, but latecomers may still join until round "
            f"{last_late_round(tournament)} ends: {how}. Each round missed counts 0 points."
        )
    closes = tournament.signup_closes_at
    if closes is not None:
        head += f" Sign-ups close at {markup.date(closes)}."  # true before the moment and after
    if not entries:
        listed = "Nobody has signed up yet."
    else:
        listed = f"Signed up ({len(entries)}): " + ", ".join(markup.mention(e.user_id) for e in entries) + "."
    how = (
        f"Press {markup.strong('Join')} to play (or {markup.strong('Leave')} to change your mind)"
        if buttons
        else "Type `/tournament join` to play (or `leave` to change your mind)"
    )
    return (
        f"{head}\n{listed}\n{how}; an organiser starts it with `/tournament start` once at "
        "least 2 players are in."
    )


def tiebreaks_long(order: Sequence[Tiebreak]) -> str:
    """How the standings are ordered, said in the final post (RULES.md "Standings")."""
    parts = ", then ".join(f"{t.named} ({t.short}: {t.meaning})" for t in order)
    return f"points first; between players level on points, {parts}"


def tiebreaks_short(order: Sequence[Tiebreak]) -> str:
    """The tie-breaks' order in one line, under the standings' and the crosstable's title."""
    return f"Level on points: {order_said(order)}."


def ranking_said(table: Table) -> str:
    """How the standings are ordered, in one line: a knockout's by how far each got, else by points
    and the tie-breaks."""
    return knockout_text.RANKED if is_knockout(table.tournament) else tiebreaks_short(table.order)


# The usual Swiss order's words (the tests and older callers name them)
TIEBREAKS = tiebreaks_long((Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN))
TIEBREAKS_SHORT = tiebreaks_short((Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN))


def _round_over(tournament: Tournament, after_round: int) -> bool:
    """Whether round `after_round` is over: a later one is paired, or the tournament finished."""
    return after_round < tournament.round or tournament.status is TournamentStatus.FINISHED


def _standing_at(tournament: Tournament, after_round: int) -> str:
    """Which moment the standings show: after a round, or during one still being played (they
    said "after round 1" while round 1 was being played, with its byes in and its games out)."""
    of = f"round {after_round} of {tournament.rounds}"
    if _round_over(tournament, after_round):
        return f"after {of}"
    if tournament.status is TournamentStatus.CANCELLED:
        return f"cancelled in {of}"
    return f"during {of}"


def standings_title(tournament: Tournament, after_round: int) -> str:
    """The standings picture's title: after which round, during which, or, before the first, that
    it has not begun (it said "after round 0 of 3")."""
    if after_round <= 0:
        return f"{tournament.name}: signed up, not begun yet"
    return f"{tournament.name}: {_standing_at(tournament, after_round)}"


def standings_subtitle(table: Table) -> str:
    """The line under the picture's title, the same in Discord and the console: final or not, a
    round's games still to come, and the tie-breaks' order."""
    t = table.tournament
    if table.round <= 0:
        return "Nobody has played yet: everyone starts level."
    short = ranking_said(table)
    first = next((x.joined for x in table.lines if x.joined), 0)  # a latecomer's mark, explained
    late = f' "From R{first + 1}": joined late, the rounds before scored 0.' if first else ""
    if table.final:
        return f"Final standings. {short}{late}"
    if not _round_over(t, table.round) and t.status is TournamentStatus.RUNNING:
        return f"Round {table.round}'s games count once they end. {short}{late}"
    return short + late


def standings_said(table: Table, markup: Markup) -> str:
    """The words above the standings picture when someone asks for it."""
    t = table.tournament
    if table.round <= 0:
        return f"{markup.strong(t.name)} has not started yet."
    said = f"{markup.strong(t.name)}, the standings {_standing_at(t, table.round)}"
    bracket = f"\n{knockout_text.bracket_text(table, markup)}" if is_knockout(t) else ""
    if not _round_over(t, table.round) and t.status is TournamentStatus.RUNNING:
        return f"{said}: a game counts once it ends, a bye at once.{bracket}"
    return f"{said}.{bracket}"


def joined_text(tournament: Tournament, markup: Markup, joined_round: int = 0) -> str:
    """A player's own answer to signing up: what happens next, and where their game will be
    (`joined_round`: a latecomer's, the round under way when they joined)."""
    if joined_round:
        return late_joined_text(tournament, joined_round, markup)
    return (
        f"You are in {markup.strong(tournament.name)}. When an organiser starts it, each game gets a "
        "thread in this channel and both its players are pinged there (`/wargames notify` also tells "
        "you by DM when each of your games is ready)."
    )


def pairing_line(board: Board, markup: Markup, against: int | None = None) -> str:
    """One pairing as the round's announcement lists it, with its thread once it has one (the
    Discord cog adds the threads by editing the announcement, `link_threads`: they are opened after
    it is posted). `against`: a round-robin's forfeit win, the withdrawn player it was against (it
    said "has a bye", which the player never had, and left the absent opponent unnamed)."""
    who = markup.mention
    if board.second_id is None and against is not None:
        return f"{who(board.first_id)} wins by forfeit against {who(against)}, who has withdrawn."
    if board.second_id is None:
        return f"{who(board.first_id)} has a bye (a win) this round."
    where = f" in {markup.channel(board.thread_id)}" if board.thread_id is not None else ""
    return f"{who(board.first_id)} v {who(board.second_id)}{where}"


def pairings_text(
    boards: Sequence[Board], markup: Markup, forfeits: Mapping[tuple[int, int], int] | None = None
) -> str:
    """A round's pairings, one a line (`forfeits`: `Table.forfeits`, a round-robin's forfeit wins)."""
    won = forfeits or {}
    return "\n".join(pairing_line(b, markup, won.get((b.round, b.first_id))) for b in boards)


def with_threads(text: str, boards: Sequence[Board], markup: Markup) -> str:
    """An announcement's pairings given their threads: each pairing's line, as posted without its
    thread, completed with it; nothing else changes (its round's end may have been corrected)."""
    lines = text.split("\n")
    for board in boards:
        if board.thread_id is None or board.second_id is None:
            continue
        plain = pairing_line(replace(board, thread_id=None), markup)
        lines = [pairing_line(board, markup) if line == plain else line for line in lines]
    return "\n".join(lines)


def _threads_line(game: Game) -> str:
    return f"Each game has its own thread in this channel; the first named plays the {game.sides[0].title}."


# What happens at a round's end, said when the tournament starts (so nobody waits for an organiser)
_NEXT = (
    "The round ends early once all its games are over; the standings then come here and the next "
    "round is paired by itself. `/tournament round` shows how each game stands."
)


def started_text(game: Game, tournament: Tournament, boards: Sequence[Board], markup: Markup) -> str:
    due = markup.deadline(tournament.round_ends_at or 0.0)
    players = len({u for b in boards for u in (b.first_id, b.second_id) if u is not None})
    whole = (
        f" A round-robin: everyone plays everyone once, {rounds_said(players)}."
        if is_round_robin(tournament)
        else f" A knockout, {knockout_text.rounds_said(players)}. {knockout_text.DRAW_RULE}"
        if is_knockout(tournament)
        else ""
    )
    return (
        f"{markup.strong(tournament.name)} has begun: round 1 of {tournament.rounds}, ends {due}.{whole}\n"
        f"{pairings_text(boards, markup)}\n{_threads_line(game)} {_NEXT}"
    )


def _half_points(value: float) -> str:
    return f"{_points(value)} {'point' if value == 1 else 'points'}"


# A tie-break as the subject of "... put X first"
_DECIDED = {Tiebreak.WINS: "the number of wins", Tiebreak.DIRECT: "the direct encounter"}


def _winner_line(table: Table, markup: Markup) -> str:
    """Who won, and, where first place was decided by a tie-break, which one and over whom."""
    winners = table.winners
    names = _and([markup.mention(u) for u in winners])  # it said "A and B and C"
    top = table.lines[0].points if table.lines else 0.0
    verb = "wins" if len(winners) == 1 else "share first place in"
    said = f"{names} {verb} it with {_half_points(top)}."
    level = [x for x in table.lines if x.rank != 1 and x.points == top]
    if level and len(winners) == 1:
        first, second = table.lines[0], level[0]
        values = zip(table.order, table.values(first), table.values(second), strict=False)
        parted = [t for t, a, b in values if a != b]
        by = _DECIDED.get(parted[0], parted[0].named) if parted else "the rating at the start"
        said += f" {markup.mention(second.user_id)} had as many points; {by} put {names} first."
    return said


def round_text(
    table: Table,
    boards: Sequence[Board],
    markup: Markup,
    timed_out: Sequence[int] = (),
    forfeited: Collection[int] = (),
) -> str:
    """After a round: its standings in words (the picture has the tiebreaks), then the next round's
    pairings, its bye included (`boards`: all of them). `timed_out`: players who let their time
    run out in this round's game, still in: the organiser is told what they may do about a no-show.
    `forfeited`: those of them who never moved, named apart as players read it (RULES.md: a forfeit
    is a loss on time without a move of one's own)."""
    t = table.tournament
    if table.final and is_knockout(t):
        return (
            f"{markup.strong(t.name)} is over after {_plural(table.round, 'round')}: "
            f"{knockout_text.winner_text(table, markup)} Congratulations! The bracket:\n"
            f"{knockout_text.bracket_text(table, markup)}\nEvery game was rated as usual."
        )
    if table.final:
        return (
            f"{markup.strong(t.name)} is over after {_plural(table.round, 'round')}: "
            f"{_winner_line(table, markup)} Congratulations! The final standings are below: "
            f"{tiebreaks_long(table.order)}. Every game was rated as usual."
        )
    below = "The bracket below." if is_knockout(t) else "Standings below."
    head = f"{markup.strong(t.name)}: round {table.round} of {t.rounds} is over. {below}"
    if is_knockout(t) and (out := knockout_text.out_text(table, markup)):
        head += f"\n{out}"
    gone = {x.user_id for x in table.lines if x.withdrawn}
    timed = [u for u in timed_out if u not in gone]
    if timed:
        unmoved = [markup.mention(u) for u in timed if u in forfeited]
        late = [markup.mention(u) for u in timed if u not in forfeited]
        if unmoved:
            head += f"\nForfeited in round {table.round} (did not move): {_and(unmoved)}."
        if late:
            head += f"\nOut of time in round {table.round}: {_and(late)}."
        head += (
            " If a player has stopped playing, an "
            "organiser can withdraw them with `/tournament remove`, so that nobody is "
            "paired with them again; and a game in which a player never moves can be ended at once "
            "with `/tournament forfeit`, without waiting for their clock."
        )
    if not boards:
        return head
    due = markup.deadline(t.round_ends_at or 0.0)
    unmet = sorted((u, x) for (r, u), x in table.unmet.items() if r == table.round + 1)
    idle = "".join(
        f"\n{markup.mention(u)} has no game this round: their opponent, {markup.mention(x)}, withdrew "
        "early, and a round-robin strikes out the games of a player who withdraws before playing half."
        for u, x in unmet
    )
    listed = pairings_text(boards, markup, table.forfeits)
    if is_knockout(t):  # past round 1, a pairing without an opponent is a walkover, not a bye
        walkover = knockout_text.walkover_line
        listed = "\n".join(
            walkover(b.first_id, markup) if b.second_id is None else pairing_line(b, markup) for b in boards
        )
    called = f"Round {table.round + 1}"
    if is_knockout(t):  # "The final (round 3)"
        named = knockout_text.round_name(table.round + 1, t.rounds).capitalize()
        called = f"{named} (round {table.round + 1})" if named != called else called
    return f"{head}\n{called} ends {due}:\n{listed}{idle}\n{_threads_line(table.game)}"


def game_over_text(tournament: Tournament, going: int, markup: Markup) -> str:
    """Said in a game's thread once it ends while other games of its round go on: until when the
    round may last and what comes next (a player who finished early heard nothing meanwhile)."""
    name, ends = markup.strong(tournament.name), markup.deadline(tournament.round_ends_at or 0.0)
    r, n = tournament.round, tournament.rounds
    still = f"{_plural(going, 'game')} {'is' if going == 1 else 'are'} still going in round {r} of {n}"
    they = "it ends" if going == 1 else "they end"
    if r >= n:
        where = markup.channel(tournament.channel_id)
        return (
            f"{name}: {still}, the last. The final standings come in {where} when {they}, "
            f"or at the latest {ends}."
        )
    return (
        f"{name}: {still}. Round {r + 1} is paired when {they}, or at the latest {ends}; each player "
        "still in is then pinged in the thread of their next game."
    )


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
    ends = markup.deadline(tournament.round_ends_at or 0.0)
    # a knockout's draw decides who goes on: said where the two players read it (RULES.md "Knockout")
    seed = ", which sends the higher seed on" if is_knockout(tournament) else ""
    stopped = f"a game still going then is stopped and counts as a draw{seed}."
    if clock is None:
        return f"{head}The round ends {ends}; {stopped}"
    return (
        f"{head}Each of you has {duration_text(clock)} on a clock for the whole game: it runs only while "
        "the game waits on you (your turns, and any quick answer you owe), also while you are away; "
        "whoever runs out loses on time. "
        f"The round ends {ends}; {stopped}"
    )


def ready_text(
    game: Game,
    tournament: Tournament,
    board: Board,
    user_id: int,
    to_move: Sequence[int],
    link: str,
    markup: Markup,
) -> str:
    """A direct message to a player whose game of a round was just opened (to those who asked for
    turn DMs): where it is, whom they play with which side, and whether it is their move."""
    assert board.second_id is not None
    mine = game.sides[0] if user_id == board.first_id else game.sides[1]
    other = board.second_id if user_id == board.first_id else board.first_id
    if user_id in to_move and len(to_move) > 1:
        move = "you both set up at once, so it is your move now"
    elif user_id in to_move:
        move = "it is your move"
    else:
        move = f"{markup.mention(other)} moves first"
    return (
        f"Your game of round {board.round} of {markup.strong(tournament.name)} is ready: you play the "
        f"{mine.title} against {markup.mention(other)}, and {move}. {link}"
    )


def forfeit_win_text(tournament: Tournament, round_no: int, against: int, link: str, markup: Markup) -> str:
    """A direct message to a round-robin player whose opponent of round `round_no` has withdrawn
    (to those who asked for turn DMs, as a game's opening is told them): they win it by forfeit, so
    nothing waits for them this round, and when the next comes. `link`: the round's post."""
    name = markup.strong(tournament.name)
    after = (
        "It is the last round: the final standings come in the channel once its games end."
        if round_no >= tournament.rounds
        else f"Round {round_no + 1} is paired once this one ends."
    )
    return (
        f"{markup.mention(against)} has withdrawn from {name}, so you win your game of round {round_no} "
        f"against them by forfeit: you have no game to play this round. {after} {link}"
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
    name, ends = markup.strong(tournament.name), markup.deadline(tournament.round_ends_at or 0.0)
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


__all__ = [
    "LIMIT",
    "TO_MOVE",
    "cancelled_text",
    "forfeit_win_text",
    "game_over_text",
    "game_text",
    "joined_text",
    "options_text",
    "pairing_line",
    "pairings_text",
    "ready_text",
    "round_moved_text",
    "round_now_text",
    "round_text",
    "signup_text",
    "standings_said",
    "standings_subtitle",
    "standings_title",
    "started_text",
    "thread_name",
    "with_threads",
]
