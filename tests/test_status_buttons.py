"""On Discord the words under a board name its buttons, where the console quotes notation to type.

A game's status is shared by both ("then `fight` (or `end`)"); the Discord adapter names the
buttons of the very message the text goes with ("then **Fight** (or **End turn**)"), so a phone
player is told what to tap, and a text never names a button its readers do not have. One bot
serves the module (each test plays in its own channel).
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import AsyncIterator
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from cogs._tap import Tappable, button_name, named
from console import Console
from data import Database
from engine import registry
from play import MatchService
from tests.clock import Clock
from tests.fakediscord import FakeMessage
from tests.onebot import ON_THE_BOT, Table, one_bot
from tests.random_play import random_steps


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def table(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Table]:
    async with one_bot(tmp_path_factory.mktemp("taps"), "Taps") as world:
        yield world


def labels(message: FakeMessage) -> list[str]:
    """What a reader can tap under `message`: its buttons' labels and its selects' placeholders."""
    out = []
    for comp in message.iter_components():
        if comp.get("type") == 2:
            out.append(comp["label"])
        elif comp.get("type") == 3:
            out.append(comp.get("placeholder") or "")
    return out


def names_only_its_own(message: FakeMessage) -> None:
    """Every button the text names in bold is one under this very message (how a label begins)."""
    under = labels(message)
    for name in re.findall(r"\*\*([^*]+)\*\*", message.content):
        if name.startswith("Game over"):
            continue
        assert any(label.lower().startswith(name.lower()) for label in under), (name, under)


@ON_THE_BOT
async def test_the_first_board_names_its_set_up_button(table: Table) -> None:
    """Fix Bayonets' first board: "(`setup std` for the standard layout)" became the button's name,
    which the board carries; the typed form is left for the console."""
    _, board = await table.accepted("fixbayonets", "germans")
    assert "(**Standard set-up** for the standard layout)" in board.content, board.content
    assert "`setup std`" not in board.content
    assert "Standard set-up" in labels(board)
    names_only_its_own(board)


@ON_THE_BOT
async def test_a_hand_off_board_and_the_turn_dm_name_the_buttons(table: Table) -> None:
    """Block Wars: the Germans deploy by the button. The channel's board tells the Canadians to tap
    Standard (its button begins so), and so does the Canadians' turn ping by DM, which links to it."""
    await table.fake.slash(table.bob, table.guild.channel("lobby"), "wargames", "notify", {"enabled": True})
    channel, board = await table.accepted("blockwars", "germans")
    assert "(**Standard** for the standard layout)" in board.content, board.content
    (layout,) = [c for c in board.custom_ids if c.endswith(":setup std")]
    deployed = await table.fake.click(table.alice, board, layout)
    await table.idle()
    (handed,) = [m for m in deployed.messages if m.channel_id == channel.id]
    assert f"<@{table.bob.id}> (Canadians): deploy your units (**Standard** for the standard layout)." in (
        handed.content
    ), handed.content
    names_only_its_own(handed)
    ping = table.fake.dms_to(table.bob)[-1].content
    assert "\nYou (Canadians): deploy your units (**Standard** for the standard layout)." in ping, ping


@ON_THE_BOT
async def test_a_private_step_names_its_own_buttons_and_take_action(table: Table) -> None:
    """Battlefronts: the Reds' first call-up, typed. The answer, theirs alone, names Pass and
    introduces the other call-ups by Take action, keeping the notation for whoever types."""
    channel, _ = await table.accepted("battlefronts", "red")
    step = await table.fake.slash(table.alice, channel, "battlefronts", "play", {"action": "call T1 1"})
    await table.idle()
    answer = step.message
    assert answer.ephemeral
    assert "(**Take action**, or type `call T2 3`, one call-up per zone)" in answer.content, answer.content
    assert "**Pass** to finish the phase" in answer.content
    assert "`pass`" not in answer.content
    names_only_its_own(answer)


def fix_bayonets_move_phase() -> tuple[Any, str]:
    """A seeded Fix Bayonets position in a move phase (the status says "then `fight` (or `end`)")."""
    game = registry.game("fixbayonets")
    state = game.new_game({}, 0)
    rng = random.Random(0)
    while True:
        side = min(state.to_act())
        if "then `fight`" in game.status(state.view(None), side):
            return state, side
        state.apply(rng.choice(state.legal_actions(side)), side)


