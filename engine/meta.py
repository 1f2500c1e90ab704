"""The actions every game shares: resign, draw offers, and what the platform plays when a clock runs out.

They are `anytime` actions: either player may send them whoever is to act, and each game's `parse`
accepts their words (`parse_meta`). `settle` applies one to a game's bookkeeping, so the rules of
draw offers read the same in every game; a game wraps the result in its own events, or uses the
plain ones below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from engine.errors import IllegalAction
from engine.protocol import EndReason, Event, Outcome, Side


@dataclass(frozen=True, slots=True)
class MetaAction:
    anytime: ClassVar[bool] = True
    word: ClassVar[str] = ""

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True, slots=True)
class Resign(MetaAction):
    word: ClassVar[str] = "resign"


@dataclass(frozen=True, slots=True)
class Timeout(MetaAction):
    """Recorded by the match service when the deadline of the side to act passes."""

    word: ClassVar[str] = "timeout"


@dataclass(frozen=True, slots=True)
class Abandon(MetaAction):
    """Recorded by the match service when both sides owed an action and neither came: no winner."""

    word: ClassVar[str] = "abandon"


@dataclass(frozen=True, slots=True)
class DrawOffer(MetaAction):
    word: ClassVar[str] = "offer draw"


@dataclass(frozen=True, slots=True)
class DrawAccept(MetaAction):
    word: ClassVar[str] = "accept draw"


@dataclass(frozen=True, slots=True)
class DrawDecline(MetaAction):
    word: ClassVar[str] = "decline draw"


RESIGN, TIMEOUT, ABANDON = Resign(), Timeout(), Abandon()
DRAW_OFFER, DRAW_ACCEPT, DRAW_DECLINE = DrawOffer(), DrawAccept(), DrawDecline()
META_WORDS: dict[str, MetaAction] = {
    a.word: a for a in (RESIGN, TIMEOUT, ABANDON, DRAW_OFFER, DRAW_ACCEPT, DRAW_DECLINE)
}


def parse_meta(text: str) -> MetaAction | None:
    """The shared action `text` names (case and spacing do not matter), or None."""
    return META_WORDS.get(" ".join(str(text).lower().split()))


# ------------------------------------------------------------------------------------ settling


@dataclass(frozen=True, slots=True)
class Settled:
    """What a shared action did: the game's end (if it ended), the draw offer now standing, and
    which of offered / declined happened (for the game's events)."""

    outcome: Outcome | None
    draw_offer: Side | None
    offered: bool = False
    declined: bool = False


def settle(
    action: MetaAction,
    side: Side,
    other: Side,
    draw_offer: Side | None,
    title: Callable[[Side], str],
    *,
    over: bool,
) -> Settled:
    """Apply a shared action sent by `side`; raises `IllegalAction` with the reason if it cannot be.

    A draw offer stands until the opponent accepts or declines it (a game may also withdraw it when
    the opponent plays on). `title` gives a side's plural name ("Germans").
    """
    if over:
        raise IllegalAction("The game is over.")
    if isinstance(action, Resign):
        return Settled(Outcome(other, EndReason.RESIGNATION, f"the {title(side)} resigned"), None)
    if isinstance(action, Timeout):
        return Settled(Outcome(other, EndReason.TIMEOUT, f"the {title(side)} ran out of time"), None)
    if isinstance(action, Abandon):
        return Settled(Outcome(None, EndReason.ABANDONED, "neither side acted in time"), None)
    if isinstance(action, DrawOffer):
        if draw_offer == side:
            raise IllegalAction("You have already offered a draw; wait for the answer.")
        if draw_offer == other:
            raise IllegalAction("Your opponent has offered a draw: accept draw or decline draw.")
        return Settled(None, side, offered=True)
    if draw_offer != other:
        raise IllegalAction("There is no draw offer from your opponent to answer.")
    if isinstance(action, DrawAccept):
        return Settled(Outcome(None, EndReason.AGREEMENT, "by agreement"), None)
    return Settled(None, None, declined=True)


# ------------------------------------------------------------------------------- plain events


@dataclass(frozen=True, slots=True)
class PlainEvent:
    """Base for events with nothing secret: every viewer sees the same."""

    def text(self, viewer: Side | None = None) -> str:
        return ""

    def seen_by(self, viewer: Side | None) -> Event | None:
        return self

    def to_json(self) -> dict[str, Any]:
        return {"type": type(self).__name__, **asdict(self)}


@dataclass(frozen=True, slots=True)
class DrawOffered(PlainEvent):
    side: Side
    title: str

    def text(self, viewer: Side | None = None) -> str:
        return f"the {self.title} offer a draw"


@dataclass(frozen=True, slots=True)
class DrawDeclined(PlainEvent):
    side: Side
    title: str

    def text(self, viewer: Side | None = None) -> str:
        return f"the {self.title} decline the draw"


@dataclass(frozen=True, slots=True)
class DrawLapsed(PlainEvent):
    """`side`'s offer went unanswered while the opponent played on, in a game where that ends it."""

    side: Side
    title: str

    def text(self, viewer: Side | None = None) -> str:
        return f"the draw offered by the {self.title} lapses"


LOSER_FIRST = frozenset({EndReason.RESIGNATION.value, EndReason.TIMEOUT.value})


def ended_text(winner_title: str | None, reason: str, detail: str) -> str:
    """Every game's words for its end. A resignation or a loss on time names the loser first, as
    its detail does ("the Canadians resigned"), so the history line, which starts with the side
    that acted, names nobody twice ("The Canadians resigned: the Germans win")."""
    if winner_title is None:
        return f"the game is drawn ({detail})"
    if reason in LOSER_FIRST:
        return f"{detail}: the {winner_title} win"
    return f"the {winner_title} win ({detail})"


@dataclass(frozen=True, slots=True)
class GameEnded(PlainEvent):
    winner: Side | None
    winner_title: str | None
    reason: str  # an EndReason value
    detail: str

    def text(self, viewer: Side | None = None) -> str:
        return ended_text(self.winner_title, self.reason, self.detail)

    @staticmethod
    def of(outcome: Outcome, title: Callable[[Side], str]) -> GameEnded:
        who = title(outcome.winner) if outcome.winner is not None else None
        return GameEnded(outcome.winner, who, outcome.reason.value, outcome.detail)


def settle_events(settled: Settled, side: Side, title: Callable[[Side], str]) -> list[Event]:
    """The plain events for what `settle` did: for games without events of their own for it."""
    events: list[Event] = []
    if settled.offered:
        events.append(DrawOffered(side, title(side)))
    if settled.declined:
        events.append(DrawDeclined(side, title(side)))
    if settled.outcome is not None:
        events.append(GameEnded.of(settled.outcome, title))
    return events


__all__ = [
    "ABANDON",
    "DRAW_ACCEPT",
    "DRAW_DECLINE",
    "DRAW_OFFER",
    "META_WORDS",
    "RESIGN",
    "TIMEOUT",
    "Abandon",
    "DrawAccept",
    "DrawDecline",
    "DrawDeclined",
    "DrawLapsed",
    "DrawOffer",
    "DrawOffered",
    "GameEnded",
    "MetaAction",
    "PlainEvent",
    "Resign",
    "Settled",
    "Timeout",
    "parse_meta",
    "settle",
    "settle_events",
]
