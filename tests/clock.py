"""The clock tests move by hand, so deadlines, reminders and rounds pass without sleeping."""

from __future__ import annotations


class Clock:
    """Stands in for `time.time` wherever the service, the store or the console takes a clock."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
