"""A copy of the SQLite database taken while the bot runs (`python bot.py --backup FILE`).

A plain `cp` of a database in WAL mode can miss the latest moves (they wait in the `-wal` file
beside it) or catch a page half written; SQLite's online backup reads one consistent snapshot
through the WAL, and the bot's writes go on meanwhile. Synchronous: it runs from the command line,
never in the bot's event loop.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from data.errors import DataError


@dataclass(frozen=True, slots=True)
class Backup:
    """What a backup holds, for the one line the admin reads."""

    schema_version: int
    matches: int


def backup_sqlite(source: Path, target: Path) -> Backup:
    """Copy `source` into the new file `target`, check the copy, and say what it holds.

    The copy is a single file (journal mode DELETE, no `-wal` beside it) that the bot opens as its
    database as it is: restoring is putting it in the database's place while the bot is stopped.
    An existing `target` is refused, never overwritten: it may be the only good backup. The copy
    is readable by its owner alone: it holds every game's secret seed (the dice and cards to come)
    and every hand, so a backup left readable in a shared home folder is the next draws for
    anyone with an account on the machine."""
    if not source.is_file():
        raise DataError(f"there is no SQLite database at {source}")
    if target.exists():
        raise DataError(f"{target} exists already; name a new file (a backup is never overwritten)")
    if not target.parent.is_dir():
        raise DataError(f"the folder {target.parent} does not exist")
    try:
        target.touch(mode=0o600, exist_ok=False)  # made before SQLite opens it: the owner's alone
    except FileExistsError:
        raise DataError(f"{target} exists already; name a new file (a backup is never overwritten)") from None
    try:
        with closing(sqlite3.connect(source, timeout=30)) as src, closing(sqlite3.connect(target)) as dst:
            src.backup(dst)
            dst.execute("PRAGMA journal_mode = DELETE")
            check = dst.execute("PRAGMA quick_check").fetchone()[0]
            version = int(dst.execute("PRAGMA user_version").fetchone()[0])
            matches = int(dst.execute("SELECT COUNT(*) FROM matches").fetchone()[0])
    except sqlite3.Error as exc:
        target.unlink(missing_ok=True)
        raise DataError(f"{source} could not be copied ({exc})") from None
    if check != "ok":
        target.unlink(missing_ok=True)
        raise DataError(f"the copy of {source} fails SQLite's check ({check}); nothing was kept")
    return Backup(schema_version=version, matches=matches)
