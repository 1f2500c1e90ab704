"""Checking a finished game's record: the commitment, then every roll and card, by replaying it.

A record is the JSON `/wargames export` sends (docs/fairness.md lists its fields). `check` needs only
the standard library and the rules, so anyone can run it on their own machine
(`scripts/verify_game.py FILE`) and trust nothing of the bot but the rules it plays by.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import ai_check, chance, registry

RECORD_FORMAT = "wargames-game-record"
# 2: a game whose secret was a channel's seal carries `seal` (where and when its commitment was
# shown before the challenge); a record without it reads as before.
# 3: the game's `channel_id`, so that a seal shown in another channel fails the check.
# 4: a game against the AI carries `ai`, its decisions (engine/ai_check.py), and its AI's seeds come
# from the game key; the AI of an older record cannot be checked, and its dice check as before.
RECORD_VERSION = 4
DISCORD_EPOCH_MS = 1_420_070_400_000  # a Discord id's time counts milliseconds from this moment
SIDE_DRAW = -1  # the draw of a version-2 game that gives a "random" challenger a side
# What a record of the wrong shape raises while it is read: said as a finding, never a traceback
# (an index past a list's end, an infinite number where a whole one belongs, nesting too deep).
UNREADABLE = (LookupError, TypeError, ValueError, AttributeError, ArithmeticError, RecursionError)
# Hex digits of a commitment shown where a reader compares it (a game's first message, a seal, and
# the check's findings alike; the whole value is in the record): 128 bits, so that finding another
# secret whose commitment begins alike, to choose between or to forge a record with, is out of reach.
SHOWN = 32


@dataclass
class Finding:
    """One thing checked: what, and whether it held (`checked` False: a thing that could not be
    checked, said so; it fails nothing)."""

    ok: bool
    text: str
    checked: bool = True


@dataclass
class Report:
    """What checking a record found; `ok` only if every finding held."""

    game_title: str
    findings: list[Finding] = field(default_factory=list)
    ai_checked: bool = False  # the AI's decisions were replayed, and held
    ai_unchecked: bool = False  # an AI played, and some of its decisions could not be checked
    ai_caveat: str | None = None  # what the verdict adds: the AI's choices not checked, or on trust

    @property
    def ok(self) -> bool:
        return bool(self.findings) and all(f.ok for f in self.findings)

    def add(self, ok: bool, text: str) -> bool:
        self.findings.append(Finding(ok, text))
        return ok

    def note(self, text: str) -> None:
        """Something that could not be checked, said plainly."""
        self.findings.append(Finding(True, text, checked=False))

    def text(self) -> str:
        """The findings, a line each, with a verdict first."""
        head = (
            "Verified: this game was played with the dice and cards the commitment fixed"
            + (
                f"; {self.ai_caveat}."
                if self.ai_caveat
                else ", and the AI chose each of its moves from its own side's view."
                if self.ai_checked
                else "."
            )
            if self.ok
            else "Not verified: something in this record does not match."
        )
        marks = [("✅ " if f.ok else "❌ ") if f.checked else "➖ " for f in self.findings]
        return "\n".join([head, *(m + f.text for m, f in zip(marks, self.findings, strict=True))])


def random_side(seed: int, sides: Sequence[str]) -> str:
    """The side a challenger who asked for "random" gets in a version-2 game (draw -1)."""
    return chance.rng(seed, SIDE_DRAW).choice(list(sides))


def seed_of(record: Mapping[str, Any]) -> int:
    """The seed the record's game was played with: derived from the revealed secret and the inputs
    (version 2), or stored as it was (version 1, before commitments)."""
    if int(record["chance_version"]) == 2:
        return chance.game_seed(bytes.fromhex(record["secret"]), [str(i) for i in record["inputs"]])
    return int(record["seed"])


def check(
    record: Mapping[str, Any], *, ai: bool = False, progress: Callable[[int, int], None] | None = None
) -> Report:
    """Check a record: its commitment, that every action replays from the seed, and that the
    replay ends in the stored final position and outcome; with `ai`, also that each decision of
    the AI replays from its side's view (engine/ai_check.py: seconds to minutes of CPU, so offline;
    `progress(done, of)` hears of each). Never raises on a bad record: a record that cannot be read
    is a finding too."""
    try:
        report = _check(record)
    except UNREADABLE as exc:
        report = Report(str(record.get("game", "?")) if isinstance(record, Mapping) else "?")
        report.add(False, f"The record cannot be read: {type(exc).__name__} {exc}.")
        return report
    if ai and record.get("format") == RECORD_FORMAT and str(record.get("game")) in registry.names():
        try:  # even after a finding failed: it may say more about what is wrong
            _check_ai(report, record, progress)
        except UNREADABLE as exc:
            report.add(False, f"The AI's decisions cannot be read: {type(exc).__name__} {exc}.")
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
            f"The secret's SHA-256 is {made[:SHOWN]}…; the commitment shown "
            + ("before the challenge" if record.get("seal") else "at the start")
            + f" was {str(record['commitment'])[:SHOWN]}…"
            + (" (they match)." if made == str(record["commitment"]).lower() else " (they differ)."),
        ):
            return report
        inputs = [str(i) for i in record["inputs"]]
        _inputs_and_seal(report, record, inputs)
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
    if final is None:  # nothing to compare with: said, rather than passed over in silence
        report.note(
            "The record holds no stored end of the game, so the replay's rolls and cards are compared "
            "with nothing the bot stored; only the result is."
        )
    else:
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


def _check_ai(report: Report, record: Mapping[str, Any], progress: Callable[[int, int], None] | None) -> None:
    rules = registry.game(str(record["game"]))
    found = ai_check.check_ai(rules, record, seed_of(record), progress)
    add_ai(report, found, lambda side: rules.side(side).title, _began(record))


def add_ai(
    report: Report, found: ai_check.AiCheck, title_of: Callable[[str], str], began: str | None = None
) -> None:
    """The AI check's findings in `report`, and what its verdict line must say of them."""
    for ok, text in ai_check.findings(found, title_of, began):
        if ok is None:
            report.note(text)
        else:
            report.add(ok, text)
    report.ai_checked = found.side is not None and found.ok and bool(found.replayed)
    # decisions said not checked (➖): before the bot recorded them, or the whole record too old
    report.ai_unchecked = bool(found.before) or (report.ok and not found.ok and not found.replayed)
    report.ai_caveat = ai_check.caveat(found)


