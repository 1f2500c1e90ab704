"""Undo through the real bot on the fake Discord: `/wargames undo` and the Undo button on the answer
to a step, both answered privately; refusals change nothing (issue 30)."""

from __future__ import annotations

from tests.ids import button_id
from tests.test_bot import World, deployed, world  # noqa: F401  (the fixture, shared)


async def test_undo_by_button_and_by_command(world: World):  # noqa: F811
    w = world
    await deployed(w)
    match = await w.match()
    nothing = await w.fake.slash(w.alice, w.general, "wargames", "undo", {})
    assert nothing.ephemeral and "nothing to take back" in nothing.content
    not_yours = await w.fake.slash(w.bob, w.general, "wargames", "undo", {})
    assert not_yours.ephemeral and "not your turn" in not_yours.content
    assert (await w.match()).version == match.version  # refusals change nothing
    moved = await w.slash(w.alice, "move", {"action": "e6-e5"})
    board = moved.message
    after = await w.match()
    undo_id = button_id("undo", match, version=after.version)
    assert undo_id in board.custom_ids  # the answer to her own step, while her turn goes on
    stranger = await w.fake.click(w.bob, board, undo_id)
    assert stranger.ephemeral and "not your turn" in stranger.content
    taken = await w.fake.click(w.alice, board, undo_id)
    assert taken.ephemeral and "you took back `e6-e5`. It is still your turn." in taken.content
    assert taken.message.attachment("board.png").data[:4] == b"\x89PNG"
    undone = await w.match()
    assert undone.version == after.version + 1 and undone.snapshot == match.snapshot
    again = await w.fake.click(w.alice, board, undo_id)  # the same button twice: out of date
    assert again.ephemeral and "out of date" in again.content
    assert (await w.match()).version == undone.version
    # by command: another step, taken back; the channel was posted no board for either undo
    posted = len(w.fake.messages_in(w.general))
    await w.slash(w.alice, "move", {"action": "e6-e5"})
    by_command = await w.fake.slash(w.alice, w.general, "wargames", "undo", {})
    assert by_command.ephemeral and "you took back `e6-e5`" in by_command.content
    assert len([m for m in w.fake.messages_in(w.general) if not m.ephemeral]) <= posted + 1
    history = await w.slash(w.alice, "history", {"count": 10})
    assert "e6-e5" not in history.content
    # a draw offer on her own turn is never taken back: its answer carries no Undo (a dead end)
    offered = await w.slash(w.alice, "draw", {"choice": "offer"})
    assert offered.message.custom_ids and not any(
        c.startswith("bw:undo:") for c in offered.message.custom_ids
    )
