"""The command table (play/commands.py) and what each adapter builds from it.

Discord's limits are counted on the payload the built `app_commands` tree would send to Discord,
not on the table: a game whose verbs push its group past 25 commands fails here, not at start-up.
"""

from __future__ import annotations

import copy
from typing import Any, cast

import discord
import pytest
from discord import app_commands

from cogs.groups import ROOMS, Handlers, build_group, build_tournament, build_wargames
from cogs.tournament import Tournaments
from console.app import COMMANDS, WARGAMES_COMMANDS, help_text
from console.tournament import USAGE as TOURNAMENT_USAGE
from engine import registry
from engine.protocol import Verb
from play.commands import (
    SUBGROUPS,
    TOURNAMENT,
    WARGAMES,
    game_commands,
    tournament_commands,
    wargames_commands,
)

# Discord's limits on application commands (its API documentation, "Application Commands").
MAX_TOP_LEVEL = 100
MAX_CHILDREN = 25  # subcommands and groups in a group; options in a command
MAX_CHOICES = 25
MAX_NAME = 32
MAX_DESCRIPTION = 100
MAX_CHOICE_TEXT = 100
MAX_COMMAND_CHARS = 4000  # names, descriptions and choices of one top-level command together
SUBCOMMAND, GROUP = 1, 2


def built_payload() -> list[dict[str, Any]]:
    """What the bot would sync: every group built as the core cog builds them, as Discord reads it."""
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    handlers = cast(Handlers, object())  # building calls no handler
    tree.add_command(build_wargames(handlers))
    tree.add_command(build_tournament())
    for game in registry.games():
        tree.add_command(build_group(handlers, game))
    return [command.to_dict(tree) for command in tree.get_commands()]


def _chars(node: dict[str, Any]) -> int:
    total = len(node["name"]) + len(node.get("description", ""))
    for choice in node.get("choices") or ():
        total += len(choice["name"]) + len(str(choice["value"]))
    return total + sum(_chars(o) for o in node.get("options") or ())


def limit_problems(payload: list[dict[str, Any]]) -> list[str]:
    """Every place the payload breaks one of Discord's limits, as a sentence."""
    problems: list[str] = []
    if len(payload) > MAX_TOP_LEVEL:
        problems.append(f"{len(payload)} top-level commands (Discord allows {MAX_TOP_LEVEL})")

    def walk(node: dict[str, Any], path: str, depth: int) -> None:
        if not 1 <= len(node["name"]) <= MAX_NAME:
            problems.append(f"{path}: a name of {len(node['name'])} characters")
        if not 1 <= len(node.get("description", "")) <= MAX_DESCRIPTION:
            problems.append(f"{path}: a description of {len(node.get('description', ''))} characters")
        choices = node.get("choices") or ()
        if len(choices) > MAX_CHOICES:
            problems.append(f"{path}: {len(choices)} choices (Discord allows {MAX_CHOICES})")
        for choice in choices:
            if len(choice["name"]) > MAX_CHOICE_TEXT or len(str(choice["value"])) > MAX_CHOICE_TEXT:
                problems.append(f"{path}: the choice {choice['name'][:30]!r} is too long")
        options = node.get("options") or ()
        if len(options) > MAX_CHILDREN:
            problems.append(f"{path}: {len(options)} subcommands or options (Discord allows {MAX_CHILDREN})")
        for option in options:
            if option["type"] == GROUP and depth != 0:
                problems.append(f"{path} {option['name']}: a group inside a group (too deep)")
            if option["type"] in (SUBCOMMAND, GROUP) and depth > 1:
                problems.append(f"{path} {option['name']}: nested deeper than Discord allows")
            walk(option, f"{path} {option['name']}", depth + (option["type"] in (SUBCOMMAND, GROUP)))

    for command in payload:
        walk(command, f"/{command['name']}", 0)
        if _chars(command) > MAX_COMMAND_CHARS:
            problems.append(f"/{command['name']}: {_chars(command)} characters in all")
    return problems


def test_the_built_tree_keeps_within_discords_limits() -> None:
    payload = built_payload()
    assert {c["name"] for c in payload} == {"wargames", "tournament", *registry.names()}
    assert limit_problems(payload) == []


def test_the_tournaments_have_room_to_grow_outside_wargames() -> None:
    """`/wargames` with its `tournament` subgroup reached 3,959 of the 4,000 characters Discord allows
    one top-level command; `/tournament` is a top-level command of its own, and each keeps room for
    the next commands (a full description is 100 characters; a command with options some 500)."""
    chars = {c["name"]: _chars(c) for c in built_payload()}
    assert chars["wargames"] <= MAX_COMMAND_CHARS - 1000, chars["wargames"]
    assert chars["tournament"] <= MAX_COMMAND_CHARS - 500, chars["tournament"]
    assert max(chars.values()) <= MAX_COMMAND_CHARS


