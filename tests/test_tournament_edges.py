"""The tournament rules' edges that the break test (a one-line change to a rule, run against the
tests) found no test held: the largest settings an organiser may choose, and the cases named in
each test's docstring. Pure functions where the rule is one; the service on SQLite otherwise."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from data import Database
from data.tournaments import Board, Entry, GameRating, Tournament, TournamentStatus
from engine import registry
from engine.protocol import EndReason
from play import BadRequest, knockout, roundrobin
from play import tournament as tournament_module
from play.knockout import Tie
from play.knockout_text import _picture_tie, tie_line
from play.markup import PLAIN
from play.swiss import Entrant, Pairing
from play.tiebreaks import PRESETS, ranked
from play.tournament import GameOver, RoundDone, Started, TournamentService
from play.tournament_crosstable import Ended, crosstable
from play.tournament_export import safe
from play.tournament_formats import MAX_CAP, MAX_SIGNUP_DAYS, Settings, cap, full_refusal, start_pairings
from play.tournament_history import past_text
from play.tournament_late import late_open
from play.tournament_organise import reinstated_text
from play.tournament_round_text import round_now_text
from play.tournament_table import rating_changes
from play.tournament_text import signup_text
from tests.clock import Clock
from tests.round_end import going_at_the_round_end
from tests.test_game_clock import QUICK, STALLER, THREAD, one_game, whole_turn
from tests.test_tournament import CHANNEL, open_one, services, thread_ids
from tests.test_tournament_formats import round_robin
from tests.test_tournament_manage import begin, boards_of, start_games

SWISS_ROUNDS = (1, 12)


async def _service(tmp_path: Path) -> tuple[TournamentService, Database]:
    """The tournament service on an SQLite file (the rules below are the service's, not the store's)."""
    db = await Database.open(tmp_path / "t.db", clock=(clock := Clock()))
    return services(db, clock), db


def test_the_largest_settings_are_taken_and_one_more_is_refused() -> None:
    """RULES.md gives each bound as "1 to 12 rounds", "2 to 100 players" and so on: the top of
    each range is the organiser's to choose (a `<` for a `<=` refused it, and no test asked for the
    top itself)."""
    most = Settings.chosen("swiss", 12, MAX_CAP, None, SWISS_ROUNDS, MAX_SIGNUP_DAYS)
    assert (most.rounds, most.max_players, most.signup_days) == (12, 100, 30)
    assert Settings.chosen("round-robin", None, 10, None, SWISS_ROUNDS).max_players == 10
    assert Settings.chosen("knockout", None, 64, None, SWISS_ROUNDS).max_players == 64
    refused = [
        (("swiss", 13, None, None, SWISS_ROUNDS), "A tournament has 1 to 12 rounds."),
        (("swiss", 3, 101, None, SWISS_ROUNDS), "A tournament's cap on players is 2 to 100."),
        (("round-robin", None, 11, None, SWISS_ROUNDS), "A round-robin's cap on players is 2 to 10."),
        (("knockout", None, 65, None, SWISS_ROUNDS), "A knockout's cap on players is 2 to 64."),
        (("swiss", 3, None, None, SWISS_ROUNDS, 31), "Sign-ups stay open 1 to 30 days."),
    ]
    for args, said in refused:
        with pytest.raises(BadRequest) as why:
            Settings.chosen(*args)  # type: ignore[arg-type]
        assert str(why.value) == said


def _made(format: str, max_players: int | None = None) -> Tournament:
    return Tournament(
        id=1, guild_id=1, channel_id=1, game="blockwars", options={}, name="Cup", rounds=1,
        round_seconds=86400, status=TournamentStatus.SIGNUP, round=0, round_ends_at=None, announced=0,
        message_id=None, created_by=1, version=1, created_at=0.0, format=format, max_players=max_players,
    )  # fmt: skip


def test_a_cap_under_a_formats_own_limit_is_the_one_that_counts() -> None:
    """RULES.md "Round-robin": "A cap under 10 may be set"; the smaller of the organiser's cap and
    the format's own limit fills the list (taking the larger let a round-robin capped at 4 take 10)."""
    small = _made("round-robin", 4)
    assert cap(small) == 4 and cap(_made("knockout", 8)) == 8
    assert cap(_made("round-robin")) == 10 and cap(_made("swiss")) is None
    four = [Entry(10 + i, None, False, 0.0) for i in range(4)]
    said = full_refusal(small, four, 99, "**Cup**")
    assert said == "**Cup** is full: it takes at most 4 players. Ask an organiser if a place comes free."
    assert full_refusal(small, four[:3], 99, "**Cup**") is None


