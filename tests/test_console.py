"""The local console, driven as a user drives it: command lines in, text and real PNG files out.

Everything runs on real SQLite files in tmp_path and writes real boards; the only stand-ins are a
clock the tests move by hand and the seeded random generator that picks each legal move.
"""

from __future__ import annotations

import importlib.util
import io
import os
import random
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import GifImagePlugin, Image

from console import Console, amain, main, names
from console.app import POSTGRES_NOTE, command_for
from data import Database, Status
from engine.blockwars import GAME, Side, State
from play import MatchService
from tests.clock import Clock

ROOT = Path(__file__).resolve().parents[1]
HAS_AI = importlib.util.find_spec("engine.blockwars.ai") is not None
START = [
    "/blockwars challenge @bob side:germans",
    "/as bob",
    "/blockwars accept",
    "/as alice",
    "/blockwars setup",
    "/as bob",
    "/blockwars setup std",
]


OPENED: list[Database] = []  # closed after each test (`close_consoles`), whether it closed them or not


@pytest.fixture(autouse=True)
async def close_consoles() -> AsyncIterator[None]:
    """A store left open outlives its test's event loop, and its thread then calls into a closed
    loop (a warning, by chance, in another test)."""
    yield
    while OPENED:
        await OPENED.pop().close()


async def open_console(
    tmp_path: Path, seed: int = 5, clock: Clock | None = None
) -> tuple[Console, io.StringIO]:
    """A console on a fresh store; use it with `close_consoles` in the test's module (its import)."""
    clock = clock or Clock(1_790_000_000.0)
    db = await Database.open(tmp_path / "console.db", clock=clock)
    OPENED.append(db)
    out = io.StringIO()
    svc = MatchService(db, clock=clock, rng=random.Random(seed))
    return Console(svc, boards=tmp_path / "boards", out=out, ai_budget=0.05), out


def decodes(path: Path) -> None:
    with Image.open(path) as im:
        im.verify()


async def drive_to_the_end(console: Console, seed: int, limit: int = 4000) -> list[str]:
    """Feed one command line at a time, choosing each from the legal moves the service lists.

    Seeded random play with a lean towards fights and forward steps, so the game ends in a real
    win within a few hundred actions. Returns every line fed, to replay as a script file.
    """
    rng = random.Random(seed)
    fed: list[str] = []
    for _ in range(limit):
        match, state = await console.service.latest(console.channel_id)
        if not match.status.is_open:
            break
        assert isinstance(state, State)
        side = state.current_player()
        assert side is not None
        name = names.user_name(match.sides[side.value])
        if console.me != name:
            fed.append(f"/as {name}")
            await console.run_lines(fed[-1:])
        legal = await console.service.legal(console.channel_id, console.my_id)
        assert legal, "the player to act always has something legal"
        ahead = 1 if side is Side.CANADIANS else -1
        keen = [a for a in legal if "x" in a or (a[2:3] == "-" and (int(a[4]) - int(a[1])) == ahead)]
        notation = rng.choice(keen if keen and rng.random() < 0.85 else legal)
        cmd, arg = command_for(GAME, state, notation)
        fed.append(f"/blockwars {cmd} {arg}".rstrip())
        assert isinstance(console.out, io.StringIO)  # open_console's
        assert await console.run_lines(fed[-1:]) == 0, console.out.getvalue()[-500:]
    return fed


