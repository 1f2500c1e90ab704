"""What an organiser does to a running tournament besides removing a player (RULES.md "Tournaments":
A no-show, Leaving): end a no-show's game now, and undo a removal made by mistake. A base of
`TournamentService` (which holds the store, the match service and the clock, and finds a channel's
tournament), with the words both adapters post.
"""

from __future__ import annotations

from dataclasses import dataclass

from data.tournaments import Board, Entry, Tournament, TournamentStatus
from play.errors import BadRequest, NotAPlayer
from play.markup import Markup
from play.results import Notice
from play.swiss import DRAW, LOSS, WIN
from play.tournament_base import TournamentParts
from play.tournament_formats import is_knockout
from play.tournament_late import late_open, missed_by_them
from play.tournament_refusals import ORGANISERS_ONLY, closed_text
from play.tournament_round import result_of


@dataclass(frozen=True, slots=True)
class Forfeited:
    """A no-show's game ended by an organiser: `notice` is told in the game's thread."""

    tournament: Tournament
    board: Board
    notice: Notice


@dataclass(frozen=True, slots=True)
class Reinstated:
    """A removal undone: `game` is the player's game of this round (None: a bye, or none, as a
    latecomer's first round), `points` theirs from it if it ended while they were out; `late`: taken
    off the list before the start and put back after it, in as a latecomer from this round's end."""

    tournament: Tournament
    user_id: int
    game: Board | None
    points: float | None
    late: bool = False