def test_a_knockout_of_64_and_a_round_robin_of_10_start() -> None:
    """The most players each format takes start it (64: six rounds, 32 games; 10: nine rounds), and
    one more is refused with what to do instead."""

    def field(n: int) -> list[Entrant]:
        return [Entrant(100 + i, 1200.0 + i) for i in range(n)]

    pairings, rounds = start_pairings(_made("knockout"), field(64))
    assert (len(pairings), rounds) == (32, 6)
    pairings, rounds = start_pairings(_made("round-robin"), field(10))
    assert (len(pairings), rounds) == (5, 9)
    for made, n in ((_made("knockout"), 65), (_made("round-robin"), 11)):
        with pytest.raises(BadRequest, match=f"and {n} have signed up: an organiser can remove some"):
            start_pairings(made, field(n))


async def test_the_rounds_last_game_ending_tells_its_thread_nothing_of_games_still_going(
    tmp_path: Path,
) -> None:
    """A game that ends while others of its round go on is told how many still go (RULES.md "The
    end of a round"); the round's last game is not ("0 games are still going"): the round closes
    and the next round's pairings say what comes next."""
    t, db = await _service(tmp_path)
    await open_one(t, [11, 12, 13, 14], rounds=2)
    await t.start(CHANNEL, organiser=True)
    await thread_ids(t, [0])
    first, last = [b for b in await t.store.tournament_boards((await t.open_in(CHANNEL)).id) if b.round == 1]
    for board, told in ((first, [1]), (last, [])):
        assert board.thread_id is not None
        await t.matches.act(board.thread_id, board.first_id, "resign")
        swept = await t.sweep(games=True)
        assert [item.going for item in swept if isinstance(item, GameOver)] == told
    assert (await t.open_in(CHANNEL)).round == 2
    await db.close()


async def test_a_latecomer_who_withdraws_before_their_first_round_is_not_named_as_coming(
    tmp_path: Path,
) -> None:
    """`/tournament round` names the latecomers to be paired from the next round (RULES.md "Late
    entry"); one who withdrew meanwhile is not coming, and is listed as withdrawn instead."""
    t, db = await _service(tmp_path)
    tournament = await begin(t, [11, 12, 13, 14], rounds=4)
    await t.join(tournament, 15, entropy=10**18)
    await t.join(tournament, 16, entropy=10**18 + 1)
    await t.withdraw_from(tournament.id, 16)
    now = await t.round_of(CHANNEL)
    assert (now.late, now.withdrawn) == ({15}, {16})
    await db.close()


def test_a_knockout_has_no_champion_before_its_final_is_decided() -> None:
    """`knockout.champion`: the first tie of round 1 of three decided is no final, nor is the
    whole first round."""
    seeds = [1, 2, 3, 4, 5, 6, 7, 8]
    first = [Pairing(1, top, bottom, 1.0) for top, bottom in ((1, 8), (4, 5), (2, 7), (3, 6))]
    assert knockout.champion(seeds, first[:1], {}) is None
    assert knockout.champion(seeds, first, {}) is None


def test_a_game_never_rated_changes_no_ratings_in_the_standings() -> None:
    """The standings' rating column (RULES.md "Standings"): a game stopped at the round's end counts
    as a draw but was never rated, so it changes nothing; only a game that finished before the bot
    kept each game's changes is estimated from the ratings at the start."""
    entries = [Entry(11, 1400.0, False, 0.0), Entry(12, 1000.0, False, 0.0)]
    stopped = [Board(1, 1, 1, 11, 12, 1001, 1, 0.5)]
    assert rating_changes(entries, stopped, [GameRating(1, 1, False, {})]) == {}
    estimated = rating_changes(entries, stopped, [GameRating(1, 1, True, {})])
    assert estimated[11] < 0 < estimated[12]  # a draw with a player rated far below


