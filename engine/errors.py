"""Typed errors whose messages are written for players, so callers may show them as they are.

What a refusal offers besides its words travels as typed fields, not inside the text: a caller
that wants the examples or the legal actions reads them here and never parses a message back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.protocol import Action


class InvalidNotation(ValueError):
    """The text does not parse as an action at all.

    `examples` are the notations the message offers (each shown in backticks in it), in the order
    it names them: `BaseGame.parse_in` plays them in the player's position and, where one is
    refused there, words the refusal for that position instead.
    """

    def __init__(self, message: str, examples: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.examples: tuple[str, ...] = tuple(examples)


class IllegalAction(ValueError):
    """The action parses but is not allowed now; the message says why.

    `legal` carries a few related legal actions (as actions, not their notation) so an interface
    can say what *is* possible instead of only what is not.
    """

    def __init__(self, message: str, legal: Sequence[Action] = ()) -> None:
        super().__init__(message)
        self.legal: list[Action] = list(legal)
