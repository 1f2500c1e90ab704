"""The platform's own sentences, read as a player reads them (the words audit of 2026-11-28): counts
agree with their nouns, nothing says 'all 1' or '0 of your 0', and each text says what it means."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from cogs._format import DISCORD
from data import Match, Status
from engine import registry
from engine.meta import RESIGN, TIMEOUT, MetaAction
from engine.review import Moment, Review
from play.listings import review_text
from play.words import history_line
from tests.test_console import close_consoles, open_console  # noqa: F401 (pytest fixture)

GAME = registry.game("blockwars")


def finished_match() -> Match:
    sides = {GAME.sides[0].name: 1, GAME.sides[1].name: 2}
    return Match(
        7, 10, 20, GAME.name, {}, 3, 1, 2, "random", sides, Status.FINISHED,
        None, None, None, False, 3600, 9, None, 2, "resignation", None, None, None, 0.0, 0.0,
    )  # fmt: skip


def a_moment() -> Moment:
    """A real choice of the first side: its set-up, with another legal one preferred."""
    state = GAME.new_game({}, 3)
    side = min(state.to_act())
    legal = [str(a) for a in state.legal_actions(side)]
    view = state.view(side).to_json()
    return Moment(0, 0, legal[0], legal[1], 0.2, 0.1, 0.3, view)


def review(choices: int, looked_at: int, moments: int, side: int = 1) -> str:
    """The look back of `side` (1: the winner, 0: the player who resigned) at `finished_match`."""
    found = Review(GAME.sides[side].name, tuple(a_moment() for _ in range(moments)), choices, looked_at, 1.0)
    return review_text(GAME, finished_match(), found, DISCORD)


def test_a_look_back_with_one_moment_speaks_of_one_choice() -> None:
    text = review(choices=3, looked_at=3, moments=1)
    assert "this choice cost you most (the board of that moment is below)" in text
    assert "these choices" not in text
    assert "I judged all 3 of your choices," in text


def test_a_look_back_at_several_moments_speaks_of_several() -> None:
    text = review(choices=5, looked_at=5, moments=2)
    assert "these choices cost you most (the board of each moment is below)" in text
    assert "I judged all 5 of your choices," in text


def test_a_look_back_at_a_single_choice_never_says_1_of_your_1_choices() -> None:
    text = review(choices=1, looked_at=1, moments=0)
    assert "1 of your 1" not in text and "choices" not in text
    assert "By my judgement your one choice cost you nothing worth showing. Well played." in text
    assert "I judged your one choice from what you could see at the time;" in text
    assert "each" not in text


def test_a_player_who_resigned_is_not_told_well_played() -> None:
    """The phone playtest: "Well played." after a resignation on the first move read as mockery."""
    resigned = review(choices=1, looked_at=1, moments=0, side=0)
    assert resigned.splitlines()[1] == "By my judgement your one choice cost you nothing worth showing."
    assert "Well played" not in resigned


def test_a_look_back_that_ran_out_of_time_at_one_choice_says_so() -> None:
    assert review(choices=1, looked_at=0, moments=0).endswith(
        "Time ran out before I could judge your one choice."
    )
    assert review(choices=4, looked_at=0, moments=0).endswith(
        "Time ran out before I could judge any of your 4 choices."
    )


def test_a_look_back_at_two_choices_says_both() -> None:
    text = review(choices=2, looked_at=2, moments=0)
    assert "I judged both your choices, each from what you could see at the time" in text
    assert "all 2" not in text


def test_a_look_back_cut_short_by_time_says_how_many_it_judged() -> None:
    text = review(choices=9, looked_at=4, moments=0)
    assert "I judged 4 of your 9 choices (time ran out for the rest)," in text


def test_a_game_without_a_move_of_choice_says_there_is_nothing_to_look_back_at() -> None:
    """A player who resigned (or offered a draw) before any move of the game: no '0 of your 0
    choices', and no 'well played' for a game they did not play."""
    text = review(choices=0, looked_at=0, moments=0)
    assert "0 of your 0" not in text and "Well played" not in text
    assert text.endswith(
        "You made no move in this game that had an alternative, so there is nothing to look back at."
    )


def test_a_look_back_that_judged_nothing_does_not_praise_the_play() -> None:
    text = review(choices=4, looked_at=0, moments=0)
    assert "Well played" not in text and "none of your choices cost" not in text
    assert text.endswith("Time ran out before I could judge any of your 4 choices.")