async def test_a_finished_knockouts_first_round_reads_as_it_stood_then(tmp_path: Path) -> None:
    """The standings after round 1 of a knockout that has ended since (what the sweep posts for a
    round the channel was not told of yet): not the final standings, and a finalist who withdrew
    in the final is still in after round 1 (their withdrawal came later)."""
    t, db = await _service(tmp_path)
    made = await t.create(
        guild_id=5,
        channel_id=CHANNEL,
        user_id=1,
        game="blockwars",
        rounds=None,
        days=2,
        organiser=True,
        format="knockout",
    )
    await t.seal_shown(made)
    for user in (11, 12, 13, 14):
        await t.join(made, user)
    await t.start(CHANNEL, organiser=True)
    for round_no in (1, 2):
        await start_games(t)
        boards = await boards_of(t, made.id, round_no)
        if round_no == 2:
            (final,) = boards
            await t.withdraw_from(made.id, final.first_id)
        for board in boards:
            assert board.thread_id is not None
            await t.matches.act(board.thread_id, board.first_id, "resign")
        await t.sweep()
    over = await t.by_id(made.id)
    assert over.status is TournamentStatus.FINISHED
    after_one = await t.table(over, 1)
    assert not after_one.final and (await t.table(over)).final
    assert sorted(line.rank for line in after_one.lines) == [1, 1, 3, 3]
    await db.close()


A, B, C, D, E, F = 1, 2, 3, 4, 5, 6
SIX = [Entrant(u, 1200.0) for u in (A, B, C, D, E, F)]


def test_the_tiebreaks_edge_cases_a_club_would_check() -> None:
    """RULES.md "Chosen per tournament": the direct encounter counts only if every player still level
    met every other (here A beat C and D beat E, but A never met D: all four stay level on it); wins
    count no bye, also as the store keeps one (a result of 1 on a pairing without an opponent); the
    median Buchholz under three games is the whole Buchholz."""
    games = [
        Pairing(1, A, C, 1.0),
        Pairing(1, E, F, 1.0),
        Pairing(1, B, D, 1.0),
        Pairing(2, C, F, 1.0),
        Pairing(2, A, B, 0.0),
        Pairing(2, E, D, 0.0),
    ]
    level = {
        r.standing.user_id: r.values[0]
        for r in ranked(SIX, games, PRESETS["direct"])
        if r.standing.points == 1
    }
    assert level == {A: 0.0, C: 0.0, D: 0.0, E: 0.0}
    with_bye = [Pairing(1, A, B, 1.0), Pairing(1, C, None, 1.0)]
    wins = {r.standing.user_id: r.values[0] for r in ranked(SIX[:3], with_bye, PRESETS["wins"])}
    assert wins == {A: 1.0, B: 0.0, C: 0.0}
    for line in ranked(SIX, games, PRESETS["median"]):
        assert line.values[0] == line.standing.buchholz  # two games each: nothing dropped


def test_a_name_a_spreadsheet_would_run_is_written_behind_an_apostrophe() -> None:
    """RULES.md "The crosstable and the export": a display name starting with `=`, `+`, `-` or `@`."""
    assert [safe(name) for name in ("=SUM(A1)", "+1", "-x", "@cmd", "Ann")] == [
        "'=SUM(A1)",
        "'+1",
        "'-x",
        "'@cmd",
        "Ann",
    ]


class _ResignedFirst(TournamentService):
    """A sweep that another process overtakes: the game it is about to stop at the round's end is
    resigned (stored) a moment before its stop."""

    async def _stop(self, board: Board) -> None:
        assert board.thread_id is not None
        await self.matches.act(board.thread_id, board.second_id or 0, "resign")
        await super()._stop(board)


async def test_a_resignation_stored_just_before_the_rounds_end_stop_counts_as_played(tmp_path: Path) -> None:
    """RULES.md "The end of a round": a game still going when the round's days run out counts as a
    draw, but one that ended by itself meanwhile (its resignation stored by another process just
    before the stop) counts as it ended, as its rating change did: a win, not a draw."""
    db = await Database.open(tmp_path / "t.db", clock=(clock := Clock()))
    t = _ResignedFirst(db, services(db, clock).matches, clock=clock)
    tournament = await begin(t, [11, 12], rounds=2)
    (board,) = await boards_of(t, tournament.id, 1)
    assert board.match_id is not None
    await going_at_the_round_end(t, tournament.id, board.match_id, clock)
    clock.now = (tournament.round_ends_at or 0.0) + 1
    await t.sweep()
    (ended,) = await boards_of(t, tournament.id, 1)
    assert ended.result == 1.0  # the second named resigned: the first named won
    assert (await t.table(await t.by_id(tournament.id), 1)).lines[0].points == 1.0
    await db.close()


