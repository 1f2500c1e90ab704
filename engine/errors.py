"""Typed errors whose messages are written for players, so callers may show them as they are."""

from __future__ import annotations


class InvalidNotation(ValueError):
    """The text does not parse as an action at all."""


class IllegalAction(ValueError):
    """The action parses but is not allowed now; the message says why.

    `legal` carries a few related legal actions (notation strings) so an interface can say
    what *is* possible instead of only what is not.
    """

    def __init__(self, message: str, legal: list[str] | None = None) -> None:
        super().__init__(message)
        self.legal: list[str] = legal or []
