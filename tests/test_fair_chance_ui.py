"""Issue 30's Block Wars example `c3xb3; c2-b3`, played as a user plays it: through the fake Discord
(a slash command, the board in the channel and the private note) and through the console. The
attack draws its cards for good; where it lost, the move is not made and only the player is told."""

from __future__ import annotations

from pathlib import Path

from engine.blockwars import Side
from engine.blockwars.position import build
from play.undo import MID_TURN_NOTE
from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)
from tests.test_bot import World, deployed, put_position, world  # noqa: F401 (pytest fixtures)
from tests.test_console import START, close_consoles, open_console  # noqa: F401 (pytest fixture)

# the refusal of c2-b3 after c3xb3 lost: the square still holds the enemy
STILL_THERE = "b3 is occupied by Canadian infantry; to attack it, `c2xb3`."

LOSES = build(
    {"c3": "G", "c2": "G", "b3": "C", "h8": "C", "a8": "G"},
    decks={Side.GERMANS: ["6D", "2C"], Side.CANADIANS: ["9H", "3C"]},
)


async def test_in_discord_the_attack_stands_and_only_the_player_hears_the_move_was_not_made(
    world: World,  # noqa: F811
) -> None:
    w = world
    await deployed(w)
    await put_position(w, LOSES)
    before = await w.match()
    done = await w.slash(w.alice, "play", {"action": "c3xb3; c2-b3"})
    public = [m for m in done.messages if not m.ephemeral and not m.deleted]
    private = [m for m in done.messages if m.ephemeral]
    assert public == []  # her turn goes on: the channel sees it when it passes (issue 30)
    (board,) = private
    assert "6 of diamonds vs 9 of hearts, loses" in board.content
    assert board.attachments, "the board picture is posted"
    assert f"{MID_TURN_NOTE}\nOnly part of your command was played:" in board.content
    assert f"Action 2 (`c2-b3`) was not made: {STILL_THERE} It is still your turn" in board.content
    ended = await w.slash(w.alice, "end")
    (handed,) = [m for m in ended.messages if not m.ephemeral]
    assert "b3 is occupied" not in handed.content  # the channel sees the turn, not the refusal
    after = await w.match()
    assert after.version == before.version + 2  # the command stored with its one step, and the end
    assert w.bot is not None and w.bot.database is not None
    assert [a.notation for a in await w.bot.database.actions(after.id)][-2:] == ["c3xb3", "end"]


async def test_in_the_console_the_attack_stands_and_the_move_is_reported_not_made(tmp_path: Path) -> None:
    console, out = await open_console(tmp_path)
    await console.run_lines(START)
    match, _ = await console.service.current(console.channel_id)
    await console.service.db.update_match(
        match.id,
        expected_version=match.version,
        snapshot=LOSES.to_json(),
        turn_player_id=match.sides["germans"],
    )
    console.service.forget(console.channel_id)
    out.truncate(0)
    out.seek(0)
    await console.run_lines(["/as alice", "/blockwars play c3xb3; c2-b3"])
    text = out.getvalue()
    assert "6 of diamonds vs 9 of hearts, loses" in text
    assert "(only you see this) only part of your command was played: action 1 of 2 stood" in text
    assert f"Action 2 (`c2-b3`) was not made: {STILL_THERE}" in text
    assert "✗" not in text  # not a refusal: the attack was played
    log = await console.service.log(match)
    assert log[-1][1] == "c3xb3"
    await console.close()
