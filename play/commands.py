"""The platform's commands, declared once: Discord's groups and the console are both built from here.

Each entry names a command, its options (typed, with choices and ranges), its help and who may use
it. A game adds only its own commands: its challenge options and its `Verb`s come from its spec.
Adding a platform command is one entry here plus a handler in each adapter; a test checks every
entry has one, and another counts Discord's limits on the tree built from this table.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal

from engine import registry
from engine.protocol import Game, OptionSpec, Verb
from play.ratings import level_choice
from play.results import AWAY_DAYS_A_YEAR
from play.roundrobin import MAX_PLAYERS as MAX_RR
from play.tiebreaks import PRESET_NAMES, PRESETS
from play.tournament import MAX_DAYS, MAX_ROUNDS, MIN_DAYS, MIN_ROUNDS
from play.tournament_extend import MAX_HOURS, MIN_HOURS
from play.tournament_formats import (
    FORMAT_NAMES,
    FORMATS,
    MAX_CAP,
    MAX_SIGNUP_DAYS,
    MIN_CAP,
    MIN_SIGNUP_DAYS,
    SWISS,
)

Kind = Literal["text", "int", "bool", "user", "role"]
Complete = Literal["actions", "focus", "tournaments"]
Platform = Literal["discord", "console"]
BOTH: frozenset[Platform] = frozenset(("discord", "console"))
DISCORD: frozenset[Platform] = frozenset(("discord",))
CONSOLE: frozenset[Platform] = frozenset(("console",))
REQUIRED = object()  # an option's default when it must be given


class Who(Enum):
    """Who may use a command; the service enforces it, the table says it (help and docs)."""

    ANYONE = "anyone"
    PLAYER = "a player of this channel's game"
    DECIDING = "the player who must decide now"
    ADMIN = "a member who may manage the channel"
    ORGANISER = "a member who may manage the server or holds its tournament organiser role"
    MANAGER = "a member who may manage the server"
    OWNER = "the bot's owner"


@dataclass(frozen=True, slots=True)
class Option:
    """One typed option of a command."""

    name: str
    kind: Kind
    description: str
    default: object = REQUIRED
    choices: tuple[tuple[str, str], ...] = ()  # (what the list shows, the value sent)
    minimum: int | None = None
    maximum: int | None = None
    complete: Complete | None = None  # offered as the player types, from the position

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


@dataclass(frozen=True, slots=True)
class Command:
    """One command: of a game's group (`/<game> board`) or of the `/wargames` group."""

    name: str
    help: str
    options: tuple[Option, ...] = ()
    who: Who = Who.ANYONE
    platforms: frozenset[Platform] = BOTH
    about_channel_game: bool = True  # the console refuses it where another game is this channel's
    verb: Verb | None = None  # a game's own command: it plays the verb's notation
    usage: str = ""  # the console's help line after the command's name, where options need showing
    subgroup: str | None = None  # `/wargames admin sync`
    listed: bool = True  # in the console's help (`hand` is answered, not listed, where no hands are)

    def on(self, platform: Platform) -> bool:
        return platform in self.platforms


def _choices(values: tuple[str, ...] | list[str]) -> tuple[tuple[str, str], ...]:
    return tuple((v, v) for v in values)


def challenge_option(spec: OptionSpec) -> Option:
    """A game's challenge-time setting as a typed option."""
    if isinstance(spec.default, bool):
        return Option(spec.name, "bool", spec.description, spec.default)
    if isinstance(spec.default, int):
        return Option(
            spec.name, "int", spec.description, spec.default, minimum=spec.minimum, maximum=spec.maximum
        )
    return Option(spec.name, "text", spec.description, spec.default, choices=_choices(spec.choices))


def verb_command(verb: Verb) -> Command:
    """One of the game's own commands: plays its notation, the argument completed from the position."""
    if verb.arg is None:
        return Command(verb.name, verb.description, who=Who.PLAYER, verb=verb)
    default = REQUIRED if verb.default is None else verb.default
    option = Option(verb.arg, "text", verb.arg_description, default, complete="actions")
    return Command(verb.name, verb.description, (option,), who=Who.PLAYER, verb=verb, usage=verb.arg.upper())


