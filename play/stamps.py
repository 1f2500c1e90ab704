"""The stamp a button's custom_id carries for the position it was drawn at.

A match's version counts every write of its log, steps taken back included, and a modified client
reads raw custom_ids: a plain version on the hand-off board told the other player how many steps
were tried and taken back (docs/fairness.md, the fourth review). A version-2 game's buttons carry
instead a short keyed hash of the version, whose key (the game's secret) the players learn only at
its end, when the record shows those steps anyway. A version-1 game, with no secret, keeps the plain
number.
"""

from __future__ import annotations

import hashlib
import hmac

from data import Match

TOKEN_DIGITS = 12  # hex digits: 48 bits, so a guessed stamp is accepted once in 2**48 tries
Stamp = int | str  # a plain version (the service's own callers), or a stamp read from a custom_id


def stamp(match: Match, version: int | None = None) -> str:
    """What a button drawn at `version` (default: the match's) carries in its custom_id."""
    number = match.version if version is None else version
    return stamp_of(match.id, number, match.chance_version, match.seed_secret)


def stamp_of(match_id: int, version: int, chance_version: int, seed_secret: str | None) -> str:
    """`stamp` from the match's stored fields (an audit reads them from the store's rows)."""
    if chance_version != 2 or seed_secret is None:
        return str(version)
    # No ":" in the message: every message the dice are keyed from has one (engine/chance.py).
    message = f"custom id {match_id} {version}".encode("ascii")
    return hmac.new(bytes.fromhex(seed_secret), message, hashlib.sha256).hexdigest()[:TOKEN_DIGITS]


STALE = "This prompt is out of date: the game has moved on. Use the newest board."
# A board posted before buttons carried stamps: the game may not have moved at all, so "the newest
# board" would send the player back to these very buttons.
UNSTAMPED = (
    "This board's buttons are from before the bot's last update and no longer work; nothing was "
    "changed. The game's `board` command shows it again with new ones."
)


def stale_text(match: Match, given: Stamp) -> str:
    """Why a click carrying `given` is refused as out of date. It says nothing of the version: only
    whether the custom_id is of the kind this game's buttons no longer carry (a plain number in a
    version-2 game; a stamp is never as short as one, so no stamp of digits is taken for one)."""
    old = isinstance(given, str) and given.isdigit() and len(given) < TOKEN_DIGITS
    return UNSTAMPED if old and match.chance_version == 2 and match.seed_secret is not None else STALE


def denotes(match: Match, given: Stamp, version: int | None) -> bool:
    """Whether a click carrying `given` was drawn at `version`. A version-2 game takes only its
    tokens: a plain number accepted there would let a forged click probe the count."""
    if version is None:
        return False
    if isinstance(given, int):
        return given == version
    return hmac.compare_digest(given.encode("ascii", "replace"), stamp(match, version).encode("ascii"))
