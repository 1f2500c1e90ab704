"""How an adapter marks up what play/ words: a mention, a channel, a time, emphasis.

play/ writes no platform's markup itself: each adapter passes its own `Markup` (Discord's mention
and timestamp syntax in cogs/, plain `@name` and local times in the console), so neither has to
strip the other's back out. Every function of play/ that words something takes one, and the service
holds its adapter's (`MatchService(markup=...)`) for the refusals that name a player;
tests/test_layers.py checks that no file of play/ writes Discord's syntax.
"""

from __future__ import annotations

from typing import Protocol


class Markup(Protocol):
    """One adapter's way of naming people, channels and times in a sentence."""

    def mention(self, user_id: int) -> str:
        """A player named so they are notified where the platform can."""
        ...

    def channel(self, channel_id: int) -> str:
        """A channel named so a reader can go there."""
        ...

    def relative(self, ts: float) -> str:
        """A moment as "in 3 hours" (or the platform's own live countdown)."""
        ...

    def date(self, ts: float) -> str:
        """A moment as a date and time, in the reader's zone where the platform can."""
        ...

    def day(self, ts: float) -> str:
        """A moment's date alone, with its year (when a tournament ended, in a list of them)."""
        ...

    def deadline(self, ts: float) -> str:
        """A moment a player must act by (a turn's, a round's end): `relative`, and the date and time
        where the relative form rounds ("in 2 days" for 36 hours would mislead)."""
        ...

    def strong(self, text: str) -> str:
        """Emphasis (a heading, the words that matter)."""
        ...


class PlainMarkup:
    """Markup for a service built with no adapter (tests, benches, scripts): readable plain text."""

    def mention(self, user_id: int) -> str:
        return f"@{user_id}"

    def channel(self, channel_id: int) -> str:
        return f"#{channel_id}"

    def relative(self, ts: float) -> str:
        return f"at {int(ts)}"

    def date(self, ts: float) -> str:
        return f"at {int(ts)}"

    def day(self, ts: float) -> str:
        return f"day {int(ts) // 86400}"

    def deadline(self, ts: float) -> str:
        return self.relative(ts)

    def strong(self, text: str) -> str:
        return text


PLAIN = PlainMarkup()

__all__ = ["PLAIN", "Markup", "PlainMarkup"]
