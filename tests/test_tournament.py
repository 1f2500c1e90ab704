"""The tournament service (play/tournament.py) on both stores: refusals that change nothing, options,
a restart mid-round, two processes sweeping the same round over (paired once), the round's days
running out, and the console's commands."""

from __future__ import annotations

import asyncio
import random

import pytest

from cogs._format import DISCORD
from data import Database, Status
from data.tournaments import Tournament, TournamentStatus
from engine import registry
from play import BadRequest, MatchService, NotAPlayer
from play.results import Notice
from play.tournament import DAY, RoundDone, TournamentService, parse_options, turn_seconds
from play.tournament_text import signup_text
from tests.clock import Clock
from tests.round_end import going_at_the_round_end

GUILD, CHANNEL = 5, 100
ORGANISER = 1
PLAYERS = [11, 12, 13, 14, 15]


def services(db: Database, clock: Clock, seed: int = 1) -> TournamentService:
    return TournamentService(db, MatchService(db, clock=clock, rng=random.Random(seed)), clock=clock)


async def open_one(
    t: TournamentService, players: list[int], rounds: int = 3, days: int = 2, max_players: int | None = None
) -> Tournament:
    """A Swiss tournament of Block Wars in CHANNEL, made by the organiser, with `players` signed up
    (not started): the tournament as made."""
    made = await t.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ORGANISER,
        game="blockwars",
        rounds=rounds,
        days=days,
        organiser=True,
        max_players=max_players,
    )
    await t.seal_shown(made)  # as the adapter shows it, before anyone may join
    for user in players:
        await t.join(made, user)
    return made


async def thread_ids(t: TournamentService, counter: list[int]) -> None:
    """What the adapter does: a thread per pairing, then the game in it."""
    tournament = await t.open_in(CHANNEL)
    for board in await t.pending_starts(tournament):
        counter[0] += 1
        await t.start_board(board, 1000 + counter[0])


async def test_refusals_change_nothing(store_world):
    db, clock = store_world
    t = services(db, clock)
    base = dict(guild_id=GUILD, channel_id=CHANNEL, user_id=ORGANISER, game="blockwars", rounds=3, days=2)
    with pytest.raises(NotAPlayer, match="manage the server"):
        await t.create(**base, organiser=False)  # type: ignore[arg-type]
    with pytest.raises(BadRequest, match="no game `chess`"):
        await t.create(**{**base, "game": "chess"}, organiser=True)  # type: ignore[arg-type]
    with pytest.raises(BadRequest, match="1 to 12 rounds"):
        await t.create(**{**base, "rounds": 13}, organiser=True)  # type: ignore[arg-type]
    with pytest.raises(BadRequest, match="1 to 14 days"):
        await t.create(**{**base, "days": 0}, organiser=True)  # type: ignore[arg-type]
    with pytest.raises(BadRequest, match="not an option of Block Wars"):
        await t.create(**base, options="tanks=on", organiser=True)  # type: ignore[arg-type]
    assert await t.store.channel_tournament(CHANNEL) is None  # nothing was made
    made = await t.create(**base, organiser=True)  # type: ignore[arg-type]
    with pytest.raises(BadRequest, match="already runs a tournament"):
        await t.create(**base, organiser=True)  # type: ignore[arg-type]
    with pytest.raises(BadRequest, match="count only once its dice seal is shown in its channel"):
        await t.join(made, 11)  # the seal comes first: no sign-up counts before it
    await t.seal_shown(made)
    await t.join(made, 11)
    with pytest.raises(BadRequest, match="already signed up"):
        await t.join(made, 11)
    with pytest.raises(BadRequest, match="not signed up"):
        await t.leave(made, 12)
    with pytest.raises(BadRequest, match="at least 2 players; 1 has signed up"):
        await t.start(CHANNEL, organiser=True)
    await t.join(made, 12)
    with pytest.raises(NotAPlayer):
        await t.start(CHANNEL, organiser=False)
    with pytest.raises(NotAPlayer):
        await t.cancel(CHANNEL, organiser=False)
    still = await t.open_in(CHANNEL)
    assert still.status is TournamentStatus.SIGNUP
    assert [e.user_id for e in await t.entries(still)] == [11, 12]
    await t.leave(still, 12)
    assert [e.user_id for e in await t.entries(still)] == [11]


