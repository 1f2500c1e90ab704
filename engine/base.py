"""Defaults for a game's words, options and AI, so a new game writes only what is its own.

A game's `GAME` object may subclass `BaseGame` (nothing requires it: `engine.protocol.Game` is the
contract). The defaults are plain but correct: notation as the description, one "Take action" flow,
options checked against their specs, and the generic search (`engine.search`) as the AI at every
level but `random`, scored by the game's `evaluate`.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import replace
from typing import Any, Generic, Protocol, TypeVar, cast

from engine import search
from engine.errors import IllegalAction, InvalidNotation
from engine.meta import parse_meta
from engine.notation import tidy
from engine.protocol import (
    Action,
    AiLevels,
    Choice,
    Focus,
    Menu,
    OptionSpec,
    Pick,
    Side,
    SideInfo,
    State,
    Verb,
    View,
    Words,
)

EDITION = "edition"  # the options' key that holds the rules' edition a match began with (RULES.md)
MAX_OPTIONS = 25  # Discord: choices in a select, and autocomplete answers
UNFINISHED = 0.95  # `appraise`: the most an unfinished position is worth (a won game is 1)
# The AI accepts a draw only when its evaluation (-1 to 1) is at most minus this: clearly losing, not
# merely not ahead (`BaseGame.accepts_draw`; a game whose evaluation reads otherwise sets its own
# `draw_margins`, each measured by `bench/draws.py`: of the positions the AI accepts, its side should
# go on to win about 1 in 10 at most, in each third of the game; docs/ai.md, "Draw offers").
DRAW_MARGIN = 0.8
# A game whose evaluation cannot tell a lost position from a bad one confirms it by playing the
# position out (`BaseGame.draw_playouts` games by its rule of thumb, `rollout`): the AI accepts only
# when its side won at most this share of them (docs/ai.md, "Draw offers").
DRAW_PLAYOUT_SHARE = 0.05
DRAW_PLAYOUT_CAP = 3000  # actions a playout may take before it counts as drawn

# The generic search per level: how long it may think and how many iterations it stops at.
SEARCH_LEVELS: dict[str, search.Settings] = {
    "easy": search.Settings(iterations=150, budget_s=0.3),
    "normal": search.Settings(iterations=1500, budget_s=1.5),
    "hard": search.Settings(iterations=6000, budget_s=3.0),
}
# The win check every level makes before its own judgement (`search.guarded`, issue 32): take a
# win that is there, never leave one to the opponent when another action prevents it. Deeper and
# in more deals of the unknown at the stronger levels; a level not named uses `hard`'s.
GUARDS: dict[str, search.Guard] = {
    "easy": search.Guard(deals=2, depth=1, reply_depth=1, width=4, rest=4, alternatives=12),
    "normal": search.Guard(deals=4, depth=1, reply_depth=1, width=6, rest=6, alternatives=24),
    "hard": search.Guard(deals=6, depth=2, reply_depth=1, width=8, rest=12, alternatives=40),
}
# The level above `hard` for games played over days (issue 32): about 20 s of CPU a decision at
# most, in the AI worker like every level, and the deepest win check.
CORRESPONDENCE = "correspondence"
CORRESPONDENCE_BUDGET_S = 20.0
GUARDS[CORRESPONDENCE] = search.Guard(deals=12, depth=2, reply_depth=2, width=10, rest=16, alternatives=60)
GENERIC_LEVELS = AiLevels(
    ("random", "easy", "normal", "hard"),
    "normal",
    {
        "random": "plays any legal action",
        "easy": "a short search",
        "normal": "searches about a second and a half",
        "hard": "searches up to three seconds",
    },
)


class Stored(State, Protocol):
    """A game's state class: a `State` that reads itself back from `to_json`."""

    @staticmethod
    def from_json(data: dict[str, Any], /) -> Any: ...


class Shown(View, Protocol):
    """A game's view class: a `View` that reads itself back from `to_json`."""

    @staticmethod
    def from_json(data: dict[str, Any], /) -> Any: ...