async def test_an_organiser_who_plays_may_take_themselves_off(tmp_path: Path) -> None:
    """RULES.md "An organiser who plays": their own withdrawal is theirs as any player's, so their
    `remove` naming themselves withdraws them (no rival's result or place is theirs to decide by
    it), where removing another player would be refused while they are still in; once withdrawn,
    they may remove one."""
    t, db = await _service(tmp_path)
    tournament = await begin(t, [11, 12, 13, 14])
    done = await t.remove(CHANNEL, 12, organiser=True, by=12)
    assert done.user_id == 12 and [e.user_id for e in await t.entries(tournament) if e.withdrawn] == [12]
    # a removal of their own is theirs to undo (only another organiser's removal of them is not)
    assert (await t.reinstate(CHANNEL, 12, organiser=True, by=12)).user_id == 12
    await t.remove(CHANNEL, 12, organiser=True, by=12)
    # withdrawn, they are no longer in it: a rival's removal is theirs to make as any organiser's
    await t.remove(CHANNEL, 13, organiser=True, by=12)
    assert [e.user_id for e in await t.entries(tournament) if e.withdrawn] == [12, 13]
    await db.close()


def test_late_entry_is_open_while_at_most_half_the_rounds_have_begun() -> None:
    """RULES.md "Late entry": rounds 1 and 2 of 4 or 5, round 1 of 2 or 3, never a tournament of 1."""
    running = replace(_made("swiss"), status=TournamentStatus.RUNNING)
    open_in = {
        rounds: [r for r in range(1, rounds + 1) if late_open(replace(running, rounds=rounds, round=r))]
        for rounds in (1, 2, 3, 4, 5)
    }
    assert open_in == {1: [], 2: [1], 3: [1], 4: [1, 2], 5: [1, 2]}


async def test_a_player_who_moved_and_ran_out_of_time_is_not_called_a_forfeit(tmp_path: Path) -> None:
    """RULES.md "The end of a round": the standings name "Forfeited in round N (did not move)" only
    those without a move of their own in the game; one who played and then let their time run out
    is "Out of time in round N"."""
    t, db = await _service(tmp_path)
    clock = t.clock
    assert isinstance(clock, Clock)
    await one_game(t)
    await whole_turn(t.matches, QUICK)
    await whole_turn(t.matches, STALLER)
    match, _ = await t.matches.current(THREAD)
    assert match.deadline is not None
    clock.now = match.deadline + 1
    (lost,) = await t.matches.sweep()
    assert lost.user_id == QUICK
    (done,) = [item for item in await t.sweep() if isinstance(item, RoundDone)]
    assert (done.timed_out, done.forfeited) == ((QUICK,), frozenset())
    await db.close()


async def test_a_round_robin_game_playing_on_after_its_player_withdrew_is_no_missing_game(
    tmp_path: Path,
) -> None:
    """RULES.md "Round-robin": the game of the round in which a player withdraws plays on; their
    opponent in it has a game this round, so `/tournament round` does not tell them they have none
    (it did, for a withdrawal whose results are struck out)."""
    t, db = await _service(tmp_path)
    await round_robin(t, [21, 22, 23, 24])
    started = await t.start(CHANNEL, organiser=True)
    await thread_ids(t, [0])
    await t.withdraw_from(started.tournament.id, 24)
    assert (await t.round_of(CHANNEL)).unmet == ()
    await db.close()


