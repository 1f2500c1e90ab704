"""The core cog: every game's commands, buttons and selects, a thin adapter over `play.MatchService`.

This module holds the command bodies and the cog's life cycle; the rest is in rooms with one job
each, stacked as mixins, each using only those below it: `room` (the services handed in, background
work), `errors` (the one error handler), `messages` (channels, DMs), `outbox` (boards posted and
owed), `background` (the AI's turns, what follows a move), `sweep_loop` (the deadline sweep). Each
game's `/group`, `/wargames` and `/tournament` are built from the command table by `cogs.groups`.
Every move goes through `service.act`, which checks players, turn, version and legality.
"""

from __future__ import annotations

import asyncio
import io
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs import _format as fmt
from cogs import _views as views
from cogs import limits
from cogs._release import unlink_when_done
from cogs._tap import tapped
from cogs.groups import build_group, build_tournament, build_wargames
from cogs.outbox import DrawNote, StartTeller
from cogs.sight import Sight
from data import Match, Status, StoreUnavailable
from engine import registry
from engine.protocol import Action, Game, State, Verb, View
from play import MatchService, ServiceError, fairness
from play.errors import STRANGER
from play.fairness import commitment_text, engine_seed
from play.guide import game_help, overview
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
    history_text,
    rules_text,
    standing_actions,
    status_text,
    terms_text,
)
from play.service import game_of, is_current, waiting_ids
from play.stamps import Stamp, denotes, stale_text, stamp
from play.undo import MID_TURN_NOTE
from play.words import replay_length

if TYPE_CHECKING:
    from render.workers import Painter
    from settings import Settings

from cogs.room import (
    APOLOGY,
    REVIEW_BOARD_WIDTH,
    _check_game,
    friendly,
    log,
    reply,
)
from cogs.sweep_loop import SweepLoop

# The last line of `/wargames help`: where the rest is, in Discord's own terms.
GAME_MORE = (
    "Type `/{game}` and Discord lists every command with what it does; `/wargames help` with a game "
    "shows another game's, `/wargames games` lists them all."
)
OVERVIEW_MORE = (
    "In a game's channel `/wargames help` shows that game's commands; `/wargames mygames` lists your games."
)


