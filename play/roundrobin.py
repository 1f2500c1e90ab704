"""Round-robin pairing: pure functions of the players, numbered at the start, and the round.

Every pair meets once, by FIDE's Berger tables (the circle method: one number fixed, the others
turning round it by half the field each round), so the sides come out as balanced as a round-robin
allows and alternate from round to round for nearly everyone. With an odd number of players a
stand-in makes the count even and whoever meets it has the bye. The numbers are given once, at the
start, in the order the Swiss pairing ranks players before round 1 (rating, then user id), so the
whole schedule follows from the players at the start and can be read again from the store any day.

A withdrawal (RULES.md "Round-robin"): a player who withdrew before playing half their games has
all their games struck out, for both sides; one who withdrew later has every game they had left
counted as lost by forfeit. `counted` and `forfeits` say which, from the games alone.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from play.swiss import Entrant, Pairing

MIN_PLAYERS, MAX_PLAYERS = 2, 10


def rounds_for(players: int) -> int:
    """How many rounds a round-robin of `players` needs: one fewer than an even count, as many as
    an odd one (each round someone sits out)."""
    return players - 1 if players % 2 == 0 else players


def seeded(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The players in the order that numbers them: highest rating first, then by user id."""
    return sorted(entrants, key=lambda e: (-e.rating, e.user_id))


def berger(players: int) -> list[list[tuple[int, int | None]]]:
    """The Berger tables for `players` (numbered 0..players-1): each round's games as (first side,
    second side), the bye as (player, None)."""
    n = players + players % 2
    fixed = n - 1
    half = n // 2
    ring = n - 1  # numbers 0..n-2 turn; `fixed` stays
    games = [(k, n - 1 - k) for k in range(half)]  # round 1: 1-n, 2-(n-1), ...
    out: list[list[tuple[int, int | None]]] = []
    for _ in range(n - 1):
        out.append([_bye(a, b, players) for a, b in games])
        turned = []
        for a, b in games:
            a2 = a if a == fixed else (a + half) % ring
            b2 = b if b == fixed else (b + half) % ring
            turned.append((b2, a2) if fixed in (a, b) else (a2, b2))  # the fixed one changes side
        games = turned
    return out


def _bye(a: int, b: int, players: int) -> tuple[int, int | None]:
    """A game with the stand-in (numbered `players`, odd counts only) is the other player's bye."""
    if b == players:
        return (a, None)
    if a == players:
        return (b, None)
    return (a, b)


def pair_round(
    entrants: Sequence[Entrant],
    round_no: int,
    withdrawn: Collection[int] = (),
    games: Sequence[Pairing] = (),
) -> list[Pairing]:
    """Round `round_no`'s pairings of the round-robin of `entrants` (everyone who started, withdrawn
    or not): games first, by board, then the bye. A game with a player who has `withdrawn` is not
    played: a forfeit win for the other (a pairing with no opponent and a win, as a bye is) if the
    withdrawn player had played half their games (`games` so far), else nothing (struck out)."""
    order = seeded(entrants)
    table = berger(len(order))
    if not 1 <= round_no <= len(table):
        return []
    played = {e.user_id: _played(e.user_id, games) for e in order}
    boards: list[Pairing] = []
    byes: list[Pairing] = []
    for a, b in table[round_no - 1]:
        first = order[a].user_id
        if b is None:
            if first not in withdrawn:
                byes.append(Pairing(round_no, first, None))
            continue
        second = order[b].user_id
        gone = [u for u in (first, second) if u in withdrawn]
        if not gone:
            boards.append(Pairing(round_no, first, second))
        elif len(gone) == 1 and kept(played[gone[0]], len(order)):
            stays = second if gone[0] == first else first
            byes.append(Pairing(round_no, stays, None))  # a forfeit: a win, as a bye is
    return [*boards, *byes]


def scheduled(entrants: Sequence[Entrant], round_no: int, user_id: int) -> int | None:
    """Whom `user_id` meets in round `round_no` by the table (None: the stand-in, their bye). A
    pairing with no opponent in a round-robin is either that bye or a forfeit win against the
    withdrawn player this names, and the two are announced differently."""
    order = seeded(entrants)
    table = berger(len(order))
    if not 1 <= round_no <= len(table):
        return None
    ids = [e.user_id for e in order]
    if user_id not in ids:
        return None
    me = ids.index(user_id)
    for a, b in table[round_no - 1]:
        if b is not None and me in (a, b):
            return ids[b if a == me else a]
    return None


def _played(user_id: int, games: Sequence[Pairing]) -> int:
    """Games `user_id` sat down to (not a bye, nor a forfeit win)."""
    return sum(1 for g in games if g.second is not None and user_id in (g.first, g.second))


def kept(played: int, players: int) -> bool:
    """Whether a withdrawn player's results stand: they had played at least half their games."""
    return 2 * played >= players - 1


def struck(entrants: Sequence[Entrant], withdrawn: Collection[int], games: Sequence[Pairing]) -> set[int]:
    """The withdrawn players whose results are struck out (they played fewer than half their games)."""
    return {
        e.user_id
        for e in entrants
        if e.user_id in withdrawn and not kept(_played(e.user_id, games), len(entrants))
    }


def counted(
    entrants: Sequence[Entrant], withdrawn: Collection[int], games: Sequence[Pairing]
) -> list[Pairing]:
    """The games that count for the standings: all but those of a player whose results are struck."""
    gone = struck(entrants, withdrawn, games)
    return [g for g in games if g.first not in gone and g.second not in gone]


__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "berger",
    "counted",
    "kept",
    "pair_round",
    "rounds_for",
    "scheduled",
    "seeded",
    "struck",
]
