"""The knockout's bracket (play/knockout.py) as properties over every size from 2 to 32, and its
rulings (RULES.md "Knockout"): a draw sends the higher seed on, a withdrawal the opponent."""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path

import pytest
from PIL import Image

from play import knockout
from play.swiss import Entrant, Pairing


def field(n: int) -> list[Entrant]:
    """`n` players, ids 1..n, rated so that id 1 is seed 1 (ratings shuffled in by id order)."""
    return [Entrant(i, 2000.0 - 10 * i) for i in range(1, n + 1)]


def play_out(n: int, rng: random.Random, draws: bool = False) -> list[list[Pairing]]:
    """A whole knockout of `n` players with random results: each round's pairings, with results."""
    players = field(n)
    games: list[Pairing] = []
    rounds: list[list[Pairing]] = []
    for r in range(1, knockout.rounds_for(n) + 1):
        paired = knockout.pair_round(players, r, {}, games)
        done = []
        for p in paired:
            outcome = rng.choice([1.0, 0.0, 0.5] if draws else [1.0, 0.0])
            done.append(p if p.second is None else Pairing(p.round, p.first, p.second, outcome))
        games.extend(done)
        rounds.append(done)
    return rounds


@pytest.mark.parametrize("n", range(2, 33))
def test_every_size_halves_each_round_byes_only_in_round_one_to_the_top_seeds(n: int) -> None:
    rng = random.Random(n)
    rounds = play_out(n, rng, draws=True)
    size = 2 ** knockout.rounds_for(n)
    assert size // 2 < n <= size  # the power of two that holds them
    assert len(rounds) == knockout.rounds_for(n)
    for r, paired in enumerate(rounds, start=1):
        assert len(paired) == size >> r  # each round has half the ties of the one before
        seated = [u for p in paired for u in (p.first, p.second) if u is not None]
        assert len(seated) == len(set(seated))  # nobody twice
        byes = [p.first for p in paired if p.second is None]
        if r == 1:
            assert sorted(byes) == list(range(1, size - n + 1))  # the top seeds, as many as places spare
        else:
            assert byes == []
    seeds = knockout.seeded(field(n))
    games = [p for paired in rounds for p in paired]
    final = knockout.champion(seeds, games, {})
    assert final is not None and final.winner is not None
    assert knockout.still_in(seeds, games, {}) == [final.winner]
    places = knockout.places(seeds, games, {})
    assert sorted(places.values()).count(1) == 1
    assert places[final.loser or final.winner] in (1, 2)


def test_round_one_is_one_v_last_and_seeds_one_and_two_meet_only_in_the_final() -> None:
    paired = knockout.pair_round(field(8), 1, {})
    assert {(p.first, p.second) for p in paired} == {(1, 8), (4, 5), (2, 7), (3, 6)}
    games = [Pairing(1, p.first, p.second, 1.0) for p in paired]  # the higher seeds all win
    second = knockout.pair_round(field(8), 2, {}, games)
    assert {frozenset((p.first, p.second)) for p in second} == {frozenset((1, 4)), frozenset((2, 3))}


def test_a_draw_sends_the_higher_seed_on_whichever_side_they_played() -> None:
    seeds = knockout.seeded(field(4))
    for first, second in ((1, 4), (4, 1)):
        games = [Pairing(1, first, second, 0.5), Pairing(1, 2, 3, 0.0)]
        ties = knockout.bracket(seeds, games, {})
        drawn = next(t for t in ties[0] if 1 in (t.top, t.bottom))
        assert (drawn.winner, drawn.how) == (1, knockout.DRAWN)
        (final,) = knockout.pair_round(field(4), 2, {}, games)
        assert {final.first, final.second} == {1, 3}


def test_the_higher_seed_keeps_the_first_side_unless_they_had_it_more() -> None:
    games = [Pairing(1, 1, 4, 1.0), Pairing(1, 3, 2, 0.0)]  # 2 played the second side in round 1
    (final,) = knockout.pair_round(field(4), 2, {}, games)
    assert (final.first, final.second) == (2, 1)  # 1 had the first side, 2 had not: 2 takes it