async def test_an_organisers_tools_at_their_edges(tmp_path: Path) -> None:
    """A round of 14 days (the most) with a bye: the bye's player has no game to end as a no-show;
    a round may be extended by 168 hours (a week, the most at a time); once its time is up it is
    being closed and cannot be. Each refusal says why, and changes nothing."""
    t, db = await _service(tmp_path)
    clock = t.clock
    assert isinstance(clock, Clock)
    base = dict(guild_id=5, channel_id=CHANNEL, user_id=1, game="blockwars", rounds=2, organiser=True)
    with pytest.raises(BadRequest, match=r"Each round lasts 1 to 14 days\."):
        await t.create(**base, days=15)  # type: ignore[arg-type]
    made = await t.create(**base, days=14)  # type: ignore[arg-type]
    await t.seal_shown(made)
    for user in (11, 12, 13):
        await t.join(made, user)
    await t.start(CHANNEL, organiser=True)
    await start_games(t)
    (bye,) = [b for b in await boards_of(t, made.id, 1) if b.second_id is None]
    with pytest.raises(BadRequest) as refused:
        await t.forfeit(CHANNEL, bye.first_id, organiser=True, by=1)
    assert str(refused.value) == f"@{bye.first_id} has the bye in round 1: there is no game to end."
    before = await t.open_in(CHANNEL)
    done = await t.extend(CHANNEL, 168, organiser=True, by=1)
    assert done.tournament.round_ends_at == (before.round_ends_at or 0.0) + 168 * 3600
    clock.now = (done.tournament.round_ends_at or 0.0) + 1  # the sweep has not closed it yet
    with pytest.raises(BadRequest, match=r"The time of round 1 of .* is up: it is being closed"):
        await t.extend(CHANNEL, 1, organiser=True, by=1)
    assert (await t.open_in(CHANNEL)).round_ends_at == done.tournament.round_ends_at
    await db.close()


async def test_the_round_view_says_a_game_the_cancel_stopped_was_stopped(tmp_path: Path) -> None:
    """`/tournament round` after a cancel: the game still going then has no result, and is said so,
    not "a draw" (its round's draw is for a round that ends, not a tournament cancelled)."""
    t, db = await _service(tmp_path)
    await begin(t, [11, 12])
    await t.cancel(CHANNEL, organiser=True)
    said = round_now_text(await t.round_of(CHANNEL), PLAIN)
    assert "stopped when the tournament was cancelled" in said and "a draw" not in said
    await db.close()


async def test_a_game_neither_player_came_to_is_filed_as_time_not_as_played(tmp_path: Path) -> None:
    """RULES.md "The crosstable and the export": a game both players let run out (here a Combined
    Arms set-up neither made) counts as a draw, filed `D` and `time` (with its reason, abandoned),
    not as a game played out to a draw."""
    t, db = await _service(tmp_path)
    clock = t.clock
    assert isinstance(clock, Clock)
    made = await t.create(
        guild_id=5, channel_id=CHANNEL, user_id=1, game="combinedarms", rounds=1, days=2, organiser=True
    )
    await t.seal_shown(made)
    for user in (11, 12):
        await t.join(made, user)
    await t.start(CHANNEL, organiser=True)
    await start_games(t)
    (board,) = await boards_of(t, made.id, 1)
    assert board.match_id is not None
    match = await db.get_match(board.match_id)
    assert match.deadline is not None
    clock.now = match.deadline + 1
    await t.matches.sweep()
    await t.sweep()
    cross = await crosstable(db, t.store, await t.standings_of(CHANNEL))
    (record,) = cross.records
    assert (record.ended, record.reason) == (Ended.TIME, EndReason.ABANDONED)
    assert [p.cells[0].text[0] for p in cross.players] == ["D", "D"]
    await db.close()


def test_a_round_robin_withdrawal_at_exactly_half_keeps_the_results_and_byes_go_to_those_still_in() -> None:
    """RULES.md "Round-robin": a player who withdraws having played at least half their games keeps
    their results (2 of 4 is half), and each game they had left is a forfeit win for the opponent;
    a withdrawn player's own bye of the table is nobody's."""
    five = [Entrant(100 + i, 1500.0 - i) for i in range(5)]
    assert roundrobin.kept(2, 5) and not roundrobin.kept(1, 5)
    gone = five[0].user_id
    round_of_bye = next(r for r in range(1, 6) if Pairing(r, gone, None) in roundrobin.pair_round(five, r))
    paired = roundrobin.pair_round(five, round_of_bye, {gone})
    assert all(gone not in (p.first, p.second) for p in paired)
    # a bye (or a forfeit win) is no game played: one game and a bye of four is under half
    sat_out = [Pairing(1, gone, None, 1.0), Pairing(2, gone, five[1].user_id, 0.0)]
    assert roundrobin.struck(five, {gone}, sat_out) == {gone}


