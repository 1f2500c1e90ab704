"""The rules a player reads are the rules their game plays: a game keeps the edition of our rulings it
began under (RULES.md), and `/<game> rules` in its channel tells that edition's, saying so first;
anywhere else (no game, a game of another kind, a challenge made today) the newest edition is told.

Through the real bot on the fake Discord and through the console, with a real SQLite file. An
edition-1 match is stored as a match made before the game had editions was: every option named and
no edition (`BaseGame.edition_of`), which is how one still running today looks in the database.
"""

from __future__ import annotations

import io
import random
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import pytest

from console import Console, names
from console.names import GUILD_ID
from data import Database
from engine import registry
from engine.base import EDITION
from play import MatchService
from play.present import rules_text
from tests.botkit import BotKit
from tests.fakediscord import FakeChannel, FakeDiscord, FakeUser
from tests.fakediscord.fixtures import HandClock

NOTE = "This game keeps edition 1 of our rulings"

# Per game with two editions: a topic, a sentence only edition 1 has there, and edition 2's instead.
DIFFERS = {
    "companycommander": (
        "suppression",
        "A Pin on a unit already Pinned has no effect (house rule H13, edition 1).",
        "A Pin on a unit already Pinned is a Casualty instead (house rule H13).",
    ),
    "combinedarms_wwii": (
        "endings",
        "you also win the moment your units stand on every city (edition 1)",
        "you also win if your units stand on every city when your next turn begins",
    ),
}


def stored_before_editions(name: str) -> dict[str, Any]:
    """The options of a match stored before the game had editions: every option, no edition."""
    options = registry.game(name).normalise_options({})
    del options[EDITION]
    return options


# ------------------------------------------------------------------ the texts, for every game


@pytest.mark.parametrize("name", registry.names())
def test_every_edition_has_the_same_topics_and_fits_a_message(name: str) -> None:
    """Discord lists the topics as fixed choices, so every edition has the same ones in the same
    order; each text, with the note and the list of topics, fits one Discord message."""
    game = registry.game(name)
    for edition in range(1, game.edition + 1):
        options = game.normalise_options({EDITION: edition} if game.edition > 1 else {})
        rules = game.rules_for(options)
        assert list(rules) == list(game.rules)
        for topic in rules:
            text = rules_text(game, topic, options)
            assert len(text) <= 2000
            assert (NOTE in text) == (edition < game.edition)


@pytest.mark.parametrize("name", [n for n in registry.names() if registry.game(n).edition == 1])
def test_a_game_with_one_edition_tells_the_same_rules_in_a_game_or_not(name: str) -> None:
    game = registry.game(name)
    options = game.normalise_options({})
    assert game.rules_for(options) == game.rules
    for topic in game.rules:
        assert rules_text(game, topic, options) == rules_text(game, topic)


@pytest.mark.parametrize("name", sorted(DIFFERS))
def test_edition_1_differs_only_where_its_rulings_do(name: str) -> None:
    """Edition 1's texts are edition 2's with the differing clauses swapped: each differing topic
    names edition 1 where it differs, and the others are the very same text."""
    game = registry.game(name)
    old, new = game.rules_for(stored_before_editions(name)), game.rules
    topic, then, now = DIFFERS[name]
    assert then in old[topic] and now not in old[topic]
    assert now in new[topic] and then not in new[topic]
    changed = [t for t in new if old[t] != new[t]]
    assert topic in changed and "overview" not in changed and "board" not in changed
    for t in changed:  # a clause or two swapped in the same topic, not another text
        assert SequenceMatcher(None, old[t], new[t]).ratio() > 0.8, t
    assert all("edition 1" in old[t] for t in changed if t != "notation")  # a list: one action fewer
    assert not any("edition" in new[t] for t in new)  # the newest needs no word of editions


def test_company_commander_edition_1_tells_each_of_its_rulings() -> None:
    """rules/companycommander.md, "Editions": every ruling edition 1 keeps is told in its help."""
    game = registry.game("companycommander")
    old = game.rules_for({"turn_limit": 12})
    assert "2 in the game's very first Deploy phase" in old["deploy"]  # H5
    assert "the second player with 5 (edition 1)" in old["cards"]  # H5
    assert "among all the enemy units there, Pinned or not (edition 1)" in old["assault"]  # H15
    assert "every assault at that front until the Ambush side's next turn" in old["assault"]  # H3, H4
    assert "every enemy assault there −3 until your next turn" in old["cards"]  # H3, H4
    assert "still counts for the units that roll after he routs" in old["rally"]  # H17
    assert "it may not be declined" in old["deploy"] and "extra none" not in old["deploy"]  # H19
    assert "extra none" not in old["notation"] and "take or decline" not in old["turn"]  # H19
    new = game.rules
    assert "nor once he has routed" in new["rally"] and "extra none" in new["notation"]


