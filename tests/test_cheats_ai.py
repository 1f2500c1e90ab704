"""A dishonest operator and a cheating player against the AI check (docs/fairness.md, "What a cheater
tried: the AI check"). The operator runs the bot, holds every secret and may change its own code,
but wants the published program's check (`scripts/verify_game.py`) to say ✅; the player has a
second account and a client that shows raw data. Each test tries one way, and fails where it works."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from data.ai_decisions import AiDecision, AiDecisionStore
from engine import ai_check, chance, fairness, registry, search
from engine.base import BaseGame
from engine.tape import Tape
from play.fairness import engine_seed
from tests.test_ai_verify import AI, ALICE, CHANNEL, OPENED, ai_game, challenge_ai, record_of, service
from tests.test_fairness import SCRIPT

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
async def close_databases():
    yield
    while OPENED:
        await OPENED.pop().close()


def copy(record: dict[str, Any]) -> dict[str, Any]:
    return cast(dict[str, Any], json.loads(json.dumps(record)))


def run_script(path: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The checker as anyone runs it; a run that does not end in `timeout` seconds fails the test."""
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, check=False, timeout=timeout
    )


def peek_best(rules: BaseGame[Any, Any], true: Any, side: str, options: list[str]) -> str:
    """What a peeking bot keeps among `options`: the one that does best on the true state (the dice
    to come included)."""

    def outcome(notation: str) -> float:
        after = true.clone()
        after.apply(rules.parse(notation), side)
        return rules.evaluate(after, side)

    return max(options, key=lambda a: (outcome(a), a))


# 1. Can a peeking AI pass?


async def test_a_decision_recorded_at_another_level_than_the_games_fails(tmp_path: Path, monkeypatch) -> None:
    """The operator's AI thinks at every level it has and plays whichever choice the true state (the
    dice to come) favours, writing that level down as the decision's: each decision then replays to
    what it played. The level is the game's, shown to the player at the challenge: a decision at
    any other is not the bot's."""
    svc = await service(tmp_path / "g.db", 21)
    rules = cast(BaseGame[Any, Any], registry.game("blockwars"))
    levels = ["random", "easy", "normal"]
    picked: list[str] = []
    honest = svc.thinker.choose

    async def peeking(game: str, view: Any, level: str, seed: int, budget_s: Any = None, **kw: Any) -> str:
        _, true = await svc.current(CHANNEL)
        clocks = {lv: cast(list[list[int]], []) for lv in levels}
        options = {lv: await honest(game, view, lv, seed, budget_s, clock=clocks[lv]) for lv in levels}
        best = peek_best(rules, true, view.viewer, sorted(set(options.values())))
        lv = next(lv for lv in levels if options[lv] == best)
        picked.append(lv)
        if kw.get("clock") is not None:
            kw["clock"][:] = clocks[lv]
        return best

    write = AiDecisionStore.write

    async def as_picked(self: AiDecisionStore, match_id: int, d: AiDecision) -> None:
        if d.kind == "move":
            d = dataclasses.replace(d, level=picked[-1])
        await write(self, match_id, d)

    monkeypatch.setattr(svc.thinker, "choose", peeking)
    monkeypatch.setattr(AiDecisionStore, "write", as_picked)
    match_id = await ai_game(svc, "blockwars", "normal", plies=12)
    record = await record_of(svc, match_id)
    assert len({d["level"] for d in record["ai"]["decisions"]}) > 1  # it did switch levels
    report = fairness.check(record, ai=True)
    assert not report.ok, report.text()
    assert "not the game's level" in report.text(), report.text()


async def test_a_budget_that_stops_every_search_at_once_is_refused(tmp_path: Path) -> None:
    """A budget below nothing stops a search after its first iteration whatever the clock says, so
    a replay with a clock that stands still chose as the bot did and the decision read as free of
    the clock, when the operator picked, decision by decision, between a search and none. No bot's
    budget is zero or less (nor infinite, nor not a number): such a decision is not the bot's."""
    svc = await service(tmp_path / "g.db", 22)
    match_id = await ai_game(svc, "fixbayonets", "normal", plies=6, budget_s=-1.0)
    record = await record_of(svc, match_id)
    assert {d["budget_s"] for d in record["ai"]["decisions"]} == {-1.0}
    report = fairness.check(record, ai=True)
    assert not report.ok and "is not one the bot writes" in report.text(), report.text()


