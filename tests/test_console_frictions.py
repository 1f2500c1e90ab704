"""Small frictions a player met in the console (issue 21, item 6), driven as a user drives it: lines
in, text and real files out, on a real SQLite file in tmp_path."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from console import Console, names
from console.app import command_for
from data import Database
from engine import registry
from play import MatchService
from tests.fakediscord.fixtures import HandClock


async def open_console(tmp_path: Path, seed: int = 5) -> tuple[Console, io.StringIO]:
    clock = HandClock()
    db = await Database.open(tmp_path / "console.db", clock=clock)
    out = io.StringIO()
    service = MatchService(db, clock=clock, rng=random.Random(seed))
    return Console(service, boards=tmp_path / "boards", out=out, ai_budget=0.05), out


async def start(console: Console, name: str) -> None:
    """@alice (the first side) challenges @bob, who accepts; the console is left as @alice."""
    game = registry.game(name)
    lines = [f"/{name} challenge @bob side:{game.sides[0].name}", "/as bob", f"/{name} accept", "/as alice"]
    assert await console.run_lines(lines) == 0


async def play_until(console: Console, name: str, done, seed: int = 1, limit: int = 400) -> None:
    """Seeded random legal commands, typed as each player would, until `done(state, side)`."""
    game = registry.game(name)
    rng = random.Random(seed)
    for _ in range(limit):
        match, state = await console.service.latest(console.channel_id)
        side = min(state.to_act())
        if done(state, side):
            break
        who = names.user_name(match.sides[side])
        if console.me != who:
            await console.run_lines([f"/as {who}"])
        notation = rng.choice(await console.service.legal(console.channel_id, console.my_id))
        cmd, arg = command_for(game, state, notation)
        assert await console.run_lines([f"/{name} {cmd} {arg}".rstrip()]) == 0
    else:
        raise AssertionError("the wanted position never came")
    match, state = await console.service.latest(console.channel_id)
    who = names.user_name(match.sides[min(state.to_act())])
    if console.me != who:
        await console.run_lines([f"/as {who}"])


def said(out: io.StringIO) -> str:
    """What the console printed since the last call."""
    text = out.getvalue()
    out.seek(0)
    out.truncate()
    return text


@pytest.mark.parametrize("name", ["fixbayonets", "combinedarms"])
async def test_legal_lists_the_standing_orders_to_both_players(tmp_path: Path, name: str) -> None:
    console, out = await open_console(tmp_path)
    try:
        await start(console, name)
        await play_until(console, name, lambda state, side: state.turn_number() >= 1)
        verb = next(v for v in registry.game(name).verbs if v.choices)
        for who in (console.me, "alice" if console.me == "bob" else "bob"):
            said(out)
            assert await console.run_lines([f"/as {who}", f"/{name} legal"]) == 0
            text = said(out)
            assert "At any time, on turn or not:" in text
            assert f"/{name} {verb.name}: {', '.join(verb.choices)}" in text
    finally:
        await console.close()


async def test_a_pass_that_closes_a_phase_reads_one_event_a_line_grouped_by_phase(tmp_path: Path) -> None:
    """Battlefronts: the pass that ends a round used to answer with one line of every battle, every
    reduction, the end of the round and the next attrition (2,300 characters)."""
    console, out = await open_console(tmp_path)
    game = registry.game("battlefronts")

    def closes_a_round(state, side) -> bool:
        if "pass" not in [str(a) for a in state.legal_actions(side)]:
            return False
        events = state.clone().apply(game.parse("pass"), side)
        return sum(1 for e in events if type(e).__name__ == "Reduced") >= 4

    try:
        await start(console, "battlefronts")
        await play_until(console, "battlefronts", closes_a_round, seed=3, limit=1500)
        _, state = await console.service.latest(console.channel_id)
        events = state.clone().apply(game.parse("pass"), min(state.to_act()))
        said(out)
        assert await console.run_lines(["/battlefronts pass"]) == 0
        lines = said(out).splitlines()
        start_at = next(i for i, ln in enumerate(lines) if ln.startswith("board: ")) + 1
        story = lines[start_at : next(i for i, ln in enumerate(lines) if ln.startswith("@"))]
        assert max(len(ln) for ln in story) < 200, story
        for event in events:
            text = event.text(None)
            assert any(ln.strip() in (text, text[:1].upper() + text[1:]) for ln in story), text
        assert story[0].endswith("pass")
        assert "  Battle:" in story
        headings = [ln.strip() for ln in story if ln.startswith("  ") and not ln.startswith("    ")]
        assert len(headings) == len(set(headings)), story  # each phase once, its events under it
    finally:
        await console.close()