def game_commands(game: Game) -> list[Command]:
    """Every command of `/<game>`, in the order Discord lists them: the platform's and the game's verbs."""
    sides = ("random", *(s.name for s in game.sides))
    topics = list(game.rules)
    focus = game.focus
    challenge = Command(
        "challenge",
        f"Challenge someone (or me, for an AI game) to {game.title}",
        (
            Option("opponent", "user", "Who you want to play (pick me, the bot, to play the AI)"),
            Option(
                "side", "text", "The side you want to play (random if not given)", "random", _choices(sides)
            ),
            *(challenge_option(spec) for spec in game.options),
            Option(
                "hours_per_turn",
                "int",
                "Hours each player has for a turn before losing on time (default 72)",
                72,
                minimum=1,
                maximum=336,
            ),
            Option(
                "level",
                "text",
                "Only when challenging me: how strong the AI plays",
                None,
                tuple((level_choice(game, n), n) for n in game.ai.names),
            ),
        ),
        about_channel_game=False,
    )
    commands = [
        challenge,
        Command("accept", "Accept the challenge in this channel", who=Who.PLAYER),
        Command("decline", "Decline the challenge in this channel (or withdraw yours)", who=Who.PLAYER),
        Command(
            "play",
            "Play any action (several may be separated by ;); the list shows what is legal now",
            (Option("action", "text", f"The action, e.g. {game.notation_help}", complete="actions"),),
            who=Who.PLAYER,
            usage="ACTION[; ACTION…]",
        ),
        *(verb_command(verb) for verb in game.verbs),
        Command("resign", "Resign the game in this channel", who=Who.PLAYER),
        Command(
            "draw",
            "Offer a draw, or accept or decline your opponent's offer",
            (
                Option(
                    "choice",
                    "text",
                    "offer, accept or decline",
                    choices=_choices(("offer", "accept", "decline")),
                ),
            ),
            who=Who.PLAYER,
            usage="offer|accept|decline",
        ),
        Command("legal", "The actions legal now, each as the command that plays it", platforms=CONSOLE),
        Command(
            "board",
            "Show the current board" + (f", optionally with one {focus.name}" if focus else ""),
            (Option(focus.name, "text", focus.description, None, complete="focus"),) if focus else (),
            usage=f"[{focus.name}:…]" if focus else "",
        ),
    ]
    # Offered (Discord) and listed (the console's help) where hands exist; the console still answers
    # `hand` typed in any game, kindly ("You hold nothing secret in this game").
    commands.append(
        Command(
            "hand",
            "Your hand, shown only to you",
            who=Who.PLAYER,
            platforms=BOTH if game.private_info else CONSOLE,
            listed=game.private_info,
        )
    )
    commands += [
        Command(
            "history",
            "The last actions of this channel's game, turn by turn",
            (
                Option(
                    "count",
                    "int",
                    "How many of the latest actions to list (default 20)",
                    20,
                    minimum=1,
                    maximum=60,
                ),
            ),
        ),
        Command("replay", "The whole game in this channel as an animation"),
        Command(
            "rules",
            "The rules in short, by topic",
            (Option("topic", "text", "Which part of the rules", topics[0], _choices(topics)),),
            about_channel_game=False,
            usage="[topic]",
        ),
        Command(
            "stats",
            f"A player's {game.title} record on this server",
            (Option("member", "user", "Whose record (yours if not given)", None),),
            about_channel_game=False,
            usage="[@user]",
        ),
        Command(
            "leaderboard", f"The best-rated {game.title} players on this server", about_channel_game=False
        ),
        Command(
            "review",
            "After a game: your costliest choices (three at most) by the AI's judgement, only to you",
        ),
        Command("cancel", "Cancel this channel's game without a result (Manage Channels)", who=Who.ADMIN),
        Command(
            "help",
            "This game's commands and those of every game",
            platforms=CONSOLE,
            about_channel_game=False,
        ),
    ]
    return commands


_GAME_ID = Option(
    "game",
    "int",
    "A finished game's id, from its end message (default: this channel's last finished game)",
    None,
    minimum=1,
)

# A tournament named by its number, for the commands that read one (play/tournament_history.py)
_NUMBERED = (
    Option(
        "tournament", "int", "Which one (default: this channel's)", None, minimum=1, complete="tournaments"
    ),
)


