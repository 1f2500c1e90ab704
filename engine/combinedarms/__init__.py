"""Combined Arms, the WWI and WWII games of one system: this module's `GAME` is WWI Combined Arms.

WWII Combined Arms is `engine.combinedarms.ww2.GAME`. Both are `game.CombinedArmsGame` over one
rules engine (`state.py`); what differs is data (`units.py`) and the options each era offers. The
rules as played, with every ruling, are in rules/combinedarms.md and rules/combinedarms-wwii.md.
"""

from engine.combinedarms.game import WWI_GAME, CombinedArmsGame
from engine.combinedarms.state import State, View, new_game, replay

GAME = WWI_GAME

__all__ = ["GAME", "CombinedArmsGame", "State", "View", "new_game", "replay"]
