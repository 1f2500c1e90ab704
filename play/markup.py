"""How an adapter marks up what play/ words: a mention, a channel, a time, emphasis.

play/ writes no platform's markup itself: each adapter passes its own `Markup` (Discord's mention
and timestamp syntax in cogs/, plain `@name` and local times in the console), so neither has to
strip the other's back out. The sweep's notices are worded this way (`present.notice_text`); the
rest of present.py, listings.py, fairness.py, tournament_text.py and refusals in challenges.py and
moves.py still write Discord's syntax (tests/test_layers.py lists them; the list may only shrink).
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

    def strong(self, text: str) -> str:
        """Emphasis (a heading, the words that matter)."""
        ...


__all__ = ["Markup"]
