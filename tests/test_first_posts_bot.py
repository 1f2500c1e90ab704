"""A game's first message survives a crash between the game's start and that message (docs/
reliability.md, "A game's first message"): the start leaves its first board owed, in the start's own
transaction, and the restarted bot posts it once. For an accepted challenge (human v human, and
against the AI, whose first move follows the first board) and a tournament's game in its thread,
through the fake Discord, on SQLite and on PostgreSQL. Before, the restarted bot owed nothing: the
players saw no board and no ping, and could lose on time without ever being told."""

from __future__ import annotations

import asyncio

import pytest

from bot import WargamesBot
from cogs import limits
from data.tournaments import TournamentStore
from tests.crash import Crash, dies_at
from tests.fakediscord import FakeDiscord, FakeDiscordError
from tests.fakediscord.records import READ_MESSAGE_HISTORY, FakeChannel, FakeMessage
from tests.test_tournament_bot import (  # noqa: F401 (the `bot` fixture)
    GAME,
    bot,
    setup_club,
    signed_up,
    sweep,
    threads_of,
)


class Killed:
    """A step at which the process is killed: nothing after it runs. `reached` once it was (the
    interaction it cut off is never answered, so the test waits for this, not for an answer)."""

    def __init__(self) -> None:
        self.reached = asyncio.Event()

    async def __call__(self, *args: object, **kwargs: object) -> None:
        self.reached.set()

    async def wait(self) -> None:
        await asyncio.wait_for(self.reached.wait(), 10.0)


async def died(*args: object, **kwargs: object) -> None:
    return None  # the process killed right there: nothing after it runs