async def test_a_console_script_plays_a_full_game_to_the_end(tmp_path: Path) -> None:
    console, out = await open_console(tmp_path)
    assert await console.run_lines(START) == 0
    fed = START + await drive_to_the_end(console, seed=11)
    match, state = await console.service.latest(console.channel_id)
    assert match.status is Status.FINISHED
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None, outcome
    text = out.getvalue()
    assert " wins with the " in text and "Game over: " in text and "Traceback" not in text
    actions = await console.service.db.actions(match.id)
    boards = sorted((tmp_path / "boards").glob("general-*.png"))
    assert len(boards) == len(actions) + 1  # the start board, then one per action
    for path in (boards[0], boards[len(boards) // 2], boards[-1]):
        decodes(path)
    assert f"board: {boards[-1]}" in text
    await console.close()

    # The recorded lines, as a script file through the real entry point, replay the same game.
    script = tmp_path / "game.txt"
    script.write_text("\n".join(fed) + "\n/blockwars board\n/blockwars replay\n", encoding="utf-8")
    fresh = tmp_path / "again"
    code = await amain(
        ["--script", str(script), "--db", str(fresh / "g.db"), "--boards", str(fresh / "b"), "--seed", "5"]
    )
    assert code == 0
    db = await Database.open(fresh / "g.db")
    again = (await db.list_matches(channel_id=console.channel_id, limit=1))[0]
    assert [a.notation for a in await db.actions(again.id)] == [a.notation for a in actions]
    assert again.winner_id == match.winner_id and again.status is Status.FINISHED
    await db.close()
    gif = fresh / "b" / f"general-{again.id}-replay.gif"
    with Image.open(gif) as im:
        assert isinstance(im, GifImagePlugin.GifImageFile)
        assert im.n_frames == len(actions) + 1


async def test_a_game_survives_a_restart(tmp_path: Path) -> None:
    db_path, boards = tmp_path / "g.db", tmp_path / "boards"
    first = tmp_path / "first.txt"
    first.write_text("\n".join([*START, "/as alice", "/blockwars move c7-b7"]) + "\n", encoding="utf-8")
    assert await amain(["--script", str(first), "--db", str(db_path), "--boards", str(boards)]) == 0
    second = tmp_path / "second.txt"
    second.write_text("/as alice\n/blockwars move d7-d8\n/blockwars history\n", encoding="utf-8")
    assert await amain(["--script", str(second), "--db", str(db_path), "--boards", str(boards)]) == 0
    db = await Database.open(db_path)
    match = await db.get_channel_match(names.channel_id("general"))
    assert match is not None and match.status is Status.ACTIVE
    assert [a.notation for a in await db.actions(match.id)][-2:] == ["c7-b7", "d7-d8"]
    assert match.turn_player_id == names.user_id("bob")  # two actions: the Canadians' turn now
    await db.close()
    assert (boards / f"general-{match.id}-0004.png").exists()


async def test_two_console_instances_share_the_database(tmp_path: Path) -> None:
    console, _ = await open_console(tmp_path)
    await console.run_lines(START)
    await console.close()
    again, out = await open_console(tmp_path)
    again.me = "alice"
    assert await again.run_lines(["/blockwars move c7-b7", "/blockwars board unit:d6"]) == 0
    assert "Germans: c7-b7" in out.getvalue()
    assert "@alice (Germans) to play, 1 action left" in out.getvalue()
    decodes(tmp_path / "boards" / "general-1-0003-d6.png")
    await again.close()


GARBAGE = [
    "/blockwars",
    "/blockwars fly",
    "/blockwars move",
    "/blockwars move z9-z10",
    "/blockwars move e2-e3",
    "/blockwars fire c6xd4",
    "/blockwars attack c7xd6",
    "/blockwars challenge",
    "/blockwars challenge @bob",
    "/blockwars challenge @carol side:purple",
    "/blockwars challenge @carol hours_per_turn:soon",
    "/blockwars challenge @carol level:hard",
    "/blockwars challenge @alice",
    "/blockwars accept",
    "/blockwars decline",
    "/blockwars draw maybe",
    "/blockwars board unit:z9",
    "/blockwars end now",
    "/as",
    "/as b@d!name",
    "/as bot",
    "/channel this-name-is-far-too-long",
    "hello world",
    "setup everything/everywhere/now",
    "x" * 5000,
    "/blockwars stats @",
    "\x00\x01 ;; DROP TABLE matches",
]


async def test_garbage_gets_friendly_one_line_errors_and_changes_nothing(tmp_path: Path) -> None:
    console, out = await open_console(tmp_path)
    await console.run_lines(START)
    before = await console.service.db.get_channel_match(console.channel_id)
    console.me = "alice"
    out.truncate(0)
    out.seek(0)
    for line in GARBAGE:
        console.refused = 0
        assert await console.handle(line) is not None
        assert console.refused == 1, f"{line!r} was not refused:\n{out.getvalue()[-300:]}"
    after = await console.service.db.get_channel_match(console.channel_id)
    assert after == before
    text = out.getvalue()
    assert "Traceback" not in text and "Something went wrong" not in text
    errors = [ln for ln in text.splitlines() if ln.startswith("✗")]
    assert len(errors) == len(GARBAGE)
    assert all(len(ln) < 300 for ln in errors)
    await console.close()


async def test_deadlines_apply_in_the_console_too(tmp_path: Path) -> None:
    clock = Clock(1_790_000_000.0)
    console, out = await open_console(tmp_path, clock=clock)
    start = START.copy()
    start[0] += " hours_per_turn:1"
    await console.run_lines(start)
    assert "Due in 1 hour" in out.getvalue()
    clock.now += 2 * 3600
    await console.run_lines(["/blockwars history"])
    text = out.getvalue()
    assert "@alice ran out of time and loses the game." in text
    # the notice said why: the status says who won, not the reason again
    assert "Game over: @bob wins with the Canadians.\n" in text and "**" not in text
    assert "Canadians (the Germans ran out of time)" not in text
    await console.close()


@pytest.mark.skipif(not HAS_AI, reason="engine/blockwars/ai.py is not there yet")
async def test_playing_the_ai_writes_its_boards_too(tmp_path: Path) -> None:
    console, out = await open_console(tmp_path)
    assert await console.run_lines(["vs ai easy", "/blockwars setup"]) == 0
    match, state = await console.service.current(console.channel_id)
    assert match.ai_player_id == names.BOT_ID and match.ai_level == "easy"
    me = match.side_of(console.my_id)
    assert me is not None and isinstance(state, State)
    assert state.current_player() is Side(me)  # the AI has played everything it owed
    text = out.getvalue()
    assert "@alice takes on the AI (easy, about 1,200): a game of Block Wars." in text
    assert (
        len(list((tmp_path / "boards").glob("*.png"))) == len(await console.service.db.actions(match.id)) + 1
    )
    if me == "germans":  # move, end, and the AI answers with its whole turn
        assert await console.run_lines(["/blockwars move c7-b7", "/blockwars end"]) == 0
        assert "Canadians:" in out.getvalue().split("/blockwars end")[-1]
    await console.close()


def test_the_demo_plays_a_whole_game_and_writes_the_replay(tmp_path: Path) -> None:
    boards = tmp_path / "boards"
    code = main(["--demo", "--boards", str(boards), "--seed", "3", "--ai-budget", "0.02"])
    assert code == 0
    pngs = sorted(boards.glob("demo-*.png"))
    gifs = list(boards.glob("demo-*-replay.gif"))
    assert len(pngs) > 20 and len(gifs) == 1
    decodes(pngs[-1])
    with Image.open(gifs[0]) as im:
        assert isinstance(im, GifImagePlugin.GifImageFile)
        assert im.n_frames == len(pngs)  # one frame per board: the start and every action


def test_python_m_console_reads_a_script_from_stdin(tmp_path: Path) -> None:
    script = "\n".join([*START, "/as alice", "e7-e8", "/blockwars board", "/quit", "/blockwars end"]) + "\n"
    env = {**os.environ, "DATABASE_PATH": str(tmp_path / "env.db"), "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "console", "--script", "-", "--boards", str(tmp_path / "b")],
        input=script,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Germans: e7-e8" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr
    assert (tmp_path / "env.db").exists()  # DATABASE_PATH is honoured
    boards = [ln.split("board: ", 1)[1] for ln in proc.stdout.splitlines() if "board: " in ln]
    assert len(boards) == 5  # start, two set-ups, the move, and /blockwars board
    # the move leaves the turn with alice: it and her own board are for her alone until it passes
    assert sum(1 for ln in proc.stdout.splitlines() if ln.startswith("(only you see this) board: ")) == 2
    decodes(Path(boards[-1]))
    assert "/blockwars end" not in proc.stdout  # nothing after /quit runs


async def test_the_console_stays_on_its_sqlite_file_when_database_url_names_postgresql(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A console on the bot's PostgreSQL would sweep the Discord games and print their notices where
    no player reads them: it keeps to its SQLite file, and says so instead of ignoring the setting."""
    monkeypatch.setenv("DATABASE_URL", "postgresql://nobody:hunter2@127.0.0.1:1/never")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "console.db"))
    script = tmp_path / "script.txt"
    script.write_text("\n".join([*START, "/as alice", "e7-e8"]) + "\n", encoding="utf-8")
    code = await amain(["--script", str(script), "--boards", str(tmp_path / "b")])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Germans: e7-e8" in out
    assert err.strip() == POSTGRES_NOTE.format(path=tmp_path / "console.db")
    assert "never in PostgreSQL" in err and "hunter2" not in err + out
    db = await Database.open(tmp_path / "console.db")
    OPENED.append(db)
    assert [m.game for m in await db.list_matches()] == ["blockwars"]  # the game is in the file


def test_timestamps_and_mentions_read_naturally(tmp_path: Path) -> None:
    clock = Clock(1_790_000_000.0)
    svc = MatchService.__new__(MatchService)
    svc.clock = clock
    console = Console(svc, boards=tmp_path, out=io.StringIO())
    bob = names.user_id("bob")
    m = console.markup
    due = m.relative(int(clock.now) + 3 * 86400)
    text = f"{m.mention(bob)}, your move is due {due}. {m.mention(names.BOT_ID)}"
    assert text.startswith("@bob, your move is due in 3 days (")
    assert text.endswith("@bot")
    assert m.relative(int(clock.now) - 120).startswith("2 minutes ago")
    # a tournament game's clock in a round of 3 days: 36 hours, not "in 2 days" (as every other time)
    assert m.relative(int(clock.now) + 36 * 3600).startswith("in 1 day 12 hours (")
    assert m.relative(int(clock.now) + 3 * 86400 - 20).startswith("in 3 days (")  # a day, not 23.99 hours
    assert m.relative(int(clock.now) + 5).startswith("in 5 seconds")
    assert m.strong("Your move") == "Your move" and m.channel(names.channel_id("general")) == "#general"


@given(st.text(alphabet=names.ALPHABET, min_size=1, max_size=names.MAX_LEN))
def test_names_round_trip_through_ids(name: str) -> None:
    uid = names.user_id(name)
    if name in names.BOT_NAMES:
        assert uid == names.BOT_ID
    else:
        assert names.user_name(uid) == name and uid < 2**63
    assert names.channel_name(names.channel_id(name)) == name


async def test_the_ais_turn_is_one_board_file_and_none_overwrites_another(tmp_path: Path) -> None:
    """The AI plays two actions (and deploys) in a row: one board for its whole turn (one board per
    hand-off, as in Discord), and no board file overwrites another; `history` keeps every step."""
    # seed 3: alice gets the Germans and the AI's deal gives it a turn of several actions (the side
    # and the cards come from the game's committed seed, docs/fairness.md)
    console, out = await open_console(tmp_path, seed=3)
    assert await console.run_lines(["vs ai easy", "setup", "e6-e5", "d6-d5"]) == 0
    match, _ = await console.service.latest(console.channel_id)
    boards = [Path(ln.split("board: ", 1)[1]) for ln in out.getvalue().splitlines() if "board: " in ln]
    assert len(boards) == len(set(boards)), "a board file was written twice"
    actions = await console.service.db.actions(match.id)
    ai_turns = sum(
        1
        for n, row in enumerate(actions)
        if row.player_id == names.BOT_ID and (n == 0 or actions[n - 1].player_id != names.BOT_ID)
    )
    ai_actions = sum(1 for row in actions if row.player_id == names.BOT_ID)
    assert ai_actions > ai_turns >= 2  # the AI played turns of several actions
    assert len(boards) == 1 + 3 + ai_turns  # the start, one per command of ours, one per AI turn
    assert all(p.exists() for p in boards)
    history = out.getvalue()
    assert await console.run_lines(["history count:50"]) == 0
    listed = out.getvalue()[len(history) :]
    assert sum(1 for ln in listed.splitlines() if re.match(r"\d+\. ", ln)) == len(actions)
    await console.close()


def test_ctrl_c_clears_a_half_typed_line_and_ctrl_d_leaves(tmp_path: Path) -> None:
    """At the interactive prompt (a terminal), Ctrl-C throws away the line being typed and prompts
    again, as shells do (it used to quit the whole console); Ctrl-D at an empty prompt leaves, games
    kept, without a traceback."""
    import pty
    import select
    import signal
    import time

    main_fd, child_fd = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DISCORD_TOKEN", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "console", "--db", str(tmp_path / "i.db"), "--boards", str(tmp_path / "b")],
        stdin=child_fd,
        stdout=child_fd,
        stderr=child_fd,
        cwd=ROOT,
        env=env,
    )
    os.close(child_fd)
    seen = b""

    def read_until(wanted: bytes, after: int, seconds: float = 20.0) -> None:
        """Read what the console prints until `wanted` appears past byte `after` (or time is up)."""
        nonlocal seen
        end = time.monotonic() + seconds
        while time.monotonic() < end and wanted not in seen[after:]:
            ready, _, _ = select.select([main_fd], [], [], 0.1)
            if ready:
                try:
                    seen += os.read(main_fd, 4096)
                except OSError:
                    return

    prompt = b"#general> "
    try:
        read_until(prompt, 0)
        assert prompt in seen, seen[-500:]
        os.write(main_fd, b"/who")  # half a command, then Ctrl-C
        read_until(b"/who", 0, 20.0)
        # as a person would, a moment after the last key: readline echoes a key before it is back
        # waiting for the next, and a signal in that instant is seen only at the next key (CPython's
        # readline loop; a bare input() with readline does the same)
        time.sleep(0.5)
        mark = len(seen)
        proc.send_signal(signal.SIGINT)
        read_until(prompt, mark, 20.0)
        assert proc.poll() is None, seen.decode(errors="replace")[-500:]  # still there
        assert prompt in seen[mark:], seen[mark:]  # a fresh prompt at once, not at the next key
        mark = len(seen)
        os.write(main_fd, b"ami\n")  # what is left of the line after Ctrl-C: "ami", not "/whoami"
        read_until(prompt, mark)
        assert b"'ami' is not a command" in seen[mark:], seen[mark:]
        assert b"You are @alice" not in seen[mark:]
        mark = len(seen)
        os.write(main_fd, b"/whoami\n")
        read_until(prompt, mark)
        assert b"You are @alice in #general." in seen[mark:]
        os.write(main_fd, b"\x04")  # Ctrl-D at an empty prompt
        code = proc.wait(10)
        read_until(b"\x00", len(seen), 0.3)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main_fd)
    text = seen.decode(errors="replace")
    assert code == 0, text[-800:]
    assert "Traceback" not in text


async def before_a_dogfight(tmp_path: Path) -> tuple[Console, io.StringIO]:
    """A console whose Block Wars game has Alice's Germans to attack e4 from e5, the decks stacked
    so that the attack leaves Bob's Canadians a dogfight to answer."""
    from engine.blockwars.position import build

    console, out = await open_console(tmp_path)
    await console.run_lines(START)
    match, _ = await console.service.current(console.channel_id)
    state = build(
        {"e5": "G", "e4": "C", "a8": "G", "h1": "C"},
        decks={Side.GERMANS: ["JH", "9S"], Side.CANADIANS: ["5C", "3D"]},
    )
    await console.service.db.update_match(
        match.id,
        expected_version=match.version,
        snapshot=state.to_json(),
        turn_player_id=match.sides["germans"],
    )
    console.service.forget(console.channel_id)
    return console, out


async def test_a_bare_decline_answers_the_decision_in_a_game(tmp_path: Path) -> None:
    """`decline` during a pending dogfight declines the dogfight (it used to be taken for declining
    the long-accepted challenge: "the game has started")."""
    console, out = await before_a_dogfight(tmp_path)
    assert await console.run_lines(["/as alice", "/blockwars attack e5xe4", "/as bob", "decline"]) == 0
    text = out.getvalue()
    assert "The Canadians decline the dogfight" in text
    assert "has started" not in text
    await console.close()


async def test_not_your_turn_quotes_the_other_players_prompt_as_theirs(tmp_path: Path) -> None:
    """Bob acted while Alice must say where her aircraft strafes, and was told "The game waits for
    this:" then Alice's prompt, "your aircraft …", as if the aircraft were his. The refusal names
    whom the game waits for and quotes their prompt as theirs."""
    console, out = await before_a_dogfight(tmp_path)
    lines = ["/as alice", "/blockwars attack e5xe4", "/as bob", "decline", "/blockwars move h1-h2"]
    await console.run_lines(lines)
    text = out.getvalue()
    refusal = text[text.index("✗ It is not your turn") :]
    head, quoted = refusal.split("\n", 2)[:2]
    assert head == "✗ It is not your turn to act: the game waits for @alice (Germans). Their prompt reads:"
    assert quoted.startswith("> @alice (Germans) must decide: your aircraft A may strafe"), quoted
    await console.close()


async def test_accept_draw_and_decline_draw_are_the_draw_answers_the_game_names(tmp_path: Path) -> None:
    """The game tells the player "accept draw or decline draw": typed bare in the console, those
    words answer the offer (they used to be read as the challenge's accept, "takes no options")."""
    console, out = await open_console(tmp_path)
    await console.run_lines(START)
    # a draw is declined on one's own turn: Bob answers once Alice has handed hers over
    lines = ["/as alice", "offer draw", "a6-a5; b6-b5", "/as bob", "decline draw"]
    assert await console.run_lines(lines) == 0
    # who may answer, and how, is said under the board, as on Discord (it was not said at all)
    assert "@bob: accept or decline the draw (`/blockwars draw accept` or `/blockwars draw decline`)." in (
        out.getvalue()
    )
    assert "The Canadians decline the draw" in out.getvalue()
    assert "takes no options" not in out.getvalue()
    match, state = await console.service.current(console.channel_id)
    assert match.status is Status.ACTIVE and not state.is_over()
    assert await console.run_lines(["offer draw", "/as alice", "accept draw"]) == 0
    match, state = await console.service.latest(console.channel_id)
    outcome = state.outcome()
    assert match.status is Status.FINISHED and outcome is not None and outcome.winner is None
    assert "takes no options" not in out.getvalue()
    await console.close()


async def test_wargames_games_lists_every_game_as_in_discord(tmp_path: Path) -> None:
    from engine import registry

    console, out = await open_console(tmp_path)
    assert await console.run_lines(["/wargames games"]) == 0
    listed = out.getvalue()
    for game in registry.games():
        about = game.description.removeprefix("Play ")  # what the game is, the title first
        assert about.startswith(game.title)
        assert f"/{game.name}: {about}. Start with `/{game.name} challenge`." in listed
    assert await console.run_lines(["/wargames admin sync"]) == 1
    assert "The /wargames commands here: games, help [game], mygames, away days:N, back" in out.getvalue()
    await console.close()


def test_turn_lengths_read_naturally() -> None:
    from console.app import hours_text

    assert [hours_text(s) for s in (3600, 7200, 5400, 72 * 3600)] == [
        "1 hour",
        "2 hours",
        "1.5 hours",
        "72 hours",
    ]


async def test_refusals_and_lists_name_players_in_the_consoles_words(tmp_path: Path) -> None:
    """The service words its refusals in the console's markup (no regex reads Discord's back out):
    players are @names, deadlines local times, and no Discord syntax reaches the terminal."""
    console, out = await open_console(tmp_path)
    lines = [
        "/blockwars challenge @bob side:germans",
        "/blockwars accept",  # the challenger: wait for @bob
        "/as carol",
        "/blockwars accept",  # only @bob
        "/as bob",
        "/blockwars accept",
        "/wargames mygames",
        "/blockwars setup std",  # the Germans deploy first: not bob's turn
        "/blockwars stats",
    ]
    await console.run_lines(lines)
    text = out.getvalue()
    assert "✗ You made this challenge: wait for @bob to accept it." in text
    assert "✗ Only @bob can accept this challenge." in text
    assert "@bob accepts." in text and "The game is on: @alice the Germans, @bob the Canadians." in text
    assert "Your open game here (not waiting on you):" in text
    waits = "✗ It is not your turn to act: the game waits for @alice (Germans). Their prompt reads:"
    assert f"{waits}\n> @alice (Germans): " in text
    assert "@bob in Block Wars: 0 won, 0 lost, 0 drawn; rating 1200." in text
    assert not re.search(r"<@|<#|<t:|\*\*", text), text
    await console.close()


async def test_a_replay_counts_its_actions_in_words(tmp_path: Path) -> None:
    """The console's replay said "(0 actions, 3 KiB)" before anyone had moved."""
    console, out = await open_console(tmp_path)
    await console.run_lines([*START[:3], "/blockwars replay"])
    said = out.getvalue()
    assert re.search(
        r"replay: \S+-replay\.gif \(\d+ KiB\): no moves have been played, so it shows only", said
    )
    assert "0 actions" not in said
    await console.run_lines([*START[3:5], "/blockwars replay"])
    assert re.search(r"replay: \S+ \(\d+ KiB\): 1 action\.\n", out.getvalue()), out.getvalue()
    await console.close()