class Organising(TournamentParts):
    """`TournamentService`'s organiser tools (it provides the attributes and `open_in`)."""

    async def _running_in(self, channel_id: int, organiser: bool, what: str) -> Tournament:
        tournament = await self.open_in(channel_id)
        if not organiser:
            raise NotAPlayer(ORGANISERS_ONLY.format(what))
        if tournament.status is TournamentStatus.SIGNUP:
            raise BadRequest(
                f"{self.matches.markup.strong(tournament.name)} has not started yet: no game is going on."
            )
        if tournament.status is not TournamentStatus.RUNNING:
            raise BadRequest(closed_text(tournament))
        return tournament

    async def forfeit(self, channel_id: int, absent_id: int, *, organiser: bool, by: int) -> Forfeited:
        """End `absent_id`'s game of the current round now as a loss on time, since they have made
        no move in it (`MatchService.no_show` refuses it otherwise); the tournament's sweep then
        records it, and closes the round if it was its last game."""
        tournament = await self._running_in(channel_id, organiser, "end a no-show's game")
        await self._not_a_rival(
            tournament,
            by,
            "end a player's game as a no-show",
            "its result counts in the standings you play for",
        )
        them, r = self.matches.markup.mention(absent_id), tournament.round
        boards = [b for b in await self.store.tournament_boards(tournament.id) if b.round == r]
        board = next((b for b in boards if absent_id in (b.first_id, b.second_id)), None)
        if board is None:
            raise BadRequest(f"{them} has no game in round {r}: there is nothing to end.")
        if board.second_id is None:
            raise BadRequest(f"{them} has the bye in round {r}: there is no game to end.")
        if board.match_id is None:
            raise BadRequest(f"{them}'s game of round {r} has not begun yet: nobody has had a turn to miss.")
        if board.result is not None or result_of(board, await self.db.get_match(board.match_id)) is not None:
            raise BadRequest(f"{them}'s game of round {r} is over already; its result stands.")
        notice = await self.matches.no_show(board.match_id, absent_id, by)
        return Forfeited(tournament, board, notice)

    async def reinstate(
        self, channel_id: int, user_id: int, *, organiser: bool, by: int | None = None
    ) -> Reinstated:
        """Undo an organiser's removal of `user_id`: before the start, back on the sign-up list with
        the input they first signed up with; after it, while the round it came in is still under
        way, so they missed no pairing: paired again from the next round. What happened meanwhile
        stands. Not by the removed organiser (`by`) themselves, unless the removal was their own."""
        markup = self.matches.markup
        here = await self.open_in(channel_id)
        if organiser and by is not None and by == user_id:
            await self._not_undoing_their_own_removal(here, by)
        if here.status is TournamentStatus.SIGNUP:
            if not organiser:
                raise NotAPlayer(ORGANISERS_ONLY.format("put a removed player back"))
            return await self._back_on_the_list(here, user_id)
        tournament = await self._running_in(channel_id, organiser, "put a removed player back")
        if is_knockout(tournament):  # its bracket was drawn at the start (RULES.md "Knockout")
            raise BadRequest(knockout_reinstate_text(tournament, user_id, markup))
        # the removal read before the list: a reinstate landing between the two reads (the same
        # one, on another shard) shows them back on the list, never neither removed nor in
        removed = await self.store.removed_by(tournament.id, user_id)
        entry = next(
            (e for e in await self.store.tournament_entries(tournament.id) if e.user_id == user_id), None
        )
        if entry is None and removed is not None:
            return await self._back_late(tournament, user_id)
        refusal = reinstate_refusal(entry, user_id, tournament, markup)
        if refusal:
            raise BadRequest(refusal)
        if not await self.store.reinstate_entry(tournament.id, user_id, self.clock()):
            fresh = await self.open_in(channel_id)  # a round was paired meanwhile, or they are back
            entries = await self.store.tournament_entries(fresh.id)
            entry = next((e for e in entries if e.user_id == user_id), None)
            raise BadRequest(
                reinstate_refusal(entry, user_id, fresh, markup)
                or "The tournament changed just now; try again."
            )
        now = await self.open_in(channel_id)
        boards = [b for b in await self.store.tournament_boards(now.id) if b.round == now.round]
        board = next((b for b in boards if user_id in (b.first_id, b.second_id)), None)
        if board is None or board.second_id is None:
            return Reinstated(now, user_id, board, None)
        points = board.result
        if points is None and board.match_id is not None:
            points = result_of(board, await self.db.get_match(board.match_id))
        if points is not None and user_id != board.first_id:
            points = WIN - points
        return Reinstated(now, user_id, board, points)

    async def _not_undoing_their_own_removal(self, tournament: Tournament, by: int) -> None:
        """An organiser who plays, taken off or withdrawn by another organiser, may not put
        themselves back (RULES.md "An organiser who plays"): the removal would be no removal."""
        entry = next((e for e in await self.store.tournament_entries(tournament.id) if e.user_id == by), None)
        taker = await self.store.removed_by(tournament.id, by)
        if taker is None and entry is not None and entry.withdrawn:
            taker = entry.withdrawn_by
        if taker is not None and taker != by:
            raise NotAPlayer(
                f"You cannot put yourself back: {self.matches.markup.mention(taker)} took you off, and "
                "undoing it is for another organiser, or a member who can manage the server."
            )

    async def _back_late(self, tournament: Tournament, user_id: int) -> Reinstated:
        """Taken off the list before the start, put back after it: in as a latecomer would be (the
        rounds missed each a bye without points), on late entry's terms, with their kept input."""
        them, name = self.matches.markup.mention(user_id), self.matches.markup.strong(tournament.name)
        if late_open(tournament):
            rating = (await self.db.player_stats(tournament.guild_id, tournament.game, user_id)).rating
            if await self.store.reinstate_late(tournament.id, user_id, self.clock(), rating) is not None:
                return Reinstated(await self.open_in(tournament.channel_id), user_id, None, None, late=True)
            tournament = await self.open_in(tournament.channel_id)  # a round paired meanwhile?
            entries = await self.store.tournament_entries(tournament.id)  # or put back meanwhile?
            entry = next((e for e in entries if e.user_id == user_id), None)
            if entry is not None:
                markup = self.matches.markup
                refusal = reinstate_refusal(entry, user_id, tournament, markup)
                raise BadRequest(refusal or "The tournament changed just now; try again.")
            if late_open(tournament):
                raise BadRequest("The tournament changed just now; try again.")
        raise BadRequest(
            f"{them} was taken off the sign-up list of {name} before it started, and it is now too "
            f"late to join it: a latecomer may join only while at most half the rounds have begun."
        )

    async def _back_on_the_list(self, tournament: Tournament, user_id: int) -> Reinstated:
        """Before the start: a player an organiser took off the sign-up list goes back on it, their
        kept input theirs again (they signed up themselves once). Refused, saying why, for anyone
        else: a player who left signs up again themselves."""
        them = self.matches.markup.mention(user_id)
        if await self.store.reinstate_signup(tournament.id, user_id, self.clock()):
            return Reinstated(await self.open_in(tournament.channel_id), user_id, None, None)
        fresh = await self.open_in(tournament.channel_id)  # started meanwhile, or they are back?
        if fresh.status is not TournamentStatus.SIGNUP:
            raise BadRequest("The tournament started just now; try again.")
        if any(e.user_id == user_id for e in await self.store.tournament_entries(fresh.id)):
            name = self.matches.markup.strong(fresh.name)  # put back already (another organiser's, too)
            raise BadRequest(f"{them} is on the sign-up list of {name} already, so nothing changed.")
        raise BadRequest(
            f"No organiser took {them} off the sign-up list, so there is nothing to undo; a player who "
            "left (or never signed up) signs up themselves with the Join button or "
            "`/tournament join`."
        )


