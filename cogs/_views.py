"""Persistent buttons and selects: the custom_id carries the match id and version, so they work days
later and after a restart, and a click on an old board is recognised as stale.

No rules live here: every callback hands over to the cog, which asks the match service.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from cogs import _format as fmt
from cogs._release import release_when_done, unlink_when_done
from engine.blockwars import Action, State
from engine.blockwars import actions as A

if TYPE_CHECKING:
    from cogs.blockwars import BlockWars

MAX_BUTTONS = 5
ID_LIMIT = 100


def _cog(interaction: discord.Interaction) -> BlockWars:
    cog = interaction.client.get_cog("BlockWars")  # type: ignore[attr-defined]
    if cog is None:
        raise RuntimeError("the Block Wars cog is not loaded")
    return cog  # type: ignore[no-any-return]


class _Released:
    """Mixed into every dynamic item: the interaction, and the view discord.py built from the clicked
    message, have their reference cycles cut when the click's task ends (see cogs/_release.py)."""

    view: discord.ui.View | None

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        release_when_done(interaction, *([self.view] if self.view is not None else []))
        return True


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
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> ChallengeButton:
        return cls(match["verb"], int(match["mid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        answer = cog.accept_challenge if self.verb == "accept" else cog.decline_challenge
        await cog.guarded(interaction, answer(interaction, self.match_id))


class TakeActionButton(
    _Released, discord.ui.DynamicItem[discord.ui.Button], template=r"bw:act:(?P<mid>\d+):(?P<ver>\d+)"
):
    """Opens the select flow (unit, then what to do) for the player to move."""

    def __init__(self, match_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Take action",
                style=discord.ButtonStyle.primary,
                custom_id=f"bw:act:{match_id}:{version}",
            )
        )
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> TakeActionButton:
        return cls(int(match["mid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        await cog.guarded(interaction, cog.open_unit_picker(interaction, self.match_id, self.version))


class PlayButton(
    _Released,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bw:dec:(?P<mid>\d+):(?P<ver>\d+):(?P<notation>.+)",
):
    """Plays one fixed notation: a decision answer, a set-up layout, or ending the turn."""

    def __init__(
        self,
        match_id: int,
        version: int,
        notation: str,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=(label or notation)[:80],
                style=style,
                custom_id=f"bw:dec:{match_id}:{version}:{notation}",
            )
        )
        self.match_id = match_id
        self.version = version
        self.notation = notation

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> PlayButton:
        return cls(int(match["mid"]), int(match["ver"]), match["notation"], item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        await cog.guarded(
            interaction, cog.play_component(interaction, self.notation, self.match_id, self.version)
        )


def _options(state: State, actions: Sequence[Action]) -> list[discord.SelectOption]:
    return [discord.SelectOption(label=fmt.describe(state, a)[:100], value=str(a)) for a in actions]


class PickSelect(
    _Released,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"bw:pick:(?P<mid>\d+):(?P<ver>\d+):(?P<n>\d+)",
):
    """A select whose values are notations (decisions with many answers: barrage squares, strafe targets)."""

    def __init__(self, match_id: int, version: int, n: int, select: discord.ui.Select) -> None:
        select.custom_id = f"bw:pick:{match_id}:{version}:{n}"
        super().__init__(select)
        self.match_id = match_id
        self.version = version

    @classmethod
    def build(
        cls, match_id: int, version: int, n: int, state: State, actions: Sequence[Action], placeholder: str
    ) -> PickSelect:
        select: discord.ui.Select = discord.ui.Select(
            placeholder=placeholder[:150], options=_options(state, actions)
        )
        return cls(match_id, version, n, select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> PickSelect:
        return cls(int(match["mid"]), int(match["ver"]), int(match["n"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        notation = self.item.values[0]
        await cog.guarded(interaction, cog.play_component(interaction, notation, self.match_id, self.version))


class UnitSelect(
    _Released, discord.ui.DynamicItem[discord.ui.Select], template=r"bw:unit:(?P<mid>\d+):(?P<ver>\d+)"
):
    """Step one of the select flow: which unit (or the tank, or the reserve)."""

    def __init__(self, match_id: int, version: int, select: discord.ui.Select) -> None:
        select.custom_id = f"bw:unit:{match_id}:{version}"
        super().__init__(select)
        self.match_id = match_id
        self.version = version

    @classmethod
    def build(cls, match_id: int, version: int, state: State, units: Sequence[str]) -> UnitSelect:
        options = [discord.SelectOption(label=fmt.unit_label(state, u)[:100], value=u) for u in units]
        select: discord.ui.Select = discord.ui.Select(placeholder="Choose a unit", options=options)
        return cls(match_id, version, select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> UnitSelect:
        return cls(int(match["mid"]), int(match["ver"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        unit = self.item.values[0]
        await cog.guarded(interaction, cog.open_action_picker(interaction, self.match_id, self.version, unit))


class DoSelect(
    _Released,
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"bw:do:(?P<mid>\d+):(?P<ver>\d+):(?P<unit>[a-z0-9]+):(?P<n>\d+)",
):
    """Step two of the select flow: what the chosen unit does (values are notations)."""

    def __init__(self, match_id: int, version: int, unit: str, n: int, select: discord.ui.Select) -> None:
        select.custom_id = f"bw:do:{match_id}:{version}:{unit}:{n}"
        super().__init__(select)
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]
    ) -> DoSelect:
        return cls(int(match["mid"]), int(match["ver"]), match["unit"], int(match["n"]), item)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        notation = self.item.values[0]
        await cog.guarded(interaction, cog.play_component(interaction, notation, self.match_id, self.version))


class GasButton(
    _Released, discord.ui.DynamicItem[discord.ui.Button], template=r"bw:gas:(?P<mid>\d+):(?P<ver>\d+)"
):
    """The Germans' once-a-game gas: opens selects of gas squares (64 more choices than fit at once)."""

    def __init__(self, match_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Use poison gas instead…",
                style=discord.ButtonStyle.danger,
                custom_id=f"bw:gas:{match_id}:{version}",
            )
        )
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> GasButton:
        return cls(int(match["mid"]), int(match["ver"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        await cog.guarded(interaction, cog.open_gas_picker(interaction, self.match_id, self.version))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ChallengeButton,
    TakeActionButton,
    PlayButton,
    PickSelect,
    UnitSelect,
    DoSelect,
    GasButton,
)


def persistent_view() -> discord.ui.View:
    """A view of dynamic items only: Discord keeps the buttons, and discord.py needs no Python object
    to answer them later, so the view is unlinked when the task that made it ends."""
    view = discord.ui.View(timeout=None)
    unlink_when_done(view)
    return view


def challenge_view(match_id: int) -> discord.ui.View:
    view = persistent_view()
    view.add_item(ChallengeButton("accept", match_id))
    view.add_item(ChallengeButton("decline", match_id))
    return view


def selects_view(
    match_id: int, version: int, state: State, actions: Sequence[Action], what: str
) -> discord.ui.View:
    """Actions as up to four selects of 25 (Discord's limit per select)."""
    view = persistent_view()
    pieces = fmt.chunks(actions)
    for n, piece in enumerate(pieces):
        label = what if len(pieces) == 1 else f"{what} ({n + 1}/{len(pieces)})"
        view.add_item(PickSelect.build(match_id, version, n, state, piece, label))
    return view


def board_view(match_id: int, version: int, state: State) -> discord.ui.View | None:
    """The components under a board: set-up buttons, the decision's answers, or Take action / End turn."""
    if state.is_over():
        return None
    legal = state.legal_actions()
    view = persistent_view()
    if state.phase == "setup":
        for action in legal[:MAX_BUTTONS]:
            style = (
                discord.ButtonStyle.primary if str(action) == "setup std" else discord.ButtonStyle.secondary
            )
            view.add_item(PlayButton(match_id, version, str(action), fmt.describe(state, action), style))
        return view
    if state.pending is not None:
        ordinary = [a for a in legal if not (isinstance(a, A.Barrage) and a.gas)]
        gas = len(ordinary) != len(legal)
        if len(ordinary) <= MAX_BUTTONS:
            for action in ordinary:
                style = (
                    discord.ButtonStyle.secondary
                    if isinstance(action, A.Decline)
                    else discord.ButtonStyle.primary
                )
                view.add_item(PlayButton(match_id, version, str(action), fmt.describe(state, action), style))
            return view
        choices = [a for a in ordinary if not isinstance(a, A.Decline)]
        declinable = len(choices) != len(ordinary)
        pieces = fmt.chunks(choices, most=3 if (gas or declinable) else 4)
        for n, piece in enumerate(pieces):
            what = "Choose the centre square" if state.pending.kind == "barrage" else "Choose"
            if len(pieces) > 1:
                first, last = (fmt.describe(state, a).split()[-1] for a in (piece[0], piece[-1]))
                what += f" ({first}–{last})"
            view.add_item(PickSelect.build(match_id, version, n, state, piece, what))
        if gas:
            view.add_item(GasButton(match_id, version))
        if declinable:
            view.add_item(PlayButton(match_id, version, "decline", "Decline"))
        return view
    view.add_item(TakeActionButton(match_id, version))
    if any(isinstance(a, A.EndTurn) for a in legal):
        view.add_item(PlayButton(match_id, version, "end", "End turn"))
    return view