def test_a_withdrawal_sends_the_opponent_on_whatever_the_game_said() -> None:
    seeds = knockout.seeded(field(4))
    games = [Pairing(1, 1, 4, 1.0), Pairing(1, 2, 3, 1.0)]
    # 1 won, then withdrew while round 1 was still under way: 4 goes on by forfeit
    ties = knockout.bracket(seeds, games, {1: 1})
    tie = next(t for t in ties[0] if 1 in (t.top, t.bottom))
    assert (tie.winner, tie.how) == (4, knockout.FORFEIT)
    (final,) = knockout.pair_round(field(4), 2, {1: 1}, games)
    assert {final.first, final.second} == {2, 4}
    # a finalist withdrawing in round 2, their game still going: the other wins the knockout
    final_games = [*games, Pairing(2, 2, 4)]
    won = knockout.champion(seeds, final_games, {1: 1, 4: 2})
    assert won is not None and (won.winner, won.how) == (2, knockout.FORFEIT)


def test_both_withdrawn_leave_a_walkover_for_the_next_opponent() -> None:
    games = [Pairing(1, 1, 4, 1.0), Pairing(1, 2, 3, None)]
    (final,) = knockout.pair_round(field(4), 2, {2: 1, 3: 1}, games)
    assert (final.first, final.second) == (1, None)  # a walkover, a win, as a bye is


# ---------------------------------------------------------------- the whole knockout, both stores


