"""Block Wars: the rules engine. Start with `new_game(options, seed)`; see RULES.md for notation."""

from engine.blockwars.actions import EXAMPLES, Action, parse
from engine.blockwars.events import Event, summary
from engine.blockwars.model import Layout, Options, Side
from engine.blockwars.state import OVER, PLAY, SETUP, Decision, Outcome, State, View, new_game, replay
from engine.errors import IllegalAction, InvalidNotation

__all__ = [
    "EXAMPLES",
    "OVER",
    "PLAY",
    "SETUP",
    "Action",
    "Decision",
    "Event",
    "IllegalAction",
    "InvalidNotation",
    "Layout",
    "Options",
    "Outcome",
    "Side",
    "State",
    "View",
    "new_game",
    "parse",
    "replay",
    "summary",
]