def test_the_wargames_group_says_what_it_holds() -> None:
    """Its description read 'Every game: list, admin tools' while the group grew `mygames`, `away`,
    `undo`, `verify` and the tournaments: the picker now names them. The tournaments have their own
    `/tournament` since, so `/wargames` no longer promises them."""
    from play.commands import TOURNAMENT_HELP, WARGAMES_HELP, all_wargames_commands

    names = {c.name for c in all_wargames_commands("discord")}
    assert {"games", "mygames", "away", "undo", "verify"} <= names and "join" not in names
    for word in ("games", "your games", "time away", "undo", "dice"):
        assert word in WARGAMES_HELP
    assert "tournament" not in WARGAMES_HELP and "tournaments" in TOURNAMENT_HELP
    assert "admin tools" not in WARGAMES_HELP and len(WARGAMES_HELP) <= 100


def test_a_game_never_played_to_its_end_says_why_in_words() -> None:
    """`verify` and `export` of a game that never ended said '(declined)', the store's word for its
    status: each dead end has a reader's words."""
    from play.fairness import NEVER_PLAYED

    ends = {s for s in Status if not s.is_open and s is not Status.FINISHED}
    assert set(NEVER_PLAYED) == ends
    assert NEVER_PLAYED[Status.DECLINED] == "its challenge was declined"


async def test_the_consoles_legal_list_counts_actions(tmp_path: Path) -> None:
    """It said '47 legal for @alice:', a count without its noun."""
    console, out = await open_console(tmp_path)
    await console.run_lines(
        ["/blockwars challenge @bob side:germans", "/as bob", "/blockwars accept", "/as alice"]
    )
    await console.run_lines(["/blockwars setup std", "/as bob", "/blockwars setup std", "/as alice"])
    await console.run_lines(["/blockwars legal"])
    said = out.getvalue()
    assert re.search(r"^\d+ legal actions for @alice:$", said, re.M), said[-600:]
    assert " legal for @" not in said


def test_time_away_tells_one_opponent_or_several() -> None:
    """With one game it said 'your opponents are told' of the one opponent there is."""
    from play.listings import away_text
    from play.results import TimeAway

    one = away_text(TimeAway(1e9, 29, [finished_match()]), DISCORD)
    assert "The clock of your game here stops" in one and ", and your opponent is told." in one
    two = away_text(TimeAway(1e9, 29, [finished_match(), finished_match()]), DISCORD)
    assert "The clocks of your 2 games here stop" in two and ", and your opponents are told." in two
    none = away_text(TimeAway(1e9, 1, []), DISCORD)
    assert "told" not in none and "Time away left: 1 day (at most" in none


async def test_the_consoles_challenge_refusals_are_sentences(tmp_path: Path) -> None:
    """'level must be one of …' began with a lower-case option name: each refusal reads as a
    sentence, as Discord's words for the same refusal do."""
    console, out = await open_console(tmp_path)
    await console.run_lines(["/blockwars challenge @bot level:superb"])
    await console.run_lines(["/blockwars challenge @bob level:easy"])
    await console.run_lines(["/blockwars challenge @bob hours_per_turn:soon"])
    refusals = [ln for ln in out.getvalue().splitlines() if ln.startswith("✗")]
    assert refusals == [
        f"✗ The AI's level must be one of {', '.join(GAME.ai.names)}.",
        "✗ The `level` option is only for games against me (@bot), the AI.",
        "✗ `hours_per_turn` must be a number of hours, for example 72.",
    ]


def test_the_leaderboard_names_the_ais_level_as_a_level() -> None:
    """'@bot (the AI at random)' read as a bot placed by chance: the level is named as one."""
    from play.listings import leaderboard_text
    from play.ratings import Standing

    text = leaderboard_text(
        GAME, [Standing(5, 1200.0, 1, 0, 0), Standing(9, 750.0, 0, 1, 0, "random")], DISCORD
    )
    assert "2. <@9> (the AI, level random): about 750 (0-1-0)" in text
    assert "the AI at random" not in text


