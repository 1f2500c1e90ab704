"""Dice anyone can verify (issue 30): the commitment, the players' inputs, the reveal at the end,
`verify`, `export` and scripts/verify_game.py, on both stores; and old games still replaying."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cogs._format import DISCORD
from data import Database, Match, Status
from engine import chance, fairness, registry
from play import BadRequest, MatchService, NoMatch
from play import fairness as play_fairness
from play.fairness import engine_seed, inputs_of
from play.present import status_text
from tests.clock import Clock

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "verify_game.py"
FIXTURE = Path(__file__).parent / "fixtures" / "v1_chance.db"
GUILD, CHANNEL = 10, 100
ALICE, BOB = 1, 2


OPENED: list[Database] = []


async def open_service(where: str | Path, clock: Clock, rng: random.Random | None = None) -> MatchService:
    db = await Database.open(where, clock=clock)
    OPENED.append(db)
    return MatchService(db, clock=clock, rng=rng, seeded_inputs=False)  # the players' ids, as in Discord


@pytest.fixture(autouse=True)
async def close_databases():
    yield
    while OPENED:
        await OPENED.pop().close()


async def accepted_game(svc: MatchService, channel: int = CHANNEL) -> Match:
    """A Block Wars game with a random side, challenged and accepted with known inputs."""
    await svc.challenge(
        game="blockwars",
        guild_id=GUILD,
        channel_id=channel,
        challenger_id=ALICE,
        opponent_id=BOB,
        entropy=111,
    )
    return await svc.accept(channel, BOB, entropy=222)


async def finished_game(svc: MatchService, channel: int = CHANNEL) -> int:
    """A Block Wars game with a random side, set up, one move, and a resignation; its id."""
    match = await accepted_game(svc, channel)
    german = match.sides["germans"]
    canadian = match.sides["canadians"]
    await svc.act(channel, german, "setup std")
    await svc.act(channel, canadian, "setup std")
    await svc.act(channel, german, "c7-b7")
    played = await svc.act(channel, canadian, "resign")
    assert played.match.status is Status.FINISHED
    return match.id


async def test_a_new_game_commits_before_the_inputs_and_reveals_at_the_end(store: str) -> None:
    svc = await open_service(store, Clock(), random.Random(4))
    challenged = await svc.challenge(
        game="blockwars",
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=BOB,
        entropy=111,
    )
    assert challenged.chance_version == 2 and challenged.seed_secret is not None
    secret = bytes.fromhex(challenged.seed_secret)
    assert len(secret) == 32
    assert challenged.seed_commitment == hashlib.sha256(secret).hexdigest()
    assert inputs_of(challenged) == ["challenge:111"]
    assert challenged.seed_secret not in repr(challenged)  # never in a log line
    match = await svc.accept(CHANNEL, BOB, entropy=222)
    assert inputs_of(match) == ["challenge:111", "accept:222"]
    seed = engine_seed(match)
    assert seed == chance.game_seed(secret, ["challenge:111", "accept:222"]) and chance.version_of(seed) == 2
    _, state = await svc.current(CHANNEL)
    assert state.to_json()["seed"] == seed  # the rules draw from the derived seed
    # the side drawn "at random" comes from the committed seed too
    challenger_side = fairness.random_side(seed, ["germans", "canadians"])
    assert match.sides[challenger_side] == ALICE
    assert challenged.seed_secret not in status_text(match, state, DISCORD)
    await svc.act(CHANNEL, match.sides["germans"], "setup std")
    played = await svc.act(CHANNEL, match.sides["canadians"], "resign")
    end = status_text(played.match, played.state, DISCORD)
    assert "Game over" in end and challenged.seed_secret in end and f"/wargames verify game:{match.id}" in end


async def test_verify_and_export_a_finished_game(store: str, tmp_path: Path) -> None:
    svc = await open_service(store, Clock(), random.Random(5))
    match_id = await finished_game(svc)
    match, report = await play_fairness.verify(svc, GUILD, CHANNEL)
    assert match.id == match_id and report.ok, report.text()
    text = report.text()
    assert text.startswith("Verified") and "commitment" in text and "All 4 actions replay" in text
    # a new game in the channel: without an id, the last finished one is still the one checked
    await svc.challenge(
        game="blockwars", guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB
    )
    match, report = await play_fairness.verify(svc, GUILD, CHANNEL)
    assert match.id == match_id and report.ok
    # by id, from another channel of the server
    match, report = await play_fairness.verify(svc, GUILD, 999, match_id)
    assert report.ok
    match, data = await play_fairness.export(svc, GUILD, 999, match_id)
    record = json.loads(data)
    assert record["secret"] == match.seed_secret and record["commitment"] == match.seed_commitment
    assert record["inputs"] == ["challenge:111", "accept:222"] and record["chance_version"] == 2
    assert [a["notation"] for a in record["actions"]] == ["setup std", "setup std", "c7-b7", "resign"]
    assert record["outcome"]["winner_side"] == "germans" and record["game"] == "blockwars"
    assert fairness.check(record).ok
    path = tmp_path / play_fairness.record_name(match)
    path.write_bytes(data)
    done = await asyncio.to_thread(script, str(SCRIPT), str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Verified" in done.stdout and "❌" not in done.stdout


async def test_a_game_of_one_action_is_said_to_replay_in_the_singular(store: str) -> None:
    """A resignation straight after the accept is a game of one action: not "All 1 actions"."""
    svc = await open_service(store, Clock(), random.Random(5))
    match = await accepted_game(svc)
    await svc.act(CHANNEL, match.sides["germans"], "resign")
    _, report = await play_fairness.verify(svc, GUILD, CHANNEL)
    assert report.ok and "The one action replays from the seed, in order." in report.text(), report.text()


def script(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run a Python program as a player would, in a process of its own."""
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, check=False, cwd=cwd)


