"""An organiser's first tournament, played through as a server admin and their players would (the
playtest of 2026-11-29): what each message must tell its reader, and the frictions found, each
pinned by a test that failed before its fix.

The words are checked as functions of the tournament (cheap, no I/O), the console's half-typed
`create` through the console, and one whole tournament through the fake Discord with a single bot
start-up: a player who never moves, a bye in round 2, a second `start`, the standings asked for
mid-round, and the final post.
"""

from __future__ import annotations

import io
import logging
import random
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from bot import WargamesBot
from cogs._format import DISCORD
from data.tournaments import Board, Tournament, TournamentStatus
from engine import registry
from play.errors import BadRequest
from play.markup import PlainMarkup
from play.tournament_options import parse_options
from play.tournament_round import BoardNow, RoundNow
from play.tournament_table import Line, Table
from play.tournament_text import (
    game_over_text,
    joined_text,
    options_text,
    round_now_text,
    round_text,
    standings_said,
    standings_subtitle,
    standings_title,
    started_text,
    with_threads,
)
from render.standings import GOLD, Row, standings_png
from tests.botkit import BotKit
from tests.clock import Clock
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import ForwardErrors, HandClock
from tests.test_console import close_consoles, open_console  # noqa: F401 (pytest fixture)
from tests.test_tournament_bot import sweep, threads_of, until

DAY, HOUR = 86400, 3600
MARK = PlainMarkup()
GAME = registry.game("blockwars")


def cup(**changes: object) -> Tournament:
    made = Tournament(
        id=1,
        guild_id=1,
        channel_id=2,
        game="blockwars",
        options={},
        name="Cup",
        rounds=3,
        round_seconds=2 * DAY,
        status=TournamentStatus.RUNNING,
        round=2,
        round_ends_at=1_000_000.0,
        announced=1,
        message_id=None,
        created_by=9,
        version=3,
        created_at=0.0,
    )
    return replace(made, **changes)  # type: ignore[arg-type]


def board(round_no: int, n: int, first: int, second: int | None, result: float | None = None) -> Board:
    return Board(1, round_no, n, first, second, 100 + n, 200 + n, result)


def table(t: Tournament, after: int, lines: list[Line], final: bool = False) -> Table:
    return Table(t, GAME, after, lines, final)


# ---------------------------------------------------------------------------- the words


def test_the_next_rounds_announcement_names_its_bye_and_where_the_games_are():
    """Round 2's announcement listed its games but not its bye (the sweep handed over only the
    boards to start): the player with the bye read nothing about their round."""
    t = cup()
    lines = [Line(1, 11, 1, 0, 0, 0, False), Line(2, 12, 0, 1, 0, 0, False), Line(2, 13, 0, 1, 0, 0, False)]
    said = round_text(table(t, 1, lines), [board(2, 1, 11, 12), board(2, 2, 13, None, 1.0)], MARK)
    head, ends, *rest = said.splitlines()
    assert head == "Cup: round 1 of 3 is over. Standings below." and ends.startswith("Round 2 ends ")
    assert rest == [
        "@11 v @12 in #101",
        "@13 has a bye (a win) this round.",
        "Each game has its own thread in this channel; the first named plays the Germans.",
    ]


def test_a_loss_on_time_tells_the_organiser_what_they_may_do_about_a_no_show():
    """Nothing told an organiser that a player had stopped playing, nor what to do about it."""
    t = cup()
    lines = [Line(1, 11, 1, 0, 1, 0, False), Line(2, 12, 0, 1, 0, 0, False), Line(2, 14, 0, 0, 0, 0, True)]
    said = round_text(table(t, 1, lines), [board(2, 1, 11, 12)], MARK, timed_out=(12, 14))
    # the withdrawn player is not named: an organiser already acted on them
    assert (
        "Out of time in round 1: @12. If a player has stopped playing, an organiser can withdraw "
        "them with `/tournament remove`, so that nobody is paired with them again; and a "
        "game in which a player never moves can be ended at once with `/tournament forfeit`, "
        "without waiting for their clock."
    ) in said
    assert "@14" not in said and "Forfeited" not in said
    assert "Out of time" not in round_text(table(t, 1, lines), [board(2, 1, 11, 12)], MARK)
    both = round_text(table(t, 1, lines), [board(2, 1, 11, 12)], MARK, timed_out=(11, 12), forfeited={12})
    assert "\nForfeited in round 1 (did not move): @12.\nOut of time in round 1: @11. If a player" in both


