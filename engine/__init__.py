"""Pure game rules: no Discord, no asyncio, no Pillow, no SQL (see tests/test_engine_purity.py).

Shared pieces every game of the collection uses live here (cards, squares, errors); each game
has its own package beside `blockwars/`.
"""

from engine.errors import IllegalAction, InvalidNotation

__all__ = ["IllegalAction", "InvalidNotation"]
