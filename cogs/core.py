"""The core cog: every game's commands, buttons and selects, a thin adapter over `play.MatchService`.

It owns what no game has to itself: the deadline sweep, the one error handler, posting boards, the
AI's turns, DMs, stats, cancel and admin. Each hosted game's `/group` is built from the game's
specification by `cogs.groups` and calls back into this cog. Every move goes through
`service.act`, which checks players, turn, version and legality; this module only parses Discord
input, posts the board after each action and turns refusals into ephemeral replies.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs import _format as fmt
from cogs import _views as views
from cogs._release import unlink_when_done
from cogs.groups import build_group, build_wargames
from data import Match, Status, StoreUnavailable
from engine import registry
from engine.errors import IllegalAction, InvalidNotation
from engine.protocol import Choice, Event, Game, State, Verb
from play import BadRequest, MatchService, Notice, Played, ServiceError
from play.listings import (
    ai_stats_text,
    away_notice,
    away_text,
    back_notice,
    back_text,
    games_text,
    leaderboard_text,
    my_games_text,
    review_text,
    stats_text,
)
from play.present import (
    chosen_side_text,
    ended_meanwhile_text,
    fitted,
    history_text,
    notice_text,
    played_text,
    private_text,
    rules_text,
    standing_actions,
    status_text,
    terms_text,
    turn_dm_text,
)
from play.ratings import level_label
from play.service import game_of, is_current, merged, waiting_ids
from render import seen

if TYPE_CHECKING:
    from render.workers import Painter
    from settings import Settings

log = logging.getLogger("bot.core")

APOLOGY = "Sorry, something went wrong; the game is unchanged."
TRY_AGAIN = (
    "The bot cannot reach its database just now (it may be restarting). Try again in a moment: "
    "if your move did get through, the game will say so."
)
STALE = "This prompt is out of date: the game has moved on. Use the newest board."
NO_PICTURE = "(The board picture could not be drawn this time; the `board` command draws it again.)"
DMS_CLOSED = (
    "<@{user}>, I could not send you a direct message with what you were dealt (are your DMs "
    "closed?): the **My hand** button shows your hand."
)
REVIEW_BOARD_WIDTH = 480  # a look back's boards: three small ones, readable on a phone
MESSAGE_LIMIT = 2000  # Discord's longest message
OWED_AFTER = 120.0  # seconds after which a board still owed is taken as lost and posted by the sweep


def _alternatives(legal: list[str]) -> str:
    if not legal:
        return ""
    shown = ", ".join(f"`{a}`" for a in legal[:8])
    more = f" and {len(legal) - 8} more" if len(legal) > 8 else ""
    return f"\nYou could play: {shown}{more}."


def friendly(error: BaseException) -> str | None:
    """The text for a refusal a player may see, or None if this is a bug."""
    if isinstance(error, ServiceError):
        return error.message + _alternatives(error.legal)
    if isinstance(error, StoreUnavailable):
        log.warning("The database did not answer: %s", error)
        return TRY_AGAIN
    if isinstance(error, IllegalAction):
        return str(error) + _alternatives(list(getattr(error, "legal", []) or []))
    if isinstance(error, InvalidNotation):
        return f"{error} The `rules` command explains the notation."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You cannot use this command here."
    return None


async def reply(interaction: discord.Interaction, text: str, *, ephemeral: bool = True) -> None:
    """Answer whether or not the interaction was already answered or deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral)


def _check_game(match: Match, game: str | None) -> None:
    """A game's commands act on a match of that game: another game's command in this channel is
    refused with a pointer to the right commands."""
    if game is not None and match.game != game:
        rules = game_of(match)
        raise BadRequest(f"This channel's game is {rules.title}: use the `/{rules.name}` commands.")


