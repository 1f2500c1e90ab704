"""`python bot.py --backup FILE` (docs/deploy.md, "Backups"): a copy of the SQLite database taken
while the bot has it open and writing, which the bot then opens as its database, every move in it."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

import bot
from data import Database
from play import MatchService

T0 = 1_800_000_000.0


async def test_a_backup_taken_while_the_bot_writes_holds_every_move_and_opens_as_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    live = tmp_path / "data" / "wargames.db"
    live.parent.mkdir()
    monkeypatch.setenv("DATABASE_PATH", str(live))
    monkeypatch.setenv("DATABASE_URL", "")  # empty, so a developer's .env cannot fill it in
    target = tmp_path / "wargames-backup.db"
    async with Database.open(live, clock=lambda: T0) as db:  # the running bot's store, WAL and all
        svc = MatchService(db, clock=lambda: T0, rng=random.Random(3))
        await svc.challenge(game="blockwars", guild_id=7, channel_id=100, challenger_id=1, opponent_id=2)
        await svc.accept(100, 2)
        for player in (1, 2):  # each side deploys: two moves
            await svc.act(100, player, "setup std", interaction_id=player)
        match, _ = await svc.current(100)
        # the latest moves wait in the WAL, where a cp of the file alone misses them
        assert Path(f"{live}-wal").exists()  # noqa: ASYNC240 (a test's look, not the bot's loop)
        assert bot.main(["--backup", str(target)]) == 0
        assert capsys.readouterr().out.strip() == (
            f"Backed up {live} to {target}: 1 game, schema version {await db.schema_version()}."
        )
        expected = (await db.list_matches(), await db.actions(match.id))
        # a second backup never overwrites the first
        assert bot.main(["--backup", str(target)]) == 1
        assert "exists already" in capsys.readouterr().err
    # Restoring: the copy alone, with no -wal beside it, put in a database's place.
    restored = tmp_path / "restored" / "wargames.db"
    restored.parent.mkdir()
    shutil.copy(target, restored)
    async with Database.open(restored, clock=lambda: T0) as db:
        assert (await db.list_matches(), await db.actions(expected[0][0].id)) == expected
        assert len(expected[1]) == 2


def test_a_backup_names_what_it_cannot_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "none.db"))
    monkeypatch.setenv("DATABASE_URL", "")  # empty, so a developer's .env cannot fill it in
    assert bot.main(["--backup", str(tmp_path / "b.db")]) == 1
    assert capsys.readouterr().err.strip() == (
        f"Nothing was backed up: there is no SQLite database at {tmp_path / 'none.db'}"
    )
    assert not (tmp_path / "b.db").exists()
    monkeypatch.setenv("DATABASE_URL", "postgresql://wargames@db/wargames")
    assert bot.main(["--backup", str(tmp_path / "b.db")]) == 1
    assert "back it up with pg_dump" in capsys.readouterr().err