def test_the_final_post_says_what_the_tie_breaks_are_and_which_one_decided_first_place():
    """The final post said '(points, then Buchholz, then Sonneborn-Berger)', which a player new to
    Swiss events cannot read, and not why the winner was ahead of a player level on points."""
    done = cup(status=TournamentStatus.FINISHED, round=3, announced=2, round_ends_at=None)
    lines = [
        Line(1, 11, 2.5, 6, 4, 20, False),
        Line(2, 12, 2.5, 5, 4.5, 12, False),
        Line(3, 13, 1, 4, 1, -5, False),
    ]
    said = round_text(table(done, 3, lines, final=True), [], MARK)
    assert said.startswith("Cup is over after 3 rounds: @11 wins it with 2½ points. ")
    assert "@12 had as many points; Buchholz put @11 first." in said
    assert "Buchholz (Bh: the sum of their opponents' points)" in said
    assert (
        "Sonneborn-Berger (SB: the points of the opponents they beat, plus half of those they drew)" in said
    )
    # level on Buchholz too: Sonneborn-Berger decided it
    lines[1] = Line(2, 12, 2.5, 6, 3.5, 12, False)
    assert "Sonneborn-Berger put @11 first." in round_text(table(done, 3, lines, final=True), [], MARK)
    # a clear winner is not given a tie-break to read
    lines[1] = Line(2, 12, 2, 6, 3.5, 12, False)
    assert "had as many points" not in round_text(table(done, 3, lines, final=True), [], MARK)


def test_standings_asked_for_mid_round_say_the_round_is_being_played():
    """Asked for during round 1, the standings said 'after round 1 of 3' while its games were being
    played (its bye counted, its games not)."""
    lines = [Line(1, 11, 1, 0.5, 0.5, 0, False)]
    during = table(cup(round=1, announced=0), 1, lines)
    assert standings_title(during.tournament, 1) == "Cup: during round 1 of 3"
    assert standings_said(during, MARK) == (
        "Cup, the standings during round 1 of 3: a game counts once it ends, a bye at once."
    )
    assert standings_subtitle(during).startswith("Round 1's games count once they end. ")
    after = table(cup(round=2, announced=1), 1, lines)  # round 2 is paired: round 1 is over
    assert standings_title(after.tournament, 1) == "Cup: after round 1 of 3"
    assert standings_said(after, MARK) == "Cup, the standings after round 1 of 3."
    final = table(cup(status=TournamentStatus.FINISHED, round=3, announced=3), 3, lines, final=True)
    assert standings_subtitle(final) == (
        "Final standings. Level on points: Buchholz (Bh), then Sonneborn-Berger (SB)."
    )
    gone = table(cup(status=TournamentStatus.CANCELLED), 2, lines)
    assert standings_title(gone.tournament, 2) == "Cup: cancelled in round 2 of 3"


def test_the_start_and_a_sign_up_say_what_happens_next_and_where():
    """A player who joined read 'The games start when an organiser starts it' and nothing of where
    their game would be; the start did not say that the next round comes by itself."""
    assert "each game gets a thread in this channel and both its players are pinged there" in joined_text(
        cup(), MARK
    )
    said = started_text(GAME, cup(round=1), [board(1, 1, 11, 12), board(1, 2, 13, None, 1.0)], MARK)
    assert "@13 has a bye (a win) this round." in said
    assert "the standings then come here and the next round is paired by itself" in said


