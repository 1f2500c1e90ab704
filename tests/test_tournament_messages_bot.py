"""A tournament's messages that stay true, through the fake Discord on SQLite and on PostgreSQL: its
seal comes before its sign-up list; a seal a crash kept from being posted is posted at the next
chance, before any sign-up counts (a sign-up that came before it is refused, not mixed into the
dice); and when a game begun late moves its round's end, the round's announcement and the games'
first messages are corrected, a deleted one costing nothing but itself (docs/fairness.md,
"Tournaments"; RULES.md, "A game begun late")."""

from __future__ import annotations

import logging
import random
import re
import time

import pytest

from bot import WargamesBot
from cogs import limits
from data import Database
from data.tournaments import Board, Tournament, TournamentStore
from tests.botkit import BotKit, store_env
from tests.crash import Crash, dies_at
from tests.fakediscord import FakeDiscord, FakeDiscordError
from tests.fakediscord.fixtures import ForwardErrors, HandClock
from tests.fakediscord.records import READ_MESSAGE_HISTORY, FakeChannel, FakeMessage
from tests.test_tournament_bot import (  # noqa: F401 (the `bot` fixture)
    GAME,
    bot,
    create_and_fill,
    first_post,
    play_out,
    setup_club,
    signed_up,
    sweep,
    threads_of,
    until,
)

HOUR, DAY = 3600, 86400
SEAL = re.compile(r"The dice of every game of this tournament are sealed: commitment `([0-9a-f]{32})…`")


def deadline(ts: int) -> str:
    """A round's end as the bot states it: the countdown and, beside it, the date and time."""
    return f"<t:{ts}:R> (<t:{ts}:f>)"


