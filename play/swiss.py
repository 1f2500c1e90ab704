"""Swiss pairing and standings: pure functions of the players and the games so far.

The pairing is a maximum-weight matching (networkx's `max_weight_matching`, Edmonds' blossom
algorithm) over every pair of players still in, rather than a hand-written search: each pair's
weight says how good a pairing it is, in tiers no lower tier can outweigh: first no rematch, then
players of equal score, then no two players who both need the same side, then the Dutch order
within a score group (the top half meets the bottom half, 1 v 5, 2 v 6... of eight; a swap within
the bottom half before a swap across the halves). With an odd
number of players the lowest-ranked player who has not had a bye gets one (a win) before the
matching, passing over a player who lost their last game without a move and a latecomer's first
round while someone else can take it. RULES.md says it in players' words; tests/test_swiss.py
checks it against worked examples.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
BYE_POINTS = WIN

# The tiers of a pair's weight, each far above anything the tiers below can add up to over a whole
# round (the order's penalties over 100 players stay under 10**7; integers keep the matching exact).
_BASE = 10**18
_REMATCH = 10**16
_SCORE = 10**10  # per (half-point difference) squared
_SIDES = 10**8  # both players due the same side
_ORDER = 10  # per place away from the Dutch partner in the score group
_EXCHANGE = 1000  # two players of the same half of their score group meet


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of the tournament: their rating in the game when it started orders the pairing."""

    user_id: int
    rating: float


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of a round: `first` plays the game's first side; `second` None is a bye for `first`.
    `result` is `first`'s points (1, 0.5, 0) once known, None while the game runs."""

    round: int
    first: int
    second: int | None
    result: float | None = None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    def points(self, user_id: int) -> float | None:
        """`user_id`'s points from this game (None while it runs or if they did not play in it)."""
        if self.second is None:
            return BYE_POINTS if user_id == self.first else None
        if self.result is None:
            return None
        if user_id == self.first:
            return self.result
        if user_id == self.second:
            return 1.0 - self.result
        return None

    def opponent(self, user_id: int) -> int | None:
        if user_id == self.first:
            return self.second
        return self.first if user_id == self.second else None


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings."""

    rank: int
    user_id: int
    points: float
    buchholz: float
    sonneborn: float
    rating: float
    played: int


def scores(games: Iterable[Pairing]) -> dict[int, float]:
    """Points so far per player (games still running count nothing yet)."""
    out: dict[int, float] = {}
    for game in games:
        for user in (game.first, game.second):
            if user is None:
                continue
            out[user] = out.get(user, 0.0) + (game.points(user) or 0.0)
    return out


def unplayed(
    entrants: Sequence[Entrant], games: Sequence[Pairing]
) -> tuple[dict[int, float], dict[int, float], dict[int, list[int]], int]:
    """What the tie-breaks of `standings` (and play/tiebreaks.py's) start from: each player's
    points, their points **adjusted** for the rounds they sat out after their last game (each a
    draw), the rounds each player has no pairing in, and the rounds paired so far."""
    points = scores(games)
    rounds = max((g.round for g in games), default=0)
    seated: dict[int, set[int]] = {}
    for game in games:
        for user in (game.first, game.second):
            if user is not None:
                seated.setdefault(user, set()).add(game.round)
    absent = {
        e.user_id: [r for r in range(1, rounds + 1) if r not in seated.get(e.user_id, set())]
        for e in entrants
    }
    adjusted = dict(points)
    for user, missed in absent.items():
        last = max(seated.get(user, set()), default=0)
        adjusted[user] = points.get(user, 0.0) + DRAW * sum(1 for r in missed if r > last)
    return points, adjusted, absent, rounds


def standings(entrants: Sequence[Entrant], games: Sequence[Pairing]) -> list[Standing]:
    """Everyone ranked by points, then Buchholz (the sum of the opponents' points), then
    Sonneborn-Berger (the points of the opponents beaten, plus half those of the opponents held to a
    draw), then rating; unplayed rounds in both tiebreaks as FIDE's tie-break regulations (article
    16) count them, so that nobody's tiebreak moves for what someone else did not play:

    - an opponent's points are **adjusted**: a round they sat out after withdrawing counts as a draw
      (a round sat out and then played on after would count as the 0 it scored; a bye as its win);
    - a player's own unplayed round (a bye, or a round after their withdrawal) counts as a game
      against a stand-in with the player's own points, at most half a point per round so far: in
      Buchholz always, in Sonneborn-Berger only if it scored (a bye, as a win).

    A round counts from its pairing (a bye scores at once, a withdrawn player's absence too); games
    still running count nothing yet, as in `scores`."""
    points, adjusted, absent, rounds = unplayed(entrants, games)
    lines: list[tuple[tuple[float, float, float, float, int], Standing]] = []
    for entrant in entrants:
        user = entrant.user_id
        mine = points.get(user, 0.0)
        stand_in = min(mine, DRAW * rounds)  # the unplayed round's opponent
        buchholz = sonneborn = 0.0
        played = 0
        for game in games:
            opponent = game.opponent(user)
            got = game.points(user)
            if got is None:
                continue
            played += 1
            faced = stand_in if opponent is None else adjusted.get(opponent, 0.0)
            buchholz += faced
            sonneborn += got * faced
        buchholz += stand_in * len(absent[user])  # a withdrawn player's own rounds: lost, unplayed
        key = (-mine, -buchholz, -sonneborn, -entrant.rating, user)
        lines.append((key, Standing(0, user, mine, buchholz, sonneborn, entrant.rating, played)))
    lines.sort(key=lambda pair: pair[0])
    ranked: list[Standing] = []
    for n, (key, line) in enumerate(lines):
        shared = ranked and lines[n - 1][0][:3] == key[:3]
        rank = ranked[-1].rank if shared else n + 1
        ranked.append(
            Standing(rank, line.user_id, line.points, line.buchholz, line.sonneborn, line.rating, line.played)
        )
    return ranked


def _balance(user: int, games: Sequence[Pairing]) -> tuple[int, int | None]:
    """(times first side minus times second side, +1/-1 for the side of their last game or None)."""
    balance, last = 0, None
    for game in sorted(games, key=lambda g: g.round):
        if game.second is None:
            continue
        if user == game.first:
            balance, last = balance + 1, 1
        elif user == game.second:
            balance, last = balance - 1, -1
    return balance, last


def pair(
    entrants: Sequence[Entrant], games: Sequence[Pairing], round_no: int, skip: Collection[int] = ()
) -> list[Pairing]:
    """The pairings of round `round_no` for `entrants` (the players still in), best board first.
    `skip`: players passed over for the bye while another can take it (one who lost their last
    game without a move, a latecomer's first round: RULES.md "Pairing")."""
    points = scores(games)
    order = sorted(entrants, key=lambda e: (-points.get(e.user_id, 0.0), -e.rating, e.user_id))
    rank = {e.user_id: n for n, e in enumerate(order)}
    out: list[Pairing] = []
    playing = list(order)
    if len(playing) % 2:
        had_bye = {g.first for g in games if g.is_bye}
        fresh = [e for e in reversed(playing) if e.user_id not in had_bye]
        wanted = [e for e in fresh if e.user_id not in skip]
        bye = (wanted or fresh or list(reversed(playing)))[0]
        playing.remove(bye)
        out.append(Pairing(round_no, bye.user_id, None))
    met = {frozenset((g.first, g.second)) for g in games if g.second is not None}
    groups: dict[float, list[int]] = {}
    for e in playing:
        groups.setdefault(points.get(e.user_id, 0.0), []).append(e.user_id)
    place = {user: (n, len(group)) for group in groups.values() for n, user in enumerate(group)}
    balance = {e.user_id: _balance(e.user_id, games) for e in playing}
    import networkx as nx  # 24 MB once imported: a bot that never pairs a round never pays it

    graph = nx.Graph()
    graph.add_nodes_from(e.user_id for e in playing)
    for i, a in enumerate(playing):
        for b in playing[i + 1 :]:
            ua, ub = a.user_id, b.user_id
            weight = _BASE
            if frozenset((ua, ub)) in met:
                weight -= _REMATCH
            halves = round(2 * abs(points.get(ua, 0.0) - points.get(ub, 0.0)))
            weight -= _SCORE * halves * halves
            ba, bb = balance[ua][0], balance[ub][0]
            if ba * bb > 0:  # both have played the same side more often
                weight -= _SIDES
            (pa, size), (pb, _) = place[ua], place[ub]
            if points.get(ua, 0.0) == points.get(ub, 0.0):
                half = size // 2
                weight -= _ORDER * abs(abs(pa - pb) - half)
                if (pa < half) == (pb < half):
                    weight -= _EXCHANGE
            else:
                weight -= _ORDER * (pa + pb)  # a player moved down meets the top of the group below
            graph.add_edge(ua, ub, weight=weight)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    boards: list[Pairing] = []
    for ua, ub in matched:
        high, low = (ua, ub) if rank[ua] < rank[ub] else (ub, ua)
        boards.append(Pairing(round_no, high, low))
    boards.sort(key=lambda p: min(rank[p.first], rank[p.second or p.first]))
    fixed = []
    for n, board in enumerate(boards):
        second = board.second
        assert second is not None
        fixed.append(Pairing(round_no, second, board.first) if _flip(board, balance, n) else board)
    return [*fixed, *out]


def _flip(pairing: Pairing, balance: dict[int, tuple[int, int | None]], board: int) -> bool:
    """Whether the lower-ranked player (`second`, so far) should take the first side: the one who
    has had it less often, then the one who had the second side last time; with no history (round
    1), the higher-ranked player takes the first side on the first board, the second on the next..."""
    high, low = pairing.first, pairing.second
    assert low is not None
    (bh, lh), (bl, ll) = balance[high], balance[low]
    if bh != bl:
        return bl < bh
    if lh != ll and lh is not None and ll is not None:
        return ll < lh
    return board % 2 == 1


__all__ = [
    "BYE_POINTS",
    "DRAW",
    "LOSS",
    "WIN",
    "Entrant",
    "Pairing",
    "Standing",
    "pair",
    "scores",
    "standings",
    "unplayed",
]
