"""The words posted after each move, shared by the Discord cog and the console so both say the same."""

from __future__ import annotations

from data import Match
from engine.blockwars import Side, State
from play.service import Played

ACTION_WORDS = {2: "2 actions left", 1: "1 action left", 0: "no actions left"}


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def when(ts: float | None) -> str:
    """A Discord timestamp, so each reader sees the deadline in their own zone."""
    return f"<t:{int(ts)}:R>" if ts else "no deadline"


def status_text(match: Match, state: State) -> str:
    """Whose move it is and by when, or how the game ended."""
    if state.is_over() or state.outcome() is not None:
        outcome = state.outcome()
        assert outcome is not None
        if outcome.winner is None:
            return f"**Game over: a draw** ({outcome.detail})."
        winner = match.sides.get(outcome.winner.value)
        who = f" {mention(winner)}" if winner else ""
        return f"**Game over: the {Side(outcome.winner).title} win**{who} ({outcome.detail})."
    side = state.current_player()
    assert side is not None
    player = mention(match.sides[side.value])
    due = when(match.deadline)
    if state.phase == "setup":
        return f"{player} ({side.title}): deploy your units (`setup std` for the standard layout). Due {due}."
    if state.pending is not None:
        return f"{player}: {state.pending.prompt()} Due {due}."
    return f"{player} ({side.title}) to play, {ACTION_WORDS[state.actions_left]}. Due {due}."


def played_text(played: Played) -> str:
    """The message that goes with the new board after an action."""
    return f"{played.line}\n{status_text(played.match, played.state)}"


def side_label(match: Match, user_id: int) -> str:
    side = match.side_of(user_id)
    return Side(side).title if side else "spectator"
