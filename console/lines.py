"""What a console line is made of and what it gives back: options typed Discord's way, a refusal,
an outcome. Shared by the console's commands (console/app.py) and its tournaments."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

TRUE = ("true", "yes", "on", "1")
FALSE = ("false", "no", "off", "0")


class UsageError(Exception):
    """A console line that makes no sense; its message is shown as the bot's ephemeral reply would be."""


@dataclass(slots=True)
class Outcome:
    """What one line did, for scripts and tests: refused or not, and the files written."""

    ok: bool = True
    files: list[Path] | None = None


def options(args: list[str]) -> tuple[dict[str, str], list[str]]:
    """Split `key:value` options (Discord's typed syntax) from plain positional words."""
    opts: dict[str, str] = {}
    positional: list[str] = []
    for word in args:
        key, sep, value = word.partition(":")
        if sep and key and value:
            opts[key.lower()] = value
        elif sep:
            raise UsageError(f"'{word[:30]}' needs both a name and a value, like side:random.")
        else:
            positional.append(word)
    return opts, positional


def flag(opts: dict[str, str], key: str) -> bool:
    value = opts.get(key, "false").lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise UsageError(f"{key} must be true or false.")
