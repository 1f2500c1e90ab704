"""What a command or a stretch of actions did, told in words that read at a glance on a phone:
each action's story, or a summary ranked by what matters to the reader when the stories would bury
the board. Shared by the channel, the console and the turn DM (play/present.py puts the status and
the deadlines around it); game-free: each event gives its own words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.protocol import Event, Weight
from play.markup import Markup
from play.results import Played, Step
from play.words import history_line

NEWS_LINES = 5  # a stretch is told action by action in at most this many lines (the status follows)...
NEWS_CHARS = 700  # ...and characters; a longer one is summarised (`news`) in as few lines
NEWS_LINE = 240  # characters of one line of a summary, cut at a word


def recap(steps: Sequence[Step], markup: Markup, viewer: str | None = None, game: str = "") -> str:
    """What a command or a stretch did, as `viewer` (None: the channel) may know it, in a few lines.

    A short one is its actions' stories (`story_lines`). A longer one (an AI's turn of 25 actions,
    a pass that closed a round with three battles) would bury the board under a wall of text, and
    the turn DM has no board: it is summarised by `news`, what changed the game first. `game`: the
    name of the game's command group, for the history command the summary points to."""
    lines = [ln for step in steps for ln in story_lines(step.who, step.notation, step.events, viewer)]
    lines = [ln for ln in lines if ln.strip()]
    if _short(lines):
        return "\n".join(lines)
    return news(steps, markup, viewer, game)


def _short(lines: Sequence[str]) -> bool:
    """Whether these lines read at a glance on a phone, so need no summary."""
    return (
        len(lines) <= NEWS_LINES
        and all(len(ln) <= NEWS_LINE for ln in lines)
        and sum(len(ln) + 1 for ln in lines) <= NEWS_CHARS
    )


def _weight(event: Event) -> int:
    return int(getattr(event, "weight", Weight.ROUTINE))


def news(steps: Sequence[Step], markup: Markup, viewer: str | None = None, game: str = "") -> str:
    """A stretch of actions in at most `NEWS_LINES` lines, ranked by what matters to the reader.

    First a headline: who played how many actions, what each side lost, named, and where the sides
    stand towards victory (the events' `loss` and `score`); then the actions that did something
    (an attack and its result, a card played, a move that threatens: events of weight DECISIVE or
    more), the weightiest and latest first if they do not all fit, in the order played; then how
    many were left out, with the history command (`/<game> history`, as Discord and the console
    both take it), which lists every one. Nothing is cut inside a word."""
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
            items.append((weight, len(items), capital(whole)))
            continue
        # An action that did much (a pass that closed a round with three battles): each result a
        # line of its own, but not the losses, which the headline names already.
        for _, text, _ in [t for t in told if getattr(t[2], "loss", None) is None] or told[-1:]:
            items.append((weight, len(items), capital(who + text)))
    lines = [markup.strong(f"{head}.") + "".join(f" {capital(t)}." for t in _losses_words(losses))]
    if scores:
        standing = capital("; ".join(scores.values())) + "."
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
    lines += [clipped(text, NEWS_LINE) for _, _, text in shown]
    left = len(items) - len(shown)
    rest = []
    if left:
        rest.append(f"{left} more {'result' if left == 1 else 'results'} of note")
    if quiet and (left or shown):
        rest.append(_plural(quiet, "routine action"))
    history = f"`/{game} history`" if game else "`history`"
    if rest:
        lines.append(f"And {' and '.join(rest)}: {history} lists each action.")
    elif quiet:
        lines.append(f"No attack and no loss: {history} lists each action.")
    return "\n".join(clipped(line, NEWS_LINE + 60) for line in lines)


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


def clipped(text: str, most: int) -> str:
    """`text` in at most `most` characters, cut between words with an ellipsis, never inside one."""
    if len(text) <= most:
        return text
    cut = text[: most - 1]
    space = cut.rfind(" ")
    if space > most // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:(") + "…"


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
            out.extend(f"    {capital(text)}" for _, text in rest[n : n + run])
        else:
            out.extend(f"  {capital(text)}" for _, text in rest[n : n + run])
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
    return recap(played.steps, markup, viewer, played.match.game)


def capital(text: str) -> str:
    """A line's first letter in capitals, unless its first word is notation: "d5 attacks e6", not
    "D5 attacks e6", a square no board names."""
    if any(ch.isdigit() for ch in text.split(" ", 1)[0]):
        return text
    return text[:1].upper() + text[1:]
