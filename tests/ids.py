"""The custom_id a board's button or select carries, as the bot draws it (cogs/_views.py): tests
build the ids they click with this, so none hashes a version itself (play/stamps.py)."""

from __future__ import annotations

from data import Match
from play.stamps import stamp


def button_id(kind: str, match: Match, tail: object = None, *, version: int | None = None) -> str:
    """`bw:<kind>:<match>:<stamp>[:<tail>]`, the stamp of `version` (default: the match's)."""
    head = f"bw:{kind}:{match.id}:{stamp(match, version)}"
    return head if tail is None else f"{head}:{tail}"