def tampered(record: dict, how: str) -> dict:
    out = json.loads(json.dumps(record))
    if how == "secret":
        out["secret"] = "00" + out["secret"][2:]
    elif how == "inputs":
        out["inputs"][1] = "accept:223"
    elif how == "action":
        out["actions"][2]["notation"] = "c7-c6"
    elif how == "final":
        out["final"]["seed"] += 1
    elif how == "winner":
        out["outcome"]["winner_side"] = "canadians"
    elif how == "format":
        del out["format"]
    return out


@pytest.mark.parametrize(
    ("how", "says"),
    [
        ("secret", "(they differ)"),
        ("inputs", "does not"),  # another seed: the replay does not reach the stored end
        ("action", "does not"),
        ("final", "does not end where the stored game ended"),
        ("winner", "but the record says"),
        ("format", "not a game record"),
    ],
)
async def test_the_script_says_what_does_not_match_in_a_tampered_record(
    how: str, says: str, tmp_path: Path
) -> None:
    svc = await open_service(tmp_path / "t.db", Clock(), random.Random(6))
    match_id = await finished_game(svc)
    _, data = await play_fairness.export(svc, GUILD, CHANNEL, match_id)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(tampered(json.loads(data), how)))
    done = await asyncio.to_thread(script, str(SCRIPT), str(path))
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.splitlines()[1].startswith("Not verified") and says in done.stdout, done.stdout
    assert "Traceback" not in done.stderr


async def test_the_script_refuses_what_is_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("[not json")
    done = await asyncio.to_thread(script, str(SCRIPT), str(path))
    assert done.returncode == 2 and "Cannot read" in done.stderr and "Traceback" not in done.stderr
    # only the standard library and the rules: no package of the bot's other layers is imported
    probe = (
        f"import runpy, sys; sys.argv = ['v', {str(path)!r}]\n"
        "try:\n    runpy.run_path("
        + repr(str(SCRIPT))
        + ", run_name='__main__')\nexcept SystemExit:\n    pass\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('discord', 'aiosqlite', 'asyncpg', 'PIL', "
        "'data', 'play', 'cogs', 'render', 'console')]\nprint('BAD', bad)"
    )
    done = await asyncio.to_thread(script, "-c", probe, cwd=ROOT)
    assert "BAD []" in done.stdout, done.stdout + done.stderr


