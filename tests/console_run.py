"""A console on a fresh store, and lines typed at it with what it said: the setup the console's
tests had each written out line for line."""

from __future__ import annotations

import contextlib
import io
import random
from collections.abc import AsyncIterator, Iterable
from pathlib import Path

from console import Console
from data import Database
from play import MatchService
from tests.clock import Clock


@contextlib.asynccontextmanager
async def fresh_console(tmp_path: Path) -> AsyncIterator[tuple[Console, io.StringIO]]:
    """A console on a store in `tmp_path` (dice seed 5; its board files under `tmp_path / "b"`) and
    what it prints; the store closed after, whatever happened."""
    clock = Clock()
    db = await Database.open(tmp_path / "c.db", clock=clock)
    out = io.StringIO()
    try:
        yield (
            Console(MatchService(db, clock=clock, rng=random.Random(5)), boards=tmp_path / "b", out=out),
            out,
        )
    finally:
        await db.close()


async def console_said(tmp_path: Path, lines: Iterable[str]) -> str:
    """Everything the console printed for `lines`, typed in order on a fresh console's store."""
    async with fresh_console(tmp_path) as (console, out):
        for line in lines:
            await console.handle(line)
    return out.getvalue()
