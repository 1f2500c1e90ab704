"""R25 as players meet it: a whole turn in one command, through the console and the match service."""

from __future__ import annotations

import io
import random
from pathlib import Path

from console import Console
from data import Database
from play import MatchService
from tests.fakediscord.fixtures import HandClock

SET_UP = [
    "/combinedarms challenge @bob side:british",
    "/as bob",
    "/combinedarms accept",
    "army balanced",
    "/as alice",
    "army balanced",
    "deploy .AAH.FS./IIIIIIII/..TT..M.",
    "/as bob",
    "deploy flanks",
    "/as alice",
]
TURN = ["c3-c5", "d3-d4", "g3-f4", "done", "f4xd6", "c5xd6", "d4xe6", "end"]


async def test_a_chain_cut_by_a_retreat_question_is_refused_by_step_then_sent_in_two(tmp_path: Path):
    clock = HandClock()
    db = await Database.open(tmp_path / "c.db", clock=clock)
    out = io.StringIO()
    console = Console(MatchService(db, clock=clock, rng=random.Random(5)), boards=tmp_path / "b", out=out)
    try:
        assert await console.run_lines(SET_UP) == 0, out.getvalue()[-600:]
        # c5xd6 (step 6) forces the German Infantry on d6 back, to d7, e7 or c7: the Germans choose.
        start = out.tell()
        assert await console.run_lines(["; ".join(TURN)]) == 1
        refusal = out.getvalue()[start:]
        assert (
            "Action 7 of 8 (`d4xe6`) cannot be played yet: after action 6 the Germans must act first"
            in refusal
        )
        assert "Nothing was played" in refusal and "not your turn" not in refusal
        # what to send, spelled out: the steps before the question now, the rest after the answer
        assert (
            f"Send `{'; '.join(TURN[:6])}` now, then `{'; '.join(TURN[6:])}` when it is your turn" in refusal
        )
        assert "Infantry on d6 must retreat" in refusal and "d7, e7 or c7" in refusal
        console.refused = 0  # the script's "some line was refused" flag: the next lines must pass
        # As the ruling says: the steps before it now, the answer, then the rest.
        assert await console.run_lines(["; ".join(TURN[:6])]) == 0
        assert await console.run_lines(["/as bob", "retreat e7", "/as alice"]) == 0
        assert await console.run_lines(["; ".join(TURN[6:])]) == 0, out.getvalue()[-600:]
        assert "the Germans begin turn 1" in out.getvalue()
    finally:
        await console.close()


async def test_the_defenders_standing_order_keeps_the_attackers_chain_whole(tmp_path: Path):
    clock = HandClock()
    db = await Database.open(tmp_path / "c.db", clock=clock)
    out = io.StringIO()
    console = Console(MatchService(db, clock=clock, rng=random.Random(5)), boards=tmp_path / "b", out=out)
    try:
        assert await console.run_lines([*SET_UP, "/as bob", "autoretreat on", "/as alice"]) == 0
        assert await console.run_lines(["; ".join(TURN)]) == 0, out.getvalue()[-600:]
        assert "Infantry retreats from d6 to d7 (automatic)" in out.getvalue()
    finally:
        await console.close()