async def test_undo_of_a_standing_order_or_a_draw_offer_says_which_it_is(tmp_path: Path) -> None:
    """A standing order was refused as 'not a resignation or a word about a draw', which it is
    neither: each is named for what it is (and a resignation can never be taken back: the game is
    over by then, and that refusal comes first)."""
    console, out = await open_console(tmp_path)
    await console.run_lines(
        ["/fixbayonets challenge @bob side:germans", "/as bob", "/fixbayonets accept", "/as alice"]
    )
    await console.run_lines(["/fixbayonets orders never", "/wargames undo"])
    await console.run_lines(["/fixbayonets draw offer", "/wargames undo"])
    refusals = [ln for ln in out.getvalue().splitlines() if ln.startswith("✗")]
    assert refusals == [
        "✗ `orders never` cannot be taken back: it is a standing order, not a step of the game. "
        "Give another order to change it.",
        "✗ `offer draw` cannot be taken back: only steps of the game itself can, not a word about a draw.",
    ]


def test_a_board_for_a_game_that_ended_meanwhile_names_who_played_it() -> None:
    """Its fallback, for an actor with no side, read 'This played this before the game ended.'"""
    from dataclasses import replace

    from play.present import ended_meanwhile_text
    from play.results import Played

    state = GAME.new_game({}, 3)
    final = finished_match()
    live = replace(final, status=Status.ACTIVE)
    cancelled = replace(final, status=Status.CANCELLED)
    by_first = ended_meanwhile_text(Played(live, state, [], "", 1, "x"), cancelled, None, DISCORD)
    assert by_first.endswith(
        f"The {GAME.sides[0].title} played this before the game ended. The game was cancelled."
    )
    by_nobody = ended_meanwhile_text(Played(live, state, [], "", 99, "x"), cancelled, None, DISCORD)
    assert by_nobody.endswith("This was played before the game ended. The game was cancelled.")


def test_the_admin_subgroup_promises_only_what_it_holds() -> None:
    """It said 'Bot owner and moderator tools' while it holds one owner-only command."""
    from play.commands import SUBGROUPS, Who, all_wargames_commands

    admin = [c for c in all_wargames_commands("discord") if c.subgroup == "admin"]
    assert admin and all(c.who is Who.OWNER for c in admin)
    assert "moderator" not in SUBGROUPS["admin"] and "owner" in SUBGROUPS["admin"]


def test_who_may_cancel_is_said_as_the_service_enforces_it() -> None:
    """The table said 'a player or anyone who may manage the channel' may cancel; the service lets
    only those who may manage the channel (a player alone resigns or offers a draw)."""
    from play.commands import Who, game_commands

    cancel = next(c for c in game_commands(GAME) if c.name == "cancel")
    assert cancel.who is Who.ADMIN and "player" not in Who.ADMIN.value
    assert "(Manage Channels)" in cancel.help


def test_the_review_command_promises_at_most_three_moments() -> None:
    """'your three costliest choices' while a look back may show one, or none."""
    from engine.review import MOMENTS
    from play.commands import game_commands

    review = next(c for c in game_commands(GAME) if c.name == "review")
    assert MOMENTS == 3 and "(three at most)" in review.help and len(review.help) <= 100


@pytest.mark.parametrize("name", registry.names())
@pytest.mark.parametrize("action", [RESIGN, TIMEOUT])
def test_a_resignation_or_a_loss_on_time_names_the_loser_once(name: str, action: MetaAction) -> None:
    """The history read 'Canadians: the Germans win (the Canadians resigned)', the loser named
    twice: the line now starts with the loser's own words and then names the winner."""
    game = registry.game(name)
    state = game.new_game({}, 5)
    loser = min(state.to_act())
    winner = next(s.title for s in game.sides if s.name != loser)
    line = history_line(game.side(loser).title, str(action), state.apply(action, loser))
    done = "resigned" if action is RESIGN else "ran out of time"
    assert line == f"The {game.side(loser).title} {done}: the {winner} win", line


async def test_a_player_of_a_game_without_hands_is_not_told_they_are_not_playing(tmp_path: Path) -> None:
    """`hand` in Block Wars, which has no hands, told a player 'Only the two players have hands in
    this game', as if they were not one of them: they hold nothing secret, and are told so."""
    console, out = await open_console(tmp_path)
    await console.run_lines(
        ["/blockwars challenge @bob side:germans", "/as bob", "/blockwars accept", "/as alice"]
    )
    await console.run_lines(["/blockwars hand", "/as carol", "/blockwars hand"])
    said = out.getvalue().splitlines()
    assert "You hold nothing secret in this game." in said
    assert said[-1] == "✗ Only the two players have hands in this game."  # carol does not play


