"""The fifth red team (2026-11-29): a cheating player (a phone, a second account, a client that shows
raw message data, custom_ids and every ephemeral refusal), a curious spectator and a dishonest
operator (it runs the bot and wants `scripts/verify_game.py` to say ✅ on a game it steered) against
what landed since the fourth: the AI's draw answer that weighs how far behind it is, refusals that
count the legal actions, stamped buttons, records of another channel's game, and the AI's recorded
program (docs/fairness.md, "What a cheater tried: the fifth review"). Each hole found has a test here
that failed before its fix; each probe that held has one too."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, cast

import pytest

from engine import fairness, registry
from play.ai_turns import AiTurns
from tests.test_ai_verify import ALICE, CHANNEL, META, challenge_ai, record_of, service

# ------------------------------------------------------------------ the AI's draw answer

GAME, SEED = "combinedarms", 3


async def _offer_when_the_ai_is_lost(tmp_path: Path, *, answered: bool, game: str, seed: int) -> dict:
    """Alice against the `random` AI. At the first of her turns where an action hands the AI a
    position its own judgement calls lost, she plays it and offers a draw in the same command; then
    she resigns. `answered`: the bot answers offers as the product does; else it is an operator's
    bot that never does, so its AI plays on past an offer its program accepts."""
    rules = registry.game(game)
    svc = await service(tmp_path / "g.db", seed)
    await challenge_ai(svc, game, "random", seed)
    rng = random.Random(seed)
    await svc.ai_turns(CHANNEL)
    offered = False
    for _ in range(300):
        match, state = await svc.latest(CHANNEL)
        if not match.status.is_open or state is None or offered:
            break
        me, ai = match.side_of(ALICE), match.side_of(match.ai_player_id)
        assert me is not None and ai is not None
        if me in state.to_act():
            legal = [str(a) for a in state.legal_actions(me) if not str(a).startswith(META)]
            command = rng.choice(legal)
            for action in legal:
                after = state.clone()
                after.apply(rules.parse(action), me)
                if not after.is_over() and ai in after.to_act() and rules.accepts_draw(after.view(ai), 0):
                    command, offered = f"{action}; offer draw", True
                    break
            await svc.act(CHANNEL, ALICE, command)
        await svc.ai_turns(CHANNEL)
    assert offered, "the AI was never handed a lost position"
    match, _ = await svc.latest(CHANNEL)
    if match.status.is_open:
        await svc.act(CHANNEL, ALICE, "resign")
    return await record_of(svc, match.id)


async def test_an_ai_that_played_on_past_a_draw_its_program_accepts_fails_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The operator's bot never answers a draw offered to its AI, so the AI plays on, and the offer
    lapses, where the program would have taken it: the operator keeps a game its AI had judged lost
    alive (to win it, or to keep a player's rating from the draw). Every decision recorded is one the
    program makes, so the check said ✅. It now replays the program's answer to any offer standing at
    an action of the AI that is not an answer, and a program that accepts fails the record. The
    honest bot's game (it accepts) verifies."""
    honest = await _offer_when_the_ai_is_lost(tmp_path / "honest", answered=True, game=GAME, seed=SEED)
    assert honest["outcome"]["reason"] == "by agreement", honest["outcome"]
    assert fairness.check(honest, ai=True).ok

    async def never(self, *args, **kwargs):  # the operator's bot: no answer, ever
        return None

    monkeypatch.setattr(AiTurns, "_answer_offer", never)
    steered = await _offer_when_the_ai_is_lost(tmp_path / "steered", answered=False, game=GAME, seed=SEED)
    assert not any(a["notation"] in ("accept draw", "decline draw") for a in steered["actions"])
    report = fairness.check(steered, ai=True)
    assert not report.ok, report.text()
    assert "played on past a draw offer" in report.text(), report.text()


def test_company_commanders_ai_takes_no_draw_before_its_first_deployment() -> None:
    """The first side deploys to all three fronts in its first turn while the second holds none, and
    Company Commander's evaluation reads that as the second side nearly lost (about -0.88, past the
    margin): Alice, first, deployed and offered a draw to the AI, which took it (seed 3: in 9 of 231
    random first-turn positions over 40 games). A player rated far below its level had half a game
    for an offer made before the AI had a unit on the table. Now neither side accepts until its own
    first Deploy phase is over; offered afterwards, the answer is the evaluation's as before."""
    game = registry.game("companycommander")
    taken = []
    for seed in range(1, 13):
        rng = random.Random(seed)
        state = game.new_game({}, seed)
        while not state.is_over():
            s = cast(Any, state)
            if s.turns > 2 or (s.turns == 2 and s.phase != "deploy"):
                break  # both sides' first Deploy phases are over
            for side in ("americans", "germans"):
                if game.accepts_draw(state.view(side), seed):
                    taken.append((seed, s.turns, s.phase, side))
            side = min(state.to_act())
            state.apply(rng.choice(state.legal_actions(side)), side)
    assert not taken, taken
