"""Checking that the bot's AI played only from what its side may know (docs/fairness.md, "Checking
the AI").

The bot holds every game's secret, so its AI could in principle read the dice to come. From record
format 4 on, each decision of the AI (its move, or its answer to a draw offer) is replayable: its
seed comes from the committed game key and the action's number (`ai_seed`), never from a number the
bot kept, and the record carries its level, the budget it was given and its thinking clock
(engine/tape.py). `check_ai` rebuilds the AI's view at each of its decisions by replaying the
record, runs the published program on that view alone, and compares its choice with what the bot
played. An AI that looked at the dice would, in general, have chosen otherwise somewhere.

Standard library and `engine/` only: `scripts/verify_game.py` runs it on anyone's machine.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import chance, program, search
from engine.errors import IllegalAction
from engine.meta import DRAW_DECLINE
from engine.program import Program
from engine.protocol import Game, View
from engine.tape import MAX_SECONDS, Tape, running

# The record format from which the AI's decisions are recorded and its seeds derived from the key.
AI_RECORD_VERSION = 4
MOVE, DRAW = "move", "draw"
# How a decision's replay found the bot's choice: whatever the clock said; only with the bot's
# recorded clock (a time cap cut its search short); only without what its AI had kept.
FREE, CLOCK, AFRESH = "free", "clock", "afresh"


def budget_valid(budget: object) -> bool:
    """Whether `budget` can be the one the bot gave its AI: none, or a number of seconds above
    nothing and at most `MAX_SECONDS`. A budget of nothing or less stops a search after its first
    iteration whatever its clock says (a choice the still clock could not tell from one made with
    all the time it needs), and one that never runs out (infinite, not a number, huge) keeps a
    search that stops on time alone running for ever."""
    if budget is None:
        return True
    return (
        isinstance(budget, int | float)
        and not isinstance(budget, bool)
        and math.isfinite(budget)
        and 0 < budget <= MAX_SECONDS
    )


def ai_seed(game_seed: int, n: int) -> int:
    """The seed of the AI's decision for action `n` of a version-2 game: the first 8 bytes of
    HMAC-SHA256(key = K, message = ASCII "ai:{n}"), K the game key. Fixed by the commitment and the
    players' inputs, so a bot cannot pick it; unrelated to every draw of chance (their messages are
    "{draw}:{block}")."""
    key = chance.key_of(game_seed)
    return int.from_bytes(hmac.new(key, f"ai:{n}".encode("ascii"), hashlib.sha256).digest()[:8], "big")


@dataclass(frozen=True, slots=True)
class Replayed:
    """One decision of the AI replayed: what the program chose, what the bot played, and how it was
    found (`decide`)."""

    n: int
    kind: str
    played: str
    chosen: str
    how: str
    seconds: float
    program: Program | None = None  # the program the bot's AI ran for it, as the record says (None: unsaid)

    @property
    def ok(self) -> bool:
        return self.chosen == self.played


@dataclass
class AiCheck:
    """What checking the AI's decisions found (`side` None: no AI played)."""

    side: str | None = None
    level: str | None = None
    replayed: list[Replayed] = field(default_factory=list)
    unrecorded: list[int] = field(default_factory=list)  # the AI's actions with no decision recorded
    before: list[int] = field(default_factory=list)  # its actions before the first one recorded
    problem: str | None = None  # why the check could not be made, or failed outside a decision
    checker: Program | None = None  # the program this check runs

    @property
    def mismatch(self) -> Replayed | None:
        return next((r for r in self.replayed if not r.ok), None)

    @property
    def ok(self) -> bool:
        return self.problem is None and self.mismatch is None and not self.unrecorded


