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

from data import Database
from engine import fairness, registry
from play import MatchService
from play.ai_turns import AiTurns
from play.errors import ServiceError, StalePrompt
from play.present import standing_actions
from play.stamps import UNSTAMPED, stamp
from tests.clock import Clock
from tests.test_ai_verify import AI, ALICE, CHANNEL, META, challenge_ai, record_of, service

# ------------------------------------------------------------------ the AI's draw answer

GAME, SEED = "combinedarms", 6


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
        me, ai = match.side_of(ALICE), match.side_of(AI)
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


@pytest.mark.parametrize("name", registry.names())
def test_the_draw_answer_is_the_same_whatever_its_seed_and_whatever_the_ai_cannot_see(name: str) -> None:
    """Fishing: each offer, even in the same position (again at once, after an undo, each turn),
    is weighed with a fresh seed (`ai_seed(K, n)`, n one more each time). Were the answer to turn on
    the seed's deals of what the AI cannot see, an offer repeated until a deal tipped it would be
    taken. Probed at positions along seeded playouts of every game: the answer is the same for
    four seeds, and in twins that differ only in what the AI's side may not see (the player's hand,
    the cards and dice to come: `chance_twin`), so it tells the player nothing of those either (a
    spread of 0.0 between seeds, measured on about 7,000 positions of the games with hidden cards)."""
    game = registry.game(name)
    rng = random.Random(name)
    weighed = 0
    for seed in (5,):
        state = game.new_game({}, seed)
        for step in range(240):
            if state.is_over():
                break
            if step % 12 == 0:
                for info in game.sides:
                    view = state.view(info.name)
                    answers = {game.accepts_draw(view, k) for k in range(4)}
                    twin = game.chance_twin(state, info.name, random.Random(rng.random()))
                    answers.add(game.accepts_draw(twin.view(info.name), 0))
                    assert len(answers) == 1, (name, seed, step, info.name)
                    weighed += 1
            side = rng.choice(sorted(state.to_act()))
            state.apply(rng.choice(state.legal_actions(side)), side)
    assert weighed >= 6


# ------------------------------------------------------------------ "N in all", and stamps


async def test_the_count_of_legal_actions_and_the_plain_numbers_tell_the_waiting_player_nothing(
    tmp_path: Path,
) -> None:
    """Bob waits while Alice plays a Fix Bayonets turn of several private steps, and asks what a
    cheater would: her moves copied from the board, a mistyped one, every standing order and a
    misspelt one, `resign; zzz`, a draw offer, with each refusal's examples and how many legal
    actions there are in all (`legal_total`: the console's "N in all", Discord's "and N more");
    clicks with plain version numbers; and Undo, typed and from his old buttons. Every answer must
    be the same before her first step and after each one. The count held (it is read from the
    position the channel saw, or from his own legal list) and the plain numbers all read as a board
    from before the stamps. Undo did not: an old Undo button (from the answer to one of his own
    steps) was out of date at her turn's start and "not your turn" once she had taken a private
    step, so one click told him whether she had begun. A player not to act now hears "not your
    turn" from Undo whatever its version. And a game's stamps never repeat across its versions."""

    alice, bob = 11, 12
    service = MatchService(await Database.open(tmp_path / "g.db", clock=Clock()), rng=random.Random(9))
    game = registry.game("fixbayonets")
    orders = [str(a) for a in standing_actions(game)]
    rng = random.Random(5)

    async def answers(texts: list[str], seen: int) -> list[object]:
        said: list[object] = []
        for text in texts:
            try:
                played = await service.act(1, bob, text)
            except ServiceError as exc:
                said.append((text, type(exc).__name__, exc.message, exc.legal, exc.legal_total))
            else:
                said.append((text, "played", [s.notation for s in played.steps]))
        match, _ = await service.current(1)
        with pytest.raises(ServiceError) as typed:  # `/wargames undo`: no version
            await service.undo(1, bob)
        said.append(typed.value.message)
        for plain in (*range(3), seen):
            with pytest.raises(StalePrompt) as stale:
                await service.act(1, bob, texts[0], expected_version=str(plain))
            said.append(str(stale.value) == UNSTAMPED)
            # Undo buttons from the answers to his own steps, the board's version, forged plain ones
            for given in (str(plain), stamp(match, plain)):
                with pytest.raises(ServiceError) as undo:
                    await service.undo(1, bob, expected_version=given)
                said.append(undo.value.message)
        return said

    try:
        await service.challenge(
            guild_id=5, channel_id=1, challenger_id=alice, opponent_id=bob, game=game.name
        )
        await service.accept(1, bob)
        asked: tuple[list[str], list[object], int] | None = None
        probed = 0
        for _ in range(40):
            match, state = await service.current(1)
            side = min(state.to_act())
            if match.sides[side] == bob:
                asked = None
            else:
                opens = await service.held_back(match, bob) is None
                legal = [str(a) for a in state.legal_actions(side) if not a.anytime]
                texts = [*rng.sample(legal, min(2, len(legal))), "zzz 9", *orders, orders[0] + "x"]
                texts += ["resign; zzz", "offer draw"]
                if opens:
                    asked = (texts, await answers(texts, match.version), match.version)
                elif asked is not None:
                    assert await answers(asked[0], asked[2]) == asked[1]
                    probed += 1
            choices = [a for a in state.legal_actions(side) if not a.anytime]
            await service.act(1, match.sides[side], str(rng.choice(choices)))
        assert probed >= 2, probed
        match, _ = await service.current(1)
        stamps = {stamp(match, v) for v in range(500)}
        assert len(stamps) == 500
    finally:
        await service.db.close()


def test_combined_arms_ai_takes_no_draw_in_the_first_round() -> None:
    """WWII: the Americans take the airborne army, whose paratroopers' reach the evaluation counts
    as pressure on every German unit, and the German AI judged itself at -0.5 to -0.87 at the first
    move (past the game's 0.5 margin) in 33 of 40 `easy` self-play games, of which the Germans went
    on to win 17: a player who chose airborne had half a game from the German AI, any level, for
    an offer at once. Now neither Combined Arms takes a draw before the first round is over."""
    game = registry.game("combinedarms_wwii")
    taken = []
    for seed in (1, 2, 3, 4):
        rng = random.Random(seed)
        state = game.new_game({}, seed)
        n = 0
        while not state.is_over() and state.turn_number() <= 1:
            for info in game.sides if n % 4 == 0 else ():
                if game.accepts_draw(state.view(info.name), seed):
                    taken.append((seed, n, info.name))
            side = min(state.to_act())
            legal = [str(a) for a in state.legal_actions(side)]
            if side == "americans" and "army airborne" in legal:
                action = game.parse("army airborne")
            else:
                action = rng.choice(state.legal_actions(side))
            state.apply(action, side)
            n += 1
    assert not taken, taken
