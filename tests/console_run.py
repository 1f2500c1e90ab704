"""Lines typed at a console on a fresh store, and what it said: the setup the console's tournament
tests had each written out line for line."""

from __future__ import annotations

import io
import random
from collections.abc import Iterable
from pathlib import Path

from console import Console
from data import Database
from play import MatchService
from tests.clock import Clock


async def console_said(tmp_path: Path, lines: Iterable[str]) -> str:
    """Everything the console printed for `lines`, typed in order on a store in `tmp_path` (dice
    seed 5; its board files under `tmp_path / "b"`); the store closed after, whatever happened."""
    clock = Clock()
    db = await Database.open(tmp_path / "c.db", clock=clock)
    out = io.StringIO()
    console = Console(MatchService(db, clock=clock, rng=random.Random(5)), boards=tmp_path / "b", out=out)
    try:
        for line in lines:
            await console.handle(line)
    finally:
        await db.close()
    return out.getvalue()
