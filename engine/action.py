"""The one base of every game's own actions (the shared ones, resign and draw offers, are `engine.meta`'s).

Two ways to build a game's actions, one base:
- `GameAction` alone, with a frozen dataclass on top (Block Wars, Combined Arms): equal by value,
  the notation written by `__str__`. Block Wars interns them, so `apply` checks an action came from
  `legal_actions()` by identity on its hot path.
- `Notated`, whose notation is computed once at construction (Battlefronts, Company Commander, Fix
  Bayonets): the search keys its tree on the notation and `apply` compares actions with the legal
  list, so neither rebuilds the string.

Equality is the same in both: the same kind of action with the same notation (a dataclass compares
its class and fields, which the notation spells out). Battlefronts compared the class too, Company
Commander and Fix Bayonets did not; within one game no two kinds share a notation (it must parse
back), so the two agreed there, and only the class check keeps actions of two games apart ("end"
of Battlefronts is not "end" of Company Commander).
"""

from __future__ import annotations

from typing import ClassVar


class GameAction:
    """Base of a game's own actions: `str()` is the notation its parser reads back."""

    __slots__ = ()
    # Either player may send it at any time, whoever is to act (standing orders).
    anytime: ClassVar[bool] = False

    def __str__(self) -> str:  # pragma: no cover - every kind of action says its notation
        raise NotImplementedError


class Notated(GameAction):
    """An action that keeps its notation, computed once: compared and hashed by kind and notation."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.text == self.text  # type: ignore[attr-defined,unused-ignore]

    def __hash__(self) -> int:
        return hash(self.text)


__all__ = ["GameAction", "Notated"]
