"""Which actions buttons, selects and autocomplete show, and in what words, for any game.

Presentation only: which actions exist always comes from the state's `legal_actions()`; the words
come from the game (`describe`, `verb_of`, `group_of`, `group_label`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from cogs import limits
from engine.protocol import Action, Game, Menu, View

MAX_CHOICES = limits.CHOICES


class DiscordMarkup:
    """play/'s `Markup` in Discord's syntax: mentions that notify, timestamps in each reader's zone."""

    def mention(self, user_id: int) -> str:
        return f"<@{user_id}>"

    def channel(self, channel_id: int) -> str:
        return f"<#{channel_id}>"

    def relative(self, ts: float) -> str:
        return f"<t:{int(ts)}:R>"

    def date(self, ts: float) -> str:
        return f"<t:{int(ts)}:F>"

    def day(self, ts: float) -> str:
        return f"<t:{int(ts)}:D>"

    def deadline(self, ts: float) -> str:
        # Discord rounds "in 1 day 12 hours" to "in 2 days": the short date and time beside it
        return f"<t:{int(ts)}:R> (<t:{int(ts)}:f>)"

    def strong(self, text: str) -> str:
        return f"**{text}**"


DISCORD = DiscordMarkup()
T = TypeVar("T")


def groups_with_actions(game: Game, view: View, legal: Iterable[Action]) -> list[str]:
    """The pieces (units, cards, fronts) that can do something now, in the order their first action
    is listed: all of them (Take action splits them over several selects, `chunks`), since a piece
    left out could then be played only by typing."""
    seen: dict[str, None] = {}
    for action in legal:
        group = game.group_of(view, action)
        if group is not None:
            seen.setdefault(group)
    return list(seen)


def nothing_alone_text(menu: Menu) -> str:
    """Take action's answer when no piece can act: the buttons that do go on, by name, so a player
    on a phone is not sent to type a command."""
    labels = [f"**{c.label}**" for c in menu.buttons if c.notation is not None and not c.disabled]
    if not labels:
        return "Nothing of yours can act on its own now: use the buttons under the board."
    named = labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]
    return f"Nothing of yours can act on its own now: use {named} under the board."


def actions_of_group(game: Game, view: View, legal: Iterable[Action], group: str) -> list[Action]:
    return [a for a in legal if game.group_of(view, a) == group]


def chunks(items: Sequence[T], size: int = MAX_CHOICES, most: int = limits.ROWS - 1) -> list[list[T]]:
    """Split into select-sized pieces (at most `most` selects, so a message keeps a row spare)."""
    return [list(items[i : i + size]) for i in range(0, min(len(items), size * most), size)]


def filter_choices(
    game: Game, view: View, legal: Iterable[Action], kinds: Sequence[str], typed: str
) -> list[Action]:
    """Autocomplete: actions of these kinds whose notation or words contain what was typed (max 25).
    No kinds: every action (the general `play` command)."""
    needle = typed.strip().lower()
    out = []
    for action in legal:
        if kinds and game.verb_of(view, action) not in kinds:
            continue
        text = str(action).lower()
        if needle and needle not in text and needle not in game.describe(view, action).lower():
            continue
        out.append(action)
    out.sort(key=lambda a: not str(a).lower().startswith(needle))  # prefix matches first, stable
    return out[:MAX_CHOICES]


def choice_name(game: Game, view: View, action: Action) -> str:
    """Autocomplete label: the notation and the words (Discord allows 100 characters)."""
    return f"{action} — {game.describe(view, action)}"[: limits.TEXT]