async def test_a_search_cut_short_on_purpose_is_named_on_the_verdict_line(
    tmp_path: Path, monkeypatch
) -> None:
    """The operator's AI runs its search with several clocks (stopping it early or late) and plays
    whichever choice the true state favours, recording that clock: every decision replays. The
    check cannot tell a forged clock from a true one, so it must say which decisions rest on the
    bot's clock, on the verdict line too, not a plain ✅ "chose each of its moves from its view"."""
    svc = await service(tmp_path / "g.db", 23)
    rules = cast(BaseGame[Any, Any], registry.game("battlefronts"))
    honest = svc.thinker.choose

    async def peeking(game: str, view: Any, level: str, seed: int, budget_s: Any = None, **kw: Any) -> str:
        _, true = await svc.current(CHANNEL)
        full: list[list[int]] = []
        first = await honest(game, view, level, seed, budget_s, clock=full)
        options = {first: full}
        for stop in (1, 2, 4, 8, 16):  # the clock says time is up after `stop` iterations
            marks = [[0, stop], [151, 1]]  # "1.51 s": past `normal`'s 1.5 s cap
            options.setdefault(
                ai_check.decide(rules, view, "move", level, seed, budget_s, marks, "")[0], marks
            )
        best = peek_best(rules, true, view.viewer, sorted(options))
        if kw.get("clock") is not None:
            kw["clock"][:] = options[best]
        return best

    monkeypatch.setattr(svc.thinker, "choose", peeking)
    match_id = await ai_game(svc, "battlefronts", "normal", plies=8)
    record = await record_of(svc, match_id)
    report = fairness.check(record, ai=True)
    clocked = [d["n"] for d in record["ai"]["decisions"] if d["clock"] and d["clock"][-1] == [151, 1]]
    assert clocked  # some decisions were cut short on purpose
    assert report.ok, report.text()  # it cannot be told from an honest clock...
    head = report.text().splitlines()[0]
    assert "the check takes the bot's word for" in head and "on how long it thought" in head, head
    named = next(line for line in report.text().splitlines() if "ran into the time cap" in line)
    listed = re.findall(r"\d+", re.findall(r"\(actions? ([^)]*)\)", named)[0])
    assert named.startswith("➖ ") and set(map(str, clocked[:6])) <= set(listed), named


async def test_a_plan_kept_or_forgotten_at_will_is_named_on_the_verdict_line(
    tmp_path: Path, monkeypatch
) -> None:
    """Combined Arms keeps its phase's plan between decisions; the check accepts a decision that
    matches only with the plan forgotten (a restarted AI process). The operator's AI thinks both
    ways at every step and plays whichever the true state favours: every decision replays, so the
    verdict must say which rest on the bot's word that its AI had forgotten."""
    svc = await service(tmp_path / "g.db", 34)
    rules = cast(BaseGame[Any, Any], registry.game("combinedarms"))
    honest = svc.thinker.choose

    async def peeking(game: str, view: Any, level: str, seed: int, budget_s: Any = None, **kw: Any) -> str:
        _, true = await svc.current(CHANNEL)
        kept = [dict(store) for store in search.memories]
        ways: dict[str, tuple[list[list[int]], list[dict[Any, Any]]]] = {}
        for forget in (False, True):
            for store, was in zip(search.memories, kept, strict=True):
                store.clear()
                store.update({} if forget else was)
            marks: list[list[int]] = []
            chosen = await honest(game, view, level, seed, budget_s, clock=marks)
            ways.setdefault(chosen, (marks, [dict(store) for store in search.memories]))
        best = peek_best(rules, true, view.viewer, sorted(ways))
        for store, after in zip(search.memories, ways[best][1], strict=True):
            store.clear()
            store.update(after)
        if kw.get("clock") is not None:
            kw["clock"][:] = ways[best][0]
        return best

    monkeypatch.setattr(svc.thinker, "choose", peeking)
    match_id = await ai_game(svc, "combinedarms", "normal", plies=24)
    record = await record_of(svc, match_id)
    report = fairness.check(record, ai=True)
    assert report.ok, report.text()  # it cannot be told from a restarted AI process...
    named = [line for line in report.text().splitlines() if "matched only when thought afresh" in line]
    assert named and named[0].startswith("➖ "), report.text()  # ...so it is said to rest on its word
    head = report.text().splitlines()[0]
    assert "the check takes the bot's word for" in head and "on what its AI had forgotten" in head, head