def decide(
    rules: Game,
    view: View,
    kind: str,
    level: str,
    seed: int,
    budget_s: float | None,
    marks: Any,
    played: str,
) -> tuple[str, str]:
    """The AI program's choice for `view` (notation), and how it was found (`FREE`, `CLOCK`,
    `AFRESH`). First as the bot's AI process made it: the recorded clock (`marks`) and what the AI
    kept from its earlier decisions (`search.memories`, as this replay left them). If that is not
    what was played, once more without what it kept (`AFRESH`: an AI process that had not kept it,
    restarted or another of the bot's). Then, to tell whether the clock mattered, with a clock that
    stands still (unlimited time) for as many readings as the replay took from the bot's, its memory
    set aside: the same choice within them is `FREE`, else `CLOCK` (a time cap cut the bot's search
    short). That run ignores the recorded budget, which the bot chose: with the clock standing
    still, the level's own caps never bind."""
    if kind == DRAW:
        return ("accept draw" if rules.accepts_draw(view, seed) else "decline draw"), FREE
    before = _recall()
    taped = Tape(marks or [])
    chosen = _choose(rules, view, level, seed, budget_s, taped)
    if not same_action(rules, chosen, played):
        _restore([{} for _ in before])
        afresh = _choose(rules, view, level, seed, budget_s, Tape(marks or []))
        return (afresh, AFRESH) if same_action(rules, afresh, played) else (chosen, CLOCK)
    after = _recall()
    _restore(before)
    # as many readings as the replay took from the tape (the bot's, if the tape is): not the tape's
    # length, or readings a forged tape holds past where the search stopped would keep a search
    # that stops on time alone running on a still clock for as long as they last
    frozen = Tape.frozen(taped.used)
    free = _choose(rules, view, level, seed, None, frozen)  # the level's own caps: never reached at 0
    _restore(after)
    return chosen, FREE if not frozen.overrun and same_action(rules, free, played) else CLOCK


def _choose(rules: Game, view: View, level: str, seed: int, budget_s: float | None, clock: Tape) -> str:
    with running(clock):
        return str(rules.choose(view, level, seed, budget_s))


def _recall() -> list[dict[Any, Any]]:
    return [dict(store) for store in search.memories]


def _restore(saved: list[dict[Any, Any]]) -> None:
    for store, kept in zip(search.memories, saved, strict=True):
        store.clear()
        store.update(kept)


def as_sent(rules: Game, view: View) -> View:
    """The view as the bot sends it to its AI: written as JSON and read back (play/thinking.py)."""
    return rules.view_from_json(json.loads(json.dumps(view.to_json(), separators=(",", ":"))))


def same_action(rules: Game, a: str, b: str) -> bool:
    """Whether two notations name one action (each as the rules write it back)."""
    if a == b:
        return True
    try:
        return str(rules.parse(a)) == str(rules.parse(b))
    except ValueError:
        return False


def check_ai(
    rules: Game,
    record: Mapping[str, Any],
    seed: int,
    progress: Callable[[int, int], None] | None = None,
) -> AiCheck:
    """Replay the record and check each recorded decision of the AI (see the module's docstring).
    Stops at the first decision the program does not make as the bot played it."""
    players = list(record["players"])
    ai = [p for p in players if p.get("ai_level") is not None]
    section = record.get("ai")
    named = section.get("side") if isinstance(section, Mapping) else None
    if not ai:
        if isinstance(section, Mapping):  # the bot writes it for a game against its AI only
            return AiCheck(
                side=str(named),
                level="?",
                problem="the record has the AI's decisions, but no player of it is marked as the AI",
            )
        return AiCheck()
    side, ai_id = str(ai[0]["side"]), ai[0].get("user_id")
    found = AiCheck(side=side, level=str(ai[0]["ai_level"]))
    found.checker = program.running()
    if len(ai) > 1:
        found.problem = "more than one player of it is marked as the AI"
        return found
    if named is not None and str(named) != side:
        found.problem = f"its decisions are said to be side {named!r}'s, but the AI played side {side!r}"
        return found
    if int(record.get("format_version", 0)) < AI_RECORD_VERSION or not isinstance(section, Mapping):
        found.problem = (
            "played before the bot recorded its AI's decisions (record format "
            f"{record.get('format_version', '?')}): its seed was a number the bot kept"
        )
        return found
    if int(record["chance_version"]) != 2:
        found.problem = "played before dice were committed, so the AI's seeds cannot be derived"
        return found
    decisions = {int(d["n"]): d for d in section.get("decisions", [])}
    actions: Sequence[Mapping[str, Any]] = list(record["actions"])
    theirs = [n for n, a in enumerate(actions, 1) if str(a["side"]) == side]
    # In a game against the AI, every action of its side is its own: one said to be someone else's
    # would escape the check.
    others = [n for n in theirs if actions[n - 1].get("player_id") != ai_id]
    if others:
        found.problem = (
            f"action {others[0]} was played on the AI's side, but the record says by another player "
            f"({actions[others[0] - 1].get('player_id')})"
        )
        return found
    first = min(decisions, default=None)
    found.before = [n for n in theirs if first is None or n < first]
    found.unrecorded = [n for n in theirs if first is not None and n > first and n not in decisions]
    stray = sorted(set(decisions) - set(theirs))
    if stray:
        found.problem = f"the record lists decisions of the AI for actions it did not play ({stray[:5]})"
        return found
    todo = [n for n in theirs if n in decisions]
    # What the AI kept between decisions: built by this replay alone, from nothing (as in a process
    # of its own, whatever this one kept), under the name the bot's AI kept it under (the game's
    # commitment); this process's own memory is given back afterwards.
    kept = _recall()
    _restore([{} for _ in kept])
    try:
        with search.remembering(str(record.get("commitment", "")).lower()):
            _replay(rules, record, seed, side, decisions, todo, found, progress)
    finally:
        _restore(kept)
    return found


