"""A tournament's game options, typed as `name=value` words in the challenge's own names and checked
by the game (`/tournament create options:turn_limit=20`)."""

from __future__ import annotations

from engine.protocol import Game, OptionSpec
from play.errors import BadRequest

YES = {"yes", "on", "true", "1"}
NO = {"no", "off", "false", "0"}


def _known(game: Game) -> str:
    """The game's options as an organiser can type them, each with an example value and its label
    (it listed only the names: `rounds` said nothing of being a number, nor of what it limits)."""
    if not game.options:
        return f"{game.title} has no options."
    shown = []
    for spec in game.options:
        if isinstance(spec.default, bool):
            shown.append(f"`{spec.name}=on` ({spec.label}; off unless set)")
        else:
            shown.append(f"`{spec.name}={spec.default}` ({spec.label}; {spec.default} unless set)")
    return f"Its options: {', '.join(shown)}."


def parse_options(game: Game, text: str) -> dict[str, object]:
    """The game's options from `name=value` words (the challenge's names), checked by the game."""
    specs: dict[str, OptionSpec] = {spec.name: spec for spec in game.options}
    raw: dict[str, object] = {}
    for word in text.replace(",", " ").split():
        name, sep, value = word.partition("=")
        name, value = name.strip().lower(), value.strip().lower()
        spec = specs.get(name)
        if not sep or spec is None:
            raise BadRequest(
                f"`{word[:30]}` is not an option of {game.title}: write `name=value`, several "
                f"separated by spaces. {_known(game)}"
            )
        if isinstance(spec.default, bool):
            if value not in YES | NO:
                raise BadRequest(f"Option `{name}` is on or off: write `{name}=on` or `{name}=off`.")
            raw[name] = value in YES
        elif isinstance(spec.default, int):
            try:
                raw[name] = int(value)
            except ValueError:
                raise BadRequest(
                    f"Option `{name}` takes a whole number, e.g. `{name}={spec.default}`."
                ) from None
        else:
            raw[name] = value
    try:
        return game.normalise_options(raw)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None


__all__ = ["parse_options"]
