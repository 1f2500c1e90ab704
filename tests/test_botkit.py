"""The tests' bot is the bot `python bot.py --sync` builds (tests/botkit.py), and no test builds one
another way: a hand-built `Settings` skips `load_settings` (its parsing, its defaults, its floors),
so such a test runs a configuration no user runs."""

from __future__ import annotations

import ast
import logging
import random
from dataclasses import replace
from pathlib import Path

import discord
import pytest

from settings import load_settings
from tests.botkit import TEST_ENV, BotKit, store_env
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import TEST_TOKEN, HandClock

TESTS = Path(__file__).resolve().parent
# The helper itself. A test of `Settings` or `create_bot` themselves would be named here too.
ALLOWED = {"botkit.py"}
# What builds the bot or its settings by hand, by the module that defines it.
BUILDERS = {("bot", "create_bot"), ("bot", "WargamesBot"), ("settings", "Settings")}


def hand_built(source: str) -> list[str]:
    """Where `source` calls `Settings`, `create_bot` or `WargamesBot` (imported under any name, or
    reached through their module), as "line N: module.name"."""
    tree = ast.parse(source)
    names: dict[str, str] = {}  # the name a builder is known by here -> module.name
    modules: dict[str, str] = {}  # the name `bot` or `settings` is imported as -> the module
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in ("bot", "settings"):
            for alias in node.names:
                if (node.module, alias.name) in BUILDERS:
                    names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in ("bot", "settings"):
                    modules[alias.asname or alias.name] = alias.name
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        called = node.func
        if isinstance(called, ast.Name) and called.id in names:
            found.append((node.lineno, names[called.id]))
        elif (
            isinstance(called, ast.Attribute)
            and isinstance(called.value, ast.Name)
            and (modules.get(called.value.id), called.attr) in BUILDERS
        ):
            found.append((node.lineno, f"{modules[called.value.id]}.{called.attr}"))
    return [f"line {line}: {name}" for line, name in sorted(found)]


def test_no_test_builds_the_bot_or_its_settings_by_hand():
    offenders = {}
    for path in sorted(TESTS.rglob("*.py")):
        where = path.relative_to(TESTS).as_posix()
        if where in ALLOWED:
            continue
        found = hand_built(path.read_text(encoding="utf-8"))
        if found:
            offenders[where] = found
    assert offenders == {}, (
        "build the test bot with the `botkit` fixture (tests/botkit.py), from an environment, as "
        f"`python bot.py` builds it: {offenders}"
    )


def test_the_rule_sees_every_way_of_naming_the_builders():
    source = """
import bot
import settings as cfg
from bot import create_bot as make, WargamesBot
from settings import Settings
from engine.battlefronts.search import Settings as SearchSettings

Settings(token=None)
make(x)
WargamesBot(s)
bot.create_bot(s)
cfg.Settings()
SearchSettings(iterations=1)  # the search's own settings: not the bot's
bot.main([])
"""
    assert hand_built(source) == [
        "line 8: settings.Settings",
        "line 9: bot.create_bot",
        "line 10: bot.WargamesBot",
        "line 11: bot.create_bot",
        "line 12: settings.Settings",
    ]
    assert hand_built("from engine.fixbayonets import search\nsearch.Settings(settle=1.0)\n") == []


def test_the_kits_settings_are_what_main_reads_from_the_same_environment(botkit: BotKit, tmp_path: Path):
    env = {"SWEEP_SECONDS": "1", "AI_BUDGET_SECONDS": "0.5", "LOG_LEVEL": "debug"}
    settings = botkit.settings(env)
    production = load_settings({"DATA_DIR": str(tmp_path), **TEST_ENV, **env}, dotenv=False)
    assert settings == replace(production, sync_commands=True)  # `python bot.py --sync`
    assert settings.token == TEST_TOKEN
    assert settings.sweep_seconds == 5.0 and settings.log_level == "DEBUG"  # load_settings's floor, parsing
    assert settings.database_path == tmp_path / "wargames.db" and settings.health_path.parent == tmp_path
    assert botkit.settings(env, argv=()).sync_commands is False  # `python bot.py`


def test_the_kit_never_reads_the_processs_environment(botkit: BotKit, monkeypatch, tmp_path: Path):
    """A developer's shell (a DATABASE_URL, a `.env`) must not reach a test's bot."""
    monkeypatch.setenv("DATABASE_URL", "postgresql://someone@elsewhere/production")
    monkeypatch.setenv("AI_PROCESSES", "7")
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("SWEEP_SECONDS=600\n", encoding="utf-8")
    settings = botkit.settings()
    assert settings.database_url is None and settings.database == tmp_path / "wargames.db"
    assert settings.ai_processes == load_settings({}, dotenv=False).ai_processes != 7
    assert settings.sweep_seconds == 60.0


async def test_a_built_bot_runs_production_defaults_on_the_tests_clock(
    fake_discord: FakeDiscord, start_bot, botkit: BotKit
):
    clock = HandClock()
    bot = await botkit.build(clock=clock, rng=random.Random(1))
    defaults = load_settings({}, dotenv=False)
    assert bot.painter.processes == bot.settings.render_processes == 0  # TEST_ENV: boards in threads
    assert bot.thinker.processes == defaults.ai_processes == bot.settings.ai_processes
    assert bot.database is not None and bot.database.clock is clock  # opened as `bot.serve` opens it
    guild = fake_discord.add_guild("Front", channels=("general",))
    await start_bot(bot)
    assert any(c["name"] == "wargames" for c in fake_discord.synced_commands())  # --sync
    await botkit.stop(bot)
    assert bot.is_closed()
    again = await botkit.build(clock=clock, rng=random.Random(1))  # a restart opens the file again
    assert again.database is not None and again.database is not bot.database
    await start_bot(again)
    assert again.get_guild(guild.id) is not None


@pytest.mark.parametrize("store", ["wargames.db", "postgresql://u:p@host:5432/db"])
def test_the_store_fixture_is_named_as_production_names_it(store: str):
    env = store_env(store)
    settings = load_settings(env, dotenv=False)
    assert settings.database == (store if store.startswith("postgresql") else Path(store))


async def test_a_start_logs_no_warning_about_voice(start_bot, botkit: BotKit, monkeypatch, caplog):
    """The bot uses no voice: discord.py's warnings that its libraries are missing would read as a
    fault in every start's log (docs/deploy.md, "Logs"). discord.py warns once a process, so the
    flags are set back as a fresh process has them."""
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    with caplog.at_level(logging.WARNING, logger="discord.client"):
        await start_bot(await botkit.build(clock=HandClock(), rng=random.Random(1)))
    assert not [r for r in caplog.records if "voice" in r.getMessage()]
