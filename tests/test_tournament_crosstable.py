"""The crosstable and the results export (play/tournament_crosstable.py, play/tournament_export.py,
render/crosstable.py), from a tournament played through the store on both stores: a game won by
resignation, a forfeit (lost on time without a move), a bye, a player withdrawn (not paired after),
a draw agreed and a game lost on time after moving. The cells, the CSV files read back with csv,
and the pictures read back against the phone rule."""

from __future__ import annotations

import csv
import io
import random

from PIL import Image

from data import Database
from engine import registry
from play import MatchService
from play.swiss import Pairing
from play.tournament import RoundDone, TournamentService
from play.tournament_crosstable import Ended
from play.tournament_crosstable_text import (
    channel_crosstable,
    crosstable_key,
    crosstable_said,
    crosstable_title,
    export_said,
)
from play.tournament_export import export_files
from render.crosstable import (
    MAX_PICTURES,
    MIN_NAME,
    WIDTH,
    Row,
    crosstable_pngs,
    drawn_players,
    layout,
    per_picture,
)
from render.kit import css_px_at, max_height, measuring
from tests.clock import Clock

GUILD, CHANNEL, ORGANISER = 5, 100, 1
PLAYERS = [11, 12, 13, 14, 15]
NAMES = {11: "Ann", 12: "=HYPERLINK(evil)", 13: "Cy", 14: "Dee", 15: "Eve"}


def services(db: Database, clock: Clock) -> TournamentService:
    return TournamentService(db, MatchService(db, clock=clock, rng=random.Random(7)), clock=clock)


async def start_games(t: TournamentService, counter: list[int]) -> None:
    """What the adapter does: a thread per pairing, then the game in it."""
    tournament = await t.open_in(CHANNEL)
    for board in await t.pending_starts(tournament):
        counter[0] += 1
        await t.start_board(board, 1000 + counter[0])


async def sweep(t: TournamentService) -> None:
    """The tournament sweep, each round's standings marked posted as the adapters do."""
    for item in await t.sweep():
        if isinstance(item, RoundDone):
            await t.announced(item.table)


async def set_up(t: TournamentService, thread: int, user: int) -> None:
    await t.matches.act(thread, user, "setup std")


async def run_out(t: TournamentService, clock: Clock, thread: int) -> None:
    """The turn owed in `thread` passes its deadline, and the deadline sweep applies it."""
    match, _ = await t.matches.current(thread)
    assert match.deadline is not None
    clock.now = max(clock.now, match.deadline + 1)
    await t.matches.sweep()


Want = dict[tuple[int, int], tuple[str, int | None]]


async def played(db: Database, clock: Clock) -> tuple[TournamentService, Want]:
    """A two-round tournament of five, played through the store. Returns the service and what each
    player's cell must say, by (player, round): the mark, and the opponent whose number follows."""
    t = services(db, clock)
    made = await t.create(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ORGANISER, game="blockwars", rounds=2, days=4,
        name="Club Swiss", organiser=True,
    )  # fmt: skip
    await t.seal_shown(made)
    for user in PLAYERS:
        await t.join(made, user)
    started = await t.start(CHANNEL, organiser=True)
    counter = [0]
    await start_games(t, counter)
    tid = started.tournament.id
    want: Want = {}
    one = [b for b in await t.store.tournament_boards(tid) if b.round == 1]
    games, (bye,) = [b for b in one if b.second_id], [b for b in one if not b.second_id]
    want[(bye.first_id, 1)] = ("B1", None)
    # board 1: the second player resigns
    a = games[0]
    assert a.thread_id is not None and a.second_id is not None
    await t.matches.act(a.thread_id, a.second_id, "resign")
    want[(a.first_id, 1)], want[(a.second_id, 1)] = ("W", a.second_id), ("L", a.first_id)
    # board 2: the first player sets up, the second never comes: a forfeit
    b = games[1]
    assert b.thread_id is not None and b.second_id is not None
    await set_up(t, b.thread_id, b.first_id)
    await run_out(t, clock, b.thread_id)
    want[(b.first_id, 1)], want[(b.second_id, 1)] = ("+", b.second_id), ("-", b.first_id)
    # the loser by resignation withdraws: not paired in round 2
    await t.withdraw_from(tid, a.second_id)
    want[(a.second_id, 2)] = ("—", None)
    await sweep(t)
    await start_games(t, counter)
    two = [b for b in await t.store.tournament_boards(tid) if b.round == 2]
    assert len(two) == 2 and all(g.second_id for g in two)  # four left: no bye
    # board 1: a draw agreed
    c = two[0]
    assert c.thread_id is not None and c.second_id is not None
    await t.matches.act(c.thread_id, c.first_id, "offer draw")
    await t.matches.act(c.thread_id, c.second_id, "accept draw")
    want[(c.first_id, 2)], want[(c.second_id, 2)] = ("D", c.second_id), ("D", c.first_id)
    # board 2: both set up, then the player to move lets the clock run out: lost on time, not a forfeit
    d = two[1]
    assert d.thread_id is not None and d.second_id is not None
    await set_up(t, d.thread_id, d.first_id)
    await set_up(t, d.thread_id, d.second_id)
    match, _ = await t.matches.current(d.thread_id)
    late = match.turn_player_id
    assert late in (d.first_id, d.second_id)
    winner = d.second_id if late == d.first_id else d.first_id
    await run_out(t, clock, d.thread_id)
    want[(winner, 2)], want[(late, 2)] = ("W", late), ("L", winner)
    await sweep(t)
    return t, want