async def test_nothing_of_a_live_game_can_be_verified_or_exported(store: str) -> None:
    svc = await open_service(store, Clock(), random.Random(8))
    await svc.challenge(
        game="blockwars", guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB, entropy=1
    )
    match = await svc.accept(CHANNEL, BOB, entropy=2)
    before = await svc.db.get_match(match.id)
    # nobody, a player or not, gets a live game's record: it holds the secret seed
    for what in (play_fairness.verify, play_fairness.export):
        with pytest.raises(BadRequest) as refused:
            await what(svc, GUILD, CHANNEL)
        text = refused.value.message
        assert match.seed_secret is not None and match.seed_secret not in text
        assert "still being played" in text
        assert f"commitment is `{match.seed_commitment}`" in text  # the whole value, on request
    with pytest.raises(BadRequest):
        await play_fairness.record(svc, match)
    assert await svc.db.get_match(match.id) == before  # nothing changed
    with pytest.raises(NoMatch) as missing:
        await play_fairness.verify(svc, GUILD + 1, CHANNEL, match.id)  # another server's game
    assert "no game" in missing.value.message
    with pytest.raises(NoMatch) as missing:
        await play_fairness.verify(svc, GUILD, 555)
    assert "no game in this channel" in missing.value.message
    await svc.cancel(CHANNEL, 5, is_admin=True)  # a moderator who does not play
    with pytest.raises(NoMatch) as missing:
        await play_fairness.export(svc, GUILD, CHANNEL, match.id)
    assert f"Game #{match.id} was never played to an end (it was cancelled)," in missing.value.message


async def test_a_restart_between_commitment_and_reveal_loses_nothing(tmp_path: Path) -> None:
    clock = Clock()
    svc = await open_service(tmp_path / "r.db", clock)  # secrets from the OS, as in production
    challenged = await svc.challenge(
        game="blockwars", guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB, entropy=9
    )
    await OPENED.pop().close()  # the bot stops between the challenge and its acceptance
    svc = await open_service(tmp_path / "r.db", clock)
    match = await svc.accept(CHANNEL, BOB, entropy=10)
    assert match.seed_commitment == challenged.seed_commitment and match.seed_secret == challenged.seed_secret
    await svc.act(CHANNEL, match.sides["germans"], "setup std")
    await OPENED.pop().close()  # and again in the middle of the game
    svc = await open_service(tmp_path / "r.db", clock)
    match, _ = await svc.current(CHANNEL)
    await svc.act(CHANNEL, match.sides["canadians"], "setup std")
    await svc.act(CHANNEL, match.sides["germans"], "resign")
    _, report = await play_fairness.verify(svc, GUILD, CHANNEL)
    assert report.ok, report.text()


async def test_an_ai_game_is_committed_and_verifies(tmp_path: Path) -> None:
    svc = await open_service(tmp_path / "a.db", Clock(), random.Random(9))
    match = await svc.challenge(
        game="companycommander",
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=ALICE,
        opponent_id=99,
        opponent_is_bot=True,
        ai_level="random",
        entropy=77,
    )
    assert match.status is Status.ACTIVE and inputs_of(match) == ["challenge:77"]
    await svc.ai_turns(CHANNEL)
    match, state = await svc.current(CHANNEL)
    for _ in range(6):
        me = match.side_of(ALICE)
        if me in state.to_act():
            await svc.act(CHANNEL, ALICE, str(state.legal_actions(me)[0]))
        await svc.ai_turns(CHANNEL)
        match, state = await svc.current(CHANNEL)
    await svc.act(CHANNEL, ALICE, "resign")
    _, report = await play_fairness.verify(svc, GUILD, CHANNEL)
    assert report.ok, report.text()