def _replay(
    rules: Game,
    record: Mapping[str, Any],
    seed: int,
    side: str,
    decisions: Mapping[int, Mapping[str, Any]],
    todo: Sequence[int],
    found: AiCheck,
    progress: Callable[[int, int], None] | None,
) -> None:
    """`check_ai`'s replay of the game, deciding again at each recorded decision (into `found`)."""
    actions: Sequence[Mapping[str, Any]] = list(record["actions"])
    state = rules.new_game(dict(record["options"]), seed)
    for n, action in enumerate(actions, 1):
        notation = str(action["notation"])
        if n in decisions:
            if progress is not None:
                progress(len(found.replayed), len(todo))
            d = decisions[n]
            kind = str(d.get("kind", MOVE))
            budget = d.get("budget_s")
            if (
                kind not in (MOVE, DRAW)
                or not budget_valid(budget)
                or (kind == MOVE and not Tape.valid(d.get("clock"), budget))
            ):
                found.problem = (
                    f"the decision recorded for action {n} is not one the bot writes (its kind, budget "
                    "or clock)"
                )
                return
            if str(d.get("level")) != found.level:
                found.problem = (
                    f"the decision recorded for action {n} is at level {d.get('level')!r}, not the game's "
                    f"level ({found.level!r}, shown at the challenge)"
                )
                return
            # An honest bot answers an offer before its own play (RULES.md, "Draws with the AI"):
            # playing on past one its program takes kept alive a game the AI judged lost.
            if (
                kind == MOVE
                and offered_to(rules, state, side)
                and rules.accepts_draw(as_sent(rules, state.view(side)), ai_seed(seed, n))
            ):
                found.problem = (
                    f"at action {n} it played on past a draw offer standing to it, which its program "
                    "accepts in that position (the bot answers an offer before its own play)"
                )
                return
            chosen, how = decide(
                rules,
                as_sent(rules, state.view(side)),
                kind,
                str(d["level"]),
                ai_seed(seed, n),
                None if budget is None else float(budget),
                d.get("clock"),
                notation,
            )
            same = same_action(rules, chosen, notation)
            seconds = Tape(d.get("clock") or []).seconds
            ran = Program.from_json(d.get("program"))
            found.replayed.append(
                Replayed(n, kind, notation, notation if same else chosen, how, seconds, ran)
            )
            if not same:
                return
        try:
            state.apply(rules.parse(notation), str(action["side"]))
        except ValueError as exc:
            found.problem = f"action {n} does not replay ({exc})"
            return


