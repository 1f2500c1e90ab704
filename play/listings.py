"""What a player asks about the server and themselves, in words: the games hosted, their open
games, time away, records, leaderboards and a look back at a finished game."""

from __future__ import annotations

from collections.abc import Sequence

from data import AiRecord, Match, PlayerStats, Status
from engine import registry
from engine.meta import LOSER_FIRST
from engine.protocol import Game
from engine.review import Review
from play.markup import Markup
from play.present import when
from play.ratings import Standing, about, level_label, level_rating
from play.results import (
    AWAY_DAYS_A_YEAR,
    OpenGame,
    TimeAway,
    game_of,
)
from play.words import duration_text


def games_text(markup: Markup) -> str:
    """Every hosted game, what it is in a few words (a newcomer picks one from this list), and how
    to start it (`/wargames games`)."""
    return "\n".join(
        f"{markup.strong('/' + g.name)}: {g.description.removeprefix('Play ')}. "
        f"Start with `/{g.name} challenge`."
        for g in registry.games()
    )


MY_GAMES_LIMIT = 1900  # characters: Discord's 2,000 less room for the last line


def my_games_text(
    games: Sequence[OpenGame],
    user_id: int,
    markup: Markup,
    away_until: float | None = None,
    limit: int = MY_GAMES_LIMIT,
) -> str:
    """`/wargames mygames`: a player's open games in this server, those waiting on them first, each
    with its game, opponent, whose move, deadline and channel; and whether they are away."""
    away = ""
    if away_until is not None:
        running = any(g.match.game_clock is not None and g.match.status is Status.ACTIVE for g in games)
        but = ", except your tournament games' clocks, which keep running" if running else ""
        away = (
            f"You are away until {markup.date(away_until)}: your clocks are stopped{but} "
            "(`/wargames back` ends it).\n"
        )
    if not games:
        return away + (
            "You have no open games in this server. Start one with a game's `challenge` command "
            "(`/wargames games` lists the games)."
        )
    mine = sum(1 for g in games if user_id in g.waiting)
    noun = "game" if len(games) == 1 else "games"
    if len(games) == 1:  # not "(1; 0 waiting on you)"
        count = "waiting on you" if mine else "not waiting on you"
    else:
        waiting = "none" if not mine else "all" if mine == len(games) else str(mine)
        count = f"{len(games)}; {waiting} waiting on you"
    lines = [f"{away}{markup.strong(f'Your open {noun} here')} ({count}):"]
    for n, game in enumerate(games, 1):
        line = f"{n}. {_open_game_line(game, user_id, markup)}"
        if sum(len(x) + 1 for x in lines) + len(line) > limit - 40:
            lines.append(f"… and {len(games) - n + 1} more.")
            break
        lines.append(line)
    return "\n".join(lines)


def _open_game_line(game: OpenGame, user_id: int, markup: Markup) -> str:
    match = game.match
    rules = game_of(match)
    other = match.other_player(user_id)
    them = f"the AI ({match.ai_level})" if other == match.ai_player_id else markup.mention(other)
    where = markup.channel(match.channel_id)
    due = when(markup, game.due)
    if match.status is Status.CHALLENGED:
        if user_id == match.opponent_id:
            return (
                f"{markup.strong('Challenge to you')}: {rules.title} from {them} in {where}, expires {due}."
            )
        return f"Your challenge: {rules.title} to {them} in {where}, unanswered, expires {due}."
    side = match.side_of(user_id)
    you = f" (you are the {rules.side(side).title})" if side else ""
    if user_id in game.waiting:
        whose = markup.strong("Your move")
    elif other == match.ai_player_id:
        whose = "The AI's move"
    else:
        whose = f"{them}'s move"
    return f"{whose}: {rules.title}{you} against {them} in {where}, due {due}."


