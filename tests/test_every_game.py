"""One whole game of every hosted game, through the real bot on the fake Discord and through the console.

Two players challenge, accept with the button and play to the end by the game's own slash commands
(each action typed as a player would type it, chosen at random, seeded, from what the bot says is
legal): the same path every game takes, with nothing of the game known here but its registry entry.
A game that plays itself out here, through these layers, needs no change to them.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
import random
import re
from pathlib import Path
from typing import cast

import pytest
from PIL import GifImagePlugin, Image

from cogs.core import Core
from console import Console, names
from console.app import command_for
from data import Database, Status
from engine import fairness, registry
from play import MatchService
from play.undo import MID_TURN_NOTE
from render.replay import FRAME_MS
from tests.botkit import BotKit
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.fixtures import ForwardErrors, HandClock

GAMES = registry.names()
MAX_ACTIONS = 900  # random play ends every hosted game well before this; past it the game resigns
# Actions typed as one command at most, where the same player acts again: a player may, and each
# command is a board posted, the test's main cost (with two at most, the six games took 59 s of CPU
# against 31 s, 2026-11-29)
CHAIN = 5
# The seeds of the random play, 7 through Discord and 11 through the console, but where another ends
# the game sooner: each test's cost is its game's length (a board each command), and any whole game
# is what it asks for. Seeds 1-5 to 1-8 tried (2026-11-29, CPU-s): Block Wars through Discord 7.4 -> 4.1,
# through the console 7.9 -> 3.2; Fix Bayonets through Discord 5.5 -> 2.0; Company Commander through
# Discord 3.3 -> 1.1, through the console 3.5 -> 0.6. Combined Arms' games stay as long (suite-trim).
DISCORD_SEEDS = {"blockwars": 8, "fixbayonets": 1, "companycommander": 4}
CONSOLE_SEEDS = {"blockwars": 2, "companycommander": 1}


def png(message: FakeMessage) -> Image.Image:
    image = Image.open(io.BytesIO(message.attachment("board.png").data))
    image.load()
    return image


def png_named(message: FakeMessage, filename: str) -> Image.Image | None:
    found = [a for a in message.attachments if a.filename == filename]
    if not found:
        return None
    image = Image.open(io.BytesIO(found[0].data))
    image.load()
    return image


@pytest.mark.parametrize("name", GAMES)
async def test_a_whole_game_through_discord(name: str, fake_discord: FakeDiscord, start_bot, botkit: BotKit):
    fake = fake_discord
    # No quiet spell after each command: what the bot does after answering (a DM of what the other
    # drew, a board) is awaited below by `core.idle()`, and every message made until then is checked.
    fake.settle = 0
    guild = fake.add_guild("Front", channels=("general",))
    channel = guild.channel("general")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    errors = ForwardErrors(fake)
    logging.getLogger("bot").addHandler(errors)
    bot = await botkit.build(clock=HandClock(), rng=random.Random(3))
    try:
        await start_bot(bot)
        core = cast(Core, bot.get_cog("Core"))  # load_extension imports it afresh: not `isinstance`
        game = registry.game(name)
        assert any(c["name"] == name for c in fake.synced_commands())
        first = game.sides[0].name
        challenged = await fake.slash(alice, channel, name, "challenge", {"opponent": bob, "side": first})
        assert not challenged.ephemeral and game.title in challenged.content
        for spec in game.options:  # a limit of ours is always stated, so nobody is surprised by it
            if spec.limit:
                assert f"{spec.label}: {spec.stated(spec.default)}" in challenged.content
        database = bot.database
        assert database is not None
        match = await database.get_channel_match(channel.id)
        assert match is not None and match.game == name
        accepted = await fake.click(bob, challenged.message, f"bw:accept:{match.id}")
        png(accepted.message)
        early = await fake.slash(bob, channel, "wargames", "verify", {})  # the seed is secret until the end
        assert early.ephemeral and "still being played" in early.content
        players = {alice.id: alice, bob.id: bob}
        rng = random.Random(DISCORD_SEEDS.get(name, 7))
        for n in range(MAX_ACTIONS):
            match = await database.get_channel_match(channel.id)
            if match is None:
                break
            live, state = await bot.service.current(channel.id)
            waiting = sorted(state.to_act())
            user = players[live.sides[waiting[0]]]
            legal = await bot.service.legal(channel.id, user.id)
            assert legal, f"{user.username} owes an action but the bot lists none"
            action = rng.choice(legal) if n < MAX_ACTIONS - 1 else "resign"
            after = state.clone()
            chained = action
            while chained != "resign" and rng.random() < 0.6 and action.count(";") < CHAIN - 1:
                # Several actions as one command, while the same player acts again after the last.
                after.apply(game.parse(chained), waiting[0])
                if waiting[0] not in after.to_act() or after.is_over():
                    break
                chained = rng.choice([str(a) for a in after.legal_actions(waiting[0])])
                action += "; " + chained
            made_before = len(fake.messages)
            await fake.slash(user, channel, name, "play", {"action": action})
            await core.idle()  # what follows a command (a DM of what the other drew) is done before the next
            made = list(fake.messages.values())[made_before:]
            in_channel = [m for m in made if m.kind != "dm"]  # DMs: what the other was dealt
            public = [m for m in in_channel if not m.ephemeral]
            _, after = await bot.service.latest(channel.id)
            if not public and not after.is_over() and waiting[0] in after.to_act():
                # the mover's turn goes on: their board is theirs alone until the hand-off (issue 30)
                (board,) = in_channel
                assert board.ephemeral and MID_TURN_NOTE in board.content, board.content
                png(board)
                continue
            assert len(public) == 1, [m.content for m in made]
            board = public[0]
            png(board)
            assert board.content.strip()
            # anything else was for the mover's eyes only (what they drew, what they set up)
            assert all(
                m.ephemeral and m.content.startswith("Only you see") for m in in_channel if m is not board
            )
        fake.settle = 0.01  # the commands after the game are answered as any others
        finished = (await database.list_matches(channel_id=channel.id, limit=1))[0]
        assert finished.status is Status.FINISHED
        last = fake.messages_in(channel)[-1]
        assert "Game over" in last.content
        # The dice: committed before the accepting click, revealed at the end and nowhere before,
        # checked by /wargames verify and in the record /wargames export sends (issue 30).
        secret, commitment = finished.seed_secret, finished.seed_commitment
        assert secret and commitment and hashlib.sha256(bytes.fromhex(secret)).hexdigest() == commitment
        assert commitment[:16] in challenged.content and commitment[:16] in accepted.message.content
        assert secret in last.content
        assert all("Game over" in m.content for m in fake.messages_in(channel) if secret in m.content)
        verified = await fake.slash(bob, channel, "wargames", "verify", {})
        assert verified.ephemeral and verified.content.startswith(f"**Game #{finished.id}**")
        assert "Verified" in verified.content and "❌" not in verified.content
        exported = await fake.slash(
            fake.add_user("dora"), channel, "wargames", "export", {"game": finished.id}
        )
        assert exported.ephemeral
        record = json.loads(exported.message.attachment(f"{name}-game-{finished.id}.json").data)
        assert record["secret"] == secret and fairness.check(record).ok
        history = await fake.slash(alice, channel, name, "history", {"count": 10})
        assert history.ephemeral and history.content.strip()
        stats = await fake.slash(alice, channel, name, "stats", {})
        assert game.title in stats.content
        # The final board offers a look back: privately, to each player, with small boards.
        looked = await fake.click(alice, last, f"bw:review:{finished.id}", timeout=90)
        assert looked.ephemeral and looked.content.startswith(f"**Looking back at game #{finished.id}**")
        boards = [png_named(looked.message, f"moment-{n}.png") for n in range(1, 4)]
        moments = looked.content.count("I would have played")
        assert len([b for b in boards if b is not None]) == moments
        assert all(b.width <= 480 for b in boards if b is not None)
        asked = await fake.slash(alice, channel, name, "review", {})  # the same, thought once
        assert asked.ephemeral and asked.content == looked.content
        carol = fake.add_user("carol")
        refused = await fake.click(carol, last, f"bw:review:{finished.id}")
        assert refused.ephemeral and "Only the two players" in refused.content
    finally:
        logging.getLogger("bot").removeHandler(errors)
        await bot.close()


@pytest.mark.parametrize("name", GAMES)
async def test_a_whole_game_through_the_console(name: str, tmp_path: Path):
    clock = HandClock()
    db = await Database.open(tmp_path / "c.db", clock=clock)
    out = io.StringIO()
    console = Console(MatchService(db, clock=clock, rng=random.Random(5)), boards=tmp_path / "b", out=out)
    game = registry.game(name)
    first = game.sides[0].name
    try:
        assert (
            await console.run_lines([f"/{name} challenge @bob side:{first}", "/as bob", f"/{name} accept"])
            == 0
        )
        for spec in game.options:
            if spec.limit:
                assert f"{spec.label}: {spec.stated(spec.default)}" in out.getvalue()
        rng = random.Random(CONSOLE_SEEDS.get(name, 11))
        for _ in range(MAX_ACTIONS):
            match, state = await console.service.latest(console.channel_id)
            if not match.status.is_open:
                break
            side = min(state.to_act())
            who = names.user_name(match.sides[side])
            if console.me != who:
                await console.run_lines([f"/as {who}"])
            legal = await console.service.legal(console.channel_id, console.my_id)
            notation = rng.choice(legal)
            cmd, arg = command_for(game, state, notation)
            line = f"/{name} {cmd} {arg}".rstrip()
            assert await console.run_lines([line]) == 0, out.getvalue()[-600:]
        match, state = await console.service.latest(console.channel_id)
        assert match.status is Status.FINISHED and state.is_over()
        text = out.getvalue()
        assert "Game over" in text and "Traceback" not in text
        assert await console.run_lines(["/wargames verify", "/wargames export"]) == 0
        text = out.getvalue()
        assert "Verified: this game was played" in text and "❌" not in text
        exported = Path(text.rsplit("export: ", 1)[1].split()[0])
        assert fairness.check(json.loads(await asyncio.to_thread(exported.read_text))).ok
        boards = [ln.split("board: ", 1)[1] for ln in text.splitlines() if ln.startswith("board: ")]
        with Image.open(boards[-1]) as im:
            im.verify()
        # the history reads in the game's words: its own headings, no side named twice in a line
        out.seek(0)
        out.truncate()
        assert await console.run_lines([f"/{name} history count:500"]) == 0
        lines = out.getvalue().splitlines()
        headings = [ln for ln in lines if re.fullmatch(r"[A-Z][a-z-]+( \d+)?", ln)]
        assert any(h.startswith(f"{game.turn_label} ") for h in headings), headings[:5]
        assert set(headings) <= {"Set-up"} | {f"{game.turn_label} {n}" for n in range(1, 1000)}, headings
        for info in game.sides:
            assert not [ln for ln in lines if f"{info.title}: the {info.title} " in ln]
    finally:
        await console.close()


# The demo is the console's whole game (above, for every game) typed by the AI, with a replay: asked
# here of the game whose commands can leave a frame unchanged and of the one with the largest boards
# (tests/test_console.py plays the default game's); each of the six took 7-16 s of CPU.
DEMO_GAMES = ("companycommander", "combinedarms")


@pytest.mark.parametrize("name", DEMO_GAMES)
async def test_the_demo_plays_a_whole_game(name: str, tmp_path: Path):
    """`make run ARGS="--demo --game <name>"`: a whole game typed by the AI on both sides, every board
    and the replay written (here with the random level, so it is quick), in files named by the game,
    so one game's demo does not overwrite another's (they were all demo-1-NNNN.png)."""
    from console import amain

    boards = tmp_path / "boards"
    code = await amain(
        ["--demo", "--game", name, "--level", "random", "--seed", "3", "--boards", str(boards)]
    )
    assert code == 0
    pngs = sorted(boards.glob("*.png"))
    (gif,) = boards.glob("*.gif")
    assert gif.name == f"demo-{name}-1-replay.gif"
    assert all(p.name.startswith(f"demo-{name}-1-") for p in pngs)
    with Image.open(gif) as replay:
        assert isinstance(replay, GifImagePlugin.GifImageFile)
        # one frame per board: the start and every command. A command that changes nothing the
        # frame draws (Company Commander's `extra none`) gives a frame equal to the one before, which
        # the GIF keeps as one frame shown for both durations: count frames by their durations.
        durations = []
        for i in range(replay.n_frames):
            replay.seek(i)
            durations.append(replay.info["duration"])
        assert all(d % FRAME_MS == 0 for d in durations[:-1]), durations
        assert sum(d // FRAME_MS for d in durations[:-1]) + 1 == len(pngs)
