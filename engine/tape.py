"""The AI's clock during one decision, written down so that anyone can replay the decision exactly.

Every level's choice is a pure function of its side's view, the level and the seed, but for one
thing: the clock its time caps read (`search.now`). A search cut short by its cap chose from less
thought, and a replay on another machine would think longer and might choose otherwise. So while
the bot's AI decides, its clock is a `Tape`: the time since the decision began in whole ticks (a
hundredth of a second), each reading written down. Replaying the tape gives the replay the very
readings the bot's search saw, so it stops where the bot's stopped (docs/fairness.md, "Checking
the AI"). A tape is a list of `[tick, reads]` pairs: the clock was read `reads` times while it
said `tick` hundredths of a second, the ticks rising. Read past its end, a tape says that time is
up, so that no replay runs for ever, whatever tape it is given.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar

TICKS_PER_SECOND = 100
# What a replayed tape says once its readings are spent: time is up, whatever the cap.
TIME_UP = 1e18
# The most readings a tape may hold in one tick: a search reads its clock about once an iteration,
# some 60 times a tick on the machine the check was written on (docs/fairness.md), so this is
# several times what a fast machine reads; it bounds what a forged tape can make a replay cost.
MAX_READS_PER_TICK = 500
# The longest a decision may have thought: every level's own cap is 20 s or less, and a cap binds
# within an iteration; with a budget of its own (`AI_BUDGET_SECONDS`), twice that budget.
MAX_SECONDS = 60.0


class Tape:
    """One decision's clock: recording (no `marks` given) or replaying them."""

    def __init__(self, marks: Sequence[Sequence[int]] | None = None) -> None:
        self.replaying = marks is not None
        self.marks: list[list[int]] = [[int(t), int(n)] for t, n in marks or ()]
        self.start: float | None = None
        self._at = 0  # replaying: the mark read next, and how many of its reads are used
        self._used = 0
        self.overrun = 0  # replaying: reads past the tape's end (a program that read more than the bot's)
        self.used = 0  # replaying: the readings given from the tape (not past its end)

    def read(self, base: Callable[[], float]) -> float:
        """The clock as the AI sees it: seconds since the decision began, in whole ticks."""
        if self.replaying:
            return self._replay()
        now = base()
        if self.start is None:
            self.start = now
        tick = max(0, int((now - self.start) * TICKS_PER_SECOND))
        if self.marks and tick <= self.marks[-1][0]:  # never backwards, whatever the base clock does
            tick = self.marks[-1][0]
            self.marks[-1][1] += 1
        else:
            self.marks.append([tick, 1])
        return tick / TICKS_PER_SECOND

    def _replay(self) -> float:
        while self._at < len(self.marks) and self._used >= self.marks[self._at][1]:
            self._at += 1
            self._used = 0
        if self._at >= len(self.marks):
            self.overrun += 1
            return TIME_UP
        self._used += 1
        self.used += 1
        return self.marks[self._at][0] / TICKS_PER_SECOND

    @classmethod
    def frozen(cls, reads: int) -> Tape:
        """A clock that stands still for `reads` readings, then says time is up (`overrun` counts
        the readings past them): a decision that finishes within them chose as it would with
        unlimited time, and one that does not needed more readings than the bot's (its time cap
        stopped the bot's search). `reads`, a recorded tape's, keeps a search the clock alone
        stops from running for ever."""
        return cls([[0, reads]])

    @staticmethod
    def valid(marks: object, budget_s: float | None = None) -> bool:
        """Whether `marks` can be a recorded tape: `[tick, reads]` pairs of whole numbers, the ticks
        rising from 0 or more, each read at least once, and no more often than a machine reads a
        clock (`MAX_READS_PER_TICK`), for no longer than a decision thinks (`MAX_SECONDS`, or twice
        `budget_s` if more). So a replay of any valid tape ends, and within minutes."""
        if not isinstance(marks, list):
            return False
        longest = max(MAX_SECONDS, 2 * (budget_s or 0.0)) * TICKS_PER_SECOND
        last = -1
        for mark in marks:
            if not (isinstance(mark, list) and len(mark) == 2 and all(type(x) is int for x in mark)):
                return False
            tick, reads = mark
            if tick <= last or not 1 <= reads <= MAX_READS_PER_TICK or tick > longest:
                return False
            last = tick
        return True

    @property
    def reads(self) -> int:
        """How many times the clock was read (recording) or may be read (replaying)."""
        return sum(n for _, n in self.marks)

    @property
    def seconds(self) -> float:
        """How long the decision thought, as the tape says."""
        return (self.marks[-1][0] if self.marks else 0) / TICKS_PER_SECOND

    @property
    def used_up(self) -> bool:
        """Replaying: whether the replay read the clock exactly as often as the tape says."""
        done = self._at >= len(self.marks) or (
            self._at == len(self.marks) - 1 and self._used == self.marks[self._at][1]
        )
        return done and not self.overrun


_CURRENT: ContextVar[Tape | None] = ContextVar("ai_tape", default=None)


def read(base: Callable[[], float]) -> float:
    """The AI's clock: the tape of the decision under way, else `base` (the search's clock)."""
    tape = _CURRENT.get()
    return base() if tape is None else tape.read(base)


@contextlib.contextmanager
def running(tape: Tape) -> Iterator[Tape]:
    """Within the block (this thread or task only), the AI's clock is `tape`."""
    token = _CURRENT.set(tape)
    try:
        yield tape
    finally:
        _CURRENT.reset(token)


__all__ = ["MAX_READS_PER_TICK", "MAX_SECONDS", "TICKS_PER_SECOND", "TIME_UP", "Tape", "read", "running"]