async def test_a_knockout_of_five_from_sign_up_to_its_winner(store_world) -> None:
    """Five players (seeds 21..25: equal ratings, so by id): byes for the top three; in round 1's
    one game seed 4 loses on time, so seed 5 goes on; seed 2 withdraws in round 2, so seed 3 goes on
    whatever their game says; the final names the winner and the runner-up."""
    from cogs._format import DISCORD as MARKUP
    from engine import registry
    from play import BadRequest
    from play.tournament import DAY, RoundDone
    from play.tournament_crosstable import crosstable
    from play.tournament_crosstable_text import crosstable_key, export_said
    from play.tournament_export import games_csv
    from play.tournament_leaving_text import undo_hint, withdraw_question, withdrawal_notice, withdrawn_text
    from play.tournament_round import round_now
    from play.tournament_round_text import round_now_text
    from play.tournament_text import round_text, signup_text, standings_said, started_text
    from tests.test_tournament import CHANNEL, GUILD, ORGANISER, services, thread_ids

    db, clock = store_world
    t = services(db, clock)
    with pytest.raises(BadRequest, match="A knockout's rounds follow from its players"):
        await t.create(
            guild_id=GUILD, channel_id=CHANNEL, user_id=ORGANISER, game="blockwars",
            rounds=3, days=1, organiser=True, format="knockout",
        )  # fmt: skip
    with pytest.raises(BadRequest, match="no tie-break order applies: leave `tiebreaks` out"):
        await t.create(
            guild_id=GUILD, channel_id=CHANNEL, user_id=ORGANISER, game="blockwars",
            rounds=None, days=1, organiser=True, format="knockout", tiebreaks="median",
        )  # fmt: skip
    made = await t.create(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ORGANISER, game="blockwars",
        rounds=None, days=1, organiser=True, format="knockout", max_players=8,
    )  # fmt: skip
    await t.seal_shown(made)
    for user in (21, 22, 23, 24, 25):
        await t.join(made, user)
    made = await t.open_in(CHANNEL)
    assert made.format == "knockout" and made.name == "Block Wars Knockout"
    game = registry.game("blockwars")
    listed = signup_text(game, made, await t.entries(made), MARKUP)
    assert listed.startswith(
        "**Block Wars Knockout**: a knockout of Block Wars: seeded by rating, the winner of each game "
        "goes on, in rounds of 1 day each; the players at the start set how many rounds (so far, with "
        "5 players that is 3 rounds, the top 3 seeds with a bye in round 1). A drawn game (or one "
        "still going when its round ends) sends the higher seed on, so a lower seed must win. At most "
        "8 players."
    )
    started = await t.start(CHANNEL, organiser=True)
    assert started.tournament.rounds == 3
    boards = await t.store.tournament_boards(started.tournament.id)
    assert [(b.first_id, b.second_id) for b in boards] == [(24, 25), (21, None), (22, None), (23, None)]
    said = started_text(game, started.tournament, boards, MARKUP)
    assert "A knockout, with 5 players that is 3 rounds, the top 3 seeds with a bye in round 1." in said
    with pytest.raises(BadRequest, match="is a knockout and has begun: its bracket was drawn"):
        await t.join(started.tournament, 26)
    counter = [0]
    await thread_ids(t, counter)
    running = await t.open_in(CHANNEL)
    now = round_now_text(await round_now(t.store, running, clock()), MARKUP)
    assert "sends the higher seed on, so a lower seed must win." in now
    # round 1's only game: seed 4, to move first, lets their time run out, so seed 5 goes on
    clock.now += DAY + 1
    (done,) = [x for x in await t.sweep() if isinstance(x, RoundDone)]
    await t.announced(done.table)
    text = round_text(done.table, done.pairings, MARKUP)
    assert "Out in the quarter-finals: <@24> is knocked out." in text
    assert {(b.first_id, b.second_id) for b in done.pairings} == {(21, 25), (22, 23)}
    assert "The quarter-finals: <@21> had a bye; <@25> beat <@24>;" in standings_said(done.table, MARKUP)
    await thread_ids(t, counter)
    # seed 2 withdraws during the semi-finals and then wins their game: seed 3 goes on all the same
    second = await t.open_in(CHANNEL)
    asked = withdraw_question(await t.withdrawal(second, 22), MARKUP)
    assert asked.startswith(
        "Withdraw from **Block Wars Knockout**? It is a knockout: you go out now, and this cannot be "
        "undone; your opponent of this round goes on by forfeit, whatever the game says. Your game with "
        "<@23> plays on, rated as usual, but no longer decides who goes on"
    )
    gone = await t.withdraw_from(second.id, 22)
    assert withdrawal_notice(gone, None, MARKUP) == (
        "<@22> has withdrawn from **Block Wars Knockout**: they are out of the knockout, and their "
        "opponent of this round goes on by forfeit, whatever the game says."
    )
    assert undo_hint(gone, MARKUP) == ""
    assert withdrawn_text(gone, MARKUP).startswith(
        "You have withdrawn from **Block Wars Knockout**: you are out, and your opponent of this round "
        "goes on by forfeit, whatever the game says. Your game with <@23> plays on, rated as usual"
    )
    with pytest.raises(BadRequest, match="is a knockout and has begun"):
        await t.reinstate(CHANNEL, 22, organiser=True)
    for board in await t.store.tournament_boards(second.id):
        if board.round == 2 and board.thread_id is not None:
            loser = 25 if 25 in (board.first_id, board.second_id) else 23
            await t.matches.act(board.thread_id, loser, "resign")
    (semis,) = [x for x in await t.sweep() if isinstance(x, RoundDone)]
    await t.announced(semis.table)
    assert {(b.first_id, b.second_id) for b in semis.pairings} in ({(21, 23)}, {(23, 21)})
    out = round_text(semis.table, semis.pairings, MARKUP)
    assert "Out in the semi-finals: <@25> and <@22> are knocked out." in out
    await thread_ids(t, counter)
    final = await t.open_in(CHANNEL)
    (board,) = [b for b in await t.store.tournament_boards(final.id) if b.round == 3]
    assert board.thread_id is not None
    await t.matches.act(board.thread_id, 23, "resign")
    (last,) = [x for x in await t.sweep() if isinstance(x, RoundDone)]
    assert last.table.final and last.table.winners == [21]
    assert [(x.user_id, x.rank) for x in last.table.lines] == [(21, 1), (23, 2), (22, 3), (25, 3), (24, 5)]
    posted = round_text(last.table, [], MARKUP)
    assert posted.startswith(
        "**Block Wars Knockout** is over after 3 rounds: <@21> wins it, beating <@23> in the final; "
        "<@23> is the runner-up. Congratulations! The bracket:\n"
        "The quarter-finals: <@21> had a bye; <@25> beat <@24>; <@22> had a bye; <@23> had a bye.\n"
        "The semi-finals: <@21> beat <@25>; <@23> went on: <@22> withdrew.\n"
        "The final: <@21> beat <@23>."
    )
    cross = await crosstable(db, t.store, last.table)
    assert games_csv(cross, game, str)  # the records export as for any tournament
    assert crosstable_key(cross).startswith("Ranked by how far each got: the winner, the runner-up,")
    assert "in standing order: by how far each got in the knockout (the winner first)." in export_said(
        cross, MARKUP, "games.csv", "standings.csv"
    )


