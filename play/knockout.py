"""Knockout (single elimination) pairing: pure functions of the seeds, the games so far and who
withdrew when, so the whole bracket can be read again from the store any day.

The seeds are numbered once, at the start, as the Swiss start ranks players (rating, then user
id). The bracket has a power of two of places, seed 1 v the last, 2 v the one before, and so on, in
the usual order that keeps seeds 1 and 2 apart until the final; the places beyond the players are
byes, so they fall to the top seeds, and only in round 1. Each tie's winner goes on (RULES.md
"Knockout"): a won game decides it; a drawn game (a draw agreed, or a game stopped at the round's
end) sends the higher seed on, which is said before anyone signs up, so a lower seed knows from the
start that only a win will do; a player who withdraws during a round (or leaves the server) does not
go on from it, and their opponent goes on by forfeit whatever their game's result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from play.swiss import Entrant, Pairing

MIN_PLAYERS, MAX_PLAYERS = 2, 64

WON, DRAWN, BYE, FORFEIT = "won", "drawn", "bye", "forfeit"


def rounds_for(players: int) -> int:
    """The rounds a knockout of `players` takes: the power of two that holds them, as a log."""
    return max(1, (players - 1).bit_length())


def seeded(entrants: Sequence[Entrant]) -> list[int]:
    """The players' ids in seed order: highest rating first, then by user id."""
    return [e.user_id for e in sorted(entrants, key=lambda e: (-e.rating, e.user_id))]


def slots(size: int) -> list[int]:
    """The seeds (1-based) in bracket order for a bracket of `size` places, a power of two: round
    1's ties are neighbours (1 v size, ...), and seeds 1 and 2 can meet only in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


@dataclass(frozen=True, slots=True)
class Tie:
    """One place of the bracket in a round: `top` v `bottom` (None: nobody there, a bye or a
    walkover); `winner` once decided, and `how` (WON, DRAWN, BYE, FORFEIT); `game` the pairing."""

    round: int
    top: int | None
    bottom: int | None
    winner: int | None = None
    how: str | None = None
    game: Pairing | None = None

    @property
    def decided(self) -> bool:
        return self.how is not None or (self.top is None and self.bottom is None)

    @property
    def loser(self) -> int | None:
        """Who went out at this tie (None: a bye, nobody, or not decided)."""
        if not self.decided:
            return None
        others = [u for u in (self.top, self.bottom) if u is not None and u != self.winner]
        return others[0] if others else None


def _decide(tie: Tie, seeds: Sequence[int], games: Sequence[Pairing], withdrawn: Mapping[int, int]) -> Tie:
    """The tie with its winner, if it is decided by now."""
    r = tie.round
    present = [u for u in (tie.top, tie.bottom) if u is not None]
    gone = [u for u in present if withdrawn.get(u) == r]  # withdrew during this round: out
    staying = [u for u in present if u not in gone]
    game = next(
        (g for g in games if g.round == r and g.second is not None and {g.first, g.second} == set(present)),
        None,
    )
    if len(present) < 2:
        return Tie(r, tie.top, tie.bottom, staying[0] if staying else None, BYE, game)
    if gone:
        return Tie(r, tie.top, tie.bottom, staying[0] if staying else None, FORFEIT, game)
    if game is None or game.result is None:
        return Tie(r, tie.top, tie.bottom, None, None, game)
    assert game.second is not None
    if game.result == 0.5:
        higher = min(present, key=seeds.index)
        return Tie(r, tie.top, tie.bottom, higher, DRAWN, game)
    return Tie(r, tie.top, tie.bottom, game.first if game.result > 0.5 else game.second, WON, game)


def bracket(
    seeds: Sequence[int], games: Sequence[Pairing], withdrawn: Mapping[int, int], upto: int | None = None
) -> list[list[Tie]]:
    """Every round's ties as far as they are known (`upto`: at most that many rounds): a round is
    listed once all of the round before it are decided. `withdrawn`: each withdrawn player's round
    under way when they withdrew."""
    n = len(seeds)
    if n < 1:
        return []
    size = 2 ** rounds_for(n)
    places = [seeds[s - 1] if s <= n else None for s in slots(size)]
    last = rounds_for(n) if upto is None else min(upto, rounds_for(n))
    out: list[list[Tie]] = []
    for r in range(1, last + 1):
        ties = [Tie(r, places[i], places[i + 1]) for i in range(0, len(places), 2)]
        ties = [_decide(t, seeds, games, withdrawn) for t in ties]
        out.append(ties)
        if not all(t.decided for t in ties):
            break
        places = [t.winner for t in ties]
    return out


def _firsts(user: int, games: Sequence[Pairing]) -> int:
    """How often `user` played the first side so far."""
    return sum(1 for g in games if g.second is not None and g.first == user)


def pair_round(
    entrants: Sequence[Entrant], round_no: int, withdrawn: Mapping[int, int], games: Sequence[Pairing] = ()
) -> list[Pairing]:
    """Round `round_no`'s pairings: each tie with two players a game (the higher seed on the first
    side, unless they have had it more often), then each with one a bye (round 1) or a walkover
    (an opponent withdrew), as a win; empty until the round before is decided."""
    seeds = seeded(entrants)
    rounds = bracket(seeds, games, withdrawn, round_no)
    if len(rounds) < round_no or round_no < 1:
        return []
    boards: list[Pairing] = []
    byes: list[Pairing] = []
    for tie in rounds[round_no - 1]:
        present = [u for u in (tie.top, tie.bottom) if u is not None]
        if len(present) == 1:
            byes.append(Pairing(round_no, present[0], None))
        elif len(present) == 2:
            high, low = sorted(present, key=seeds.index)
            if _firsts(high, games) > _firsts(low, games):
                high, low = low, high
            boards.append(Pairing(round_no, high, low))
    return [*boards, *byes]


def champion(seeds: Sequence[int], games: Sequence[Pairing], withdrawn: Mapping[int, int]) -> Tie | None:
    """The final, once decided (its winner won the knockout; None: not yet)."""
    rounds = bracket(seeds, games, withdrawn)
    if len(rounds) < rounds_for(len(seeds)) or not rounds[-1][0].decided:
        return None
    return rounds[-1][0]


def places(seeds: Sequence[int], games: Sequence[Pairing], withdrawn: Mapping[int, int]) -> dict[int, int]:
    """Each player's place: 1 while still in (or the winner), else shared with everyone who went
    out in the same round (out in the final: 2; in the semi-finals: 3; the quarter-finals: 5...)."""
    total = rounds_for(len(seeds)) if seeds else 0
    out = dict.fromkeys(seeds, 1)
    for ties in bracket(seeds, games, withdrawn):
        for tie in ties:
            for user in (tie.top, tie.bottom):
                if user is not None and tie.decided and user != tie.winner:
                    out[user] = 2 ** (total - tie.round) + 1
    return out


def still_in(seeds: Sequence[int], games: Sequence[Pairing], withdrawn: Mapping[int, int]) -> list[int]:
    """The players not knocked out yet, in seed order."""
    where = places(seeds, games, withdrawn)
    return [u for u in seeds if where[u] == 1]


__all__ = [
    "BYE",
    "DRAWN",
    "FORFEIT",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "WON",
    "Tie",
    "bracket",
    "champion",
    "pair_round",
    "places",
    "rounds_for",
    "seeded",
    "slots",
    "still_in",
]
