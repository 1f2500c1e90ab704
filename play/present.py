"""The words posted after each move, shared by the Discord cog and the console so both say the same.

Game-free: a game gives its own sentences (`Game.status`, its sides' titles, its outcome's words);
this module puts mentions, deadlines and the result around them. What goes to the channel reads
the spectator's view only; the direct messages (`private_text`, `turn_dm_text`) and a player's list
of games (`my_games_text`) are for one player's eyes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from data import Match, Status
from engine.errors import IllegalAction, InvalidNotation
from engine.protocol import Action, Game, State, Verb
from play import fairness
from play.errors import MatchOver
from play.markup import Markup
from play.news import capital, clipped, recap, told
from play.results import (
    SEPARATOR,
    HistoryEntry,
    Played,
    Refused,
    clock_limits,
    game_of,
)
from play.words import duration_text


def when(markup: Markup, ts: float | None) -> str:
    """A deadline in the adapter's words (Discord: a live timestamp in each reader's zone)."""
    return markup.deadline(ts) if ts else "no deadline"


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


def played_text(
    played: Played,
    markup: Markup,
    limit: int | None = None,
    words: Callable[[str], str] | None = None,
    viewer: str | None = None,
) -> str:
    """The message that goes with the new board after an action or a stretch of them: what
    happened as the console tells it (`told`: an action that set off much one event a line, a long
    stretch recapped) and who acts now, fitted to `limit` by `fitted`; under the line that ended the
    game, who won without the reason again ("Game over: @x wins with the <side>."). `words`: the
    adapter's words for the status (Discord names the board's buttons), applied before fitting.
    `viewer`: the one side the message goes to (a private step's answer), told the story as it saw
    it (the cards it drew, not their count); None for the channel."""
    story = told(played, markup, viewer)
    status = status_text(played.match, played.state, markup, why_told=tells_why(story, played.state))
    status = status if words is None else words(status)
    ping = turn_ping(played.match, played.state, markup) if played.hands_off and not played.mid_turn else ""
    if not ping:
        return fitted(story, status, limit)
    return f"{ping}\n{fitted(story, status, None if limit is None else limit - len(ping) - 1)}"


def turn_ping(match: Match, state: State, markup: Markup) -> str:
    """The first line of a hand-off's board, all a phone's notification shows of it: who is to move
    and in which game, since a server may hold several ("@ann, your move in <title> (vs @bob).");
    '' when no person owes a move (the game is over, or only the AI is to act)."""
    if state.is_over():
        return ""
    waiting = [s for s in sorted(state.to_act()) if s in match.sides and match.sides[s] != match.ai_player_id]
    if not waiting:
        return ""
    who = " and ".join(markup.mention(match.sides[s]) for s in waiting)
    others = [s for s in match.sides if s not in waiting]
    against = ""
    if len(others) == 1:
        uid = match.sides[others[0]]
        against = " (vs the AI)" if uid == match.ai_player_id else f" (vs {markup.mention(uid)})"
    return f"{who}, your move in {game_of(match).title}{against}."


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
    owed_words: Callable[[str], str] | None = None,
) -> str:
    """The turn ping by direct message: whose game, by when, what the opponent did since `user_id`
    last acted (as their side may know it) and what the game dealt them privately meanwhile. Within
    `limit` characters only the recap is shortened: the ping and the dealt cards are never cut.
    `owed_words`: the adapter's words for the owed line (Discord names the board's buttons)."""
    due = when(markup, match.deadline) if match.deadline else "whenever you like"
    clock = clock_due(match, user_id, "your") if match.deadline else ""
    head = f"Your move in {game_of(match).title} in {markup.channel(match.channel_id)}, due {due}{clock}."
    side = match.side_of(user_id)
    since = recap([s for s in stretch.steps if s.player_id != user_id], markup, side, match.game)
    dealt = f"\nOnly you see this: {secret}." if secret and secret not in since else ""
    owed = owed_text(match, stretch.state, side)
    if owed_words is not None:
        owed = owed_words(owed)
    if not since:
        return head + owed + dealt
    lead = " Since you last acted:\n"
    if limit is not None and len(head) + len(lead) + len(since) + len(owed) + len(dealt) > limit:
        dealt = f"\nOnly you see this: {secret}." if secret else ""
        room = limit - len(head) - len(lead) - len(owed) - len(dealt)
        if room < 40:  # too little to say anything useful: the channel tells the rest
            return (head + owed + dealt)[:limit]
        since = clipped(since, room)
    return head + lead + since + owed + dealt


def owed_text(match: Match, state: State, side: str | None) -> str:
    """What the turn ping's reader owes now, a line in the game's words ("You (<side>) must decide:
    ..."): on a phone a decision says more than "your move"; '' when they owe nothing."""
    if side is None or state.is_over() or side not in state.to_act():
        return ""
    said = game_of(match).status(state.view(None), side).replace("{player}", "you").strip()
    return f"\n{capital(said)}" if said else ""


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


def draw_answer_text(game: str, answering: Sequence[int], markup: Markup, *, declines: bool) -> str:
    """Under a board with a draw offer standing, where answers are typed (the console): whose
    answer it is, and how to give it; Discord's names its buttons (cogs/outbox.py). Decline is
    offered only where it would go through now (`declines_now`), as on Discord."""
    who = " and ".join(markup.mention(user) for user in answering)
    accept, decline = f"`/{game} draw accept`", f"`/{game} draw decline`"
    if declines:
        return f"{who}: accept or decline the draw ({accept} or {decline})."
    return f"{who}: accept the draw with {accept}, or decline it once it is your turn."
