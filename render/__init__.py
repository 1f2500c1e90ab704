"""Pictures of games for Discord: `render_board` for a position, `render.replay` for a whole game.

render/ depends on engine/, never the reverse; a render is a pure function of its arguments.
"""

from render.board import render_board

__all__ = ["render_board"]
