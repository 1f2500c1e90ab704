"""Console identities: user and channel names as reversible ids, so a restart needs no name table.

A name of up to 11 characters from [a-z0-9_-] is written in bijective base 38 and offset into a
range of its own. The id decodes back to the name, so mentions in a game stored last week still
print as `@bob` after a restart, and the same name always plays as the same player.
"""

from __future__ import annotations

import re

ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789_-"
MAX_LEN = 11  # 38**11 (about 2.4e17) fits well inside one id range
USER_BASE = 10**18
CHANNEL_BASE = 2 * 10**18
BOT_ID = USER_BASE  # the empty name: no user can be called that
BOT_NAMES = ("bot", "ai")
GUILD_ID = 1  # the console is one server
_NAME = re.compile(r"^[a-z0-9_-]{1,11}$")


class BadName(ValueError):
    """A name the console cannot turn into an id; the message is shown as it is."""


def clean(raw: str, kind: str = "name") -> str:
    """Lower-case `raw` without its @ or # and check it; raise BadName with a friendly message."""
    name = raw.strip().lstrip("@#").lower()
    if not _NAME.match(name):
        raise BadName(
            f"'{raw.strip()[:30]}' is not a usable {kind}: use 1 to {MAX_LEN} letters, digits, _ or -."
        )
    return name


def _encode(name: str) -> int:
    n = 0
    for ch in name:
        n = n * len(ALPHABET) + ALPHABET.index(ch) + 1
    return n


def _decode(n: int) -> str:
    out: list[str] = []
    while n > 0:
        n -= 1
        n, r = divmod(n, len(ALPHABET))
        out.append(ALPHABET[r])
    return "".join(reversed(out))


def user_id(raw: str) -> int:
    """The id of a user name; `bot` and `ai` are the bot itself."""
    name = clean(raw, "user name")
    if name in BOT_NAMES:
        return BOT_ID
    return USER_BASE + _encode(name)


def user_name(uid: int) -> str:
    """The name behind a user id (`bot` for the bot, `user<id>` for an id from elsewhere)."""
    if uid == BOT_ID:
        return "bot"
    if USER_BASE < uid < CHANNEL_BASE:
        return _decode(uid - USER_BASE)
    return f"user{uid}"


def channel_id(raw: str) -> int:
    return CHANNEL_BASE + _encode(clean(raw, "channel name"))


def channel_name(cid: int) -> str:
    if CHANNEL_BASE < cid < 3 * 10**18:
        return _decode(cid - CHANNEL_BASE)
    return f"channel{cid}"
