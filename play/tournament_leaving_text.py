"""What a tournament says when a player leaves it (RULES.md "Tournaments": Leaving): the question
before a withdrawal, its confirmation, the channel's notice and the organiser's undo hint, shared
by the Discord cog and the console (play/tournament_leaving.py decides; this words it).
"""

from __future__ import annotations

from data.tournaments import TournamentStatus
from play.markup import Markup
from play.roundrobin import kept
from play.tournament_formats import is_knockout
from play.tournament_leaving import Withdrawal


def _their_game(w: Withdrawal, markup: Markup, you: bool) -> str:
    """Where the player's game of this round stands once they withdraw: it plays on."""
    if w.game is None:
        return ""
    board = w.game
    other = board.second_id if board.first_id == w.user_id else board.first_id
    assert other is not None
    where = f" in {markup.channel(board.thread_id)}" if board.thread_id is not None else ""
    if you:
        return (
            f" Your game of this round with {markup.mention(other)} plays on{where}: finish it, "
            "or resign it there if you cannot play."
        )
    return f" Their game of this round with {markup.mention(other)} plays on{where}."


def _last(w: Withdrawal) -> bool:
    return w.tournament.round >= w.tournament.rounds


def _ending(w: Withdrawal) -> str:
    if not w.ends or _last(w):
        return ""
    left = "nobody else" if w.remaining == 0 else "only 1 player"
    return f" With {left} left to pair, the tournament ends when this round is over."


def _results(w: Withdrawal, whose: str, stand: str) -> str:
    """What becomes of a withdrawn player's results: they stand in a Swiss; in a round-robin, by
    the rule on half their games (RULES.md "Round-robin"), counting this round's game."""
    if w.played is None:
        return f"{whose} {stand}"
    played, total = w.played
    left = total - played
    if not kept(played, total + 1):
        games = f"{played} {'game' if played == 1 else 'games'}"
        return f"with {games} of {total} played, fewer than half, {whose} results are struck out for everyone"
    if left == 0:
        return f"{whose} {stand}"
    games = (
        f"{left} {'game' if left == 1 else 'games'} still to be paired {'counts' if left == 1 else 'count'}"
    )
    return f"{whose} {stand}; {whose} {games} as lost by forfeit"


# A knockout's withdrawal (RULES.md "Knockout"): out at once, the round's opponent goes on
_KNOCKOUT_OUT = "goes on by forfeit, whatever the game says"


def _knockout_game(w: Withdrawal, markup: Markup) -> str:
    """A knockout's game of the round, once its player withdrew: rated, deciding nothing."""
    if w.game is None:
        return ""
    other = w.game.second_id if w.game.first_id == w.user_id else w.game.first_id
    assert other is not None
    return (
        f" Your game with {markup.mention(other)} plays on, rated as usual, but no longer decides "
        "who goes on: resign it there if you will not finish it."
    )


def _knockout_question(w: Withdrawal, markup: Markup) -> str:
    game = _knockout_game(w, markup)
    return (
        f"Withdraw from {markup.strong(w.tournament.name)}? It is a knockout: you go out now, and this "
        f"cannot be undone; your opponent of this round {_KNOCKOUT_OUT}.{game}"
    )


def withdraw_question(w: Withdrawal, markup: Markup) -> str:
    """Asked privately before a player withdraws from a running tournament (it cannot be undone)."""
    if is_knockout(w.tournament):
        return _knockout_question(w, markup)
    later = (
        "This is the last round, so nobody is paired again anyway; the standings will show you as withdrawn"
        if _last(w)
        else "You will not be paired in any later round"
    )
    return (
        f"Withdraw from {markup.strong(w.tournament.name)}? {later}, and this cannot be undone; "
        f"{_results(w, 'your', 'results so far stand')}.{_their_game(w, markup, True)}{_ending(w)}"
    )


def withdrawn_text(w: Withdrawal, markup: Markup) -> str:
    """The player's own confirmation, privately."""
    if is_knockout(w.tournament):
        return (
            f"You have withdrawn from {markup.strong(w.tournament.name)}: you are out, and your opponent "
            f"of this round {_KNOCKOUT_OUT}.{_knockout_game(w, markup)}"
        )
    return (
        f"You have withdrawn from {markup.strong(w.tournament.name)}: you will not be paired again."
        f"{_their_game(w, markup, True)}{_ending(w)}"
    )


def withdrawal_notice(w: Withdrawal, by: int | None, markup: Markup) -> str:
    """The channel is told: `by` None when the player withdrew themselves, else the organiser."""
    name, who = markup.strong(w.tournament.name), markup.mention(w.user_id)
    if w.tournament.status is TournamentStatus.SIGNUP:
        assert by is not None
        return f"{markup.mention(by)} took {who} off the sign-up list of {name}."
    head = f"{who} has withdrawn from {name}"
    if by is not None:
        head = f"{markup.mention(by)} removed {who} from {name}"
    if is_knockout(w.tournament):
        return f"{head}: they are out of the knockout, and their opponent of this round {_KNOCKOUT_OUT}."
    game = "; their game of this round plays on" if w.game is not None else ""
    results = _results(w, "their", "results stand")
    return f"{head}: they will not be paired again, and {results}{game}.{_ending(w)}"


def undo_hint(done: Withdrawal, markup: Markup) -> str:
    """Said to the organiser alone after a removal: how to undo it, and until when ('' in the last
    round, where nobody is paired again)."""
    t = done.tournament
    if t.status is TournamentStatus.SIGNUP:  # the removal holds: they cannot sign up again themselves
        return (
            f"Took {markup.mention(done.user_id)} off by mistake? They cannot sign up again themselves; "
            "`/tournament reinstate` puts them back on the list."
        )
    if t.status is not TournamentStatus.RUNNING or t.round >= t.rounds or done.ends or is_knockout(t):
        return ""  # nothing to undo once paired, or in a knockout once begun (RULES.md "Knockout")
    return (
        f"Removed {markup.mention(done.user_id)} by mistake? `/tournament reinstate` puts "
        f"them back until round {t.round + 1} is paired."
    )


__all__ = ["undo_hint", "withdraw_question", "withdrawal_notice", "withdrawn_text"]
