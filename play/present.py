"""The words posted after each move, shared by the Discord cog and the console so both say the same.

Game-free: a game gives its own sentences (`Game.status`, its sides' titles, its outcome's words);
this module puts mentions, deadlines and the result around them. What goes to the channel reads
the spectator's view only; the direct messages (`private_text`, `turn_dm_text`) and a player's list
of games (`my_games_text`) are for one player's eyes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from data import Match, Status
from engine.errors import IllegalAction, InvalidNotation
from engine.protocol import Action, Event, Game, State, Verb, Weight
from play import fairness
from play.errors import MatchOver
from play.markup import Markup
from play.results import (
    SEPARATOR,
    HistoryEntry,
    Played,
    Refused,
    Step,
    clock_limits,
    game_of,
)
from play.words import duration_text, history_line


def when(markup: Markup, ts: float | None) -> str:
    """A deadline in the adapter's words (Discord: a live timestamp in each reader's zone)."""
    return markup.relative(ts) if ts else "no deadline"


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


def limits_text(game: Game, options: Mapping[str, Any], set_by: str = "with the challenge") -> str:
    """The game's limits of ours (a turn limit the rule texts do not have), always stated, so
    both players know how the game can end besides its own victory: "Turn limit: 20 turns each,
    then a draw (set at the challenge; 0 switches it off)."; '' for a game without one. `set_by`:
    who sets it (a tournament's organiser, when it is made: its players cannot)."""
    out = []
    on = False  # "0 switches it off" is no news of a limit that is off already
    for spec in game.options:
        if spec.limit:
            value = options.get(spec.name, spec.default)
            on = on or value not in (0, "0")
            out.append(f"{spec.label}: {spec.stated(value)}")
    if not out:
        return ""
    return "; ".join(out) + f" (a rule of ours, set {set_by}{'; 0 switches it off' if on else ''})."


def terms_text(game: Game, options: Mapping[str, Any], set_by: str = "with the challenge") -> str:
    """What a challenge (or a game against the AI, or a tournament's games) is played under, for
    its first message: the optional rules chosen and the limits; ' Optional rules: …. Turn limit:
    ….' or ''."""
    rules = options_text(game, options)
    out = f" Optional rules: {rules}." if rules else ""
    limits = limits_text(game, options, set_by)
    return f"{out} {limits}" if limits else out


def standing_actions(
    game: Game, verb: Verb | None = None, state: State | None = None, side: str | None = None
) -> list[Action]:
    """The any-time actions a verb's fixed choices play (standing orders): either player may send
    them whoever is to act, and `legal_actions` never lists them. No verb: those of every verb.
    With a position and a side, only those that side may give there: a switch already set the way
    it would set it is refused, so it is not offered (tried on a copy, which is then dropped)."""
    out: list[Action] = []
    for v in (verb,) if verb is not None else game.verbs:
        for choice in v.choices:
            try:
                action = game.parse(v.notation(choice))
            except InvalidNotation:
                continue
            if not action.anytime:
                continue
            if state is not None and side is not None:
                try:
                    state.clone().apply(action, side)
                except IllegalAction:
                    continue
            out.append(action)
    return out


def chosen_side_text(game: Game, side: str) -> str:
    """The side a challenger asked for, as a player says it: "the <side title>", "chosen at random"."""
    return "chosen at random" if side == "random" else f"the {game.side(side).title}"


def tells_why(story: str, state: State) -> bool:
    """Whether the last line of `story` already says why the game ended: every game's end line
    carries the outcome's detail (engine/meta.py `ended_text`: "The <loser> resigned: the <winner>
    win"), so the status under it need not say it again."""
    outcome = state.outcome()
    lines = [ln for ln in story.splitlines() if ln.strip()]
    return outcome is not None and bool(lines) and outcome.detail.lower() in lines[-1].lower()


def outcome_text(match: Match, state: State, markup: Markup, *, why_told: bool = False) -> str | None:
    """How the game ended, or None while it goes on; once the match is finished, with its secret
    seed revealed (play/fairness.py). `why_told`: the lines just before say why (the end line of
    the action that ended it, a loss on time), so only who won is said, not the reason again."""
    outcome = state.outcome()
    if outcome is None:
        return None
    reveal = fairness.reveal_text(match)
    reveal = f"\n{reveal}" if reveal else ""
    why = "" if why_told else f" ({outcome.detail})"
    if outcome.winner is None:
        return f"{markup.strong('Game over: a draw')}{why}.{reveal}"
    winner = match.sides.get(outcome.winner)
    title = game_of(match).side(outcome.winner).title
    if winner is None:
        return f"{markup.strong(f'Game over: the {title} win')}{why}.{reveal}"
    won = markup.strong(f"Game over: {markup.mention(winner)} wins with the {title}")
    return f"{won}{why}.{reveal}"


def status_text(match: Match, state: State, markup: Markup, *, why_told: bool = False) -> str:
    """Whose move it is and by when (one line per side that owes an action), or how the game ended
    (`why_told`: see `outcome_text`)."""
    over = outcome_text(match, state, markup, why_told=why_told)
    if over is not None:
        return over
    rules = game_of(match)
    public = state.view(None)
    due = when(markup, match.deadline)
    lines = []
    for side in sorted(state.to_act()):
        player = markup.mention(match.sides[side]) if side in match.sides else rules.side(side).title
        clock = clock_due(match, match.sides.get(side), "their")
        lines.append(f"{rules.status(public, side).replace('{player}', player)} Due {due}{clock}.")
    return "\n".join(lines)


def clock_due(match: Match, user_id: int | None, whose: str) -> str:
    """After "due <when>" for a turn whose deadline the player's game clock sets: that it does and
    what was left on it when the turn began; '' otherwise (the turn's own deadline, or no clock)."""
    left = None if user_id is None else clock_limits(match, user_id)
    if left is None:
        return ""
    return (
        f", when {whose} clock for this game runs out ({duration_text(left)} left on it as this turn began)"
    )


NEWS_LINES = 5  # a stretch is told action by action in at most this many lines (the status follows)...
NEWS_CHARS = 700  # ...and characters; a longer one is summarised (`news`) in as few lines
NEWS_LINE = 240  # characters of one line of a summary, cut at a word


def recap(steps: Sequence[Step], markup: Markup, viewer: str | None = None) -> str:
    """What a command or a stretch did, as `viewer` (None: the channel) may know it, in a few lines.

    A short one is its actions' stories (`story_lines`). A longer one (an AI's turn of 25 actions,
    a pass that closed a round with three battles) would bury the board under a wall of text, and
    the turn DM has no board: it is summarised by `news`, what changed the game first."""
    lines = [ln for step in steps for ln in story_lines(step.who, step.notation, step.events, viewer)]
    lines = [ln for ln in lines if ln.strip()]
    if _short(lines):
        return "\n".join(lines)
    return news(steps, markup, viewer)


def _short(lines: Sequence[str]) -> bool:
    """Whether these lines read at a glance on a phone, so need no summary."""
    return (
        len(lines) <= NEWS_LINES
        and all(len(ln) <= NEWS_LINE for ln in lines)
        and sum(len(ln) + 1 for ln in lines) <= NEWS_CHARS
    )


def _weight(event: Event) -> int:
    return int(getattr(event, "weight", Weight.ROUTINE))


def news(steps: Sequence[Step], markup: Markup, viewer: str | None = None) -> str:
    """A stretch of actions in at most `NEWS_LINES` lines, ranked by what matters to the reader.

    First a headline: who played how many actions, what each side lost, named, and where the sides
    stand towards victory (the events' `loss` and `score`); then the actions that did something
    (an attack and its result, a card played, a move that threatens: events of weight DECISIVE or
    more), the weightiest and latest first if they do not all fit, in the order played; then how
    many were left out, with `history`, which lists every one. Nothing is cut inside a word."""
    counts: dict[str, int] = {}  # actions by side, in the order the sides first acted
    for step in steps:
        counts[step.who] = counts.get(step.who, 0) + 1
    head = "; ".join(f"{who}, {_plural(n, 'action')}" for who, n in counts.items())
    losses: dict[str, list[str]] = {}
    scores: dict[object, str] = {}
    items: list[tuple[int, int, str]] = []  # (weight, order, words)
    quiet = 0  # actions with nothing worth a line
    for step in steps:
        seen = [kept for e in step.events if (kept := e.seen_by(viewer)) is not None]
        for e in seen:
            loss = getattr(e, "loss", None)
            if loss is not None:
                losses.setdefault(loss[0], []).append(loss[1])
            score = getattr(e, "score", None)
            if score:
                scores[getattr(e, "side", None)] = score
        told = [
            (w, text, e) for e in seen if (w := _weight(e)) > Weight.ROUTINE and (text := _brief(e, viewer))
        ]
        if not told:
            quiet += all(_weight(e) == Weight.ROUTINE for e in seen)  # else its loss heads the news
            continue
        who = f"{step.who}: " if len(counts) > 1 else ""
        weight = max(_weight(e) for e in seen)  # a loss counts even where its cause tells it
        whole = who + "; ".join(text for _, text, _ in told)
        if len(whole) <= NEWS_LINE or len(told) == 1:
            items.append((weight, len(items), _capital(whole)))
            continue
        # An action that did much (a pass that closed a round with three battles): each result a
        # line of its own, but not the losses, which the headline names already.
        for _, text, _ in [t for t in told if getattr(t[2], "loss", None) is None] or told[-1:]:
            items.append((weight, len(items), _capital(who + text)))
    lines = [markup.strong(f"{head}.") + "".join(f" {_capital(t)}." for t in _losses_words(losses))]
    if scores:
        standing = _capital("; ".join(scores.values())) + "."
        if len(lines[0]) + len(standing) < NEWS_LINE:
            lines[0] += f" {standing}"
        else:
            lines.append(standing)
    room = NEWS_LINES - len(lines)
    if quiet or len(items) > room:
        room -= 1  # the last line says what was left out
    shown = sorted(
        sorted(items, key=lambda i: (i[0], i[1]), reverse=True)[: max(0, room)], key=lambda i: i[1]
    )
    lines += [_words(text, NEWS_LINE) for _, _, text in shown]
    left = len(items) - len(shown)
    rest = []
    if left:
        rest.append(f"{left} more {'result' if left == 1 else 'results'} of note")
    if quiet and (left or shown):
        rest.append(_plural(quiet, "routine action"))
    if rest:
        lines.append(f"And {' and '.join(rest)}: `history` lists each action.")
    elif quiet:
        lines.append("No attack and no loss: `history` lists each action.")
    return "\n".join(_words(line, NEWS_LINE + 60) for line in lines)


def _brief(event: Event, viewer: str | None) -> str:
    """The event in the fewest words its game gives (`brief`), else its history words."""
    brief = getattr(event, "brief", None)
    return str(brief(viewer)) if callable(brief) else event.text(viewer)


def _losses_words(losses: Mapping[str, list[str]], most: int = 6) -> list[str]:
    """'the Eastern side lost A3 and B5': a clause per side that lost something."""
    out = []
    for who, lost in losses.items():
        shown = lost if len(lost) <= most else [*lost[: most - 1], f"{len(lost) - most + 1} more"]
        out.append(f"the {who} lost {_and_list(shown)}")
    return out


def _and_list(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _words(text: str, most: int) -> str:
    """`text` in at most `most` characters, cut between words with an ellipsis, never inside one."""
    if len(text) <= most:
        return text
    cut = text[: most - 1]
    space = cut.rfind(" ")
    if space > most // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:(") + "…"


def played_text(played: Played, markup: Markup, limit: int | None = None) -> str:
    """The message that goes with the new board after an action or a stretch of them: what
    happened as the console tells it (`told`: an action that set off much one event a line, a long
    stretch recapped) and who acts now, fitted to `limit` by `fitted`; under the line that ended the
    game, who won without the reason again ("Game over: @x wins with the <side>.")."""
    story = told(played, markup)
    status = status_text(played.match, played.state, markup, why_told=tells_why(story, played.state))
    return fitted(story, status, limit)


def ended_meanwhile_text(
    played: Played, final: Match, state: State | None, markup: Markup, limit: int | None = None
) -> str:
    """The message of a board for what a side stored just before its game ended under it (its
    opponent resigned while the AI was thinking): what it did, said to come before the end, and how
    the game ended, whichever of this and the game-over board the channel gets first."""
    side = played.match.side_of(played.actor_id)
    who = f"The {game_of(final).side(side).title} played this" if side else "This was played"
    end = outcome_text(final, state, markup) if state is not None else None
    if end is None:
        end = "The game was cancelled." if final.status is Status.CANCELLED else "The game is over."
    return fitted(told(played, markup), f"{who} before the game ended. {end}", limit)


def fitted(story: str, status: str, limit: int | None = None) -> str:
    """`story` then `status`, in at most `limit` characters (Discord's message size): a story too
    long loses lines from its end and says how many; the status (who acts now) is never cut."""
    if limit is None or len(story) + 1 + len(status) <= limit:
        return f"{story}\n{status}"
    lines = story.split("\n")
    kept: list[str] = []
    for n, line in enumerate(lines):
        more = f"… and {len(lines) - n} more (too many for one message)."
        if len("\n".join([*kept, line, more, status])) > limit:
            return "\n".join([*kept, more, status])[:limit]
        kept.append(line)
    return "\n".join([*kept, status])


def private_text(match: Match, secret: str, markup: Markup) -> str:
    """A direct message with what the game dealt one player privately (their drawn cards)."""
    return f"In {game_of(match).title} in {markup.channel(match.channel_id)}, only you see this: {secret}."


def turn_dm_text(
    match: Match,
    stretch: Played,
    user_id: int,
    markup: Markup,
    secret: str | None = None,
    limit: int | None = None,
) -> str:
    """The turn ping by direct message: whose game, by when, what the opponent did since `user_id`
    last acted (as their side may know it) and what the game dealt them privately meanwhile. Within
    `limit` characters only the recap is shortened: the ping and the dealt cards are never cut."""
    due = when(markup, match.deadline) if match.deadline else "whenever you like"
    clock = clock_due(match, user_id, "your") if match.deadline else ""
    head = f"Your move in {game_of(match).title} in {markup.channel(match.channel_id)}, due {due}{clock}."
    side = match.side_of(user_id)
    since = recap([s for s in stretch.steps if s.player_id != user_id], markup, side)
    dealt = f"\nOnly you see this: {secret}." if secret and secret not in since else ""
    owed = owed_text(match, stretch.state, side)
    if not since:
        return head + owed + dealt
    lead = " Since you last acted:\n"
    if limit is not None and len(head) + len(lead) + len(since) + len(owed) + len(dealt) > limit:
        dealt = f"\nOnly you see this: {secret}." if secret else ""
        room = limit - len(head) - len(lead) - len(owed) - len(dealt)
        if room < 40:  # too little to say anything useful: the channel tells the rest
            return (head + owed + dealt)[:limit]
        since = _words(since, room)
    return head + lead + since + owed + dealt


def owed_text(match: Match, state: State, side: str | None) -> str:
    """What the turn ping's reader owes now, a line in the game's words ("You (<side>) must decide:
    ..."): on a phone a decision says more than "your move"; '' when they owe nothing."""
    if side is None or state.is_over() or side not in state.to_act():
        return ""
    said = game_of(match).status(state.view(None), side).replace("{player}", "you").strip()
    return f"\n{_capital(said)}" if said else ""


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
    """A command's history as `story_lines` tells it, action by action."""
    if not played.steps:
        return played.line
    return "\n".join(
        ln for step in played.steps for ln in story_lines(step.who, step.notation, step.events, viewer)
    )


def told(played: Played, markup: Markup, viewer: str | None = None) -> str:
    """The words after a command or a stretch, the same in the channel, the console and the turn
    DM: each action's story (`played_story`), or a summary when that would not read at a glance
    (`recap`)."""
    if not played.steps:
        return played.line
    return recap(played.steps, markup, viewer)


def _capital(text: str) -> str:
    """A line's first letter in capitals, unless its first word is notation: "d5 attacks e6", not
    "D5 attacks e6", a square no board names."""
    if any(ch.isdigit() for ch in text.split(" ", 1)[0]):
        return text
    return text[:1].upper() + text[1:]


def history_text(entries: Sequence[HistoryEntry], markup: Markup, limit: int = 1900) -> str:
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
                lines.append(markup.strong(entry.heading))
            lines.append(f"{entry.number}. {entry.line}")
        if len(shown) < len(entries):
            dropped = len(entries) - len(shown)
            # not "The 1 older action" nor "the last 1"
            gone = "The oldest action" if dropped == 1 else f"The {dropped} older actions"
            kept = "the latest only" if len(shown) == 1 else f"the last {len(shown)}"
            lines.insert(0, f"({gone} asked for did not fit; showing {kept}.)")
        text = "\n".join(lines)
        if len(text) <= limit or len(shown) == 1:
            return text[:limit]
        shown = shown[1:]


def rules_text(game: Game, topic: str | None = None, options: Mapping[str, Any] | None = None) -> str:
    """A rules topic; the first (the overview, also when `topic` is unknown or None) ends with the
    list of topics, so a player learns there is more to ask for. `options` are those of the match
    the player asks about (None: no match, the newest rules, which a new challenge plays): a game
    keeps the edition of the rules it began with, and its players read that edition's, told so
    first, so nobody reads a rule their game does not play."""
    rules = game.rules if options is None else game.rules_for(options)
    topics = list(rules)
    chosen = topic if topic is not None and topic in rules else topics[0]
    text = rules[chosen]
    if chosen == topics[0]:
        text += f"\nTopics: {', '.join(topics)} (`/{game.name} rules topic:…`)."
    edition = game.edition if options is None else game.edition_of(options)
    if edition < game.edition:
        text = f"{edition_note(game, edition)}\n{text}"
    return text


def edition_note(game: Game, edition: int) -> str:
    """The line before the rules of a game that keeps an older edition: which one it plays, and
    where the newest is read (anywhere no game of this kind is open)."""
    return (
        f"This game keeps edition {edition} of our rulings, the one it began under. New challenges play "
        f"edition {game.edition}, which `/{game.name} rules` shows where no {game.title} game is open."
    )


def partly_made(refused: Refused, texts: Sequence[str], stood: tuple[int, str], still_yours: bool) -> str:
    """What the player alone is told of a command (`texts`, its actions) that stood in part: the steps
    before `refused` were played and stand because step `stood[0]` drew chance or showed something
    hidden (`stood[1]` says which), and `refused` was not made, nor anything after it. Words the
    bot puts after "Only you see this:"; the refusal's own are the engine's, computed on the
    position the player now sees."""
    first, did = stood
    of, made = len(texts), refused.n - 1
    span = f"action 1 of {of}" if made == 1 else f"actions 1 to {made} of {of}"
    cause = "it" if made == 1 else f"action {first}"
    rest = "" if refused.n == of else f", nor anything after it ({of - refused.n} more)"
    if of - refused.n == 1:
        rest = ", nor the one after it"
    text = (
        f"only part of your command was played: {span} stood, as {cause} {did}, which is never taken "
        f"back. Action {refused.n} (`{refused.notation}`) was not made{rest}: {refused.why}"
    )
    if refused.kind is MatchOver:
        return text.rstrip(".")
    if still_yours:
        shown = ", ".join(f"`{h}`" for h in refused.hints[:4])
        text += " It is still your turn: send your next action" + (f" (legal now: {shown})" if shown else "")
        return text
    later = f"{SEPARATOR} ".join(texts[refused.n - 1 :])
    return text + f" Send `{later}` when it is your turn again, if it still fits"