S = TypeVar("S", bound=Stored)
V = TypeVar("V", bound=Shown)
S_contra = TypeVar("S_contra", contravariant=True)


class Brain(Protocol[S_contra]):
    """A game's AI hooks (its `ai` module), which the generic search and `appraise` call."""

    def evaluate(self, state: S_contra, side: Side, /) -> float: ...

    def rollout(self, state: S_contra, side: Side, rng: random.Random, /) -> Action: ...

    def order(
        self, state: S_contra, side: Side, actions: Sequence[Action], rng: random.Random, /
    ) -> list[Action]: ...


class BaseGame(Generic[S, V]):
    """Shared behaviour of the collection's games, built from the parts a game declares: its state
    and view classes (`state_type`, `view_type`), its notation's `parser`, its `words` and its AI's
    hooks (`brain`) and levels of its own (`own_levels`, `own_choice`). A game overrides only what
    it says or does differently."""

    # The game's own classes: `state_of`/`view_of` narrow the protocol's State and View to them,
    # `from_json`/`view_from_json` read them back.
    state_type: type[S]
    view_type: type[V]
    # The game's notation: text (tidied, never a shared word) to one of its actions.
    parser: Callable[[str], Action] | None = None
    # The AI's hooks (the game's `ai` module); without them the search plays at random and scores 0.
    brain: Brain[S] | None = None
    # The game's words (its `words` module): status, descriptions, verbs and groups of actions, the
    # private text, each from the game's own view. Without them: the plain defaults below.
    words: Words[V] | None = None
    # The AI levels the game plays by its own `own_choice` (a heuristic, a plan); every other level
    # but `random` is the generic search. Each is behind the same win check (`guarded`).
    own_levels: Set[str] = frozenset()

    name: str = ""
    title: str = ""
    description: str = ""
    sides: tuple[SideInfo, SideInfo]
    options: tuple[OptionSpec, ...] = ()
    verbs: tuple[Verb, ...] = ()
    ai: AiLevels = GENERIC_LEVELS
    # How far behind the AI must judge itself to accept a draw, by how far the game is: (from turn,
    # margin) pairs in turn order (`State.turn_number`), the last one begun counts; before the first
    # no draw is taken. An evaluation misreads an early position more than a late one (a side judged
    # lost early wins more often), so a game may ask more early on (docs/ai.md, "Draw offers").
    draw_margins: tuple[tuple[int, float], ...] = ((0, DRAW_MARGIN),)
    draw_playouts: int = 0  # games played out to confirm it (0: the evaluation alone decides)
    private_info: bool = False
    focus: Focus | None = None
    rules: Mapping[str, str] = {}
    notation_help: str = ""
    turn_label: str = "Turn"
    # Kinds of action whose `legal_actions` is a sample of a larger space (a menu), by class name, with
    # the fields in which a legal action may differ from every listed one (a call-up of any size, a
    # group of any of the men who may go). Any other action `apply` accepts is listed (issue 22;
    # the conformance suite checks both).
    sampled: Mapping[str, tuple[str, ...]] = {}
    # How the generic search plays each level; a game may tune its own (its playout length above all).
    search_levels: Mapping[str, search.Settings] = SEARCH_LEVELS
    # The newest edition of the game's rules, the one a new match gets. A game raises it when a rule
    # changes in a way that would replay a stored game's log differently; the match keeps its edition
    # in its options (`normalise_options` writes it; no player sees or types it) and `new_game` builds
    # the rules of `edition_of(options)`. 1: the game has one edition, and its options hold no key.
    edition: int = 1
    # The win check per level (`GUARDS`); a game whose turns are long or wide sets its own.
    guards: Mapping[str, search.Guard] = GUARDS

    # -- rules entry points a game must give

    def new_game(self, options: Mapping[str, Any], seed: int) -> State:
        raise NotImplementedError

    def from_json(self, data: dict[str, Any]) -> S:
        return cast(S, self.state_type.from_json(data))

    def view_from_json(self, data: dict[str, Any]) -> V:
        return cast(V, self.view_type.from_json(data))

    def state_of(self, state: State) -> S:
        """`state` as this game's own state class (the protocol's State is all the platform knows)."""
        if not isinstance(state, self.state_type):
            raise TypeError(f"not a {self.title} state: {type(state).__name__}")
        return state

    def view_of(self, view: View) -> V:
        """`view` as this game's own view class."""
        if not isinstance(view, self.view_type):
            raise TypeError(f"not a {self.title} view: {type(view).__name__}")
        return view

    def parse_action(self, text: str) -> Action:
        """The game's own notation (the shared words are handled by `parse`), tidied by
        `engine.notation.tidy`: no spaces around punctuation, none at either end."""
        if self.parser is None:
            raise NotImplementedError(f"{self.title} declares no parser")
        return self.parser(text)

    def parse(self, text: str) -> Action:
        meta = parse_meta(text)
        if meta is not None:
            return meta
        if not str(text).strip():
            raise InvalidNotation(f"Give an action. Examples: {self.notation_help}")
        return self.parse_action(tidy(text))

    def parse_in(self, text: str, state: State, side: Side) -> Action:
        """`parse` for `side` in `state`: the same action, but a refusal offers only examples that
        are accepted there (the platform parses a player's command this way). A game whose parser
        gives examples of its notation overrides this to take them from the position."""
        if not str(text).strip():
            raise now_error("Give an action.", state, side)
        try:
            return self.parse(text)
        except InvalidNotation as exc:
            for example in exc.examples:
                why = self.refusal_of(example, state, side)
                if why is not None:  # the notation's example is wrong here: say why, offer what is right
                    said = f"'{str(text).strip()[:40]}' is not an action you can play now. {why}"
                    raise now_error(said, state, side) from None
            raise

    def refusal_of(self, example: str, state: State, side: Side) -> str | None:
        """None if `example` (actions separated by ';') is accepted in `state` by `side`; else the
        words of its refusal."""
        probe = state.clone()
        try:
            for part in example.split(";"):
                if part.strip():
                    probe.apply(self.parse(part), side)
        except (InvalidNotation, IllegalAction) as exc:
            return str(exc)
        return None

    # -- options

    def normalise_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Every option filled in, as a match stores them; a game with editions adds the edition
        (the newest, unless `raw` is a stored match's options that name one already)."""
        specs = {o.name: o for o in self.options}
        unknown = sorted(set(raw) - set(specs) - ({EDITION} if self.edition > 1 else set()))
        if unknown:
            known = ", ".join(specs) or "none"
            raise ValueError(f"{self.title} has no option '{unknown[0]}' (its options: {known}).")
        out: dict[str, Any] = {}
        for name, spec in specs.items():
            value = raw.get(name, spec.default)
            out[name] = _checked(spec, value)
        if self.edition > 1:
            out[EDITION] = self._edition_checked(raw.get(EDITION, self.edition))
        return out

    def edition_of(self, options: Mapping[str, Any]) -> int:
        """The edition of the rules a match with `options` plays: the one they name; 1 if they name
        every option but no edition (a match stored before the game had editions: the platform has
        always stored every option); else the newest (options given by hand, as tests and benches
        do: `{}` is a new game). So a new match's options must go through `normalise_options`."""
        if self.edition == 1:
            return 1
        if EDITION in options:
            return self._edition_checked(options[EDITION])
        if all(spec.name in options for spec in self.options):
            return 1
        return self.edition

    def rules_for(self, options: Mapping[str, Any]) -> Mapping[str, str]:
        """The rules topics a match with `options` plays: `rules`, unless a game with editions
        words an older edition's differences (rules/<game>.md says what they are)."""
        return self.rules

    def _edition_checked(self, value: Any) -> int:
        try:
            number = int(value)
        except (TypeError, ValueError):
            number = 0
        if not 1 <= number <= self.edition:
            raise ValueError(f"{self.title}'s rules have editions 1 to {self.edition}, not {value!r}.")
        return number

    # -- the AI

    def evaluate(self, state: State, side: Side) -> float:
        """How good `state` is for `side`, in [-1, 1]; the search's judgement (the `brain`'s)."""
        if self.brain is None:
            return 0.0
        return self.brain.evaluate(self.state_of(state), side)

    def rollout(self, state: State, side: Side, rng: random.Random) -> Action:
        if self.brain is None:
            return rng.choice(state.legal_actions(side))
        return self.brain.rollout(self.state_of(state), side, rng)

    def order(self, state: State, side: Side, actions: Sequence[Action], rng: random.Random) -> list[Action]:
        if self.brain is not None:
            return self.brain.order(self.state_of(state), side, actions, rng)
        out = list(actions)
        rng.shuffle(out)
        return out

    def choose(
        self,
        view: View,
        level: str,
        seed: int,
        budget_s: float | None = None,
        *,
        iterations: int | None = None,
    ) -> Action:
        if level not in self.ai.names:
            raise ValueError(f"Unknown AI level '{level}': choose one of {', '.join(self.ai.names)}.")
        obvious = self.obvious(view, level)
        if obvious is not None:
            return obvious
        if level in self.own_levels:
            return self.guarded(
                view, level, seed, lambda: self.own_choice(view, level, seed, budget_s, iterations)
            )
        return self.guarded(
            view, level, seed, lambda: self._level_choice(view, level, seed, budget_s, iterations)
        )

    def obvious(self, view: View, level: str) -> Action | None:
        """An action so plainly right at `level` that it is played without thought or win check
        (None: think). A game whose search cannot tell something it knows says so here."""
        return None

    def own_choice(
        self, view: View, level: str, seed: int, budget_s: float | None, iterations: int | None
    ) -> Action:
        """The choice at one of `own_levels`, before the win check; a game with such levels gives it."""
        raise NotImplementedError(f"{self.title} declares no AI level of its own")

    def guarded(self, view: View, level: str, seed: int, pick: Callable[[], Action]) -> Action:
        """`pick()`, the level's own choice, after the win check of issue 32 (`search.guarded`): a
        win that is there is taken, and a pick that leaves the opponent an immediate win gives way
        to an action that does not. `random` makes no check."""
        guard = self.guard_of(level)
        if guard is None:
            return pick()
        return search.guarded(view, pick, seed=seed, guard=guard, order=self.order, rollout=self.rollout)

    def guard_of(self, level: str) -> search.Guard | None:
        if level == "random":
            return None
        return self.guards.get(level, self.guards.get("hard"))

    def _level_choice(
        self, view: View, level: str, seed: int, budget_s: float | None, iterations: int | None
    ) -> Action:
        if level == "random":
            assert view.viewer is not None
            state = view.determinize(random.Random(seed))
            return random.Random(f"random-ai:{seed}").choice(state.legal_actions(view.viewer))
        settings = self.search_levels.get(level, self.search_levels.get("normal", SEARCH_LEVELS["normal"]))
        if budget_s is not None:
            settings = replace(settings, budget_s=budget_s)
        if iterations is not None:
            settings = replace(settings, iterations=iterations)
        if settings.iterations == 0 and settings.greedy > 0:  # no search: the best-looking action
            judged = self.appraise(
                view, (), seed, most=settings.greedy, deals=settings.deals, judge=self.judge_of(level)
            )
            if judged:
                return judged[0][0]
        if settings.iterations == 0:  # no search: the game's rule of thumb, its playout policy
            assert view.viewer is not None
            state = view.determinize(random.Random(seed))
            return self.rollout(state, view.viewer, random.Random(f"thumb:{seed}"))
        return search.choose(
            view, self.evaluate, seed=seed, settings=settings, rollout=self.rollout, order=self.order
        )

    def accepts_draw(self, view: View, seed: int) -> bool:
        """Accept only when clearly losing: the evaluation, averaged over a few deals of the unknown,
        at most minus the game's margin for the turn it is (`draw_margins`). Accepting whenever it
        was not ahead gave away half a game to an offer made at the start, where most positions
        judge about even, or to the same offer repeated until a deal's noise tipped it: a player
        rated far below the level took rating from every such draw (RULES.md, draws with the AI).
        A game whose evaluation reads a bad position and a lost one alike confirms it by playouts
        (`draw_playouts`)."""
        side = view.viewer
        if side is None:
            return False
        rng = random.Random(f"draw:{seed}")
        deals = [view.determinize(rng) for _ in range(4)]
        margin = self.draw_margin_at(deals[0].turn_number())
        if margin is None or sum(self.evaluate(d, side) for d in deals) / len(deals) > -margin:
            return False
        return (
            self.draw_playouts == 0
            or self.playout_share(view, side, give_up=DRAW_PLAYOUT_SHARE) <= DRAW_PLAYOUT_SHARE
        )

    def draw_margin_at(self, turn: int) -> float | None:
        """The margin for a position in `turn` (`draw_margins`); None: too early for any draw."""
        margin = None
        for first, then in self.draw_margins:
            if turn >= first:
                margin = then
        return margin

    def playout_share(self, view: View, side: Side, give_up: float | None = None) -> float:
        """The share of `draw_playouts` games from `view` that `side` wins (a draw half), both sides
        playing the rule of thumb. Seeded by the position as `side` sees it, not by the offer's seed:
        an offer repeated in the same position (again, after an undo) gets the same answer, and
        what `side` cannot see is dealt afresh in each game, so the answer tells nothing of it.
        With `give_up`, it stops once the share is sure to pass that (the games won so far, a
        lower bound): a decline needs no more, and the long games it skips cost the most."""
        key = hashlib.sha256(json.dumps(view.to_json(), sort_keys=True).encode()).hexdigest()
        rng = random.Random(f"draw-playouts:{key}")
        won = 0.0
        for _ in range(self.draw_playouts):
            state = view.determinize(rng)
            for _ in range(DRAW_PLAYOUT_CAP):
                if state.is_over():
                    break
                mover = min(state.to_act())
                state.apply(self.rollout(state, mover, rng), mover)
            outcome = state.outcome() if state.is_over() else None
            won += 0.5 if outcome is None or outcome.winner is None else float(outcome.winner == side)
            if give_up is not None and won / self.draw_playouts > give_up:
                break
        return won / self.draw_playouts

    def judge_of(self, level: str) -> Callable[[State, Side], float] | None:
        """What a level that looks one turn ahead (`Settings.greedy`) judges the end of its turn by,
        when a game gives it less than its whole evaluation; None: `evaluate`."""
        return None

    def appraise(
        self,
        view: View,
        actions: Sequence[Action],
        seed: int,
        *,
        most: int = 10,
        deals: int = 4,
        judge: Callable[[State, Side], float] | None = None,
    ) -> list[tuple[Action, float]]:
        """Each candidate played in the same `deals` deals of the unknown, the rest of the viewer's
        turn played on by the rollout policy, then `evaluate`d (or judged by `judge`, a level that
        sees less than the game's evaluation; a finished game is worth 1 or -1).

        The candidates are `actions` and the first `most` legal actions by `order`. The same deals
        for every candidate keep luck out of the comparison.
        """
        side = view.viewer
        if side is None:
            raise ValueError("A spectator has no choice to judge.")
        rng = random.Random(f"appraise:{seed}")
        states = [view.determinize(rng) for _ in range(max(1, deals))]
        candidates = {str(a): a for a in actions}
        if most > 0:
            legal = list(states[0].legal_actions(side))
            for a in self.order(states[0], side, legal, random.Random(seed))[:most]:
                candidates.setdefault(str(a), a)
        judged: list[tuple[Action, float]] = []
        for action in candidates.values():
            values = []
            for i, state in enumerate(states):
                after = state.clone()
                try:
                    after.apply(action, side)
                except IllegalAction:
                    continue  # not legal in this deal (it hinges on something the viewer cannot see)
                rest = random.Random(f"appraise:{seed}:{i}")  # the rest of the turn, this deal's
                values.append(self._turn_value(after, side, rest, judge=judge))
            if values:
                judged.append((action, sum(values) / len(values)))
        judged.sort(key=lambda pair: -pair[1])
        return judged

    def _turn_value(
        self,
        state: State,
        side: Side,
        rng: random.Random,
        most: int = 40,
        *,
        judge: Callable[[State, Side], float] | None = None,
    ) -> float:
        """`evaluate` once `side`'s turn is played out by the rollout policy (quick answers owed by
        the other side on the way included)."""
        for _ in range(most):
            if state.is_over():
                break
            owed = state.to_act()
            if side not in owed and not state.quick_decision():
                break
            actor = side if side in owed else min(owed)
            state.apply(self.rollout(state, actor, rng), actor)
        outcome = state.outcome()
        if outcome is not None:
            return 0.0 if outcome.winner is None else 1.0 if outcome.winner == side else -1.0
        # However good it looks, a game not yet won is worth less than one won: an evaluation that
        # saturates (tanh of a large lead) must not make a missed win look free.
        return UNFINISHED * max(-1.0, min(1.0, (judge or self.evaluate)(state, side)))

    # -- the conformance suite's no-leak test

    def twin(self, state: State, side: Side, rng: random.Random) -> State | None:
        """A copy of `state` that differs only in what `side` alone may know (its hand, dealt
        otherwise) while every chance to come stays as it was (the same dice, the same cards to be
        drawn): played on with the same actions, the twins must look the same to everyone else,
        events and boards included (tests/test_conformance.py). None: the game gives no twin."""
        return None

    def chance_twin(self, state: State, side: Side, rng: random.Random) -> State:
        """A copy of `state` alike in all that `side` may see and differing only in chance not yet
        drawn and in what `side` may not see: the unseen cards in another order, other hidden
        hands, another seed for the dice to come. By default the view's unknowns dealt afresh
        (`View.determinize`); a game whose views drop something that is not chance (a standing
        order) puts it back. The fair-chance property plays the same command on both twins and
        expects the same refusal, or chance drawn in both (tests/test_fair_chance.py)."""
        return state.view(side).determinize(rng)

    def showcases(self) -> Sequence[tuple[State, Sequence[str]]]:
        """Positions, each with the actions to play from it, that show a secret random play may
        never reach (a Recon mission that looks at a hand): the no-leak test begins twins there too."""
        return ()

    # -- words and menus

    def side(self, name: Side) -> SideInfo:
        for info in self.sides:
            if info.name == name:
                return info
        raise ValueError(f"'{name}' is not a side of {self.title}.")

    def title_of(self, name: Side) -> str:
        return self.side(name).title

    def other(self, name: Side) -> Side:
        a, b = self.sides
        return b.name if name == a.name else a.name

    def status(self, view: View, side: Side) -> str:
        if self.words is None:
            return f"({self.title_of(side)}) to play."
        return self.words.status(self.view_of(view), side)

    def describe(self, view: View, action: Action) -> str:
        if self.words is None:
            return str(action)
        return self.words.describe(self.view_of(view), action)

    def verb_of(self, view: View, action: Action) -> str:
        if self.words is None:
            return "play"
        return self.words.verb_of(self.view_of(view), action)

    def group_of(self, view: View, action: Action) -> str | None:
        if self.words is None:
            return None
        return self.words.group_of(self.view_of(view), action)

    def group_label(self, view: View, group: str) -> str:
        if self.words is None:
            return group
        return self.words.group_label(self.view_of(view), group)

    def menu(self, view: View) -> Menu:
        return Menu(take_action=True)

    def submenu(self, view: View, legal: Sequence[Action], key: str) -> Menu:
        return Menu()

    def private_text(self, view: View, *, tapping: bool = False) -> str | None:
        if self.words is None:
            return None
        return self.words.private_text(self.view_of(view), tapping=tapping)

    def focus_choices(self, view: View) -> list[str]:
        return []


def pick_rows(
    what: str,
    choices: Sequence[Choice],
    *,
    most: int = 4,
    span: Callable[[Choice], str] | None = None,
    numbered: bool = False,
) -> tuple[Pick, ...]:
    """`choices` as selects of 25 (Discord's limit), at most `most` of them (a message has five rows).

    With several selects, each placeholder says what it holds: the `span` of its first and last
    choice ("a1–d3"), or its number.
    """
    size = MAX_OPTIONS
    pieces = [tuple(choices[i : i + size]) for i in range(0, min(len(choices), size * most), size)]
    out = []
    for n, piece in enumerate(pieces):
        label = what
        if numbered:
            label = f"{what} ({n + 1})"
        elif len(pieces) > 1 and span is not None:
            label = f"{what} ({span(piece[0])}–{span(piece[-1])})"
        elif len(pieces) > 1:
            label = f"{what} ({n + 1}/{len(pieces)})"
        out.append(Pick(label, piece))
    return tuple(out)


def legal_now(state: State, side: Side, most: int = 4) -> list[Action]:
    """A few of `side`'s legal actions in `state`, one of each kind first (a move, an attack, ending
    the turn) so that they show what may be done, not four shuffles."""
    legal = list(state.legal_actions(side))
    picked: list[Action] = []
    kinds: set[type] = set()
    for action in legal:
        if type(action) not in kinds:
            kinds.add(type(action))
            picked.append(action)
    picked += [a for a in legal if a not in picked][: max(0, most - len(picked))]
    return picked[:most]


def examples_now(state: State, side: Side, most: int = 4) -> str:
    """`legal_now` as a sentence offering them."""
    return _offering(legal_now(state, side, most))


def now_error(said: str, state: State, side: Side) -> InvalidNotation:
    """A refusal: `said`, then a few actions legal for `side` now (carried as its examples too)."""
    picked = legal_now(state, side)
    return InvalidNotation(f"{said} {_offering(picked)}", [str(a) for a in picked])


def _offering(picked: Sequence[Action]) -> str:
    if not picked:
        return "You owe no action now."
    return "Legal now: " + ", ".join(f"`{a}`" for a in picked) + "."


def limit_option(
    name: str, label: str, description: str, default: int, maximum: int, shown: str, off: str
) -> OptionSpec:
    """A limit the rule texts do not have, so that a game played over days ends: a challenge
    option with a sensible `default` (0, off, where the game's own rules end it soon enough) that
    the challenger may set (1 to `maximum`) or switch off with 0. The challenge message states it
    (`shown`, "{}" the value; `off` for 0), and a result the limit decides says so (rules/<game>.md
    names the ruling). One pattern for every game."""
    if "0 = no limit" not in description:
        raise ValueError(f"{name}: a limit's description says that 0 switches it off")
    return OptionSpec(name, label, description, default, minimum=0, maximum=maximum, shown=shown, off=off)


def _checked(spec: OptionSpec, value: Any) -> bool | int | str:
    if isinstance(spec.default, bool):
        if isinstance(value, str):
            low = value.strip().lower()
            if low in ("true", "yes", "on", "1"):
                return True
            if low in ("false", "no", "off", "0"):
                return False
            raise ValueError(f"{spec.label} must be true or false.")
        return bool(value)
    if isinstance(spec.default, int):
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise ValueError(f"{spec.label} must be a whole number.") from None
        if (spec.minimum is not None and number < spec.minimum) or (
            spec.maximum is not None and number > spec.maximum
        ):
            raise ValueError(f"{spec.label} must be between {spec.minimum} and {spec.maximum}.")
        return number
    text = str(value).strip().lower()
    if spec.choices and text not in spec.choices:
        raise ValueError(f"{spec.label} must be one of {', '.join(spec.choices)}.")
    return text


__all__ = [
    "CORRESPONDENCE",
    "CORRESPONDENCE_BUDGET_S",
    "EDITION",
    "GENERIC_LEVELS",
    "GUARDS",
    "MAX_OPTIONS",
    "SEARCH_LEVELS",
    "BaseGame",
    "examples_now",
    "legal_now",
    "limit_option",
    "now_error",
    "pick_rows",
]
