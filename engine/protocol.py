"""The seams every game plugs into: what `play/`, `render/`, the cogs, the console and the AI may ask.

A game is one package under `engine/` that exports `GAME`, an object satisfying `Game`; the rest of
the bot never imports a game by name. The shapes here were fixed against all five games of the
collection, so they assume neither a board (Battlefronts has five fronts and card stacks), nor
open information (Fix Bayonets has private hands), nor one action per turn (Combined Arms moves an
army), nor that only the side on turn acts (retreat squares and negation cards are owed by the
other side).

Conventions every game keeps:
- Side names are short lower-case words ("germans"); `SideInfo.title` is a plural noun that reads
  after "the" ("the Germans win").
- `str(game.parse(text))` is the canonical notation: the action log, buttons and autocomplete
  values all use it, and it parses back to an equal action. Notation never contains ";" (the
  platform splits a command of several actions on it).
- The shared actions of `engine.meta` (resign, draw offers, timeout, abandon) parse in every game.
- Chance is seeded (`engine.chance`) and lives in the state: the seed plus the log replays a game.
- A state counts the chance it has drawn (`State.chance_drawn`) and an event says when it brings a
  secret into the open (`Event.reveals`), so the platform knows which step of a command committed
  the player to something they could not have seen before (`drew_or_revealed`, RULES.md).
- A `View` holds only what its viewer may know, so renderers and the AI, which get views, cannot
  leak a hand by construction; events say per viewer what they show (`Event.text`, `Event.seen_by`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from random import Random
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

Side = str
"""A side's name, as the game spells it ("germans", "americans")."""


class Action(Protocol):
    """A small immutable value; `str()` is its notation, which the game's `parse` reads back.

    A game's own actions derive from `engine.action.GameAction` (or `Notated`); the shared ones
    are `engine.meta`'s."""

    # Either player may send it at any time, whoever is to act (resign, draw offers, standing orders).
    anytime: ClassVar[bool]

    def __str__(self) -> str: ...

    def __hash__(self) -> int: ...


class Event(Protocol):
    """What an action did, as a value: drives history lines, board highlights and replays.

    An event may also have a `heading` (a str attribute or property): the part of the turn it
    belongs to ("Battle", "End of round 4"). Where one action set off many events, the console
    lists them one a line, grouped under their headings.

    An event may also have `reveals` (a bool attribute or property, False when absent): it brings
    into the open something a side could not see before and that no draw of chance counted (both
    hidden set-ups shown, the opponent's automatic answer under a standing order, which shows what
    they held). Read it through `reveals(event)`.

    What a long turn's summary puts first (play.present) comes from three more optional attributes,
    so that the platform ranks a stretch without knowing the game:
    - `weight` (a `Weight`, default ROUTINE): how much the event matters to a reader;
    - `loss` (a (side title, words) pair, or None): what a side lost, named ("Germans", "G3 MG 42");
    - `score` (a clause, or None): where a side stands towards victory now ("the Germans have lost
      3 of 10 units"); the last one per side in a stretch is told.
    - `brief(viewer)` (a method): the event in fewer words for that summary, where `text` is long
      (dice and modifiers); without it the summary uses `text`.
    """

    def text(self, viewer: Side | None) -> str:
        """One short clause for `viewer` (None: a spectator); '' for an event that needs no words."""
        ...

    def seen_by(self, viewer: Side | None) -> Event | None:
        """The event as `viewer` may know it: itself, a copy without secrets, or None (invisible)."""
        ...

    def to_json(self) -> dict[str, Any]: ...


class Weight(IntEnum):
    """How much an event matters to someone reading a turn's summary (`Event.weight`)."""

    ROUTINE = 0  # a move, a draw, a roll that did nothing: counted, not told
    DECISIVE = 1  # an attack and its result, a card played, a move that threatens: told
    CHANGED = 2  # changed the game (a unit or men lost, a front or square taken): told first


