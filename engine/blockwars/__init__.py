"""Block Wars: the rules engine. Start with `new_game(options, seed)`; see rules/blockwars.md for notation.

`GAME` is the game as the platform sees it (`engine.protocol.Game`).
"""

from engine.blockwars.actions import EXAMPLES, Action, parse
from engine.blockwars.events import Event, summary
from engine.blockwars.game import GAME, BlockWarsGame
from engine.blockwars.model import Layout, Options, Side
from engine.blockwars.state import OVER, PLAY, SETUP, Decision, State, View, new_game, replay
from engine.errors import IllegalAction, InvalidNotation
from engine.protocol import Outcome

__all__ = [
    "EXAMPLES",
    "GAME",
    "OVER",
    "PLAY",
    "SETUP",
    "Action",
    "BlockWarsGame",
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
