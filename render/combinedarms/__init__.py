"""The Combined Arms boards: this module's `RENDERER` draws WWI Combined Arms (`ww2.RENDERER` WWII)."""

from render.combinedarms.board import Board

RENDERER = Board("wwi")

__all__ = ["RENDERER", "Board"]