async def test_a_record_with_every_decision_dropped_says_nothing_was_checked(tmp_path: Path) -> None:
    """A record of version 4 whose decisions were all left out reads as a game begun before the bot
    recorded them: its verdict says, on its first line, that none of the AI's choices was checked
    (not "not all"), and names when the record says the game began."""
    svc = await service(tmp_path / "g.db", 24)
    match_id = await ai_game(svc, "battlefronts", "easy", plies=6)
    record = await record_of(svc, match_id)
    dropped = copy(record)
    dropped["ai"]["decisions"] = []
    report = fairness.check(dropped, ai=True)
    head = report.text().splitlines()[0]
    assert "none of the AI's choices was checked" in head, head
    assert "began" in report.text() and "2027-01-15" in report.text(), report.text()
    older = {k: v for k, v in record.items() if k != "ai"} | {"format_version": 3}  # said to be older
    report = fairness.check(older, ai=True)
    head = report.text().splitlines()[0]
    assert "none of the AI's choices was checked" in head, head
    assert "record format 3" in report.text() and "2027-01-15" in report.text(), report.text()


# 2. Can a forged record make the checker misbehave?


@pytest.mark.parametrize("budget", ["Infinity", "NaN", "1e300"])
async def test_a_budget_that_never_runs_out_cannot_keep_the_check_running(
    budget: str, tmp_path: Path
) -> None:
    """JSON as Python reads it allows Infinity and NaN: a budget no clock reaches kept a search that
    stops on time alone (Block Wars' `search`) running for ever, even past the tape's end."""
    svc = await service(tmp_path / "g.db", 25)
    match_id = await ai_game(svc, "blockwars", "search", plies=1, budget_s=0.02)
    record = await record_of(svc, match_id)
    text = json.dumps(record).replace('"budget_s": 0.02', f'"budget_s": {budget}')
    assert budget in text
    path = tmp_path / "forged.json"
    path.write_text(text)
    done = await asyncio.to_thread(run_script, path)
    assert done.returncode == 1 and "is not one the bot writes" in done.stdout, done.stdout + done.stderr


async def test_a_tape_of_endless_reads_cannot_keep_the_check_running(tmp_path: Path) -> None:
    """A clock said to stand still for 10^12 readings (or to have thought for a year) kept a search
    that stops on time alone running for ever: no machine reads its clock so often, nor does a
    search think so long; such a tape is refused."""
    svc = await service(tmp_path / "g.db", 26)
    match_id = await ai_game(svc, "blockwars", "search", plies=1, budget_s=0.02)
    record = await record_of(svc, match_id)
    for forged_clock in (
        [[0, 10**12]],
        [[t * 100, 400] for t in range(0, 3600 * 24 * 365, 100_000)] + [[10**12, 1]],
    ):
        forged = copy(record)
        forged["ai"]["decisions"][0]["clock"] = forged_clock
        path = tmp_path / "forged.json"
        path.write_text(json.dumps(forged))
        done = await asyncio.to_thread(run_script, path)
        assert done.returncode == 1 and "is not one the bot writes" in done.stdout, done.stdout + done.stderr


class OnTime:
    """A test-only AI whose search stops on time alone (as Block Wars' `search` level does): it
    reads its clock until its 0.05 s cap, counting the readings."""

    def __init__(self) -> None:
        self.reads: list[int] = []

    def parse(self, text: str) -> str:
        return text

    def choose(self, view: Any, level: str, seed: int, budget_s: float | None = None) -> str:
        n = 0
        while search.now() < 0.05:
            n += 1
        self.reads.append(n + 1)
        return "a"


def test_readings_a_forged_tape_holds_past_the_stop_cost_the_check_nothing() -> None:
    """A tape that says 0.01 s for 500 readings a tick, and goes on for a minute after the search's
    cap: the replay stops at the cap, and the still clock that tells whether time mattered stands
    for the readings the replay took, not for the 3 million the tape holds."""
    rules = OnTime()
    forged = [[t, 500] for t in range(0, 6000)]
    assert Tape.valid(forged) and Tape(forged).reads == 3_000_000
    chosen, how = ai_check.decide(cast(Any, rules), cast(Any, None), "move", "x", 1, None, forged, "a")
    assert (chosen, how) == ("a", ai_check.CLOCK)
    assert rules.reads[0] == 5 * 500 + 1 and rules.reads[1] <= rules.reads[0] + 1, rules.reads