def _began(record: Mapping[str, Any]) -> str | None:
    """When the record says its game began: the bot's clock, and its challenge's Discord id's own
    time where it has one (a time the bot cannot pick once the challenge is made)."""
    try:
        began = _when(float(record["started_at"]))
    except (KeyError, TypeError, ValueError, OverflowError):
        return None
    inputs = record.get("inputs")
    challenge = (
        next(
            (str(i).split(":", 1)[1] for i in inputs or () if str(i).startswith("challenge:")),
            None,
        )
        if isinstance(inputs, list)
        else None
    )
    minted = snowflake_time(challenge)
    return began + (f" (its challenge's Discord id says {_when(minted)})" if minted is not None else "")


def tournament_label(tournament_id: int, round_no: int, board: int) -> str:
    """The name a tournament game's secret is drawn under: its tournament, round and board."""
    return f"tournament {tournament_id} round {round_no} board {board}"


def tournament_secret(tournament_secret: bytes, label: str) -> bytes:
    """A tournament game's secret: HMAC-SHA256 of its label under the tournament's sealed secret, so
    each game's is fixed when the tournament's commitment is shown, and revealing one tells nothing of
    another's."""
    return hmac.new(tournament_secret, label.encode("utf-8"), hashlib.sha256).digest()


def snowflake_time(value: object) -> float | None:
    """When Discord minted an id (unix seconds), read from the id itself; None for what is not one."""
    text = str(value)
    if not text.isdigit() or int(text) >> 22 == 0 or int(text) >= 2**63:
        return None
    return ((int(text) >> 22) + DISCORD_EPOCH_MS) / 1000


