"""A tournament's results as files, for a club's own records or a rating officer: every game, and the
standings (RULES.md "The crosstable and the export").

Two CSV files (RFC 4180 through the csv module, UTF-8, a header row each): `games` has one row a
board (round, board, the game's number for `/wargames verify`, each side's player, the result, how
it ended: played, time, forfeit, bye, stopped, going, waiting) and `standings` one row a player in
standing order (the same numbers as the picture). Numbers are written plainly (0.5, not ½) for a
spreadsheet; a name that a spreadsheet would take for a formula is written behind an apostrophe,
since anyone may choose their display name.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence

from engine.protocol import Game
from play.tiebreaks import Tiebreak
from play.tournament_crosstable import Crosstable, Ended, Record

GAME_COLUMNS = (
    "round",
    "board",
    "game_no",
    "first_side",
    "first_player",
    "first_id",
    "second_side",
    "second_player",
    "second_id",
    "result",
    "first_points",
    "second_points",
    "ended",
    "reason",
)
STANDING_COLUMNS = (
    "rank",
    "number",
    "player",
    "user_id",
    "points",
    "buchholz",
    "sonneborn_berger",
    "rating_change",
    "withdrawn",
)
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def number(value: float | None) -> str:
    """A number as a spreadsheet reads it: 1, 0.5, 4.25; empty for none."""
    if value is None:
        return ""
    return f"{value:.2f}".rstrip("0").rstrip(".") if value % 1 else str(int(value))


def safe(name: str) -> str:
    """A display name that cannot run as a spreadsheet formula (OWASP's advice: an apostrophe first)."""
    return f"'{name}" if name.startswith(_FORMULA) else name


def result_text(record: Record) -> str:
    """The result as score sheets write it: 1-0, 0-1, 1/2-1/2; * not known yet; empty for a bye."""
    board = record.board
    if board.second_id is None and record.against is not None:  # a round-robin's forfeit win
        return "1-0"
    if board.second_id is None:
        return ""
    first = board.result if record.ended is Ended.STRUCK else record.points(board.first_id)
    if first is None:  # a struck game keeps the result it had; its points columns stay empty
        return "*"
    return {1.0: "1-0", 0.0: "0-1"}.get(first, "1/2-1/2")


def _write(header: Sequence[str], rows: Sequence[Sequence[str]]) -> bytes:
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def games_csv(cross: Crosstable, game: Game, name: Callable[[int], str]) -> bytes:
    """Every board of the rounds shown, in round and board order."""
    first_side, second_side = (side.title for side in game.sides)
    rows = []
    for record in cross.records:
        b = record.board
        bye = b.second_id is None
        second = b.second_id if b.second_id is not None else record.against  # a forfeit's absent player
        rows.append(
            [
                str(b.round),
                str(b.board),
                "" if b.match_id is None else str(b.match_id),
                "" if bye else first_side,
                safe(name(b.first_id)),
                str(b.first_id),
                "" if bye else second_side,
                "" if second is None else safe(name(second)),
                "" if second is None else str(second),
                result_text(record),
                number(record.points(b.first_id)),
                "" if second is None else number(record.points(second)),
                record.ended.value,
                "" if record.reason is None else record.reason.value,
            ]
        )
    return _write(GAME_COLUMNS, rows)


_ALWAYS = (Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN)  # columns of every export


def standings_csv(cross: Crosstable, name: Callable[[int], str]) -> bytes:
    """The standings of the rounds shown, one player a row, numbered as the crosstable numbers them;
    Buchholz and Sonneborn-Berger always, then a column for each other tie-break the tournament
    ranks by, named as `Tiebreak` names it (a round-robin's direct encounter, say)."""
    order = cross.table.order
    more = [(k, t) for k, t in enumerate(order) if t not in _ALWAYS]
    rows = [
        [
            str(p.line.rank),
            str(p.number),
            safe(name(p.line.user_id)),
            str(p.line.user_id),
            number(p.line.points),
            number(p.line.buchholz),
            number(p.line.sonneborn),
            str(round(p.line.change)),
            "yes" if p.line.withdrawn else "no",
            *(number(cross.table.values(p.line)[k]) for k, _ in more),
        ]
        for p in cross.players
    ]
    return _write((*STANDING_COLUMNS, *(t.value for _, t in more)), rows)


def export_files(cross: Crosstable, game: Game, names: Mapping[int, str]) -> list[tuple[str, bytes]]:
    """The two files, named for the tournament: (file name, bytes)."""
    stem = f"tournament-{cross.table.tournament.id}"

    def name(user_id: int) -> str:
        return names.get(user_id, str(user_id))

    return [
        (f"{stem}-games.csv", games_csv(cross, game, name)),
        (f"{stem}-standings.csv", standings_csv(cross, name)),
    ]


def played_games(cross: Crosstable) -> int:
    """How many games of the export have a result (byes apart)."""
    return sum(1 for r in cross.records if r.ended not in (Ended.BYE, Ended.GOING, Ended.WAITING))


__all__ = [
    "GAME_COLUMNS",
    "STANDING_COLUMNS",
    "export_files",
    "games_csv",
    "number",
    "played_games",
    "result_text",
    "safe",
    "standings_csv",
]
