"""Check a game record exported with `/wargames export`, on your own machine.

    python scripts/verify_game.py FILE.json

It needs Python 3.11 and this repository's `engine/` (the rules), nothing else: no database, no
Discord, no third-party package. It checks that the revealed secret's SHA-256 is the commitment the
bot showed when the game was challenged, derives the seed from the secret and the players' inputs,
replays every action with the rules and compares every roll and card with the stored end of the game
and its result (docs/fairness.md). For a game sealed in advance it checks that the seal was shown
in the game's own channel, before the challenge (the Discord ids' own times where the record has
them); for a tournament's game, that the tournament's seal came before the players' sign-ups, that
its label is a board of that tournament and, once the tournament is over, that its revealed secret
gives this game's. Exit status 0 when everything matches, 1 when something does not, 2 when the
file cannot be read.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import fairness


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(
            "Usage: python scripts/verify_game.py FILE.json (a record from /wargames export)", file=sys.stderr
        )
        return 2
    try:
        record = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        print(f"Cannot read {argv[0]}: {exc}", file=sys.stderr)
        return 2
    if not isinstance(record, dict):
        print(f"{argv[0]} is not a game record (a JSON object).", file=sys.stderr)
        return 2
    report = fairness.check(record)
    game = record.get("match_id", "?")
    print(f"Game {game} ({report.game_title}).")
    print(report.text())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