def test_the_note_names_the_edition_and_where_the_newest_is_read() -> None:
    game = registry.game("companycommander")
    text = rules_text(game, "assault", {"turn_limit": 12})
    first, rest = text.split("\n", 1)
    assert first == (
        "This game keeps edition 1 of our rulings, the one it began under. New challenges play "
        "edition 2, which `/companycommander rules` shows where no Company Commander game is open."
    )
    assert rest == game.rules_for({"turn_limit": 12})["assault"]
    assert rules_text(game, "assault", {"turn_limit": 0, EDITION: 2}) == game.rules["assault"]
    assert rules_text(game, "assault") == game.rules["assault"]


# ------------------------------------------------------------------ through Discord


async def open_match(
    bot: Any, name: str, channel: FakeChannel, a: FakeUser, b: FakeUser, options: Any
) -> None:
    """A match of `name` with these stored options in `channel`, accepted: a game in play."""
    await bot.database.create_challenge(
        guild_id=channel.guild_id,
        channel_id=channel.id,
        challenger_id=a.id,
        opponent_id=b.id,
        seed=11,
        turn_seconds=3600,
        challenge_expires_at=None,
        game=name,
        options=options,
    )
    await bot.service.accept(channel.id, b.id)


@pytest.mark.parametrize("name", sorted(DIFFERS))
async def test_rules_in_discord_follow_the_channels_game(
    name: str, fake_discord: FakeDiscord, start_bot, botkit: BotKit
) -> None:
    fake = fake_discord
    guild = fake.add_guild("Front", channels=("old", "new", "empty", "other"))
    old, new, empty, other = (guild.channel(c) for c in ("old", "new", "empty", "other"))
    alice, bob, eve = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("eve")
    bot = await botkit.build(clock=HandClock(), rng=random.Random(3))
    await start_bot(bot)
    game = registry.game(name)
    topic, then, now = DIFFERS[name]
    await open_match(bot, name, old, alice, bob, stored_before_editions(name))
    await open_match(bot, name, new, alice, bob, game.normalise_options({}))  # a challenge made today
    another = next(n for n in registry.names() if n != name)
    await open_match(bot, another, other, alice, bob, registry.game(another).normalise_options({}))
    _, state = await bot.service.current(old.id)
    assert state.to_json() != (await bot.service.current(new.id))[1].to_json()

    for who in (alice, eve):  # a player and a spectator read the same rules
        told = await fake.slash(who, old, name, "rules", {"topic": topic})
        assert told.ephemeral and told.content.startswith(NOTE), told.content
        assert then in told.content and now not in told.content
        overview = await fake.slash(who, old, name, "rules", {})
        assert overview.content.startswith(NOTE) and "Topics:" in overview.content
    for channel in (new, empty, other):
        told = await fake.slash(alice, channel, name, "rules", {"topic": topic})
        assert told.ephemeral and NOTE not in told.content, channel.name
        assert now in told.content and then not in told.content
        assert told.content == game.rules[topic]


# ------------------------------------------------------------------ through the console


async def said(console: Console, out: io.StringIO, line: str) -> str:
    start = len(out.getvalue())
    assert await console.run_lines([line]) == 0
    echo, answer = out.getvalue()[start:].split("\n", 1)
    assert echo.endswith(f"> {line}")
    return answer


@pytest.mark.parametrize("name", sorted(DIFFERS))
async def test_rules_in_the_console_follow_the_channels_game(name: str, tmp_path: Path) -> None:
    clock = HandClock()
    db = await Database.open(tmp_path / "console.db", clock=clock)
    out = io.StringIO()
    console = Console(MatchService(db, clock=clock, rng=random.Random(5)), boards=tmp_path / "b", out=out)
    try:
        topic, then, now = DIFFERS[name]
        before = await said(console, out, f"/{name} rules {topic}")  # no game here yet: the newest
        assert now in before and NOTE not in before
        await db.create_challenge(
            guild_id=GUILD_ID,
            channel_id=console.channel_id,
            challenger_id=names.user_id("alice"),
            opponent_id=names.user_id("bob"),
            seed=11,
            turn_seconds=3600,
            challenge_expires_at=None,
            game=name,
            options=stored_before_editions(name),
        )
        await console.service.accept(console.channel_id, names.user_id("bob"))
        text = await said(console, out, f"/{name} rules {topic}")
        assert text.startswith(NOTE) and then in text and now not in text
        assert (await said(console, out, f"/{name} rules")).startswith(NOTE)
        await said(console, out, "/as bob")
        await said(console, out, f"/{name} resign")
        after = await said(console, out, f"/{name} rules {topic}")  # over: a new one plays the newest
        assert now in after and NOTE not in after
    finally:
        await console.close()
