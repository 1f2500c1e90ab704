"""Plain records the service works with; no SQL and no engine types, so both sides can change freely."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from data.elo import START_RATING


class Status(StrEnum):
    """Life cycle of a match: challenged -> active -> finished, or one of the dead ends."""

    CHALLENGED = "challenged"
    ACTIVE = "active"
    FINISHED = "finished"
    DECLINED = "declined"
    EXPIRED = "expired"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        """Open matches hold their channel (the unique partial index counts exactly these)."""
        return self in (Status.CHALLENGED, Status.ACTIVE)


OPEN_STATUSES: tuple[Status, ...] = (Status.CHALLENGED, Status.ACTIVE)


@dataclass(frozen=True, slots=True)
class GameClock:
    """A clock for the whole game (a chess clock), per player (migration 0009): each had `total`
    seconds at the start; `left` is what each had when their clock last stopped, `running` whose
    clocks run now and `since` when they began to (moved on by time away, as the deadline is).
    What it means for a turn's deadline is play/clocks.py's to say."""

    total: int
    left: dict[int, float]
    running: tuple[int, ...] = ()
    since: float | None = None

    @classmethod
    def fresh(cls, total: int, players: tuple[int, ...]) -> GameClock:
        """Every player's whole time, nobody's clock running yet."""
        return cls(total, {p: float(total) for p in players})

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.total,
            "left": {str(u): s for u, s in self.left.items()},
            "running": list(self.running),
            "since": self.since,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameClock:
        since = data.get("since")
        return cls(
            int(data["total"]),
            {int(u): float(s) for u, s in data["left"].items()},
            tuple(int(u) for u in data.get("running", ())),
            None if since is None else float(since),
        )


@dataclass(frozen=True, slots=True)
class Match:
    """One row of `matches`; immutable so a stale copy can never be "fixed up" and written back.

    `version` grows by one on every committed change (move, accept, cancel...): callers pass the
    version they loaded as `expected_version` and lose cleanly with `StaleVersion` if it moved on.
    `sides` maps a side name (the game's own) to a user id; empty until accepted.
    `challenger_side` is what the challenger asked for ("random" or a side name).
    """

    id: int
    guild_id: int
    channel_id: int
    game: str
    options: dict[str, Any]
    seed: int
    challenger_id: int
    opponent_id: int
    challenger_side: str
    sides: dict[str, int]
    status: Status
    turn_player_id: int | None
    deadline: float | None
    reminder_at: float | None
    reminded: bool
    turn_seconds: int
    version: int
    snapshot: dict[str, Any] | None
    winner_id: int | None
    result_reason: str | None
    challenge_expires_at: float | None
    ai_player_id: int | None
    ai_level: str | None
    created_at: float
    updated_at: float
    # the version of the board the channel has, while only private commands came after it
    quiet_from: int | None = None
    # chance (migration 0006): the generator version, and for version 2 the bot's secret (hex; kept
    # out of repr so it can never reach a log), its commitment and the players' inputs (JSON text)
    chance_version: int = 1
    seed_secret: str | None = field(default=None, repr=False)
    seed_commitment: str | None = None
    seed_inputs: str | None = None
    # a clock for the whole game (migration 0009); None: the turns' own deadlines only
    game_clock: GameClock | None = None
    # the channel's seal its secret came from (migration 0010): when and where its commitment was
    # shown before the challenge; None: drawn at the challenge
    sealed_at: float | None = None
    seal_channel_id: int | None = None
    seal_message_id: int | None = None

    @property
    def players(self) -> tuple[int, int]:
        """Both participants, challenger first."""
        return (self.challenger_id, self.opponent_id)

    def other_player(self, user_id: int) -> int:
        """The opponent of `user_id` in this match."""
        if user_id == self.challenger_id:
            return self.opponent_id
        if user_id == self.opponent_id:
            return self.challenger_id
        raise ValueError(f"user {user_id} does not play in match {self.id}")

    def side_of(self, user_id: int) -> str | None:
        """The side `user_id` plays, or None before sides are assigned."""
        for side, uid in self.sides.items():
            if uid == user_id:
                return side
        return None


@dataclass(frozen=True, slots=True)
class Seal:
    """A channel's seal (migration 0010): the secret of the next game there, drawn before anyone
    asks for it, and its commitment; `shown_at` once a message showed the commitment in the channel
    (that message's id, where the platform has one). The secret is kept out of repr and logs."""

    channel_id: int
    commitment: str
    created_at: float
    shown_at: float | None = None
    message_id: int | None = None
    secret: str = field(default="", repr=False)


@dataclass(frozen=True, slots=True)
class NewAction:
    """One engine action to append to the log (one user command may produce several)."""

    notation: str
    player_id: int | None  # None for actions nobody chose (timeouts, automatic resolutions)
    at: float | None = None  # defaults to the commit's `now`


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One stored row of the append-only log; `seq` starts at 1 and has no gaps per match."""

    match_id: int
    seq: int
    player_id: int | None
    notation: str
    interaction_id: int | None
    at: float
    version: int  # the match version this row's commit produced


@dataclass(frozen=True, slots=True)
class Result:
    """How a match ended; `winner_id=None` is a draw. Unrated results leave stats untouched.

    `ai_rating`: in a game against the AI, the rating of its level. The AI's side is rated at it and
    does not move (a level plays as well after a thousand games as before); the player's rating
    moves as against a person of that rating, and the result counts in the level's record.
    """

    winner_id: int | None
    reason: str
    rated: bool = True
    ai_rating: float | None = None


@dataclass(frozen=True, slots=True)
class AiRecord:
    """The AI's results at one level of one game in one guild (its rating is the level's, fixed)."""

    level: str
    wins: int = 0
    losses: int = 0
    draws: int = 0


@dataclass(frozen=True, slots=True)
class RatedResult:
    """One finished, rated game as the records count it: where it was played, its players, its
    winner (None: a draw), the AI's id and level if it played, and what it did to each person's
    rating (`changes`: user -> (before, after); empty for a game rated before migration 0008)."""

    match_id: int
    channel_id: int
    players: tuple[int, int]
    winner_id: int | None
    ai_player_id: int | None
    ai_level: str | None
    changes: dict[int, tuple[float, float]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record in one game in one guild (ratings are per game); a player who never
    finished a game of it gets the defaults."""

    guild_id: int
    game: str
    user_id: int
    wins: int = 0
    losses: int = 0
    draws: int = 0
    rating: float = START_RATING

    @property
    def games(self) -> int:
        """Finished rated games."""
        return self.wins + self.losses + self.draws


@dataclass(frozen=True, slots=True)
class UserPrefs:
    """Per-user settings that follow the user across servers."""

    user_id: int
    dm_on_turn: bool = False


@dataclass(frozen=True, slots=True)
class MatchChange:
    """Another process stored a match: the channel's copy in memory older than this is stale."""

    channel_id: int
    match_id: int
    version: int


@dataclass(frozen=True, slots=True)
class Away:
    """A player's time away from one server: from `start_at` until `end_at` (brought forward to the
    moment they came back, if they did)."""

    guild_id: int
    user_id: int
    start_at: float
    end_at: float


@dataclass(frozen=True, slots=True)
class AwaySeen:
    """What a move's new clock assumed of its waiting players' time away in one server: how many
    stretches of it end after the move, and the last of those ends (None: none). A store several
    processes share checks it as it stores the move (`data.errors.AwayChanged`)."""

    guild_id: int
    user_ids: tuple[int, ...]
    count: int
    last_end: float | None
