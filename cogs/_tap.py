"""The words under a board name its buttons, not commands to type (docs/architecture.md, "Words").

A game's status is shared with the console, where typing is right, so it quotes notation:
"then `fight` (or `end`)". On Discord most players tap, so where the message's own view has a
button that plays a quoted notation (the same action, however it is spelt) the text names that
button instead: "then **Fight** (or **End turn**)". A placeholder such as `negate …` names the
button that opens that submenu; an action reached only through Take action is introduced by it,
its notation kept for whoever types ("(**Take action**, or type `move B1 F3`; …)"); a template
whose choices are a select's options says so ("Answer from the list below with its centre, e.g.
`barrage e4`").

Only the view of the message the text goes with is read, so a text never names a button its
readers cannot see, and nothing here depends on a position's hidden parts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from cogs import limits
from cogs._views import OpenButton, PickSelect, PlayButton, TakeActionButton
from data import Match
from engine.protocol import Game
from play.results import SEPARATOR
from play.service import game_of

CODE = re.compile(r"`([^`\n]+)`")
PLACEHOLDER = "…"
TAKE_ACTION = "**Take action**"


@dataclass(frozen=True, slots=True)
class Tappable:
    """A button under a message, as the text may name it: what it plays or which submenu it opens."""

    label: str
    notation: str | None = None
    opens: str | None = None
    listed: bool = False  # an option of a select under the message, not a button


def tapped(match: Match, text: str, view: discord.ui.View | None) -> str:
    """`text` naming the buttons of `view`, the message's own, where it quotes what they play; as
    it was where the names would not fit one message."""
    buttons, take_action = tappables(view)
    out = named(text, game_of(match), buttons, take_action)
    return out if len(out) <= limits.MESSAGE else text


def tappables(view: discord.ui.View | None) -> tuple[list[Tappable], bool]:
    """What a text may name under a message, and whether Take action is there: read from the very
    view the text goes with, so it names nothing its readers lack."""
    out: list[Tappable] = []
    take_action = False
    for item in view.children if view is not None else ():
        if isinstance(item, TakeActionButton):
            take_action = True
        elif isinstance(item, PlayButton):
            out.append(Tappable(item.item.label or item.notation, notation=item.notation))
        elif isinstance(item, OpenButton):
            out.append(Tappable(item.item.label or "", opens=item.key))
        elif isinstance(item, PickSelect):
            out.extend(
                Tappable(o.label, notation=o.value.split(SEPARATOR, 1)[0], listed=True)
                for o in item.item.options
            )
    return out, take_action


def button_name(label: str) -> str:
    """How a text names a button: its label without a trailing aside ("Pass (finished with this
    phase)" is "Pass") or the list after a colon ("Standard: back row b c f g, …" is "Standard"),
    so a sentence stays short and the name is still how the button begins."""
    name = re.sub(r"\s*\([^()]*\)$", "", label).strip() or label
    head, colon, rest = name.partition(": ")
    if colon and "," in rest:
        name = head
    return name


def named(text: str, game: Game, buttons: Sequence[Tappable], take_action: bool) -> str:
    """`text` with each quoted notation a button plays named by that button (see the module)."""
    plays: dict[str, str] = {}
    listed = [b.notation.lower() for b in buttons if b.listed and b.notation]
    for button in buttons:
        if button.notation is not None and not button.listed:
            key = _canonical(game, button.notation)
            if key is not None:
                plays.setdefault(key, button_name(button.label))
    opens = {b.opens: button_name(b.label) for b in buttons if b.opens is not None}
    out: list[str] = []
    at = 0
    introduced = False  # Take action is named once a message: a second time is noise
    said_list = False
    submenus: set[str] = set()  # the submenus whose button this message has named
    for found in CODE.finditer(text):
        quoted = found.group(1).strip()
        start, end = found.span()
        if not quoted or at > start:
            continue  # (or inside an aside already left out)
        name = _name(quoted, game, plays, opens)
        if "<" in quoted and _lists(quoted, listed):
            # "Answer `barrage <square>`", "`R@<square>`": the squares are the options below
            # said once: "from the list below for infantry …; or from it for the tank"
            out.append(f"{text[at:start]}{'from it' if said_list else 'from the list below'}")
            said_list = True
            at = end
            continue
        if name is not None:
            if quoted.endswith(PLACEHOLDER):
                submenus.add(quoted.removesuffix(PLACEHOLDER).strip().lower())
            before = text[at:start]
            after, skip = _after(text, end, name)
            lead = _same_words(before, name)
            if lead is not None and after.startswith(")"):
                # "let it stand (`pass`)": the words are the button's, so they name it
                kept, words = lead
                out.append(f"{kept}**{words}**")
                at, skip = end + 1, 0
            else:
                out.append(f"{before}**{name}**")
                at = end
            at += skip
            continue
        aside = _whole_aside(text, start)
        if aside is not None and all(q.split()[0].lower() in submenus for q in aside[1]):
            # "ask again (`orders ask`)" once "standing orders (`orders …`)" named the button that
            # opens their choices: the aside only shows what to type
            out.append(text[at : start - 2])
            at = aside[0]
            continue
        if take_action and introduced and aside is not None and all(_playable(q, game) for q in aside[1]):
            # "then assaults by A3 (`assault A3`)" after Take action was introduced: the aside only
            # shows the notation to type; a phone taps Take action again, so the aside goes
            out.append(text[at : start - 2])
            at = aside[0]
            continue
        first = quoted.split()[0].lower()
        if first in opens and not quoted.endswith(PLACEHOLDER) and text[end : end + 1] in (".", ""):
            # "your once-a-game poison gas: `gas e4`." ends a sentence: its submenu's button first
            out.append(f"{text[at:start]}**{opens[first]}**, or type `{quoted}`")
            at = end
            continue
        if take_action and not introduced and _opens_aside(text, start) and _playable(quoted, game):
            lead_in = "e.g. " if text[:start].endswith("e.g. ") else ""
            cut = start - len(lead_in)
            out.append(f"{text[at:cut]}{TAKE_ACTION}, or type {lead_in}`{quoted}`")
            at = end
            introduced = True
    out.append(text[at:])
    return "".join(out)


def _lists(template: str, listed: Sequence[str]) -> bool:
    """Whether a select's options fill `template` (`barrage <square>` by "barrage e4", `R@<square>`
    by "R@b8"): some option begins with what comes before its first placeholder."""
    head = template.split("<", 1)[0].strip().lower()
    return bool(head) and any(option.startswith(head) for option in listed)


def _canonical(game: Game, notation: str) -> str | None:
    """The action a notation plays, spelt one way ("setup std" and its files are one action)."""
    try:
        return str(game.parse(notation))
    except (ValueError, NotImplementedError):
        return None


def _name(quoted: str, game: Game, plays: dict[str, str], opens: dict[str, str]) -> str | None:
    if quoted.endswith(PLACEHOLDER):
        return opens.get(quoted.removesuffix(PLACEHOLDER).strip().lower())
    key = _canonical(game, quoted)
    return plays.get(key) if key is not None else None


def _after(text: str, end: int, name: str) -> tuple[str, int]:
    """What follows a quoted notation, and how much of it to drop: "`end` your turn" names the
    button "End turn", whose last word says the rest."""
    after = text[end:]
    last = name.split()[-1].lower() if " " in name else None
    if last is not None:
        said = re.match(rf" (?:your |the )?{re.escape(last)}\b", after, re.IGNORECASE)
        if said is not None:
            return after, said.end()
    return after, 0


def _same_words(before: str, name: str) -> tuple[str, str] | None:
    """Whether `before` ends in the button's name and " (": then the words themselves name it.
    Returns the text kept before them and the words as written."""
    if not before.endswith(" ("):
        return None
    words = name.rstrip(PLACEHOLDER).strip()
    body = before[:-2]
    if not words or not body.lower().endswith(words.lower()):
        return None
    cut = len(body) - len(words)
    if cut > 0 and body[cut - 1].isalnum():
        return None
    return body[:cut], body[cut:]


ASIDE_OF_QUOTES = re.compile(r"`[^`\n]+`(?:(?:,| or|, or) `[^`\n]+`)*\)")


def _whole_aside(text: str, start: int) -> tuple[int, list[str]] | None:
    """Where an aside that holds only quoted notation ("(`fire A3`)", "(`recon A1 look` or `recon
    A1 mark`)") and opens at `start` ends, and its quotes; None for any other aside or none."""
    if not text[:start].endswith(" ("):
        return None
    found = ASIDE_OF_QUOTES.match(text, start)
    if found is None:
        return None
    return found.end(), CODE.findall(found.group(0))


def _opens_aside(text: str, start: int) -> bool:
    """Whether a quote opens an aside, "(`call T1 3`, …)" or "(e.g. `a3-a5`; …)": an example of
    what to play, where Take action goes first."""
    return text[:start].endswith(("(", "(e.g. "))


def _playable(quoted: str, game: Game) -> bool:
    """A notation the game reads, or a verb's placeholder ("`play …`")."""
    if quoted.endswith(PLACEHOLDER):
        return bool(quoted.removesuffix(PLACEHOLDER).strip())
    return _canonical(game, quoted) is not None
