"""Undo within your own turn (issue 30): never across chance, a reveal or a hand-off; the log stays
append-only and every reader of it (replay, history, stretch, export, verify) agrees."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from data import Database, Status
from engine import registry
from engine.protocol import drew_or_revealed
from play import BadRequest, MatchService, NotAPlayer, NotYourTurn, StalePrompt
from play import fairness as play_fairness
from play.undo import UNDO
from tests.clock import Clock
from tests.test_service import started

GUILD, CHANNEL = 10, 100
ALICE, BOB, EVE = 1, 2, 5


OPENED: list[Database] = []


async def open_service(where: str | Path, seed: int = 3) -> MatchService:
    clock = Clock()
    db = await Database.open(where, clock=clock)
    OPENED.append(db)
    return MatchService(db, clock=clock, rng=random.Random(seed))


@pytest.fixture(autouse=True)
async def close_databases():
    yield
    while OPENED:
        await OPENED.pop().close()


def as_json(state) -> dict:
    return json.loads(json.dumps(state.to_json()))


async def blockwars_after_setup(svc: MatchService) -> tuple[int, int]:
    """Block Wars between Alice (Germans) and Bob, both deployed: (the German, the Canadian)."""
    await started(svc)
    return ALICE, BOB


async def test_a_plain_move_is_taken_back_and_every_reader_agrees(store: str) -> None:
    svc = await open_service(store)
    german, canadian = await blockwars_after_setup(svc)
    match, before = await svc.current(CHANNEL)
    start = as_json(before)
    played = await svc.act(CHANNEL, german, "c7-b7")
    assert not played.hands_off  # the Germans have an action left
    with pytest.raises(NotYourTurn) as refused:
        await svc.undo(CHANNEL, canadian)
    assert "not your turn" in refused.value.message
    with pytest.raises(NotAPlayer):
        await svc.undo(CHANNEL, EVE)
    undone, state, notation = await svc.undo(CHANNEL, german, interaction_id=4242)
    assert notation == "c7-b7" and as_json(state) == start
    assert undone.version == played.match.version + 1 and undone.turn_player_id == german
    # the log holds both, append-only; every reader sees the game without the step
    rows = await svc.db.actions(match.id)
    assert [r.notation for r in rows[-2:]] == ["c7-b7", UNDO] and rows[-1].player_id == german
    replayed, _, log = await svc.replayed(undone)
    assert as_json(replayed) == undone.snapshot == start
    assert [n for _, n in log] == ["setup std", "setup std"]
    assert not any("c7-b7" in line for line in await svc.history(CHANNEL))
    # nothing more of this turn to take back: the step before is the Canadians'
    with pytest.raises(BadRequest) as nothing:
        await svc.undo(CHANNEL, german)
    assert "nothing to take back" in nothing.value.message
    assert (await svc.db.get_match(match.id)).version == undone.version  # nothing changed
    # play on: another move, the turn ends, the hand-off's stretch has no trace of the step
    _, state = await svc.current(CHANNEL)
    other = next(
        str(a)
        for a in state.legal_actions("germans")
        if "-" in str(a) and "x" not in str(a) and str(a) != "c7-b7"
    )
    await svc.act(CHANNEL, german, other)
    _, state = await svc.current(CHANNEL)
    german_side = "germans"
    while german_side in state.to_act():
        legal = [str(a) for a in state.legal_actions(german_side)]
        played = await svc.act(CHANNEL, german, "end" if "end" in legal else legal[0])
        state = played.state
    stretch = await svc.stretch(played)
    assert "c7-b7" not in stretch.notation and other in stretch.notation
    await svc.act(CHANNEL, canadian, "resign")
    finished = await svc.db.get_match(match.id)
    assert finished.status is Status.FINISHED
    _, report = await play_fairness.verify(svc, GUILD, CHANNEL)
    assert report.ok, report.text()
    record = await play_fairness.record(svc, finished)
    assert record["undone"] == [{"seq": rows[-2].seq, "player_id": german, "notation": "c7-b7"}]
    assert "c7-b7" not in [a["notation"] for a in record["actions"]]


@pytest.mark.parametrize("name", registry.names())
async def test_undo_never_crosses_chance_a_reveal_or_a_hand_off(name: str, tmp_path: Path) -> None:
    """Random play in every game; after each human step, the player tries to take it back. It is
    refused (the game unchanged) exactly when the step drew chance, showed a secret or handed the
    game over; otherwise the position is the one before the step, and replaying the log gives it."""
    svc = await open_service(tmp_path / "u.db", seed=11)
    rules = registry.game(name)
    await svc.challenge(game=name, guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB)
    await svc.accept(CHANNEL, BOB)
    rng = random.Random(5)
    taken = refused = 0
    for _ in range(70):
        match, state = await svc.current(CHANNEL)
        if state.is_over():
            break
        side = sorted(state.to_act())[0]
        user = match.sides[side]
        legal = [a for a in state.legal_actions(side) if not a.anytime]
        action = rng.choice(legal)
        trial = state.clone()
        drawn = trial.chance_drawn()
        events = list(trial.apply(action, side))
        others = {s.name for s in rules.sides} - {side}
        undoable = not (
            drew_or_revealed(drawn, trial.chance_drawn(), events)
            or trial.is_over()
            or side not in trial.to_act()
            or others & trial.to_act()
            or others & state.to_act()
        )
        before = as_json(state)
        played = await svc.act(CHANNEL, user, str(action))
        if played.match.status is not Status.ACTIVE:
            break
        if rng.random() < 0.5 and not undoable:
            continue
        try:
            undone, back, _ = await svc.undo(CHANNEL, user)
        except (BadRequest, NotYourTurn) as exc:
            assert not undoable, f"{name}: `{action}` could be taken back, but: {exc.message}"
            assert (await svc.db.get_match(match.id)).version == played.match.version  # unchanged
            refused += 1
            continue
        assert undoable, f"{name}: `{action}` drew, showed or handed over, yet it was taken back"
        assert as_json(back) == before
        replayed, _, _ = await svc.replayed(undone)
        assert json.loads(json.dumps(undone.snapshot)) == before  # the row as stored (JSON has no tuples)
        assert as_json(replayed) == before
        taken += 1
        await svc.act(CHANNEL, user, str(action))  # and play it after all, so the game goes on
    assert taken > 0 and refused > 0  # both answers met (from 5 to 63 of each here)


async def test_undo_through_the_console(tmp_path: Path) -> None:
    import io

    from console import Console

    db = await Database.open(tmp_path / "c.db", clock=Clock())
    OPENED.append(db)
    out = io.StringIO()
    console = Console(MatchService(db, clock=Clock(), rng=random.Random(2)), boards=tmp_path / "b", out=out)
    lines = [
        "/blockwars challenge @bob side:germans",
        "/as bob",
        "/blockwars accept",
        "/as alice",
        "/blockwars setup",
        "/as bob",
        "/blockwars setup",
        "/as alice",
        "/blockwars move c7-b7",
    ]
    assert await console.run_lines(lines) == 0, out.getvalue()[-500:]
    out.truncate(0)
    out.seek(0)
    assert await console.run_lines(["/wargames undo"]) == 0, out.getvalue()
    assert "you took back `c7-b7`. It is still your turn." in out.getvalue()
    out.truncate(0)
    out.seek(0)
    assert await console.run_lines(["undo"]) == 1
    assert "nothing to take back" in out.getvalue()


async def test_an_old_undo_button_never_takes_back_a_later_step(tmp_path: Path) -> None:
    """The Undo button under a step's answer is for that step. Clicked again after the step was taken
    back and another made, it is out of date: it would take back the new step, which the player
    never asked to undo."""
    svc = await open_service(tmp_path / "u.db")
    german, _ = await blockwars_after_setup(svc)
    first = await svc.act(CHANNEL, german, "c7-b7")
    await svc.undo(CHANNEL, german, expected_version=first.match.version)
    second = await svc.act(CHANNEL, german, "f7-g7")
    with pytest.raises(StalePrompt):
        await svc.undo(CHANNEL, german, expected_version=first.match.version)
    match, _ = await svc.current(CHANNEL)
    assert match.version == second.match.version  # nothing was taken back


async def test_a_draw_offer_and_a_standing_order_are_never_taken_back(tmp_path: Path) -> None:
    """RULES.md, "Taking a step back": not a draw offer (a word to the other player, who has seen it)
    and not a standing order (another order changes it), each refused in its own words, on the
    player's own turn where nothing else would refuse it."""
    svc = await open_service(tmp_path / "w.db")
    german, _ = await blockwars_after_setup(svc)
    await svc.act(CHANNEL, german, "offer draw")
    with pytest.raises(BadRequest, match="not a word about a draw"):
        await svc.undo(CHANNEL, german)
    await svc.challenge(
        guild_id=GUILD,
        channel_id=200,
        challenger_id=ALICE,
        opponent_id=BOB,
        game="fixbayonets",
        side="americans",
    )
    await svc.accept(200, BOB)
    await svc.act(200, ALICE, "setup std")
    await svc.act(200, BOB, "setup std")
    match, state = await svc.current(200)
    mover = match.turn_player_id
    assert mover is not None and state.to_act() == {match.side_of(mover)}
    await svc.act(200, mover, "orders never")
    with pytest.raises(BadRequest, match="it is a standing order"):
        await svc.undo(200, mover)
    after, _ = await svc.current(200)
    assert [r.notation for r in await svc.db.actions(after.id)][-1] == "orders never"
