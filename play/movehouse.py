"""Moving house: `python bot.py --move-to postgresql://…` copies the SQLite games into PostgreSQL.

data/move.py copies every table in one transaction and compares every row read back; this replays
every copied match from its seed and log with the rules and compares the result with its stored
snapshot, as the bot would find it. Exit 0 only if everything agrees. The SQLite file is left as it
was (migrated to this code's schema), so a failed move changes nothing for the bot still using it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from data import Database, DataError
from data.move import copy_sqlite_to_postgres
from engine import registry
from play.service import MatchService


async def replay_mismatches(db: Database) -> tuple[int, list[str]]:
    """How many matches replay to their stored snapshot, and what is wrong with the others."""
    service = MatchService(db)
    checked, wrong = 0, []
    for match in await db.list_matches():
        if match.snapshot is None:  # a challenge never accepted: nothing to replay
            continue
        try:
            state, _, _ = await service.replayed(match)
        except (registry.UnknownGame, ValueError) as exc:
            wrong.append(f"match {match.id} ({match.game}): cannot be replayed: {exc}")
            continue
        # as the game reads it: a snapshot an older version wrote is read into today's form
        if state.to_json() != registry.game(match.game).from_json(match.snapshot).to_json():
            wrong.append(f"match {match.id} ({match.game}): the replay differs from the stored snapshot")
        checked += 1
    return checked, wrong


async def move_house(path: Path, url: str, say: Callable[[str], None] = print) -> int:
    """Copy, compare, replay; say what happened in a few lines; 0 if all is well, else 1."""
    say(f"Copying {path} into PostgreSQL...")
    try:
        copied = await copy_sqlite_to_postgres(path, url)
    except DataError as exc:
        say(f"Nothing was copied: {exc}")
        return 1
    for table, count in copied.rows.items():
        say(f"  {table}: {count} row{'' if count == 1 else 's'}")
    if copied.differences:
        say("The copy does not read back the same:")
        for line in copied.differences:
            say(f"  {line}")
        return 1
    async with Database.open(url) as db:
        checked, wrong = await replay_mismatches(db)
    if wrong:
        say(f"{len(wrong)} match(es) do not replay to their snapshot:")
        for line in wrong[:20]:
            say(f"  {line}")
        return 1
    say(f"Every row read back the same, and all {checked} matches replay to their snapshots.")
    say("Set DATABASE_URL to this database and start the bot (docs/deploy.md).")
    return 0
