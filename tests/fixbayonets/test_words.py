"""What players read: event lines, refusals and notation errors, worded as a player expects."""

from __future__ import annotations

import pytest

from engine.errors import InvalidNotation
from engine.fixbayonets import GAME
from engine.fixbayonets.events import Played
from engine.fixbayonets.state import FIGHTING

from .helpers import A as AM
from .helpers import G, of, play, pos


def test_an_attack_names_the_attacker_s_side_with_a_capital() -> None:
    s = pos({"d1": "AR", "d4": "GR"}, a=["rifle3"], active=AM, phase=FIGHTING)
    (played,) = of(play(s, "rifle3 Rd1xd4"), Played)
    line = played.text(None)
    assert "the American rifleman on d1 attacks d4" in line
    assert "american" not in line
    g = pos({"d1": "AR", "d4": "GR"}, g=["rifle3"], phase=FIGHTING)
    assert "the German rifleman on d4" in of(play(g, "rifle3 Rd4xd1"), Played)[0].text(G)


@pytest.mark.parametrize("text", ["march Rd1xd3", "trees Rd1xd3", "run Od1xd5"])
def test_a_card_of_the_wrong_type_reads_an_attack_card(text: str) -> None:
    with pytest.raises(InvalidNotation) as exc:
        GAME.parse(text)
    assert "a attack" not in str(exc.value)
    assert "is not an attack card" in str(exc.value)
