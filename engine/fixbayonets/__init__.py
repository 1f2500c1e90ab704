"""Fix Bayonets: the rules engine. Start with `new_game(options, seed)`; rules/fixbayonets.md has the
rules as played here, the rulings and the notation. `GAME` is the game as the platform sees it."""

from engine.fixbayonets.actions import EXAMPLES, Action, parse
from engine.fixbayonets.game import GAME, FixBayonetsGame
from engine.fixbayonets.model import AMERICANS, GERMANS, Options
from engine.fixbayonets.state import State, View, new_game

__all__ = [
    "AMERICANS",
    "EXAMPLES",
    "GAME",
    "GERMANS",
    "Action",
    "FixBayonetsGame",
    "Options",
    "State",
    "View",
    "new_game",
    "parse",
]