def test_the_words_for_a_withdrawn_player_and_a_walkover() -> None:
    """Once a tournament runs, its sign-up list marks who withdrew (RULES.md "Leaving": the standings
    list them, marked "(withdrawn)", and so does the list); a knockout's tie past round 1 with one
    player left is a walkover, "went on unopposed", not a bye (RULES.md "Knockout")."""
    running = replace(_made("swiss"), status=TournamentStatus.RUNNING, round=3, rounds=3)
    entries = [Entry(11, 1200.0, False, 0.0), Entry(12, 1200.0, True, 0.0), Entry(13, 1200.0, False, 0.0)]
    listed = signup_text(registry.game("blockwars"), running, entries, PLAIN)
    assert "Players (3): @11, @12 (withdrawn), @13." in listed
    assert tie_line(Tie(2, 11, None, 11, knockout.BYE), PLAIN) == "@11 went on unopposed"
    assert tie_line(Tie(1, 11, None, 11, knockout.BYE), PLAIN) == "@11 had a bye"
    # the bracket's picture says a draw that sent the higher seed on as one, not as a win
    drawn = Tie(1, 11, 12, 11, knockout.DRAWN, Pairing(1, 12, 11, 0.5))
    assert _picture_tie(drawn, str) == ("11", "drew with", "12", True, "")


async def test_reinstating_in_a_one_round_tournament(tmp_path: Path) -> None:
    """RULES.md "Leaving": a player taken off the list before the start is put back as a latecomer
    only while late entry is open (never, in a tournament of one round: refused, saying why); a
    removal during the last round is undone, and the channel is told nobody is paired again."""
    t, db = await _service(tmp_path)
    made = await open_one(t, [11, 12, 13, 14, 15], rounds=1)
    await t.remove(CHANNEL, 15, organiser=True, by=1)
    await t.start(CHANNEL, organiser=True)
    await start_games(t)
    with pytest.raises(BadRequest) as refused:
        await t.reinstate(CHANNEL, 15, organiser=True, by=1)
    assert str(refused.value) == (
        f"@15 was taken off the sign-up list of {made.name} before it started, and it is now too late to "
        "join it: a latecomer may join only while at most half the rounds have begun."
    )
    await t.remove(CHANNEL, 12, organiser=True, by=1)
    back = await t.reinstate(CHANNEL, 12, organiser=True, by=1)
    assert reinstated_text(back, 1, PLAIN).startswith(
        f"@1 put @12 back into {made.name}: this is the last round, so nobody is paired again, but they "
        "are no longer marked withdrawn."
    )
    await db.close()


async def test_two_latecomers_for_the_last_place_take_it_once(tmp_path: Path) -> None:
    """A running Swiss with one place left under its cap: two latecomers joining at once, in two
    processes, both pass the first count; the late join's own write counts again, so one is in
    and the other is told it is full (as two sign-ups before the start are)."""
    t, db = await _service(tmp_path)
    made = await open_one(t, [11, 12], rounds=4, max_players=3)
    await t.start(CHANNEL, organiser=True)
    running = await t.open_in(CHANNEL)
    assert isinstance(t.clock, Clock)
    other = services(db, t.clock, 2)  # a second process over the same store
    done = await asyncio.gather(t.join(running, 13), other.join(running, 14), return_exceptions=True)
    refused = [d for d in done if isinstance(d, BadRequest)]
    assert len(refused) == 1 and "is full: it takes at most 3 players" in str(refused[0])
    assert len(await t.entries(made)) == 3
    await db.close()


async def test_the_list_of_past_tournaments_counts_those_it_leaves_out(tmp_path: Path) -> None:
    """`/tournament past` shows the newest 12 and counts the older ones, to be reached by number."""
    t, db = await _service(tmp_path)
    for channel in range(200, 213):
        await t.create(
            guild_id=5, channel_id=channel, user_id=1, game="blockwars", rounds=1, days=1, organiser=True
        )
    shown, more = await t.past(5)
    assert (len(shown), more) == (12, 1)
    # a number is read only in its own server, whoever may see what (the console sees every channel)
    assert (await t.numbered(shown[0].held.tournament.id, 5)).guild_id == 5
    with pytest.raises(
        BadRequest, match=f"There is no tournament with the number {shown[0].held.tournament.id} here"
    ):
        await t.numbered(shown[0].held.tournament.id, 6)
    assert "…and 1 older one: type its name or number" in past_text(shown, more, PLAIN, "/tournament")
    await db.close()


