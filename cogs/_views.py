"""Persistent buttons and selects, for every game: the custom_id carries the match id and the stamp of
its version (play/stamps.py: in a version-2 game a keyed hash, which does not count the writes), so
they work days later and after a restart, and a click on an old board is recognised as stale.

No rules live here: every callback hands over to the core cog, which asks the match service; what
goes under a board is the game's `Menu`, turned into components by `board_view`.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Awaitable, Sequence
from typing import Any, Protocol, cast

import discord

from cogs import limits
from cogs._release import refused_while_stopping, release_when_done, unlink_when_done
from engine.protocol import Choice, Menu
from play.results import SEPARATOR


class Clicks(Protocol):
    """What a click calls on the core cog (found at click time, so this module imports no cog)."""

    async def guarded(self, interaction: discord.Interaction, work: Awaitable[None]) -> None: ...
    async def accept_challenge(
        self, interaction: discord.Interaction, match_id: int | None = None
    ) -> None: ...
    async def decline_challenge(
        self, interaction: discord.Interaction, match_id: int | None = None
    ) -> None: ...
    async def open_group_picker(
        self, interaction: discord.Interaction, match_id: int, given: str
    ) -> None: ...
    async def play_component(
        self, interaction: discord.Interaction, notation: str, match_id: int, given: str
    ) -> None: ...
    async def open_action_picker(
        self, interaction: discord.Interaction, match_id: int, given: str, group: str
    ) -> None: ...
    async def open_submenu(
        self, interaction: discord.Interaction, match_id: int, given: str, key: str
    ) -> None: ...
    async def show_hand(
        self, interaction: discord.Interaction, match_id: int | None, *, game_name: str | None = None
    ) -> None: ...
    async def review(
        self, interaction: discord.Interaction, game: str | None = None, match_id: int | None = None
    ) -> None: ...
    async def undo(
        self, interaction: discord.Interaction, match_id: int | None = None, given: str | None = None
    ) -> None: ...


ID_LIMIT = limits.TEXT
STYLES = limits.STYLES


def _cog(interaction: discord.Interaction) -> Clicks:
    cog = interaction.client.get_cog("Core")  # type: ignore[attr-defined]
    if cog is None:
        raise RuntimeError("the core cog is not loaded")
    return cast(Clicks, cog)


class _Released:
    """Mixed into every dynamic item: the interaction, and the view discord.py built from the clicked
    message, have their reference cycles cut when the click's task ends (see cogs/_release.py)."""

    view: discord.ui.View | None

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        release_when_done(interaction, *([self.view] if self.view is not None else []))
        return not await refused_while_stopping(interaction)