def offered_to(rules: Game, state: Any, side: str) -> bool:
    """Whether a draw offer to `side` stands in `state`, read from the game itself (whoever made it,
    in whatever command, typed or clicked): `side` may decline one. A copy is tried, so `state` is
    left as it was. The bot asks it before the AI plays, the check as it replays."""
    if state.is_over():
        return False
    try:
        state.clone().apply(rules.parse(str(DRAW_DECLINE)), side)
    except IllegalAction:
        return False
    return True


def findings(
    check: AiCheck, title_of: Callable[[str], str], began: str | None = None
) -> list[tuple[bool | None, str]]:
    """The check as findings (True held, False failed, None not checked: a decision that rests on
    the bot's word), in a reader's words; `began`, when the record says the game began (its
    challenge's Discord time too, where it has one)."""
    if check.side is None:
        return []
    try:
        title = title_of(check.side)
    except (KeyError, ValueError):  # a side the rules do not know: a forged record's
        title = check.side
    who = f"The AI ({title}, {check.level})"
    if check.problem is not None and not check.replayed:
        if check.problem.startswith("played before"):
            when = (
                f" The record says this game began {began}; if it began later, this record is not the "
                "one the bot wrote."
                if began
                else ""
            )
            return [(None, f"{who} was not checked: this game was {check.problem}.{when}")]
        return [(False, f"{who} could not be checked: {check.problem}.")]
    out: list[tuple[bool | None, str]] = []
    bad = check.mismatch
    good = [r for r in check.replayed if r.ok]
    if good:
        draws = sum(r.kind == DRAW for r in good)
        text = (
            f"{who}: {_count(len(good), 'decision')} replayed from its side's view alone, with the "
            "seed the game key gives, and "
            + ("it is" if len(good) == 1 else "each is")
            + " what the bot played"
            + (f" ({_count(draws, 'answer')} to a draw offer among them)" if draws else "")
            + "."
        )
        out.append((True, text))
        clocked = [r for r in good if r.how == CLOCK]
        afresh = [r for r in good if r.how == AFRESH]
        if clocked:
            out.append(
                (
                    None,
                    f"{who}: {_count(len(clocked), 'search', 'searches')} ({_actions(clocked)}) ran into "
                    "the time cap, so "
                    + ("its choice rests" if len(clocked) == 1 else "their choices rest")
                    + " on the bot's word on how long it thought: the check replays the bot's recorded "
                    "clock, and a bot that chose when to stop could have stopped where the dice suited it.",
                )
            )
        if afresh:
            out.append(
                (
                    None,
                    f"{who}: {_count(len(afresh), 'decision')} ({_actions(afresh)}) matched only when "
                    "thought afresh, as by an AI process that had not kept its plan from the turn's "
                    "earlier steps (restarted, or another of the bot's AI processes): "
                    + ("it rests" if len(afresh) == 1 else "they rest")
                    + " on the bot's word that its AI had forgotten the plan.",
                )
            )
    if bad is not None:
        out.append(
            (
                False,
                f"{who}: at action {bad.n} its program, from its side's view, "
                + ("answers the draw offer with" if bad.kind == DRAW else "chooses")
                + f" `{bad.chosen}`, but the bot played `{bad.played}`. Later decisions were not checked.",
            )
        )
    if check.problem is not None:
        out.append((False, f"{who}: {check.problem}."))
    if check.unrecorded:
        out.append(
            (
                False,
                f"{who}: {_count(len(check.unrecorded), 'action')} of the AI ("
                + ", ".join(str(n) for n in check.unrecorded[:6])
                + (", …" if len(check.unrecorded) > 6 else "")
                + ") carry no recorded decision, so they cannot be replayed.",
            )
        )
    if check.before:
        when = (
            f" The record says this game began {began}; if it began later, this record leaves out "
            "decisions the bot made."
            if began
            else ""
        )
        if check.replayed or check.unrecorded or check.problem is not None:
            first = "action" if len(check.before) == 1 else f"{len(check.before)} actions"
            text = (
                f"{who}: its first {first} came before the bot recorded its decisions in this game "
                "(the game began earlier), so "
                + ("it was" if len(check.before) == 1 else "they were")
                + " not checked."
            )
        else:
            text = f"{who}: " + (
                "its one action has no recorded decision, as in a game the AI played only before the "
                "bot recorded them, so it was not checked."
                if len(check.before) == 1
                else f"none of its {len(check.before)} actions has a recorded decision, as in a game "
                "the AI played only before the bot recorded them, so none was checked."
            )
        out.append((None, text + when))
    if not out:
        out.append((True, f"{who} made no decision in this game."))
    if check.replayed and check.checker is not None:
        out.extend(_programs(check.replayed, check.checker))
    return out


