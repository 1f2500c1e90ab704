"""Company Commander through the console, typed as a new user types what the game prints (issue 31):
every spelling of a card play alone and in a chain, a refusal's example, and declining the Company
Commander's extra card."""

from __future__ import annotations

import io
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from console import Console
from data import Database
from engine.companycommander import State
from engine.companycommander.model import AMERICANS, GERMANS
from engine.companycommander.position import build
from play.service import MatchService
from tests.fakediscord.fixtures import HandClock


@pytest.fixture
async def console(tmp_path: Path) -> AsyncIterator[Console]:
    clock = HandClock()
    db = await Database.open(tmp_path / "c.db", clock=clock)
    c = Console(MatchService(db, clock=clock, rng=random.Random(5)), boards=tmp_path / "b", out=io.StringIO())
    await c.run_lines(
        ["/companycommander challenge @bob side:americans", "/as bob", "/companycommander accept"]
    )
    await c.run_lines(["/as alice"])
    try:
        yield c
    finally:
        await c.close()


async def seat(c: Console, position: State) -> None:
    match, _ = await c.service.latest(c.channel_id)
    await c.service.db.update_match(
        match.id,
        expected_version=match.version,
        snapshot=position.to_json(),
        turn_player_id=match.sides[position.active],
    )
    c.service.forget(c.channel_id)


def said(c: Console) -> str:
    out = c.out
    assert isinstance(out, io.StringIO)
    text = out.getvalue()
    out.seek(0)
    out.truncate()
    return text


async def current(c: Console) -> State:
    _, state = await c.service.current(c.channel_id)
    assert isinstance(state, State)
    return state


async def discards(c: Console) -> list[str]:
    return sorted(card.code for card in (await current(c)).tactics_discard)


async def test_every_spelling_of_a_card_play_alone_and_in_a_chain(console: Console) -> None:
    c = console
    hand = ["sniper", "sniper", "mortars", "mortars", "mortars", "mortars", "artillery"]
    units = {"A1": "hmg L", "A2": "rifles L", "G1": "rifles L", "G2": "rifles L"}
    many = {f"G{n}": "rifles C" for n in range(3, 9)}
    await seat(c, build(units | many, hands={AMERICANS: hand, GERMANS: ["medic"]}))
    said(c)
    lines = [
        "play mortars L",  # the console's play command: the words after it, as in Discord
        "/companycommander play action:mortars L",  # Discord's typed syntax
        "/companycommander play play mortars C",  # the whole form typed after the command
        "card sniper C",  # the game's own card command
        "/companycommander card card:play sniper C",  # Discord's typed syntax, the word doubled
        "/companycommander play fire A1; card mortars C; artillery C; end",  # a chain, three spellings
    ]
    for line in lines:
        assert await c.run_lines([line]) == 0
        text = said(c)
        assert "✗" not in text, (line, text)
    assert await discards(c) == ["artillery", "mortars", "mortars", "mortars", "mortars", "sniper", "sniper"]
    assert (await current(c)).active == GERMANS


async def test_the_refusals_example_is_accepted_as_printed(console: Console) -> None:
    c = console
    await seat(c, build({"A1": "rifles L", "G1": "rifles C"}, hands={AMERICANS: ["mortars"]}))
    said(c)
    await c.run_lines(["play mortars"])
    text = said(c)
    assert "✗" in text and "`play mortars C`" in text
    await c.run_lines(["play mortars C"])
    assert "✗" not in said(c) and await discards(c) == ["mortars"]
    await c.run_lines(["fire A1"])
    text = said(c)
    assert "A1, a Rifle squad, has no long-range fire" in text and "deployed this turn" not in text


async def test_declining_the_extra_card(console: Console) -> None:
    c = console
    units = {"A1": "cc C", "A2": "rifles L", "A3": "rifles R", "G1": "rifles C"}
    await seat(c, build(units, phase="deploy", extra=True))
    said(c)
    await c.run_lines(["tactics"])
    assert "`extra none`" in said(c)
    await c.run_lines(["extra none", "tactics"])
    text = said(c)
    assert "✗" not in text and "go without their Company Commander's extra card" in text