def _numbered(name: str, text: str) -> Command:
    """A tournament command that reads this channel's tournament, or another by its number."""
    return Command(name, text, _NUMBERED, usage="[tournament:N]")


# `/tournament`: Swiss, round-robin and knockout tournaments of any game (play/tournament.py), a
# top-level command of its own: inside `/wargames` it took 2,537 of the 4,000 characters Discord
# allows one top-level command, and left no room to grow (docs/architecture.md, "The command tree").
TOURNAMENT_HELP = "Swiss, round-robin and knockout tournaments over days, for any game"
TOURNAMENT: tuple[Command, ...] = (
    Command(
        "create",
        "Open a tournament in this channel: Swiss, round-robin or knockout (organisers)",
        (
            Option("game", "text", "Which game", choices=tuple((g.title, g.name) for g in registry.games())),
            Option(
                "days",
                "int",
                f"Days per round ({MIN_DAYS} to {MAX_DAYS}); a game still going then counts as a draw",
                minimum=MIN_DAYS,
                maximum=MAX_DAYS,
            ),
            Option(
                "rounds",
                "int",
                f"How many rounds ({MIN_ROUNDS} to {MAX_ROUNDS}); a Swiss needs it, "
                "a round-robin or knockout leaves it out",
                None,
                minimum=MIN_ROUNDS,
                maximum=MAX_ROUNDS,
            ),
            Option(
                "format",
                "text",
                f"Swiss (default); round-robin: all meet all, {MAX_RR} at most; knockout: winners go on",
                SWISS,
                tuple((FORMAT_NAMES[f], f) for f in FORMATS),
            ),
            Option(
                "tiebreaks",
                "text",
                "How players level on points are ordered (default: Buchholz first; round-robin: SB first)",
                None,
                tuple((PRESET_NAMES[name], name) for name in PRESETS),
            ),
            Option(
                "max_players",
                "int",
                f"The most players it takes ({MIN_CAP} to {MAX_CAP}; no limit if not given)",
                None,
                minimum=MIN_CAP,
                maximum=MAX_CAP,
            ),
            Option(
                "signup_days",
                "int",
                f"Sign-ups close this many days from now ({MIN_SIGNUP_DAYS} to {MAX_SIGNUP_DAYS}; "
                "open until the start if not given)",
                None,
                minimum=MIN_SIGNUP_DAYS,
                maximum=MAX_SIGNUP_DAYS,
            ),
            Option("name", "text", "The tournament's name (optional)", None),
            Option(
                "options",
                "text",
                "The game's options as name=value words, e.g. turn_limit=20 (the challenge's names)",
                None,
            ),
        ),
        who=Who.ORGANISER,
        usage=(
            "game:G days:N rounds:N [format:round-robin|knockout] [tiebreaks:median] [max_players:N] "
            "[signup_days:N] [name:…] [options:a=1,b=on]"
        ),
    ),
    Command("join", "Sign up for this channel's tournament"),
    Command(
        "leave",
        "Take your name off this channel's tournament, or withdraw once it runs (asks first)",
        usage="[confirm]",
    ),
    Command("start", "Close sign-ups and pair round 1 (organisers)", who=Who.ORGANISER),
    _numbered("standings", "The standings of this channel's tournament"),
    _numbered(
        "crosstable",
        "Each player's results by round (W5: beat no. 5) with points and tie-breaks, as a picture",
    ),
    _numbered(
        "export", "Every game and the standings as CSV files for your club's records (only you get them)"
    ),
    _numbered("round", "This round's games: who plays whom, where, results so far, whose move, when it ends"),
    Command("past", "This server's tournaments, newest first, with winners"),
    Command(
        "remove",
        "Take a player off this channel's tournament; they are not paired again (organisers)",
        (Option("member", "user", "The player to remove"),),
        who=Who.ORGANISER,
        usage="member:@user",
    ),
    Command(
        "reinstate",
        "Put back a player removed by mistake, until the next round is paired (organisers)",
        (Option("member", "user", "The player removed by mistake"),),
        who=Who.ORGANISER,
        usage="member:@user",
    ),
    Command(
        "forfeit",
        "End a no-show's game of this round now: a loss on time for whoever made no move (organisers)",
        (Option("member", "user", "The player who has not moved"),),
        who=Who.ORGANISER,
        usage="member:@user",
    ),
    Command(
        "extend",
        "Give the round more time: its end moves later, each game's clocks get half of it (organisers)",
        (
            Option(
                "hours",
                "int",
                f"How many hours later the round ends ({MIN_HOURS} to {MAX_HOURS})",
                minimum=MIN_HOURS,
                maximum=MAX_HOURS,
            ),
        ),
        who=Who.ORGANISER,
        usage="hours:N",
    ),
    Command("cancel", "Cancel this channel's tournament (organisers)", who=Who.ORGANISER),
    Command(
        "organisers",
        "Who may run tournaments here besides managers (Manage Server)",
        (
            Option(
                "role",
                "role",
                "Members with this role may create, start, remove players and cancel; empty clears it",
                None,
            ),
        ),
        who=Who.MANAGER,
        platforms=DISCORD,
    ),
)

