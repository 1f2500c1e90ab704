"""The sweep's notices in words: what a channel is told when a deadline passed (a reminder, the
game's automatic answer, a loss on time, a challenge that expired), each adapter in its own markup."""

from __future__ import annotations

from play.markup import Markup
from play.present import clock_due, recap, status_text, tells_why, told
from play.results import Notice, game_of


def notice_text(notice: Notice, markup: Markup) -> str:
    """What the channel is told of something the sweep did, in the adapter's markup."""
    if notice.kind == "expired":
        m = notice.match  # which challenge, and who may send another
        return (
            f"{markup.mention(m.opponent_id)} did not answer {markup.mention(m.challenger_id)}'s "
            f"challenge to {game_of(m).title} in time, so it has expired; the channel is free for "
            "a new one."
        )
    if notice.kind == "reminder":
        assert notice.user_id is not None and notice.due is not None
        clock = clock_due(notice.match, notice.user_id, "your")
        return f"{markup.mention(notice.user_id)}, your move is due {markup.relative(notice.due)}{clock}."
    if notice.kind == "default" or notice.by_default:
        assert notice.played is not None
        who = " and ".join(markup.mention(u) for u in notice.late)
        # the game's automatic answer, which may have ended the game (as often won as lost by it)
        ended = ", and that ended the game" if notice.by_default else ""
        story = told(notice.played, markup)
        if notice.whole_turn:
            # the turn was theirs alone till now: the channel reads all of it, the default last
            return (
                f"{who} did not finish their turn in time, so the game finished it for them{ended}:\n{story}"
            )
        if ended:
            return f"{who} did not answer in time, so the game answered for them{ended}:\n{story}"
        return f"{who} did not answer in time, so the game answered for them: {notice.played.line}"
    if notice.abandoned:
        said = "Neither player acted in time: the game ends without a winner."
    else:
        assert notice.user_id is not None
        who = markup.mention(notice.user_id)
        said = f"{who} ran out of time and loses the game."
        if notice.clock_out:
            said = f"{who} has no time left on their clock for this game and loses on time."
    if notice.whole_turn and notice.played is not None:
        # the turn was theirs alone till now: its steps stand, and the channel reads them all; the
        # last step is the sweep's own loss on time, which the sentence before has said already
        said += f" The steps of the turn they had begun stand:\n{recap(notice.played.steps[:-1], markup)}"
    return said


def notice_tells_why(notice: Notice, markup: Markup) -> bool:
    """Whether a notice already says why its game ended: a loss on time (or a game nobody acted in)
    in its first sentence, a game its automatic answer ended in its last line; the status under it
    then says only who won."""
    if notice.played is None or notice.played.state.outcome() is None:
        return False
    if notice.kind == "forfeit" and not notice.by_default:
        return True
    return tells_why(notice_text(notice, markup), notice.played.state)


def notice_status(notice: Notice, markup: Markup) -> str:
    """The status under a notice's board: who acts now, or who won (the reason once, see
    `notice_tells_why`)."""
    assert notice.played is not None
    played = notice.played
    return status_text(played.match, played.state, markup, why_told=notice_tells_why(notice, markup))
