"""The words posted after each move, shared by the Discord cog and the console so both say the same.

Game-free: a game gives its own sentences (`Game.status`, its sides' titles, its outcome's words);
this module puts mentions, deadlines and the result around them. Everything here is public, so it
reads the spectator's view only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from data import AiRecord, Match, PlayerStats
from engine import registry
from engine.errors import InvalidNotation
from engine.protocol import Action, Event, Game, State, Verb
from engine.review import Review
from play.ratings import Standing, about, level_label, level_rating
from play.service import HistoryEntry, Played, game_of, history_line


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def when(ts: float | None) -> str:
    """A Discord timestamp, so each reader sees the deadline in their own zone."""
    return f"<t:{int(ts)}:R>" if ts else "no deadline"


def options_text(game: Game, options: Mapping[str, Any]) -> str:
    """The optional rules chosen, in words ("Crosses, Fighter aces"); '' when none differs from the
    default."""
    out = []
    for spec in game.options:
        value = options.get(spec.name, spec.default)
        if spec.limit:
            continue  # stated always, by limits_text
        if isinstance(spec.default, bool):
            if value:
                out.append(spec.label)
        elif value != spec.default:
            out.append(f"{spec.label}: {value}")
    return ", ".join(out)


def limits_text(game: Game, options: Mapping[str, Any]) -> str:
    """The game's limits of ours (a turn limit the rule texts do not have), always stated, so
    both players know how the game can end besides its own victory: "Turn limit: 20 turns each,
    then a draw (set at the challenge; 0 switches it off)."; '' for a game without one."""
    out = []
    for spec in game.options:
        if spec.limit:
            out.append(f"{spec.label}: {spec.stated(options.get(spec.name, spec.default))}")
    if not out:
        return ""
    return "; ".join(out) + " (a rule of ours, set with the challenge; 0 switches it off)."


def terms_text(game: Game, options: Mapping[str, Any]) -> str:
    """What a challenge (or a game against the AI) is played under, for its first message: the
    optional rules chosen and the limits; ' Optional rules: …. Turn limit: ….' or ''."""
    rules = options_text(game, options)
    out = f" Optional rules: {rules}." if rules else ""
    limits = limits_text(game, options)
    return f"{out} {limits}" if limits else out


def standing_actions(game: Game, verb: Verb | None = None) -> list[Action]:
    """The any-time actions a verb's fixed choices play (standing orders): either player may send
    them whoever is to act, and `legal_actions` never lists them. No verb: those of every verb."""
    out: list[Action] = []
    for v in (verb,) if verb is not None else game.verbs:
        for choice in v.choices:
            try:
                action = game.parse(v.notation(choice))
            except InvalidNotation:
                continue
            if action.anytime:
                out.append(action)
    return out


def chosen_side_text(game: Game, side: str) -> str:
    """The side a challenger asked for, as a player says it: "the <side title>", "chosen at random"."""
    return "chosen at random" if side == "random" else f"the {game.side(side).title}"


def outcome_text(match: Match, state: State) -> str | None:
    """How the game ended, or None while it goes on."""
    outcome = state.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return f"**Game over: a draw** ({outcome.detail})."
    winner = match.sides.get(outcome.winner)
    who = f" {mention(winner)}" if winner else ""
    title = game_of(match).side(outcome.winner).title
    return f"**Game over: the {title} win**{who} ({outcome.detail})."


def status_text(match: Match, state: State) -> str:
    """Whose move it is and by when (one line per side that owes an action), or how the game ended."""
    over = outcome_text(match, state)
    if over is not None:
        return over
    rules = game_of(match)
    public = state.view(None)
    due = when(match.deadline)
    lines = []
    for side in sorted(state.to_act()):
        player = mention(match.sides[side]) if side in match.sides else rules.side(side).title
        lines.append(f"{rules.status(public, side).replace('{player}', player)} Due {due}.")
    return "\n".join(lines)


def played_text(played: Played) -> str:
    """The message that goes with the new board after an action."""
    return f"{played.line}\n{status_text(played.match, played.state)}"


LONG_LINE = 160  # characters: an action's history line longer than this is told one event a line


def story_lines(who: str, notation: str, events: Sequence[Event], viewer: str | None = None) -> list[str]:
    """One action's history line or, when it set off much (a pass that closes a phase: a battle, the
    end of the round, the next attrition), one line per event: the action first, the rest under the
    part of the turn each belongs to (the events' optional `heading`), a part of one event alone."""
    line = history_line(who, notation, events, viewer)
    seen = [
        (kept, text)
        for e in events
        if (kept := e.seen_by(viewer)) is not None and (text := kept.text(viewer))
    ]
    if len(line) <= LONG_LINE or len(seen) < 3:
        return [line]
    out = [history_line(who, notation, [seen[0][0]], viewer)]
    rest = seen[1:]
    n = 0
    while n < len(rest):
        heading = getattr(rest[n][0], "heading", None)
        run = 1
        while (
            heading is not None
            and n + run < len(rest)
            and getattr(rest[n + run][0], "heading", None) == heading
        ):
            run += 1
        if heading is not None and run > 1:
            out.append(f"  {heading}:")
            out.extend(f"    {_capital(text)}" for _, text in rest[n : n + run])
        else:
            out.extend(f"  {_capital(text)}" for _, text in rest[n : n + run])
        n += run
    return out


