"""The match service: the one code path for a move, shared by the Discord cog, the console and tests.

It knows nothing of Discord. It loads a match, checks who may act, applies the action with the
engine, and stores the new snapshot and the log row in one transaction. Concurrency is handled
twice: an in-process lock per match serialises this process, and the version check in SQL makes
sure that even without the lock only one of two racing moves lands.

Each channel's open game is also kept in memory, written through on every change this service
makes, so autocomplete, prompts and moves do not re-read and re-parse the match from SQLite (the
database stays the truth: a write from elsewhere makes the next move fail its version check, which
drops the copy, and the player is told to look again; a store several processes share also tells
when another process wrote a match, and that copy is dropped at once). In memory a game is its
`Match` row without the snapshot, plus the `State`: one copy of the position, not two, since every
object the cache holds is walked by each full pass of Python's garbage collector (docs/reliability.md).
"""

from __future__ import annotations

from play.results import (
    AWAY_DAYS_A_YEAR,
    AWAY_GRACE,
    AWAY_WINDOW,
    CHALLENGE_TTL,
    DAY,
    DEFAULT_TURN_SECONDS,
    HINTS,
    LIVE_GAMES_KEPT,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    NO_GAME,
    QUICK_SECONDS,
    REVIEW_SECONDS,
    REVIEWS_KEPT,
    SEPARATOR,
    Chain,
    HistoryEntry,
    Notice,
    OpenGame,
    Played,
    Refused,
    Step,
    TimeAway,
    game_of,
    is_current,
    merged,
    quick_seconds,
    ranked_hints,
    reminder_lead,
    split_actions,
    waiting_ids,
)
from play.sweep import Sweep
from play.words import history_line, private_lines, summary, unseen


class MatchService(Sweep):
    """Challenges, moves, decisions, deadlines and stats for every channel.

    Built in floors, each its own module and job: the store and the live games (play/live.py),
    clocks and time away (play/clocks.py), reading games back and reviews (play/reading.py),
    challenges and moves (play/moves.py), the AI's turns (play/ai_turns.py), the sweep
    (play/sweep.py). Each floor may use those below it."""


__all__ = [
    "AWAY_DAYS_A_YEAR",
    "AWAY_GRACE",
    "AWAY_WINDOW",
    "CHALLENGE_TTL",
    "DAY",
    "DEFAULT_TURN_SECONDS",
    "HINTS",
    "LIVE_GAMES_KEPT",
    "MAX_TURN_SECONDS",
    "MIN_TURN_SECONDS",
    "NO_GAME",
    "QUICK_SECONDS",
    "REVIEWS_KEPT",
    "REVIEW_SECONDS",
    "SEPARATOR",
    "Chain",
    "HistoryEntry",
    "MatchService",
    "Notice",
    "OpenGame",
    "Played",
    "Refused",
    "Step",
    "TimeAway",
    "game_of",
    "history_line",
    "is_current",
    "merged",
    "private_lines",
    "quick_seconds",
    "ranked_hints",
    "reminder_lead",
    "split_actions",
    "summary",
    "unseen",
    "waiting_ids",
]
