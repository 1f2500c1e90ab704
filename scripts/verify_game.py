"""Check a game record exported with `/wargames export`, on your own machine.

    python scripts/verify_game.py FILE.json            (the dice, and the AI's every decision)
    python scripts/verify_game.py --dice-only FILE.json (the dice alone: seconds)

It needs Python 3.11 and this repository's `engine/` (the rules), nothing else: no database, no
Discord, no third-party package. It checks that the revealed secret's SHA-256 is the commitment the
bot showed when the game was challenged, derives the seed from the secret and the players' inputs,
replays every action with the rules and compares every roll and card with the stored end of the game
and its result (docs/fairness.md). For a game sealed in advance it checks that the seal was shown
in the game's own channel, before the challenge (the Discord ids' own times where the record has
them); for a tournament's game, that the tournament's seal came before the players' sign-ups, that
its label is a board of that tournament and, once the tournament is over, that its revealed secret
gives this game's. In a game against the AI it then replays each decision of the AI from its own
side's view, with the seed the game key gives and the clock its thinking read, and checks that its
program chose what the bot played (docs/fairness.md, "Checking the AI"): a few seconds to a few
minutes of CPU, with a progress line on stderr while it runs; the AI must be this repository's at the
commit the bot ran, which the record names: the check says whether it runs that very commit (a
different or unknown one is said, not failed). Exit status 0 when everything matches, 1 when
something does not, 2 when the file cannot be read.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import fairness


class Progress:
    """A line on stderr every few seconds while the AI's decisions are replayed."""

    def __init__(self, every: float = 5.0) -> None:
        self.every = every
        self.began = time.monotonic()
        self.said = self.began

    def __call__(self, done: int, of: int) -> None:
        now = time.monotonic()
        if now - self.said >= self.every:
            self.said = now
            print(
                f"Replaying the AI's decisions: {done} of {of} done ({now - self.began:.0f} s)...",
                file=sys.stderr,
                flush=True,
            )


def main(argv: list[str]) -> int:
    dice_only = "--dice-only" in argv
    argv = [a for a in argv if a != "--dice-only"]
    if len(argv) != 1:
        print(
            "Usage: python scripts/verify_game.py [--dice-only] FILE.json (a record from /wargames export)",
            file=sys.stderr,
        )
        return 2
    try:
        record = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # not JSON, not UTF-8, a number of thousands of digits
        print(f"Cannot read {argv[0]}: {exc}", file=sys.stderr)
        return 2
    except RecursionError:  # JSON nested deeper than Python reads it: no record is
        print(f"Cannot read {argv[0]}: it is nested too deep to be a game record.", file=sys.stderr)
        return 2
    if not isinstance(record, dict):
        print(f"{argv[0]} is not a game record (a JSON object).", file=sys.stderr)
        return 2
    report = fairness.check(record, ai=not dice_only, progress=Progress())
    game = record.get("match_id", "?")
    print(f"Game {game} ({report.game_title}).")
    print(report.text())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
