"""Dice sealed before the game exists (docs/fairness.md, "Sealed in advance"): a channel's seal is
drawn and shown at a game's end, taken by the channel's next challenge in the transaction that stores
it and never again, and a sealed game's record says, and `verify` and scripts/verify_game.py check,
that its commitment was public before the challenge; on both stores."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from data import Database, Match, Status
from engine import chance, fairness, registry
from play import BadRequest, MatchService
from play import fairness as play_fairness
from play.markup import PLAIN
from tests.clock import Clock

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "verify_game.py"
GUILD, CHANNEL, OTHER = 10, 100, 101
ALICE, BOB, AI = 1, 2, 99

OPENED: list[Database] = []


def snowflake(ts: float, counter: int = 0) -> int:
    """A Discord id minted at unix time `ts` (its time is in its high bits)."""
    return ((int(ts * 1000) - fairness.DISCORD_EPOCH_MS) << 22) | counter


async def open_service(where: str | Path, clock: Clock, seed: int = 4) -> MatchService:
    db = await Database.open(where, clock=clock)
    OPENED.append(db)
    # the players' ids as in Discord (not drawn from rng), so a test can place them in time
    return MatchService(db, clock=clock, rng=random.Random(seed), seeded_inputs=False)


@pytest.fixture(autouse=True)
async def close_databases():
    yield
    while OPENED:
        await OPENED.pop().close()


async def resigned_game(svc: MatchService, clock: Clock, channel: int = CHANNEL) -> Match:
    """A Block Wars game between Alice and Bob, challenged, accepted and resigned; its last row."""
    await svc.challenge(
        game="blockwars",
        guild_id=GUILD,
        channel_id=channel,
        challenger_id=ALICE,
        opponent_id=BOB,
        entropy=snowflake(clock.now, 1),
    )
    clock.now += 60
    match = await svc.accept(channel, BOB, entropy=snowflake(clock.now, 2))
    clock.now += 60
    played = await svc.act(channel, match.sides["germans"], "resign")
    assert played.match.status is Status.FINISHED
    return played.match


async def shown_seal(svc: MatchService, clock: Clock, channel: int = CHANNEL):
    """The channel's seal, shown by a message posted now (its id a snowflake of this moment)."""
    seal = await svc.next_seal(channel)
    assert await svc.seal_shown(seal, snowflake(clock.now, 3))
    return seal


async def ai_game(svc: MatchService, clock: Clock, channel: int = CHANNEL) -> Match:
    """A game of Company Commander against the AI, challenged now and resigned by Alice."""
    match = await svc.challenge(
        game="companycommander",
        guild_id=GUILD,
        channel_id=channel,
        challenger_id=ALICE,
        opponent_id=AI,
        opponent_is_bot=True,
        ai_level="random",
        entropy=snowflake(clock.now, 5),
    )
    assert match.status is Status.ACTIVE
    await svc.ai_turns(channel)
    clock.now += 60
    played = await svc.act(channel, ALICE, "resign")
    assert played.match.status is Status.FINISHED
    return played.match


async def test_a_seal_shown_at_a_games_end_is_the_next_games_commitment(store: str) -> None:
    clock = Clock()
    svc = await open_service(store, clock)
    await resigned_game(svc, clock)
    clock.now += 60
    seal = await shown_seal(svc, clock)
    assert seal.shown_at is None  # as drawn: the showing is recorded by `seal_shown`
    assert seal.commitment == chance.commitment(bytes.fromhex(seal.secret))
    assert seal.secret not in repr(seal)
    clock.now += 3600
    match = await svc.challenge(
        game="blockwars",
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=BOB,
        entropy=snowflake(clock.now, 7),
    )
    assert match.seed_commitment == seal.commitment and match.seed_secret == seal.secret
    assert match.sealed_at == clock.now - 3600 and match.seal_channel_id == CHANNEL
    assert match.seal_message_id == snowflake(clock.now - 3600, 3)
    assert seal.secret not in repr(match)
    line = play_fairness.commitment_text(match, PLAIN)
    assert line.startswith(
        f"Dice sealed in advance: commitment `{seal.commitment[:32]}…`, shown in this channel"
    )
    assert "before this challenge" in line and seal.secret not in line
    # taken: the channel's next seal is a new one
    again = await svc.next_seal(CHANNEL)
    assert again.commitment != seal.commitment and again.shown_at is None


