"""The match service: Discord-free, so the cog, the console and the tests share one path for a move."""

from play.errors import (
    AlreadyApplied,
    AwayBusy,
    BadRequest,
    IllegalMove,
    MatchOver,
    NoMatch,
    NotAPlayer,
    NotYourTurn,
    ServiceError,
    StalePrompt,
)
from play.service import (
    DEFAULT_TURN_SECONDS,
    HistoryEntry,
    MatchService,
    Notice,
    OpenGame,
    Played,
    TimeAway,
)

__all__ = [
    "DEFAULT_TURN_SECONDS",
    "AlreadyApplied",
    "AwayBusy",
    "BadRequest",
    "HistoryEntry",
    "IllegalMove",
    "MatchOver",
    "MatchService",
    "NoMatch",
    "NotAPlayer",
    "NotYourTurn",
    "Notice",
    "OpenGame",
    "Played",
    "ServiceError",
    "StalePrompt",
    "TimeAway",
]