def test_the_bracket_of_64_fits_one_message() -> None:
    """The largest knockout's bracket, said under the standings and in the final post, stays within
    a Discord message: the earliest rounds give way first."""
    from data.tournaments import Tournament, TournamentStatus
    from engine import registry
    from play.knockout_text import bracket_text
    from play.tournament_table import Line, Table

    players = [Entrant(10**18 + i, 1500.0) for i in range(64)]  # ids as long as Discord's
    games: list[Pairing] = []
    for r in range(1, 7):
        games += [Pairing(r, p.first, p.second, 1.0) for p in knockout.pair_round(players, r, {}, games)]
    seeds = knockout.seeded(players)
    tree = knockout.bracket(seeds, games, {})
    place = knockout.places(seeds, games, {})
    lines = [Line(place[u], u, 0.0, 0.0, 0.0, 0.0, False) for u in seeds]
    made = Tournament(
        id=1, guild_id=1, channel_id=1, game="blockwars", options={}, name="Big", rounds=6,
        round_seconds=86400, status=TournamentStatus.FINISHED, round=6, round_ends_at=None, announced=6,
        message_id=None, created_by=1, version=1, created_at=0.0, format="knockout",
    )  # fmt: skip
    table = Table(made, registry.game("blockwars"), 6, lines, True, bracket=tree)
    from cogs._format import DISCORD as MARKUP

    said = bracket_text(table, MARKUP)
    assert len(said) <= 1400 and said.endswith(".")
    assert said.startswith("The first 2 rounds are left out to fit;")
    assert said.split("\n")[1].startswith("Round 3: ") and "The final: " in said
    # and its picture: the last four rounds (15 ties), no taller than a phone shows whole
    from play.knockout_text import picture
    from render.bracket import bracket_png
    from render.kit import max_height

    title, subtitle, shown = picture(table, {u: f"Player {i}" for i, u in enumerate(seeds)})
    assert [heading for heading, _ in shown] == [
        "Round 3",
        "The quarter-finals",
        "The semi-finals",
        "The final",
    ]
    assert subtitle.endswith(
        "To fit, rounds 1 and 2 are left out: the standings' words and the crosstable have them."
    )
    assert shown[-1][1] == [("Player 0", "beat", "Player 1", True, "")]  # the higher seeds won every game
    image = Image.open(io.BytesIO(bracket_png(title, subtitle, shown)))
    assert image.width == 800 and image.height <= max_height(800)