async def test_every_game_of_an_old_database_replays_and_new_games_get_version_2(tmp_path: Path) -> None:
    """tests/fixtures/v1_chance.db was written before chance version 2 (make_v1_chance_db.py): every
    game of every kind there replays exactly from its seed and log, and its finished games verify
    (without a commitment, which they never had)."""
    path = tmp_path / "old.db"
    shutil.copy(FIXTURE, path)
    svc = await open_service(path, Clock(), random.Random(1))
    assert await svc.db.schema_version() >= 6
    matches = await svc.db.list_matches()
    assert {m.game for m in matches} == set(registry.names())
    for match in matches:
        assert match.chance_version == 1 and match.seed_secret is None and match.snapshot is not None
        state, _, log = await svc.replayed(match)
        # the replay ends where the game stored it, read by today's rules (a key they added since,
        # such as Fix Bayonets' count of questions, is not in an old snapshot: ends_as_stored)
        rules = registry.game(match.game)
        assert log and fairness.ends_as_stored(rules, state.to_json(), match.snapshot), (
            f"match {match.id} ({match.game}) no longer replays"
        )
        if match.status is Status.FINISHED:
            _, report = await play_fairness.verify(svc, GUILD, 0, match.id)
            assert report.ok, report.text()
            assert "chance version 1" in report.text()
    # a game in progress plays on with version 1, and a new game in the same database is version 2
    live = next(m for m in matches if m.status is Status.ACTIVE and m.game == "blockwars")
    match, state = await svc.current(live.channel_id)
    side = sorted(state.to_act())[0]
    await svc.act(live.channel_id, match.sides[side], str(state.legal_actions(side)[0]))
    match, state = await svc.current(live.channel_id)
    assert match.chance_version == 1 and state.to_json()["seed"] == match.seed
    new = await svc.challenge(
        game="battlefronts", guild_id=GUILD, channel_id=9000, challenger_id=ALICE, opponent_id=BOB
    )
    assert new.chance_version == 2


@pytest.mark.parametrize("name", registry.names())
def test_no_view_carries_a_version_2_seed(name: str) -> None:
    """The game key is in the state (it is the seed); no side's view, nor the spectator's, holds it."""
    rules = registry.game(name)
    seed = chance.game_seed(b"\x07" * 32, ["challenge:1", "accept:2"])
    digits = str(seed)
    key_digits = str(seed & (2**256 - 1))
    state = rules.new_game({}, seed)
    rng = random.Random(2)
    for _ in range(30):
        for viewer in (*[s.name for s in rules.sides], None):
            text = json.dumps(state.view(viewer).to_json())
            assert digits not in text and key_digits not in text and chance.key_of(seed).hex() not in text
        if state.outcome() is not None:
            break
        side = sorted(state.to_act())[0]
        state.apply(rng.choice(state.legal_actions(side)), side)


@pytest.mark.parametrize("name", registry.names())
def test_a_replay_ends_as_stored_only_if_everything_stored_is_the_replays(name: str) -> None:
    """`ends_as_stored` compares what the stored position holds, read by today's rules: the replay's
    own position passes, a stored position one action short of it fails. (What older rules wrote
    differently is the old-database test above.)"""
    rules = registry.game(name)
    state = rules.new_game({}, 11)
    rng = random.Random(5)
    before = state.to_json()
    while not state.is_over() and json.dumps(state.to_json(), sort_keys=True) == json.dumps(
        before, sort_keys=True
    ):
        side = sorted(state.to_act())[0]
        state.apply(rng.choice(state.legal_actions(side)), side)
    now = state.to_json()
    assert fairness.ends_as_stored(rules, now, json.loads(json.dumps(now)))
    assert not fairness.ends_as_stored(rules, now, json.loads(json.dumps(before)))