class ChallengeButton(
    _Released, discord.ui.DynamicItem[discord.ui.Button], template=r"bw:(?P<verb>accept|decline):(?P<mid>\d+)"
):
    """Accept a challenge, or decline it (withdraw it, for the challenger)."""

    def __init__(self, verb: str, match_id: int) -> None:
        accept = verb == "accept"
        super().__init__(
            discord.ui.Button(
                label="Accept" if accept else "Decline",
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
                custom_id=f"bw:{verb}:{match_id}",
            )
        )
        self.verb = verb
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ChallengeButton:
        return cls(match["verb"], int(match["mid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        answer = cog.accept_challenge if self.verb == "accept" else cog.decline_challenge
        await cog.guarded(interaction, answer(interaction, self.match_id))


class TakeActionButton(
    _Released, discord.ui.DynamicItem[discord.ui.Button], template=r"bw:act:(?P<mid>\d+):(?P<ver>[0-9a-f]+)"
):
    """Opens the select flow (a piece, then what it does) for the player to move."""

    def __init__(self, match_id: int, stamp: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Take action",
                style=discord.ButtonStyle.primary,
                custom_id=f"bw:act:{match_id}:{stamp}",
            )
        )
        self.match_id = match_id
        self.stamp = stamp

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TakeActionButton:
        return cls(int(match["mid"]), match["ver"])

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        await cog.guarded(interaction, cog.open_group_picker(interaction, self.match_id, self.stamp))


class PlayButton(
    _Released,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bw:dec:(?P<mid>\d+):(?P<ver>[0-9a-f]+):(?P<notation>.+)",
):
    """Plays one fixed notation: a decision's answer, a set-up, ending the turn: a game's `Choice`."""

    def __init__(
        self,
        match_id: int,
        stamp: str,
        notation: str,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or notation)[:80],
                style=style,
                custom_id=f"bw:dec:{match_id}:{stamp}:{notation}",
                disabled=disabled,
            )
        )
        self.match_id = match_id
        self.stamp = stamp
        self.notation = notation

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PlayButton:
        return cls(int(match["mid"]), match["ver"], match["notation"], getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        await cog.guarded(
            interaction, cog.play_component(interaction, self.notation, self.match_id, self.stamp)
        )


AGAIN = ("", "a second", "a third", "a fourth", "a fifth")


def select_options(choices: Sequence[Choice]) -> list[discord.SelectOption]:
    """The options of a select of `choices`. Discord refuses two options of one value, and a select
    of several picks may list a notation twice (two of one card, to discard both): a repeat's value
    carries its count after the command separator, which no notation contains (`notations` reads it
    back), and its label says which copy it is."""
    out = []
    seen: dict[str, int] = {}
    for c in choices:
        notation = str(c.notation)
        n = seen[notation] = seen.get(notation, 0) + 1
        label, value = c.label, notation
        if n > 1:
            label = f"{label}, {f'{AGAIN[n - 1]} one' if n < len(AGAIN) else f'copy {n}'}"
            value = f"{notation}{SEPARATOR}{n}"
        out.append(discord.SelectOption(label=label[: limits.TEXT], value=value))
    return out


def offered(values: Sequence[str], select: discord.ui.Select[Any]) -> bool:
    """Whether `values` are a pick the select on the clicked message allows: each one of its options,
    none twice, as many as it asks. Discord's own client sends nothing else, but a client that sends
    raw interactions may (a card not listed, the `;2` of a card listed once, too few or too many),
    and a select's picks are to play only what it offered. Its options come from the message the
    bot posted, so the answer reads nothing of a hand but what that message lists to its reader."""
    options = {o.value for o in select.options}
    return (
        len(set(values)) == len(values)
        and all(v in options for v in values)
        and select.min_values <= len(values) <= select.max_values
    )


def not_offered_text(select: discord.ui.Select[Any]) -> str:
    """The refusal of a forged pick: the same words whatever was sent, and nothing played."""
    least, most = select.min_values, select.max_values
    many = f"{least}" if least == most else f"{least} to {most}"
    return (
        f"That pick is not one this menu offers: choose {many} of its own choices, each once. "
        "Nothing was played."
    )


def notations(values: Sequence[str], options: Sequence[discord.SelectOption]) -> str:
    """The command a select's picked `values` play: their notations (a repeat's count left off), in
    the order the options list them, so the same picks always make the same command."""
    order = {o.value: n for n, o in enumerate(options)}
    picked = sorted(values, key=lambda v: order.get(v, len(order)))
    return f"{SEPARATOR} ".join(v.split(SEPARATOR, 1)[0] for v in picked)


class PickSelect(
    _Released,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"bw:pick:(?P<mid>\d+):(?P<ver>[0-9a-f]+):(?P<n>\d+)",
):
    """A select whose values are notations (decisions with many answers: barrage squares, strafe targets)."""

    def __init__(self, match_id: int, stamp: str, n: int, select: discord.ui.Select) -> None:
        select.custom_id = f"bw:pick:{match_id}:{stamp}:{n}"
        super().__init__(select)
        self.match_id = match_id
        self.stamp = stamp

    @classmethod
    def build(
        cls,
        match_id: int,
        stamp: str,
        n: int,
        choices: Sequence[Choice],
        placeholder: str,
        least: int = 1,
        most: int = 1,
    ) -> PickSelect:
        """`least` to `most` of the `choices` are picked (a game's `Pick`), within what Discord allows."""
        options = select_options(choices)
        most = max(1, min(most, len(options), limits.CHOICES))
        select: discord.ui.Select = discord.ui.Select(
            placeholder=placeholder[: limits.PLACEHOLDER],
            options=options,
            min_values=max(0, min(least, most)),
            max_values=most,
        )
        return cls(match_id, stamp, n, select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PickSelect:
        return cls(int(match["mid"]), match["ver"], int(match["n"]), cast(discord.ui.Select, item))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Plays the picked options' notations as one command (several, for a select of several
        picks: all or nothing, as a typed command of several actions)."""
        cog = _cog(interaction)
        if not offered(self.item.values, self.item):
            await interaction.response.send_message(not_offered_text(self.item), ephemeral=True)
            return
        command = notations(self.item.values, self.item.options)
        await cog.guarded(interaction, cog.play_component(interaction, command, self.match_id, self.stamp))


class UnitSelect(
    _Released,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"bw:unit:(?P<mid>\d+):(?P<ver>[0-9a-f]+)(?::(?P<n>\d+))?",
):
    """Step one of the select flow: which piece (a unit, a card, a front: the game's `group_of`).
    More pieces than one select holds go in several, the second on numbered (`n`)."""

    def __init__(self, match_id: int, stamp: str, select: discord.ui.Select, n: int = 0) -> None:
        select.custom_id = f"bw:unit:{match_id}:{stamp}" + (f":{n}" if n else "")
        super().__init__(select)
        self.match_id = match_id
        self.stamp = stamp

    @classmethod
    def build(
        cls, match_id: int, stamp: str, groups: Sequence[tuple[str, str]], placeholder: str, n: int = 0
    ) -> UnitSelect:
        """`groups` are (key, label) pairs."""
        options = [
            discord.SelectOption(label=label[: limits.TEXT], value=key[: limits.TEXT])
            for key, label in groups
        ]
        select: discord.ui.Select = discord.ui.Select(
            placeholder=placeholder[: limits.PLACEHOLDER], options=options
        )
        return cls(match_id, stamp, select, n)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> UnitSelect:
        return cls(int(match["mid"]), match["ver"], cast(discord.ui.Select, item), int(match["n"] or 0))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        unit = self.item.values[0]
        await cog.guarded(interaction, cog.open_action_picker(interaction, self.match_id, self.stamp, unit))


class DoSelect(
    _Released,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"bw:do:(?P<mid>\d+):(?P<ver>[0-9a-f]+):(?P<unit>[^:]+):(?P<n>\d+)",
):
    """Step two of the select flow: what the chosen piece does (values are notations)."""

    def __init__(self, match_id: int, stamp: str, unit: str, n: int, select: discord.ui.Select) -> None:
        select.custom_id = f"bw:do:{match_id}:{stamp}:{unit}:{n}"
        super().__init__(select)
        self.match_id = match_id
        self.stamp = stamp

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DoSelect:
        return cls(
            int(match["mid"]),
            match["ver"],
            match["unit"],
            int(match["n"]),
            cast(discord.ui.Select, item),
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        notation = self.item.values[0]
        await cog.guarded(interaction, cog.play_component(interaction, notation, self.match_id, self.stamp))


class OpenButton(
    _Released,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bw:(?:gas|open):(?P<mid>\d+):(?P<ver>[0-9a-f]+)(?::(?P<key>[^:]+))?",
):
    """Opens one of the game's submenus privately (`Choice.opens`). Boards posted before submenus
    were generic carry `bw:gas:<match>:<stamp>`: it still opens the submenu "gas"."""

    def __init__(
        self, match_id: int, stamp: str, key: str, label: str = "More…", style: str = "secondary"
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                style=STYLES.get(style, discord.ButtonStyle.secondary),
                custom_id=f"bw:open:{match_id}:{stamp}:{key}",
            )
        )
        self.match_id = match_id
        self.stamp = stamp
        self.key = key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OpenButton:
        return cls(
            int(match["mid"]),
            match["ver"],
            match["key"] or "gas",
            getattr(item, "label", None) or "More…",
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        await cog.guarded(interaction, cog.open_submenu(interaction, self.match_id, self.stamp, self.key))


class HandButton(_Released, discord.ui.DynamicItem[discord.ui.Button], template=r"bw:hand:(?P<mid>\d+)"):
    """ "My hand": shows the clicker their own secret cards, privately (games with `private_info`)."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="My hand", style=discord.ButtonStyle.secondary, custom_id=f"bw:hand:{match_id}"
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        return cls(int(match["mid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        await cog.guarded(interaction, cog.show_hand(interaction, self.match_id))


class ReviewButton(_Released, discord.ui.DynamicItem[discord.ui.Button], template=r"bw:review:(?P<mid>\d+)"):
    """On a finished game's board: a player's private look back at their own costliest choices."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Look back at my choices",
                style=discord.ButtonStyle.secondary,
                custom_id=f"bw:review:{match_id}",
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReviewButton:
        return cls(int(match["mid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        await cog.guarded(interaction, cog.review(interaction, match_id=self.match_id))


class UndoButton(
    _Released, discord.ui.DynamicItem[discord.ui.Button], template=r"bw:undo:(?P<mid>\d+):(?P<ver>[0-9a-f]+)"
):
    """On the answer to a player's own step while it is still their turn: take that step back
    (`/wargames undo`). Version-stamped: once the game moves on, the click is out of date."""

    def __init__(self, match_id: int, stamp: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Undo", style=discord.ButtonStyle.secondary, custom_id=f"bw:undo:{match_id}:{stamp}"
            )
        )
        self.match_id = match_id
        self.stamp = stamp

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> UndoButton:
        return cls(int(match["mid"]), match["ver"])

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        await cog.guarded(interaction, cog.undo(interaction, self.match_id, self.stamp))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ChallengeButton,
    TakeActionButton,
    PlayButton,
    PickSelect,
    UnitSelect,
    DoSelect,
    OpenButton,
    HandButton,
    ReviewButton,
    UndoButton,
)


def persistent_view() -> discord.ui.View:
    """A view of dynamic items only: Discord keeps the buttons, and discord.py needs no Python object
    to answer them later (the items' classes are registered at start-up), so the view is unlinked
    when the task that made it ends.

    It is also stopped before it is sent, so discord.py never stores it: stored, an ephemeral one got
    a 15-minute timeout, a task and a timer keeping it alive per private board or menu, thousands
    under load, which every full garbage collection walked (loop stalls)."""
    view = discord.ui.View(timeout=None)
    view.stop()
    unlink_when_done(view)
    return view


def challenge_view(match_id: int) -> discord.ui.View:
    view = persistent_view()
    view.add_item(ChallengeButton("accept", match_id))
    view.add_item(ChallengeButton("decline", match_id))
    return view


def with_undo(view: discord.ui.View | None, match_id: int, stamp: str) -> discord.ui.View:
    """`view` with an Undo button added where there is room (a full menu keeps `/wargames undo`)."""
    out = view or persistent_view()
    with contextlib.suppress(ValueError):  # every row taken
        out.add_item(UndoButton(match_id, stamp))
    return out


def review_view(match_id: int) -> discord.ui.View:
    """Under a finished game's board: the look back."""
    view = persistent_view()
    view.add_item(ReviewButton(match_id))
    return view


def menu_view(match_id: int, stamp: str, menu: Menu, *, hand: bool = False) -> discord.ui.View | None:
    """A game's menu as components: Take action, the selects, the buttons (and My hand)."""
    view = persistent_view()
    if menu.take_action:
        view.add_item(TakeActionButton(match_id, stamp))
    for n, pick in enumerate(menu.picks):
        view.add_item(
            PickSelect.build(match_id, stamp, n, pick.choices, pick.placeholder, pick.least, pick.most)
        )
    for choice in menu.buttons:
        if choice.opens is not None:
            view.add_item(OpenButton(match_id, stamp, choice.opens, choice.label, choice.style))
        elif choice.notation is not None:
            style = STYLES.get(choice.style, discord.ButtonStyle.secondary)
            view.add_item(
                PlayButton(match_id, stamp, choice.notation, choice.label, style, disabled=choice.disabled)
            )
    if hand:
        view.add_item(HandButton(match_id))
    return view if view.children else None