class Core(commands.Cog):
    """Slash commands of every game, component callbacks, the sweep loop and the AI's turns."""

    def __init__(
        self,
        bot: commands.Bot,
        service: MatchService,
        painter: Painter,
        settings: Settings,
        sync_tree: Callable[[], Awaitable[Sequence[app_commands.AppCommand]]],
    ) -> None:
        """The bot's services come in here: this package imports nothing from bot.py."""
        self.bot = bot
        self.service = service
        self.painter = painter
        self.settings = settings
        self.sync_tree = sync_tree
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ai_locks: dict[int, asyncio.Lock] = {}
        self._ai_busy: Counter[int] = Counter()  # channels where an AI turn is scheduled or running
        # Drawing and uploading boards, the heavy part of a move, runs a few at a time: moves
        # are acknowledged first, and the boards follow in order (docs/reliability.md).
        self._posting = asyncio.Semaphore(settings.posting_slots)
        self.sweeper = tasks.loop(seconds=settings.sweep_seconds)(self._sweep_tick)
        self.sweeper.before_loop(self._before_sweep)
        self.game_groups = [build_wargames(self), *(build_group(self, game) for game in registry.games())]
        super().__init__()

    # ------------------------------------------------------------------ life cycle

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*views.DYNAMIC_ITEMS)
        for group in self.game_groups:
            self.bot.tree.add_command(group)
        self._previous_error = self.bot.tree.on_error
        self.bot.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        self.sweeper.start()

    async def cog_unload(self) -> None:
        self.sweeper.cancel()
        for group in self.game_groups:
            self.bot.tree.remove_command(group.name)
        self.bot.tree.on_error = self._previous_error  # type: ignore[method-assign]
        for task in list(self._tasks):
            task.cancel()

    async def _before_sweep(self) -> None:
        await self.bot.wait_until_ready()
        await self.resume_ai_games()  # first: an AI turn cut short posts its whole stretch itself
        await self.deliver_owed(older_than=0.0)  # nothing is in flight yet: all that is owed is lost

    async def _sweep_tick(self) -> None:
        try:
            await self.run_sweep()
            await self.deliver_owed(older_than=OWED_AFTER)
        except StoreUnavailable as exc:
            log.warning("The deadline sweep could not reach the database (%s); it will run again", exc)
        except Exception:
            log.exception("The deadline sweep failed; it will run again")

    async def deliver_owed(self, older_than: float) -> int:
        """Post the boards owed to channels (a crash between a move and its board), newest per game;
        returns how many were posted. At least once: a board may come twice, never not at all."""
        posted = 0
        for match_id, version, channel_id in await self.service.owed_boards(older_than):
            if self._ai_busy[channel_id]:
                continue  # the AI is playing there: its board will show its whole stretch
            match = await self.service.match(match_id)
            if match.version != version or match.snapshot is None:
                # the game moved on: the newer move owes (or has posted) its own board
                await self.service.board_delivered(match_id, version)
                continue
            channel = await self.channel(channel_id)
            if channel is None:
                await self.service.board_delivered(match_id, version)
                continue
            stretch = await self.service.latest_stretch(match)
            if stretch is None:
                await self.service.board_delivered(match_id, version)
                continue
            file = await self.render(match, stretch.state, stretch.events)
            await channel.send(
                played_text(stretch, MESSAGE_LIMIT),
                file=file,
                view=self.board_components(match, stretch.state) or discord.utils.MISSING,
            )
            await self.service.board_delivered(match_id, version)
            posted += 1
        if posted:
            log.info("Posted %d board(s) owed since before a restart or a failed post", posted)
        return posted

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Background work whose failures are logged, never lost."""
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self._tasks.discard(t)
            if t.cancelled() or t.exception() is None:
                return
            if isinstance(t.exception(), StoreUnavailable):  # what is owed is posted by a later sweep
                log.warning("Background task %s: the database did not answer: %s", name, t.exception())
            else:
                log.error("Background task %s failed", name, exc_info=t.exception())

        task.add_done_callback(done)
        return task

    async def idle(self) -> None:
        """Wait for background work (AI turns, DMs) to finish: for tests and shutdown."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # ------------------------------------------------------------------ errors

    async def on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await self.report(interaction, original)

    async def report(self, interaction: discord.Interaction, error: BaseException) -> None:
        """The one place errors end: refusals become friendly text, bugs are logged and apologised for."""
        text = friendly(error)
        if text is None:
            data: dict[str, Any] = dict(interaction.data or {})
            where = interaction.command.qualified_name if interaction.command else data.get("custom_id", "?")
            log.error("Unexpected error in %s (channel %s)", where, interaction.channel_id, exc_info=error)
            text = APOLOGY
        try:
            await reply(interaction, text)
        except discord.HTTPException:
            log.warning("Could not tell the user about an error", exc_info=True)

    async def guarded(self, interaction: discord.Interaction, work: Awaitable[None]) -> None:
        """The wrapper for component callbacks, so they share the command error handling."""
        try:
            await work
        except Exception as error:
            await self.report(interaction, error)

    # ------------------------------------------------------------------ posting

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
        self, match: Match, state: State, *, draw_offer: bool = False
    ) -> discord.ui.View | None:
        """The game's menu under a board (built from what the channel may see), and "My hand"; after
        a draw offer, the answers to it first."""
        rules = game_of(match)
        if state.is_over() or not match.status.is_open:
            # A finished game offers each player a private look back at their own choices.
            return views.review_view(match.id) if state.is_over() else None
        menu = rules.menu(state.view(None))
        if draw_offer:
            answers = (
                Choice("Accept the draw", "accept draw", style="success"),
                Choice("Decline the draw", "decline draw"),
            )
            menu = replace(menu, buttons=(*answers, *menu.buttons)[:5])
        return views.menu_view(match.id, match.version, menu, hand=rules.private_info)

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

    async def board_message(self, played: Played) -> tuple[str, Any, Any]:
        """Text, picture and buttons after a move. The move is stored by now, so if the picture
        cannot be drawn the players still get the words and the buttons, not an apology that
        would wrongly say nothing happened."""
        offered = played.notation.rsplit(";", 1)[-1].strip() == "offer draw" and not played.over
        view = self.board_components(played.match, played.state, draw_offer=offered) or discord.utils.MISSING
        note = ""
        if offered:
            other = played.match.other_player(played.actor_id)
            note = f"\n<@{other}>: accept or decline the draw with the buttons (or the `draw` command)."
        room = MESSAGE_LIMIT - len(note) - len(NO_PICTURE) - 1  # the apology may follow
        text = played_text(played, limit=room) + note
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
            async with self._posting:
                text, file, view = await self.board_message(shown)
                try:
                    await target.send(text, file=file, view=view)
                except discord.NotFound:
                    channel = await self.channel(channel_id) if followup is not None else None
                    if channel is None:
                        raise
                    # The interaction's token expired (after 15 minutes): the channel gets the board.
                    followup = None
                    text, file, view = await self.board_message(shown)
                    await channel.send(text, file=file, view=view)
            await self.service.board_delivered(played.match.id, played.match.version)
            side = played.match.side_of(played.actor_id)
            secret = played.private.get(side) if side else None
            if followup is not None and secret:
                await followup.send(f"Only you see this: {secret}.", ephemeral=True)
            elif secret and played.actor_id != played.match.ai_player_id:
                await self.dm(played.actor_id, private_text(played.match, secret))
        except (discord.NotFound, discord.Forbidden) as exc:
            log.warning("Could not post a board in channel %s (deleted or hidden): %s", channel_id, exc)
            await self.service.board_delivered(played.match.id, played.match.version)  # nowhere to send
        finally:
            if after:
                self.after_action(played, shown)

    def after_action(self, played: Played, stretch: Played | None = None, *, actor_told: bool = True) -> None:
        """What follows a move: the AI answers (a draw offered to it too), and the players hear what
        concerns them (`tell_players`); `stretch` is what the board showed at a hand-off."""
        match = played.match
        if played.over:
            return
        if played.notation == "offer draw" and match.ai_player_id not in (None, played.actor_id):
            self.spawn(self.ai_draw_answer(match.channel_id), f"bw-ai-draw-{match.id}")
            return
        if match.ai_player_id is not None and match.ai_player_id in played.waiting:
            self.schedule_ai(match.channel_id)
        self.spawn(self.tell_players(played, stretch or played, actor_told=actor_told), f"bw-dm-{match.id}")

    async def tell_players(self, played: Played, stretch: Played, *, actor_told: bool = True) -> None:
        """Privately, to each player but the mover (who had their answer, unless `actor_told` is
        False): what the game dealt them in `played` (a drawn card: by DM, since they have no
        interaction of theirs to answer in private), and, to those who asked for turn DMs and are
        now owed an action, the turn ping with what the opponent did since they last acted."""
        match = played.match
        rules = game_of(match)
        for side, user in sorted(match.sides.items()):
            if user == match.ai_player_id or (actor_told and user == played.actor_id):
                continue
            secret = played.private.get(side)
            ping = not played.over and user in played.waiting and user != played.actor_id
            if ping and await self.service.wants_turn_dms(user):
                if await self.service.ended(match) is not None:
                    continue  # the game ended since (a resignation): no "your move" for it
                await self.dm(user, turn_dm_text(match, stretch, user, secret, MESSAGE_LIMIT))
            elif secret and not await self.dm(user, private_text(match, secret)) and rules.private_info:
                channel = await self.channel(match.channel_id)
                if channel is not None:
                    await channel.send(DMS_CLOSED.format(user=user))

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None:
        found = self.bot.get_channel(channel_id)
        if found is None:
            try:
                found = await self.bot.fetch_channel(channel_id)
            except (discord.NotFound, discord.Forbidden):
                log.warning("Channel %s is gone or hidden; skipping its notice", channel_id)
                return None
        return found if isinstance(found, discord.abc.Messageable) else None

    async def dm(self, user_id: int, text: str) -> bool:
        """A direct message; False if it could not be sent (the user closed their DMs)."""
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text[:2000])
        except discord.HTTPException:
            log.info("Could not DM user %s (DMs closed?)", user_id)
            return False
        return True

    # ------------------------------------------------------------------ AI

    def schedule_ai(self, channel_id: int) -> None:
        self._ai_busy[channel_id] += 1

        async def run() -> None:
            try:
                await self.run_ai(channel_id)
            finally:
                self._ai_busy[channel_id] -= 1
                if not self._ai_busy[channel_id]:
                    del self._ai_busy[channel_id]

        self.spawn(run(), f"bw-ai-{channel_id}")

    async def run_ai(self, channel_id: int) -> None:
        """Let the AI play all it owes in this channel, then post one board for the whole stretch
        (one board per hand-off: its turn of 25 actions is one picture, not 25)."""
        lock = self._ai_locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            played = await self.service.ai_turns(channel_id, budget_s=self.settings.ai_budget_seconds)
            if played:
                whole = await self.service.stretch(merged(played))  # with any of it before a restart
                ended = None if whole.over else await self.service.ended(whole.match)
                if ended is not None:  # its opponent resigned (or an admin cancelled) while it thought
                    await self.post_ended(channel_id, whole, *ended)
                    return
                await self.post_board(channel_id, whole, after=False)
                if not whole.over:
                    await self.tell_players(whole, whole)

    async def post_ended(self, channel_id: int, played: Played, final: Match, state: State | None) -> None:
        """The board of what was stored just before the game ended under the job posting it (the
        AI's actions, when its opponent resigned while it thought): the channel sees every stored
        action, said to come before the end, with no buttons, since the game is over."""
        try:
            channel = await self.channel(channel_id)
            if channel is not None:
                async with self._posting:
                    file = await self.render(played.match, played.state, played.events)
                    await channel.send(ended_meanwhile_text(played, final, state, MESSAGE_LIMIT), file=file)
        except (discord.NotFound, discord.Forbidden) as exc:
            log.warning("Could not post a board in channel %s (deleted or hidden): %s", channel_id, exc)
        await self.service.board_delivered(played.match.id, played.match.version)

    async def ai_draw_answer(self, channel_id: int) -> None:
        lock = self._ai_locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            answer = await self.service.ai_answers_draw(channel_id)
        if answer is not None:
            await self.post_board(channel_id, answer)

    async def resume_ai_games(self) -> None:
        """At start-up: games where the AI owes a move (the bot was down when the human moved)."""
        for match in await self.service.active_matches():
            if match.ai_player_id is None or match.snapshot is None:
                continue
            if not self.service.serves(match.guild_id):  # another process's shard
                continue
            state = game_of(match).from_json(match.snapshot)
            if match.ai_player_id in waiting_ids(match, state):
                self.schedule_ai(match.channel_id)

    # ------------------------------------------------------------------ sweep

    async def run_sweep(self, now: float | None = None) -> list[Notice]:
        """Apply what is due (reminders, forfeits, expired challenges) and tell the channels."""
        notices = await self.service.sweep(now)
        for notice in notices:
            try:
                await self.announce(notice)
            except (discord.NotFound, discord.Forbidden) as exc:  # the channel was deleted or hidden
                log.warning("Could not post a %s notice for match %s: %s", notice.kind, notice.match.id, exc)
            except Exception:
                log.exception("Could not post a %s notice for match %s", notice.kind, notice.match.id)
        return notices

    async def announce(self, notice: Notice) -> None:
        channel_id = notice.match.channel_id
        channel = await self.channel(channel_id)
        if notice.played is not None:
            played = notice.played
            if channel is not None:
                file = await self.render(played.match, played.state, played.events)
                await channel.send(
                    fitted(
                        notice_text(notice, fmt.DISCORD),
                        status_text(played.match, played.state),
                        MESSAGE_LIMIT,
                    ),
                    file=file,
                    view=self.board_components(played.match, played.state) or discord.utils.MISSING,
                )
            await self.service.board_delivered(played.match.id, played.match.version)
            self.after_action(played, actor_told=False)  # nobody answered: the late player hears it too
            return
        if notice.kind == "reminder" and await self.service.ended(notice.match) is not None:
            return  # the game ended after the sweep found the reminder due (a resignation)
        if channel is not None:
            await channel.send(notice_text(notice, fmt.DISCORD))
        user = notice.user_id
        if notice.kind == "reminder" and user is not None and await self.service.wants_turn_dms(user):
            said = notice_text(notice, fmt.DISCORD)
            await self.dm(user, f"Reminder: {said} (in {fmt.DISCORD.channel(channel_id)})")

    # ------------------------------------------------------------------ shared flows

    async def play(
        self,
        interaction: discord.Interaction,
        game: str | None,
        notation: str,
        *,
        match_id: int | None = None,
        version: int | None = None,
    ) -> None:
        """Apply one command for the caller and post the new board (the service validates everything)."""
        assert interaction.channel_id is not None
        if game is not None:
            match, _ = await self.service.latest(interaction.channel_id)
            _check_game(match, game)
        played = await self.service.act(
            interaction.channel_id,
            interaction.user.id,
            notation,
            interaction_id=interaction.id,
            expected_version=version,
            match_id=match_id,
        )
        await self.post_played(interaction, played)

    async def play_component(
        self, interaction: discord.Interaction, notation: str, match_id: int, version: int
    ) -> None:
        await self.play(interaction, None, notation, match_id=match_id, version=version)

    async def _prompt_state(
        self, interaction: discord.Interaction, match_id: int, version: int, *, acting: bool = True
    ) -> tuple[Match, State, str] | None:
        """The game behind a button, if it is still current and the caller is one of its players
        (with `acting`, one of those the game waits for)."""
        assert interaction.channel_id is not None
        try:
            match, state = await self.service.current(interaction.channel_id)
        except ServiceError:
            await reply(interaction, "This prompt belongs to a game that is over.")
            return None
        if match.id != match_id:
            await reply(interaction, "This prompt belongs to a game that is over.")
            return None
        side = match.side_of(interaction.user.id)
        if side is None:
            await reply(interaction, "You are not playing in this game; only its two players can act.")
            return None
        if not is_current(match, version):
            await reply(interaction, STALE)
            return None
        if acting and side not in state.to_act():
            waiting = " and ".join(f"<@{u}>" for u in waiting_ids(match, state))
            await reply(interaction, f"It is not your turn: {waiting} is to play.")
            return None
        return match, state, side

    async def open_group_picker(self, interaction: discord.Interaction, match_id: int, version: int) -> None:
        """Take action, step one: which piece (unit, card, front) acts."""
        found = await self._prompt_state(interaction, match_id, version)
        if found is None:
            return
        match, state, side = found
        rules = game_of(match)
        mine = state.view(side)
        legal = state.legal_actions(side)
        groups = fmt.groups_with_actions(rules, mine, legal)
        if not groups:
            await reply(interaction, "Nothing on your side can act alone now; use the buttons or `play`.")
            return
        view = views.persistent_view()
        labels = [(g, rules.group_label(mine, g)) for g in groups]
        view.add_item(views.UnitSelect.build(match.id, match.version, labels, "Choose"))
        await interaction.response.send_message("Which one?", view=view, ephemeral=True)

    async def open_action_picker(
        self, interaction: discord.Interaction, match_id: int, version: int, group: str
    ) -> None:
        """Take action, step two: what the chosen piece does."""
        found = await self._prompt_state(interaction, match_id, version)
        if found is None:
            return
        match, state, side = found
        rules = game_of(match)
        mine = state.view(side)
        actions = fmt.actions_of_group(rules, mine, state.legal_actions(side), group)
        if not actions:
            await reply(interaction, "That has nothing to do now.")
            return
        label = rules.group_label(mine, group)
        view = views.persistent_view()
        pieces = fmt.chunks(actions)
        for n, piece in enumerate(pieces):
            # The label is the game's words for the piece, a noun or not ("The rifleman on a8", "Call
            # up into travel zone T3"): the message names it, the placeholder need not.
            part = f" ({n + 1}/{len(pieces)})" if len(pieces) > 1 else ""
            select: discord.ui.Select = discord.ui.Select(
                placeholder=f"Choose an action{part}",
                options=[
                    discord.SelectOption(label=rules.describe(mine, a)[:100], value=str(a)) for a in piece
                ],
            )
            view.add_item(views.DoSelect(match.id, match.version, group, n, select))
        await interaction.response.edit_message(content=f"{label}: what now?", view=view)

    async def open_submenu(
        self, interaction: discord.Interaction, match_id: int, version: int, key: str
    ) -> None:
        """A game's submenu (`Choice.opens`), built for the clicker only; a player need not be the one
        to act (a game's standing orders, say, may be given at any time)."""
        found = await self._prompt_state(interaction, match_id, version, acting=False)
        if found is None:
            return
        match, state, side = found
        rules = game_of(match)
        menu = rules.submenu(state.view(side), state.legal_actions(side), key)
        view = views.menu_view(match.id, match.version, menu)
        if view is None:
            await reply(interaction, menu.title or "There is nothing to choose here now.")
            return
        await interaction.response.send_message(menu.title or "Choose:", view=view, ephemeral=True)

    async def show_hand(
        self, interaction: discord.Interaction, match_id: int | None, *, game_name: str | None = None
    ) -> None:
        """What only the caller may know (their hand), privately."""
        assert interaction.channel_id is not None
        match, state = await self.service.latest(interaction.channel_id)
        _check_game(match, game_name)
        if match_id is not None and match.id != match_id:
            await reply(interaction, "This button belongs to a game that is over.")
            return
        side = match.side_of(interaction.user.id)
        if side is None:
            await reply(interaction, "Only the two players have hands in this game.")
            return
        text = game_of(match).private_text(state.view(side))
        await reply(interaction, text or "You hold nothing secret in this game.")

    async def accept_challenge(self, interaction: discord.Interaction, match_id: int | None = None) -> None:
        assert interaction.channel_id is not None
        match = await self.service.accept(interaction.channel_id, interaction.user.id, match_id)
        await self.post_start(interaction, match, "Challenge accepted.")
        await self.answered(interaction, "Accepted.")

    async def decline_challenge(self, interaction: discord.Interaction, match_id: int | None = None) -> None:
        assert interaction.channel_id is not None
        match = await self.service.decline(interaction.channel_id, interaction.user.id, match_id)
        verb = "declined" if match.status is Status.DECLINED else "withdrawn"
        await reply(interaction, f"The challenge was {verb} by {interaction.user.mention}.", ephemeral=False)
        await self.answered(interaction, verb.capitalize() + ".")

    async def answered(self, interaction: discord.Interaction, note: str) -> None:
        """A challenge answered by its button loses its buttons, and says how it went."""
        message = interaction.message
        if interaction.type is not discord.InteractionType.component or message is None:
            return
        try:
            await message.edit(content=f"{message.content}\n**{note}**"[:2000], view=None)
        except discord.HTTPException:
            log.info("Could not take the buttons off challenge message %s", message.id)

    async def post_start(self, interaction: discord.Interaction, match: Match, headline: str) -> None:
        """The first board of a game, with the buttons for whoever acts first."""
        if not interaction.response.is_done():
            await interaction.response.defer(thinking=True)
        assert match.snapshot is not None
        rules = game_of(match)
        state = rules.from_json(match.snapshot)
        sides = ", ".join(f"{rules.side(side).title}: <@{uid}>" for side, uid in sorted(match.sides.items()))
        file = await self.render(match, state, [])
        await interaction.followup.send(
            f"{headline} {sides}.\n{status_text(match, state)}",
            file=file,
            view=self.board_components(match, state) or discord.utils.MISSING,
        )
        if match.ai_player_id is not None and match.ai_player_id in waiting_ids(match, state):
            self.schedule_ai(match.channel_id)

    async def autocomplete_actions(
        self,
        interaction: discord.Interaction,
        game: str,
        current: str,
        kinds: Sequence[str],
        verb: Verb | None,
    ) -> list[app_commands.Choice[str]]:
        """At most 25 of the caller's legal actions of these kinds, filtered by what is typed, and the
        standing orders either player may give at any time."""
        if interaction.channel_id is None:
            return []
        try:
            match, state = await self.service.current(interaction.channel_id)
        except (ServiceError, StoreUnavailable):
            return []
        side = match.side_of(interaction.user.id)
        if match.game != game or side is None:
            return []
        rules = game_of(match)
        mine = state.view(side)
        on_turn = side in state.to_act()
        legal = list(state.legal_actions(side)) if on_turn else []
        standing = [a for a in standing_actions(rules, verb) if a not in legal]
        chosen = fmt.filter_choices(rules, mine, [*legal, *standing], kinds, current)
        out: list[app_commands.Choice[str]] = []
        if not on_turn and (verb is None or not chosen):
            waiting = " and the ".join(rules.side(s).title for s in sorted(state.to_act()))
            note = f"Not your turn: the game waits for the {waiting}."
            out.append(app_commands.Choice(name=note[:100], value="not your turn"))
        for action in chosen:
            value = verb.argument(str(action)) if verb is not None else str(action)
            out.append(
                app_commands.Choice(name=fmt.choice_name(rules, mine, action), value=value or str(action))
            )
        return out[: fmt.MAX_CHOICES]

    async def autocomplete_focus(
        self, interaction: discord.Interaction, game: str, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        try:
            match, state = await self.service.latest(interaction.channel_id)
        except (ServiceError, StoreUnavailable):
            return []
        if match.game != game:
            return []
        typed = current.strip().lower()
        names = [n for n in game_of(match).focus_choices(state.view(None)) if n.lower().startswith(typed)]
        return [app_commands.Choice(name=n, value=n) for n in names[: fmt.MAX_CHOICES]]

    # ------------------------------------------------------------------ the platform commands

    async def challenge(
        self,
        interaction: discord.Interaction,
        game: Game,
        *,
        opponent: discord.User,
        side: str = "random",
        options: dict[str, Any],
        hours_per_turn: int = 72,
        level: str | None = None,
    ) -> None:
        assert interaction.channel_id is not None
        me = self.bot.user
        against_me = me is not None and opponent.id == me.id
        if level is not None and not against_me:
            await reply(interaction, "The `level` option is only for games against me, the AI.")
            return
        match = await self.service.challenge(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id,
            challenger_id=interaction.user.id,
            opponent_id=opponent.id,
            game=game.name,
            side=side,
            options=options,
            turn_seconds=hours_per_turn * 3600,
            opponent_is_bot=opponent.bot,
            ai_level=(level or game.ai.default) if against_me else None,
        )
        if against_me:
            level = level_label(game, match.ai_level or game.ai.default)
            terms = terms_text(game, match.options)
            await self.post_start(
                interaction, match, f"A game of {game.title} against the AI ({level}).{terms}"
            )
            return
        extras = terms_text(game, match.options)
        expires = f"<t:{int(match.challenge_expires_at)}:R>" if match.challenge_expires_at else "soon"
        wanted = chosen_side_text(game, match.challenger_side)
        await interaction.response.send_message(
            f"{opponent.mention}, {interaction.user.mention} challenges you to {game.title} "
            f"(challenger's side: {wanted}; {hours_per_turn} {'hour' if hours_per_turn == 1 else 'hours'} "
            f"per turn).{extras} "
            f"Accept or decline; the challenge expires {expires}.",
            view=views.challenge_view(match.id),
            allowed_mentions=discord.AllowedMentions(users=True),
        )

    async def board(self, interaction: discord.Interaction, game: str, focus: str | None) -> None:
        assert interaction.channel_id is not None
        match, state = await self.service.latest(interaction.channel_id)
        _check_game(match, game)
        rules = game_of(match)
        overlay = None
        if focus:
            overlay = focus.strip().lower()
            choices = {c.lower() for c in rules.focus_choices(state.view(None))}
            if overlay not in choices:
                unknown = rules.focus.unknown if rules.focus else "`{}` is not one of the choices."
                await reply(interaction, unknown.format(focus.strip()[:20]))
                return
        events = await self.service.last_events(match)
        await interaction.response.defer(thinking=True)
        file = await self.render(match, state, events, overlay)
        await interaction.followup.send(
            status_text(match, state),
            file=file,
            view=self.board_components(match, state) or discord.utils.MISSING,
        )

    async def history(self, interaction: discord.Interaction, game: str, count: int) -> None:
        assert interaction.channel_id is not None
        match, _ = await self.service.latest(interaction.channel_id)
        _check_game(match, game)
        entries = await self.service.history_entries(interaction.channel_id, limit=count)
        await reply(interaction, history_text(entries))

    async def replay(self, interaction: discord.Interaction, game: str) -> None:
        assert interaction.channel_id is not None
        match, _ = await self.service.latest(interaction.channel_id)
        _check_game(match, game)
        await interaction.response.defer(thinking=True)
        log_rows = [(side, notation) for side, notation, _ in await self.service.log(match)]
        from render.replay import render_replay

        data = await asyncio.to_thread(render_replay, match.game, match.options, match.seed, log_rows)
        file = discord.File(io.BytesIO(data), filename="replay.gif")
        unlink_when_done(file)
        actions = "action" if len(log_rows) == 1 else "actions"
        await interaction.followup.send(
            f"Replay of game #{match.id}: {len(log_rows)} {actions}.", file=file, wait=True
        )

    async def rules(self, interaction: discord.Interaction, game: str, topic: str) -> None:
        await reply(interaction, rules_text(registry.game(game), topic))

    async def stats(self, interaction: discord.Interaction, game: str, member: discord.User | None) -> None:
        who = member or interaction.user
        guild = interaction.guild_id or 0
        rules = registry.game(game)
        if self.bot.user is not None and who.id == self.bot.user.id:  # the AI: a rating per level
            await reply(interaction, ai_stats_text(rules, who.id, await self.service.ai_records(guild, game)))
            return
        await reply(interaction, stats_text(rules, await self.service.stats(guild, game, who.id)))

    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        me = self.bot.user.id if self.bot.user is not None else None
        rows = await self.service.leaderboard(interaction.guild_id or 0, game, ai_user_id=me)
        await reply(interaction, leaderboard_text(registry.game(game), rows))

    async def review(
        self, interaction: discord.Interaction, game: str | None = None, match_id: int | None = None
    ) -> None:
        """The look back at a finished game, privately: the asker's three costliest choices by the AI's
        judgement, each with the action it preferred and a small board of that moment. It thinks in
        the AI's worker processes, within a minute."""
        assert interaction.channel_id is not None
        if match_id is None:
            match, _ = await self.service.latest(interaction.channel_id)
            _check_game(match, game)
        await interaction.response.defer(ephemeral=True, thinking=True)
        match, found = await self.service.review(interaction.channel_id, interaction.user.id, match_id)
        rules = game_of(match)
        files = []
        for n, moment in enumerate(found.moments, 1):
            view = rules.view_from_json(moment.view)
            png = await self.painter.board(match.game, view, (), width=REVIEW_BOARD_WIDTH)
            file = discord.File(io.BytesIO(png), filename=f"moment-{n}.png")
            unlink_when_done(file)
            files.append(file)
        await interaction.followup.send(review_text(rules, match, found), files=files, ephemeral=True)

    async def notify(self, interaction: discord.Interaction, enabled: bool) -> None:
        await self.service.set_turn_dms(interaction.user.id, enabled)
        await reply(interaction, "I will DM you when it is your turn." if enabled else "No more turn DMs.")

    async def cancel(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        allowed = bool(interaction.permissions and interaction.permissions.manage_channels)
        match = await self.service.cancel(interaction.channel_id, interaction.user.id, is_admin=allowed)
        await reply(
            interaction, f"Game #{match.id} was cancelled by {interaction.user.mention}.", ephemeral=False
        )

    # ------------------------------------------------------------------ /wargames

    async def games(self, interaction: discord.Interaction) -> None:
        await reply(interaction, games_text())

    async def mygames(self, interaction: discord.Interaction) -> None:
        guild, user = interaction.guild_id or 0, interaction.user.id
        games = await self.service.open_games(guild, user)
        await reply(interaction, my_games_text(games, user, await self.service.away_until(guild, user)))

    async def away(self, interaction: discord.Interaction, days: int) -> None:
        user = interaction.user.id
        away = await self.service.away(interaction.guild_id or 0, user, days)
        await reply(interaction, away_text(away))
        assert away.until is not None
        for match in away.games:
            await self.tell_channel(
                match.channel_id, away_notice(match, user, away.until, match.id in away.owing)
            )

    async def back(self, interaction: discord.Interaction) -> None:
        user = interaction.user.id
        away = await self.service.back(interaction.guild_id or 0, user)
        await reply(interaction, back_text(away))
        for match in away.games:
            await self.tell_channel(match.channel_id, back_notice(match, user, match.id in away.owing))

    async def tell_channel(self, channel_id: int, text: str) -> None:
        """A notice for a game's channel; a channel deleted or hidden meanwhile is skipped."""
        channel = await self.channel(channel_id)
        if channel is None:
            return
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True))
        except (discord.NotFound, discord.Forbidden) as exc:
            log.warning("Could not post a notice in channel %s: %s", channel_id, exc)

    async def sync(self, interaction: discord.Interaction) -> None:
        if not await self.bot.is_owner(interaction.user):
            await reply(interaction, "Only the bot's owner can sync its commands.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        synced = await self.sync_tree()
        n = len(synced)
        await interaction.followup.send(f"Synced {n} command{'s' if n != 1 else ''}.", ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """The extension's entry: the bot hands over its services (see bot.py's `WargamesBot`)."""
    own: Any = bot
    await bot.add_cog(Core(bot, own.service, own.painter, own.settings, own.sync_tree))


__all__ = ["APOLOGY", "STALE", "Core", "friendly", "setup"]


def _clicks(core: Core) -> views.Clicks:
    """For mypy: the cog answers every click the views send it."""
    return core
