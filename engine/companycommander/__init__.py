"""Company Commander: the rules engine. Start with `new_game(options, seed)`; rules/companycommander.md
has the rules as played here, our house rules and the notation. `GAME` is the game as the platform
sees it."""

from engine.companycommander.actions import EXAMPLES, Action, parse
from engine.companycommander.game import GAME, CompanyCommanderGame
from engine.companycommander.model import AMERICANS, GERMANS, Options
from engine.companycommander.state import State, new_game
from engine.companycommander.view import View

__all__ = [
    "AMERICANS",
    "EXAMPLES",
    "GAME",
    "GERMANS",
    "Action",
    "CompanyCommanderGame",
    "Options",
    "State",
    "View",
    "new_game",
    "parse",
]