def test_options_are_the_challenges_words_checked_by_the_game():
    game = registry.game("blockwars")
    assert parse_options(game, "crosses=on fighter_aces=off")["crosses"] is True
    with pytest.raises(BadRequest, match="on or off"):
        parse_options(game, "crosses=maybe")
    with pytest.raises(BadRequest, match="name=value"):
        parse_options(game, "crosses")
    limited = registry.game("fixbayonets")
    assert parse_options(limited, "turn_limit=12")["turn_limit"] == 12
    with pytest.raises(BadRequest, match="whole number"):
        parse_options(limited, "turn_limit=many")
    assert turn_seconds(2 * DAY) == 2 * DAY // 3 and turn_seconds(14 * DAY) == 3 * DAY


async def test_the_sign_up_message_states_the_options_as_a_challenge_does(store_world):
    db, clock = store_world
    t = services(db, clock)
    made = await t.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ORGANISER,
        game="fixbayonets",
        rounds=1,
        days=1,
        name="  Spring   Cup ",
        options="turn_limit=12",
        organiser=True,
    )
    assert made.options["turn_limit"] == 12
    text = signup_text(registry.game("fixbayonets"), made, [], DISCORD)
    assert text.startswith("**Spring Cup**: a Swiss tournament of Fix Bayonets, 1 round of 1 day each.")
    assert "Turn limit: 12 rounds" in text


async def test_a_restart_mid_round_and_two_sweeps_pair_the_next_round_once(store_world):
    db, clock = store_world
    t = services(db, clock)
    await open_one(t, PLAYERS[:4])
    started = await t.start(CHANNEL, organiser=True)
    assert len(started.boards) == 2
    counter = [0]
    await thread_ids(t, counter)
    # every game of round 1 ends by resignation
    for board in await t.store.tournament_boards(started.tournament.id):
        assert board.thread_id is not None and board.match_id is not None
        await t.matches.act(board.thread_id, board.first_id, "resign")
    # the bot restarts: fresh services over the same database, two processes at once
    a, b = services(db, clock, 2), services(db, clock, 3)
    done = await asyncio.gather(a.sweep(), b.sweep())
    boards = await a.store.tournament_boards(started.tournament.id)
    assert [bd.round for bd in boards].count(2) == 2  # round 2 paired once
    assert all(bd.result == 0.0 for bd in boards if bd.round == 1)
    closed = [item for items in done for item in items if getattr(item, "table", None) is not None]
    assert 1 <= len(closed) <= 2  # at least once (each may post before the other marks it)
    await a.announced(closed[0].table)  # type: ignore[union-attr]
    assert (await a.store.get_tournament(started.tournament.id)).announced == 1  # type: ignore[union-attr]
    # starting the games: one process creates the match for each thread, a second finds it
    await thread_ids(a, counter)
    await thread_ids(b, counter)  # nothing left to start
    round2 = [bd for bd in await a.store.tournament_boards(started.tournament.id) if bd.round == 2]
    assert all(bd.match_id is not None for bd in round2)
    assert len({bd.match_id for bd in round2}) == 2


async def test_the_rounds_days_running_out_stops_open_games_as_draws(store_world):
    db, clock = store_world
    t = services(db, clock)
    await open_one(t, PLAYERS[:2], rounds=1)
    started = await t.start(CHANNEL, organiser=True)
    await thread_ids(t, [0])
    assert await t.sweep() == []  # nothing over yet
    board = (await t.store.tournament_boards(started.tournament.id))[0]
    assert board.match_id is not None
    await going_at_the_round_end(t, started.tournament.id, board.match_id, clock)  # its turn runs past it
    clock.now = (started.tournament.round_ends_at or 0) + 1
    done = await t.sweep()
    assert len(done) == 1
    table = done[0].table  # type: ignore[union-attr]
    assert table.final and [line.points for line in table.lines] == [0.5, 0.5]
    board = (await t.store.tournament_boards(started.tournament.id))[0]
    assert board.match_id is not None
    assert (await db.get_match(board.match_id)).status is Status.CANCELLED
    finished = await t.store.get_tournament(started.tournament.id)
    assert finished is not None and finished.status is TournamentStatus.FINISHED