async def test_a_seal_never_shown_is_not_taken_and_a_channel_without_one_draws_afresh(store: str) -> None:
    clock = Clock()
    svc = await open_service(store, clock)
    unshown = await svc.next_seal(CHANNEL)
    assert (await svc.next_seal(CHANNEL)).commitment == unshown.commitment  # one per channel, kept
    match = await svc.challenge(
        game="blockwars", guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB, entropy=1
    )
    assert match.seed_commitment != unshown.commitment and match.sealed_at is None
    assert "Dice commitment:" in play_fairness.commitment_text(match, PLAIN)
    # still the channel's: shown later, the next challenge takes it
    assert (await svc.next_seal(CHANNEL)).commitment == unshown.commitment
    # a seal shown in another channel is that channel's alone
    other = await shown_seal(svc, clock, OTHER)
    assert match.seed_commitment != other.commitment


async def test_a_seal_serves_one_challenge_even_when_two_come_at_once(store: str) -> None:
    clock = Clock()
    svc = await open_service(store, clock)
    seal = await shown_seal(svc, clock)
    clock.now += 60

    async def challenge(opponent: int) -> Match | BadRequest:
        try:
            return await svc.challenge(
                game="blockwars",
                guild_id=GUILD,
                channel_id=CHANNEL,
                challenger_id=ALICE,
                opponent_id=opponent,
                entropy=snowflake(clock.now, opponent),
            )
        except BadRequest as exc:
            return exc

    results = await asyncio.gather(challenge(BOB), challenge(3))
    made = [r for r in results if isinstance(r, Match)]
    assert len(made) == 1 and made[0].seed_commitment == seal.commitment
    assert any(isinstance(r, BadRequest) and "already has a game" in str(r) for r in results)
    # the challenge declined, the seal is not given again: a new one must be shown first
    await svc.decline(CHANNEL, made[0].opponent_id)
    after = await svc.challenge(
        game="blockwars", guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB, entropy=9
    )
    assert after.seed_commitment != seal.commitment and after.sealed_at is None


async def test_a_busy_channel_keeps_its_shown_seal_for_the_next_challenge(store: str) -> None:
    """A challenge refused because the channel has a game takes nothing: the transaction that
    would have taken the seal is rolled back whole."""
    clock = Clock()
    svc = await open_service(store, clock)
    first = await svc.challenge(
        game="blockwars", guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB, entropy=1
    )
    seal = await shown_seal(svc, clock)  # shown while a challenge waits: for the game after it
    svc.forget(CHANNEL)  # as another process would be: it does not know of the waiting challenge
    with pytest.raises(BadRequest, match="already has a game"):
        await svc.challenge(
            game="blockwars",
            guild_id=GUILD,
            channel_id=CHANNEL,
            challenger_id=BOB,
            opponent_id=ALICE,
            entropy=2,
        )
    await svc.decline(CHANNEL, BOB, first.id)
    taken = await svc.challenge(
        game="blockwars", guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB, entropy=3
    )
    assert taken.seed_commitment == seal.commitment