class EndReason(StrEnum):
    """Why a game ended, as a value (the game's own words for it are in `Outcome.detail`)."""

    OBJECTIVE = "objective"  # the game's own victory condition (a breakthrough, the HQ, the officers...)
    ANNIHILATION = "annihilation"  # a side has nothing left to fight with
    RESIGNATION = "resignation"
    TIMEOUT = "timeout"  # the side to act let its deadline pass
    ABANDONED = "abandoned"  # nobody acted in time (both sides owed an action): no winner
    AGREEMENT = "agreement"  # a draw both players agreed
    STALEMATE = "stalemate"  # no progress for too long: a dead position
    TURN_LIMIT = "turn_limit"  # the game's turn or round limit was reached


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: `winner` None is a draw."""

    winner: Side | None
    reason: EndReason
    detail: str  # the game's words: "two units on the enemy back row", "the Canadians resigned"

    def __str__(self) -> str:
        return self.detail

    def to_json(self) -> dict[str, Any]:
        """The one spelling every game stores: {"winner", "reason" (an EndReason value), "detail"}."""
        return {"winner": self.winner, "reason": self.reason.value, "detail": self.detail}

    @staticmethod
    def from_json(data: Mapping[str, Any], guess: Callable[[str], EndReason] | None = None) -> Outcome:
        """Read `to_json`'s spelling, and Block Wars' older one, so stored games load: the words
        under "reason" and the EndReason under "kind", or, before outcomes were typed, the words
        alone (then `guess` finds the reason in them; without it the game's own objective)."""
        winner = data["winner"] or None
        if "detail" in data:
            return Outcome(winner, EndReason(data["reason"]), str(data["detail"]))
        words = str(data["reason"])
        kind = data.get("kind")
        if kind is not None:
            return Outcome(winner, EndReason(kind), words)
        return Outcome(winner, guess(words) if guess is not None else EndReason.OBJECTIVE, words)


@runtime_checkable
class View(Protocol):
    """All that one side (or a spectator, `viewer` None) may know of a game."""

    @property
    def viewer(self) -> Side | None: ...

    def to_json(self) -> dict[str, Any]:
        """JSON the game's `view_from_json` reads back (renders cross to a worker process this way)."""
        ...

    def determinize(self, rng: Random) -> State:
        """A full state consistent with the view, the unknown dealt at random: the AI searches these."""
        ...


class State(Protocol):
    """One game in progress. Mutable; `clone` before trying things. Only `apply` changes it."""

    def to_act(self) -> frozenset[Side]:
        """The sides that owe an action now; it may be the side not on turn, or both; empty when over."""
        ...

    def legal_actions(self, side: Side | None = None) -> Sequence[Action]:
        """What `side` may do now, sorted and stable. The platform always passes the side; None means
        the one side to act (with two, the first of `sorted(to_act())`).

        Where the space is huge (a whole set-up, a whole army), this may be a menu of sensible
        choices while `apply` accepts every legal one. The shared `engine.meta` actions are not listed.
        """
        ...

    def apply(self, action: Action, side: Side) -> Sequence[Event]:
        """The only authority on legality: raises `IllegalAction` (saying why, and what is legal)
        and leaves the state untouched, or plays the action and returns what happened."""
        ...

    def outcome(self) -> Outcome | None: ...

    def is_over(self) -> bool: ...

    def view(self, side: Side | None) -> View: ...

    def clone(self) -> State: ...

    def to_json(self) -> dict[str, Any]:
        """Everything, secrets included: for storage only, never for a player (use `view`)."""
        ...

    def turn_number(self) -> int:
        """Whole turns (or rounds) begun so far, for history headings and boards; 0 during set-up."""
        ...

    def quick_decision(self) -> bool:
        """Whether what is owed is a quick answer (a retreat square, a negation) with a short deadline."""
        ...

    def default_action(self, side: Side) -> Action | None:
        """What is played for `side` when its quick decision's deadline passes (None: it loses on time)."""
        ...

    def chance_drawn(self) -> int:
        """A mark of the chance drawn so far: it grows with every die rolled, card turned or drawn
        (by either side) and shuffle, and never changes otherwise, so a step drew chance exactly
        when it changed the mark (`drew_or_revealed`). Only comparisons mean anything: it need not
        count draws one by one. Derived from what the state already keeps, so it survives `clone`
        and `to_json`."""
        ...


def reveals(event: Event) -> bool:
    """Whether `event` brings a secret into the open (`Event.reveals`; False for events without it)."""
    return bool(getattr(event, "reveals", False))


def drew_or_revealed(drawn_before: int, drawn_after: int, events: Iterable[Event]) -> bool:
    """Whether one step (an action and everything it set off) committed its player to chance or to
    a secret: it drew chance (`State.chance_drawn` moved from `drawn_before` to `drawn_after`) or
    one of its `events` reveals something. Such a step stands once made, whatever comes after it
    in the same command, and may never be undone (RULES.md, "Chance is never shown before it is
    drawn"): what a player learns from it can no longer be unlearnt."""
    return drawn_after != drawn_before or any(reveals(e) for e in events)


# ---------------------------------------------------------------------------------------- metadata


@dataclass(frozen=True, slots=True)
class SideInfo:
    name: Side  # stored and typed: "germans"
    title: str  # a plural noun reading after "the": "Germans"
    adjective: str  # "German"


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """An optional rule or setting chosen at challenge time; it becomes a challenge parameter.

    `default` decides the type: bool (a switch), int (between `minimum` and `maximum`), or str
    (one of `choices`).
    """

    name: str  # a slash-command parameter name: lower case, digits and _
    label: str  # "Fighter aces": how messages name it
    description: str  # up to 100 characters, shown by Discord beside the parameter
    default: bool | int | str = False
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    # A limit of ours that the rule texts do not have (an int; 0 switches it off): the challenge
    # message always states it, in `shown` ("{}" is the value), or in `off` when it is 0.
    # `engine.base.limit_option` builds one; every game with such a limit uses it.
    shown: str = ""
    off: str = ""

    @property
    def limit(self) -> bool:
        return bool(self.shown)

    def stated(self, value: object) -> str:
        """How the challenge message states this limit's chosen `value` ("1 turn each", not "1
        turns each": `shown` is written for the plural)."""
        if value in (0, "0"):
            return self.off
        said = self.shown.format(value)
        return re.sub(r"\b1 (\w+?)s\b", r"1 \1", said) if value in (1, "1") else said


@dataclass(frozen=True, slots=True)
class Verb:
    """One of a game's own commands (`/blockwars move <action>`), in Discord and the console alike.

    The argument is turned into notation by `template` ("{}" is the argument as typed, "setup {}" puts
    a prefix before it, and a template without "{}" is a fixed action such as "end"). Autocomplete
    offers the legal actions whose `Game.verb_of` is one of `kinds` (default: this verb's name).
    `choices` lists the arguments of a verb that takes a fixed few (a standing order's settings):
    when they play `anytime` actions, autocomplete offers them to either player, on turn or not
    (`State.legal_actions` never lists any-time actions).
    """

    name: str
    description: str
    arg: str | None = "action"
    arg_description: str = "The action (choose from the list)"
    template: str = "{}"
    default: str | None = None  # the argument may be left out; this is used instead
    kinds: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()

    def notation(self, arg: str | None) -> str:
        """The notation this command plays for the typed `arg`."""
        if "{}" not in self.template:
            return self.template
        text = (arg if arg is not None else self.default or "").strip()
        prefix = self.template.split("{}", 1)[0].strip()
        if prefix and text.lower().startswith(prefix.lower()):
            text = text[len(prefix) :].strip()  # "setup std" typed in full is fine too
        return self.template.replace("{}", text).strip()

    def argument(self, notation: str) -> str:
        """What to type as this verb's argument to play `notation` (autocomplete values)."""
        if "{}" not in self.template:
            return ""
        prefix, _, suffix = self.template.partition("{}")
        text = notation
        if prefix and text.lower().startswith(prefix.lower()):
            text = text[len(prefix) :]
        if suffix and text.lower().endswith(suffix.lower()):
            text = text[: len(text) - len(suffix)]
        return text.strip()

    @property
    def plays(self) -> tuple[str, ...]:
        return self.kinds or (self.name,)


@dataclass(frozen=True, slots=True)
class Choice:
    """A button or a select option: it plays `notation`, or opens the game's submenu `opens`."""

    label: str
    notation: str | None = None
    opens: str | None = None
    style: str = "secondary"  # primary, secondary, success, danger (Discord's button styles)
    # Shown but not yet tappable: a step the status names as coming next ("then End turn") that
    # is not legal yet, so a phone player sees the button they are told of. Read from what the
    # menu's view may know, like the rest of the menu.
    disabled: bool = False


@dataclass(frozen=True, slots=True)
class Pick:
    """A select menu of at most 25 choices, each playing its notation.

    With `most` above 1 the player picks `least` to `most` of them in one go (the cards to discard
    over a hand limit): the platform plays their notations in the order listed, as one command, so
    all or nothing is played (the service's rule for commands of several actions). Such choices may
    repeat a notation (two of one card, to discard both); the platform tells them apart."""

    placeholder: str
    choices: tuple[Choice, ...]
    least: int = 1
    most: int = 1


@dataclass(frozen=True, slots=True)
class Menu:
    """What goes under a message: buttons, selects, and the generic "Take action" flow."""

    buttons: tuple[Choice, ...] = ()
    picks: tuple[Pick, ...] = ()
    take_action: bool = False
    title: str = ""  # the words of a submenu's message (alone, when there is nothing to choose)


@dataclass(frozen=True, slots=True)
class Focus:
    """The board command's optional argument, e.g. `/blockwars board unit:d6` (a unit's reach)."""

    name: str
    description: str
    unknown: str = "`{}` is not one of the choices."  # the refusal for a value not in `focus_choices`


@dataclass(frozen=True, slots=True)
class AiLevels:
    """A game's AI levels: their names, the one a challenge gets by default, what each does.

    `ratings` is each level's Elo as `bench/ladder.py` measured it, with `random` at 0 (the platform
    puts it on the players' scale, `play.ratings`); `budgets` is the most a level thinks per
    decision, in seconds (its searches stop at an iteration budget first on any ordinary machine).
    """

    names: tuple[str, ...]
    default: str
    descriptions: Mapping[str, str] = field(default_factory=dict)
    ratings: Mapping[str, float] = field(default_factory=dict)
    budgets: Mapping[str, float] = field(default_factory=dict)


class Game(Protocol):
    """One game of the collection: metadata, the rules entry points, the words and the AI."""

    # -- metadata, read-only to the platform. Properties rather than plain attributes: a protocol's
    # plain attribute is settable, so it is invariant and a game's class attribute had to have exactly
    # its type (a game's two options, `tuple[OptionSpec, OptionSpec]`, were no `tuple[OptionSpec, ...]`).

    # the command group and the registry key: lower case, no spaces ("blockwars")
    @property
    def name(self) -> str: ...

    # "Block Wars"
    @property
    def title(self) -> str: ...

    # the command group's description (up to 100 characters)
    @property
    def description(self) -> str: ...

    @property
    def sides(self) -> tuple[SideInfo, SideInfo]: ...

    @property
    def options(self) -> tuple[OptionSpec, ...]: ...

    @property
    def verbs(self) -> tuple[Verb, ...]: ...

    @property
    def ai(self) -> AiLevels: ...

    # players hold secrets (a hand): "hand" commands and a "My hand" button
    @property
    def private_info(self) -> bool: ...

    @property
    def focus(self) -> Focus | None: ...

    # topic -> a short text in the game's own words (the first: overview), as the newest edition
    # of the game's rules has them (what a new challenge plays)
    @property
    def rules(self) -> Mapping[str, str]: ...

    # the newest edition of the game's rules (1: it has one); a match keeps the edition it began
    # with (`BaseGame.edition`, RULES.md)
    @property
    def edition(self) -> int: ...

    # one line of examples, shown when a notation does not parse
    @property
    def notation_help(self) -> str: ...

    # what the game calls the unit `State.turn_number` counts, for headings ("Turn", "Round")
    @property
    def turn_label(self) -> str: ...

    # -- the rules
    def new_game(self, options: Mapping[str, Any], seed: int) -> State: ...

    def normalise_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Checked options with defaults filled in; ValueError with a player's message if wrong."""
        ...

    def edition_of(self, options: Mapping[str, Any]) -> int:
        """The edition of the rules a match with these (stored) options plays."""
        ...

    def rules_for(self, options: Mapping[str, Any]) -> Mapping[str, str]:
        """The `rules` topics as a match with these options plays them (its edition's), so a
        player of a game begun under an older edition reads the rules their game plays. The same
        topics in the same order as `rules` (Discord lists them as fixed choices)."""
        ...

    def from_json(self, data: dict[str, Any]) -> State: ...

    def view_from_json(self, data: dict[str, Any]) -> View: ...

    def parse(self, text: str) -> Action:
        """Notation to an action (raises `InvalidNotation`); accepts the `engine.meta` words too."""
        ...

    def parse_in(self, text: str, state: State, side: Side) -> Action:
        """`parse` for `side` in `state`: a refusal offers only examples accepted there."""
        ...

    # -- the AI
    def choose(self, view: View, level: str, seed: int, budget_s: float | None = None) -> Action:
        """The AI's action for `view.viewer`, who must be owed an action; deterministic per seed
        when the budget does not bind."""
        ...

    def accepts_draw(self, view: View, seed: int) -> bool:
        """Whether the AI, seeing `view`, accepts a draw offered to it (it judges itself clearly losing)."""
        ...

    def appraise(
        self, view: View, actions: Sequence[Action], seed: int, *, most: int = 10, deals: int = 4
    ) -> list[tuple[Action, float]]:
        """The AI's judgement of a choice `view.viewer` faces (reviews of finished games): `actions`
        and the first `most` of the actions it finds likeliest, each with its value for the viewer
        in [-1, 1] (averaged over `deals` deals of the unknown), best first."""
        ...

    # -- fair play
    def chance_twin(self, state: State, side: Side, rng: Random) -> State:
        """A copy of `state` alike in all `side` may see, differing only in chance not yet drawn and
        in what `side` may not see (`BaseGame.chance_twin`): the conformance suite's fair-chance
        property plays the same command on both and expects the same answer."""
        ...

    # -- words and menus (presentation only: legality always comes from the state)
    def side(self, name: Side) -> SideInfo: ...

    def status(self, view: View, side: Side) -> str:
        """What `side` must do now, after its player's mention: "(Germans) to play, 2 actions left." """
        ...

    def describe(self, view: View, action: Action) -> str:
        """An action in words for buttons and autocomplete: "Move e2 → e3"."""
        ...

    def verb_of(self, view: View, action: Action) -> str:
        """Which of the game's verbs plays `action` (autocomplete filters on it)."""
        ...

    def group_of(self, view: View, action: Action) -> str | None:
        """The piece, card or front an action belongs to in the "Take action" flow (None: ungrouped)."""
        ...

    def group_label(self, view: View, group: str) -> str: ...

    def menu(self, view: View) -> Menu:
        """Components under a board posted in the channel. `view` is the spectator's: nothing private."""
        ...

    def submenu(self, view: View, legal: Sequence[Action], key: str) -> Menu:
        """A menu opened by a `Choice.opens` button, shown only to the clicker (`view` is theirs)."""
        ...

    def private_text(self, view: View, *, tapping: bool = False) -> str | None:
        """What only `view.viewer` knows (a hand), in words; None when there is nothing secret.
        `tapping`: its reader plays by buttons (Discord), so it names the buttons to tap where the
        console's words quote a command to type."""
        ...

    def focus_choices(self, view: View) -> list[str]:
        """Values the board's focus argument accepts now (autocomplete)."""
        ...


V_contra = TypeVar("V_contra", contravariant=True)


class Words(Protocol[V_contra]):
    """A game's words (its `words` module), each function taking the game's own view: the `Game`
    methods of the same names, which `engine.base.BaseGame` forwards to the module the game
    declares. Presentation only; what reaches the channel is built from public facts."""

    def status(self, view: V_contra, side: Side, /) -> str: ...

    def describe(self, view: V_contra, action: Action, /) -> str: ...

    def verb_of(self, view: V_contra, action: Action, /) -> str: ...

    def group_of(self, view: V_contra, action: Action, /) -> str | None: ...

    def group_label(self, view: V_contra, group: str, /) -> str: ...

    def private_text(self, view: V_contra, /, *, tapping: bool = False) -> str | None: ...


__all__ = [
    "Action",
    "AiLevels",
    "Choice",
    "EndReason",
    "Event",
    "Focus",
    "Game",
    "Menu",
    "OptionSpec",
    "Outcome",
    "Pick",
    "Side",
    "SideInfo",
    "State",
    "Verb",
    "View",
    "Weight",
    "Words",
    "drew_or_revealed",
    "reveals",
]
