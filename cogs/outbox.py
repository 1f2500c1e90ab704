"""The board outbox: each move's board drawn and posted in order, and what is owed after a crash."""

from __future__ import annotations

import io
import logging
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

import discord

from cogs import _views as views
from cogs import limits
from cogs._format import DISCORD, groups_with_actions
from cogs._release import unlink_when_done
from cogs._tap import tapped
from data import Match
from engine.protocol import Choice, Event, State
from play import Played
from play.ai_turns import answering_draw
from play.fairness import commitment_text
from play.news import capital
from play.news import told as story
from play.present import (
    ended_meanwhile_text,
    played_text,
    private_text,
    status_text,
    terms_text,
)
from play.ratings import level_label
from play.results import declines_now
from play.service import game_of, waiting_ids
from play.stamps import stamp
from play.undo import MID_TURN_NOTE, may_take_back
from render import seen

if TYPE_CHECKING:
    pass

from cogs.messages import Messages
from cogs.room import (
    MESSAGE_LIMIT,
    NO_PICTURE,
    OWED_AFTER,
    log,
    reply,
)

# How many of a channel's latest messages the outbox reads to find a board already posted there
# (`Outbox.shown_in`): an owed board is the newest of its game, so it is among the last few.
LOOK_BACK = 20
# Who tells a game's start owed since a crash, when it is not the core's to tell (`Outbox.start_tellers`).
StartTeller = Callable[[Match], Awaitable[bool]]
# What else a board with a draw offer standing says of what the draw would mean (`Outbox.draw_notes`):
# a knockout's game names whom it sends on.
DrawNote = Callable[[Match], Awaitable[str | None]]

EXPIRED = (
    "your `{}` was played, though Discord gave up waiting for my answer. It is still your turn: "
    "the `board` command shows you your position, for you alone"
)


def start_owed_text(within: float) -> str:
    """What the player who started a game reads when its first board could not be posted: the game
    has begun (it is stored), and the board follows once the outbox's sweep finds it owed, `within`
    seconds at the latest."""
    minutes = max(1, math.ceil(within / 60))
    return (
        f"The game has begun, but I could not post its board just now. It will appear in this channel "
        f"within {minutes} minute{'' if minutes == 1 else 's'}, pinging whoever is to move; until then, "
        "the `board` command shows you the position."
    )


def draw_note(answering: Sequence[int], *, declines: bool = True) -> str:
    """The line under a board with a draw offer standing: whose answer it is, and how to give it. An
    answerer who is not on turn may accept now but decline only on their own turn (RULES.md,
    "Resign and draws"): the board then offers Accept alone and says when Decline comes."""
    who = " and ".join(f"<@{user}>" for user in answering)
    if declines:
        return f"{who}: accept or decline the draw with the buttons (or the `draw` command)."
    return (
        f"{who}: accept the draw with the button (or the `draw` command), or decline it once it is your turn."
    )


def nothing_to_pick(match: Match, state: State, seen_by: str | None) -> bool:
    """Whether Take action would only answer that nothing can act alone (the other buttons end the
    phase): on a phone a button that always refuses is a dead end, so the board leaves it off. Read
    from what the board's readers may know: on a board for one side alone (`seen_by`), that side's
    own hand; on the channel's, only in a game without secrets, since whether a hidden hand holds
    a playable card is not the channel's to learn."""
    rules = game_of(match)
    if seen_by is None and rules.private_info:
        return False
    sides = sorted(state.to_act()) if seen_by is None else [seen_by]
    if not set(sides) <= state.to_act():
        return False
    return not any(groups_with_actions(rules, state.view(s), state.legal_actions(s)) for s in sides)


def pinged(shown: Played) -> discord.AllowedMentions:
    """Whom a board posted in the channel notifies: those who owe an action now (its first line,
    `turn_ping`, names them and their opponent, who is not notified of their own move) and those
    who must answer a draw offer; everyone it names once the game is over (who won)."""
    if shown.over:
        return discord.AllowedMentions(users=True)
    users = {*shown.waiting, *answering_draw(shown)}
    return discord.AllowedMentions(users=[discord.Object(u) for u in sorted(users)])