def public(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    return [m for m in fake.messages_in(channel) if not m.ephemeral]


async def died(*args: object, **kwargs: object) -> None:
    return None  # as if the process were killed right after the tournament was stored


async def crash_while_making(fake: FakeDiscord, bot: WargamesBot, club: FakeChannel, name: str) -> None:  # noqa: F811
    """`/tournament create` stores the tournament, and the bot dies before posting anything."""
    cog = bot.get_cog("Tournaments")
    assert cog is not None
    cog.sweeper.cancel()  # type: ignore[attr-defined]  # a dead process sweeps no more (its loop's first run races the create)
    cog.announce = died  # type: ignore[attr-defined]
    with pytest.raises(FakeDiscordError):
        await fake.slash(
            fake.owner,
            club,
            "tournament",
            "create",
            {"game": GAME, "rounds": 1, "days": 2, "name": name},
            timeout=1.0,
        )
    del cog.announce  # type: ignore[attr-defined]  # the class's own, as a restarted bot has
    assert public(fake, club) == []


async def owed(store: TournamentStore, channel: FakeChannel) -> Tournament:
    found = await store.channel_tournament(channel.id)
    assert found is not None
    return found


def seal_then_list(fake: FakeDiscord, club: FakeChannel) -> tuple[FakeMessage, FakeMessage]:
    """The channel's two posts of a tournament: its seal, then its sign-up list with the Join button."""
    sealed, listed = public(fake, club)
    assert SEAL.search(sealed.content) and not sealed.custom_ids and sealed.id < listed.id
    assert any(c.startswith("bw:tjoin:") for c in listed.custom_ids)
    return sealed, listed


async def test_a_sign_up_before_a_seal_cut_short_by_a_crash_shows_the_seal_and_is_refused(
    fake_discord: FakeDiscord,
    start_bot,
    bot: WargamesBot,  # noqa: F811
):
    """The seal never went out; Alice's `/tournament join` is the next chance: the seal is
    posted first (then the sign-up list), and her sign-up, which came before it, does not count: she
    is told why and joins again. Nothing is posted twice after that."""
    fake = fake_discord
    _, club, players = await setup_club(fake, 2)
    alice, bob = players
    await start_bot(bot)
    bot.service.seeded_inputs = False  # the joins' ids are their inputs, as in production
    await crash_while_making(fake, bot, club, "Crash Cup")
    store = TournamentStore(bot.database)
    made = await owed(store, club)
    assert made.sealed_at is None and made.message_id is None and made.seal_commitment is not None

    early = await fake.slash(alice, club, "tournament", "join")
    (refused,) = [m for m in early.messages if m.ephemeral]  # the seal and the list came meanwhile
    assert refused.content == (
        "Your sign-up came before the dice seal of **Crash Cup** was shown, and only a sign-up after it "
        "counts. The seal is in the channel now: join again."
    )
    sealed, listed = seal_then_list(fake, club)
    assert SEAL.search(sealed.content)[1] == made.seal_commitment[:32]  # type: ignore[index]
    assert "Nobody has signed up yet." in listed.content
    shown = await owed(store, club)
    assert shown.seal_message_id == sealed.id and shown.message_id == listed.id
    assert await store.tournament_entries(made.id) == []  # her first sign-up did not count

    again = await fake.slash(alice, club, "tournament", "join")
    assert again.ephemeral and "You are in **Crash Cup**" in again.content
    clicked = await fake.click(bob, listed, next(c for c in listed.custom_ids if c.startswith("bw:tjoin:")))
    assert "You are in" in clicked.content
    await until(lambda: "Signed up (2):" in listed.content)
    entries = await store.tournament_entries(made.id)
    assert len(entries) == 2 and all(int(e.join_input or 0) > sealed.id for e in entries)
    await sweep(bot)  # nothing more is owed
    assert len(public(fake, club)) == 2


async def test_a_seal_cut_short_by_a_crash_is_posted_after_the_restart_and_its_games_verify(
    fake_discord: FakeDiscord, start_bot, store: str, botkit: BotKit
):
    """The bot dies right after storing a new tournament. The restarted bot's sweep posts the seal,
    then the sign-up list, once; the players join after the seal, and their game verifies with both
    joins after it."""
    fake = fake_discord
    fake.settle = 0.01
    _, club, players = await setup_club(fake, 2)
    clock = HandClock()
    clock.now = time.time()  # the ids' times, as in production (verify reads them)
    database = await Database.open(store, clock=clock)
    errors = ForwardErrors(fake)
    logging.getLogger("bot").addHandler(errors)

    async def make() -> WargamesBot:
        env = {"AI_BUDGET_SECONDS": "0.02", **store_env(store)}
        return await botkit.build(env, clock=clock, rng=random.Random(11), database=database)

    try:
        first = await make()
        running = await start_bot(first)
        await crash_while_making(fake, first, club, "Phoenix Cup")
        await running.stop()  # the bot goes down with the seal unshown

        second = await make()
        await start_bot(second)
        second.service.seeded_inputs = False  # the joins' ids are their inputs, as in production
        await sweep(second)  # as its loop does at once
        sealed, listed = seal_then_list(fake, club)
        await sweep(second)  # posted once
        assert len(public(fake, club)) == 2
        join = next(c for c in listed.custom_ids if c.startswith("bw:tjoin:"))
        for user in players:
            clicked = await fake.click(user, listed, join)
            assert "You are in **Phoenix Cup**" in clicked.content
        await fake.slash(fake.owner, club, "tournament", "start", messages=2)
        await until(lambda: len(threads_of(fake, club)) == 1)
        (thread,) = threads_of(fake, club)
        await until(lambda: bool(fake.messages_in(thread)))
        await play_out(fake, second, thread, "first wins")
        verified = await fake.slash(players[1], thread, "wargames", "verify", {})
        assert "Verified" in verified.content and "❌" not in verified.content, verified.content
        assert f"shown by message {sealed.id}" in verified.content
        assert "2 of the 2 players' joins came after it" in verified.content
        await second.close()
    finally:
        logging.getLogger("bot").removeHandler(errors)
        await database.close()


@pytest.mark.parametrize("deleted", [False, True], ids=["kept", "deleted"])
async def test_a_game_begun_late_corrects_the_round_end_its_round_announcement_and_first_messages_state(
    fake_discord: FakeDiscord,
    start_bot,
    bot: WargamesBot,  # noqa: F811
    deleted: bool,
):
    """Round 1 is paired; board 1 begins, then the bot goes down before board 2. Half a day later
    board 2 begins and the round's end moves: the round's announcement and board 1's first message
    are edited to the new end (nothing else in them changes) and the channel is told in one line. A
    deleted announcement is left alone: the line still goes out and board 1's message is corrected."""
    fake = fake_discord
    _, club, players = await setup_club(fake, 4)
    await start_bot(bot)
    await create_and_fill(fake, bot, club, players, "Late Cup")
    cog = bot.get_cog("Tournaments")
    assert cog is not None
    real = cog.start_board  # type: ignore[attr-defined]

    async def board_one_only(tournament: Tournament, board: Board) -> bool:
        if board.board == 2:
            return False  # the bot went down before opening it
        return bool(await real(tournament, board))

    cog.start_board = board_one_only  # type: ignore[attr-defined]
    started = await fake.slash(fake.owner, club, "tournament", "start", messages=2)
    announcement = started.messages[0]
    old = int(bot.clock.now + 2 * DAY)  # type: ignore[attr-defined]
    assert (
        "has begun: round 1 of 3" in announcement.content
        and f", ends {deadline(old)}." in announcement.content
    )
    await until(lambda: len(threads_of(fake, club)) == 1)
    (one,) = threads_of(fake, club)
    await until(lambda: bool(fake.messages_in(one)))
    first = first_post(fake, one)
    assert f"The round ends {deadline(old)};" in first.content
    if deleted:
        fake._delete(announcement)  # someone deleted it meanwhile

    del cog.start_board  # type: ignore[attr-defined]  # the bot is back
    bot.clock.now += 12 * HOUR  # type: ignore[attr-defined]
    before_announcement, before_first = announcement.content, first.content
    await sweep(bot)
    await until(lambda: len(threads_of(fake, club)) == 2)
    new = int(bot.clock.now + 2 * DAY)  # type: ignore[attr-defined]
    await until(lambda: any("now ends" in m.content for m in public(fake, club)))
    (line,) = [m for m in public(fake, club) if "now ends" in m.content]
    assert line.content == (
        f"**Late Cup**: round 1 of 3 now ends {deadline(new)}, because board 2 began late and has the whole "
        "round; the other games may go on until then, on the clocks they have."
    )
    await until(lambda: f"{deadline(new)}" in first.content)
    assert first.content == before_first.replace(f"{deadline(old)}", f"{deadline(new)}")
    assert first.attachments and first.custom_ids  # the board and its buttons stay
    (two,) = [t for t in threads_of(fake, club) if t.id != one.id]
    await until(lambda: bool(fake.messages_in(two)))
    assert f"The round ends {deadline(new)};" in first_post(fake, two).content
    if deleted:
        assert announcement.deleted and announcement.content == before_announcement
    else:
        # the end corrected; and each game's thread named beside its pairing once it is open (board
        # 1's may be named before or after `before_announcement` was read)
        await until(
            lambda: f" in <#{one.id}>" in announcement.content and f" in <#{two.id}>" in announcement.content
        )
        unlinked = re.sub(r" in <#\d+>", "", before_announcement)
        assert re.sub(r" in <#\d+>", "", announcement.content) == unlinked.replace(
            f"{deadline(old)}", f"{deadline(new)}"
        )
    await sweep(bot)  # nothing more to say or correct
    assert len([m for m in public(fake, club) if "now ends" in m.content]) == 1


async def test_a_crash_between_a_post_and_keeping_its_id_posts_the_no_show_and_the_final_post_once(
    fake_discord: FakeDiscord,
    start_bot,
    bot: WargamesBot,  # noqa: F811
):
    """An organiser ends a no-show's game: its notice and board go to the thread, and the bot dies
    before marking the board delivered; the restarted bot, which may not read the thread's history
    to find it there, sends it again with the same nonce, which Discord answers with the first post.
    Then the final post (the standings, the seal's secret) goes out and the bot dies before keeping
    its id: the next sweep sends it again, with its nonce, and the channel still has one. Each kept
    id is the one post's."""
    fake = fake_discord
    _, club, (alice, bob) = await setup_club(fake, 2)
    await start_bot(bot)
    await signed_up(fake, club, [alice, bob], "Nonce Cup")
    await fake.slash(fake.owner, club, "tournament", "start", messages=2)
    await until(lambda: len(threads_of(fake, club)) == 1)
    (thread,) = threads_of(fake, club)
    await until(lambda: bool(fake.messages_in(thread)))
    core, cog = bot.get_cog("Core"), bot.get_cog("Tournaments")
    assert core is not None and cog is not None
    match, state = await bot.service.current(thread.id)
    absent = next(u for u in match.players if match.side_of(u) in state.to_act())
    done = await cog.service.forfeit(club.id, absent, organiser=True, by=fake.owner.id)  # type: ignore[attr-defined]

    real = bot.service.board_delivered
    opened = len(fake.messages_in(thread))
    with dies_at(bot.service, "board_delivered"), pytest.raises(Crash):  # the restarted bot's own after
        await core.announce(done.notice)  # type: ignore[attr-defined]
    assert bot.service.board_delivered == real
    (told,) = fake.messages_in(thread)[opened:]
    assert "an organiser, ended this game" in told.content and told.attachment("board.png") is not None
    # a bot that may not read the thread's history cannot find it there (`Outbox.shown_in`)...
    everyone = fake.guilds[club.guild_id or 0].roles[club.guild_id or 0]
    everyone.permissions &= ~READ_MESSAGE_HISTORY
    assert await core.deliver_owed(older_than=0.0) == 1  # type: ignore[attr-defined]  # ...sends it again
    everyone.permissions |= READ_MESSAGE_HISTORY
    assert fake.messages_in(thread)[opened:] == [told]  # ...and Discord gave back the first
    assert await bot.service.owed_boards(0.0) == []

    def final_posts() -> list[FakeMessage]:
        return [m for m in public(fake, club) if any(a.filename == "standings.png" for a in m.attachments)]

    with dies_at(cog.service, "round_shown"), pytest.raises(Crash):  # type: ignore[attr-defined]
        await sweep(bot)
    (final,) = final_posts()
    assert "The tournament's dice secret was `" in final.content  # the final post: the tournament is over
    await sweep(bot)  # the restarted bot's sweep: the post is owed, sent again, the first comes back
    assert final_posts() == [final]
    store = TournamentStore(bot.database)
    over = await store.channel_tournament(club.id, open_only=False)
    assert over is not None and await store.round_message(over.id, 2) == final.id
    await sweep(bot)
    assert final_posts() == [final]


def test_a_nonce_is_what_the_post_is_and_at_most_25_characters() -> None:
    """The same post, the same nonce, after any restart; ids too long for Discord's 25 characters
    give a digest of them, as fixed, rather than a post refused."""
    assert (limits.nonce("t", 7, "r", 2), limits.board_nonce(12, 5)) == ("t7r2", "m12v5")
    long = limits.board_nonce(10**20, 10**6)
    assert len(long) == 25 and long == limits.board_nonce(10**20, 10**6) != limits.board_nonce(10**20, 10**5)