class Core(SweepLoop, commands.Cog):
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
        self.sight = Sight()  # who sees which channel, for the listings (play/privacy.py)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ai_locks: dict[int, asyncio.Lock] = {}
        self._ai_busy: Counter[int] = Counter()  # channels where an AI turn is scheduled or running
        self.start_tellers: list[StartTeller] = []  # a tournament's cog tells its games' starts
        self.draw_notes: list[DrawNote] = []  # and what a draw offered in one of them would mean
        self._undeliverable: set[tuple[int, int]] = set()  # owed boards whose post failed (warned once)
        self._unshown_starts: set[int] = set()  # games whose first board could not be posted
        # Drawing and uploading boards, the heavy part of a move, runs a few at a time: moves
        # are acknowledged first, and the boards follow in order (docs/reliability.md).
        self._posting = asyncio.Semaphore(settings.posting_slots)
        self.sweeper = tasks.loop(seconds=settings.sweep_seconds)(self._sweep_tick)
        self.sweeper.before_loop(self._before_sweep)
        self.wargames = build_wargames(self)
        self.tournament_group = build_tournament()  # its commands call the Tournaments cog
        self.game_groups = [
            self.wargames,
            self.tournament_group,
            *(build_group(self, game) for game in registry.games()),
        ]
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

    # ------------------------------------------------------------------ shared flows

    async def play(
        self,
        interaction: discord.Interaction,
        game: str | None,
        notation: str,
        *,
        match_id: int | None = None,
        version: Stamp | None = None,
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
        self, interaction: discord.Interaction, notation: str, match_id: int, given: str
    ) -> None:
        await self.play(interaction, None, notation, match_id=match_id, version=given)

    async def _prompt_state(
        self, interaction: discord.Interaction, match_id: int, given: Stamp, *, acting: bool = True
    ) -> tuple[Match, State, str] | None:
        """The game behind a button, if the stamp `given` it carries is still current and the caller
        is one of its players (with `acting`, one of those the game waits for)."""
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
            await reply(interaction, STRANGER)
            return None
        held = await self.service.held_back(match, interaction.user.id)
        if held is not None and denotes(match, given, held.seen.match.version):
            given = match.version  # the channel's board is still the newest this player has
        if not is_current(match, given):
            await reply(interaction, stale_text(match, given))
            return None
        if held is not None:
            # The other player's turn is still theirs alone: this player's buttons act on, and show,
            # the position the channel has, and nothing of a step that may yet be taken back (nor
            # whether one was: a refusal reads as before that turn began). A menu built on it
            # carries its stamp: the newest's would tell that a private step was taken.
            match, state = held.seen.match, held.seen.state
        if acting and side not in state.to_act():
            waiting = " and ".join(f"<@{u}>" for u in waiting_ids(match, state))
            await reply(interaction, f"It is not your turn: {waiting} is to play.")
            return None
        return match, state, side

    async def open_group_picker(self, interaction: discord.Interaction, match_id: int, given: str) -> None:
        """Take action, step one: which piece (unit, card, front) acts; straight to step two when
        only one can (on a phone, a select of one option is a tap for nothing)."""
        found = await self._prompt_state(interaction, match_id, given)
        if found is None:
            return
        match, state, side = found
        rules = game_of(match)
        mine = state.view(side)
        legal = state.legal_actions(side)
        groups = fmt.groups_with_actions(rules, mine, legal)
        if not groups:
            await reply(interaction, fmt.nothing_alone_text(rules.menu(state.view(None))))
            return
        if len(groups) == 1:
            text, view = self._action_picker(match, rules, mine, legal, groups[0])
            await interaction.response.send_message(text, view=view, ephemeral=True)
            return
        view = views.persistent_view()
        pieces = fmt.chunks([(g, rules.group_label(mine, g)) for g in groups])
        for n, piece in enumerate(pieces):
            part = f" ({n + 1}/{len(pieces)})" if len(pieces) > 1 else ""
            view.add_item(views.UnitSelect.build(match.id, stamp(match), piece, f"Pick what acts{part}", n))
        # the side named: a player of both sides in a test channel, or a phone's glance, knows whose
        title = rules.side(side).title
        await interaction.response.send_message(
            f"Pick what acts for the {title}, then what it does.", view=view, ephemeral=True
        )

    async def open_action_picker(
        self, interaction: discord.Interaction, match_id: int, given: str, group: str
    ) -> None:
        """Take action, step two: what the chosen piece does."""
        found = await self._prompt_state(interaction, match_id, given)
        if found is None:
            return
        match, state, side = found
        rules = game_of(match)
        mine = state.view(side)
        legal = state.legal_actions(side)
        if not fmt.actions_of_group(rules, mine, legal, group):
            await reply(interaction, "That has nothing to do now.")
            return
        text, view = self._action_picker(match, rules, mine, legal, group)
        await interaction.response.edit_message(content=text, view=view)

    def _action_picker(
        self, match: Match, rules: Game, mine: View, legal: Sequence[Action], group: str
    ) -> tuple[str, discord.ui.View]:
        """The words and selects of step two for `group` (which has something to do)."""
        view = views.persistent_view()
        pieces = fmt.chunks(fmt.actions_of_group(rules, mine, legal, group))
        for n, piece in enumerate(pieces):
            # The label is the game's words for the piece, a noun or not ("The rifleman on a8", "Call
            # up into travel zone T3"): the message names it, the placeholder need not.
            part = f" ({n + 1}/{len(pieces)})" if len(pieces) > 1 else ""
            select: discord.ui.Select = discord.ui.Select(
                placeholder=f"Choose an action{part}",
                options=[
                    discord.SelectOption(label=rules.describe(mine, a)[: limits.TEXT], value=str(a))
                    for a in piece
                ],
            )
            view.add_item(views.DoSelect(match.id, stamp(match), group, n, select))
        return f"{rules.group_label(mine, group)}: what now?", view

    async def open_submenu(
        self, interaction: discord.Interaction, match_id: int, given: str, key: str
    ) -> None:
        """A game's submenu (`Choice.opens`), built for the clicker only; a player need not be the one
        to act (a game's standing orders, say, may be given at any time)."""
        found = await self._prompt_state(interaction, match_id, given, acting=False)
        if found is None:
            return
        match, state, side = found
        rules = game_of(match)
        menu = rules.submenu(state.view(side), state.legal_actions(side), key)
        view = views.menu_view(match.id, stamp(match), menu)
        if view is None:
            await reply(interaction, menu.title or "There is nothing to choose here now.")
            return
        await interaction.response.send_message(menu.title or "Choose:", view=view, ephemeral=True)

    async def show_hand(
        self, interaction: discord.Interaction, match_id: int | None, *, game_name: str | None = None
    ) -> None:
        """What only the caller may know (their hand), privately."""
        assert interaction.channel_id is not None
        # the hand names the buttons a Discord player taps, not the commands the console types
        match, text = await self.service.hand(interaction.channel_id, interaction.user.id, tapping=True)
        _check_game(match, game_name)
        if match_id is not None and match.id != match_id:
            await reply(interaction, "This button belongs to a game that is over.")
            return
        if text is None:
            await reply(interaction, "Only the two players have hands in this game.")
            return
        await reply(interaction, text or "You hold nothing secret in this game.")

    async def accept_challenge(self, interaction: discord.Interaction, match_id: int | None = None) -> None:
        assert interaction.channel_id is not None
        match = await self.service.accept(
            interaction.channel_id, interaction.user.id, match_id, entropy=interaction.id
        )
        await self.post_start(interaction, match)
        await self.answered(interaction, "Accepted.")

    async def decline_challenge(self, interaction: discord.Interaction, match_id: int | None = None) -> None:
        assert interaction.channel_id is not None
        match = await self.service.decline(interaction.channel_id, interaction.user.id, match_id)
        verb = "declined" if match.status is Status.DECLINED else "withdrawn"
        line, seal = await self.seal_for(match)
        sent = await reply(
            interaction, f"The challenge was {verb} by {interaction.user.mention}.{line}", ephemeral=False
        )
        await self.sealed(seal, sent)
        await self.answered(interaction, verb.capitalize() + ".")

    async def answered(self, interaction: discord.Interaction, note: str) -> None:
        """A challenge answered by its button loses its buttons, and says how it went."""
        message = interaction.message
        if interaction.type is not discord.InteractionType.component or message is None:
            return
        try:
            await message.edit(content=f"{message.content}\n**{note}**"[: limits.MESSAGE], view=None)
        except discord.HTTPException:
            log.info("Could not take the buttons off challenge message %s", message.id)

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
        held = await self.service.held_back(match, interaction.user.id)
        if held is not None:  # nothing of the other player's turn while it is still theirs alone
            state = held.seen.state
        rules = game_of(match)
        mine = state.view(side)
        on_turn = side in state.to_act()
        legal = list(state.legal_actions(side)) if on_turn else []
        standing = [a for a in standing_actions(rules, verb, state, side) if a not in legal]
        chosen = fmt.filter_choices(rules, mine, [*legal, *standing], kinds, current)
        out: list[app_commands.Choice[str]] = []
        if not on_turn and (verb is None or not chosen):
            waiting = " and the ".join(rules.side(s).title for s in sorted(state.to_act()))
            note = f"Not your turn: the game waits for the {waiting}."
            out.append(app_commands.Choice(name=note[: limits.TEXT], value="not your turn"))
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
        private = await self.service.channel_view(match)
        if private is not None and private.player_id != interaction.user.id:
            state = private.seen.state  # nothing of a turn still private to its player
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
            entropy=interaction.id,
        )
        if against_me:
            await self.post_start(interaction, match)
            return
        extras = terms_text(game, match.options)
        # the date beside the countdown: Discord rounds "in 1 day 12 hours" to "in 2 days"
        due = match.challenge_expires_at
        expires = fmt.DISCORD.deadline(due) if due else "soon"
        wanted = chosen_side_text(game, match.challenger_side)
        await interaction.response.send_message(
            f"{opponent.mention}, {interaction.user.mention} challenges you to {game.title} "
            f"(challenger's side: {wanted}; {hours_per_turn} {'hour' if hours_per_turn == 1 else 'hours'} "
            f"per turn).{extras} "
            f"Accept or decline; the challenge expires {expires}.\n{commitment_text(match, fmt.DISCORD)}",
            view=views.challenge_view(match.id),
            allowed_mentions=discord.AllowedMentions(users=True),
        )

    async def board(self, interaction: discord.Interaction, game: str, focus: str | None) -> None:
        assert interaction.channel_id is not None
        match, state = await self.service.latest(interaction.channel_id)
        _check_game(match, game)
        rules = game_of(match)
        private = await self.service.channel_view(match)
        mine = private is not None and private.player_id == interaction.user.id
        looked_at = private.seen.state if private is not None and not mine else state
        overlay = None
        if focus:
            overlay = focus.strip().lower()
            choices = {c.lower() for c in rules.focus_choices(looked_at.view(None))}
            if overlay not in choices:
                unknown = rules.focus.unknown if rules.focus else "`{}` is not one of the choices."
                await reply(interaction, unknown.format(focus.strip()[:20]))
                return
        if mine:
            # their own turn, still theirs alone: the position as it is, for them only
            await interaction.response.defer(ephemeral=True, thinking=True)
            file = await self.render(match, state, await self.service.last_events(match), overlay)
            view = self.board_components(match, state)
            await interaction.followup.send(
                tapped(match, f"{MID_TURN_NOTE}\n{status_text(match, state, fmt.DISCORD)}", view),
                file=file,
                view=view or discord.utils.MISSING,
                ephemeral=True,
            )
            return
        # Anyone else sees what the channel saw before that turn began, with the answers to a draw
        # offer standing on it, as under that board.
        seen = await self.channel_board(match, state)
        await interaction.response.defer(thinking=True)
        file = await self.render(match, seen.state, seen.events, overlay)
        await interaction.followup.send(
            tapped(seen.match, status_text(match, seen.state, fmt.DISCORD), seen.view)
            + (f"\n{seen.note}" if seen.note else ""),
            file=file,
            view=seen.view or discord.utils.MISSING,
        )

    async def history(self, interaction: discord.Interaction, game: str, count: int) -> None:
        assert interaction.channel_id is not None
        match, _ = await self.service.latest(interaction.channel_id)
        _check_game(match, game)
        entries = await self.service.history_entries(
            interaction.channel_id, limit=count, asker=interaction.user.id
        )
        await reply(interaction, history_text(entries, fmt.DISCORD))

    async def replay(self, interaction: discord.Interaction, game: str) -> None:
        assert interaction.channel_id is not None
        match, _ = await self.service.latest(interaction.channel_id)
        _check_game(match, game)
        await interaction.response.defer(thinking=True)
        private = await self.service.channel_view(match)  # a turn still private is not replayed yet
        upto = private.seen.match.version if private is not None else None
        log_rows = [(side, notation) for side, notation, _ in await self.service.log(match, upto)]
        from render.replay import render_replay

        data = await asyncio.to_thread(render_replay, match.game, match.options, engine_seed(match), log_rows)
        file = discord.File(io.BytesIO(data), filename="replay.gif")
        unlink_when_done(file)
        await interaction.followup.send(
            f"Replay of game #{match.id}: {replay_length(len(log_rows))}.", file=file, wait=True
        )

    async def rules(self, interaction: discord.Interaction, game: str, topic: str) -> None:
        await reply(
            interaction, rules_text(registry.game(game), topic, await self._options_here(interaction, game))
        )

    async def _options_here(self, interaction: discord.Interaction, game: str) -> dict[str, Any] | None:
        """The options of the channel's open match of `game` (its rules' edition), if it has one."""
        if interaction.channel_id is None:
            return None
        match = await self.service.channel_match(interaction.channel_id)
        return match.options if match is not None and match.game == game else None

    async def stats(self, interaction: discord.Interaction, game: str, member: discord.User | None) -> None:
        """A member's record, as the asker may read it: without games played where they cannot look
        (play/privacy.py; `Sight` asks Discord who sees what)."""
        who = member or interaction.user
        guild = interaction.guild_id or 0
        rules = registry.game(game)
        asker, sees = interaction.user.id, self.sight.of(interaction)
        # the sight may ask Discord about channels not in the cache (archived threads): not in 3 s
        await interaction.response.defer(ephemeral=True, thinking=True)
        if self.bot.user is not None and who.id == self.bot.user.id:  # the AI: a rating per level
            records = await self.service.ai_records(guild, game, asker=asker, sees=sees)
            await reply(interaction, ai_stats_text(rules, who.id, records, fmt.DISCORD))
            return
        stats = await self.service.stats(guild, game, who.id, asker=asker, sees=sees)
        await reply(interaction, stats_text(rules, stats, fmt.DISCORD))

    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        me = self.bot.user.id if self.bot.user is not None else None
        await interaction.response.defer(ephemeral=True, thinking=True)  # as for `stats`
        rows = await self.service.leaderboard(
            interaction.guild_id or 0,
            game,
            ai_user_id=me,
            asker=interaction.user.id,
            sees=self.sight.of(interaction),
        )
        await reply(interaction, leaderboard_text(registry.game(game), rows, fmt.DISCORD))

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
        await interaction.followup.send(
            review_text(rules, match, found, fmt.DISCORD), files=files, ephemeral=True
        )

    async def notify(self, interaction: discord.Interaction, enabled: bool) -> None:
        await self.service.set_turn_dms(interaction.user.id, enabled)
        await reply(interaction, "I will DM you when it is your turn." if enabled else "No more turn DMs.")

    async def cancel(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        allowed = bool(interaction.permissions and interaction.permissions.manage_channels)
        match = await self.service.cancel(interaction.channel_id, interaction.user.id, is_admin=allowed)
        line, seal = await self.seal_for(match)
        sent = await reply(
            interaction,
            f"Game #{match.id} was cancelled by {interaction.user.mention}.{line}",
            ephemeral=False,
        )
        await self.sealed(seal, sent)

    # ------------------------------------------------------------------ /wargames

    async def games(self, interaction: discord.Interaction) -> None:
        await reply(interaction, games_text(fmt.DISCORD))

    async def help(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """`/wargames help`: the channel's game briefly (or the one named), else the games hosted."""
        chosen = registry.game(game) if game in registry.names() else None
        if chosen is None and interaction.channel_id is not None:
            found = await self.service.last_match(interaction.channel_id)
            chosen = game_of(found) if found else None
        if chosen is None:
            await reply(interaction, overview(fmt.DISCORD, OVERVIEW_MORE))
        else:
            await reply(
                interaction, game_help(chosen, "discord", fmt.DISCORD, GAME_MORE.format(game=chosen.name))
            )

    async def mygames(self, interaction: discord.Interaction) -> None:
        guild, user = interaction.guild_id or 0, interaction.user.id
        games = await self.service.open_games(guild, user)
        await reply(
            interaction, my_games_text(games, user, fmt.DISCORD, await self.service.away_until(guild, user))
        )

    async def away(self, interaction: discord.Interaction, days: int) -> None:
        user = interaction.user.id
        away = await self.service.away(interaction.guild_id or 0, user, days)
        await reply(interaction, away_text(away, fmt.DISCORD))
        assert away.until is not None
        for match in away.games:
            await self.tell_channel(
                match.channel_id, away_notice(match, user, away.until, match.id in away.owing, fmt.DISCORD)
            )

    async def back(self, interaction: discord.Interaction) -> None:
        user = interaction.user.id
        away = await self.service.back(interaction.guild_id or 0, user)
        await reply(interaction, back_text(away))
        for match in away.games:
            await self.tell_channel(
                match.channel_id, back_notice(match, user, match.id in away.owing, fmt.DISCORD)
            )

    async def verify(self, interaction: discord.Interaction, game: int | None = None) -> None:
        assert interaction.channel_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        guild = interaction.guild_id or 0
        match, report = await fairness.verify(
            self.service, guild, interaction.channel_id, game, interaction.user.id
        )
        await reply(interaction, fairness.verify_text(match, report, fmt.DISCORD)[: limits.MESSAGE])

    async def seal(self, interaction: discord.Interaction) -> None:
        """`/wargames seal`: the channel's next game sealed now, its commitment posted for everyone;
        a seal shown before is told privately rather than posted twice."""
        assert interaction.channel_id is not None
        seal = await self.service.next_seal(interaction.channel_id)
        if seal.shown_at is not None:
            await reply(interaction, fairness.sealed_already_text(seal, fmt.DISCORD))
            return
        await self.sealed(seal, await reply(interaction, fairness.seal_posted_text(seal), ephemeral=False))

    async def export(self, interaction: discord.Interaction, game: int | None = None) -> None:
        assert interaction.channel_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        guild = interaction.guild_id or 0
        match, data = await fairness.export(
            self.service, guild, interaction.channel_id, game, interaction.user.id
        )
        file = discord.File(io.BytesIO(data), filename=fairness.record_name(match))
        await interaction.followup.send(fairness.export_text(match), file=file, ephemeral=True)

    async def undo(
        self, interaction: discord.Interaction, match_id: int | None = None, given: str | None = None
    ) -> None:
        """Take back a step (play/undo.py): the player alone is answered, with the position as it
        is again and fresh buttons; the channel's board stays as it was until their next step."""
        assert interaction.channel_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        if match_id is not None:
            match, _ = await self.service.current(interaction.channel_id)
            if match.id != match_id:
                await reply(interaction, "This button belongs to a game that is over.")
                return
        match, state, notation = await self.service.undo(
            interaction.channel_id,
            interaction.user.id,
            interaction_id=interaction.id,
            expected_version=given,
        )
        view = self.board_components(match, state, seen_by=match.side_of(interaction.user.id))
        rows = [r for r in await self.service.log(match) if r[2] is not None]
        if rows and rows[-1][2] == interaction.user.id:  # another step of this turn to take back
            view = views.with_undo(view, match.id, stamp(match))
        file = await self.render(match, state, [])
        status = tapped(match, status_text(match, state, fmt.DISCORD), view)
        await interaction.followup.send(
            f"Only you see this: you took back `{notation}`. It is still your turn.\n{status}",
            file=file,
            view=view or discord.utils.MISSING,
            ephemeral=True,
        )

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


__all__ = ["APOLOGY", "Core", "friendly", "setup"]


def _clicks(core: Core) -> views.Clicks:
    """For mypy: the cog answers every click the views send it."""
    return core
