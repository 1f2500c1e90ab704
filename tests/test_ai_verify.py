"""Checking the AI (docs/fairness.md, "Checking the AI"): a finished game against the AI carries each
decision of the AI, and anyone can replay them from its side's view alone and find what the bot
played. An honest AI's game verifies, in every game; a record whose AI action was changed, or a game
played by an AI that peeked at the true state (the dice to come), does not."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any, cast

import pytest

from data import Database, Match, Status
from engine import ai_check, fairness, program, registry, search
from engine.base import BaseGame
from engine.tape import TIME_UP, Tape, running
from play import MatchService
from play import fairness as play_fairness
from play.fairness import engine_seed
from play.markup import PLAIN
from play.thinking import Thinker
from tests.clock import Clock
from tests.test_fairness import SCRIPT, script

GUILD, CHANNEL = 10, 100
ALICE, AI = 1, 99
META = ("resign", "offer", "accept", "decline")
OPENED: list[Database] = []


@pytest.fixture(autouse=True)
async def close_databases():
    yield
    while OPENED:
        await OPENED.pop().close()


async def service(where: Path | str, seed: int) -> MatchService:
    db = await Database.open(where, clock=Clock())
    OPENED.append(db)
    return MatchService(db, clock=Clock(), rng=random.Random(seed))


async def challenge_ai(svc: MatchService, game: str, level: str, entropy: int) -> Match:
    """Alice challenges the AI at `level` in the test channel (accepted at once, as the bot's are)."""
    return await svc.challenge(
        game=game,
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=AI,
        opponent_is_bot=True,
        ai_level=level,
        entropy=entropy,
    )


async def ai_game(
    svc: MatchService, game: str, level: str, plies: int = 14, seed: int = 1, budget_s: float | None = None
) -> int:
    """Alice (seeded random legal actions) against the AI at `level` for about `plies` of her
    actions, then she resigns (if the game is not over); the game's id."""
    match = await challenge_ai(svc, game, level, seed)
    rng = random.Random(seed)
    await svc.ai_turns(CHANNEL, budget_s=budget_s)
    for _ in range(plies):
        match, state = await svc.latest(CHANNEL)
        if not match.status.is_open or state is None:
            break
        me = match.side_of(ALICE)
        if me in state.to_act():
            legal = [a for a in state.legal_actions(me) if not str(a).startswith(META)]
            await svc.act(CHANNEL, ALICE, str(rng.choice(legal)))
        await svc.ai_turns(CHANNEL, budget_s=budget_s)
    match, _ = await svc.latest(CHANNEL)
    if match.status.is_open:
        await svc.act(CHANNEL, ALICE, "resign")
    return match.id


async def record_of(svc: MatchService, match_id: int) -> dict[str, Any]:
    _, data = await play_fairness.export(svc, GUILD, CHANNEL, match_id)
    return json.loads(data)


def ai_actions(record: dict[str, Any]) -> list[int]:
    return [a["n"] for a in record["actions"] if a["player_id"] == AI]


@pytest.mark.parametrize("name", registry.names())
async def test_an_honest_ai_game_verifies_in_every_game(name: str, tmp_path: Path) -> None:
    """Every decision of the AI at a fast level replays to what the bot played, its seed from the key."""
    svc = await service(tmp_path / "g.db", 3)
    match_id = await ai_game(svc, name, "easy")
    record = await record_of(svc, match_id)
    assert record["format_version"] == 4
    decisions = record["ai"]["decisions"]
    assert decisions and [d["n"] for d in decisions] == ai_actions(record)  # every action of the AI
    report = fairness.check(record, ai=True)
    assert report.ok and report.ai_checked, report.text()
    assert f"{len(decisions)} decision" in report.text()
    assert report.text().startswith("Verified: ") and "AI chose each of its moves" in report.text()


async def test_the_seed_of_each_decision_comes_from_the_game_key(tmp_path: Path) -> None:
    """Not the bot's own number (`match.seed`): the first 8 bytes of HMAC(K, "ai:<n>"); replayed
    with the stored seed's old derivation, the AI's choices are not the bot's."""
    svc = await service(tmp_path / "g.db", 4)
    match_id = await ai_game(svc, "blockwars", "random", plies=10)
    match = await svc.db.get_match(match_id)
    record = await record_of(svc, match_id)
    rules = registry.game("blockwars")
    seed = engine_seed(match)
    state = rules.new_game(record["options"], seed)
    side = record["ai"]["side"]
    choices = keyed = stored = 0
    for a in record["actions"]:
        if a["player_id"] == AI and len(state.legal_actions(side)) > 1:
            view = state.view(side)
            choices += 1
            keyed += str(rules.choose(view, "random", ai_check.ai_seed(seed, a["n"]))) == a["notation"]
            stored += str(rules.choose(view, "random", match.seed ^ a["n"])) == a["notation"]
        state.apply(rules.parse(a["notation"]), a["side"])
    assert choices >= 3 and keyed == choices and stored < choices


async def test_a_draw_answer_is_a_decision_checked_too(tmp_path: Path) -> None:
    svc = await service(tmp_path / "g.db", 5)
    await challenge_ai(svc, "battlefronts", "easy", 5)
    await svc.ai_turns(CHANNEL)
    match, state = await svc.current(CHANNEL)
    if match.side_of(ALICE) not in state.to_act():
        await svc.ai_turns(CHANNEL)
    await svc.act(CHANNEL, ALICE, "offer draw")
    await svc.ai_turns(CHANNEL)
    match, _ = await svc.latest(CHANNEL)
    if match.status.is_open:
        await svc.act(CHANNEL, ALICE, "resign")
    record = await record_of(svc, match.id)
    kinds = {d["n"]: d["kind"] for d in record["ai"]["decisions"]}
    answer = next(a for a in record["actions"] if a["notation"] in ("accept draw", "decline draw"))
    assert kinds[answer["n"]] == "draw"
    report = fairness.check(record, ai=True)
    assert report.ok and "1 answer to a draw offer" in report.text(), report.text()
    flipped = json.loads(json.dumps(record))
    other = "decline draw" if answer["notation"] == "accept draw" else "accept draw"
    found = ai_check.check_ai(
        registry.game("battlefronts"),
        flipped
        | {"actions": [a | {"notation": other} if a["n"] == answer["n"] else a for a in flipped["actions"]]},
        fairness.seed_of(record),
    )
    assert found.mismatch is not None and found.mismatch.n == answer["n"]


async def test_a_record_whose_ai_action_was_changed_fails_the_ai_check(tmp_path: Path) -> None:
    """Another legal action for one of the AI's decisions: the AI check names it; the dice check
    fails too, since the rest of the game no longer replays to the stored end."""
    svc = await service(tmp_path / "g.db", 6)
    match_id = await ai_game(svc, "fixbayonets", "easy")
    record = await record_of(svc, match_id)
    rules = registry.game("fixbayonets")
    state = rules.new_game(record["options"], fairness.seed_of(record))
    changed = json.loads(json.dumps(record))
    target = None
    for a in changed["actions"]:
        legal = [str(x) for x in state.legal_actions(a["side"])] if not state.is_over() else []
        if target is None and a["player_id"] == AI and len(legal) > 1:
            target = a["n"]
            state.apply(rules.parse(a["notation"]), a["side"])
            a["notation"] = next(x for x in legal if x != a["notation"])
            continue
        state.apply(rules.parse(a["notation"]), a["side"])
    assert target is not None
    report = fairness.check(changed, ai=True)
    text = report.text()
    assert not report.ok and f"at action {target} its program" in text, text
    assert "does not" in text  # the dice check: the replay no longer ends as stored (or does not replay)
    script_run = await asyncio.to_thread(script, str(SCRIPT), str(_write(tmp_path, changed)))
    assert script_run.returncode == 1 and f"at action {target}" in script_run.stdout


async def test_a_peeking_ai_passes_the_dice_check_and_fails_the_ai_check(tmp_path: Path, monkeypatch) -> None:
    """A dishonest bot whose AI reads the true position (the dice to come included: it tries each
    action on the real state and keeps the best outcome) plays a game whose record is consistent,
    so its dice verify; replaying its decisions from its side's view finds one it would not make."""
    svc = await service(tmp_path / "g.db", 7)
    rules = cast(BaseGame[Any, Any], registry.game("blockwars"))

    async def peeking(game: str, view: Any, level: str, seed: int, budget_s: Any = None, **kw: Any) -> str:
        _, true = await svc.current(CHANNEL)  # the real state, with the real dice to come
        side = view.viewer

        def outcome(action: Any) -> float:
            after = true.clone()
            after.apply(action, side)
            return rules.evaluate(after, side)

        legal = true.legal_actions(side)
        return str(max(legal, key=lambda a: (outcome(a), str(a))))

    monkeypatch.setattr(svc.thinker, "choose", peeking)
    match_id = await ai_game(svc, "blockwars", "easy", plies=12)
    record = await record_of(svc, match_id)
    dice = fairness.check(record)
    assert dice.ok, dice.text()  # the dice check alone cannot tell
    report = fairness.check(record, ai=True)
    assert not report.ok and "its program, from its side's view, chooses" in report.text(), report.text()


async def test_a_search_cut_short_by_its_time_cap_replays_from_the_recorded_clock(tmp_path: Path) -> None:
    """A budget so small that the search stops on time (the bot's `AI_BUDGET_SECONDS`): the choice
    depends on the clock, and replaying the recorded clock gives it exactly."""
    svc = await service(tmp_path / "g.db", 8)
    match_id = await ai_game(svc, "blockwars", "search", plies=3, budget_s=0.05)
    record = await record_of(svc, match_id)
    decisions = record["ai"]["decisions"]
    assert all(d["budget_s"] == 0.05 for d in decisions)
    assert any(d["clock"] for d in decisions)  # the search read its clock
    report = fairness.check(record, ai=True)
    assert report.ok, report.text()
    assert "ran into the time cap" in report.text(), report.text()


async def test_block_wars_search_stops_at_its_iterations_and_rests_on_no_clock(
    tmp_path: Path, monkeypatch
) -> None:
    """Block Wars' `search` level stops at a fixed number of iterations (made few here, to be cheap),
    its time cap only a safety net: no decision of it rests on the bot's clock, so its record
    verifies with none said to have run into the time cap."""
    from engine.blockwars import game as blockwars

    monkeypatch.setattr(blockwars, "SEARCH_ITERATIONS", 60, raising=False)  # before: it stopped on time
    svc = await service(tmp_path / "g.db", 8)
    match_id = await ai_game(svc, "blockwars", "search", plies=2)
    record = await record_of(svc, match_id)
    decisions = record["ai"]["decisions"]
    assert decisions and all(d["budget_s"] is None for d in decisions)  # the bot passed no budget
    report = fairness.check(record, ai=True)
    assert report.ok and report.ai_checked, report.text()
    assert report.ai_caveat is None and "time cap" not in report.text(), report.text()


def test_a_search_with_an_iteration_budget_stops_early_by_counting_not_by_the_clock(monkeypatch) -> None:
    """The generic search stops early once its pick cannot be overtaken in the iterations left. With
    an iteration budget those are counted: a clock that ran fast at first (a busy machine) and then
    stood still, never reaching the cap, must give the choice a clock standing still all along gives.
    Before, the early stop guessed the iterations to come from the pace so far, so on this Block Wars
    dogfight the busy clock stopped the search after 96 iterations, on `decline`, and the still one
    after 768, on `dogfight A`: a choice resting on the clock with no cap reached."""
    game = cast(BaseGame, registry.game("blockwars"))
    rng = random.Random(1)
    state = game.new_game({}, 3)
    for _ in range(23):  # a seeded random game, to the Germans' answer to a dogfight (three choices)
        side = min(state.to_act(), key=str)
        state.apply(rng.choice(state.legal_actions(side)), side)
    (side,) = state.to_act()
    settings = search.Settings(iterations=800, budget_s=100.0, rollout_depth=0)

    def decided(clock: Any) -> tuple[str, int]:
        reads = 0

        def counted() -> float:
            nonlocal reads
            reads += 1
            return float(clock(reads))

        monkeypatch.setattr(search, "clock", counted)
        chosen = search.choose(state.view(side), game.evaluate, seed=5, settings=settings, order=game.order)
        return str(chosen), reads

    still = decided(lambda n: 0.0)
    busy = decided(lambda n: 2.375 * min(n, 40))  # 95 s in the first 40 reads, then none: the cap is 100 s
    assert still[1] < 800  # settled before the budget ran out: the early stop is what is tried
    assert busy == still


def test_a_tape_replays_the_readings_it_recorded(monkeypatch) -> None:
    """Recorded in whole hundredths from the decision's start (never backwards, whatever the base
    clock does), replayed reading for reading; a frozen tape stands still, then says time is up."""
    base = iter([10.0, 10.004, 10.013, 10.013, 10.5, 10.2])
    monkeypatch.setattr(search, "clock", lambda: next(base))
    with running(Tape()) as taped:
        seen = [search.now() for _ in range(6)]
    assert seen == [0.0, 0.0, 0.01, 0.01, 0.5, 0.5]
    assert taped.marks == [[0, 2], [1, 2], [50, 2]] and taped.seconds == 0.5 and taped.reads == 6
    with running(Tape(taped.marks)) as again:
        assert [search.now() for _ in range(6)] == seen
    assert again.used_up
    with running(Tape.frozen(2)) as frozen:
        assert [search.now() for _ in range(3)] == [0.0, 0.0, TIME_UP] and frozen.overrun == 1
    with running(Tape([[0, 1]])) as short:  # a tape too short: time is up, so no replay runs for ever
        assert [search.now() for _ in range(2)] == [0.0, TIME_UP] and not short.used_up
    assert Tape.valid(taped.marks) and Tape.valid([])
    assert not any(map(Tape.valid, ([[1, 1], [1, 1]], [[0, 0]], [[0, 1.5]], [[-1, 1]], "x", [[0]])))


async def test_old_records_and_missing_decisions_are_said_plainly(tmp_path: Path) -> None:
    svc = await service(tmp_path / "g.db", 9)
    match_id = await ai_game(svc, "companycommander", "random", plies=8)
    record = await record_of(svc, match_id)
    old = {k: v for k, v in record.items() if k != "ai"} | {"format_version": 3}
    report = fairness.check(old, ai=True)
    assert report.ok and "➖ The AI (" in report.text() and "was not checked" in report.text(), report.text()
    assert report.text().splitlines()[0].endswith("none of the AI's choices was checked (➖ below).")
    decisions = record["ai"]["decisions"]
    assert len(decisions) >= 3
    gap = json.loads(json.dumps(record))
    del gap["ai"]["decisions"][1]
    report = fairness.check(gap, ai=True)
    assert not report.ok and "carry no recorded decision" in report.text(), report.text()
    odd = json.loads(json.dumps(record))
    odd["ai"]["decisions"][1]["clock"] = [[5, 1], [2, 1]]  # no clock runs backwards
    report = fairness.check(odd, ai=True)
    assert not report.ok and "is not one the bot writes" in report.text(), report.text()
    begun = json.loads(json.dumps(record))
    del begun["ai"]["decisions"][0]  # as in a game begun before the bot recorded its AI
    report = fairness.check(begun, ai=True)
    assert report.ok and "came before the bot recorded" in report.text(), report.text()
    assert "not all checked" in report.text().splitlines()[0]


async def test_the_script_checks_the_ai_and_verify_says_how(tmp_path: Path) -> None:
    svc = await service(tmp_path / "g.db", 10)
    match_id = await ai_game(svc, "combinedarms", "easy", plies=6)
    record = await record_of(svc, match_id)
    path = _write(tmp_path, record)
    done = await asyncio.to_thread(script, str(SCRIPT), str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "replayed from its side's view alone" in done.stdout
    assert (
        f"The bot's AI ran {program.running().text()}" in done.stdout
    )  # the program, and whether it is this
    dice = await asyncio.to_thread(script, str(SCRIPT), "--dice-only", str(path))
    assert dice.returncode == 0 and "The AI (" not in dice.stdout
    match, report = await play_fairness.verify(svc, GUILD, CHANNEL, match_id)
    assert match.status is Status.FINISHED
    text = play_fairness.verify_text(match, report, PLAIN)
    lines = text.splitlines()
    assert lines[1].startswith("Verified: ") and "not the AI's choices" in lines[2]
    assert "python scripts/verify_game.py FILE" in lines[2] and lines[3].startswith("✅ ")
    assert "at the commit the file names (the script says whether it runs that commit)" in lines[2]


def _write(tmp_path: Path, record: dict[str, Any]) -> Path:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    return path


async def test_an_ai_process_that_forgot_what_it_kept_still_verifies(tmp_path: Path, monkeypatch) -> None:
    """Combined Arms plans a phase at its first step and plays the plan step by step (a memory kept
    between decisions, `search.memories`): an AI process that forgot it (restarted before every
    decision, here) still verifies, each such decision thought afresh. (The check keeping it as the
    bot's AI process did, another game beside it: tests/test_ai_memory.py.)"""
    svc = await service(tmp_path / "g.db", 11)
    real = svc.thinker.choose

    async def restarted(*args: Any, **kwargs: Any) -> str:
        for store in search.memories:
            store.clear()
        return await real(*args, **kwargs)

    monkeypatch.setattr(svc.thinker, "choose", restarted)
    match_id = await ai_game(svc, "combinedarms", "normal", plies=30)
    record = await record_of(svc, match_id)
    assert len(record["ai"]["decisions"]) >= 10
    report = fairness.check(record, ai=True)
    assert report.ok, report.text()


class Remembering:
    """A test-only AI with a memory between decisions: it plays what it planned, else "b"."""

    def __init__(self, store: dict[str, str]) -> None:
        self.store = store

    def parse(self, text: str) -> str:
        return text

    def choose(self, view: Any, level: str, seed: int, budget_s: float | None = None) -> str:
        return self.store.get("plan", "b")


def test_a_decision_is_replayed_with_the_memory_the_ai_had_else_afresh(monkeypatch) -> None:
    store = {"plan": "a"}
    monkeypatch.setattr(search, "memories", [store])
    rules: Any = Remembering(store)
    view: Any = None
    # the bot's AI remembered its plan: replayed with it
    assert ai_check.decide(rules, view, "move", "x", 1, None, [], "a") == ("a", ai_check.FREE)
    assert store == {"plan": "a"}  # left as the bot's AI process had it
    # the bot's AI process had forgotten it (restarted): found only when thought afresh
    assert ai_check.decide(rules, view, "move", "x", 1, None, [], "b") == ("b", ai_check.AFRESH)
    assert store == {}
    store["plan"] = "a"
    chosen, _ = ai_check.decide(rules, view, "move", "x", 1, None, [], "c")  # neither: a mismatch
    assert chosen == "a"


async def test_a_game_whose_ai_thought_in_its_worker_process_verifies(tmp_path: Path) -> None:
    """As in production: the AI thinks in a spawned worker (the view sent as JSON, another string
    hashing), and its record verifies in this process."""
    db = await Database.open(tmp_path / "g.db", clock=Clock())
    OPENED.append(db)
    thinker = Thinker(1)
    try:
        svc = MatchService(db, clock=Clock(), rng=random.Random(12), thinker=thinker)
        match_id = await ai_game(svc, "battlefronts", "normal", plies=6)
        record = await record_of(svc, match_id)
        assert thinker.started  # it thought in its worker, not here
    finally:
        thinker.close()
    assert len(record["ai"]["decisions"]) >= 3
    report = fairness.check(record, ai=True)
    assert report.ok and report.ai_checked, report.text()


async def test_a_correspondence_game_verifies(tmp_path: Path) -> None:
    """The strongest level, with its own search and its 20 s safety cap, replays as well (Block
    Wars': its own search, engine/blockwars/correspondence.py, at a tenth of Battlefronts' CPU; every
    other game's correspondence level is the generic search, whose determinism the games' AI tests
    check)."""
    svc = await service(tmp_path / "g.db", 13)
    match_id = await ai_game(svc, "blockwars", "correspondence", plies=2)
    record = await record_of(svc, match_id)
    assert {d["level"] for d in record["ai"]["decisions"]} == {"correspondence"}
    report = fairness.check(record, ai=True)
    assert report.ok and report.ai_checked, report.text()


async def test_a_single_decision_is_said_in_the_singular(tmp_path: Path) -> None:
    """'1 decision replayed …, and each is what the bot played' read oddly: one is 'it'."""
    svc = await service(tmp_path / "g.db", 3)
    match_id = await ai_game(svc, "blockwars", "easy", plies=1, seed=1)
    record = await record_of(svc, match_id)
    assert len(record["ai"]["decisions"]) == 1  # Alice moved, the AI answered, and she resigned
    said = fairness.check(record, ai=True).text()
    assert "1 decision replayed from its side's view alone" in said
    assert ", and it is what the bot played." in said and "each is" not in said