def test_the_bracket_picture_says_a_forfeit_as_a_sentence() -> None:
    """Seed 1 won, then withdrew in round 1: the picture reads "Dave beat Alexandra by forfeit" (it
    read "Dave by forfeit Alexandra"), the words after a long name never cut off."""
    from data.tournaments import Tournament, TournamentStatus
    from engine import registry
    from play.knockout_text import picture
    from play.tournament_table import Line, Table
    from render.bracket import bracket_png

    seeds = knockout.seeded(field(4))
    games = [Pairing(1, 1, 4, 1.0), Pairing(1, 2, 3, 1.0)]
    place = knockout.places(seeds, games, {1: 1})
    made = Tournament(
        id=1, guild_id=1, channel_id=1, game="blockwars", options={}, name="Cup", rounds=2,
        round_seconds=86400, status=TournamentStatus.RUNNING, round=2, round_ends_at=86400.0, announced=1,
        message_id=None, created_by=1, version=1, created_at=0.0, format="knockout",
    )  # fmt: skip
    lines = [Line(place[u], u, 0.0, 0.0, 0.0, 0.0, u == 1) for u in seeds]
    table = Table(
        made, registry.game("blockwars"), 2, lines, False, bracket=knockout.bracket(seeds, games, {1: 1})
    )
    names = {1: "Alexandra Konstantinopoulou", 2: "Bea", 3: "Cy", 4: "Dave"}
    title, subtitle, shown = picture(table, names)
    assert ("Dave", "beat", "Alexandra Konstantinopoulou", True, " by forfeit") in shown[0][1]
    assert ("Bea", "beat", "Cy", True, "") in shown[0][1]
    assert Image.open(io.BytesIO(bracket_png(title, subtitle, shown))).width == 800


def test_the_sign_up_list_says_the_knockouts_own_limit_only_near_it() -> None:
    """A list of five that says "At most 64 players" warns of nothing: the knockout's own limit is
    said once the list nears it, the organiser's cap always (RULES.md "Knockout")."""
    from dataclasses import replace

    from cogs._format import DISCORD as MARKUP
    from data.tournaments import Entry, Tournament, TournamentStatus
    from engine import registry
    from play.tournament_formats import KNOCKOUT_NEAR
    from play.tournament_text import signup_text

    cup = Tournament(
        id=1, guild_id=1, channel_id=1, game="blockwars", options={}, name="Cup", rounds=0,
        round_seconds=86400, status=TournamentStatus.SIGNUP, round=0, round_ends_at=None, announced=0,
        message_id=None, created_by=1, version=1, created_at=0.0, format="knockout",
    )  # fmt: skip
    game = registry.game("blockwars")

    def listed(made: Tournament, n: int) -> str:
        return signup_text(game, made, [Entry(10 + i, None, False, 0.0) for i in range(n)], MARKUP)

    assert "At most" not in listed(cup, 5)
    assert "At most" not in listed(cup, KNOCKOUT_NEAR - 1)
    assert "At most 64 players." in listed(cup, KNOCKOUT_NEAR)
    assert "At most 8 players." in listed(replace(cup, max_players=8), 5)


def test_a_walkover_past_round_one_is_said_as_one_in_the_round() -> None:
    """`/tournament round` in a knockout: a pairing without an opponent after round 1 is
    a walkover (the opponent withdrew), not a bye; and the draw rule is said with the round."""
    from cogs._format import DISCORD as MARKUP
    from data.tournaments import Board, Tournament, TournamentStatus
    from engine import registry
    from play.tournament_round import BoardNow, RoundNow
    from play.tournament_round_text import round_now_text

    made = Tournament(
        id=1, guild_id=1, channel_id=1, game="blockwars", options={}, name="Cup", rounds=2,
        round_seconds=86400, status=TournamentStatus.RUNNING, round=2, round_ends_at=86400.0, announced=1,
        message_id=None, created_by=1, version=1, created_at=0.0, format="knockout",
    )  # fmt: skip
    walkover = BoardNow(Board(1, 2, 1, 11, None, None, None, 1.0), 1.0, (), False)
    now = RoundNow(made, registry.game("blockwars"), [walkover], frozenset({12, 13}))
    said = round_now_text(now, MARKUP)
    assert "1. <@11> goes on without a game: their opponent withdrew." in said
    assert "bye" not in said
    assert "A drawn game (or one still going when its round ends) sends the higher seed on" in said