async def test_the_crosstable_and_the_export_tell_what_was_played(store_world, tmp_path):
    db, clock = store_world
    t, want = await played(db, clock)
    cross = await channel_crosstable(t, CHANNEL, "crosstable")
    assert cross.table.final and cross.rounds == 2
    number = {p.line.user_id: p.number for p in cross.players}
    assert [p.line.user_id for p in cross.players] == [line.user_id for line in cross.table.lines]
    for p in cross.players:
        user = p.line.user_id
        expected = [
            mark + ("" if opponent is None else str(number[opponent]))
            for mark, opponent in (want[(user, r)] for r in (1, 2))
        ]
        assert [c.text for c in p.cells] == expected, (user, expected)
        # the cells add up to the points column: the same count as the standings
        worth = {"W": 1.0, "+": 1.0, "D": 0.5, "L": 0.0, "-": 0.0, "B": 1.0, "—": 0.0}
        assert sum(worth[c.text[0]] for c in p.cells) == p.line.points
    assert {r.ended for r in cross.records} == {Ended.PLAYED, Ended.FORFEIT, Ended.BYE, Ended.TIME}
    key = crosstable_key(cross)
    assert "+5 and -5 won and lost by forfeit" in key and "— not paired" in key
    assert "a grey name has withdrawn" in key and "still going" not in key
    assert crosstable_title(cross) == "Club Swiss: crosstable after round 2 of 2"
    markup = t.matches.markup
    assert crosstable_said(cross, markup, 5) == "Club Swiss, the crosstable after round 2 of 2."
    assert crosstable_said(
        cross, markup, 3
    ).endswith(  # pictures cut short (past ten): the rest is in the export
        " The pictures show the first 3 of the 5 players; `/tournament export` has everyone's "
        "games and standings."
    )

    # the export: every board, and the standings, parsed back
    game = registry.game("blockwars")
    (games_name, games_data), (standings_name, standings_data) = export_files(cross, game, NAMES)
    assert (games_name, standings_name) == ("tournament-1-games.csv", "tournament-1-standings.csv")
    games = list(csv.DictReader(io.StringIO(games_data.decode("utf-8"))))
    standings = list(csv.DictReader(io.StringIO(standings_data.decode("utf-8"))))
    boards = await t.store.tournament_boards(cross.table.tournament.id)
    assert [(int(g["round"]), int(g["board"])) for g in games] == [(b.round, b.board) for b in boards]
    assert sorted(g["ended"] for g in games) == ["bye", "forfeit", "played", "played", "time"]
    sides = {s.title for s in game.sides}
    for g, b in zip(games, boards, strict=True):
        assert g["game_no"] == str(b.match_id or "")
        if b.second_id is None:
            assert (g["result"], g["first_points"], g["second_id"], g["first_side"]) == ("", "1", "", "")
            continue
        assert {g["first_side"], g["second_side"]} == sides and g["first_side"] != g["second_side"]
        first = Pairing(b.round, b.first_id, b.second_id, b.result).points(b.first_id)
        assert g["result"] == {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[first or 0.0]
        assert float(g["first_points"]) + float(g["second_points"]) == 1.0
    # each player's points in the games file are those of the standings file, in standing order
    got: dict[str, float] = {}
    for g in games:
        for side in ("first", "second"):
            if g[f"{side}_id"]:
                got[g[f"{side}_id"]] = got.get(g[f"{side}_id"], 0.0) + float(g[f"{side}_points"])
    assert [s["user_id"] for s in standings] == [str(line.user_id) for line in cross.table.lines]
    for s, line in zip(standings, cross.table.lines, strict=True):
        assert float(s["points"]) == got[s["user_id"]] == line.points
        assert float(s["buchholz"]) == line.buchholz and float(s["sonneborn_berger"]) == line.sonneborn
        assert s["withdrawn"] == ("yes" if line.withdrawn else "no")
        assert int(s["number"]) == number[line.user_id] and int(s["rank"]) == line.rank
    # a name a spreadsheet would run as a formula is written behind an apostrophe
    assert "'=HYPERLINK(evil)" in {s["player"] for s in standings}
    said = export_said(cross, t.matches.markup, games_name, standings_name)
    assert said.startswith("Club Swiss, the final results: 4 games and 1 bye. `tournament-1-games.csv`")

    # the pictures, read back: one for five players, 800 wide, every text 12 CSS px on a phone
    rows = [
        Row(p.number, NAMES[p.line.user_id], tuple((c.text, c.mark.value) for c in p.cells),
            p.line.points, p.line.buchholz, p.line.sonneborn, p.line.withdrawn)
        for p in cross.players
    ]  # fmt: skip
    with measuring() as sizes:
        (png,) = crosstable_pngs(crosstable_title(cross), key, cross.rounds, rows)
    image = Image.open(io.BytesIO(png))
    assert image.size[0] == WIDTH and image.size[1] <= max_height(WIDTH)
    assert sizes and css_px_at(sizes, image.size[0]) >= 12


def _field(players: int, rounds: int) -> list[Row]:
    marks = [("W", "win"), ("L", "loss"), ("D", "draw"), ("+", "win"), ("-", "loss")]
    rows = []
    for k in range(players):
        picks = [marks[(k + r) % 5] for r in range(rounds)]
        cells = tuple((f"{m}{(k + r + 1) % players + 1}", kind) for r, (m, kind) in enumerate(picks))
        name = f"Player number {k + 1} with a long name"
        rows.append(Row(k + 1, name, cells, rounds - k / 4, 20.75, 10.25))
    return rows


def test_eight_players_over_five_rounds_fit_a_phone_on_one_line_each():
    """The brief's figure: 8 players, 5 rounds, one picture, a line per player, the name column
    still MIN_NAME wide; every text at least 12 CSS px when the picture is 400 CSS px wide."""
    rows = _field(8, 5)
    spot = layout(rows, 5)
    assert not spot.stacked and spot.name_right - spot.name_left >= MIN_NAME
    with measuring() as sizes:
        pictures = crosstable_pngs("Club Swiss: crosstable after round 5 of 5", "W5 beat no. 5.", 5, rows)
    assert len(pictures) == 1
    image = Image.open(io.BytesIO(pictures[0]))
    assert image.size[0] == WIDTH and css_px_at(sizes, WIDTH) >= 12
    assert image.size[1] <= max_height(WIDTH)


def test_a_large_field_is_split_over_pictures_no_taller_than_a_board():
    """16 players over 12 rounds: the rounds go under each name, in two balanced lines, and the
    players over several pictures, each no taller than kit.MAX_RATIO allows."""
    rows = _field(16, 12)
    spot = layout(rows, 12)
    assert spot.stacked and spot.per_line == 6  # two lines of six, not nine and three
    pictures = crosstable_pngs("Club Swiss: crosstable after round 12 of 12", "W5 beat no. 5.", 12, rows)
    assert len(pictures) > 1
    for png in pictures:
        image = Image.open(io.BytesIO(png))
        assert image.size[0] == WIDTH and image.size[1] <= max_height(WIDTH)
    # a field beyond ten pictures: the pictures hold the first players (the line above says so)
    crowd = _field(300, 12)
    drawn = drawn_players("T", "W5 beat no. 5.", 12, crowd)
    assert drawn == per_picture("T", "W5 beat no. 5.", layout(crowd, 12)) * MAX_PICTURES < 300


async def test_the_console_writes_the_crosstable_and_the_export_beside_the_boards(tmp_path):
    """The console's same commands: refused before the start, then the picture and both CSV files
    written in the boards' folder, their paths said."""
    from console import Console, names

    clock = Clock()
    db = await Database.open(tmp_path / "c.db", clock=clock)
    out = io.StringIO()
    console = Console(MatchService(db, clock=clock, rng=random.Random(5)), boards=tmp_path / "b", out=out)
    try:
        lines = [
            "/tournament create game:blockwars rounds:1 days:1 name:Club",
            "/tournament join",
            "/tournament crosstable",  # not begun: refused
            "/as bob",
            "/tournament join",
            "/tournament start",
        ]
        for line in lines:
            await console.handle(line)
        assert "✗ Club has not started yet: its crosstable begins with round 1's pairings." in out.getvalue()
        match = await db.get_channel_match(names.channel_id("t1r1b1"))
        assert match is not None
        loser = names.user_name(match.challenger_id)
        for line in (f"/as {loser}", "/channel t1r1b1", "/blockwars resign", "/channel general"):
            await console.handle(line)
        await console.handle("/tournament crosstable")
        await console.handle("/tournament export")
        text = out.getvalue()
        assert "Club, the crosstable after round 1 of 1." in text
        picture = tmp_path / "b" / "tournament-1-crosstable-round-1.png"
        assert f"crosstable: {picture}" in text and Image.open(picture).width == WIDTH
        games = tmp_path / "b" / "tournament-1-games.csv"
        standings = tmp_path / "b" / "tournament-1-standings.csv"
        assert f"Club, the final results: 1 game. `{games}` has a row a game or bye" in text
        (game,) = csv.DictReader(io.StringIO(games.read_text(encoding="utf-8")))
        assert (game["ended"], game["reason"]) == ("played", "resignation")
        ranked = list(csv.DictReader(io.StringIO(standings.read_text(encoding="utf-8"))))
        assert [r["player"] for r in ranked][1] == loser and [r["points"] for r in ranked] == ["1", "0"]
    finally:
        await db.close()


async def test_a_cancelled_tournaments_games_were_stopped_not_still_going(store_world):
    """Cancelled mid-round, a game has no result: its cells name the opponent alone, and the key and
    the export say it was stopped, not that it is still going."""
    db, clock = store_world
    t = services(db, clock)
    made = await t.create(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ORGANISER, game="blockwars", rounds=1, days=1,
        name="Brief", organiser=True,
    )  # fmt: skip
    await t.seal_shown(made)
    for user in PLAYERS[:2]:
        await t.join(made, user)
    await t.start(CHANNEL, organiser=True)
    await start_games(t, [0])
    during = await channel_crosstable(t, CHANNEL, "crosstable")
    assert [c.text for p in during.players for c in p.cells] == ["2", "1"]
    assert crosstable_key(during).endswith("; a number alone: that game is still going.")
    await t.cancel(CHANNEL, organiser=True)
    cross = await channel_crosstable(t, CHANNEL, "crosstable")
    assert crosstable_title(cross) == "Brief: crosstable (cancelled in round 1 of 1)"
    said = export_said(cross, t.matches.markup, "g.csv", "s.csv")
    assert said.startswith("Brief, the results (cancelled in round 1 of 1): 1 game. `g.csv` has")
    assert [c.text for p in cross.players for c in p.cells] == ["2", "1"]
    assert crosstable_key(cross).endswith("; a number alone: that game was stopped without a result.")
    (_, data), _ = export_files(cross, registry.game("blockwars"), NAMES)
    (game,) = csv.DictReader(io.StringIO(data.decode("utf-8")))
    assert (game["result"], game["first_points"], game["ended"]) == ("*", "", "stopped")