async def test_a_board_focus_on_an_empty_square_says_what_a_focus_is(tmp_path: Path) -> None:
    """`board unit:a4` answered 'There is no unit on a4. Give a square like e2.', as if a4 were not
    a square: the refusal says the square must hold a unit."""
    console, out = await open_console(tmp_path)
    await console.run_lines(
        ["/blockwars challenge @bob side:germans", "/as bob", "/blockwars accept", "/as alice"]
    )
    await console.run_lines(["/blockwars setup std", "/as bob", "/blockwars setup std"])
    await console.run_lines(["/blockwars board unit:a4"])
    assert out.getvalue().splitlines()[-1] == (
        "✗ There is no unit on 'a4': give the square of a unit on the board, its file and rank (like 'e2')."
    )


async def test_an_expired_challenge_says_whose_it_was(tmp_path: Path) -> None:
    """The channel was told 'The challenge expired unanswered.': which one, of whom to whom, and
    that the channel is free again."""
    from tests.clock import Clock

    clock = Clock(1_790_000_000.0)
    console, out = await open_console(tmp_path, clock=clock)
    await console.run_lines(["/blockwars challenge @bob"])
    clock.now += 2 * 24 * 3600
    await console.run_lines(["/wargames mygames"])
    assert (
        "[general] @bob did not answer @alice's challenge to Block Wars in time, so it has expired; "
        "the channel is free for a new one."
    ) in out.getvalue().splitlines()


def test_a_quick_decision_answered_by_the_game_says_so() -> None:
    """'@bob did not answer in time: The Americans let it stand; …' left the reader to guess that
    the line after the colon was the game's answer for them."""
    from play.notices import notice_text
    from play.results import Notice, Played

    match = finished_match()
    state = GAME.new_game({}, 3)
    played = Played(match, state, [], "decline", 2, "Canadians: decline")
    text = notice_text(Notice("default", match, 2, played, late=(2,)), DISCORD)
    assert text == "<@2> did not answer in time, so the game answered for them: Canadians: decline"


async def test_standings_before_the_first_round_do_not_say_after_round_0(tmp_path: Path) -> None:
    """The standings picture of a tournament still signing up was titled 'after round 0 of 2'."""
    from play.tournament_text import standings_title

    console, out = await open_console(tmp_path)
    await console.run_lines(
        ["/tournament create game:blockwars rounds:2 days:3 name:Cup", "/tournament join"]
    )
    await console.run_lines(["/tournament standings"])
    said = out.getvalue().splitlines()
    assert said[-2] == "Cup has not started yet." and said[-1].startswith("standings: ")
    table = await console.tournaments.service.standings_of(console.channel_id)
    assert standings_title(table.tournament, 0) == "Cup: signed up, not begun yet"
    paired = dataclasses.replace(table.tournament, round=2)  # round 2 paired: round 1 is over
    assert standings_title(paired, 1) == "Cup: after round 1 of 2"


async def test_a_games_help_lists_that_game_and_the_commands_of_every_game(tmp_path: Path) -> None:
    """`/fixbayonets help` printed the commands of all six games; now briefly that game's, and `/fixbayonets
    help all` that game's in full with the commands of every game."""
    console, out = await open_console(tmp_path)
    await console.run_lines(["/fixbayonets help all"])
    said = out.getvalue()
    assert "/fixbayonets setup LAYOUT" in said and "/wargames mygames" in said
    assert "/blockwars" not in said and "/companycommander" not in said
    assert "/help all        every game's commands" in said
    await console.run_lines(["/help all"])
    assert "/blockwars challenge" in out.getvalue()


async def test_vs_ai_with_a_word_that_is_no_game_says_both_lists(tmp_path: Path) -> None:
    """`vs ai chess` answered 'The AI's level must be one of …': the player meant a game."""
    console, out = await open_console(tmp_path)
    await console.run_lines(["vs ai chess", "vs ai fixbayonets superb"])
    refusals = [ln for ln in out.getvalue().splitlines() if ln.startswith("✗")]
    assert refusals[0].startswith("✗ 'chess' is neither a game nor an AI level. Games: blockwars, ")
    assert f"levels of Block Wars: {', '.join(GAME.ai.names)}." in refusals[0]
    assert refusals[1] == "✗ The AI's level must be one of random, easy, normal, hard, correspondence."