def played_story(played: Played, viewer: str | None = None) -> str:
    """A command's history as `story_lines` tells it, action by action (the console's reply)."""
    if not played.steps:
        return played.line
    rules = game_of(played.match)
    side = played.match.side_of(played.actor_id)
    who = rules.side(side).title if side else "?"
    return "\n".join(
        ln for notation, events in played.steps for ln in story_lines(who, notation, events, viewer)
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def history_text(entries: Sequence[HistoryEntry], limit: int = 1900) -> str:
    """The history as a reader wants it: each turn under a heading, each action numbered from the
    game's first; when it does not all fit in `limit` characters, the oldest go and it says so."""
    if not entries:
        return "Nothing has been played yet."
    shown = list(entries)
    while True:
        lines: list[str] = []
        turn: int | None = None
        for entry in shown:
            if entry.turn != turn:
                turn = entry.turn
                lines.append(f"**{entry.heading}**")
            lines.append(f"{entry.number}. {entry.line}")
        if len(shown) < len(entries):
            dropped = len(entries) - len(shown)
            more = "action" if dropped == 1 else "actions"
            lines.insert(
                0, f"(The {dropped} older {more} asked for did not fit; showing the last {len(shown)}.)"
            )
        text = "\n".join(lines)
        if len(text) <= limit or len(shown) == 1:
            return text[:limit]
        shown = shown[1:]


def rules_text(game: Game, topic: str | None = None) -> str:
    """A rules topic; the first (the overview, also when `topic` is unknown or None) ends with the
    list of topics, so a player learns there is more to ask for."""
    topics = list(game.rules)
    chosen = topic if topic is not None and topic in game.rules else topics[0]
    text = game.rules[chosen]
    if chosen == topics[0]:
        text += f"\nTopics: {', '.join(topics)} (`/{game.name} rules topic:…`)."
    return text


def games_text() -> str:
    """Every hosted game and how to start it (`/wargames games`)."""
    return "\n".join(f"**/{g.name}**: {g.title}. Start with `/{g.name} challenge`." for g in registry.games())


def side_label(match: Match, user_id: int) -> str:
    side = match.side_of(user_id)
    return game_of(match).side(side).title if side else "spectator"


def _record(wins: int, losses: int, draws: int) -> str:
    return f"{wins} won, {losses} lost, {draws} drawn"


def leaderboard_text(game: Game, rows: Sequence[Standing]) -> str:
    """One game's leaderboard: players by rating, the AI at each level it played among them (at its
    level's fixed rating, `play.ratings`)."""
    if not rows:
        return f"No finished {game.title} games yet."
    lines = [f"**{game.title} leaderboard**"]
    for i, s in enumerate(rows, 1):
        who = mention(s.user_id) + (f" (the AI at {s.level})" if s.level else "")
        rating = f"about {about(s.rating)}" if s.level else f"{s.rating:.0f}"
        lines.append(f"{i}. {who}: {rating} ({s.wins}-{s.losses}-{s.draws})")
    if any(s.level for s in rows):
        lines.append("The AI's rating is its level's, measured between the levels; it does not change.")
    return "\n".join(lines)


def ai_stats_text(game: Game, user_id: int, records: Sequence[AiRecord]) -> str:
    """The AI's record in a game, level by level, each with the rating a player's result counts at."""
    lines = [f"{mention(user_id)} in {game.title} plays at a fixed rating per level:"]
    played = {r.level: r for r in records}
    for level in sorted(game.ai.names, key=lambda lvl: level_rating(game, lvl) or float("inf")):
        r = played.get(level, AiRecord(level))
        lines.append(f"{level_label(game, level)}: {_record(r.wins, r.losses, r.draws)}.")
    return "\n".join(lines)


def stats_text(game: Game, stats: PlayerStats) -> str:
    """A player's record and rating in a game."""
    return (
        f"{mention(stats.user_id)} in {game.title}: {_record(stats.wins, stats.losses, stats.draws)}; "
        f"rating {stats.rating:.0f}."
    )


def review_text(game: Game, match: Match, review: Review) -> str:
    """A look back at a finished game, for the player who asked (privately): their costliest choices
    by the AI's judgement, each with what it preferred; the boards go with it, one per moment."""
    title = game.side(review.side).title
    lines = [f"**Looking back at game #{match.id}** of {game.title}, where you played the {title}."]
    if not review.moments:
        lines.append("By my judgement none of your choices cost you anything worth showing. Well played.")
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
            f"**{chosen}**; I would have played **{preferred}**. That cost you about {points} "
            f"{'point' if points == 1 else 'points'} out of 100."
        )
    judged = f"I judged {review.looked_at} of your {review.choices} choices"
    if review.looked_at < review.choices:
        judged += " (time ran out for the rest)"
    lines.append(
        f"{judged}, each from what you could see at the time; the points are my estimate of your chances."
    )
    return "\n".join(lines)