def test_a_game_over_early_tells_its_players_when_the_round_ends_and_what_comes_next():
    """Two players who finished their game on the first day heard nothing until round 2's ping,
    with no word of when that would be."""
    said = game_over_text(cup(round=1), 2, MARK)
    assert said.startswith("Cup: 2 games are still going in round 1 of 3. Round 2 is paired when they end, ")
    assert said.endswith("each player still in is then pinged in the thread of their next game.")
    last = game_over_text(cup(round=3), 1, MARK)
    assert last.startswith(
        "Cup: 1 game is still going in round 3 of 3, the last. The final standings come in "
    )


def test_the_announcement_names_each_games_thread_once_it_is_open():
    """The start listed '@a v @b' with no thread: the threads were opened after it was posted."""
    plain = started_text(GAME, cup(round=1), [replace(board(1, 1, 11, 12), thread_id=None)], MARK)
    assert "@11 v @12\n" in plain
    linked = with_threads(plain, [board(1, 1, 11, 12), board(1, 2, 13, None, 1.0)], MARK)
    assert linked == plain.replace("@11 v @12\n", "@11 v @12 in #101\n")
    assert with_threads(linked, [board(1, 1, 11, 12)], MARK) == linked  # once


def test_a_tournaments_limit_is_set_by_the_organiser_not_with_the_challenge():
    """The sign-up said a Battlefronts round limit was 'set with the challenge': a tournament's
    players make no challenge and cannot set it."""
    said = options_text(registry.game("battlefronts"), cup(game="battlefronts"))
    assert "set by the organiser when the tournament was made" in said
    assert "challenge" not in said


def test_a_game_stopped_by_the_cancel_is_not_called_a_draw():
    """`round` after a cancel listed the games it stopped 'without a result' as 'a draw'."""
    t = cup(status=TournamentStatus.CANCELLED)
    boards = [
        BoardNow(board(2, 1, 11, 12), 0.5, (), True),
        BoardNow(board(2, 2, 13, 14), 0.5, (), True, stopped=True),
    ]
    said = round_now_text(RoundNow(t, GAME, boards, frozenset()), DISCORD).splitlines()
    assert said[1].endswith(": a draw.")
    assert said[2].endswith(": stopped when the tournament was cancelled.")
    running = round_now_text(RoundNow(cup(), GAME, boards, frozenset()), DISCORD).splitlines()
    assert running[2].endswith(": stopped without a result, so it counts as a draw.")


def test_a_wrong_option_lists_the_games_options_with_a_value_to_type():
    """`options:turn_limit=20` (the form's own example) is no option of Battlefronts, and the refusal
    named only `rounds`: neither that it takes a number nor what it limits."""
    with pytest.raises(BadRequest) as refused:
        parse_options(registry.game("battlefronts"), "turn_limit=20")
    assert refused.value.message == (
        "`turn_limit=20` is not an option of Battlefronts: write `name=value`, several separated by "
        "spaces. Its options: `rounds=30` (Round limit; 30 unless set)."
    )
    with pytest.raises(BadRequest, match=r"`crosses=on` \(Crosses; off unless set\)"):
        parse_options(registry.game("blockwars"), "crosses")


def gold_pixels(rows: list[Row]) -> int:
    image = Image.open(io.BytesIO(standings_png("Cup", "", rows))).convert("RGB")
    return {colour: n for n, colour in image.getcolors(1 << 20) or []}.get(GOLD, 0)


def test_standings_before_any_result_rank_nobody_first():
    """Asked for before the start, the picture showed every player ranked 1 in the leader's gold."""
    level = [Row(1, name, 0, 0, 0, 0) for name in ("bob", "cat", "dan")]
    assert gold_pixels(level) == 0
    led = [Row(1, "bob", 1, 0, 0, 0), Row(2, "cat", 0, 1, 0, 0), Row(2, "dan", 0, 1, 0, 0)]
    assert gold_pixels(led) > 0


# ---------------------------------------------------------------------------- the console