async def test_a_player_who_left_the_server_is_not_paired_again(store_world):
    db, clock = store_world
    t = services(db, clock)
    await open_one(t, PLAYERS[:4])
    started = await t.start(CHANNEL, organiser=True)
    await thread_ids(t, [0])
    await t.withdraw(GUILD, 14)  # they left: their game runs on to its deadline
    for board in await t.store.tournament_boards(started.tournament.id):
        assert board.thread_id is not None
        await t.matches.act(board.thread_id, board.second_id or 0, "resign")
    await t.sweep()
    round2 = [b for b in await t.store.tournament_boards(started.tournament.id) if b.round == 2]
    assert 14 not in {u for b in round2 for u in (b.first_id, b.second_id)}
    assert [b.second_id for b in round2].count(None) == 1  # three left: one bye
    table = await t.table(await t.open_in(CHANNEL))
    assert [line.withdrawn for line in table.lines if line.user_id == 14] == [True]


async def test_cancel_stops_the_games_and_frees_the_channel(store_world):
    db, clock = store_world
    t = services(db, clock)
    await open_one(t, PLAYERS[:2])
    await t.start(CHANNEL, organiser=True)
    await thread_ids(t, [0])
    done = await t.cancel(CHANNEL, organiser=True)
    assert done.status is TournamentStatus.CANCELLED
    assert await t.store.channel_tournament(CHANNEL) is None
    assert (await db.get_channel_match(1001)) is None  # the thread's game was stopped
    await open_one(t, PLAYERS[:2])  # a new one may start in the channel


async def test_the_console_runs_a_tournament_with_the_same_words(tmp_path):
    """The console mirrors `/tournament ...`: sign-up, start (a thread per game), a game
    played in its thread, the round closed by the sweep each line runs, standings written as PNG."""
    import io as _io

    from PIL import Image

    from console import Console, names

    clock = Clock()
    db = await Database.open(tmp_path / "c.db", clock=clock)
    out = _io.StringIO()
    console = Console(MatchService(db, clock=clock, rng=random.Random(5)), boards=tmp_path / "b", out=out)
    try:
        lines = [
            "/tournament create game:blockwars rounds:1 days:1 name:Club",
            "/tournament join",
            "/tournament start",  # one player: refused
            "/as bob",
            "/tournament join",
            "/tournament join",  # twice: refused
            "/tournament start",
        ]
        for line in lines:
            await console.handle(line)
        text = out.getvalue()
        assert "Club: a Swiss tournament of Block Wars, 1 round of 1 day each." in text
        # the seal first, as in Discord: every sign-up follows it
        assert 0 <= text.index("of this tournament are sealed: commitment") < text.index("Club: a Swiss")
        assert "Type `/tournament join` to play" in text
        assert "✗ A tournament needs at least 2 players; 1 has signed up so far." in text
        assert "✗ You are already signed up for this tournament." in text
        assert "Club has begun: round 1 of 1" in text
        assert console.refused == 2
        match = await db.get_channel_match(names.channel_id("t1r1b1"))
        assert match is not None
        first = tmp_path / "b" / f"t1r1b1-{match.id}-0000.png"  # the game's first board, as in its thread
        assert f"[t1r1b1] board: {first}" in text and Image.open(first).width > 0
        loser = names.user_name(match.challenger_id)
        for line in (f"/as {loser}", "/channel t1r1b1", "/blockwars resign", "/channel general", "/whoami"):
            await console.handle(line)
        text = out.getvalue()
        assert "is over after 1 round" in text and "wins it with 1 point" in text
        pngs = sorted((tmp_path / "b").glob("tournament-1-round-1.png"))
        assert pngs and Image.open(pngs[0]).width == 800
    finally:
        await db.close()


