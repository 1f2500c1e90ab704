"""Battlefronts: attrition on five fronts with two decks of cards. Rules: rules/battlefronts.md.

`GAME` is the game as the platform sees it (`engine.protocol.Game`); `new_game(seed)` starts one.
"""

from engine.battlefronts.actions import EXAMPLES, Action, parse
from engine.battlefronts.events import Event, summary
from engine.battlefronts.game import GAME, BattlefrontsGame
from engine.battlefronts.model import BLUE, RED, Battalion
from engine.battlefronts.state import ATTRITION, BATTLE, MOVE, OVER, SUPPORT, State, new_game, replay
from engine.battlefronts.view import View

__all__ = [
    "ATTRITION",
    "BATTLE",
    "BLUE",
    "EXAMPLES",
    "GAME",
    "MOVE",
    "OVER",
    "RED",
    "SUPPORT",
    "Action",
    "Battalion",
    "BattlefrontsGame",
    "Event",
    "State",
    "View",
    "new_game",
    "parse",
    "replay",
    "summary",
]
