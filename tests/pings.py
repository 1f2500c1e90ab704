"""The turn's ping that opens a board at a hand-off ("<@2>, your move in Block Wars (vs <@1>)."):
tests that read what follows it (the story, the status) take it off first."""

from __future__ import annotations

import re

PING = re.compile(r"^<@\d+>(?: and <@\d+>)?, your move in [^\n]+\.\n")


def after_ping(text: str) -> str:
    """`text` without the ping's line it opens with, if it does."""
    return PING.sub("", text, count=1)