def _inputs_and_seal(report: Report, record: Mapping[str, Any], inputs: Sequence[str]) -> None:
    """Whether the inputs came after the secret was fixed: a sealed game's commitment was shown in its
    channel before the challenge, so every input (the challenge's id too) came after it; else only
    the inputs after the challenge's own (an accept) did, and a game with none (against the AI, a
    tournament's) shows that its dice follow from the commitment, not that the bot drew it once."""
    listed = ", ".join(inputs) or "none"
    if record.get("tournament"):
        _tournament(report, record, inputs)
        return
    seal = record.get("seal")
    if not seal:
        later = [i for i in inputs if not i.startswith("challenge:") and not i.endswith(":-")]
        if later:
            report.add(
                True, f"Players' inputs mixed in: {listed}; {', '.join(later)} came after the commitment."
            )
        else:
            report.add(
                True,
                f"Players' inputs mixed in: {listed}. The secret was drawn at the challenge and no input "
                "came after its commitment, so this shows that the dice follow from the commitment, "
                "not that the bot did not try several secrets before showing one.",
            )
        # the one thing the record cannot vouch for itself: a record whose secret, commitment and
        # end were all replaced together checks out, but not against what its channel showed
        report.note(
            f"That the game's first message in its channel showed the commitment "
            f"`{str(record['commitment']).lower()[:SHOWN]}…` is for a reader to see there: the record "
            "alone cannot show it, and a record whose secret and commitment were both replaced would "
            "pass every other check."
        )
        return
    if all(i.endswith(":-") for i in inputs):  # the console: a command has no id to give
        report.add(
            True,
            f"Players' inputs mixed in: {listed} (no ids: none was given). The sealed secret alone, "
            "fixed before the challenge, sets the dice.",
        )
    else:
        report.add(True, f"Players' inputs mixed in, all after the sealed commitment was shown: {listed}.")
    _seal_channel(report, record, seal)
    # what a reader looks for in the channel: the latest commitment sealed there before the challenge
    look = (
        f"That the message shows `{str(record['commitment']).lower()[:SHOWN]}…`, and that no other "
        "commitment was sealed in the channel between it and the challenge, is for a reader to see "
        "in the channel: the record alone cannot."
    )
    challenge = next((i.split(":", 1)[1] for i in inputs if i.startswith("challenge:")), None)
    started = float(record["started_at"])
    asked = _discord_time(challenge, started)
    shown_id = snowflake_time(seal.get("message_id"))
    if asked is not None and shown_id is not None:
        before = shown_id < asked
        report.add(
            before,
            f"The commitment was shown by message {seal['message_id']} at {_when(shown_id)}, "
            + ("before" if before else "not before")
            + f" the challenge at {_when(asked)} (both times are Discord's, read from the ids). "
            + look,
        )
        return
    minted = snowflake_time(challenge)
    if shown_id is not None and minted is not None and shown_id - LATE_SEAL <= minted < shown_id:
        # Both are Discord's ids and say the seal came after the challenge: the record's own times,
        # which moved the start away from the challenge's id, cannot outweigh them.
        report.add(
            False,
            f"Message {seal['message_id']}, which showed the commitment, was posted at {_when(shown_id)}, "
            f"after the challenge's own id ({_when(minted)}), whatever the record's own times say.",
        )
        return
    shown = float(seal["shown_at"])
    order = "before" if shown < started else "no later than" if shown == started else "after"
    if order == "before" and _when(shown) == _when(started):
        order = "a moment before"  # the same second as written: say it was earlier all the same
    if not seal.get("message_id"):
        where = "No message id was kept"
    elif shown_id is not None:  # an id, but the record's times are not near it: say what it says
        where = f"Message {seal['message_id']} in the channel showed it (its id says at {_when(shown_id)})"
    else:
        where = f"Message {seal['message_id']} in the channel showed it"
    report.add(
        shown <= started,
        f"The bot's clock says the commitment was shown at {_when(shown)}, {order} the challenge at "
        f"{_when(started)}. {where}; only the channel's history can confirm the time, the record "
        f"alone cannot. {look}",
    )


def _seal_channel(report: Report, record: Mapping[str, Any], seal: Mapping[str, Any]) -> None:
    """A channel's seal binds that channel's next game alone: a seal taken from another channel could
    have been picked, after the challenge, among the seals of many (second red team)."""
    here = record.get("channel_id")
    if here is None:
        report.add(
            True,
            "This record does not say which channel the game was in (records before format 3 do not), "
            f"so that its seal was shown there (in channel {seal.get('channel_id')}) is for a reader to see.",
        )
        return
    same = str(seal.get("channel_id")) == str(here)
    report.add(
        same,
        f"The seal was shown in this game's own channel ({here})."
        if same
        else f"The seal was shown in channel {seal.get('channel_id')}, not in this game's channel {here}: "
        "a channel's seal is for that channel's next game alone.",
    )


# How far an interaction's id may be from the moment the bot stored what it did: Discord waits 15
# minutes at most for a deferred answer. An input further off is not an id Discord gave then (a
# console's `-`, a seeded run's number), so the record's times are the bot's clock alone.
ID_SLACK = 15 * 60
# How long before a seal's message a challenge's id, though far from the record's start, is still
# taken for Discord's (a seeded run's number lands in so short a stretch of its 70 years rarely): a
# seal shown after a challenge must fail even when the record's times were moved.
LATE_SEAL = 90 * 24 * 3600
# How long before a tournament game's start its players' joins may be Discord's: the rounds before it
# (at most 12 of 14 days) and the sign-ups. A console's joins are `-` (a seeded run's, numbers that
# rarely land in so short a stretch of their 70 years).
SIGNUP_SPAN = 400 * 24 * 3600