async def test_a_process_sweeps_only_the_tournaments_of_its_own_shards(store_world):
    db, clock = store_world
    t = services(db, clock)
    await open_one(t, PLAYERS[:2], rounds=1)
    started = await t.start(CHANNEL, organiser=True)
    await thread_ids(t, [0])
    clock.now += 2 * DAY + 1
    elsewhere = TournamentService(
        db, MatchService(db, clock=clock, guilds=lambda guild: guild != GUILD), clock=clock
    )
    assert await elsewhere.sweep() == []
    still = await t.store.get_tournament(started.tournament.id)
    assert still is not None and still.status is TournamentStatus.RUNNING
    # nobody moved: the first turn fell due before the round's end, its loss on time is told first
    timed_out, done = await t.sweep()
    assert isinstance(timed_out, Notice) and timed_out.kind == "forfeit" and isinstance(done, RoundDone)


async def test_starting_a_game_again_after_a_crash_finishes_what_was_begun(store_world):
    """The bot stopped after making a pairing's challenge in its thread but before accepting it: the
    next start finds that challenge, accepts it, and links it; no second game is made."""
    db, clock = store_world
    t = services(db, clock)
    await open_one(t, PLAYERS[:2], rounds=1)
    started = await t.start(CHANNEL, organiser=True)
    board = started.boards[0]
    assert board.second_id is not None
    begun = await t.matches.challenge(
        guild_id=GUILD,
        channel_id=2001,
        challenger_id=board.first_id,
        opponent_id=board.second_id,
        game="blockwars",
        side="germans",
    )
    match = await t.start_board(board, 2001)
    assert match.id == begun.id and match.status is Status.ACTIVE
    again = await t.store.tournament_boards(started.tournament.id)
    assert again[0].match_id == begun.id and again[0].thread_id == 2001
    assert await t.pending_starts(started.tournament) == []


async def test_the_rating_change_counts_the_tournaments_own_games_only(store_world):
    """The standings' rating change was a player's rating now minus at the start, so a game played
    outside the tournament meanwhile counted in it; then an Elo replay from the start, which missed
    that the outside game had moved the rating the tournament game started from. It is the change
    each tournament game really made, as recorded when it was rated."""
    from data import elo

    db, clock = store_world
    t = services(db, clock)
    await open_one(t, PLAYERS[:2], rounds=1)
    started = await t.start(CHANNEL, organiser=True)
    await thread_ids(t, [0])
    (board,) = await t.store.tournament_boards(started.tournament.id)
    assert board.thread_id is not None and board.second_id is not None
    # meanwhile the first player loses an outside game to someone else, in the same game and server
    outside = 777
    await t.matches.challenge(
        game="blockwars", guild_id=GUILD, channel_id=outside, challenger_id=board.first_id, opponent_id=99
    )
    await t.matches.accept(outside, 99)
    await t.matches.act(outside, board.first_id, "resign")
    before = (await db.player_stats(GUILD, "blockwars", board.first_id)).rating
    assert before < elo.START_RATING
    # the tournament game: the second player resigns
    await t.matches.act(board.thread_id, board.second_id, "resign")
    after = (await db.player_stats(GUILD, "blockwars", board.first_id)).rating
    (done,) = await t.sweep()
    table = done.table  # type: ignore[union-attr]
    change = {line.user_id: line.change for line in table.lines}
    won = after - before  # a little more than 16: they came to the game rated below their opponent
    assert change == {board.first_id: pytest.approx(won), board.second_id: pytest.approx(-won)}
    replayed = elo.updated(elo.START_RATING, elo.START_RATING, 1.0)[0] - elo.START_RATING  # +16
    assert won != pytest.approx(replayed) and after - elo.START_RATING != pytest.approx(won)