def public(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    return [m for m in fake.messages_in(channel) if not m.ephemeral]


def has_board(message: FakeMessage) -> bool:
    return any(a.filename == "board.png" for a in message.attachments)


async def restart(running: WargamesBot) -> None:
    """What the restarted bot does first (its sweep loop's first run), then waits for its work."""
    core = running.get_cog("Core")
    assert core is not None
    await core._before_sweep()  # type: ignore[attr-defined]
    await core.idle()  # type: ignore[attr-defined]


async def test_an_accepted_challenge_whose_first_board_a_crash_cut_off_is_posted_once(
    fake_discord: FakeDiscord,
    start_bot,
    bot: WargamesBot,  # noqa: F811
):
    """Bob accepts Alice's challenge and the bot dies before the first board goes out: after the
    restart the channel gets it once, pinging both, with its buttons; a second restart posts nothing.
    Against the AI, which moves first (Alice plays the Canadians), the first board comes before the
    AI's own board, not lost under it. And a first board, or a move's, sent as the answer to its
    interaction (a follow-up, which takes no nonce) before a crash kept it from being recorded is
    found in the channel and not posted a second time."""
    fake = fake_discord
    guild, club, (alice, bob) = await setup_club(fake, 2)
    await start_bot(bot)
    core = bot.get_cog("Core")
    assert core is not None

    challenged = await fake.slash(alice, club, GAME, "challenge", {"opponent": bob})
    accept = next(c for c in challenged.message.custom_ids if c.startswith("bw:accept:"))
    killed = Killed()
    core.post_start = killed  # type: ignore[attr-defined]
    with pytest.raises(FakeDiscordError):
        await fake.click(bob, challenged.message, accept, timeout=0.2)
    await killed.wait()
    del core.post_start  # type: ignore[attr-defined]  # the restarted bot's own
    before = len(public(fake, club))

    await restart(bot)
    (first,) = public(fake, club)[before:]
    assert first.content.startswith("Block Wars: challenge accepted.")
    assert "commitment" in first.content and first.attachment("board.png") is not None
    assert set(first.notified) == {alice.id, bob.id}
    assert any(c.startswith("bw:act:") or c.startswith("bw:dec:") for c in first.custom_ids)
    assert await bot.service.owed_boards() == []
    await restart(bot)
    assert public(fake, club)[before:] == [first]

    # against the AI, which moves first: its first board, then the AI's
    versus = fake.add_channel(guild, "versus")
    killed = Killed()
    core.post_start = killed  # type: ignore[attr-defined]
    with pytest.raises(FakeDiscordError):
        await fake.slash(
            alice,
            versus,
            GAME,
            "challenge",
            {"opponent": fake.bot_user, "side": "canadians", "level": "random"},
            timeout=0.2,
        )
    await killed.wait()
    del core.post_start  # type: ignore[attr-defined]
    assert public(fake, versus) == []
    await restart(bot)
    posted = public(fake, versus)
    assert posted[0].content.startswith("A game of Block Wars against the AI")
    assert len(posted) == 2 and "The Germans deploy" in posted[1].content  # the AI's set-up, after it
    assert (await bot.service.current(versus.id))[0].turn_player_id == alice.id
    await restart(bot)
    assert public(fake, versus) == posted

    # the first board sent, then a crash before it was recorded: the restart does not post it again
    again = fake.add_channel(guild, "again")
    challenged = await fake.slash(bob, again, GAME, "challenge", {"opponent": alice})
    accept = next(c for c in challenged.message.custom_ids if c.startswith("bw:accept:"))
    real = bot.service.board_delivered

    async def dies(*args: object) -> None:
        raise asyncio.CancelledError  # the process killed there: its task ends, nothing after it runs

    bot.service.board_delivered = dies  # type: ignore[assignment]
    await fake.click(alice, challenged.message, accept)
    del bot.service.board_delivered
    assert bot.service.board_delivered == real
    shown = [m for m in public(fake, again) if has_board(m)]
    assert len(shown) == 1 and await bot.service.owed_boards() != []
    await restart(bot)
    assert [m for m in public(fake, again) if has_board(m)] == shown
    assert await bot.service.owed_boards() == []

    # the same for a move's board, the answer to its command (a follow-up: no nonce)
    match, _ = await bot.service.current(again.id)
    germans = alice if match.sides["germans"] == alice.id else bob
    bot.service.board_delivered = dies  # type: ignore[assignment]
    await fake.slash(germans, again, GAME, "setup")
    await core.idle()  # type: ignore[attr-defined]
    del bot.service.board_delivered
    shown = [m for m in public(fake, again) if has_board(m)]
    assert len(shown) == 2 and await bot.service.owed_boards() != []
    await restart(bot)
    assert [m for m in public(fake, again) if has_board(m)] == shown
    assert await bot.service.owed_boards() == []


async def test_a_tournament_game_whose_first_message_a_crash_cut_off_is_posted_once(
    fake_discord: FakeDiscord,
    start_bot,
    bot: WargamesBot,  # noqa: F811
):
    """The round's game is stored in its thread and the bot dies before its first message: after
    the restart its thread gets that message once (the players pinged, its id kept, so a later
    change of the round's end corrects it), and the next sweeps post nothing more. The restarted
    bot dies once more, after that post and before keeping its id: posted again with its nonce
    (by a bot that may not read the thread's history, where it would find it), Discord answers
    with the first, so the thread still holds one."""
    fake = fake_discord
    _, club, (alice, bob) = await setup_club(fake, 2)
    await start_bot(bot)
    cog = bot.get_cog("Tournaments")
    assert cog is not None
    await signed_up(fake, club, [alice, bob], "Crash Cup")
    cog.sweeper.cancel()  # type: ignore[attr-defined]  # only the sweeps the test runs
    real = cog.service.start_board  # type: ignore[attr-defined]

    async def starts_then_dies(*args: object) -> object:
        await real(*args)
        raise Crash

    cog.service.start_board = starts_then_dies  # type: ignore[attr-defined]
    cog.start_boards = died  # type: ignore[attr-defined]  # the start's own interaction: paired only
    await fake.slash(fake.owner, club, "tournament", "start")
    del cog.start_boards  # type: ignore[attr-defined]
    with pytest.raises(Crash):
        await sweep(bot)  # the game is stored in its thread, then the bot dies
    del cog.service.start_board  # type: ignore[attr-defined]
    (thread,) = threads_of(fake, club)
    assert fake.messages_in(thread) == []
    match, _ = await bot.service.current(thread.id)

    # the restarted bot posts it, and dies before keeping its id: the next restart posts it again
    # with the same nonce, and Discord answers with the first
    shown = cog.service.board_shown  # type: ignore[attr-defined]
    with dies_at(cog.service, "board_shown"), pytest.raises(Crash):  # type: ignore[attr-defined]
        await restart(bot)
    assert cog.service.board_shown == shown  # type: ignore[attr-defined]
    (first,) = fake.messages_in(thread)
    assert first.nonce == limits.start_nonce(match.id)
    everyone = fake.guilds[club.guild_id or 0].roles[club.guild_id or 0]
    everyone.permissions &= ~READ_MESSAGE_HISTORY  # it cannot look for it in the thread: the nonce
    await restart(bot)
    everyone.permissions |= READ_MESSAGE_HISTORY
    await sweep(bot)
    assert fake.messages_in(thread) == [first]
    assert "Crash Cup" in first.content and first.attachment("board.png") is not None
    assert set(first.notified) == {alice.id, bob.id}
    store = TournamentStore(bot.database)
    cup = await store.channel_tournament(club.id, open_only=False)
    assert cup is not None
    boards = await store.tournament_boards(cup.id)
    assert [b.message_id for b in boards if b.match_id == match.id] == [first.id]  # its end corrected later
    assert await bot.service.owed_boards() == []
    await sweep(bot)
    await restart(bot)
    assert fake.messages_in(thread) == [first]