# A console's knockout of two, started: Bob (the higher seed, named first) v Alice, in #t1r1b1.
KNOCKOUT_OF_TWO = (
    "/tournament create game:blockwars days:1 format:knockout name:Cup",
    "/tournament join",
    "/as bob",
    "/tournament join",
    "/tournament start",
)


async def test_the_console_makes_a_knockout_and_draws_its_bracket(tmp_path: Path) -> None:
    from tests.console_run import console_said

    text = await console_said(
        tmp_path,
        (
            *KNOCKOUT_OF_TWO,
            "/tournament standings",
            "/channel t1r1b1",
            "/blockwars draw offer",
        ),
    )
    # the offer's answer line, as under Discord's board, names whom the draw sends on
    (answer,) = [
        line for line in text.splitlines() if ": accept the draw with `/blockwars draw accept`" in line
    ]
    assert answer.endswith(" on, as the higher seed."), answer
    assert (
        "In this knockout a draw sends @alice on" in answer
        or "In this knockout a draw sends @bob on" in answer
    )
    assert "Cup: a knockout of Block Wars: seeded by rating, the winner of each game goes on" in text
    assert "Cup has begun: round 1 of 1" in text
    assert "A knockout, with 2 players that is 1 round." in text
    drawn = [line.split("bracket: ", 1)[1] for line in text.splitlines() if "bracket: " in line]
    png = await asyncio.to_thread(Path(drawn[-1]).read_bytes) if drawn else b""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


async def test_a_draw_offer_after_a_withdrawal_does_not_say_the_draw_sends_anyone_on(tmp_path: Path) -> None:
    """Bob, the higher seed, withdraws and then offers a draw in the game that plays on: Alice goes
    on whatever the game says, so the answer line must not tell her that a draw sends Bob on."""
    from tests.console_run import console_said

    text = await console_said(
        tmp_path,
        (
            *KNOCKOUT_OF_TWO,
            "/tournament leave",
            "/tournament leave confirm",
            "/channel t1r1b1",
            "/blockwars draw offer",
        ),
    )
    assert "@bob v @alice in #t1r1b1" in text  # Bob is the higher seed, named first
    (answer,) = [
        line for line in text.splitlines() if ": accept the draw with `/blockwars draw accept`" in line
    ]
    assert (
        answer == "@alice: accept the draw with `/blockwars draw accept`, or decline it once it is your turn."
    )


def test_a_knockout_emptied_by_withdrawals_names_its_winner_without_a_final() -> None:
    """Four players: 1 beats 4 in round 1, while 2 and 3 both withdraw: the knockout is over (the
    sweep's `decided`), and the final post does not call round 1 the final."""
    from cogs._format import DISCORD as MARKUP
    from data.tournaments import Entry, Tournament, TournamentStatus
    from engine import registry
    from play.knockout_text import winner_text
    from play.tournament_formats import decided
    from play.tournament_table import Line, Table

    made = Tournament(
        id=1, guild_id=1, channel_id=1, game="blockwars", options={}, name="Cup", rounds=2,
        round_seconds=86400, status=TournamentStatus.FINISHED, round=1, round_ends_at=None, announced=1,
        message_id=None, created_by=1, version=1, created_at=0.0, format="knockout",
    )  # fmt: skip
    entries = [
        Entry(u, 2000.0 - 10 * u, u in (2, 3), 0.0, withdrawn_round=1 if u in (2, 3) else None)
        for u in (1, 2, 3, 4)
    ]
    games = [Pairing(1, 1, 4, 1.0), Pairing(1, 2, 3, None)]
    assert decided(made, entries, games)
    seeds = knockout.seeded(field(4))
    gone = {2: 1, 3: 1}
    place = knockout.places(seeds, games, gone)
    lines = [Line(place[u], u, 0.0, 0.0, 0.0, 0.0, u in gone) for u in seeds]
    table = Table(
        made, registry.game("blockwars"), 1, lines, True, bracket=knockout.bracket(seeds, games, gone, 1)
    )
    assert (
        winner_text(table, MARKUP) == "<@1> wins it: everyone else still in withdrew, so no final was needed."
    )
