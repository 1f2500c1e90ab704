"""A process killed between two steps, for the crash tests that run the bot through the fake
Discord: the step that dies, and what it raises."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class Crash(BaseException):
    """The process dying between two steps.
    Not an `Exception`: no handler of the bot's may catch it, as none catches a kill."""


async def _dies(*args: object) -> None:
    raise Crash


@contextmanager
def dies_at(owner: object, name: str) -> Iterator[None]:
    """Inside the block, `owner.name` (an async method) kills the process instead of running; after
    it, the object's own method again (as the restarted bot's)."""
    setattr(owner, name, _dies)
    try:
        yield
    finally:
        delattr(owner, name)