def start_headline(match: Match) -> str:
    """The first words of a game's first board: a challenge accepted, or a game against the AI at
    its level, with the optional rules it was set up with."""
    rules = game_of(match)
    if match.ai_player_id is not None:
        level = level_label(rules, match.ai_level or rules.ai.default)
        return f"A game of {rules.title} against the AI ({level}).{terms_text(rules, match.options)}"
    return f"{rules.title}: challenge accepted."


def carries(message: discord.Message, match: Match, version: int) -> bool:
    """Whether `message` is the channel's board of `match` at `version`: a button or select of it
    carries the match and that version's stamp (cogs/_views.py: `bw:<kind>:<match>:<stamp>...`),
    or, for the board that ended the game, its look-back button."""
    wanted = stamp(match, version)
    over = not match.status.is_open and version == match.version
    for row in message.components:
        for item in getattr(row, "children", [row]):
            parts = (getattr(item, "custom_id", None) or "").split(":")
            if len(parts) >= 4 and parts[2] == str(match.id) and parts[3] == wanted:
                return True
            if over and parts[:3] == ["bw", "review", str(match.id)]:
                return True
    return False


class ChannelBoard(NamedTuple):
    """A board as the channel may see it (`Outbox.channel_board`)."""

    match: Match  # the row the channel saw: its buttons carry that version
    state: State
    events: Sequence[Event]  # the stretch that led to it, for its highlights
    note: str  # who must answer a draw offer standing on it ("" when none)
    view: discord.ui.View | None