async def test_an_ai_game_in_a_sealed_channel_verifies_with_the_seal_shown_before_it(
    store: str, tmp_path: Path
) -> None:
    clock = Clock()
    svc = await open_service(store, clock, seed=9)
    await resigned_game(svc, clock)
    clock.now += 60
    seal = await shown_seal(svc, clock)
    clock.now += 600
    match = await ai_game(svc, clock)
    assert match.seed_commitment == seal.commitment
    assert play_fairness.inputs_of(match) == [f"challenge:{snowflake(clock.now - 60, 5)}"]
    _, report = await play_fairness.verify(svc, GUILD, CHANNEL)
    assert report.ok, report.text()
    text = report.text()
    assert "all after the sealed commitment was shown" in text
    assert "the commitment shown before the challenge was" in text  # not "at the start": it came first
    assert f"shown by message {snowflake(clock.now - 660, 3)}" in text
    assert "before the challenge" in text and "the record alone cannot" in text
    # the record carries the seal's facts, and the script checks them the same way
    _, data = await play_fairness.export(svc, GUILD, CHANNEL)
    record = json.loads(data)
    assert record["format_version"] == 4  # 4: the AI game carries its decisions (tests/test_ai_verify.py)
    assert record["seal"] == {
        "channel_id": CHANNEL,
        "shown_at": clock.now - 660,
        "message_id": snowflake(clock.now - 660, 3),
    }
    path = tmp_path / "record.json"
    path.write_bytes(data)
    run = await asyncio.to_thread(
        subprocess.run, [sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "before the challenge" in run.stdout


def test_a_seal_shown_after_the_challenge_fails_the_check() -> None:
    """A record whose seal message is younger than the challenge (or, without a message id, whose
    shown time is later than its start) is not verified, and says why."""
    record = _sealed_record(shown=2000.0, asked=1000.0)
    report = fairness.check(record)
    assert not report.ok
    assert "❌ The commitment was shown by message" in report.text() and "not before" in report.text()
    record["seal"]["message_id"] = None
    report = fairness.check(record)
    assert not report.ok and "❌ The bot's clock says" in report.text()
    record["seal"]["shown_at"] = record["started_at"] - 10
    report = fairness.check(record)
    assert report.ok, report.text()
    assert "No message id was kept; only the channel's history can confirm the time" in report.text()


def test_an_unsealed_game_says_which_inputs_came_after_its_commitment() -> None:
    record = _sealed_record(shown=0.0, asked=0.0)
    del record["seal"]
    report = fairness.check(record)
    assert report.ok, report.text()
    assert "no input came after its commitment" in report.text()  # an AI game drawn at its challenge
    record["inputs"] = ["challenge:5", "accept:6"]
    report = fairness.check(record)
    assert "accept:6 came after the commitment" in report.text()


def _sealed_record(shown: float, asked: float) -> dict:
    """A record of a game of no actions whose seal was shown at `shown` and challenge made at
    `asked` (unix seconds): the rest is a real game's."""
    secret = bytes(range(32))
    inputs = [f"challenge:{snowflake(1_800_000_000 + asked)}"]
    seed = chance.game_seed(secret, inputs)
    rules = registry.game("blockwars")
    state = rules.new_game({}, seed)
    sides = [s.name for s in rules.sides]
    drawn = fairness.random_side(seed, sides)
    other = sides[1] if drawn == sides[0] else sides[0]
    return {
        "format": fairness.RECORD_FORMAT,
        "format_version": fairness.RECORD_VERSION,
        "game": "blockwars",
        "options": {},
        "challenger_id": ALICE,
        "challenger_side": "random",
        "players": [{"side": drawn, "user_id": ALICE}, {"side": other, "user_id": AI}],
        "actions": [],
        "chance_version": 2,
        "commitment": chance.commitment(secret),
        "secret": secret.hex(),
        "inputs": inputs,
        "seal": {
            "channel_id": CHANNEL,
            "shown_at": 1_800_000_000 + shown,
            "message_id": snowflake(1_800_000_000 + shown),
        },
        "outcome": {"winner_side": None, "winner_id": None, "reason": "cancelled for the test"},
        "final": state.to_json(),
        "started_at": 1_800_000_000 + asked,
    }


async def test_a_seeded_run_draws_seals_of_its_own_seed(tmp_path: Path) -> None:
    """A seeded run (tests, the console's --seed) draws the same seals every time, and each seed its
    own: one fixed generator for all seeds gave every seeded console the same seals."""
    clock = Clock()
    five, again, seven = [
        await open_service(tmp_path / f"{s}-{n}.db", clock, seed=s) for n, s in enumerate((5, 5, 7))
    ]
    drawn = [svc.new_seal() for svc in (five, again, seven)]
    assert drawn[0] == drawn[1] and drawn[0] != drawn[2]
    # reading the seed's state for the seals leaves the games' own draws as they were
    assert five.rng.random() == random.Random(5).random()