def away_text(away: TimeAway, markup: Markup) -> str:
    """The answer to `/wargames away`, for the player alone. A tournament game's clock for the whole
    game does not stop (a round does not wait): the player hears what is left on it."""
    assert away.until is not None
    n = len(away.games)
    clocked = [m for m in away.games if m.id in away.clocks]
    ordinary = n - len(clocked)
    other = "other " if clocked else ""
    if ordinary == 1:
        stopped = f"The clock of your {other}game here stops while it is your move"
    elif ordinary:
        stopped = f"The clocks of your {ordinary} {other}games here stop while it is your move"
    elif not n:
        stopped = "In games you start here meanwhile, your clock waits for you"
    else:
        stopped = ""
    told = ", and your opponent is told" if n == 1 else ", and your opponents are told" if n else ""
    said = f"{stopped}: no reminder and no loss on time until you are back{told}. " if stopped else ""
    return (
        f"You are away until {markup.date(away.until)} ({markup.relative(away.until)}). "
        f"{said}{_clocks_run(clocked, away, markup)}{'' if stopped else _told(n)}"
        f"{_days_left(away.left)} `/wargames back` ends it early."
    )


def _told(games: int) -> str:
    """Who hears of the time away when no game's clock stops (only tournament games, whose clocks run)."""
    return "Your opponent is told. " if games == 1 else "Your opponents are told. "


def _clocks_run(clocked: Sequence[Match], away: TimeAway, markup: Markup) -> str:
    """The sentence for the tournament games among a player's games: their clocks keep running."""
    if not clocked:
        return ""
    if len(clocked) == 1:
        (match,) = clocked
        left = duration_text(away.clocks[match.id])
        return (
            f"Your tournament game in {markup.channel(match.channel_id)} does not wait: your clock for the "
            f"whole game keeps running on your turns while you are away ({left} left on it), and you lose "
            "on time if it runs out. "
        )
    each = ", ".join(f"{duration_text(away.clocks[m.id])} in {markup.channel(m.channel_id)}" for m in clocked)
    return (
        f"Your {len(clocked)} tournament games here do not wait: your clocks for them keep running on "
        f"your turns while you are away ({each} left), and you lose on time if one runs out. "
    )


def back_text(away: TimeAway) -> str:
    """The answer to `/wargames back`."""
    n = len(away.games)
    runs = "Your clock runs again" if n == 1 else f"Your clocks run again in your {n} games here"
    return f"Welcome back. {runs if n else 'You have no game here'}. {_days_left(away.left)}"


def _days_left(days: int) -> str:
    return f"Time away left: {days} day{'' if days == 1 else 's'} (at most {AWAY_DAYS_A_YEAR} in any 365)."


def away_notice(match: Match, user_id: int, until: float, owes: bool, markup: Markup) -> str:
    """What a game's channel is told, once, when one of its players goes away (`owes`: the game
    waits on them now). A tournament game's clock for the whole game keeps running."""
    other = match.other_player(user_id)
    them = "" if other == match.ai_player_id else f"{markup.mention(other)}: "
    due = f" Their move here is now due {when(markup, match.deadline)}." if owes else ""
    if match.game_clock is not None:
        stops = (
            "This tournament game does not wait: their clock for the whole game keeps running on their "
            "turns, and they lose on time if it runs out."
        )
    else:
        stops = "While it is their move, their clock here stops: no reminder and no loss on time until then."
    gone = f"{markup.mention(user_id)} is away until {markup.date(until)} ({markup.relative(until)})."
    return f"{them}{gone} {stops}{due}"


def back_notice(match: Match, user_id: int, owes: bool, markup: Markup) -> str:
    """What a game's channel is told when a player away comes back early."""
    due = f": their move here is due {when(markup, match.deadline)}" if owes else ""
    if match.game_clock is not None:  # their game clock never stopped
        return f"{markup.mention(user_id)} is back{due}."
    return f"{markup.mention(user_id)} is back and their clock runs again{due}."


def side_label(match: Match, user_id: int) -> str:
    side = match.side_of(user_id)
    return game_of(match).side(side).title if side else "spectator"


def _record(wins: int, losses: int, draws: int) -> str:
    return f"{wins} won, {losses} lost, {draws} drawn"


def leaderboard_text(game: Game, rows: Sequence[Standing], markup: Markup) -> str:
    """One game's leaderboard: players by rating, the AI at each level it played among them (at its
    level's fixed rating, `play.ratings`)."""
    if not rows:
        return f"No finished {game.title} games yet."
    lines = [markup.strong(f"{game.title} leaderboard")]
    for i, s in enumerate(rows, 1):
        who = markup.mention(s.user_id) + (f" (the AI, level {s.level})" if s.level else "")
        rating = f"about {about(s.rating)}" if s.level else f"{s.rating:.0f}"
        lines.append(f"{i}. {who}: {rating} ({s.wins}-{s.losses}-{s.draws})")
    if any(s.level for s in rows):
        lines.append("The AI's rating is its level's, measured between the levels; it does not change.")
    lines.append(REPEATS_COUNT_LESS)
    return "\n".join(lines)