class Outbox(Messages):
    """Boards: drawn, posted after a move (acknowledged first), and those owed posted again."""

    if TYPE_CHECKING:
        # who tells a game's start owed since a crash instead of the core: each says whether the
        # game is theirs (a tournament's, in its thread), and tells it if so (set in `Core`)
        start_tellers: list[StartTeller]
        # what a draw would mean in a game that is not only the game's (a knockout's tie), said under
        # a board with a draw offer standing (set in `Core`)
        draw_notes: list[DrawNote]
        # the owed boards whose post failed already (warned of once, then logged quietly)
        _undeliverable: set[tuple[int, int]]
        # games whose first board (the one with the dice's commitment) could not be posted: the
        # next board posted carries the commitment instead
        _unshown_starts: set[int]

        def after_action(
            self, played: Played, stretch: Played | None = None, *, actor_told: bool = True
        ) -> None: ...

        def schedule_ai(self, channel_id: int) -> None: ...

    async def render(
        self,
        match: Match,
        state: State,
        events: Sequence[Event],
        overlay: str | None = None,
        viewer: str | None = None,
    ) -> discord.File:
        """The board of `state` as `viewer` (None: the channel) may see it, as an upload."""
        png = await self.painter.board(match.game, state.view(viewer), seen(events, viewer), overlay)
        file = discord.File(io.BytesIO(png), filename="board.png")
        unlink_when_done(file)
        return file

    def board_components(
        self,
        match: Match,
        state: State,
        *,
        draw_offer: bool = False,
        decline: bool = True,
        seen_by: str | None = None,
    ) -> discord.ui.View | None:
        """The game's menu under a board (built from what the channel may see), and "My hand"; after
        a draw offer, the answers to it first (Decline only if `decline`: see `answerable`). A board
        only the side `seen_by` sees may drop Take action where its own hand leaves nothing to pick."""
        rules = game_of(match)
        if state.is_over() or not match.status.is_open:
            # A finished game offers each player a private look back at their own choices.
            return views.review_view(match.id) if state.is_over() else None
        menu = rules.menu(state.view(None))
        if menu.take_action and nothing_to_pick(match, state, seen_by):
            menu = replace(menu, take_action=False)
        if draw_offer:
            answers: tuple[Choice, ...] = (Choice("Accept the draw", "accept draw", style="success"),)
            if decline:
                answers += (Choice("Decline the draw", "decline draw"),)
            menu = replace(menu, buttons=(*answers, *menu.buttons)[: limits.BUTTONS_PER_ROW])
        return views.menu_view(match.id, stamp(match), menu, hand=rules.private_info)

    async def answerable(
        self, shown: Played | None, match: Match, state: State, *, seen_by: str | None = None
    ) -> tuple[str, discord.ui.View | None]:
        """The line under a board naming who must answer a draw offer standing after the stretch
        `shown` ("" when none stands), and the board's buttons, the answers first: the one path of
        every board a channel sees (a move's, the sweep's, one owed after a crash, `board`, a
        tournament's first). `shown` is what the channel saw (None: nothing yet), never a private
        turn's unfinished steps. Decline shows only where it would go through now (`declines_now`,
        read from that same position, so the buttons are the same before and after a private step
        of the player on turn): a button that always refuses is no answer. `draw_notes` add what the
        draw would mean beyond the game (a knockout's higher seed goes on)."""
        answering = answering_draw(shown) if shown is not None else []
        if not answering:
            return "", self.board_components(match, state, seen_by=seen_by)
        declines = any(declines_now(match, state, user) for user in answering)
        note = " ".join(
            [draw_note(answering, declines=declines), *[n for n in await self._draw_notes(match) if n]]
        )
        return note, self.board_components(match, state, draw_offer=True, decline=declines, seen_by=seen_by)

    async def _draw_notes(self, match: Match) -> list[str | None]:
        return [await note(match) for note in self.draw_notes]

    async def channel_board(self, match: Match, state: State) -> ChannelBoard:
        """The board of `match` (at `state`) the channel may see, again (`board`, a tournament's
        first post after a restart): while a turn is still its player's alone, the position before
        its first step, whose buttons carry that board's version, so a click on them is refused as
        out of date, never applied; nothing of the steps shows, nor whether there are any."""
        private = await self.service.channel_view(match)
        if private is not None:
            stretch: Played | None = private.seen
            match, state = private.seen.match, private.seen.state
        else:
            stretch = await self.service.latest_stretch(match)
        note, view = await self.answerable(stretch, match, state)
        return ChannelBoard(match, state, stretch.events if stretch is not None else [], note, view)

    async def post_played(self, interaction: discord.Interaction, played: Played) -> None:
        """After an action: acknowledge it ("thinking…"), then hand its board to a background job.

        The interaction's handling ends here. Under load most boards wait for a posting slot, and
        a waiting board now holds only the follow-up webhook and the game, not the interaction
        and its handlers' frames: every object alive is walked by each full pass of the garbage
        collector, which stops the event loop (docs/reliability.md)."""
        assert interaction.channel_id is not None
        if played.secret:
            # Nothing the channel may see happened: the mover alone is told, and no board is owed.
            side = played.match.side_of(played.actor_id)
            said = played.private.get(side, "") if side else ""
            await reply(interaction, f"Only you see this: {said or 'done'}.")
            await self.service.board_delivered(played.match.id, played.match.version)
            self.after_action(played)
            return
        # the job needs the row's fields, not its snapshot (a JSON tree: the state is the position)
        lean = replace(played, match=replace(played.match, snapshot=None))
        if played.mid_turn:
            # The turn stays with the mover: their answer is private, the channel waits for the
            # hand-off's board (a step they take back is never shown to anyone else).
            if not interaction.response.is_done():
                try:
                    await interaction.response.defer(ephemeral=True, thinking=True)
                except discord.NotFound:
                    # Discord gave up waiting (over 3 s under load): the step is stored; the player
                    # hears so by DM, and the channel still waits for the hand-off.
                    log.warning("Interaction %s expired; telling its step by DM", interaction.id)
                    told = EXPIRED.format(played.notation)
                    await self.dm(played.actor_id, private_text(played.match, told, DISCORD))
                    self.after_action(played)
                    return
            self.spawn(self.post_private(lean, interaction.followup), "bw-board")
            self.after_action(played)
            return
        if not interaction.response.is_done():
            try:
                await interaction.response.defer(thinking=True)
            except discord.NotFound:
                # Discord gave up waiting (over 3 s under load): the move is stored, so the board
                # goes to the channel instead of the players never seeing it.
                log.warning("Interaction %s expired; posting its board to the channel", interaction.id)
                self.spawn(self.post_board(interaction.channel_id, lean), "bw-board")
                return
        self.spawn(self.post_board(interaction.channel_id, lean, followup=interaction.followup), "bw-board")

    async def post_private(self, played: Played, followup: discord.Webhook) -> None:
        """The answer to a step of a turn its player goes on with (`Played.mid_turn`): their board,
        the words, what they alone learnt and the Undo button, for them alone. The channel is owed
        nothing yet: the board at the hand-off draws the whole turn."""
        side = played.match.side_of(played.actor_id)
        secret = played.private.get(side) if side else None
        if secret and side and secret.lower() in story(played, DISCORD, side).lower():
            secret = None  # the story, told as this side saw it, names it already (the cards drawn)
        # the note says already that this is theirs alone: the secret follows it, not said twice
        head = f"{MID_TURN_NOTE}\n" + (f"{capital(secret)}.\n" if secret else "")
        try:
            async with self._posting:
                text, file, view = await self.board_message(played, head=head, seen_by=side)
                await followup.send(text, file=file, view=view, ephemeral=True)
        except (discord.NotFound, discord.Forbidden) as exc:
            # The interaction's token expired: the step is stored; the player's next command (or
            # `board`, privately) shows it, and the channel still sees the turn at the hand-off.
            log.warning("Could not answer a step of match %s privately: %s", played.match.id, exc)

    async def board_message(
        self, played: Played, *, head: str = "", tail: str = "", seen_by: str | None = None
    ) -> tuple[str, Any, Any]:
        """Text, picture and buttons after a move (`seen_by`: the one side this board is for). The
        move is stored by now, so if the picture cannot be drawn the players still get the words and
        the buttons, not an apology that would wrongly say nothing happened."""
        # the offer read from the game, however it was made
        note, components = await self.answerable(played, played.match, played.state, seen_by=seen_by)
        last = played.steps[-1].notation if played.steps else played.notation
        if (
            not played.hands_off
            and played.actor_id not in (0, played.match.ai_player_id)
            and may_take_back(game_of(played.match), last)
        ):
            # the answer to a player's own step of a turn they go on with: they may take it back
            # (not a word about a draw: an Undo that always refuses is a dead end)
            components = views.with_undo(components, played.match.id, stamp(played.match))
        view = components or discord.utils.MISSING
        note = "\n" + note if note else ""
        # room for the words, the notes around them and the apology that may follow
        room = MESSAGE_LIMIT - len(head) - len(note) - len(tail) - len(NO_PICTURE) - 1
        # the status names the buttons of this very message (cogs/_tap.py), the story stays as told
        words = partial(tapped, played.match, view=components)
        text = head + played_text(played, DISCORD, limit=room, words=words, viewer=seen_by) + note + tail
        try:
            file = await self.render(played.match, played.state, played.events)
        except Exception:
            log.exception("Could not draw the board of match %s", played.match.id)
            return f"{text}\n{NO_PICTURE}", discord.utils.MISSING, view
        return text, file, view

    async def post_board(
        self, channel_id: int, played: Played, *, followup: discord.Webhook | None = None, after: bool = True
    ) -> None:
        """Post a move's board: as the answer to its deferred interaction (`followup`), else in the
        channel (the AI's moves, boards of expired interactions). With `after`, what follows the
        move (the AI's answer, a DM) happens even if the post fails, since the move is stored.
        What only the mover learnt (a drawn card) follows privately, through their follow-up (by DM
        when there is none). At a hand-off the board shows the whole stretch (`MatchService.stretch`)."""
        shown = played
        try:
            # At a hand-off the board shows the whole stretch since the players now waiting last acted.
            shown = await self.service.stretch(played) if played.hands_off else played
            target = followup or await self.channel(channel_id)
            if target is None:
                return
            seal_line, seal = await self.seal_for(played.match)  # a game over seals the next one here
            pings = pinged(shown)  # the players to move, never the mover (the first line names them)
            if played.match.id in self._unshown_starts:  # the game's first board never came, nor
                # its dice's commitment: this board shows it
                seal_line = f"\n{commitment_text(played.match, DISCORD)}{seal_line}"
            async with self._posting:
                text, file, view = await self.board_message(shown, tail=seal_line)
                try:
                    sent: object
                    if isinstance(target, discord.Webhook):  # its interaction's answer: no nonce there
                        # (an interaction's follow-up always waits for its message: discord.py)
                        sent = await target.send(
                            text, file=file, view=view, allowed_mentions=pinged(shown), wait=True
                        )
                    else:  # the channel's, as `deliver_owed` would post it after a crash
                        sent = await target.send(
                            text,
                            file=file,
                            view=view,
                            allowed_mentions=pinged(shown),
                            nonce=limits.board_nonce(played.match.id, played.match.version),
                        )
                except discord.NotFound:
                    channel = await self.channel(channel_id) if followup is not None else None
                    if channel is None:
                        raise
                    # The interaction's token expired (after 15 minutes): the channel gets the board.
                    followup = None
                    text, file, view = await self.board_message(shown, tail=seal_line)
                    sent = await channel.send(
                        text,
                        file=file,
                        view=view,
                        allowed_mentions=pings,
                        nonce=limits.board_nonce(played.match.id, played.match.version),
                    )
            await self.sealed(seal, sent)
            self._unshown_starts.discard(played.match.id)
            await self.service.board_delivered(played.match.id, played.match.version)
            side = played.match.side_of(played.actor_id)
            secret = played.private.get(side) if side else None
            if followup is not None and secret:
                await followup.send(f"Only you see this: {secret}.", ephemeral=True)
            elif secret and played.actor_id != played.match.ai_player_id:
                await self.dm(played.actor_id, private_text(played.match, secret, DISCORD))
        except (discord.NotFound, discord.Forbidden) as exc:
            log.warning("Could not post a board in channel %s (deleted or hidden): %s", channel_id, exc)
            await self.service.board_delivered(played.match.id, played.match.version)  # nowhere to send
        finally:
            if after:
                self.after_action(played, shown)

    async def post_ended(self, channel_id: int, played: Played, final: Match, state: State | None) -> None:
        """The board of what was stored just before the game ended under the job posting it (the
        AI's actions, when its opponent resigned while it thought): the channel sees every stored
        action, said to come before the end, with no buttons, since the game is over."""
        try:
            channel = await self.channel(channel_id)
            if channel is not None:
                async with self._posting:
                    file = await self.render(played.match, played.state, played.events)
                    await channel.send(
                        ended_meanwhile_text(played, final, state, DISCORD, MESSAGE_LIMIT), file=file
                    )
        except (discord.NotFound, discord.Forbidden) as exc:
            log.warning("Could not post a board in channel %s (deleted or hidden): %s", channel_id, exc)
        await self.service.board_delivered(played.match.id, played.match.version)

    async def start_message(self, match: Match) -> tuple[str, discord.File, discord.ui.View | None]:
        """A game's first board (`match` as started): who plays which side, the dice's commitment,
        whose move it is, the picture and the buttons for whoever acts first."""
        assert match.snapshot is not None
        rules = game_of(match)
        state = rules.from_json(match.snapshot)
        sides = ", ".join(f"{rules.side(side).title}: <@{uid}>" for side, uid in sorted(match.sides.items()))
        file = await self.render(match, state, [])
        view = self.board_components(match, state)
        status = tapped(match, status_text(match, state, DISCORD), view)
        head = f"{start_headline(match)} {sides}."
        return f"{head}\n{commitment_text(match, DISCORD)}\n{status}".replace("\n\n", "\n"), file, view

    async def post_start(self, interaction: discord.Interaction, match: Match) -> None:
        """The first board of a game, as the answer to the interaction that started it (the channel's,
        with its nonce, if Discord gave up waiting); then the AI's first move if it is the AI's.
        Owed since the start was stored (`start_match`): recorded as posted once it is. A post that
        fails otherwise (Discord refuses it, the picture cannot be drawn) leaves the board owed, and
        the player is told the game has begun and when its board comes, not that nothing changed."""
        try:
            try:
                await self._send_start(interaction, match)
            except Exception as exc:
                # the game is stored and its board owed: the outbox posts it (`deliver_owed`)
                refused = isinstance(exc, discord.HTTPException)  # Discord's refusal; else a bug of ours
                log.log(
                    logging.WARNING if refused else logging.ERROR,
                    "The first board of game %s could not be posted in channel %s; it stays owed",
                    match.id,
                    match.channel_id,
                    exc_info=exc,
                )
                self._unshown_starts.add(match.id)  # until a board of this game is posted
                await self.tell_start_owed(interaction)
                return
            await self.service.board_delivered(match.id, match.version)
        finally:
            # the game is stored: the AI plays its first move even if its board could not be posted
            # (that board stays owed, and the outbox posts it)
            ai, snapshot = match.ai_player_id, match.snapshot
            waiting = waiting_ids(match, game_of(match).from_json(snapshot)) if snapshot is not None else []
            if ai is not None and ai in waiting:
                self.schedule_ai(match.channel_id)

    async def _send_start(self, interaction: discord.Interaction, match: Match) -> None:
        """Send a game's first board: the interaction's follow-up, or the channel once its token ran out."""
        if not interaction.response.is_done():
            await interaction.response.defer(thinking=True)
        text, file, view = await self.start_message(match)
        try:
            await interaction.followup.send(text, file=file, view=view or discord.utils.MISSING)
        except discord.NotFound:
            # The interaction's token expired: the board goes to the channel, as after a crash.
            channel = await self.channel(match.channel_id)
            if channel is None:
                raise
            await self._start_in(channel, match)

    async def _start_in(self, channel: Any, match: Match) -> None:
        """A game's first board posted to its channel, with the nonce that makes a second try within
        Discord's window the first post (after a crash, or a token that ran out)."""
        text, file, view = await self.start_message(match)
        await channel.send(
            text,
            file=file,
            view=view or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions(users=True),
            nonce=limits.start_nonce(match.id),
        )

    async def tell_start_owed(self, interaction: discord.Interaction) -> None:
        """Tell the player whose challenge started a game that its first board is late, and by when
        the outbox posts it: owed for `OWED_AFTER` seconds, then at the next sweep."""
        try:
            await reply(interaction, start_owed_text(OWED_AFTER + self.settings.sweep_seconds))
        except discord.HTTPException:
            log.warning("Could not tell the players their game's board comes later", exc_info=True)

    async def shown_in(self, channel: Any, match: Match, version: int) -> discord.Message | None:
        """The bot's board of `match` at `version` among the channel's latest messages (its buttons
        carry that version's stamp: `carries`), if there. A board answered through an interaction's
        follow-up (a webhook: no nonce) and cut off by a crash before it was recorded is there
        already; posted again, it would show twice. A channel whose history the bot may not read
        has none: the board is posted (at least once)."""
        me = self.bot.user
        if me is None or not hasattr(channel, "history"):
            return None
        try:
            async for message in channel.history(limit=LOOK_BACK):
                if message.author.id == me.id and carries(message, match, version):
                    return message
        except discord.HTTPException as exc:
            log.info("Could not read channel %s for a board already posted: %s", channel.id, exc)
        return None

    async def post_owed_start(self, channel: Any, match: Match) -> bool:
        """Post a game's first board owed since a crash between its start and that board, once (its
        nonce); False if it was not posted here (a teller of `start_tellers` took it: a tournament's
        game, whose first message is the tournament's)."""
        for teller in self.start_tellers:
            if await teller(match):
                return False
        if await self.shown_in(channel, match, match.version) is not None:
            await self.service.board_delivered(match.id, match.version)  # posted: its record was cut off
            return False
        await self._start_in(channel, match)
        self._unshown_starts.discard(match.id)
        await self.service.board_delivered(match.id, match.version)
        return True

    async def deliver_owed(self, older_than: float, *, starts_only: bool = False) -> int:
        """Post the boards owed to channels (a crash between a move, or a game's start, and its board),
        newest per game; returns how many were posted. At least once: a board may come twice, never
        not at all; one already in the channel's latest messages (`shown_in`) is not posted
        again. `starts_only`: only games' first boards, owed where nothing has been played yet."""
        posted = 0
        for match_id, version, channel_id in await self.service.owed_boards(older_than):
            try:
                posted += await self._deliver(match_id, version, channel_id, starts_only)
            except Exception as exc:  # one board that cannot be posted must not hold up the others
                key = (match_id, version)
                level = logging.DEBUG if key in self._undeliverable else logging.WARNING
                self._undeliverable.add(key)
                log.log(
                    level,
                    "Board %s of game %s cannot be posted yet; it stays owed",
                    version,
                    match_id,
                    exc_info=exc,
                )
        if posted:
            log.info("Posted %d board(s) owed since before a restart or a failed post", posted)
        return posted

    async def _deliver(self, match_id: int, version: int, channel_id: int, starts_only: bool) -> int:
        """One owed board of `deliver_owed`: 1 if it was posted now, 0 if it needed no post."""
        if self._ai_busy[channel_id]:
            return 0  # the AI is playing there: its board will show its whole stretch
        match = await self.service.match(match_id)
        stretch: Played | None = None
        if match.version != version and match.snapshot is not None:
            # The game moved on: the newer move owes (or has posted) its own board, unless the
            # moves since are steps of a turn still private (`Played.mid_turn`): then the
            # channel has not seen this version's board, and it is still owed.
            private = await self.service.channel_view(match)
            if private is not None and private.seen.match.version == version:
                stretch = private.seen
        if (match.version != version and stretch is None) or match.snapshot is None:
            await self.service.board_delivered(match_id, version)
            return 0
        if stretch is None:
            stretch = await self.service.latest_stretch(match)
        if starts_only and stretch is not None:
            return 0
        if stretch is None and not match.status.is_open:
            await self.service.board_delivered(match_id, version)
            return 0
        channel = await self.channel(channel_id)
        if channel is None:
            await self.service.board_delivered(match_id, version)
            return 0
        if stretch is None:
            # Nothing played yet: the game's first board, cut off between the start and its post.
            return int(await self.post_owed_start(channel, match))
        if await self.shown_in(channel, match, version) is not None:
            await self.service.board_delivered(match_id, version)  # posted: its record was cut off
            return 0
        file = await self.render(match, stretch.state, stretch.events)
        note, view = await self.answerable(stretch, stretch.match, stretch.state)  # as it would have been
        note = "\n" + note if note else ""
        seal_line, seal = await self.seal_for(stretch.match)  # the game's end, owed since a crash
        words = partial(tapped, stretch.match, view=view)
        room = MESSAGE_LIMIT - len(note) - len(seal_line)
        sent = await channel.send(
            played_text(stretch, DISCORD, room, words=words) + note + seal_line,
            file=file,
            view=view or discord.utils.MISSING,
            allowed_mentions=pinged(stretch),
            nonce=limits.board_nonce(match_id, version),  # posted before the crash: that post
        )
        await self.sealed(seal, sent)
        await self.service.board_delivered(match_id, version)
        return 1