def knockout_reinstate_text(tournament: Tournament, user_id: int, markup: Markup) -> str:
    """Why nobody is put back into a knockout once it has begun."""
    return (
        f"{markup.strong(tournament.name)} is a knockout and has begun: its bracket was drawn at the start, "
        f"and a removal counted as a loss by forfeit, so {markup.mention(user_id)} cannot be put back. A "
        "removal from a knockout can be undone only before the start."
    )


def reinstate_refusal(entry: Entry | None, user_id: int, tournament: Tournament, markup: Markup) -> str:
    """Why a removal cannot be undone (empty: it can)."""
    them = markup.mention(user_id)
    if entry is None:
        return f"{them} is not playing in this tournament."
    if not entry.withdrawn:
        return f"{them} is still in this tournament: there is no removal to undo."
    if entry.withdrawn_by is None:
        return (
            f"{them} withdrew themselves (or left the server), and a withdrawal cannot be undone; only an "
            "organiser's removal can, until the next round is paired."
        )
    if entry.withdrawn_round != tournament.round:
        when = f" in round {entry.withdrawn_round}" if entry.withdrawn_round else ""
        return (
            f"{them} was removed{when}, and round {tournament.round} has been paired since without them: "
            "a removal can be undone only until the next round is paired."
        )
    return ""


def forfeited_text(done: Forfeited, markup: Markup) -> str:
    """The organiser's own answer: what was done, and where the players were told."""
    notice, board = done.notice, done.board
    assert notice.user_id is not None
    other = next(u for u in notice.match.players if u != notice.user_id)
    where = f" in {markup.channel(board.thread_id)}" if board.thread_id is not None else ""
    return (
        f"{markup.mention(other)} wins their game of round {board.round} against "
        f"{markup.mention(notice.user_id)}, who made no move in it, as on time; both were told{where}. "
        "The round ends as soon as its last game does."
    )


def _their_game(done: Reinstated, markup: Markup) -> str:
    board = done.game
    if board is None:
        return ""
    r = done.tournament.round
    if board.second_id is None:
        return f" Their bye of round {r} stands."
    other = board.second_id if board.first_id == done.user_id else board.first_id
    assert other is not None
    game = f"Their game of round {r} with {markup.mention(other)}"
    if done.points is None:
        where = f" in {markup.channel(board.thread_id)}" if board.thread_id is not None else ""
        return f" {game} plays on{where}."
    said = {WIN: "they won it", DRAW: "it was drawn", LOSS: "they lost it"}.get(done.points, "it ended")
    return f" {game} ended while they were out ({said}), and that result stands."


def reinstated_text(done: Reinstated, by: int, markup: Markup) -> str:
    """The channel is told: who put whom back, from when they are paired, and what they missed."""
    t = done.tournament
    if t.status is TournamentStatus.SIGNUP:
        return (
            f"{markup.mention(by)} put {markup.mention(done.user_id)} back on the sign-up list of "
            f"{markup.strong(t.name)}."
        )
    if done.late:  # taken off before the start: in now as a latecomer
        return (
            f"{markup.mention(by)} put {markup.mention(done.user_id)} back into {markup.strong(t.name)}, "
            f"whose list they had been taken off before the start: they play from round {t.round + 1}, "
            f"and {missed_by_them(t.round)}."
        )
    head = f"{markup.mention(by)} put {markup.mention(done.user_id)} back into {markup.strong(t.name)}"
    if t.round >= t.rounds:
        last = "this is the last round, so nobody is paired again, but they are no longer marked withdrawn"
        return f"{head}: {last}.{_their_game(done, markup)}"
    return f"{head}: they are paired again from round {t.round + 1}.{_their_game(done, markup)}"


__all__ = [
    "Forfeited",
    "Organising",
    "Reinstated",
    "forfeited_text",
    "reinstate_refusal",
    "reinstated_text",
]
