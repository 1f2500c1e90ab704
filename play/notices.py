"""The sweep's notices in words: what a channel is told when a deadline passed (a reminder, the
game's automatic answer, a loss on time, a challenge that expired), each adapter in its own markup."""

from __future__ import annotations

from typing import NamedTuple

from play.markup import Markup
from play.news import recap, told
from play.present import clock_due, status_text, tells_why
from play.results import Notice, game_of


class NoticeWords(NamedTuple):
    """A notice in words, and whether those words already say why its game ended (a loss on time in
    the first sentence, the end line of the automatic answer that ended it last): the status under
    it then says only who won (`notice_status`)."""

    text: str
    tells_why: bool


def notice_text(notice: Notice, markup: Markup) -> str:
    """What the channel is told of something the sweep did, in the adapter's markup."""
    return notice_words(notice, markup).text


def notice_words(notice: Notice, markup: Markup) -> NoticeWords:
    """`notice_text`, with whether it says why the game ended, known as it is worded; and, a game
    ended before a late player came, the other player's steps the channel read hidden till then
    (`Notice.secret`: nothing is left to keep them for), told whole after it."""
    words = _words(notice, markup)
    if not notice.secret:
        return words
    player = notice.secret[-1].player_id
    assert player is not None
    steps = recap(notice.secret, markup, notice.match.side_of(player), game=notice.match.game)
    return NoticeWords(
        f"{words.text}\nWhat {markup.mention(player)} had done, hidden until now:\n{steps}", words.tells_why
    )


def _words(notice: Notice, markup: Markup) -> NoticeWords:
    if notice.kind == "expired":
        m = notice.match  # which challenge, and who may send another
        return NoticeWords(
            f"{markup.mention(m.opponent_id)} did not answer {markup.mention(m.challenger_id)}'s "
            f"challenge to {game_of(m).title} in time, so it has expired; the channel is free for "
            "a new one.",
            False,
        )
    if notice.kind == "reminder":
        assert notice.user_id is not None and notice.due is not None
        clock = clock_due(notice.match, notice.user_id, "your")
        return NoticeWords(
            f"{markup.mention(notice.user_id)}, your move in {game_of(notice.match).title} is due "
            f"{markup.deadline(notice.due)}{clock}.",
            False,
        )
    if notice.kind == "default" or notice.by_default:
        assert notice.played is not None
        who = " and ".join(markup.mention(u) for u in notice.late)
        # the game's automatic answer, which may have ended the game (as often won as lost by it)
        ended = ", and that ended the game" if notice.by_default else ""
        story = told(notice.played, markup)
        # the story comes last: it says why when its own last line is the game's end line
        why = bool(ended) and tells_why(story, notice.played.state)
        if notice.whole_turn:
            # the turn was theirs alone till now: the channel reads all of it, the default last
            return NoticeWords(
                f"{who} did not finish their turn in time, so the game finished it for them{ended}:\n{story}",
                why,
            )
        if ended:
            return NoticeWords(
                f"{who} did not answer in time, so the game answered for them{ended}:\n{story}", why
            )
        return NoticeWords(
            f"{who} did not answer in time, so the game answered for them: {notice.played.line}", False
        )
    if notice.kind == "no-show":
        assert notice.user_id is not None and notice.by is not None
        absent = notice.user_id
        other = next(u for u in notice.match.players if u != absent)
        return NoticeWords(
            f"{markup.mention(notice.by)}, an organiser, ended this game: {markup.mention(absent)} has "
            f"made no move in it, so {markup.mention(other)} wins, as on time (rated as a loss on time).",
            True,
        )
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
        steps = recap(notice.played.steps[:-1], markup, game=notice.match.game)
        said += f" The steps of the turn they had begun stand:\n{steps}"
    # a loss on time (or a game nobody acted in) says why in its first sentence
    return NoticeWords(said, notice.played is not None and notice.played.state.outcome() is not None)


def notice_status(notice: Notice, markup: Markup, *, why_told: bool) -> str:
    """The status under a notice's board: who acts now, or who won (`why_told`: the notice's words
    said why already, `NoticeWords.tells_why`, so the reason is not said twice)."""
    assert notice.played is not None
    played = notice.played
    return status_text(played.match, played.state, markup, why_told=why_told)
