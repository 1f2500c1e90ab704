"""The seventh review through Discord (docs/fairness.md, "the seventh review"). One bot serves the
module."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from tests.fakediscord import FakeMessage
from tests.onebot import ON_THE_BOT, Table, one_bot


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def table(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Table]:
    async with one_bot(tmp_path_factory.mktemp("seventh"), "Seventh") as world:
        world.carol = world.fake.add_user("carol", guilds=[world.guild])  # type: ignore[attr-defined]
        yield world


async def placed(table: Table, name: str, side: str, position: Any) -> tuple[Any, FakeMessage]:
    """A new game of `name`, Alice playing `side`, set to `position` with her to act."""
    channel, _ = await table.accepted(name, side)
    match = await table.bot.database.get_channel_match(channel.id)
    await table.bot.database.update_match(
        match.id, expected_version=match.version, snapshot=position.to_json(), turn_player_id=table.alice.id
    )
    table.bot.service.forget(channel.id)
    return channel, (await table.fake.slash(table.alice, channel, name, "board", {})).message


async def raw_select(table: Table, user: Any, message: FakeMessage, custom_id: str, values: list[str]) -> Any:
    """What a client that sends raw interactions sends: `values` for the select `custom_id`, whatever
    the select's options and counts (Discord's own client never would)."""
    data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
    return await table.fake._component(user, message, data, f"select {custom_id}", None, 0)


def fb_discard(hand: list[str], theirs: list[str]) -> Any:
    from engine.fixbayonets.position import build
    from engine.fixbayonets.state import DISCARD

    return build({"d8": "GR", "a1": "AR"}, hands={"germans": hand, "americans": theirs}, phase=DISCARD)


@ON_THE_BOT
async def test_a_forged_pick_of_several_discards_plays_nothing_and_reads_alike(table: Table) -> None:
    """Fix Bayonets' Discard… select plays its picks as one command, and took whatever values a raw
    client sent: `discard trees;2` (Trees held once) discarded Trees, a value no option has played
    as typed, and one pick of three left the player discarding. Now a pick the select does not offer
    (a card not listed, the `;2` of a card held once, one value twice, too few, too many, another
    command, an injected `;`) is refused in the same words, whether the card is held or not, and
    nothing changes; the opponent and a stranger hear what they heard; the honest pick plays."""
    hand = ["march", "march", "trees", "rifle3", "rifle3", "crawl", "run", "charge"]
    channel, board = await placed(table, "fixbayonets", "germans", fb_discard(hand, ["grenade", "hold"]))
    (opener,) = [c for c in board.custom_ids if c.endswith(":discard")]
    mine = (await table.fake.click(table.alice, board, opener)).message
    (select,) = [c for c in mine.iter_components() if c.get("type") == 3]
    cid = select["custom_id"]
    _, before = await table.bot.service.current(channel.id)
    refusals = set()
    for values in (
        ["discard march", "discard grenade", "discard trees"],  # a card the opponent holds
        ["discard march", "discard hold", "discard trees"],  # a card nobody holds
        ["discard march", "discard trees;2", "discard run"],  # Trees is held once
        ["discard march;3", "discard trees", "discard run"],  # March is held twice
        ["discard march", "discard march", "discard run"],  # one value twice
        ["discard march", "discard trees"],  # too few
        ["discard march", "discard trees", "discard run", "discard crawl"],  # too many
        ["resign"],
        ["discard march; resign", "discard trees", "discard run"],
    ):
        answer = await raw_select(table, table.alice, mine, cid, values)
        assert answer.ephemeral, values
        refusals.add(answer.content)
        _, now = await table.bot.service.current(channel.id)
        assert now.to_json() == before.to_json(), values
    assert refusals == {
        "That pick is not one this menu offers: choose 3 of its own choices, each once. Nothing was played."
    }, refusals
    for who in (table.bob, table.carol):  # type: ignore[attr-defined]  # on a select they forged onto a message of their own
        heard = {
            (await raw_select(table, who, mine, cid, [v])).content for v in ("discard march", "discard hold")
        }
        assert len(heard) == 1, heard
    played = await table.fake.select(
        table.alice, mine, cid, ["discard march", "discard march;2", "discard trees"]
    )
    assert "The Germans discard Trees" in played.content, played.content
    _, after = await table.bot.service.current(channel.id)
    assert sorted(c.name for c in after.hands["germans"]) == [
        "Charge",
        "Crawl",
        "Rifle (3)",
        "Rifle (3)",
        "Run",
    ]


async def raw_click(table: Table, user: Any, message: FakeMessage, custom_id: str) -> Any:
    """A click a raw client sends for a button Discord's own shows greyed and will not send."""
    comp = message.component(custom_id)
    data = {"custom_id": custom_id, "component_type": 2}
    if "id" in comp:
        data["id"] = comp["id"]
    return await table.fake._component(user, message, data, f"click {custom_id}", None, 0)


@ON_THE_BOT
async def test_a_forged_click_of_a_disabled_button_is_refused_as_the_command_typed(table: Table) -> None:
    """Battlefronts' End turn is shown greyed before the turn's first action: a raw client's click of
    it is refused in the words the typed `end` hears, and nothing changes."""
    from engine.battlefronts.position import build
    from engine.battlefronts.state import MOVE

    position = build({"T2": {"red": ["?5H 6H"]}, "F1": {"red": ["KS 4D"]}}, round=3, phase=MOVE)
    channel, board = await placed(table, "battlefronts", "red", position)
    (end,) = [c for c in board.custom_ids if c.endswith(":end")]
    assert board.component(end).get("disabled"), board.component(end)
    _, before = await table.bot.service.current(channel.id)
    forged = await raw_click(table, table.alice, board, end)
    typed = await table.fake.slash(table.alice, channel, "battlefronts", "play", {"action": "end"})
    assert forged.ephemeral and typed.ephemeral
    assert forged.content.startswith("Make at least one move or call-up before ending your turn"), (
        forged.content
    )
    assert forged.content == typed.content
    _, after = await table.bot.service.current(channel.id)
    assert after.to_json() == before.to_json()
