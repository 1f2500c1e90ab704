"""A tournament's tie-breaks, chosen when it is made from a few named orders (RULES.md "Standings"):
pure functions of the players and the games that count, like play/swiss.py, whose points, Buchholz
and Sonneborn-Berger (with FIDE's rule for unplayed rounds) they build on.

The kinds: Buchholz (the opponents' points), median Buchholz (the same without the best and the
worst of them), Sonneborn-Berger, the number of games won over the board, and the direct encounter
(the points scored in the games among the players still level, counted only if each of them met
each of the others: otherwise it leaves them level). The direct encounter depends on who is level,
so the order is applied one tie-break at a time (`ranked`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from play.swiss import DRAW, Entrant, Pairing, Standing, standings, unplayed


class Tiebreak(StrEnum):
    BUCHHOLZ = "buchholz"
    MEDIAN = "median_buchholz"
    SONNEBORN = "sonneborn_berger"
    WINS = "wins"
    DIRECT = "direct_encounter"

    @property
    def named(self) -> str:
        return _TITLES[self][0]

    @property
    def short(self) -> str:
        """Its column's heading."""
        return _TITLES[self][1]

    @property
    def meaning(self) -> str:
        """What it counts, in a few words."""
        return _TITLES[self][2]


_TITLES = {
    Tiebreak.BUCHHOLZ: ("Buchholz", "Bh", "the sum of their opponents' points"),
    Tiebreak.MEDIAN: ("median Buchholz", "MBh", "Buchholz without their best and their worst opponent"),
    Tiebreak.SONNEBORN: (
        "Sonneborn-Berger",
        "SB",
        "the points of the opponents they beat, plus half of those they drew",
    ),
    Tiebreak.WINS: ("wins", "W", "the games they won over the board"),
    Tiebreak.DIRECT: (
        "direct encounter",
        "DE",
        "the points they scored against the others level with them, if all of those met",
    ),
}

# The orders an organiser chooses among, by name (a Discord choice each); the first two of each are
# the columns the standings and the crosstable show.
PRESETS: dict[str, tuple[Tiebreak, ...]] = {
    "buchholz": (Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN),
    "median": (Tiebreak.MEDIAN, Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN),
    "sonneborn": (Tiebreak.SONNEBORN, Tiebreak.DIRECT, Tiebreak.WINS),
    "direct": (Tiebreak.DIRECT, Tiebreak.SONNEBORN, Tiebreak.WINS),
    "wins": (Tiebreak.WINS, Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN),
}
PRESET_NAMES = {
    "buchholz": "Buchholz, Sonneborn-Berger",
    "median": "Median Buchholz, Buchholz, SB",
    "sonneborn": "Sonneborn-Berger, direct encounter, wins",
    "direct": "Direct encounter, Sonneborn-Berger, wins",
    "wins": "Wins, Buchholz, Sonneborn-Berger",
}


def order_said(order: Sequence[Tiebreak]) -> str:
    """ "Buchholz (Bh), then Sonneborn-Berger (SB)"."""
    return ", then ".join(f"{t.named} ({t.short})" for t in order)


@dataclass(frozen=True, slots=True)
class Ranked:
    """One line of the standings with its tie-breaks: `values` in the tournament's order."""

    standing: Standing
    values: tuple[float, ...]


def contributions(entrants: Sequence[Entrant], games: Sequence[Pairing]) -> dict[int, list[float]]:
    """Each player's Buchholz, round by round: what each opponent was worth, with the stand-ins
    of play/swiss.py's `standings` for a bye and a round after a withdrawal (their sum is its
    Buchholz)."""
    points, adjusted, absent, rounds = unplayed(entrants, games)
    out: dict[int, list[float]] = {}
    for entrant in entrants:
        user = entrant.user_id
        stand_in = min(points.get(user, 0.0), DRAW * rounds)
        mine: list[float] = []
        for game in games:
            opponent = game.opponent(user)
            if game.points(user) is None:
                continue
            mine.append(stand_in if opponent is None else adjusted.get(opponent, 0.0))
        mine.extend([stand_in] * len(absent[user]))
        out[user] = mine
    return out


def _median(values: list[float]) -> float:
    """Buchholz without its highest and lowest term (all of it under three games)."""
    if len(values) < 3:
        return sum(values)
    return sum(values) - max(values) - min(values)


def _wins(games: Sequence[Pairing]) -> dict[int, float]:
    """Each player's games won over the board (a bye is no game won)."""
    won: dict[int, float] = {}
    for g in games:
        if g.second is not None and g.result in (0.0, 1.0):
            winner = g.first if g.result == 1.0 else g.second
            won[winner] = won.get(winner, 0.0) + 1.0
    return won


def _direct(group: Sequence[int], games: Sequence[Pairing]) -> dict[int, float]:
    """The points each of `group` scored against the others, if every pair of them met; else 0
    each (the encounter cannot part them)."""
    among = set(group)
    met: set[frozenset[int]] = set()
    scored = dict.fromkeys(group, 0.0)
    for game in games:
        if game.second is None or game.result is None:
            continue
        if game.first in among and game.second in among:
            met.add(frozenset((game.first, game.second)))
            scored[game.first] += game.result
            scored[game.second] += 1.0 - game.result
    pairs = len(among) * (len(among) - 1) // 2
    return scored if len(met) == pairs else dict.fromkeys(group, 0.0)


def ranked(entrants: Sequence[Entrant], games: Sequence[Pairing], order: Sequence[Tiebreak]) -> list[Ranked]:
    """Everyone ranked by points, then the tie-breaks in `order`, then rating (which only orders
    the list: players level on points and every tie-break share the place)."""
    base = {s.user_id: s for s in standings(entrants, games)}
    # each player's opponents one by one, only where the order needs them (a large field's standings
    # are drawn after every round: swiss.standings already walks every game once per player)
    terms = contributions(entrants, games) if Tiebreak.MEDIAN in order else {}
    values: dict[int, list[float]] = {user: [] for user in base}
    won = _wins(games) if Tiebreak.WINS in order else {}
    for tiebreak in order:
        if tiebreak is Tiebreak.DIRECT:
            groups: dict[tuple[float, ...], list[int]] = {}
            for user, s in base.items():
                groups.setdefault((s.points, *values[user]), []).append(user)
            for group in groups.values():
                found = _direct(group, games) if len(group) > 1 else {group[0]: 0.0}
                for user in group:
                    values[user].append(found[user])
            continue
        for user, s in base.items():
            if tiebreak is Tiebreak.BUCHHOLZ:
                values[user].append(s.buchholz)
            elif tiebreak is Tiebreak.MEDIAN:
                values[user].append(_median(terms[user]))
            elif tiebreak is Tiebreak.SONNEBORN:
                values[user].append(s.sonneborn)
            else:
                values[user].append(won.get(user, 0.0))

    def key(user: int) -> tuple[float, ...]:
        s = base[user]
        return (-s.points, *(-v for v in values[user]), -s.rating, float(user))

    users = sorted(base, key=key)
    out: list[Ranked] = []
    for n, user in enumerate(users):
        s = base[user]
        level = (s.points, *values[user])
        shared = out and (out[-1].standing.points, *out[-1].values) == level
        rank = out[-1].standing.rank if shared else n + 1
        line = Standing(rank, user, s.points, s.buchholz, s.sonneborn, s.rating, s.played)
        out.append(Ranked(line, tuple(values[user])))
    return out


__all__ = [
    "PRESETS",
    "PRESET_NAMES",
    "Ranked",
    "Tiebreak",
    "contributions",
    "order_said",
    "ranked",
]
