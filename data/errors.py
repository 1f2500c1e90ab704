"""Typed storage errors: the service maps each to a friendly reply instead of parsing sqlite messages."""

from __future__ import annotations


class DataError(Exception):
    """Base of every error this package raises on purpose."""


class MigrationError(DataError):
    """The database file and the migration files disagree; refuse to run rather than corrupt it."""


class MatchNotFound(DataError, LookupError):
    """No match has this id."""

    def __init__(self, match_id: int) -> None:
        super().__init__(f"no match with id {match_id}")
        self.match_id = match_id


class ChannelBusy(DataError):
    """The channel already has a challenged or active match (one open match per channel)."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(f"channel {channel_id} already has an open match")
        self.channel_id = channel_id


class StaleVersion(DataError):
    """The match moved on since the caller loaded it: someone else's move or decision won."""

    def __init__(self, match_id: int, expected: int, actual: int) -> None:
        super().__init__(f"match {match_id} is at version {actual}, not {expected}: the game moved on")
        self.match_id = match_id
        self.expected = expected
        self.actual = actual


class DuplicateInteraction(DataError):
    """This interaction id was already applied once; applying it again would double a move."""

    def __init__(self, interaction_id: int) -> None:
        super().__init__(f"interaction {interaction_id} was already applied")
        self.interaction_id = interaction_id


class StoreUnavailable(DataError):
    """The database server cannot be reached now (it restarts, the network is down). Nothing the
    caller asked for is known to have landed unless it is read back; a retry is safe (version checks
    and interaction ids refuse what did land)."""


class AwayChanged(StaleVersion):
    """A player's time away that a move's new clock assumed changed, or was being changed, as the
    move was stored (another process's `away` or `back`): nothing was written; the clock is to be
    computed again from their time away as it now is."""

    def __init__(self, match_id: int, version: int) -> None:
        DataError.__init__(self, f"match {match_id}: a waiting player's time away changed meanwhile")
        self.match_id = match_id
        self.expected = version
        self.actual = version
