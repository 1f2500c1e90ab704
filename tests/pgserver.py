"""A throwaway PostgreSQL server for a test session, run from the machine's own server binaries.

One server per pytest process (each xdist worker starts its own, in a directory of its own, on a Unix
socket there: no port, nothing shared). `initdb` runs once; the migrated schema is kept as a
template database, and each test gets a fresh copy of it (`CREATE DATABASE ... TEMPLATE`, a file
copy: `copy_clause`) which is dropped afterwards.

`initdb` and `pg_ctl` refuse to run as root, and CI runs as root: then they run as the `postgres`
user (`runuser -u postgres --`), in a directory handed to that user. The server runs without fsync:
these tests check behaviour, not durability (bench/ measures with the production settings).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

SEARCHED = "/usr/lib/postgresql/*/bin, /usr/local/bin and PATH"
USER = "wargames"
PASSWORD = "pg-test-password-Zq81"  # the server asks for it (scram), as a real one does; never logged
TEMPLATE = "wargames_template"


def find_binaries() -> Path | None:
    """The folder holding initdb, pg_ctl and postgres (the newest Debian version first)."""
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: p.parent.name, reverse=True)
    candidates.append(Path("/usr/local/bin"))
    found = shutil.which("initdb")
    if found:
        candidates.append(Path(found).parent)
    for folder in candidates:
        if all((folder / name).exists() for name in ("initdb", "pg_ctl", "postgres")):
            return folder
    return None


def _server_user() -> list[str]:
    """The prefix that runs a command as a user the server accepts: nothing unless we are root."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        # Debian's server package creates it; without the package, make it (no network needed).
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"],
            check=True,
            capture_output=True,
        )
    return ["runuser", "-u", "postgres", "--"]


def _copy_clause(binaries: Path) -> str:
    """How `CREATE DATABASE` is to copy a template: by its files. Since version 15 the default writes
    every block of it through the WAL instead, and a session's fifty copies then fill hundreds of MB
    of fresh WAL segments: about three times the server's CPU per copy (2026-11-28, here: 0.23 s
    against 0.06 s). Older servers copy the files anyway and know no STRATEGY."""
    done = subprocess.run(
        [str(binaries / "postgres"), "--version"], capture_output=True, text=True, check=True
    )
    found = re.search(r"\(PostgreSQL\) (\d+)", done.stdout)
    return " STRATEGY FILE_COPY" if found and int(found.group(1)) >= 15 else ""


class PgServer:
    """initdb + pg_ctl start in a temporary directory; `url(name)` reaches a database over its socket."""

    def __init__(self, binaries: Path, *, durable: bool = False) -> None:
        self.binaries = binaries
        self.durable = durable
        self.root = Path(tempfile.mkdtemp(prefix="wargames-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._as = _server_user()
        self.copy_clause = _copy_clause(binaries)

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([*self._as, *args], capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            tail = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            why = done.stderr.strip()
            raise RuntimeError(f"{Path(args[0]).name} failed ({done.returncode}): {why}\n{tail}")
        return done

    def start(self) -> PgServer:
        if self._as:
            shutil.chown(self.root, user="postgres")
        secret = self.root / "password"
        secret.write_text(PASSWORD + "\n")
        if self._as:
            shutil.chown(secret, user="postgres")
        self._run(
            str(self.binaries / "initdb"),
            "-D",
            str(self.data),
            "-U",
            USER,
            "--auth=scram-sha-256",
            f"--pwfile={secret}",
            "--encoding=UTF8",
            "--locale=C",
            *([] if self.durable else ["--no-sync"]),
        )
        self._pg_ctl("start")
        return self

    def _pg_ctl(self, command: str, *extra: str) -> None:
        options = f"-k {self.root} -c listen_addresses='' -c max_connections=300"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        self._run(
            str(self.binaries / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
            "-w",
            *extra,
            command,
        )

    def restart(self) -> None:
        """A fast restart: every session is cut off, as when the server is restarted for maintenance."""
        self._pg_ctl("restart", "-m", "fast")

    def stop_server(self) -> None:
        self._pg_ctl("stop", "-m", "fast")

    def start_server(self) -> None:
        self._pg_ctl("start")

    def url(self, database: str = "postgres", *, password: str = PASSWORD) -> str:
        return f"postgresql://{USER}:{password}@/{database}?host={self.root}"

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run(str(self.binaries / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


def start_for_bench() -> PgServer:
    """A durable throwaway server (fsync on, as in production) for a bench's `--start-postgres`;
    exits with a one-line reason when this machine has no PostgreSQL binaries."""
    binaries = find_binaries()
    if binaries is None:
        raise SystemExit(f"--start-postgres: {SEARCHED} hold no PostgreSQL server")
    return PgServer(binaries, durable=True).start()