def test_the_limit_check_fails_on_a_group_with_one_command_too_many() -> None:
    """The check can fail: the fullest game's group with one more command, counted as built."""
    fullest = max(registry.games(), key=lambda g: len(game_commands(g)))
    crowded = copy.copy(fullest)
    extra = tuple(Verb(f"extra{n}", "One command too many") for n in range(26))
    crowded.verbs = (*fullest.verbs, *extra)  # type: ignore[misc]
    with pytest.raises(ValueError, match="Discord allows 25"):
        build_group(cast(Handlers, object()), crowded)
    payload = built_payload()
    group = next(c for c in payload if c["name"] == fullest.name)
    group["options"] += [{"type": SUBCOMMAND, "name": "extra", "description": "One too many"}] * (
        MAX_CHILDREN + 1 - len(group["options"])
    )
    group["options"][0] = {**group["options"][0], "description": "x" * 101}
    problems = limit_problems(payload)
    assert any("26 subcommands or options" in p for p in problems), problems
    assert any("a description of 101 characters" in p for p in problems), problems


def test_the_groups_are_the_tables_commands() -> None:
    """Each game's group, /wargames and /tournament hold exactly the table's Discord commands, in its
    order."""
    payload = {c["name"]: c for c in built_payload()}
    for game in registry.games():
        table = [c.name for c in game_commands(game) if c.on("discord")]
        assert [o["name"] for o in payload[game.name]["options"]] == table
    wargames = {o["name"] for o in payload["wargames"]["options"]}
    assert wargames == {c.subgroup or c.name for c in WARGAMES if c.on("discord")}
    for sub in SUBGROUPS:
        built = next(o for o in payload["wargames"]["options"] if o["name"] == sub)
        assert [o["name"] for o in built["options"]] == [c.name for c in wargames_commands("discord", sub)]
    assert "tournament" not in wargames
    tournament = [o["name"] for o in payload["tournament"]["options"]]
    assert tournament == [c.name for c in tournament_commands("discord")]


def test_the_tournament_group_is_counted_with_its_typed_options() -> None:
    """`/tournament` is built from the table like the rest (not declared by its cog), so the
    limit test counts it: its commands, their ranges, the game choices and the role option."""
    payload = {c["name"]: c for c in built_payload()}
    tournament = payload["tournament"]
    assert all(o["type"] == SUBCOMMAND for o in tournament["options"])
    commands = {o["name"]: o for o in tournament["options"]}
    assert list(commands) == [c.name for c in TOURNAMENT]
    create = {o["name"]: o for o in commands["create"]["options"]}
    assert [c["value"] for c in create["game"]["choices"]] == list(registry.names())
    assert (create["rounds"]["min_value"], create["rounds"]["max_value"]) == (1, 12)
    assert (create["days"]["min_value"], create["days"]["max_value"]) == (1, 14)
    assert create["name"].get("required", False) is False and create["game"]["required"] is True
    role = commands["organisers"]["options"][0]
    assert role["name"] == "role" and role["type"] == 8  # Discord's ROLE option type
    for name in ("standings", "crosstable", "export", "round"):  # another tournament, by its number
        (number,) = commands[name]["options"]
        assert number["name"] == "tournament" and number["autocomplete"] is True, name
        assert number.get("required", False) is False, name


def test_every_console_command_of_the_table_has_a_handler_and_a_help_line() -> None:
    text = help_text()
    for game in registry.games():
        for command in game_commands(game):
            if command.on("console") and command.verb is None:
                assert command.name in COMMANDS, command.name
                assert command.name in text or not command.listed, command.name
    for command in WARGAMES:
        if command.on("console") and command.subgroup is None:
            assert command.name in WARGAMES_COMMANDS, command.name
            assert f"/wargames {command.name}" in text, command.name
    for command in TOURNAMENT:
        if command.on("console"):
            assert command.name in TOURNAMENT_USAGE, command.name
            assert command.name in text.split("/tournament", 1)[1], command.name
    assert "organisers" not in TOURNAMENT_USAGE  # a Discord role: the console has none


def test_every_command_of_a_group_another_cog_serves_has_its_method() -> None:
    """`/tournament <name>` calls `Tournaments.<name>` when it runs: each must exist."""
    cogs = {"Tournaments": Tournaments}
    assert ROOMS == {"tournament": "Tournaments"}
    for cog_name in ROOMS.values():
        cog = cogs[cog_name]
        assert cog.__cog_name__ == cog_name
        for command in tournament_commands("discord"):
            assert callable(getattr(cog, command.name, None)), f"{cog_name}.{command.name}"


def test_discord_offers_hand_only_in_the_games_whose_rules_have_hands() -> None:
    """`hand` in Block Wars or Battlefronts could only answer "You hold nothing secret in this game":
    Discord's group of a game lists it only where its rules keep something private (a property of the
    rules, no game named); the console, typed, still answers it everywhere with that sentence."""
    groups = {node["name"]: {o["name"] for o in node.get("options") or ()} for node in built_payload()}
    for game in registry.games():
        assert ("hand" in groups[game.name]) is game.private_info, game.name
    assert {g.name for g in registry.games() if "hand" in groups[g.name]} == {
        "fixbayonets",
        "companycommander",
    }
    for game in registry.games():
        assert any(c.name == "hand" and c.on("console") for c in game_commands(game))


def test_the_console_lists_hand_only_in_the_games_whose_rules_have_hands() -> None:
    """The console's help listed `hand` in every game, though in Block Wars it can only answer that
    nothing is secret: it is listed where hands exist (and still answered, kindly, where not)."""
    for game in registry.games():
        own = help_text(game).split("Every game:")[0]
        assert (" | hand | " in own) is game.private_info, (game.name, own)
    assert "/blockwars board [unit:…] | history |" in help_text(registry.game("blockwars"))
