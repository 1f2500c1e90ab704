"""Which program is running: the git commit of this source, so that a game's record can name the
program its AI played with, and a checker can tell whether it runs that same program (docs/fairness.md,
"Checking the AI").

From a clone, git says the commit and whether tracked files differ from it; in the Docker image,
which has no `.git`, the build writes the commit into the file `COMMIT` beside `engine/` (the
Dockerfile's build argument). Neither: the commit is unknown, and said so. A commit is public, so
naming it tells nobody anything secret. Standard library only: `scripts/verify_game.py` uses it.
"""

from __future__ import annotations

import functools
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
COMMIT_FILE = "COMMIT"  # written at build time where there is no .git (the Dockerfile)
# What makes the program: the code the bot and the checker run (a change to its tests or docs does not)
SOURCE = ("bot.py", "settings.py", "cogs", "console", "data", "engine", "play", "render", "scripts")
_HEX = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")  # a SHA-1 or SHA-256 object name, whole
SHORT = 12  # hex digits a commit is shown with


@dataclass(frozen=True, slots=True)
class Program:
    """A program's source: its commit (None: unknown), and whether its files (`SOURCE`) that git
    tracks differ from it."""

    commit: str | None
    changed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"commit": self.commit, "changed": self.changed}

    @classmethod
    def from_json(cls, data: object) -> Program | None:
        """The program a record names; None if it names none it could (an older record, a value
        that is no commit)."""
        if not isinstance(data, Mapping):
            return None
        commit = data.get("commit")
        if not isinstance(commit, str) or not _HEX.fullmatch(commit.lower()):
            return None
        return cls(commit.lower(), data.get("changed") is True)

    def same(self, other: Program) -> bool:
        """Whether both are exactly one commit's source: known, the same, and unchanged."""
        return self.commit is not None and self.commit == other.commit and not (self.changed or other.changed)

    def text(self) -> str:
        """ "commit 1a2b3c4d5e6f", "commit 1a2b3c4d5e6f with local changes", "an unknown commit"."""
        if self.commit is None:
            return "an unknown commit"
        return f"commit {self.commit[:SHORT]}" + (" with local changes" if self.changed else "")


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):  # no git here, or it hung
        return None
    return done.stdout if done.returncode == 0 else None


def of_source(root: Path = ROOT) -> Program:
    """The program whose source is at `root`: its clone's commit, else the commit the build wrote
    (`COMMIT`), else unknown."""
    top = _git(root, "rev-parse", "--show-toplevel")  # this source's own clone, not one around it
    head = _git(root, "rev-parse", "HEAD") if top and Path(top.strip()).resolve() == root.resolve() else None
    if head is not None and _HEX.fullmatch(head.strip()):
        status = _git(root, "status", "--porcelain", "--untracked-files=no", "--", *SOURCE)
        return Program(head.strip(), changed=status is None or bool(status.strip()))
    try:
        written = (root / COMMIT_FILE).read_text(encoding="ascii").strip().lower()
    except (OSError, UnicodeDecodeError):
        return Program(None)
    return Program(written if _HEX.fullmatch(written) else None)


@functools.cache
def running() -> Program:
    """This process's own program, learnt once (the bot at its start; a checker when it checks)."""
    return of_source()


__all__ = ["COMMIT_FILE", "ROOT", "SOURCE", "Program", "of_source", "running"]