# The `/wargames` group: one setting or list for every game, so one command each (a game's group has
# room for 25 at most).
WARGAMES: tuple[Command, ...] = (
    Command("games", "The games I host and how to start one"),
    Command(
        "help",
        "The commands of this channel's game, briefly (elsewhere: the games and how to start one)",
        (
            Option(
                "game",
                "text",
                "Another game's commands instead",
                None,
                tuple((g.title, g.name) for g in registry.games()),
            ),
        ),
        usage="[game]",
    ),
    Command(
        "notify",
        "Get a direct message when it is your turn (in any game)",
        (Option("enabled", "bool", "On to get DMs when it is your turn, off to stop them"),),
        platforms=DISCORD,
    ),
    Command("mygames", "Your open games in this server, those waiting on you first"),
    Command(
        "away",
        "Going away? Stop your games' clocks here for some days (a tournament game's keeps running)",
        (
            Option(
                "days",
                "int",
                f"How many days you will be away ({AWAY_DAYS_A_YEAR} in any 365 at most)",
                minimum=1,
                maximum=AWAY_DAYS_A_YEAR,
            ),
        ),
        usage="days:N",
    ),
    Command("back", "Back before your time away ends: your clocks run again"),
    Command(
        "undo",
        "Take back your last step of this turn, if it drew nothing and showed nothing",
        who=Who.PLAYER,
    ),
    Command(
        "verify",
        "Check a finished game's dice and cards against the commitment it showed",
        (_GAME_ID,),
        usage="[game:ID]",
    ),
    Command(
        "export",
        "A finished game's whole record as a file you can check yourself",
        (_GAME_ID,),
        usage="[game:ID]",
    ),
    Command("seal", "Fix the dice of this channel's next game now, and post their commitment here"),
    Command(
        "sync",
        "Push the slash commands to Discord (bot owner only)",
        who=Who.OWNER,
        platforms=DISCORD,
        subgroup="admin",
    ),
)
SUBGROUPS = {
    "admin": "The bot owner's tools (pushing the slash commands to Discord)",
}
WARGAMES_HELP = "For every game: the games, your games, time away, undo, fair dice"


def wargames_commands(platform: Platform, subgroup: str | None = None) -> list[Command]:
    """The `/wargames` commands one adapter offers: of the group itself (`subgroup` None) or of one
    of its subgroups."""
    return [c for c in WARGAMES if c.on(platform) and c.subgroup == subgroup]


def all_wargames_commands(platform: Platform) -> list[Command]:
    """Every `/wargames` command one adapter offers, its subgroups' included, in the table's order."""
    return [c for c in WARGAMES if c.on(platform)]


def tournament_commands(platform: Platform) -> list[Command]:
    """The `/tournament` commands one adapter offers, in the table's order."""
    return [c for c in TOURNAMENT if c.on(platform)]


__all__ = [
    "BOTH",
    "CONSOLE",
    "DISCORD",
    "REQUIRED",
    "SUBGROUPS",
    "TOURNAMENT",
    "TOURNAMENT_HELP",
    "WARGAMES",
    "WARGAMES_HELP",
    "Command",
    "Option",
    "Who",
    "all_wargames_commands",
    "challenge_option",
    "game_commands",
    "tournament_commands",
    "verb_command",
    "wargames_commands",
]
