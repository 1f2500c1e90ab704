"""Refusals a player may see. Every message is written to be shown as it is (ephemeral in Discord)."""

from __future__ import annotations


class ServiceError(Exception):
    """Base of every refusal: the game is untouched when one is raised."""

    def __init__(self, message: str, legal: list[str] | None = None, total: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.legal: list[str] = legal or []
        # how many examples there were in all, where `legal` holds only the first few: a list cut
        # short without a word reads as all there is
        self.legal_total = max(total, len(self.legal))

    def __str__(self) -> str:
        return self.message


class NoMatch(ServiceError):
    """No challenged or active game in this channel."""


class NotAPlayer(ServiceError):
    """Only the two players may act in a match."""


STRANGER = "You are not playing in this game; only its two players can act."


class NotYourTurn(ServiceError):
    """Someone else must act (or decide) first."""


class MatchOver(ServiceError):
    """The game has ended; nothing more can be played in it."""


class StalePrompt(ServiceError):
    """The game moved on since the prompt was shown (a double click, or two players at once)."""


class AwayBusy(StalePrompt):
    """Another process kept a waiting player's time away locked for longer than a write's tries
    (play/clocks.py): nothing was stored, and the same request a moment later goes through."""


class AlreadyApplied(ServiceError):
    """This exact interaction was already applied once."""


class BadRequest(ServiceError):
    """Arguments that make no sense: challenging yourself, a bot, a busy channel..."""


class IllegalMove(ServiceError):
    """The action parses but the rules forbid it now; `legal` lists what is possible."""