def ai_stats_text(game: Game, user_id: int, records: Sequence[AiRecord], markup: Markup) -> str:
    """The AI's record in a game, level by level, each with the rating a player's result counts at."""
    lines = [f"{markup.mention(user_id)} in {game.title} plays at a fixed rating per level:"]
    played = {r.level: r for r in records}
    for level in sorted(game.ai.names, key=lambda lvl: level_rating(game, lvl) or float("inf")):
        r = played.get(level, AiRecord(level))
        lines.append(f"{level_label(game, level)}: {_record(r.wins, r.losses, r.draws)}.")
    return "\n".join(lines)


# Said where a player reads a rating: why a game against someone met lately moved it less.
REPEATS_COUNT_LESS = (
    "A rated game against someone you already played in the 30 days before it counts less: "
    "the second counts half, the third a third, and so on."
)


def stats_text(game: Game, stats: PlayerStats, markup: Markup) -> str:
    """A player's record and rating in a game, and the rule that keeps a rating from being farmed
    off one opponent (RULES.md, "Ratings")."""
    return (
        f"{markup.mention(stats.user_id)} in {game.title}: {_record(stats.wins, stats.losses, stats.draws)}; "
        f"rating {stats.rating:.0f}.\n{REPEATS_COUNT_LESS}"
    )


def review_text(game: Game, match: Match, review: Review, markup: Markup) -> str:
    """A look back at a finished game, for the player who asked (privately): their costliest choices
    by the AI's judgement, each with what it preferred; the boards go with it, one per moment."""
    title = game.side(review.side).title
    lines = [
        f"{markup.strong(f'Looking back at game #{match.id}')} of {game.title}, where you played the {title}."
    ]
    if not review.choices:
        lines.append(
            "You made no move in this game that had an alternative, so there is nothing to look back at."
        )
        return "\n".join(lines)
    if not review.looked_at:
        which = "your one choice" if review.choices == 1 else f"any of your {review.choices} choices"
        lines.append(f"Time ran out before I could judge {which}.")  # not "any of your 1 choice"
        return "\n".join(lines)
    if not review.moments:
        none = (
            "your one choice cost you nothing"
            if review.choices == 1
            else "none of your choices cost you anything"
        )
        # no praise for a game the player ended themselves, by resigning or letting the clock run out
        gave_up = match.result_reason in LOSER_FIRST and match.winner_id != match.sides.get(review.side)
        lines.append(f"By my judgement {none} worth showing." + ("" if gave_up else " Well played."))
    elif len(review.moments) == 1:
        lines.append("By my judgement this choice cost you most (the board of that moment is below):")
    else:
        lines.append("By my judgement these choices cost you most (the board of each moment is below):")
    for n, moment in enumerate(review.moments, 1):
        view = game.view_from_json(moment.view)
        chosen = game.describe(view, game.parse(moment.chosen))
        preferred = game.describe(view, game.parse(moment.preferred))
        points = max(1, round(moment.cost * 50))
        when = f"{game.turn_label.lower()} {moment.turn}" if moment.turn else "set-up"
        lines.append(
            f"{n}. Action {moment.index + 1} ({when}): you played "
            f"{markup.strong(chosen)}; I would have played {markup.strong(preferred)}. "
            f"That cost you about {points} {'point' if points == 1 else 'points'} out of 100."
        )
    if review.looked_at < review.choices:
        judged = f"I judged {review.looked_at} of your {review.choices} choices (time ran out for the rest)"
    elif review.choices == 1:
        judged = "I judged your one choice"
    elif review.choices == 2:
        judged = "I judged both your choices"  # not "all 2 of your choices"
    else:
        judged = f"I judged all {review.choices} of your choices"
    each = ", each" if review.looked_at > 1 else ""  # not "each" of one choice
    lines.append(
        f"{judged}{each} from what you could see at the time; the points are my estimate of your chances."
    )
    return "\n".join(lines)
