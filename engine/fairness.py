"""Checking a finished game's record: the commitment, then every roll and card, by replaying it.

A record is the JSON `/wargames export` sends (docs/fairness.md lists its fields). `check` needs only
the standard library and the rules, so anyone can run it on their own machine
(`scripts/verify_game.py FILE`) and trust nothing of the bot but the rules it plays by.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import chance, registry

RECORD_FORMAT = "wargames-game-record"
RECORD_VERSION = 1
SIDE_DRAW = -1  # the draw of a version-2 game that gives a "random" challenger a side


@dataclass
class Finding:
    """One thing checked: what, and whether it held."""

    ok: bool
    text: str


@dataclass
class Report:
    """What checking a record found; `ok` only if every finding held."""

    game_title: str
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.findings) and all(f.ok for f in self.findings)

    def add(self, ok: bool, text: str) -> bool:
        self.findings.append(Finding(ok, text))
        return ok

    def text(self) -> str:
        """The findings, a line each, with a verdict first."""
        head = (
            "Verified: this game was played with the dice and cards the commitment fixed."
            if self.ok
            else "Not verified: something in this record does not match."
        )
        return "\n".join([head, *(("✅ " if f.ok else "❌ ") + f.text for f in self.findings)])


def random_side(seed: int, sides: Sequence[str]) -> str:
    """The side a challenger who asked for "random" gets in a version-2 game (draw -1)."""
    return chance.rng(seed, SIDE_DRAW).choice(list(sides))


def seed_of(record: Mapping[str, Any]) -> int:
    """The seed the record's game was played with: derived from the revealed secret and the inputs
    (version 2), or stored as it was (version 1, before commitments)."""
    if int(record["chance_version"]) == 2:
        return chance.game_seed(bytes.fromhex(record["secret"]), [str(i) for i in record["inputs"]])
    return int(record["seed"])


def check(record: Mapping[str, Any]) -> Report:
    """Check a record: its commitment, that every action replays from the seed, and that the
    replay ends in the stored final position and outcome. Never raises on a bad record: a record
    that cannot be read is a finding too."""
    try:
        return _check(record)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        report = Report(str(record.get("game", "?")) if isinstance(record, Mapping) else "?")
        report.add(False, f"The record cannot be read: {type(exc).__name__} {exc}.")
        return report


def _check(record: Mapping[str, Any]) -> Report:
    if record.get("format") != RECORD_FORMAT:
        report = Report("?")
        report.add(False, f"This is not a game record (its `format` is not {RECORD_FORMAT!r}).")
        return report
    try:
        rules = registry.game(str(record["game"]))
    except registry.UnknownGame:
        report = Report(str(record["game"]))
        report.add(False, f"No game called {record['game']!r} is known to these rules.")
        return report
    report = Report(rules.title)
    version = int(record["chance_version"])
    if version not in chance.VERSIONS:
        report.add(False, f"Chance version {version} is not one these rules know ({chance.VERSIONS}).")
        return report
    if version == 2:
        secret = bytes.fromhex(str(record["secret"]))
        if len(secret) != 32:
            report.add(False, "The secret is not 32 bytes (64 hex digits).")
            return report
        made = hashlib.sha256(secret).hexdigest()
        if not report.add(
            made == str(record["commitment"]).lower(),
            f"The secret's SHA-256 is {made[:16]}…; the commitment shown at the start was "
            f"{str(record['commitment'])[:16]}…"
            + (" (they match)." if made == str(record["commitment"]).lower() else " (they differ)."),
        ):
            return report
        inputs = [str(i) for i in record["inputs"]]
        report.add(True, f"Players' inputs mixed in after the commitment: {', '.join(inputs) or 'none'}.")
    else:
        report.add(
            True,
            "This game was played before dice were committed (chance version 1): it can be replayed "
            "from its stored seed, but there was no commitment to check.",
        )
    seed = seed_of(record)
    sides = [s.name for s in rules.sides]
    players = {str(p["side"]): p.get("user_id") for p in record["players"]}
    asked = record.get("challenger_side")
    if version == 2 and asked == "random" and record.get("challenger_id") is not None:
        drawn = random_side(seed, sides)
        report.add(
            players.get(drawn) == record["challenger_id"],
            f"The challenger asked for a side at random; the seed gives them the {rules.side(drawn).title}"
            + (
                " as they played."
                if players.get(drawn) == record["challenger_id"]
                else ", not what they played."
            ),
        )
    state = rules.new_game(dict(record["options"]), seed)
    actions = list(record["actions"])
    for n, action in enumerate(actions, 1):
        side, notation = str(action["side"]), str(action["notation"])
        try:
            state.apply(rules.parse(notation), side)
        except ValueError as exc:
            report.add(False, f"Action {n} of {len(actions)} ({side}: `{notation}`) does not replay: {exc}")
            return report
    replayed = "The one action replays" if len(actions) == 1 else f"All {len(actions)} actions replay"
    report.add(True, f"{replayed} from the seed, in order.")
    final = record.get("final")
    if final is not None:
        same = ends_as_stored(rules, state.to_json(), final)
        report.add(
            same,
            "Every roll and card drawn in the replay is the one the game stored at its end."
            if same
            else "The replay does not end where the stored game ended: a roll, a card or an action differs.",
        )
    outcome = state.outcome()
    recorded = record.get("outcome") or {}
    if outcome is not None:
        want = recorded.get("winner_side")
        got = outcome.winner
        report.add(
            want == got,
            f"The replay ends {_result(rules, got)}, as recorded."
            if want == got
            else f"The replay ends {_result(rules, got)}, but the record says {_result(rules, want)}.",
        )
    else:
        report.add(
            bool(recorded.get("reason")),
            f"The game ended without a move of the rules ({recorded.get('reason') or 'no reason given'}).",
        )
    return report


def ends_as_stored(rules: Any, replayed: Mapping[str, Any], stored: Mapping[str, Any]) -> bool:
    """Whether a replay ends where the game stored its end. The stored position is read by today's
    rules first (`from_json`, then `to_json`), so a later change of how a game writes itself down
    (an outcome's keys renamed) is not taken for a different game; and only what the stored
    position holds is compared, so a key today's rules added later (a count of questions asked,
    kept for words only) cannot fail a game stored before it existed. Every roll, card and piece
    the stored position records must be the replay's."""
    try:
        read = rules.from_json(json.loads(json.dumps(stored))).to_json()
    except (KeyError, TypeError, ValueError, AttributeError):
        return False  # not a position these rules can read
    now = json.loads(json.dumps(replayed))
    return all(_canonical(read.get(key)) == _canonical(now.get(key)) for key in stored)


def _result(rules: Any, winner: str | None) -> str:
    return "in a draw" if winner is None else f"in a win for the {rules.side(winner).title}"


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "Finding",
    "Report",
    "check",
    "ends_as_stored",
    "random_side",
    "seed_of",
]