@pytest.mark.parametrize(
    "data", [b"[" * 100_000 + b"]" * 100_000, b'{"format_version": ' + b"9" * 5000 + b"}", b'{"a": 1}\xff']
)
def test_a_file_python_cannot_read_is_refused_plainly(data: bytes, tmp_path: Path) -> None:
    """Nested deeper than Python's JSON reader goes, a number of thousands of digits, bytes that are
    not UTF-8: exit status 2 and a sentence, never a traceback."""
    path = tmp_path / "odd.json"
    path.write_bytes(data)
    done = run_script(path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("Cannot read"), done.stderr


async def test_forged_fields_give_findings_never_a_traceback(tmp_path: Path) -> None:
    """Every field of the record and of its decisions replaced by a value of the wrong shape (seeded):
    `check` says what it cannot read, and never raises."""
    svc = await service(tmp_path / "g.db", 27)
    # the random level: each forgery's check replays the AI's decisions, and at `easy` (its win check
    # searching) the forgeries took 17 s of CPU; what is forged is the record's shape, not the search
    match_id = await ai_game(svc, "battlefronts", "random", plies=4)
    record = await record_of(svc, match_id)
    assert record["ai"]["decisions"] and record["actions"]
    rng = random.Random(27)
    odd: list[Any] = [None, -1, 10**30, 1e308, float("inf"), float("nan"), "x", [], {}, [[0, 1]], [["a"]]]
    odd += [{"n": 1}, True, [[0, 1], [1, 10**9]], [{"n": "x"}]]
    paths: list[tuple[Any, ...]] = (
        [(k,) for k in record]
        + [("ai", k) for k in record["ai"]]
        + [("ai", "decisions", 0, k) for k in record["ai"]["decisions"][0]]
        + [("players", 0, k) for k in record["players"][0]]
        + [("actions", 0, k) for k in record["actions"][0]]
    )
    for path in paths:
        for value in rng.sample(odd, 3):
            forged = copy(record)
            where: Any = forged
            for key in path[:-1]:
                where = where[key]
            where[path[-1]] = value
            report = fairness.check(forged, ai=True)  # must not raise
            assert report.text()


async def test_an_ai_section_whose_side_no_player_is_fails(tmp_path: Path) -> None:
    """The operator marks no player as the AI (or the human as it), so that its decisions are not
    replayed at all: the record's `ai` section names the AI's side, and a record whose players do
    not say that side is the AI fails."""
    svc = await service(tmp_path / "g.db", 28)
    match_id = await ai_game(svc, "battlefronts", "easy", plies=4)
    record = await record_of(svc, match_id)
    hidden = copy(record)
    for p in hidden["players"]:
        p["ai_level"] = None
    report = fairness.check(hidden, ai=True)
    assert not report.ok and "no player" in report.text(), report.text()
    swapped = copy(record)
    swapped["ai"]["side"] = next(p["side"] for p in record["players"] if p["ai_level"] is None)
    report = fairness.check(swapped, ai=True)
    assert not report.ok and "but the AI played side" in report.text(), report.text()
    both = copy(record)
    for p in both["players"]:
        p["ai_level"] = "easy"
    report = fairness.check(both, ai=True)
    assert not report.ok and "more than one player" in report.text(), report.text()


async def test_an_ai_action_said_to_be_another_players_fails(tmp_path: Path) -> None:
    """The operator writes the action it cheated on as someone else's (the player's id, or none) on
    the AI's side, so that the check did not count it as the AI's: every action on the AI's side is
    the AI's, in a game against it, and one said to be another's fails."""
    svc = await service(tmp_path / "g.db", 32)
    match_id = await ai_game(svc, "battlefronts", "easy", plies=6)
    record = await record_of(svc, match_id)
    theirs = [a["n"] for a in record["actions"] if a["player_id"] == AI]
    assert len(theirs) >= 3
    for who in (ALICE, None):
        forged = copy(record)
        forged["actions"][theirs[1] - 1]["player_id"] = who
        forged["ai"]["decisions"] = [d for d in forged["ai"]["decisions"] if d["n"] != theirs[1]]
        report = fairness.check(forged, ai=True)
        assert not report.ok and f"action {theirs[1]}" in report.text(), report.text()


# 3. Can a player learn anything during the game?


def test_only_the_export_and_the_ai_read_the_decisions() -> None:
    """The decisions (and their clocks) are read by the finished game's export alone, which refuses a
    live game (tests/test_fairness.py); nothing a player can ask during the game shows them."""
    users = sorted(
        str(p.relative_to(ROOT))
        for top in ("play", "cogs", "console", "data", "render", "bot.py")
        for p in ((ROOT / top).rglob("*.py") if (ROOT / top).is_dir() else [ROOT / top])
        if p.exists() and "AiDecisionStore" in p.read_text(encoding="utf-8")
    )
    assert users == ["data/ai_decisions.py", "play/ai_turns.py", "play/fairness.py"], users


async def test_the_seed_is_never_shown_during_the_game(tmp_path: Path, caplog) -> None:
    """What the AI's seed is derived from (the game key) stays the bot's: no log line, no message of
    the game carries a seed of its decisions."""
    caplog.set_level("DEBUG")
    svc = await service(tmp_path / "g.db", 29)
    match_id = await ai_game(svc, "fixbayonets", "easy", plies=6)
    match = await svc.db.get_match(match_id)
    record = await record_of(svc, match_id)
    seeds = {str(ai_check.ai_seed(engine_seed(match), d["n"])) for d in record["ai"]["decisions"]}
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert not any(s in logged for s in seeds)


async def test_a_decision_whose_action_never_came_is_left_out(tmp_path: Path, monkeypatch) -> None:
    """The player resigns while the AI thinks: its action never came, and its decision, made for a
    game that had ended, is not kept (an orphan written earlier goes at the end: tests/test_ai_orphans.py).
    The record has every decision of the AI's actions, and verifies."""
    svc = await service(tmp_path / "g.db", 33)
    real = svc.thinker.choose
    thoughts = 0

    async def slow(*args: Any, **kwargs: Any) -> str:
        nonlocal thoughts
        thoughts += 1
        chosen = await real(*args, **kwargs)
        if thoughts == 4:  # the player resigns before the AI's move is stored
            await svc.act(CHANNEL, ALICE, "resign")
        return chosen

    monkeypatch.setattr(svc.thinker, "choose", slow)
    match_id = await ai_game(svc, "battlefronts", "easy", plies=8)
    stored = await AiDecisionStore(svc.db).decisions(match_id)
    record = await record_of(svc, match_id)
    theirs = [a["n"] for a in record["actions"] if a["player_id"] == AI]
    assert len(stored) == len(theirs)  # no decision without its action
    assert [d["n"] for d in record["ai"]["decisions"]] == theirs
    report = fairness.check(record, ai=True)
    assert report.ok and report.ai_checked, report.text()


# 4. Is the seed derivation sound?


def test_an_ai_message_never_is_a_draw_message() -> None:
    """Chance draws' HMAC messages are "<int>:<int>"; the AI's are "ai:<n>": no string is both, so
    no seed of the AI is a block of dice."""
    key = chance.key_of(12345)
    for n in range(1, 200):
        digest = hmac.new(key, f"ai:{n}".encode("ascii"), hashlib.sha256).digest()
        assert int.from_bytes(digest[:8], "big") == ai_check.ai_seed(12345, n)
        assert not f"ai:{n}".split(":")[0].lstrip("-").isdigit()


async def test_n_is_counted_alike_after_undo_and_a_restart(tmp_path: Path) -> None:
    """The bot numbers a decision by the actions in the log (undone steps left out), as the checker
    does: a game with an undo by the player and a bot restart (a new service on the same file, the
    AI's memory gone) midway verifies, each decision at its action's number."""
    svc = await service(tmp_path / "g.db", 30)
    await challenge_ai(svc, "combinedarms", "easy", 30)
    await svc.ai_turns(CHANNEL)
    rng = random.Random(30)
    undone = False
    for ply in range(16):
        if ply == 8:  # a restart: another service on the same file, the AI's memories emptied
            for store in search.memories:
                store.clear()
            svc = await service(tmp_path / "g.db", 31)
        match, state = await svc.current(CHANNEL)
        me = match.side_of(ALICE)
        if me in state.to_act():
            legal = [a for a in state.legal_actions(me) if not str(a).startswith(("resign", "offer"))]
            await svc.act(CHANNEL, ALICE, str(rng.choice(legal)))
            if not undone:
                try:
                    await svc.undo(CHANNEL, ALICE)
                    undone = True
                except Exception:  # not every step can be taken back
                    pass
        await svc.ai_turns(CHANNEL)
    match, _ = await svc.latest(CHANNEL)
    if match.status.is_open:
        await svc.act(CHANNEL, ALICE, "resign")
    record = await record_of(svc, match.id)
    assert undone and record["undone"]
    assert [d["n"] for d in record["ai"]["decisions"]] == [
        a["n"] for a in record["actions"] if a["player_id"] == AI
    ]
    report = fairness.check(record, ai=True)
    assert report.ok and report.ai_checked, report.text()


async def test_two_bot_processes_racing_for_one_ai_move_keep_the_winners_clock(
    store: str, monkeypatch
) -> None:
    """Not a cheat: two bot processes on one store (the AI's lock is per process) both decide the
    AI's action `n` at the same version. The one that writes its decision last loses the race to
    act: both decisions are kept, and the record takes the one whose id the stored action carries
    (migration 0013), so the honest game verifies. On SQLite and on PostgreSQL."""
    svc1 = await service(store, 40)
    svc2 = await service(store, 41)
    await challenge_ai(svc1, "battlefronts", "normal", 40)
    match, state = await svc1.current(CHANNEL)
    while match.side_of(AI) not in state.to_act():  # the player plays on until the AI is owed a move
        legal = [
            a for a in state.legal_actions(match.side_of(ALICE)) if not str(a).startswith(("resign", "offer"))
        ]
        await svc1.act(CHANNEL, ALICE, str(legal[-1]))
        match, state = await svc1.current(CHANNEL)
    p1_wrote, p2_wrote, p2_acted = asyncio.Event(), asyncio.Event(), asyncio.Event()
    clocks: dict[int, list[list[int]]] = {}
    write = AiDecisionStore.write

    async def noted(self: AiDecisionStore, match_id: int, d: AiDecision) -> None:
        await write(self, match_id, d)
        (p1_wrote if self.db is svc1.db else p2_wrote).set()

    def taped(svc: Any, key: int) -> Any:
        real = svc.thinker.choose

        async def choose(*args: Any, **kw: Any) -> str:
            out = await real(*args, **kw)
            clocks.setdefault(key, list(kw["clock"]))
            if key == 1:  # the first process waits until the second has written its decision
                asyncio.get_running_loop().create_task(svc2.ai_turns(CHANNEL, budget_s=0.01))
                await p2_wrote.wait()
            return out

        return choose

    act1, act2 = svc1.act, svc2.act

    async def late(*args: Any, **kw: Any) -> Any:
        await p2_acted.wait()
        return await act1(*args, **kw)

    async def first(*args: Any, **kw: Any) -> Any:
        await p1_wrote.wait()
        try:
            return await act2(*args, **kw)
        finally:
            p2_acted.set()

    monkeypatch.setattr(AiDecisionStore, "write", noted)
    monkeypatch.setattr(svc1.thinker, "choose", taped(svc1, 1))
    monkeypatch.setattr(svc2.thinker, "choose", taped(svc2, 2))
    monkeypatch.setattr(svc1, "act", late)
    monkeypatch.setattr(svc2, "act", first)
    await asyncio.wait_for(svc1.ai_turns(CHANNEL, budget_s=0.3), 60)
    for _ in range(100):  # the second process's turn finishes
        await asyncio.sleep(0.05)
        if p2_acted.is_set():
            break
    assert p2_acted.is_set()
    log = await svc1.log(match)
    n = next(i for i, (_, _, player) in enumerate(log, 1) if player == AI)
    assert clocks[1] != clocks[2]  # the two processes' clocks differ (their budgets do, to be sure)
    kept = await AiDecisionStore(svc1.db).decisions(match.id)
    both = [json.loads(d.clock or "[]") for d in kept if d.n == n]
    assert sorted(both) == sorted([clocks[1], clocks[2]])  # each process's decision is kept
    await act1(CHANNEL, ALICE, "resign")
    record = await record_of(svc1, match.id)
    (decision,) = [d for d in record["ai"]["decisions"] if d["n"] == n]
    assert decision["clock"] == clocks[2] and decision["budget_s"] == 0.01  # the second process's
    report = fairness.check(record, ai=True)
    assert report.ok and report.ai_checked, report.text()