def _discord_time(value: object, stored_at: float) -> float | None:
    """The time of a Discord id given with something the bot stored at `stored_at`, or None if it
    is not such an id."""
    minted = snowflake_time(value)
    return minted if minted is not None and abs(minted - stored_at) <= ID_SLACK else None


def _tournament(report: Report, record: Mapping[str, Any], inputs: Sequence[str]) -> None:
    """A tournament game: its secret comes from the tournament's seal, shown before anyone joined,
    and the players' joins are its inputs. The link to that seal can be checked once the tournament
    is over and its secret revealed; the order of the seal's message and the joins, from their ids."""
    t = record["tournament"]
    label, sealed = str(t["label"]), str(t["commitment"]).lower()
    report.add(True, f"Players' inputs mixed in: {', '.join(inputs) or 'none'}.")
    # A message's id is the platform's, never a number the bot drew, so its own time is read as it
    # is: a recorded time far from it cannot turn it into "no Discord id" (second red team).
    shown = snowflake_time(t.get("message_id"))
    started = float(record["started_at"])
    joins = [snowflake_time(i.split(":", 1)[1]) for i in inputs if i.startswith("join:")]
    after = [j for j in joins if j is not None and shown is not None and shown < j <= started + ID_SLACK]
    if shown is not None and after:
        report.add(
            True,
            f"The tournament's commitment {sealed[:SHOWN]}… was shown by message {t['message_id']} at "
            f"{_when(shown)}; {len(after)} of the {len(joins)} players' joins came after it (Discord's "
            "times, read from the ids), so the bot could not know them when it fixed the secret. "
            "That the message shows this commitment is for a reader to see in the channel.",
        )
    elif shown is not None:
        report.add(
            False,
            f"The tournament's commitment {sealed[:SHOWN]}… was shown by message {t['message_id']} at "
            f"{_when(shown)}, but no player's join mixed into this game came after it.",
        )
    elif t.get("shown_at") is None:
        # The bot counts no sign-up before its seal is shown (third red team): joins with no showing
        # before them are an older bot's, after a crash, or a record that leaves the seal out.
        report.add(
            False,
            f"The tournament's commitment {sealed[:SHOWN]}… was never recorded as shown (no time, no "
            "message that showed the tournament's commitment), yet its players joined, and the bot "
            "counts no sign-up before its seal is shown. This shows that the game's dice follow from "
            "the tournament's secret, not that the bot did not choose it after the players joined.",
        )
    elif any(j is not None and started - SIGNUP_SPAN <= j <= started + ID_SLACK for j in joins):
        # Discord's ids: there the bot keeps the seal's message before it counts a sign-up, so a time
        # without that message is the bot's word alone, which a record can say of any order
        report.add(
            False,
            f"The players joined through Discord (their joins are Discord's ids), but no message that "
            f"showed the tournament's commitment {sealed[:SHOWN]}… was recorded, only the bot's time "
            f"{_when(float(t['shown_at']))}: in Discord the bot keeps the seal's message before it counts "
            "a sign-up, so nothing shows that the seal came before the joins.",
        )
    else:
        report.add(
            True,
            f"The tournament's commitment {sealed[:SHOWN]}… was shown before the players joined, as "
            "the bot records it; without a message id the record alone cannot order them.",
        )
    named = re.fullmatch(r"tournament (\d+) round (\d+) board (\d+)", label)
    ours = named is not None and named[1] == str(t.get("id"))
    report.add(
        ours,
        f"The game is round {named[2]}, board {named[3]} of tournament {named[1]}: that this pair "
        "played that board, as the tournament's standings say, is for a reader to see in them "
        "(another board's label would give other dice)."
        if ours and named is not None
        else f"`{label}` is not the label of a board of tournament {t.get('id')}.",
    )
    revealed = t.get("secret")
    if not revealed:
        report.add(
            True,
            f"This game's secret comes from the tournament's sealed secret, for `{label}`. That secret "
            "is revealed when the tournament ends; verify this game again then to check the link.",
        )
        return
    whole = bytes.fromhex(str(revealed))
    made = hashlib.sha256(whole).hexdigest() == sealed
    linked = made and tournament_secret(whole, label).hex() == str(record["secret"]).lower()
    report.add(
        linked,
        f"The tournament's revealed secret matches its commitment and gives this game's secret for `{label}`."
        if linked
        else (
            f"The tournament's revealed secret does not give this game's secret for `{label}`."
            if made
            else "The tournament's revealed secret does not match its commitment."
        ),
    )


def _when(ts: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(ts))


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
    "SHOWN",
    "Finding",
    "Report",
    "check",
    "ends_as_stored",
    "random_side",
    "seed_of",
    "snowflake_time",
    "tournament_label",
    "tournament_secret",
]
