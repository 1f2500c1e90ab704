"""`help` that fits a phone: in a game's channel that game's commands first and briefly, with one
line on where the rest is; with no game, the games and how to start one. Discord's message limit
(2,000 characters) is the measure; the console's `/help all` keeps the whole list."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import registry
from play.commands import game_commands
from play.guide import HELP_LIMIT, game_help, overview
from play.markup import PlainMarkup
from tests.test_console import close_consoles, open_console

__all__ = ["close_consoles"]  # the fixture that closes each console's store


@pytest.mark.parametrize("platform", ["discord", "console"])
def test_each_games_help_is_short_and_names_every_command_of_it(platform: str) -> None:
    for game in registry.games():
        text = game_help(game, platform, PlainMarkup(), "More: elsewhere.")  # type: ignore[arg-type]
        assert len(text) <= HELP_LIMIT // 2 and len(text.splitlines()) <= 6, (game.name, text)
        for command in game_commands(game):
            if command.on(platform) and command.listed and command.name != "help":  # type: ignore[arg-type]
                assert f"`{command.name}" in text, (game.name, command.name)
        assert ("`legal`" in text) is (platform == "console")
        assert text.endswith("More: elsewhere.") and "/blockwars" not in text.replace(f"/{game.name}", "")


async def test_the_consoles_help_shows_the_channels_game_else_the_games(tmp_path: Path) -> None:
    """`/help` was about 60 lines, every command of all six games, even in a game's channel."""
    console, out = await open_console(tmp_path)
    await console.run_lines(["/help"])
    said = out.getvalue().split("> /help\n", 1)[1]
    assert said.startswith("The games I host:") and len(said) <= HELP_LIMIT and len(said.splitlines()) <= 10
    assert all(f"/{name}:" in said for name in registry.names()) and "challenge" in said
    await console.run_lines(["/fixbayonets challenge @bob", "/help"])
    said = out.getvalue().rsplit("> /help\n", 1)[1]
    assert said.startswith("Fix Bayonets: each command starts `/fixbayonets`") and "`fight`" in said
    assert "/help all" in said.splitlines()[-1] and "/blockwars" not in said
    await console.run_lines(["/wargames help game:battlefronts"])  # as typed in Discord
    assert out.getvalue().rsplit("help game:battlefronts\n", 1)[1].startswith("Battlefronts: each command")
    await console.run_lines(["/help blockwars", "/fixbayonets help all"])
    said = out.getvalue().split("> /help blockwars\n", 1)[1]
    assert said.startswith("Block Wars: each command starts `/blockwars`")
    full = said.split("> /fixbayonets help all\n", 1)[1]
    assert "/fixbayonets challenge @bob [side:" in full and "/wargames mygames" in full


def test_the_overview_names_every_game_and_how_to_start_one() -> None:
    text = overview(PlainMarkup(), "More: elsewhere.")
    assert len(text) <= HELP_LIMIT // 2 and len(text.splitlines()) == len(registry.names()) + 3
    assert all(f"/{name}: " in text for name in registry.names()) and "`challenge`" in text


async def test_a_games_group_alone_or_mistyped_points_to_that_games_help(tmp_path: Path) -> None:
    """'Which command of /fixbayonets? Type /help for the list.': in a channel without that game,
    `/help` is the overview of the games, not the list asked for."""
    console, out = await open_console(tmp_path)
    await console.run_lines(["/fixbayonets", "/fixbayonets frob"])
    refusals = [ln for ln in out.getvalue().splitlines() if ln.startswith("✗")]
    assert refusals == [
        "✗ Which command of /fixbayonets? `/fixbayonets help` lists them.",
        "✗ /fixbayonets has no command 'frob'. `/fixbayonets help` lists its commands.",
    ]