def _programs(replayed: Sequence[Replayed], checker: Program) -> list[tuple[bool | None, str]]:
    """Whether this check ran the program the bot's AI ran: the replay binds the code that runs
    it. A game that went on across an update of the bot names each of its programs."""
    ran: dict[Program | None, list[Replayed]] = {}
    for r in replayed:
        ran.setdefault(r.program, []).append(r)
    if len(ran) == 1:
        return [_program(next(iter(ran)), checker, "")]
    return [_program(bot, checker, f" for {_actions(rs)}") for bot, rs in ran.items()]


def _program(bot: Program | None, checker: Program, which: str) -> tuple[bool | None, str]:
    """One program the bot's AI ran (`which`: for which of its decisions, when it ran several)."""
    if bot is None:
        return (
            None,
            f"The record does not say which commit of its source the bot ran{which or ''} (a record "
            "written before it did), so the AI's replay takes it that this check's program, "
            f"{checker.text()}, is the bot's: run it from the commit the bot ran at the game's date.",
        )
    if bot.same(checker):
        return (
            True,
            f"The bot's AI ran {bot.text()} of its source{which} (the record says), and this check ran "
            "that very commit.",
        )
    if bot.changed:
        return (
            None,
            f"The bot's AI ran {bot.text()}{which} (the record says): no commit's source, so this "
            f"check, by {checker.text()}, may replay it otherwise for that reason alone.",
        )
    return (
        None,
        f"The bot's AI ran {bot.text()} of its source{which} (the record says), but this check runs "
        f"{checker.text()}: where the AI's replay differs, the program may be why, not the AI. Run the "
        f"check from that commit (`git checkout {bot.commit}`) to be sure.",
    )


def caveat(check: AiCheck) -> str | None:
    """What the verdict line must add about the AI when every finding held: which of its choices
    were not checked, or rest on the bot's word (None: every one was checked, and none does)."""
    if check.side is None:
        return None
    if not check.replayed and (check.before or check.problem is not None):
        return "none of the AI's choices was checked (➖ below)"
    if check.before:
        return "the AI's choices were not all checked (➖ below)"
    clocked = sum(r.ok and r.how == CLOCK for r in check.replayed)
    afresh = sum(r.ok and r.how == AFRESH for r in check.replayed)
    if not clocked and not afresh:
        return None
    rests = [
        *([f"for {_all_or(clocked, len(check.replayed))} on how long it thought"] if clocked else []),
        *([f"for {afresh} on what its AI had forgotten"] if afresh else []),
    ]
    return (
        "the AI chose each of its moves from its own side's view, but the check takes the bot's word "
        + " and ".join(rests)
        + " (➖ below)"
    )


def _all_or(n: int, of: int) -> str:
    return f"all {n}" if n == of and n > 1 else "it" if n == of else f"{n} of them"


def _actions(replayed: Sequence[Replayed]) -> str:
    """ "action 3", "actions 1, 3 and 6", "actions 1, 2, 3, 4, 5, 6, …"."""
    ns = [str(r.n) for r in replayed]
    if len(ns) == 1:
        return f"action {ns[0]}"
    if len(ns) > 6:
        return "actions " + ", ".join(ns[:6]) + ", …"
    return "actions " + ", ".join(ns[:-1]) + " and " + ns[-1]


def _count(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


__all__ = [
    "AI_RECORD_VERSION",
    "DRAW",
    "MOVE",
    "AiCheck",
    "Replayed",
    "ai_seed",
    "budget_valid",
    "caveat",
    "check_ai",
    "decide",
    "findings",
    "offered_to",
]