def test_a_text_names_only_the_buttons_it_is_given() -> None:
    """The same status names Fight and End turn with both buttons; with End turn alone (a message
    whose view lacks Fight), `fight` stays as typed: a text never names a button its readers lack."""
    game = registry.game("fixbayonets")
    state, side = fix_bayonets_move_phase()
    status = game.status(state.view(None), side)
    both = [Tappable("Fight", "fight"), Tappable("End turn", "end")]
    assert "then **Fight** (or **End turn**)." in named(status, game, both, take_action=True)
    alone = named(status, game, [Tappable("End turn", "end")], take_action=True)
    assert "then `fight` (or **End turn**)." in alone
    assert named(status, game, [], take_action=False) == status


def offered_labels() -> dict[str, set[str]]:
    """The buttons' labels each game really offers, by game: its menus for whoever is to act over
    the first 80 steps of a seeded random game (a test of hard-coded labels outlived the labels)."""
    out: dict[str, set[str]] = {}
    for game in registry.games():
        seen = out.setdefault(game.name, set())
        for state, _, _ in islice(random_steps(game, 0), 80):
            for side in sorted(state.to_act()):
                menu = game.menu(state.view(side))
                names = [button_name(c.label) for c in menu.buttons]
                # a text names a button by this: two of one menu must not share it
                assert len(set(names)) == len(names), (game.name, [c.label for c in menu.buttons])
                seen.update(c.label for c in menu.buttons)
    return out


def test_button_names_are_how_the_buttons_begin() -> None:
    """Each real label's name drops a trailing aside ("Pass (finished with this phase)" is "Pass")
    and a list after a colon ("Standard: back row …, …" is "Standard"), keeps a colon without a list
    ("Army: balanced"), and is otherwise the whole label; every such shape is still offered."""
    shapes: set[str] = set()
    for game, labels in offered_labels().items():
        for label in labels:
            name = button_name(label)
            assert name and label.startswith(name), (game, label, name)
            bare = re.sub(r"\s*\([^()]*\)$", "", label)
            head, colon, rest = bare.partition(": ")
            if colon and "," in rest:
                shapes.add("list")
                assert name == head, (game, label, name)
            else:
                shapes.add("colon" if colon else "aside" if bare != label else "plain")
                assert name == bare, (game, label, name)
    assert shapes == {"list", "aside", "colon", "plain"}, shapes


def test_words_that_say_the_button_are_the_name() -> None:
    """ "let it stand (`pass`)" would read "let it stand (**Let it stand**)": the words name it;
    "`end` your turn" would read "**End turn** your turn"."""
    game = registry.game("combinedarms")
    text = "none of your units can move; `done` and attack, or `end` your turn."
    buttons = [Tappable("Done moving", "done"), Tappable("End turn", "end")]
    assert named(text, game, buttons, take_action=True) == (
        "none of your units can move; **Done moving** and attack, or **End turn**."
    )
    fb = registry.game("fixbayonets")
    text = "Cancel it with a terrain card (`negate …`) or let it stand (`pass`)."
    said = named(text, fb, _fb_answers(), take_action=False)
    assert said == "Cancel it with a terrain card (**Cancel it…**) or **let it stand**."


def _fb_answers() -> list[Tappable]:
    return [Tappable("Let it stand", "pass"), Tappable("Cancel it…", opens="negate")]


async def test_the_console_keeps_the_typed_words(tmp_path: Path) -> None:
    """The console has no buttons: its status still quotes the notation to type."""
    clock = Clock(1_790_000_000.0)
    db = await Database.open(tmp_path / "console.db", clock=clock)
    try:
        out = io.StringIO()
        svc = MatchService(db, clock=clock, rng=random.Random(5))
        console = Console(svc, boards=tmp_path / "boards", out=out, ai_budget=0.05)
        lines = ["/fixbayonets challenge @bob side:germans", "/as bob", "/fixbayonets accept"]
        assert await console.run_lines(lines) == 0
        assert "`setup std` for the standard layout" in out.getvalue(), out.getvalue()
        assert "Standard set-up" not in out.getvalue()
        await console.close()
    finally:
        await db.close()
