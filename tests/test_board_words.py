"""The words on every game's public board: it is posted in the channel for both players and any
spectator, so it never speaks to one reader as "you"; a side is named instead ("The Canadians'
aircraft B may strafe ...")."""

from __future__ import annotations

import random
import re

import pytest
from PIL import ImageDraw

from engine import registry
from render import kit, renderer, seen

YOU = re.compile(r"\b(you|your|yours|yourself)\b", re.IGNORECASE)


@pytest.mark.parametrize("name", registry.names())
def test_the_channel_board_never_says_you(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every word drawn on the spectator's board (the one the channel gets) along a seeded random
    game, pending decisions included."""
    drawn: set[str] = set()
    real = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: object, words: object, *args: object, **kw: object) -> None:
        drawn.add(str(words))
        real(self, xy, words, *args, **kw)  # type: ignore[arg-type, type-var]

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    game, draw = registry.game(name), renderer(name)
    rng = random.Random(1)
    state = game.new_game({}, 1)
    # The render caches emptied once (text tiles, cached sprites): each word is drawn, and seen here,
    # the first time a board needs it, and pasted from the cache after, as the bot does. (Measuring
    # throughout, as before, drew every word of every board afresh: twice the CPU, the same words.)
    kit._clear_render_caches()
    for _ in range(300):
        if state.is_over():
            break
        side = rng.choice(sorted(state.to_act()))
        events = state.apply(rng.choice(state.legal_actions(side)), side)
        draw.picture(state.view(None), seen(events, None))  # its words; no PNG is needed
    assert len(drawn) > 20
    said = sorted(words for words in drawn if YOU.search(words))
    assert not said, said