async def test_a_player_who_left_the_server_before_the_start_is_not_paired_in_round_1(tmp_path: Path) -> None:
    """RULES.md "Leaving": a player who leaves the server is withdrawn, the bot checking the members
    when it pairs a round; round 1 is paired at the start, and paired one who had left meanwhile
    (their opponent then waited on a game lost on time, the no-show the rule is there to prevent)."""
    t, db = await _service(tmp_path)
    made = await open_one(t, [11, 12, 13, 14, 15])

    async def present(guild_id: int, user_id: int) -> bool:
        return user_id != 13

    started = await t.start(CHANNEL, organiser=True, present=present)
    assert 13 not in {u for b in started.boards for u in (b.first_id, b.second_id)}
    assert len(await boards_of(t, made.id, 1)) == 2  # four players: two games, no bye
    assert [e.user_id for e in await t.entries(made)] == [11, 12, 14, 15]
    await db.close()


async def test_a_start_does_not_wait_long_to_hear_who_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord wants an organiser's start answered within 3 seconds: a player Discord has not said
    anything of by `START_ASKS` counts as still there (paired; the sweep asks again before round 2),
    as one it cannot answer about does."""
    monkeypatch.setattr(tournament_module, "START_ASKS", 0.05)
    t, db = await _service(tmp_path)
    await open_one(t, [11, 12, 13, 14])
    never = asyncio.Event()

    async def present(guild_id: int, user_id: int) -> bool:
        if user_id == 13:
            await never.wait()
        return user_id != 12

    started = await asyncio.wait_for(t.start(CHANNEL, organiser=True, present=present), 5)
    paired = {u for b in started.boards for u in (b.first_id, b.second_id)}
    assert 13 in paired and 12 not in paired
    await db.close()


async def test_a_second_start_and_a_round_not_yet_announced_change_nothing(tmp_path: Path) -> None:
    """A second `start` is refused, saying when the round ends, and pairs nothing again; the next
    round's games are begun only once its pairings were posted (the sweep hands them to the
    adapter after the round's post, so no thread opens before the channel hears of it); once the
    tournament is cancelled, a command for a running one says it was cancelled."""
    t, db = await _service(tmp_path)
    tournament = await begin(t, [11, 12, 13, 14], rounds=2)
    before = await t.store.tournament_boards(tournament.id)
    with pytest.raises(BadRequest, match="This tournament has already started: round 1 of 2 ends"):
        await t.start(CHANNEL, organiser=True)
    assert await t.store.tournament_boards(tournament.id) == before
    for board in before:
        assert board.thread_id is not None
        await t.matches.act(board.thread_id, board.first_id, "resign")
    (done,) = [item for item in await t.sweep() if isinstance(item, RoundDone)]
    assert done.boards  # round 2's games, to begin once its post is out
    assert not [item for item in await t.sweep() if isinstance(item, Started)]  # not posted yet
    await t.announced(done.table)
    assert [item for item in await t.sweep() if isinstance(item, Started)]
    await t.cancel(CHANNEL, organiser=True)
    with pytest.raises(BadRequest, match=f"{tournament.name}, this channel's last tournament, was cancelled"):
        await t.start(CHANNEL, organiser=True)
    await db.close()


async def test_nothing_starts_or_leaves_once_a_tournament_is_cancelled(tmp_path: Path) -> None:
    """After a cancel: a Leave clicked on its old sign-up list says it was cancelled (not that the
    player was never signed up), and a game of its round not yet begun is not begun at all (its
    dice come from the seal the cancel revealed: docs/fairness.md)."""
    t, db = await _service(tmp_path)
    made = await open_one(t, [11, 12])
    started = await t.start(CHANNEL, organiser=True)
    (board,) = started.boards
    signups = await open_one_elsewhere(t, [13])
    await t.cancel(CHANNEL, organiser=True)
    await t.cancel(CHANNEL + 1, organiser=True)
    with pytest.raises(BadRequest, match=r"^This tournament was cancelled\.$"):
        await t.leave(await t.by_id(signups.id), 13)
    with pytest.raises(BadRequest, match=r"^This tournament was cancelled\.$"):
        await t.start_board(board, 4242)
    assert await db.get_channel_match(4242) is None
    assert made.id != signups.id  # two tournaments, one a channel
    await db.close()


async def open_one_elsewhere(t: TournamentService, players: list[int]) -> Tournament:
    """A second tournament taking sign-ups, in the channel after CHANNEL."""
    made = await t.create(
        guild_id=5, channel_id=CHANNEL + 1, user_id=1, game="blockwars", rounds=1, days=1, organiser=True
    )
    await t.seal_shown(made)
    for user in players:
        await t.join(made, user)
    return made
