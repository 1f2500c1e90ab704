"""The `/blockwars` commands, buttons and selects: a thin adapter over `play.MatchService`.

Every move goes through `service.act`, which checks players, turn, version and legality; this module
only parses Discord input, posts the board after each action and turns refusals into ephemeral replies.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Coroutine
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs import _format as fmt
from cogs import _views as views
from cogs._release import unlink_when_done
from data import Match, Status
from engine.blockwars import IllegalAction, InvalidNotation, Options, State
from engine.blockwars.help import TOPICS
from engine.blockwars.squares import SQUARE_NAMES
from play import MatchService, Notice, Played, ServiceError
from play.present import played_text, status_text

if TYPE_CHECKING:
    from bot import BlockWarsBot

log = logging.getLogger("blockwars.cog")

APOLOGY = "Sorry, something went wrong; the game is unchanged."
STALE = "This prompt is out of date: the game has moved on. Use the newest board."
NO_PICTURE = "(The board picture could not be drawn this time; `/blockwars board` draws it again.)"
AI_LEVELS = ("easy", "normal", "hard")


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
    if isinstance(error, IllegalAction):
        return str(error) + _alternatives(list(getattr(error, "legal", []) or []))
    if isinstance(error, InvalidNotation):
        return f"{error} See `/blockwars rules topic:notation`."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You cannot use this command here."
    return None


async def reply(interaction: discord.Interaction, text: str, *, ephemeral: bool = True) -> None:
    """Answer whether or not the interaction was already answered or deferred."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=ephemeral)
    else:
        await interaction.response.send_message(text, ephemeral=ephemeral)