async def test_acting_after_the_end_says_the_game_is_over(tmp_path: Path) -> None:
    """`resign` after the game ended answered 'There is no game in this channel', beside the end
    board that `board` still shows: the game is named, and said to be over."""
    console, out = await open_console(tmp_path)
    await console.run_lines(
        ["/blockwars challenge @bob side:germans", "/as bob", "/blockwars accept", "/blockwars resign"]
    )
    await console.run_lines(["/blockwars resign", "/wargames undo"])
    refusals = [ln for ln in out.getvalue().splitlines() if ln.startswith("✗")]
    said = (
        "✗ Game #1 in this channel (Block Wars) is over. "
        "Start a new one with the `challenge` command of a game."
    )
    assert refusals == [said, said]
    await console.run_lines(["/channel elsewhere", "/blockwars resign"])
    assert out.getvalue().splitlines()[-1].startswith("✗ There is no game in this channel.")


async def test_an_accept_after_the_challenge_was_withdrawn_or_declined_says_so(tmp_path: Path) -> None:
    """An accept just after the challenger withdrew heard 'There is no game in this channel', as if
    there had never been one: it names the challenge and what became of it."""
    console, out = await open_console(tmp_path)
    await console.run_lines(
        ["/blockwars challenge @bob", "/blockwars decline", "/as bob", "/blockwars accept"]
    )
    await console.run_lines(["/fixbayonets challenge @alice", "/as alice", "/fixbayonets decline"])
    await console.run_lines(["/fixbayonets accept"])
    refusals = [ln for ln in out.getvalue().splitlines() if ln.startswith("✗")]
    assert refusals == [
        "✗ The last challenge in this channel, game #1 (Block Wars), was cancelled. "
        "Start a new one with the `challenge` command of a game.",
        "✗ The last challenge in this channel, game #2 (Fix Bayonets), was declined. "
        "Start a new one with the `challenge` command of a game.",
    ]


async def test_the_round_asked_in_a_games_thread_is_its_tournaments(tmp_path: Path) -> None:
    """In a tournament game's thread `/tournament round` answered 'This channel has had no
    tournament'; Discord takes a thread's parent, and the console now takes the thread's tournament."""
    console, out = await open_console(tmp_path)
    await console.run_lines(
        [
            "/tournament create game:blockwars rounds:1 days:3 name:Cup",
            "/tournament join",
            "/as bob",
            "/tournament join",
            "/as alice",
            "/tournament start",
            "/channel t1r1b1",
            "/tournament round",
        ]
    )
    assert out.getvalue().splitlines()[-2].startswith("Cup, round 1 of 1: 0 of 1 game over;")


def test_a_limit_of_one_is_stated_in_the_singular() -> None:
    """'Turn limit: 1 turns each, then a draw' and 'Round limit: 1 rounds' when a challenge set 1."""
    from play.present import limits_text

    assert limits_text(registry.game("combinedarms"), {"turns": 1}).startswith(
        "Turn limit: 1 turn each, then a draw"
    )
    assert limits_text(registry.game("battlefronts"), {"rounds": 1}).startswith("Round limit: 1 round, then")
    assert limits_text(registry.game("battlefronts"), {"rounds": 11}).startswith(
        "Round limit: 11 rounds, then"
    )


def test_time_away_words_count_one_game_and_one_day() -> None:
    """`back` with one game speaks of one clock (not "your 1 games"), an allowance of one day is
    "1 day", and the channel of a game against the AI is told without pinging it, and without a
    due time when the game does not wait on the player who left."""
    from dataclasses import replace

    from play.listings import away_notice, back_text
    from play.results import TimeAway
    from play.words import days_text

    one = back_text(TimeAway(None, 3, [finished_match()]))
    assert one.startswith("Welcome back. Your clock runs again. ")
    assert "Your clocks run again in your 2 games here." in back_text(
        TimeAway(None, 3, [finished_match(), finished_match()])
    )
    assert (days_text(1), days_text(2)) == ("1 day", "2 days")
    active = replace(finished_match(), status=Status.ACTIVE, deadline=2e9)
    told = away_notice(active, 1, 1.9e9, False, DISCORD)
    assert told.startswith("<@2>: <@1> is away until ") and "due" not in told
    against_ai = replace(active, ai_player_id=2)
    assert away_notice(against_ai, 1, 1.9e9, True, DISCORD).startswith("<@1> is away until ")
