"""Settings come from the environment and `.env`, with one database default for the bot and the console."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from bot import HEALTH_STALE, health
from settings import load_settings

KEYS = ("DISCORD_TOKEN", "DATABASE_PATH", "DATA_DIR", "LOG_LEVEL", "RENDER_PROCESSES")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_dotenv_fills_in_what_the_environment_lacks(clean_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (clean_env / ".env").write_text("DISCORD_TOKEN=from-the-file\nLOG_LEVEL=debug\nDATA_DIR=store\n")
    monkeypatch.setenv("LOG_LEVEL", "WARNING")  # the environment wins over the file
    settings = load_settings()
    assert settings.token == "from-the-file" and settings.log_level == "WARNING"
    assert settings.database_path == Path("store") / "wargames.db"
    assert "from-the-file" not in repr(settings)
    for key in ("DISCORD_TOKEN", "DATA_DIR"):  # load_dotenv wrote them into this process
        os.environ.pop(key, None)


def test_one_database_default_and_the_old_file_is_kept(clean_env: Path) -> None:
    assert load_settings({}).database_path == Path("data") / "wargames.db"
    assert load_settings({"DATA_DIR": "/data"}).database_path == Path("/data/wargames.db")
    old = clean_env / "vol" / "blockwars.db"
    old.parent.mkdir()
    old.write_bytes(b"")
    assert load_settings({"DATA_DIR": str(old.parent)}).database_path == old  # an upgrade keeps its games
    assert load_settings({"DATA_DIR": "x", "DATABASE_PATH": "elsewhere.db"}).database_path == Path(
        "elsewhere.db"
    )
    assert load_settings({}).health_path == Path("data") / "wargames.health.json"


def docker_env_file(path: Path) -> dict[str, str]:
    """What `docker run --env-file` (and compose's `env_file`) sets in a container: every line with
    `=` is set, an empty value included; lines without `=` copy the host's value (none here)."""
    env: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.lstrip()
        if line and not line.startswith("#") and "=" in line:
            name, _, value = line.partition("=")
            env[name] = value
    return env


def test_env_example_copied_for_docker_keeps_the_images_data_volume() -> None:
    """docs/discord.md: `cp .env.example .env`, then `docker run --env-file .env`. The image sets
    DATA_DIR=/data, its volume; an empty `DATA_DIR=` in the file would replace it, and the bot would
    look for its database in the image's code folder."""
    root = Path(__file__).resolve().parent.parent
    assert "DATA_DIR=/data" in (root / "Dockerfile").read_text(encoding="utf-8")
    container = {"DATA_DIR": "/data"} | docker_env_file(root / ".env.example")
    settings = load_settings(container)
    assert settings.database_path == Path("/data/wargames.db")
    assert settings.health_path == Path("/data/wargames.health.json")


def image_env() -> dict[str, str]:
    """The variables the Dockerfile's ENV sets (continued lines included)."""
    root = Path(__file__).resolve().parent.parent
    text = (root / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    line = next(ln for ln in text.splitlines() if ln.startswith("ENV "))
    return dict(word.split("=", 1) for word in line.split()[1:])


def test_an_old_env_file_with_an_empty_data_dir_keeps_the_docker_volume(tmp_path: Path) -> None:
    """`.env` files copied from the example before it commented the line out hold `DATA_DIR=`:
    Docker then sets DATA_DIR empty, replacing the image's /data, and the bot looked for its games
    in the code folder, off the volume. An empty DATA_DIR now falls back to the image's default."""
    old = tmp_path / ".env"
    old.write_text("DISCORD_TOKEN=abc\nDATA_DIR=\n", encoding="utf-8")
    container = image_env() | docker_env_file(old)
    assert container["DATA_DIR"] == ""
    settings = load_settings(container)
    assert settings.database_path == Path("/data/wargames.db")
    assert settings.health_path == Path("/data/wargames.health.json")
    # Outside the image (`make run`), an empty DATA_DIR is still data/ beside the code.
    assert load_settings({"DATA_DIR": ""}).database_path == Path("data") / "wargames.db"
    # And a DATA_DIR that names a folder wins, in the image too.
    assert load_settings(container | {"DATA_DIR": "/srv/games"}).database_path == Path(
        "/srv/games/wargames.db"
    )


def test_health_reads_the_running_bots_note(tmp_path: Path) -> None:
    note = tmp_path / "wargames.health.json"
    now = time.time()
    assert health(note, now)[0] is False  # no bot has run
    note.write_text(json.dumps({"ready": True, "at": now - 5, "latency_ms": 42}))
    assert health(note, now) == (True, "connected (gateway latency 42 ms)")
    note.write_text(json.dumps({"ready": False, "at": now - 5}))
    assert health(note, now)[0] is False
    note.write_text(json.dumps({"ready": True, "at": now - HEALTH_STALE - 1}))
    ok, why = health(note, now)
    assert not ok and "stuck or stopped" in why


def test_shards_and_the_database_url_are_read_and_checked(clean_env: Path) -> None:
    """SHARD_COUNT and SHARD_IDS pick a process's shards; several processes need PostgreSQL; a bad
    value ends the start in one line (SystemExit with the reason), never a traceback."""
    plain = load_settings({})
    assert (plain.shard_count, plain.shard_ids, plain.database_url) == (None, None, None)
    assert plain.database == Path("data") / "wargames.db" and plain.serves(12345 << 22)
    url = "postgresql://wargames:secret@db/wargames"
    two = load_settings({"SHARD_COUNT": "4", "SHARD_IDS": "1-2", "DATABASE_URL": url})
    assert (two.shard_count, two.shard_ids, two.database) == (4, (1, 2), url)
    assert [two.serves(n << 22) for n in range(4)] == [False, True, True, False]  # Discord's rule
    assert "secret" not in repr(two)
    assert two.health_path.name == "wargames.shards-1-2.health.json"  # one per process
    everything = load_settings({"SHARD_COUNT": "2", "SHARD_IDS": "0,1"})  # all shards: SQLite will do
    assert everything.database_url is None and everything.shard_ids == (0, 1)
    for env, says in (
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "set DATABASE_URL"),
        ({"SHARD_IDS": "1"}, "needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2", "DATABASE_URL": url}, "from 0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "one", "DATABASE_URL": url}, "shard numbers"),
        ({"SHARD_COUNT": "0"}, "at least 1"),
        ({"DATABASE_URL": "mysql://x@y/z"}, "postgresql://"),
    ):
        with pytest.raises(SystemExit, match=says):
            load_settings(env)


def test_the_ais_think_time_is_one_a_checker_can_replay(clean_env: Path) -> None:
    """Every AI decision's record holds the bot's budget, and the AI check replays only one above
    nothing and at most a minute: a bot started with another would play games nobody could check,
    so it does not start (docs/fairness.md, "Checking the AI")."""
    assert load_settings({}).ai_budget_seconds is None  # each level's own
    assert load_settings({"AI_BUDGET_SECONDS": " 2.5 "}).ai_budget_seconds == 2.5
    assert load_settings({"AI_BUDGET_SECONDS": "60"}).ai_budget_seconds == 60.0
    for text, says in (
        ("0", "not 0"),
        ("-1", "not -1"),
        ("61", "not 61"),
        ("inf", "not inf"),
        ("nan", "not nan"),
    ):
        with pytest.raises(SystemExit, match=f"at most 60 seconds, {says}. Leave it empty"):
            load_settings({"AI_BUDGET_SECONDS": text})
    with pytest.raises(SystemExit, match="must be a number of seconds, not 'soon'"):
        load_settings({"AI_BUDGET_SECONDS": "soon"})


def test_a_mistyped_number_or_log_level_is_named_for_what_it_is(clean_env: Path) -> None:
    """An admin's typo ends the start in one line saying what the setting wants: SHARD_COUNT is a
    count of shards, not "a Discord id", and a LOG_LEVEL nobody knows was read as INFO unseen."""
    with pytest.raises(SystemExit, match=r"^SHARD_COUNT must be a whole number of shards, not 'two'$"):
        load_settings({"SHARD_COUNT": "two"})
    with pytest.raises(SystemExit, match=r"^DEV_GUILD_ID must be a number \(a Discord id\), not 'x'$"):
        load_settings({"DEV_GUILD_ID": "x"})
    with pytest.raises(SystemExit, match=r"^LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not 'chatty'$"):
        load_settings({"LOG_LEVEL": "chatty"})
    assert load_settings({"LOG_LEVEL": " warning "}).log_level == "WARNING"
    assert load_settings({"LOG_LEVEL": ""}).log_level == "INFO"


def test_the_bots_help_names_the_consoles_options(capsys: pytest.CaptureFixture[str]) -> None:
    """`make run ARGS=--help` listed --sync, --move-to and --health only: a newcomer without a token
    never learnt of --demo or --db, which the same command takes for the console."""
    from bot import parse_args

    with pytest.raises(SystemExit):
        parse_args(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Without DISCORD_TOKEN the local console starts" in text and "python -m console --help" in text


def test_a_sweep_shorter_than_five_seconds_counts_as_five(clean_env: Path) -> None:
    """.env.example: SWEEP_SECONDS is at least 5. `0` was read as the default, 60, while `1` was 5:
    the smaller number gave the rarer sweep."""
    assert load_settings({}).sweep_seconds == 60.0
    swept = [load_settings({"SWEEP_SECONDS": t}).sweep_seconds for t in ("0", "1", "-3", "30")]
    assert swept == [5, 5, 5, 30]