class BlockWars(
    commands.GroupCog, group_name="blockwars", group_description="Play Block Wars, the WWI trench game"
):
    """Slash commands, component callbacks, the sweep loop and the AI's turns."""

    admin = app_commands.Group(name="admin", description="Bot owner and moderator tools")

    def __init__(self, bot: BlockWarsBot) -> None:
        self.bot = bot
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ai_locks: dict[int, asyncio.Lock] = {}
        # Drawing and uploading boards, the heavy part of a move, runs a few at a time: moves
        # are acknowledged first, and the boards follow in order (docs/reliability.md).
        self._posting = asyncio.Semaphore(bot.settings.posting_slots)
        self.sweeper = tasks.loop(seconds=bot.settings.sweep_seconds)(self._sweep_tick)
        self.sweeper.before_loop(self._before_sweep)
        super().__init__()

    @property
    def service(self) -> MatchService:
        return self.bot.service

    # ------------------------------------------------------------------ life cycle

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*views.DYNAMIC_ITEMS)
        self._previous_error = self.bot.tree.on_error
        self.bot.tree.on_error = self.on_tree_error  # type: ignore[method-assign]
        self.sweeper.start()

    async def cog_unload(self) -> None:
        self.sweeper.cancel()
        self.bot.tree.on_error = self._previous_error  # type: ignore[method-assign]
        for task in list(self._tasks):
            task.cancel()

    async def _before_sweep(self) -> None:
        await self.bot.wait_until_ready()
        await self.resume_ai_games()

    async def _sweep_tick(self) -> None:
        try:
            await self.run_sweep()
        except Exception:
            log.exception("The deadline sweep failed; it will run again")

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        """Background work whose failures are logged, never lost."""
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self._tasks.discard(t)
            if not t.cancelled() and t.exception() is not None:
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
            where = (
                interaction.command.qualified_name
                if interaction.command
                else ((interaction.data or {}).get("custom_id", "?"))
            )
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

    async def render(self, state: State, events: list[Any], overlay: str | None = None) -> discord.File:
        png = await self.bot.painter.board("blockwars", state.view(None), events, overlay)
        file = discord.File(io.BytesIO(png), filename="board.png")
        unlink_when_done(file)
        return file

    async def post_played(self, interaction: discord.Interaction, played: Played) -> None:
        """After an action: acknowledge it ("thinking…"), then hand its board to a background job.

        The interaction's handling ends here. Under load most boards wait for a posting slot, and
        a waiting board now holds only the follow-up webhook and the game, not the interaction
        and its handlers' frames: every object alive is walked by each full pass of the garbage
        collector, which stops the event loop (docs/reliability.md)."""
        assert interaction.channel_id is not None
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
        view = views.board_view(played.match.id, played.match.version, played.state) or discord.utils.MISSING
        try:
            file = await self.render(played.state, played.events)
        except Exception:
            log.exception("Could not draw the board of match %s", played.match.id)
            return f"{played_text(played)}\n{NO_PICTURE}", discord.utils.MISSING, view
        return played_text(played), file, view

    async def post_board(
        self, channel_id: int, played: Played, *, followup: discord.Webhook | None = None, after: bool = True
    ) -> None:
        """Post a move's board: as the answer to its deferred interaction (`followup`), else in the
        channel (the AI's moves, boards of expired interactions). With `after`, what follows the
        move (the AI's answer, a DM) happens even if the post fails, since the move is stored."""
        try:
            target = followup or await self.channel(channel_id)
            if target is None:
                return
            async with self._posting:
                text, file, view = await self.board_message(played)
                await target.send(text, file=file, view=view)
        except (discord.NotFound, discord.Forbidden) as exc:
            log.warning("Could not post a board in channel %s (deleted or hidden): %s", channel_id, exc)
        finally:
            if after:
                self.after_action(played)

    def after_action(self, played: Played) -> None:
        """What follows a move: the AI answers, the next player may want a DM."""
        match = played.match
        if played.over or match.turn_player_id is None:
            return
        if match.ai_player_id is not None and match.turn_player_id == match.ai_player_id:
            self.schedule_ai(match.channel_id)
        elif match.turn_player_id != played.actor_id:
            self.spawn(self.dm_turn(match), f"bw-dm-{match.id}")

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None:
        found = self.bot.get_channel(channel_id)
        if found is None:
            try:
                found = await self.bot.fetch_channel(channel_id)
            except (discord.NotFound, discord.Forbidden):
                log.warning("Channel %s is gone or hidden; skipping its notice", channel_id)
                return None
        return found if isinstance(found, discord.abc.Messageable) else None

    async def dm_turn(self, match: Match) -> None:
        """The opt-in DM: it is your turn in <channel>, due <time>."""
        user_id = match.turn_player_id
        if user_id is None or user_id == match.ai_player_id:
            return
        prefs = await self.bot.database.get_user_prefs(user_id)  # type: ignore[union-attr]
        if not prefs.dm_on_turn:
            return
        due = f"<t:{int(match.deadline)}:R>" if match.deadline else "whenever you like"
        await self.dm(user_id, f"Your move in Block Wars in <#{match.channel_id}>, due {due}.")

    async def dm(self, user_id: int, text: str) -> None:
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(text)
        except discord.HTTPException:
            log.info("Could not DM user %s (DMs closed?)", user_id)

    # ------------------------------------------------------------------ AI

    def schedule_ai(self, channel_id: int) -> None:
        self.spawn(self.run_ai(channel_id), f"bw-ai-{channel_id}")

    async def run_ai(self, channel_id: int) -> None:
        """Let the AI play all it owes in this channel and post each of its boards."""
        lock = self._ai_locks.setdefault(channel_id, asyncio.Lock())
        async with lock:
            played = await self.service.ai_turns(channel_id, budget_s=self.bot.settings.ai_budget_seconds)
            for one in played:
                await self.post_board(channel_id, one, after=False)
            if played:
                last = played[-1]
                if not last.over and last.match.turn_player_id not in (None, last.match.ai_player_id):
                    await self.dm_turn(last.match)

    async def resume_ai_games(self) -> None:
        """At start-up: games where the AI owes a move (the bot was down when the human moved)."""
        for match in await self.bot.database.list_matches(statuses=[Status.ACTIVE]):  # type: ignore[union-attr]
            if match.ai_player_id is not None and match.turn_player_id == match.ai_player_id:
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
        if notice.kind == "forfeit" and notice.played is not None:
            channel = await self.channel(channel_id)
            if channel is None:
                return
            file = await self.render(notice.played.state, notice.played.events)
            await channel.send(
                f"{notice.text}\n{status_text(notice.played.match, notice.played.state)}", file=file
            )
            return
        channel = await self.channel(channel_id)
        if channel is not None:
            await channel.send(notice.text)
        if notice.kind == "reminder" and notice.user_id is not None:
            prefs = await self.bot.database.get_user_prefs(notice.user_id)  # type: ignore[union-attr]
            if prefs.dm_on_turn:
                await self.dm(notice.user_id, f"Reminder: {notice.text} (in <#{channel_id}>)")

    # ------------------------------------------------------------------ shared flows

    async def play(
        self,
        interaction: discord.Interaction,
        notation: str,
        *,
        match_id: int | None = None,
        version: int | None = None,
    ) -> None:
        """Apply one action for the caller and post the new board (the service validates everything)."""
        assert interaction.channel_id is not None
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
        await self.play(interaction, notation, match_id=match_id, version=version)

    async def _prompt_state(
        self, interaction: discord.Interaction, match_id: int, version: int
    ) -> tuple[Match, State] | None:
        """The game behind a button, if it is still current and the caller is the one to act."""
        assert interaction.channel_id is not None
        try:
            match, state = await self.service.current(interaction.channel_id)
        except ServiceError:
            await reply(interaction, "This prompt belongs to a game that is over.")
            return None
        if match.id != match_id:
            await reply(interaction, "This prompt belongs to a game that is over.")
            return None
        if match.side_of(interaction.user.id) is None:
            await reply(interaction, "You are not playing in this game; only its two players can act.")
            return None
        if match.version != version:
            await reply(interaction, STALE)
            return None
        if match.turn_player_id != interaction.user.id:
            await reply(interaction, f"It is not your turn: <@{match.turn_player_id}> is to play.")
            return None
        return match, state

    async def open_unit_picker(self, interaction: discord.Interaction, match_id: int, version: int) -> None:
        found = await self._prompt_state(interaction, match_id, version)
        if found is None:
            return
        match, state = found
        legal = state.legal_actions()
        units = fmt.units_with_actions(state, legal)
        if not units:
            await reply(interaction, "No unit can act now; you can end your turn.")
            return
        view = views.persistent_view()
        view.add_item(views.UnitSelect.build(match.id, match.version, state, units))
        await interaction.response.send_message("Which unit?", view=view, ephemeral=True)

    async def open_action_picker(
        self, interaction: discord.Interaction, match_id: int, version: int, unit: str
    ) -> None:
        found = await self._prompt_state(interaction, match_id, version)
        if found is None:
            return
        match, state = found
        actions = fmt.actions_of_unit(state.legal_actions(), unit)
        if not actions:
            await reply(interaction, "That unit has nothing to do now.")
            return
        view = views.persistent_view()
        for n, piece in enumerate(fmt.chunks(actions)):
            select: discord.ui.Select = discord.ui.Select(
                placeholder=f"What should the {fmt.unit_label(state, unit).lower()} do?"[:150],
                options=views._options(state, piece),
            )
            view.add_item(views.DoSelect(match.id, match.version, unit, n, select))
        await interaction.response.edit_message(
            content=f"{fmt.unit_label(state, unit)}: what now?", view=view
        )

    async def open_gas_picker(self, interaction: discord.Interaction, match_id: int, version: int) -> None:
        found = await self._prompt_state(interaction, match_id, version)
        if found is None:
            return
        match, state = found
        gas = [a for a in state.legal_actions() if str(a).startswith("gas ")]
        if not gas:
            await reply(interaction, "Gas is not available now.")
            return
        view = views.persistent_view()
        for n, piece in enumerate(fmt.chunks(gas)):
            view.add_item(
                views.PickSelect.build(
                    match.id, match.version, 10 + n, state, piece, f"Gas barrage ({n + 1})"
                )
            )
        await interaction.response.send_message("Where should the gas fall?", view=view, ephemeral=True)

    async def accept_challenge(self, interaction: discord.Interaction, match_id: int | None = None) -> None:
        assert interaction.channel_id is not None
        match = await self.service.accept(interaction.channel_id, interaction.user.id, match_id)
        await self.post_start(interaction, match, "Challenge accepted.")

    async def decline_challenge(self, interaction: discord.Interaction, match_id: int | None = None) -> None:
        assert interaction.channel_id is not None
        match = await self.service.decline(interaction.channel_id, interaction.user.id, match_id)
        verb = "declined" if match.status is Status.DECLINED else "withdrawn"
        await reply(interaction, f"The challenge was {verb} by {interaction.user.mention}.", ephemeral=False)

    async def post_start(self, interaction: discord.Interaction, match: Match, headline: str) -> None:
        """The first board of a game, with the set-up buttons for whoever deploys first."""
        await interaction.response.defer(thinking=True)
        assert match.snapshot is not None
        state = State.from_json(match.snapshot)
        sides = ", ".join(f"{side.title()}: <@{uid}>" for side, uid in sorted(match.sides.items()))
        file = await self.render(state, [])
        view = views.board_view(match.id, match.version, state)
        await interaction.followup.send(
            f"{headline} {sides}.\n{status_text(match, state)}",
            file=file,
            view=view or discord.utils.MISSING,
        )
        if match.ai_player_id is not None and match.turn_player_id == match.ai_player_id:
            self.schedule_ai(match.channel_id)

    async def autocomplete_actions(
        self, interaction: discord.Interaction, current: str, kinds: tuple[str, ...]
    ) -> list[app_commands.Choice[str]]:
        """At most 25 of the caller's legal actions of these kinds, filtered by what is typed."""
        if interaction.channel_id is None:
            return []
        try:
            match, state = await self.service.current(interaction.channel_id)
        except ServiceError:
            return []
        side = match.side_of(interaction.user.id)
        current_side = state.current_player()
        if side is None or current_side is None or current_side.value != side:
            return []
        chosen = fmt.filter_choices(state, state.legal_actions(), kinds, current)
        return [app_commands.Choice(name=fmt.choice_name(state, a), value=str(a)) for a in chosen]

    # ------------------------------------------------------------------ commands: challenges

    @app_commands.command(
        name="challenge", description="Challenge someone (or me, for an AI game) to Block Wars"
    )
    @app_commands.describe(
        opponent="Who you want to play (pick me, the bot, to play the AI)",
        side="The side you want to play (random if not given)",
        crosses="Optional rule: each side may spend a Victoria/Iron Cross once",
        fighter_aces="Optional rule: aircraft A is an ace (+1), damaged aircraft -1",
        hours_per_turn="Hours each player has for a turn before losing on time (default 72)",
        level="Only when challenging me: how strong the AI plays",
    )
    @app_commands.choices(
        side=[app_commands.Choice(name=n, value=n) for n in ("random", "germans", "canadians")],
        level=[app_commands.Choice(name=n, value=n) for n in AI_LEVELS],
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User,
        side: str = "random",
        crosses: bool = False,
        fighter_aces: bool = False,
        hours_per_turn: app_commands.Range[int, 1, 336] = 72,
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
            side=side,
            options=Options(crosses=crosses, fighter_aces=fighter_aces),
            turn_seconds=hours_per_turn * 3600,
            opponent_is_bot=opponent.bot,
            ai_level=(level or "normal") if against_me else None,
        )
        if against_me:
            await self.post_start(interaction, match, f"A game against the AI ({match.ai_level}).")
            return
        rules = [name for name, on in (("Crosses", crosses), ("Fighter aces", fighter_aces)) if on]
        extras = f" Optional rules: {', '.join(rules)}." if rules else ""
        expires = f"<t:{int(match.challenge_expires_at)}:R>" if match.challenge_expires_at else "soon"
        await interaction.response.send_message(
            f"{opponent.mention}, {interaction.user.mention} challenges you to Block Wars "
            f"(challenger's side: {side}; {hours_per_turn} h per turn).{extras} "
            f"Accept or decline; the challenge expires {expires}.",
            view=views.challenge_view(match.id),
            allowed_mentions=discord.AllowedMentions(users=True),
        )

    @app_commands.command(name="accept", description="Accept the challenge in this channel")
    async def accept(self, interaction: discord.Interaction) -> None:
        await self.accept_challenge(interaction)

    @app_commands.command(
        name="decline", description="Decline the challenge in this channel (or withdraw yours)"
    )
    async def decline(self, interaction: discord.Interaction) -> None:
        await self.decline_challenge(interaction)

    # ------------------------------------------------------------------ commands: playing

    @app_commands.command(name="setup", description="Deploy your units: the standard layout or your own")
    @app_commands.describe(
        layout="`std` for the standard layout, or files like bcfg/cdef/cf (back row/second row/guns)"
    )
    async def setup(self, interaction: discord.Interaction, layout: str = "std") -> None:
        text = layout.strip()
        if text.lower().startswith("setup"):
            text = text[5:].strip()
        await self.play(interaction, f"setup {text or 'std'}")

    @setup.autocomplete("layout")
    async def _setup_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        choices = await self.autocomplete_actions(interaction, current, ("setup",))
        return [app_commands.Choice(name=c.name, value=c.value.removeprefix("setup ")) for c in choices]

    @app_commands.command(name="move", description="Move an infantry unit one square")
    @app_commands.describe(action="The move, e.g. e2-e3 (choose from the list)")
    async def move(self, interaction: discord.Interaction, action: str) -> None:
        await self.play(interaction, action)

    @move.autocomplete("action")
    async def _move_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.autocomplete_actions(interaction, current, ("move",))

    @app_commands.command(
        name="attack", description="Attack with an infantry unit, stepping first if you like"
    )
    @app_commands.describe(action="The attack, e.g. e4-e5xe6 (step, then attack) or e5xe6")
    async def attack(self, interaction: discord.Interaction, action: str) -> None:
        await self.play(interaction, action)

    @attack.autocomplete("action")
    async def _attack_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.autocomplete_actions(interaction, current, ("attack",))

    @app_commands.command(name="fire", description="Fire a machine gun at an enemy unit")
    @app_commands.describe(action="The shot, e.g. c6xd4 (gun square x target square)")
    async def fire(self, interaction: discord.Interaction, action: str) -> None:
        await self.play(interaction, action)

    @fire.autocomplete("action")
    async def _fire_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.autocomplete_actions(interaction, current, ("fire",))

    @app_commands.command(
        name="tank", description="The tank: move forward or back (T+ / T-), or fire its gun (Txd5)"
    )
    @app_commands.describe(action="T+ forward, T- back, or Tx<square> to fire")
    async def tank(self, interaction: discord.Interaction, action: str) -> None:
        await self.play(interaction, action)

    @tank.autocomplete("action")
    async def _tank_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.autocomplete_actions(interaction, current, ("tank",))

    @app_commands.command(name="reinforce", description="Bring a unit from the reserve onto your back row")
    @app_commands.describe(action="R@<square> for infantry, T@<square> for the tank (its lower-left square)")
    async def reinforce(self, interaction: discord.Interaction, action: str) -> None:
        await self.play(interaction, action)

    @reinforce.autocomplete("action")
    async def _reinforce_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.autocomplete_actions(interaction, current, ("reinforce",))

    @app_commands.command(
        name="decide", description="Answer the pending decision (barrage, Ace, air battle, Cross)"
    )
    @app_commands.describe(
        action="Your answer, e.g. barrage e4, R@c1, fly A, dogfight B, strafe e4, cross, decline"
    )
    async def decide(self, interaction: discord.Interaction, action: str) -> None:
        await self.play(interaction, action)

    @decide.autocomplete("action")
    async def _decide_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.autocomplete_actions(interaction, current, ("decide",))

    @app_commands.command(name="end", description="End your turn now (you may pass with actions left)")
    async def end(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "end")

    @app_commands.command(name="resign", description="Resign the game in this channel")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.play(interaction, "resign")

    @app_commands.command(name="draw", description="Offer a draw, or accept or decline your opponent's offer")
    @app_commands.describe(choice="offer, accept or decline")
    @app_commands.choices(
        choice=[app_commands.Choice(name=n, value=n) for n in ("offer", "accept", "decline")]
    )
    async def draw(self, interaction: discord.Interaction, choice: str) -> None:
        await self.play(interaction, f"{choice} draw")

    # ------------------------------------------------------------------ commands: looking

    @app_commands.command(name="board", description="Show the current board, optionally one unit's reach")
    @app_commands.describe(unit="A square with a unit on it, to show where it can move and attack")
    async def board(self, interaction: discord.Interaction, unit: str | None = None) -> None:
        assert interaction.channel_id is not None
        match, state = await self.service.latest(interaction.channel_id)
        square = None
        if unit:
            square = unit.strip().lower()
            if square not in SQUARE_NAMES or state.board[SQUARE_NAMES.index(square)] is None:
                await reply(interaction, f"There is no unit on `{unit}`. Give a square like `e2`.")
                return
        events = await self.service.last_events(match)
        await interaction.response.defer(thinking=True)
        file = await self.render(state, events, square)
        view = views.board_view(match.id, match.version, state) if match.status.is_open else None
        await interaction.followup.send(
            status_text(match, state), file=file, view=view or discord.utils.MISSING
        )

    @board.autocomplete("unit")
    async def _board_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        try:
            _, state = await self.service.latest(interaction.channel_id)
        except ServiceError:
            return []
        typed = current.strip().lower()
        names = [SQUARE_NAMES[i] for i, uid in enumerate(state.board) if uid is not None]
        names = [n for n in dict.fromkeys(names) if n.startswith(typed)]
        return [app_commands.Choice(name=n, value=n) for n in names[: fmt.MAX_CHOICES]]

    @app_commands.command(name="history", description="The last moves of this channel's game")
    @app_commands.describe(count="How many of the latest actions to list (default 20)")
    async def history(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 60] = 20
    ) -> None:
        assert interaction.channel_id is not None
        lines = await self.service.history(interaction.channel_id, limit=count)
        text = "\n".join(f"{i}. {line}" for i, line in enumerate(lines, 1)) or "Nothing has been played yet."
        while len(text) > 1900:
            lines = lines[1:]
            text = "\n".join(lines)
        await reply(interaction, text)

    @app_commands.command(name="replay", description="The whole game in this channel as an animation")
    async def replay(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        match, _ = await self.service.latest(interaction.channel_id)
        await interaction.response.defer(thinking=True)
        log_rows = [(side, notation) for side, notation, _ in await self.service.log(match)]
        from render.replay import render_replay

        data = await asyncio.to_thread(render_replay, "blockwars", match.options, match.seed, log_rows)
        file = discord.File(io.BytesIO(data), filename="replay.gif")
        unlink_when_done(file)
        await interaction.followup.send(
            f"Replay of game #{match.id}: {len(log_rows)} actions.", file=file, wait=True
        )

    @app_commands.command(name="rules", description="The rules in short, by topic")
    @app_commands.describe(topic="Which part of the rules")
    @app_commands.choices(topic=[app_commands.Choice(name=t, value=t) for t in TOPICS])
    async def rules(self, interaction: discord.Interaction, topic: str = "overview") -> None:
        await reply(interaction, TOPICS.get(topic, TOPICS["overview"]))

    @app_commands.command(name="stats", description="A player's record on this server")
    @app_commands.describe(member="Whose record (yours if not given)")
    async def stats(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        who = member or interaction.user
        s = await self.service.stats(interaction.guild_id or 0, who.id)
        await reply(
            interaction,
            f"{who.mention}: {s.wins} won, {s.losses} lost, {s.draws} drawn; rating {s.rating:.0f}.",
        )

    @app_commands.command(name="leaderboard", description="The best-rated players on this server")
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        rows = await self.service.leaderboard(interaction.guild_id or 0)
        if not rows:
            await reply(interaction, "No finished games yet.")
            return
        lines = [
            f"{i}. <@{s.user_id}>: {s.rating:.0f} ({s.wins}-{s.losses}-{s.draws})"
            for i, s in enumerate(rows, 1)
        ]
        await reply(interaction, "**Leaderboard**\n" + "\n".join(lines))

    @app_commands.command(name="notify", description="Get a direct message when it is your turn")
    @app_commands.describe(enabled="On to get DMs when it is your turn, off to stop them")
    async def notify(self, interaction: discord.Interaction, enabled: bool) -> None:
        await self.bot.database.set_dm_on_turn(interaction.user.id, enabled)  # type: ignore[union-attr]
        await reply(interaction, "I will DM you when it is your turn." if enabled else "No more turn DMs.")

    # ------------------------------------------------------------------ admin

    @app_commands.command(
        name="cancel", description="Cancel this channel's game without a result (Manage Channels)"
    )
    async def cancel(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        allowed = bool(interaction.permissions and interaction.permissions.manage_channels)
        match = await self.service.cancel(interaction.channel_id, interaction.user.id, is_admin=allowed)
        await reply(
            interaction, f"Game #{match.id} was cancelled by {interaction.user.mention}.", ephemeral=False
        )

    @admin.command(name="sync", description="Push the slash commands to Discord (bot owner only)")
    async def sync(self, interaction: discord.Interaction) -> None:
        if not await self.bot.is_owner(interaction.user):
            await reply(interaction, "Only the bot's owner can sync its commands.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        synced = await self.bot.sync_tree()
        await interaction.followup.send(f"Synced {len(synced)} commands.", ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(BlockWars(bot))  # type: ignore[arg-type]


__all__ = ["APOLOGY", "STALE", "BlockWars", "friendly", "setup"]
