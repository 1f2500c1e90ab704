"""One game's settings: the era plus the optional rules chosen at challenge time, resolved once.

`Rules.of(era, options)` turns the stored option dict into the facts the engine asks on its hot
paths (board size, army limits, which bonuses apply), so the state never re-reads the options.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.base import EDITION
from engine.combinedarms.units import ERAS, Era, Limits

BOARD = (8, 8)
CAMPAIGN_BOARD = (12, 10)  # 36 squares in each side's back three rows for 24 units, 4 ranks between
DEPLOY_ROWS = 3
TURNS = 20  # turns each side plays before the game is drawn (option "turns")
EXPERIENCED_KILLS = 5
# Editions of the WWII rules (RULES.md): a game keeps the edition it began with, for ever. Edition 2
# made every city held win only if the enemy's whole turn cannot break the hold (W6); in edition 1
# it won at once, so the first side could win in its very first turn. WWI has one edition.
WWII_EDITION = 2


@dataclass(frozen=True, slots=True)
class Rules:
    era: Era
    terrain: bool = False  # WWI: bunkers, trenches, No Man's Land
    cities: bool = False  # WWII: four cities; hold them all to win
    difficult: bool = False  # WWII: difficult terrain
    elite: bool = False
    experienced: bool = False
    reinforcements: bool = False
    campaign: bool = False
    turns: int = TURNS
    edition: int = 1

    @staticmethod
    def of(era_key: str, options: Mapping[str, Any]) -> Rules:
        era = ERAS[era_key]
        campaign = bool(options.get("campaign", False))

        def on(name: str) -> bool:
            return campaign or bool(options.get(name, False))

        return Rules(
            era=era,
            terrain=era.key == "wwi" and on("terrain"),
            cities=era.key == "wwii" and on("cities"),
            difficult=era.key == "wwii" and on("difficult"),
            elite=on("elite"),
            experienced=on("experienced"),
            reinforcements=on("reinforcements"),
            campaign=campaign,
            turns=int(options.get("turns", TURNS)),
            edition=int(options.get(EDITION, WWII_EDITION)) if era.key == "wwii" else 1,
        )

    @property
    def cities_hold(self) -> bool:
        """(W6, edition 2) Every city held wins only if still held when the holder's next turn
        begins; edition 1 won the moment the last one was taken."""
        return self.cities and self.edition >= 2

    @property
    def size(self) -> tuple[int, int]:
        return CAMPAIGN_BOARD if self.campaign else BOARD

    @property
    def limits(self) -> Limits:
        return self.era.campaign_limits if self.campaign else self.era.limits

    @property
    def presets(self) -> Mapping[str, Mapping[str, int]]:
        return self.era.campaign_presets if self.campaign else self.era.presets

    @property
    def elite_allowed(self) -> int:
        return self.limits.elite if self.elite else 0


__all__ = ["BOARD", "CAMPAIGN_BOARD", "DEPLOY_ROWS", "EXPERIENCED_KILLS", "TURNS", "Rules"]
