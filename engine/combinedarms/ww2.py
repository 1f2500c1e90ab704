"""WWII Combined Arms as a registered game: the Combined Arms engine with the WWII era's data."""

from engine.combinedarms.game import WWII_GAME

GAME = WWII_GAME

__all__ = ["GAME"]