async def test_a_half_typed_create_in_the_console_says_what_is_missing_and_the_games(tmp_path: Path):
    """`create game:battlefronts` answered 'Usage: ... game:GAME rounds:N days:N', naming no game
    and not what was missing; `game:Battlefronts`, as the game's title is written, was no game."""
    console, out = await open_console(tmp_path)
    await console.run_lines(["/tournament create game:battlefronts rounds:3"])
    said = out.getvalue()
    assert "Missing: days." in said and "e.g. `/tournament create game:blockwars rounds:3 days:3`" in said
    assert "Games: blockwars, fixbayonets, battlefronts" in said and "1 to 12 rounds of 1 to 14 days" in said
    await console.run_lines(["/tournament create game:Battlefronts rounds:3 days:3 name:Cup"])
    assert "Cup: a Swiss tournament of Battlefronts, 3 rounds of 3 days each." in out.getvalue()
    # a second one here names the first; a start with too few says how players sign up
    await console.run_lines(["/tournament create game:blockwars rounds:2 days:2", "/tournament start"])
    lines = out.getvalue().splitlines()
    assert lines[-3] == (
        "✗ This channel already runs a tournament, Cup (taking sign-ups), and a channel holds one at a time. "
        "Make the new one in another channel, or wait for this one to end (an organiser may cancel it)."
    )
    assert lines[-1] == (
        "✗ A tournament needs at least 2 players; 0 have signed up so far. Players sign up with "
        "`/tournament join` or the sign-up list's Join button."
    )


async def test_both_players_of_a_game_nobody_came_to_are_named_as_forfeits(tmp_path: Path):
    """A game both players had to begin at once (Combined Arms' set-up) ends without a winner when
    neither comes: both are the organiser's no-shows, though neither lost on time."""
    clock = Clock(1_790_000_000.0)
    console, out = await open_console(tmp_path, clock=clock)
    lines = ["/tournament create game:combinedarms rounds:2 days:2 name:CA"]
    for name in ("bob", "cat"):
        lines += [f"/as {name}", "/tournament join"]
    await console.run_lines([*lines, "/as ann", "/tournament start"])
    clock.now += 17 * HOUR  # past both players' deadline for their set-up
    await console.run_lines(["/tournament round"])
    (said,) = [line for line in out.getvalue().splitlines() if "in round 1 (did not move)" in line]
    assert said.startswith("Forfeited in round 1 (did not move): @bob and @cat.")  # first named first


# ---------------------------------------------------------------------------- through Discord


@pytest.fixture
async def club_bot(fake_discord: FakeDiscord, botkit: BotKit, tmp_path: Path) -> AsyncIterator[WargamesBot]:
    """One bot on SQLite (the words are the store's to neither change nor choose)."""
    fake_discord.settle = 0.01
    errors = ForwardErrors(fake_discord)
    logging.getLogger("bot").addHandler(errors)
    env = {"AI_BUDGET_SECONDS": "0.02", "DATABASE_PATH": str(tmp_path / "club.db")}
    made = await botkit.build(env, clock=HandClock(), rng=random.Random(29))
    try:
        yield made
    finally:
        logging.getLogger("bot").removeHandler(errors)
        await botkit.stop(made)


