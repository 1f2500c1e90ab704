"""The WWII Combined Arms board: the shared renderer with the WWII era's unit table."""

from render.combinedarms.board import Board

RENDERER = Board("wwii")

__all__ = ["RENDERER"]
