"""A tournament's format, chosen when it is made: Swiss (play/swiss.py), round-robin
(play/roundrobin.py) or knockout (play/knockout.py). What differs between them lives here, so the
life cycle (play/tournament.py, play/tournament_sweep.py) asks one question at each step: how many
rounds, who plays whom, which games count, how many players it takes (RULES.md "Round-robin", "Knockout").
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from data.tournaments import KNOCKOUT, Board, Entry, Tournament, TournamentStatus
from play import knockout, roundrobin
from play.errors import BadRequest
from play.markup import Markup
from play.swiss import Entrant, Pairing, pair
from play.tiebreaks import PRESETS, Tiebreak

SWISS, ROUND_ROBIN = "swiss", "round-robin"
FORMATS = (SWISS, ROUND_ROBIN, KNOCKOUT)
# What the organiser's list and the help show for each, in the order offered
FORMAT_NAMES = {SWISS: "Swiss", ROUND_ROBIN: "Round-robin", KNOCKOUT: "Knockout"}
# The formats whose rounds follow from the players at the start (the organiser gives none)
SET_AT_START = (ROUND_ROBIN, KNOCKOUT)
MIN_CAP, MAX_CAP = 2, 100  # `max_players`, where the organiser sets one
MIN_SIGNUP_DAYS, MAX_SIGNUP_DAYS = 1, 30  # `signup_days`: sign-ups close that long after the making
DAY_SECONDS = 24 * 3600


def parse_format(text: str | None) -> str:
    """The format an organiser chose (Swiss unless they chose), or a refusal naming the choices."""
    if text is None or not text.strip():
        return SWISS
    word = text.strip().lower().replace("_", "-").replace(" ", "-")
    if word in ("roundrobin", "rr"):
        word = ROUND_ROBIN
    if word in ("ko", "single-elimination", "elimination", "cup"):
        word = KNOCKOUT
    if word not in FORMATS:
        raise BadRequest(
            f"`{text[:30]}` is not a tournament format: choose `swiss` (a few rounds, players of equal "
            "score meet), `round-robin` (everyone meets everyone once, for small groups) or `knockout` "
            "(single elimination: the winner of each game goes on)."
        )
    return word


def settled_rounds(kind: str, rounds: int | None, least: int, most: int) -> int:
    """The rounds stored at creation: a Swiss tournament's own (required, `least` to `most`); a
    round-robin's or a knockout's follow from its players and are set at the start (1 until then: the
    row needs one)."""
    if kind in SET_AT_START:
        if rounds is not None:
            why = (
                "everyone meets everyone once"
                if kind == ROUND_ROBIN
                else "each round halves the field until one is left"
            )
            raise BadRequest(
                f"A {kind}'s rounds follow from its players ({why}), so leave `rounds` out; for a set "
                "number of rounds choose `format: swiss`."
            )
        return 1
    if rounds is None:
        raise BadRequest(
            f"A Swiss tournament needs its number of rounds ({least} to {most}), e.g. `rounds:3`; or "
            "choose `format: round-robin` for everyone to meet everyone once."
        )
    if not least <= rounds <= most:
        raise BadRequest(f"A tournament has {least} to {most} rounds.")
    return rounds


# The most players a format itself takes (a Swiss, only the organiser's cap)
OWN_LIMIT = {ROUND_ROBIN: roundrobin.MAX_PLAYERS, KNOCKOUT: knockout.MAX_PLAYERS}


def checked_cap(kind: str, max_players: int | None) -> None:
    """Refuse a cap on players no tournament of `kind` could use."""
    if max_players is None:
        return
    top = OWN_LIMIT.get(kind, MAX_CAP)
    if not MIN_CAP <= max_players <= top:
        which = {ROUND_ROBIN: "A round-robin's", KNOCKOUT: "A knockout's"}.get(kind, "A tournament's")
        raise BadRequest(f"{which} cap on players is {MIN_CAP} to {top}.")


# Each format's usual order: FIDE's recommendations name Buchholz first for a Swiss and
# Sonneborn-Berger first for a round-robin (where everyone's Buchholz is the same field).
USUAL = {SWISS: "buchholz", ROUND_ROBIN: "sonneborn", KNOCKOUT: "buchholz"}


def parse_tiebreaks(text: str | None) -> str | None:
    """The tie-break order an organiser chose, by its name (None: the format's usual one)."""
    if text is None or not text.strip():
        return None
    word = text.strip().lower()
    if word not in PRESETS:
        names = ", ".join(f"`{name}`" for name in PRESETS)
        raise BadRequest(f"`{text[:30]}` is not a tie-break order: choose one of {names}.")
    return word


def order(tournament: Tournament) -> tuple[Tiebreak, ...]:
    """The tie-breaks the tournament's standings apply, in order."""
    return PRESETS.get(tournament.tiebreaks or USUAL.get(tournament.format, "buchholz"), PRESETS["buchholz"])


@dataclass(frozen=True, slots=True)
class Settings:
    """What an organiser chose for a tournament's shape, checked: what its row stores."""

    format: str
    rounds: int
    max_players: int | None
    tiebreaks: str | None
    signup_days: int | None = None

    @property
    def title(self) -> str:
        """The format's word in a tournament's default name."""
        return FORMAT_NAMES[self.format]

    @classmethod
    def chosen(
        cls,
        format: str | None,
        rounds: int | None,
        max_players: int | None,
        tiebreaks: str | None,
        bounds: tuple[int, int],
        signup_days: int | None = None,
    ) -> Settings:
        """The organiser's choices checked, or the first refusal; `bounds`: a Swiss's rounds."""
        kind = parse_format(format)
        settled = settled_rounds(kind, rounds, *bounds)
        checked_cap(kind, max_players)
        if signup_days is not None and not MIN_SIGNUP_DAYS <= signup_days <= MAX_SIGNUP_DAYS:
            raise BadRequest(f"Sign-ups stay open {MIN_SIGNUP_DAYS} to {MAX_SIGNUP_DAYS} days.")
        if kind == KNOCKOUT and parse_tiebreaks(tiebreaks) is not None:
            raise BadRequest(
                "A knockout ranks players by how far each got, so no tie-break order applies: leave "
                "`tiebreaks` out (a drawn game sends the higher seed on)."
            )
        return cls(kind, settled, max_players, parse_tiebreaks(tiebreaks), signup_days)

    def closes(self, now: float) -> float | None:
        """When sign-ups close, made `now` (None: open until the start)."""
        return None if self.signup_days is None else now + self.signup_days * DAY_SECONDS


def signup_closed_text(tournament: Tournament, now: float, markup: Markup) -> str | None:
    """Why a sign-up is refused once the tournament's sign-up deadline has passed (None: open): when,
    with its date beside the countdown, for a player who thought they were in time."""
    closes = tournament.signup_closes_at
    if closes is None or now < closes:
        return None
    return (
        f"Sign-ups to {markup.strong(tournament.name)} closed {markup.deadline(closes)}; it starts "
        "when an organiser starts it. Ask an organiser if you still hope to play."
    )


def is_round_robin(tournament: Tournament) -> bool:
    return tournament.format == ROUND_ROBIN


def is_knockout(tournament: Tournament) -> bool:
    return tournament.format == KNOCKOUT


def cap(tournament: Tournament) -> int | None:
    """The most players the tournament takes: its own cap, and a round-robin's or knockout's limit."""
    limits = [n for n in (tournament.max_players, OWN_LIMIT.get(tournament.format)) if n is not None]
    return min(limits) if limits else None


KNOCKOUT_NEAR = 48  # signed up from which a knockout without the organiser's cap states its own


def cap_said(tournament: Tournament, signed: int) -> int | None:
    """The cap the sign-up list states (None: none worth a reader's time). A knockout's own 64 is
    said only once the list nears it: "At most 64 players" on a list of five reads as a warning
    about nothing. The organiser's cap, and a round-robin's 10, are always said."""
    most = cap(tournament)
    if most is None or not is_knockout(tournament) or tournament.max_players is not None:
        return most
    taking = tournament.status is TournamentStatus.SIGNUP
    return most if taking and signed >= KNOCKOUT_NEAR else None


def full_text(tournament: Tournament, name: str) -> str:
    """Why a sign-up is refused once the tournament has as many players as it takes."""
    most = cap(tournament)
    assert most is not None
    if is_round_robin(tournament) and most == roundrobin.MAX_PLAYERS:
        return (
            f"{name} is full: a round-robin takes at most {most} players (each plays everyone else, "
            f"so {most} already need {roundrobin.rounds_for(most)} rounds). Ask an organiser to open "
            "a Swiss tournament for more players, or a second round-robin in another channel."
        )
    if is_knockout(tournament) and most == knockout.MAX_PLAYERS:
        return (
            f"{name} is full: a knockout takes at most {most} players ({knockout.rounds_for(most)} "
            "rounds). Ask an organiser to open a Swiss tournament for more players."
        )
    return f"{name} is full: it takes at most {most} players. Ask an organiser if a place comes free."


def full_refusal(tournament: Tournament, entries: Sequence[Entry], user_id: int, name: str) -> str | None:
    """Why `user_id` may not join: the tournament has all the players it takes (None: a place is
    free, or they are in it already, which the caller words its own way)."""
    most = cap(tournament)
    if most is None or len(entries) < most or any(e.user_id == user_id for e in entries):
        return None
    return full_text(tournament, name)


def join_refusal(
    tournament: Tournament, entries: Sequence[Entry], user_id: int, now: float, markup: Markup
) -> str | None:
    """Why `user_id` may not sign up now: the sign-up deadline has passed, or the tournament is
    full (None: they may, or they are in it already, which the caller words its own way). The cap
    is counted again in the sign-up's own write (`TournamentStore.join_tournament`, `join_late`)."""
    if any(e.user_id == user_id for e in entries):
        return None
    closed = signup_closed_text(tournament, now, markup)
    return closed or full_refusal(tournament, entries, user_id, markup.strong(tournament.name))


def rounds_said(players: int) -> str:
    """How many rounds a round-robin of `players` plays, said at sign-up and at the start."""
    rounds = roundrobin.rounds_for(players)
    bye = ", each player sitting out one round" if players % 2 else ""
    word = "round" if rounds == 1 else "rounds"
    return f"with {players} players that is {rounds} {word}{bye}"


def entrants(entries: Sequence[Entry]) -> list[Entrant]:
    """Everyone who started, with their rating at the start (a round-robin's numbers come from it)."""
    return [Entrant(e.user_id, e.rating if e.rating is not None else 0.0) for e in entries]


def start_pairings(tournament: Tournament, players: Sequence[Entrant]) -> tuple[list[Pairing], int | None]:
    """Round 1's pairings, and the number of rounds where the start sets it (a round-robin's);
    a round-robin or knockout past its limit is refused with what to do instead."""
    if is_knockout(tournament):
        if len(players) > knockout.MAX_PLAYERS:
            raise BadRequest(
                f"A knockout takes at most {knockout.MAX_PLAYERS} players and {len(players)} have signed "
                "up: an organiser can remove some, or cancel it and open a Swiss tournament instead."
            )
        return knockout.pair_round(players, 1, {}), knockout.rounds_for(len(players))
    if not is_round_robin(tournament):
        return pair(players, [], 1), None
    if len(players) > roundrobin.MAX_PLAYERS:
        raise BadRequest(
            f"A round-robin takes at most {roundrobin.MAX_PLAYERS} players and {len(players)} have signed "
            "up: an organiser can remove some, or cancel it and open a Swiss tournament instead."
        )
    return roundrobin.pair_round(players, 1), roundrobin.rounds_for(len(players))


def next_pairings(
    tournament: Tournament,
    entries: Sequence[Entry],
    games: Sequence[Pairing],
    round_no: int,
    skip: Collection[int] = (),
) -> list[Pairing]:
    """Round `round_no`'s pairings: Swiss among the players still in (`skip`: passed over for the
    bye, play/swiss.py); a round-robin's from its table, a withdrawn player's games forfeited or
    struck out (play/roundrobin.py); a knockout's from its bracket (play/knockout.py)."""
    if is_knockout(tournament):
        return knockout.pair_round(entrants(entries), round_no, gone_in(tournament, entries), games)
    if not is_round_robin(tournament):
        players = [Entrant(e.user_id, e.rating or 0.0) for e in entries if not e.withdrawn]
        return pair(players, games, round_no, skip)
    gone = {e.user_id for e in entries if e.withdrawn}
    return roundrobin.pair_round(entrants(entries), round_no, gone, games)


def gone_in(tournament: Tournament, entries: Sequence[Entry]) -> dict[int, int]:
    """Each withdrawn player's round under way when they withdrew (the round now, if not stored)."""
    return {e.user_id: e.withdrawn_round or tournament.round for e in entries if e.withdrawn}


def decided(tournament: Tournament, entries: Sequence[Entry], games: Sequence[Pairing]) -> bool:
    """A knockout whose bracket has nobody left to meet (withdrawals emptied it): over early."""
    if not is_knockout(tournament):
        return False
    return len(knockout.still_in(knockout.seeded(entrants(entries)), games, gone_in(tournament, entries))) < 2


def counted(tournament: Tournament, entries: Sequence[Entry], games: Sequence[Pairing]) -> list[Pairing]:
    """The games the standings count: every one in a Swiss; in a round-robin, not those of a player
    who withdrew before playing half their games."""
    if not is_round_robin(tournament):
        return list(games)
    gone = {e.user_id for e in entries if e.withdrawn}
    return roundrobin.counted(entrants(entries), gone, games)


def games_played(
    tournament: Tournament, entries: Sequence[Entry], boards: Sequence[Board], user_id: int
) -> tuple[int, int] | None:
    """A round-robin player's games paired so far (a game still going counts: it plays on after a
    withdrawal) and their games in all; None in a Swiss, where no rule needs them."""
    if not is_round_robin(tournament):
        return None
    paired = sum(1 for b in boards if b.second_id is not None and user_id in (b.first_id, b.second_id))
    return paired, len(entries) - 1


def forfeit_wins(
    tournament: Tournament, entries: Sequence[Entry], boards: Sequence[Board]
) -> dict[tuple[int, int], int]:
    """In a round-robin, each pairing without an opponent that is a forfeit win, by (round,
    player), and the withdrawn player the table had them meet, whom the announcement names; a
    Swiss has none (its bye is only a bye)."""
    if not is_round_robin(tournament):
        return {}
    players = entrants(entries)
    out: dict[tuple[int, int], int] = {}
    for b in boards:
        if b.second_id is None:
            against = roundrobin.scheduled(players, b.round, b.first_id)
            if against is not None:
                out[(b.round, b.first_id)] = against
    return out


def struck_meetings(
    tournament: Tournament, entries: Sequence[Entry], boards: Sequence[Board]
) -> dict[tuple[int, int], int]:
    """In a round-robin, each player still in with no pairing in a round paired so far because the
    table had them meet a player whose games are struck out, by (round, player), and that player:
    the announcement says why they have no game (it left them out without a word)."""
    if not is_round_robin(tournament):
        return {}
    players = entrants(entries)
    gone = {e.user_id for e in entries if e.withdrawn}
    out: dict[tuple[int, int], int] = {}
    for r in sorted({b.round for b in boards}):
        seated = {u for b in boards if b.round == r for u in (b.first_id, b.second_id)}
        for e in entries:
            against = roundrobin.scheduled(players, r, e.user_id)
            if e.user_id not in gone and e.user_id not in seated and against in gone:
                assert against is not None
                out[(r, e.user_id)] = against
    return out


def struck(tournament: Tournament, entries: Sequence[Entry], boards: Sequence[Board]) -> set[int]:
    """The withdrawn players of a round-robin whose results are struck out (none in a Swiss)."""
    if not is_round_robin(tournament):
        return set()
    games = [Pairing(b.round, b.first_id, b.second_id, b.result) for b in boards]
    gone = {e.user_id for e in entries if e.withdrawn}
    return roundrobin.struck(entrants(entries), gone, games)


__all__ = [
    "FORMATS",
    "FORMAT_NAMES",
    "KNOCKOUT",
    "KNOCKOUT_NEAR",
    "MAX_CAP",
    "MAX_SIGNUP_DAYS",
    "MIN_CAP",
    "MIN_SIGNUP_DAYS",
    "OWN_LIMIT",
    "ROUND_ROBIN",
    "SET_AT_START",
    "SWISS",
    "USUAL",
    "Settings",
    "cap",
    "cap_said",
    "checked_cap",
    "counted",
    "decided",
    "entrants",
    "forfeit_wins",
    "full_refusal",
    "full_text",
    "games_played",
    "gone_in",
    "is_knockout",
    "is_round_robin",
    "join_refusal",
    "next_pairings",
    "order",
    "parse_format",
    "parse_tiebreaks",
    "rounds_said",
    "settled_rounds",
    "signup_closed_text",
    "start_pairings",
    "struck",
    "struck_meetings",
]
