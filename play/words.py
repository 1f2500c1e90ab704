"""The sentences the service itself writes about a move, in one place: a step's history line, what
its events say, what a side alone learnt, a count of days. Discord-free and game-free."""

from __future__ import annotations

from collections.abc import Sequence

from engine.protocol import Event


def summary(events: Sequence[Event], viewer: str | None = None) -> str:
    """The events of one action as `viewer` may know them, as one readable clause list: only what
    `seen_by` lets the viewer see, in the words it gives them. Clauses are parted by semicolons: an
    event's own words may hold commas (a battle's cascade, a list of units)."""
    return "; ".join(
        t for e in events if (kept := e.seen_by(viewer)) is not None and (t := kept.text(viewer))
    )


def unseen(events: Sequence[Event]) -> bool:
    """Whether a command did something and the channel may see none of it (a standing order)."""
    return bool(events) and all(e.seen_by(None) is None for e in events)


def history_line(who: str, notation: str, events: Sequence[Event], viewer: str | None = None) -> str:
    """'<Side>: <what the events say>' (the events say it all; the notation alone stands in when they
    are silent, as for ending a turn, but never when `viewer` may not see them all: the notation of
    a secret action, a hidden set-up or a standing order, would tell what the events keep quiet)."""
    said = summary(events, viewer)
    if _names_side(said, who):
        return said[0].upper() + said[1:]  # the words name the side already: it is not said twice
    if said:
        return f"{who}: {said}"
    if any(e.seen_by(viewer) is None for e in events):
        return f"{who}: (something only they may see)"
    return f"{who}: {notation}"


def _names_side(said: str, who: str) -> bool:
    """Whether `said` opens by naming the side `who` (a title, "<Side>s"), by that title or by its
    adjective ("the <Side> Infantry hits ..."): then a "<Side>s: " in front would say it twice."""
    words = said.split(" ", 2)
    if len(words) < 3 or words[0].lower() != "the":
        return False
    named = words[1].lower()
    return named == who.lower() or (len(named) >= 3 and who.lower().startswith(named))


def private_lines(events: Sequence[Event], side: str) -> str:
    """What only `side` learnt from these events (a drawn hand): its words where they differ from
    what the channel is told."""
    out = []
    for e in events:
        mine = e.seen_by(side)
        if mine is None or not (text := mine.text(side)):
            continue
        public = e.seen_by(None)
        if public is None or public.text(None) != text:
            out.append(text)
    return ", ".join(out)


def replay_length(n: int) -> str:
    """How long a replay of `n` actions is, after the game's name: "1 action", "12 actions", or,
    before anyone has moved, what it shows then (not "0 actions")."""
    if n == 0:
        return "no moves have been played, so it shows only the starting position"
    return f"{n} action" if n == 1 else f"{n} actions"


def days_text(n: int) -> str:
    return f"{n} day" if n == 1 else f"{n} days"


def largest_units(seconds: float, names: tuple[str, str, str], count: int) -> list[tuple[int, str]]:
    """`seconds` in days, hours and minutes (named by `names`), rounded down to the `count` largest
    from the first that is not zero, zeros left out: never more time than there is; [] below a
    minute."""
    minutes = int(max(0.0, seconds) // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    units = list(zip((days, hours, minutes), names, strict=True))
    first = next((i for i, (n, _) in enumerate(units) if n), None)
    if first is None:
        return []
    return [(n, name) for n, name in units[first : first + count] if n]


def duration_text(seconds: float) -> str:
    """A stretch of time in words, rounded down to its two largest units: "1 day 4 hours",
    "3 hours 20 minutes", "5 minutes" ("less than a minute" below one)."""
    shown = largest_units(seconds, ("day", "hour", "minute"), 2)
    if not shown:
        return "less than a minute"
    return " ".join(f"{n} {w}" if n == 1 else f"{n} {w}s" for n, w in shown)