async def test_an_organisers_first_tournament_through_discord(fake_discord: FakeDiscord, start_bot, club_bot):
    """Five players, two rounds: a sign-up told where the game will be, a second `start` told what
    comes next, the standings mid-round said to be mid-round, a player who never moves named to
    the organiser at the round's end, round 2's bye announced, and the final post's tie-breaks."""
    fake, bot = fake_discord, club_bot
    guild = fake.add_guild("Club", channels=("club",))
    club = guild.channel("club")
    players = [fake.add_user(name) for name in ("alice", "bob", "carol", "dave", "erin")]
    await start_bot(bot)
    made = await fake.slash(
        fake.owner,
        club,
        "tournament",
        "create",
        {"game": "blockwars", "rounds": 2, "days": 2},
        messages=2,
    )
    signup = made.messages[1]
    join = next(c for c in signup.custom_ids if c.startswith("bw:tjoin:"))
    for user in players:
        joined = await fake.click(user, signup, join)
        assert joined.ephemeral and "both its players are pinged there" in joined.content
    await until(lambda: "Signed up (5):" in signup.content)
    started = await fake.slash(fake.owner, club, "tournament", "start", messages=3)
    assert "the next round is paired by itself" in started.messages[0].content
    again = await fake.slash(fake.owner, club, "tournament", "start")
    assert again.ephemeral and again.content.startswith(
        "This tournament has already started: round 1 of 2 ends <t:"
    )
    assert "`/tournament round` shows how each game stands" in again.content

    # the announcement names each game's thread beside its pairing, once the threads are open
    threads = threads_of(fake, club)
    assert len(threads) == 2
    announcement = started.messages[0]
    await until(lambda: all(f"<#{t.id}>" in announcement.content for t in threads))

    # round 1: one game is resigned at once; in the other, the player to move never moves
    users = {u.id: u for u in fake.users.values()}
    quick = await bot.service.last_match(threads[0].id)
    idle = await bot.service.last_match(threads[1].id)
    assert quick is not None and idle is not None
    await fake.slash(users[quick.players[1]], threads[0], "blockwars", "resign")
    # no "next game here is sealed" in a thread made for this one game
    assert not any("next game here" in m.content for m in fake.messages_in(threads[0]))
    await sweep(bot)  # its players, done early, are told until when the round may last, once
    told = [m.content for m in fake.messages_in(threads[0]) if "still going in round" in m.content]
    assert len(told) == 1 and told[0].startswith(
        "**Block Wars Swiss**: 1 game is still going in round 1 of 2."
    )
    assert "Round 2 is paired when it ends, or at the latest <t:" in told[0]
    await sweep(bot)
    assert len([m for m in fake.messages_in(threads[0]) if "still going in round" in m.content]) == 1
    mid = await fake.slash(players[0], club, "tournament", "standings")
    assert mid.message.content == (
        "**Block Wars Swiss**, the standings during round 1 of 2: a game counts once it ends, a bye at once."
    )
    no_show = idle.turn_player_id
    assert no_show is not None
    bot.clock.now += DAY + HOUR  # past the no-show's clock for the whole game (half the round)
    before = len(fake.messages_in(club))
    await bot.get_cog("Core").run_sweep()
    await sweep(bot)
    posted = [m for m in fake.messages_in(club)[before:] if m.attachment("standings.png") is not None]
    assert len(posted) == 1
    said = posted[0].content
    # a loss on time without a move of their own is a forfeit (RULES.md), worded as players read it
    assert f"Forfeited in round 1 (did not move): <@{no_show}>. If a player has stopped" in said
    assert "Out of time" not in said
    assert "has a bye (a win) this round." in said  # round 2's bye, announced with its games
    assert "Each game has its own thread in this channel" in said

    # the organiser removes the no-show from the thread where they met them: the channel is told
    removed = await fake.slash(fake.owner, threads[1], "tournament", "remove", {"member": users[no_show]})
    answer, notice = removed.messages  # to the organiser privately, and to the channel
    assert answer.ephemeral and f"removed <@{no_show}> from **Block Wars Swiss**" in answer.content
    assert not notice.ephemeral and notice.channel_id == club.id and notice.content == answer.content

    # round 2: both games resigned; the final post says what the tie-breaks are
    for thread in [t for t in threads_of(fake, club) if t.name.startswith("R2 ")]:
        match = await bot.service.last_match(thread.id)
        assert match is not None
        await fake.slash(users[match.players[1]], thread, "blockwars", "resign")
    before = len(fake.messages_in(club))
    await sweep(bot)
    final = [m for m in fake.messages_in(club)[before:] if m.attachment("standings.png") is not None]
    after = await fake.slash(fake.owner, club, "tournament", "start")
    assert after.content == (
        "**Block Wars Swiss**, this channel's last tournament, is over; `/tournament create` "
        "starts a new one."
    )
    assert len(final) == 1 and "is over after 2 rounds" in final[0].content
    assert "Buchholz (Bh: the sum of their opponents' points)" in final[0].content
    picture = final[0].attachment("standings.png")
    assert picture is not None and Image.open(io.BytesIO(picture.data)).width == 800
