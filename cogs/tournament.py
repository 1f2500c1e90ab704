"""`/tournament ...`: Swiss, round-robin and knockout tournaments, a thin adapter over
`play.tournament.TournamentService`.

The commands are declared in the command table (`play.commands.TOURNAMENT`) and built into the
`/tournament` group by `cogs.groups` (added to the tree by the core cog), which calls this cog's
method of each command's name.
Each command body only reads Discord's arguments and who may run tournaments (Manage Server, or
the role `/tournament organisers` sets), calls the service, and posts its words
(`play.tournament_text`). Its own sweep loop records results, closes rounds and starts the next;
it makes each game's thread, posts the standings picture (`render.standings`, drawn in a thread) and
pings the players. Errors end in the core cog's handler, so refusals are private and friendly.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, cast

import discord
from discord.ext import commands, tasks

from cogs import limits, tournament_files, tournament_history
from cogs._format import DISCORD
from cogs._release import unlink_when_done
from cogs._tap import tapped
from cogs._views import _Released, persistent_view
from data import Match, StoreUnavailable
from data.tournaments import Board, Tournament, TournamentStatus
from engine import registry
from play import fairness, knockout_text
from play.errors import AwayBusy, BadRequest
from play.present import status_text
from play.results import Notice
from play.service import game_of
from play.tournament import (
    GameOver,
    RoundDone,
    Started,
    TournamentService,
    Withdrawal,
    began_late,
    seal_owed,
)
from play.tournament_extend import extended_text
from play.tournament_late import late_notice, late_open
from play.tournament_leaving_text import undo_hint, withdraw_question, withdrawal_notice, withdrawn_text
from play.tournament_organise import forfeited_text, reinstated_text
from play.tournament_round import acting
from play.tournament_table import Table
from play.tournament_text import (
    cancelled_text,
    forfeit_win_text,
    game_over_text,
    game_text,
    joined_text,
    no_threads_text,
    ready_text,
    round_moved_text,
    round_now_text,
    round_text,
    signup_text,
    standings_said,
    standings_subtitle,
    standings_title,
    started_text,
    thread_name,
    with_threads,
)
from render.bracket import bracket_png
from render.standings import Row, standings_png

if TYPE_CHECKING:
    from cogs.core import Core
    from play.service import MatchService
    from settings import Settings

log = logging.getLogger("bot.tournament")

# Where a message of a tournament states a round's end (the round's announcement, a game's first
# message in its thread): the time after "ends", as DISCORD.deadline writes it.
ROUND_END = re.compile(r"(?<=ends )<t:-?\d+:R>(?: \(<t:-?\d+:f>\))?")


def _cog(interaction: discord.Interaction) -> Tournaments:
    cog = interaction.client.get_cog("Tournaments")  # type: ignore[attr-defined]
    if cog is None:
        raise RuntimeError("the tournament cog is not loaded")
    return cast("Tournaments", cog)


# Each button's label and style by its verb: the sign-up message's pair, and the private question
# before a withdrawal (the one who clicks is the one who asked).
_BUTTONS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "withdraw": ("Withdraw", discord.ButtonStyle.danger),
    "stay": ("Stay in", discord.ButtonStyle.secondary),
}


class TournamentButton(
    _Released,
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"bw:t(?P<verb>join|leave|withdraw|stay):(?P<tid>\d+)",
):
    """A tournament's button (works after a restart: the verb and the id are in the custom id)."""

    def __init__(self, verb: str, tournament_id: int) -> None:
        label, style = _BUTTONS[verb]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"bw:t{verb}:{tournament_id}"))
        self.verb = verb
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentButton:
        return cls(match["verb"], int(match["tid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        if self.verb in ("join", "leave"):
            answer = cog.signup(interaction, self.verb, self.tournament_id)
        else:
            answer = cog.confirm_withdrawal(interaction, self.verb, self.tournament_id)
        await cog.core.guarded(interaction, answer)


def withdraw_view(tournament_id: int) -> discord.ui.View:
    view = persistent_view()
    view.add_item(TournamentButton("withdraw", tournament_id))
    view.add_item(TournamentButton("stay", tournament_id))
    return view


def signup_view(tournament_id: int) -> discord.ui.View:
    view = persistent_view()
    view.add_item(TournamentButton("join", tournament_id))
    view.add_item(TournamentButton("leave", tournament_id))
    return view


class Tournaments(commands.Cog):
    """The tournament commands' bodies (`/tournament`, built from the table by
    `cogs.groups`), their buttons and their sweep."""

    def __init__(self, bot: commands.Bot, service: MatchService, settings: Settings) -> None:
        """The bot's services come in here (see `setup`): this package imports nothing from bot.py."""
        self.bot = bot
        self.service = TournamentService.over(service)
        self._starting: dict[int, asyncio.Lock] = {}
        self._told_no_threads: set[tuple[int, int]] = set()  # (tournament, round): said once a process
        self._sweeping = asyncio.Lock()  # the loop's sweep and one asked for (tests) never overlap
        # a tournament being made is shown by its command; what a sweep or a join finds owed, after
        self._showing = asyncio.Lock()
        self.sweeper = tasks.loop(seconds=settings.sweep_seconds)(self._sweep_tick)
        self.sweeper.before_loop(self.bot.wait_until_ready)

    @property
    def core(self) -> Core:
        core = self.bot.get_cog("Core")
        if core is None:
            raise RuntimeError("the core cog is not loaded")
        return cast("Core", core)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(TournamentButton)
        self.core.start_tellers.append(self.tell_owed_start)  # its games' first messages are its own
        self.core.draw_notes.append(self.knockout_draw_note)  # a draw offered in a knockout's tie
        self.sweeper.start()

    async def cog_unload(self) -> None:
        self.sweeper.cancel()
        core = cast("Core | None", self.bot.get_cog("Core"))
        if core is not None and self.tell_owed_start in core.start_tellers:
            core.start_tellers.remove(self.tell_owed_start)
        if core is not None and self.knockout_draw_note in core.draw_notes:
            core.draw_notes.remove(self.knockout_draw_note)

    # ------------------------------------------------------------------ who may run them

    async def organiser(self, interaction: discord.Interaction) -> bool:
        perms = interaction.permissions
        if perms is not None and perms.manage_guild:
            return True
        role = await self.service.organiser_role(interaction.guild_id or 0)
        user = interaction.user
        return role is not None and isinstance(user, discord.Member) and any(r.id == role for r in user.roles)

    # ------------------------------------------------------------------ commands

    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        days: int,
        rounds: int | None = None,
        format: str | None = None,
        tiebreaks: str | None = None,
        max_players: int | None = None,
        signup_days: int | None = None,
        name: str | None = None,
        options: str | None = None,
    ) -> None:
        assert interaction.channel_id is not None
        if isinstance(interaction.channel, discord.Thread):
            await self.core_reply(
                interaction,
                "Create a tournament in a text channel, not a thread: each of its games gets a "
                "thread of that channel.",
            )
            return
        organiser = await self.organiser(interaction)
        async with self._showing:  # what is owed is read once this is done
            tournament = await self.service.create(
                guild_id=interaction.guild_id or 0,
                channel_id=interaction.channel_id,
                user_id=interaction.user.id,
                game=game,
                rounds=rounds,
                days=days,
                name=name,
                options=options or "",
                organiser=organiser,
                format=format,
                max_players=max_players,
                tiebreaks=tiebreaks,
                signup_days=signup_days,
            )
            await self.announce(interaction, tournament)

    async def announce(self, interaction: discord.Interaction, tournament: Tournament) -> None:
        """A new tournament's seal, then its sign-up list with the Join button: the seal in a message
        of its own, never edited (the list is, at each join), and first, so every sign-up follows it
        (docs/fairness.md, "Tournaments"). Cut short (a crash), what is left is owed (`show_owed`)."""
        await interaction.response.send_message(fairness.tournament_seal_text(tournament))
        sealed = await interaction.original_response()
        await self.service.seal_shown(tournament, sealed.id)
        text = signup_text(registry.game(tournament.game), tournament, [], DISCORD)
        listed = await interaction.followup.send(text, view=signup_view(tournament.id), wait=True)
        await self.service.set_message(tournament, listed.id)

    async def show_owed(self, tournament: Tournament) -> None:
        """What a tournament taking sign-ups is owed since its making was cut short (a crash, a post
        that failed): its seal, then its sign-up list, as they would have come; each recorded once
        it is posted, so it is posted at least once; a crash in between posts it again only after
        Discord's few minutes of nonces (docs/reliability.md, "Posted once")."""
        async with self._showing:
            now = await self.service.by_id(tournament.id)
            if now.status is not TournamentStatus.SIGNUP:
                return
            channel = await self.core.channel(now.channel_id)
            if not isinstance(channel, discord.TextChannel):
                log.warning("Tournament %s: its channel is gone or not a text channel", now.id)
                return
            try:
                if seal_owed(now):
                    sealed = await channel.send(
                        fairness.tournament_seal_text(now), nonce=limits.nonce("t", now.id, "seal")
                    )
                    await self.service.seal_shown(now, sealed.id)
                    log.info("Tournament %s: posted its seal, owed since it was made", now.id)
                if now.message_id is None:
                    entries = await self.service.entries(now)
                    text = signup_text(registry.game(now.game), now, entries, DISCORD)
                    listed = await channel.send(
                        text[:2000],
                        view=signup_view(now.id),
                        allowed_mentions=discord.AllowedMentions.none(),
                        nonce=limits.nonce("t", now.id, "list"),
                    )
                    await self.service.set_message(now, listed.id)
            except discord.HTTPException as exc:
                log.warning(
                    "Tournament %s: could not post what it is owed (%s); the sweep tries again", now.id, exc
                )

    async def join(self, interaction: discord.Interaction) -> None:
        tournament = await self.service.open_in(self.room(interaction))
        await self.signup(interaction, "join", tournament.id)

    @staticmethod
    def room(interaction: discord.Interaction) -> int:
        """The tournament's channel: this one, or the parent of the game's thread one asks in."""
        channel = interaction.channel
        if isinstance(channel, discord.Thread) and channel.parent_id is not None:
            return channel.parent_id
        assert interaction.channel_id is not None
        return interaction.channel_id

    async def leave(self, interaction: discord.Interaction) -> None:
        tournament = await self.service.open_in(self.room(interaction))
        await self.signup(interaction, "leave", tournament.id)

    async def signup(self, interaction: discord.Interaction, verb: str, tournament_id: int) -> None:
        tournament = await self.service.by_id(tournament_id, self.room(interaction))
        if verb == "leave" and tournament.status is TournamentStatus.RUNNING:
            ahead = await self.service.withdrawal(tournament, interaction.user.id)
            await interaction.response.send_message(
                withdraw_question(ahead, DISCORD),
                view=withdraw_view(tournament.id),
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        late = 0
        if verb == "join":
            if seal_owed(tournament):  # shown first: this sign-up came before it, so it is refused
                await self.show_owed(tournament)
            tournament = await self.service.join(tournament, interaction.user.id, entropy=interaction.id)
            if tournament.status is TournamentStatus.RUNNING:  # a latecomer: from which round
                mine = [e for e in await self.service.entries(tournament) if e.user_id == interaction.user.id]
                late = mine[0].joined_round if mine else tournament.round
            said = joined_text(tournament, DISCORD, late)
        else:
            tournament = await self.service.leave(tournament, interaction.user.id)
            said = f"You are no longer signed up for **{tournament.name}**."
        await self.core_reply(interaction, said)
        if late:
            await self.say_in_channel(tournament, late_notice(tournament, interaction.user.id, late, DISCORD))
        await self.refresh_signup(tournament)

    async def say_in_channel(self, tournament: Tournament, text: str) -> None:
        """One line in the tournament's channel, pinging nobody; lost quietly (logged) if it fails."""
        channel = await self.core.channel(tournament.channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("Tournament %s: could not post in its channel: %s", tournament.id, exc)

    async def confirm_withdrawal(
        self, interaction: discord.Interaction, verb: str, tournament_id: int
    ) -> None:
        """The answer to the private question: withdraw now (the channel is told), or stay in."""
        tournament = await self.service.by_id(tournament_id, self.room(interaction))
        if verb != "withdraw":
            await interaction.response.edit_message(
                content=f"You are still in **{tournament.name}**; nothing changed.", view=None
            )
            return
        done = await self.service.withdraw_from(tournament_id, interaction.user.id)
        await interaction.response.edit_message(content=withdrawn_text(done, DISCORD), view=None)
        await self.tell_channel(done, None)

    async def tell_channel(self, done: Withdrawal, by: int | None) -> None:
        """One line in the tournament's channel: who withdrew, or who removed whom (only they are
        pinged), and the sign-up message's list brought up to date."""
        channel = await self.core.channel(done.tournament.channel_id)
        if isinstance(channel, discord.TextChannel | discord.Thread):
            await channel.send(
                withdrawal_notice(done, by, DISCORD),
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(done.user_id)]),
            )
        await self.refresh_signup(done.tournament)

    async def remove(self, interaction: discord.Interaction, member: discord.User) -> None:
        """Also from a game's thread (where an organiser meets a no-show): the channel is told."""
        done = await self.service.remove(
            self.room(interaction),
            member.id,
            organiser=await self.organiser(interaction),
            by=interaction.user.id,
        )
        said = withdrawal_notice(done, interaction.user.id, DISCORD)
        channel = await self.core.channel(done.tournament.channel_id)
        mentions = discord.AllowedMentions(users=[discord.Object(done.user_id)])
        await self.said_here_and_there(interaction, said, channel, mentions)
        await self.refresh_signup(done.tournament)
        if hint := undo_hint(done, DISCORD):  # to the organiser alone: how to take it back
            await interaction.followup.send(
                hint, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )

    async def said_here_and_there(
        self,
        interaction: discord.Interaction,
        said: str,
        channel: discord.abc.Messageable | None,
        mentions: discord.AllowedMentions,
    ) -> None:
        """An organiser's act told in the tournament's `channel`: typed there, as the answer; typed in
        a thread (a game's), to the organiser there and to the channel as a message of its own."""
        if isinstance(interaction.channel, discord.Thread):
            await self.core_reply(interaction, said)
            if isinstance(channel, discord.TextChannel):
                await channel.send(said, allowed_mentions=mentions)
        else:
            await interaction.response.send_message(said, allowed_mentions=mentions)

    async def reinstate(self, interaction: discord.Interaction, member: discord.User) -> None:
        """Undo a removal made by mistake: the channel is told what the player missed."""
        done = await self.service.reinstate(
            self.room(interaction),
            member.id,
            organiser=await self.organiser(interaction),
            by=interaction.user.id,
        )
        said = reinstated_text(done, interaction.user.id, DISCORD)
        channel = await self.core.channel(done.tournament.channel_id)
        await self.said_here_and_there(
            interaction, said, channel, discord.AllowedMentions(users=[discord.Object(member.id)])
        )
        await self.refresh_signup(done.tournament)

    async def forfeit(self, interaction: discord.Interaction, member: discord.User) -> None:
        """End a no-show's game now: both players are told in its thread (the notice and its board,
        as a loss on time is told), the organiser privately; the round closes if it was its last."""
        done = await self.service.forfeit(
            self.room(interaction),
            member.id,
            organiser=await self.organiser(interaction),
            by=interaction.user.id,
        )
        await self.core_reply(interaction, forfeited_text(done, DISCORD))
        await self.core.tell([done.notice])
        await self.run_sweep()

    async def extend(self, interaction: discord.Interaction, hours: int) -> None:
        """Give the running round more time: the channel is told (nobody pinged: nothing to do),
        and the round's announcement and its games' first messages now state its new end."""
        done = await self.service.extend(
            self.room(interaction), hours, organiser=await self.organiser(interaction), by=interaction.user.id
        )
        channel = await self.core.channel(done.tournament.channel_id)
        await self.said_here_and_there(
            interaction, extended_text(done, DISCORD), channel, discord.AllowedMentions.none()
        )
        if isinstance(channel, discord.TextChannel):
            now = done.tournament
            games = [
                b
                for b in await self.service.store.tournament_boards(now.id)
                if b.round == now.round and b.second_id is not None
            ]
            await self.correct_ends(now, channel, games)

    async def round(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """The round now, privately (anyone may ask; nobody is pinged): of this channel's tournament,
        or of another by its number."""
        found = await tournament_history.chosen(self, interaction, tournament)
        now = await self.service.round_of(self.room(interaction), found, asked_in=interaction.channel_id)
        await interaction.response.send_message(
            round_now_text(now, DISCORD),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def core_reply(self, interaction: discord.Interaction, text: str) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def refresh_signup(self, tournament: Tournament) -> None:
        """The sign-up message lists who is in (after each join or leave, and at the start)."""
        if tournament.message_id is None:
            return
        channel = await self.core.channel(tournament.channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return
        entries = await self.service.entries(tournament)
        text = signup_text(registry.game(tournament.game), tournament, entries, DISCORD)
        keep = tournament.status is TournamentStatus.SIGNUP or late_open(tournament)  # latecomers join
        view = signup_view(tournament.id) if keep else None
        try:
            await channel.get_partial_message(tournament.message_id).edit(content=text[:2000], view=view)
        except discord.HTTPException:
            log.info("Could not update the sign-up message of tournament %s", tournament.id)

    async def start(self, interaction: discord.Interaction) -> None:
        room = self.room(interaction)
        if isinstance(interaction.channel, discord.Thread):  # typed in a game's thread (or another)
            found = await self.service.open_in(room)
            if found.status is TournamentStatus.SIGNUP:
                raise BadRequest(
                    f"Start it in {DISCORD.channel(room)}, the tournament's channel: the pairings are "
                    "posted there."
                )
        started = await self.service.start(
            room, organiser=await self.organiser(interaction), present=self.present
        )
        await interaction.response.defer(thinking=True)
        tournament = started.tournament
        game = registry.game(tournament.game)
        boards = await self.service.store.tournament_boards(tournament.id)
        sent = await interaction.followup.send(
            started_text(game, tournament, boards, DISCORD),
            allowed_mentions=discord.AllowedMentions(users=True),
            wait=True,
        )
        await self.remember(self.service.round_shown(tournament, 1, sent.id))  # its end may move
        await self.refresh_signup(tournament)
        await self.start_boards(tournament, started.boards)

    async def standings(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        """In the channel asked in; another channel's tournament (by its number), to the asker alone."""
        found = await tournament_history.chosen(self, interaction, tournament)
        table = await self.service.standings_of(self.room(interaction), found)
        private = tournament_history.elsewhere(self, interaction, table.tournament)
        await interaction.response.defer(thinking=True, ephemeral=private)
        file = await self.standings_file(table)
        await interaction.followup.send(standings_said(table, DISCORD), file=file, ephemeral=private)

    async def crosstable(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        found = await tournament_history.chosen(self, interaction, tournament)
        await tournament_files.crosstable(self, interaction, found)

    async def export(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        found = await tournament_history.chosen(self, interaction, tournament)
        await tournament_files.export(self, interaction, found)

    async def past(self, interaction: discord.Interaction) -> None:
        await tournament_history.past(self, interaction)

    async def complete_tournaments(
        self, interaction: discord.Interaction, typed: str
    ) -> list[discord.app_commands.Choice[int]]:
        return await tournament_history.complete(self, interaction, typed)

    async def cancel(self, interaction: discord.Interaction) -> None:
        """Also from a game's thread: the cancel (and the secret it reveals) is posted in the channel."""
        done = await self.service.cancel(
            self.room(interaction), organiser=await self.organiser(interaction), by=interaction.user.id
        )
        reveal = fairness.tournament_reveal_text(done)
        said = cancelled_text(done, interaction.user.mention, DISCORD) + (f"\n{reveal}" if reveal else "")
        channel = await self.core.channel(done.channel_id)
        if isinstance(interaction.channel, discord.Thread) and isinstance(channel, discord.TextChannel):
            await self.core_reply(interaction, said)
            await channel.send(said, allowed_mentions=discord.AllowedMentions.none())
        else:
            await interaction.response.send_message(said, allowed_mentions=discord.AllowedMentions.none())
        await self.refresh_signup(done)

    async def organisers(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        perms = interaction.permissions
        allowed = perms is not None and perms.manage_guild
        await self.service.set_organiser_role(
            interaction.guild_id or 0, role.id if role else None, organiser=allowed
        )
        said = (
            f"Members with the role {role.name} may now run tournaments here: create, start and cancel "
            "them, remove and reinstate players, forfeit a no-show and extend a round."
            if role
            else "Only members who can manage the server may run tournaments here now."
        )
        await self.core_reply(interaction, said)

    # ------------------------------------------------------------------ the games

    async def start_boards(self, tournament: Tournament, boards: list[Board]) -> None:
        """Each pairing's game in a thread of the tournament's channel, both players pinged."""
        lock = self._starting.setdefault(tournament.id, asyncio.Lock())
        async with lock:
            ends = (await self.service.by_id(tournament.id)).round_ends_at
            late: list[int] = []
            for board in boards:
                # read again for each: a cancel may come while the threads are being opened
                waiting = {(b.round, b.board) for b in await self.service.pending_starts(tournament)}
                if (board.round, board.board) not in waiting:
                    continue
                if not await self.start_board(tournament, board):
                    break  # no thread may be opened: the next sweep tries again
                if began_late(ends, (await self.service.by_id(tournament.id)).round_ends_at):
                    late.append(board.board)
            if late:
                await self.round_moved(tournament, late)
            await self.link_threads(tournament)

    async def link_threads(self, tournament: Tournament) -> None:
        """Name each game's thread beside its pairing in the round's announcement (posted before
        the threads were opened): a player reading it on a phone taps through to their game. A
        message deleted, out of reach or that would grow too long is left as it is."""
        now = await self.service.by_id(tournament.id)
        announced = await self.service.round_message(now, now.round)
        channel = await self.core.channel(now.channel_id)
        if announced is None or not isinstance(channel, discord.TextChannel):
            return
        boards = [b for b in await self.service.store.tournament_boards(now.id) if b.round == now.round]
        try:
            message = await channel.fetch_message(announced)
            text = with_threads(message.content, boards, DISCORD)
            if text != message.content and len(text) <= 2000:
                await message.edit(content=text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("Could not name the threads in tournament %s's round announcement: %s", now.id, exc)

    async def round_moved(self, tournament: Tournament, late: list[int]) -> None:
        """One line in the channel: the round's new end, moved by the games begun late (`late`), so
        the players of its other games, whose first messages named the old end, know it too."""
        now = await self.service.by_id(tournament.id)
        games = [
            b
            for b in await self.service.store.tournament_boards(now.id)
            if b.round == now.round and b.second_id is not None
        ]
        channel = await self.core.channel(now.channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return
        try:
            await channel.send(
                round_moved_text(now, late, len(games), DISCORD),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.warning("Tournament %s: could not say that its round now ends later", now.id)
        await self.correct_ends(now, channel, games)

    async def correct_ends(
        self, now: Tournament, channel: discord.TextChannel | discord.Thread, games: list[Board]
    ) -> None:
        """The round's new end in its announcement (in `channel`) and in its `games`' first messages."""
        if now.round_ends_at is None:
            return
        new = DISCORD.deadline(now.round_ends_at)
        announced = await self.service.round_message(now, now.round)
        if announced is not None:
            await self.correct_end(channel, announced, new)
        for board in games:
            if board.thread_id is not None and board.message_id is not None:
                thread = await self.core.channel(board.thread_id)
                if isinstance(thread, discord.Thread):
                    await self.correct_end(thread, board.message_id, new)

    async def correct_end(
        self, channel: discord.TextChannel | discord.Thread, message_id: int, new: str
    ) -> None:
        """Edit the round's end a message states (the round's announcement, a game's first message)
        to `new`; a message deleted or out of reach is left as it is (logged), the round goes on."""
        try:
            message = await channel.fetch_message(message_id)
            text = ROUND_END.sub(new, message.content)
            if text != message.content:
                await message.edit(content=text)
        except discord.HTTPException as exc:
            log.info(
                "Could not correct the round's end in message %s of channel %s: %s",
                message_id,
                channel.id,
                exc,
            )

    async def start_board(self, tournament: Tournament, board: Board) -> bool:
        """Open the board's thread (unless it has one) and start its game there; False if the bot may
        not open threads in the channel (the channel is told once, the next sweep tries again)."""
        channel = await self.core.channel(tournament.channel_id)
        if not isinstance(channel, discord.TextChannel):
            log.warning("Tournament %s: its channel is gone or not a text channel", tournament.id)
            return True
        thread_id = board.thread_id
        if thread_id is None:
            names = {
                u: await self.name_of(tournament.guild_id, u) for u in (board.first_id, board.second_id) if u
            }
            try:
                thread = await channel.create_thread(
                    name=thread_name(tournament, board, lambda u: names.get(u, "player")),
                    type=discord.ChannelType.public_thread,
                )
            except discord.Forbidden:
                await self.no_threads(tournament, channel)
                return False
            thread_id = thread.id
        try:
            match = await self.service.start_board(board, thread_id)
        except BadRequest as exc:  # cancelled, or its round closed, meanwhile: the game is not played
            log.info("Tournament %s: board %s not started: %s", tournament.id, board.board, exc)
            await self.say_in_thread(thread_id, str(exc))
            return False
        except AwayBusy:  # another process writes a player's time away: the next sweep starts it
            log.info(
                "Tournament %s: board %s waits for a time away being written", tournament.id, board.board
            )
            return True
        await self.post_first(board, match)
        return True

    async def post_first(self, board: Board, match: Match, *, owed: bool = False) -> None:
        """The first message of a board's game in its thread, both players pinged: owed since the
        game was stored (`start_match`), it carries a nonce, so posted again after a crash (its
        record cut off) it is, within Discord's window, the first one (docs/reliability.md). With
        `owed` (after a crash), one found among the thread's latest messages is kept, not posted."""
        tournament = await self.service.by_id(board.tournament_id)  # a game begun late moved its end
        rules = game_of(match)
        assert match.snapshot is not None
        state = rules.from_json(match.snapshot)
        target = await self.core.channel(match.channel_id)
        if target is None:
            await self.core.service.board_delivered(match.id, match.version)  # nowhere to post it
            return
        # After a restart the game may have begun already: the board the channel may see of it,
        # with the answers to a draw offer standing, as every board
        seen = await self.core.channel_board(match, state)
        file = await self.core.render(match, seen.state, seen.events)
        clock = match.game_clock.total if match.game_clock is not None else None
        status = tapped(seen.match, status_text(match, seen.state, DISCORD), seen.view)
        status += f"\n{seen.note}" if seen.note else ""
        found = await self.core.shown_in(target, seen.match, seen.match.version) if owed else None
        sent = found or await target.send(
            f"{game_text(rules, tournament, board, DISCORD, clock)}\n{status}",
            file=file,
            view=seen.view or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions(users=True),
            nonce=limits.start_nonce(match.id),
        )
        await self.remember(self.service.board_shown(board, sent.id))  # it states the round's end
        await self.core.service.board_delivered(match.id, match.version)
        await self.tell_ready(tournament, board, match, sent.jump_url)

    async def knockout_draw_note(self, match: Match) -> str | None:
        """Under a board with a draw offer standing in a knockout's game: whom the draw sends on."""
        higher = await self.service.draw_sends_on(match.id)
        return None if higher is None else knockout_text.draw_sends_on(higher, DISCORD)

    async def tell_owed_start(self, match: Match) -> bool:
        """A game's first message owed since a crash (`Outbox.deliver_owed`): whether `match` is a
        tournament's game, whose first message is the tournament's; if so it is posted here, unless
        the game is not yet on its board (the crash came before: the sweep's `start_boards` posts it)
        or another start has posted it meanwhile."""
        boards = await self.service.store.boards_in_thread(match.channel_id)
        players = set(match.players)
        board = next(
            (b for b in boards if b.match_id in (None, match.id) and {b.first_id, b.second_id} == players),
            None,
        )
        if board is None:
            return False
        if board.match_id is None:
            return True
        async with self._starting.setdefault(board.tournament_id, asyncio.Lock()):  # not beside a start
            owed = await self.core.service.owed_boards()
            if any(m == match.id for m, _, _ in owed):
                await self.post_first(board, await self.core.service.match(match.id), owed=True)
        return True

    async def tell_ready(self, tournament: Tournament, board: Board, match: Match, link: str) -> None:
        """A DM to each player of a game just opened who asked for turn DMs (`/wargames notify`),
        linking its first message; a player whose DMs are closed is skipped quietly (logged): the
        ping in the thread has told them already."""
        rules = registry.game(tournament.game)
        waiting = acting(match)
        for user in (board.first_id, board.second_id):
            if user is not None and await self.service.matches.wants_turn_dms(user):
                await self.core.dm(user, ready_text(rules, tournament, board, user, waiting, link, DISCORD))

    async def say_in_thread(self, thread_id: int, text: str) -> None:
        """One line in a board's thread, pinging nobody: why it holds no game, or what comes next
        after its game. Lost if the post fails: the channel's own posts say it all again."""
        thread = await self.core.channel(thread_id)
        if thread is None:
            return
        try:
            await thread.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.info("Could not post in thread %s: %s", thread_id, exc)

    async def no_threads(self, tournament: Tournament, channel: discord.TextChannel) -> None:
        """Tell the channel, once a round, that the bot may not open its game threads."""
        key = (tournament.id, tournament.round)
        if key in self._told_no_threads:
            return
        self._told_no_threads.add(key)
        log.warning("Tournament %s: no permission to open threads in its channel", tournament.id)
        try:
            await channel.send(no_threads_text(tournament, DISCORD))
        except discord.HTTPException:
            log.warning("Tournament %s: could not say so in its channel either", tournament.id)

    async def name_of(self, guild_id: int, user_id: int) -> str:
        guild = self.bot.get_guild(guild_id)
        member = guild.get_member(user_id) if guild is not None else None
        if member is None and guild is not None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                member = None
        if member is not None:
            return member.display_name
        try:
            return (self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)).display_name
        except discord.HTTPException:
            return "a former member"

    async def present(self, guild_id: int, user_id: int) -> bool:
        """Whether a player is still in the server (asked when a round is paired: the bot has no
        members intent, so it is not told when someone leaves)."""
        guild = self.bot.get_guild(guild_id)
        if guild is None:
            return True  # cannot tell: pair them
        try:  # asked of Discord, not the cache: without the members intent the cache is not kept
            await guild.fetch_member(user_id)
        except discord.NotFound:
            return False
        except discord.HTTPException:
            return True
        return True

    @commands.Cog.listener()
    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        await self.service.withdraw(payload.guild_id, payload.user.id)

    async def standings_file(self, table: Table) -> discord.File:
        if table.bracket:  # a knockout: its bracket is the picture (RULES.md "Knockout")
            names = {x.user_id: await self.name_of(table.tournament.guild_id, x.user_id) for x in table.lines}
            drawn = await asyncio.to_thread(bracket_png, *knockout_text.picture(table, names))
            bracket = discord.File(io.BytesIO(drawn), filename="bracket.png")
            unlink_when_done(bracket)
            return bracket
        rows = [
            Row(
                line.rank,
                await self.name_of(table.tournament.guild_id, line.user_id),
                line.points,
                *table.shown(line),  # the first two of the tournament's tie-breaks (table.heads)
                line.change,
                line.withdrawn,
                line.joined,
            )
            for line in table.lines
        ]
        t = table.tournament
        title = standings_title(t, table.round)
        png = await asyncio.to_thread(standings_png, title, standings_subtitle(table), rows, table.heads)
        file = discord.File(io.BytesIO(png), filename="standings.png")
        unlink_when_done(file)
        return file

    # ------------------------------------------------------------------ the sweep

    async def _sweep_tick(self) -> None:
        try:
            await self.run_sweep()
        except StoreUnavailable as exc:
            log.warning("The tournament sweep could not reach the database (%s); it will run again", exc)
        except Exception:
            log.exception("The tournament sweep failed; it will run again")

    async def run_sweep(self, now: float | None = None) -> None:
        """Close rounds that are over, post their standings, and start the games owed."""
        async with self._sweeping:
            await self._sweep(now)

    async def _sweep(self, now: float | None) -> None:
        for owed in await self.service.unshown():  # a tournament's seal and list, cut short by a crash
            await self.show_owed(owed)
        for item in await self.service.sweep(now, self.present, games=True):
            if isinstance(item, Notice):  # a deadline that fell before its round's end, told first
                await self.core.tell([item])
            elif isinstance(item, GameOver):
                await self.game_over(item)
            elif isinstance(item, RoundDone):
                await self.post_round(item)
                await self.service.announced(item.table)
                if item.boards:
                    await self.start_boards(item.table.tournament, item.boards)
            elif isinstance(item, Started):
                await self.start_boards(item.tournament, item.boards)

    async def game_over(self, item: GameOver) -> None:
        """One line in the thread of a game that ended while its round runs on: until when the round
        may last, and what comes next."""
        if item.board.thread_id is not None:
            said = game_over_text(item.tournament, item.going, DISCORD)
            await self.say_in_thread(item.board.thread_id, said)

    async def post_round(self, item: RoundDone) -> None:
        tournament = item.table.tournament
        channel = await self.core.channel(tournament.channel_id)
        if channel is None:
            return
        # the post after round N is kept as round N+1's message (it announces that round, with its
        # end): found kept, it went out before a crash that came before the round was marked
        # announced, and neither it nor its forfeit DMs are sent again
        if await self.service.round_message(tournament, item.table.round + 1) is None:
            await self.post_standings(item, channel)
        if item.table.round == tournament.rounds // 2 or item.table.final:  # late entry closed now
            await self.refresh_signup(await self.service.by_id(tournament.id))

    async def post_standings(self, item: RoundDone, channel: discord.abc.Messageable) -> None:
        """The round's standings and the next round's pairings, and each forfeit win's DM. Each has
        a nonce of its own (the tournament, the round, the kind): sent again after a crash that came
        before its id was kept, Discord returns the first (docs/reliability.md, "Posted once")."""
        tournament = item.table.tournament
        text = round_text(item.table, item.pairings, DISCORD, item.timed_out, item.forfeited)
        if item.table.final and (reveal := fairness.tournament_reveal_text(tournament)):
            text += f"\n{reveal}"  # the tournament is over: its seal's secret can be told
        sent = await channel.send(
            text[:2000],
            file=await self.standings_file(item.table),
            allowed_mentions=discord.AllowedMentions(users=True),
            nonce=limits.nonce("t", tournament.id, "r", item.table.round),
        )
        await self.remember(self.service.round_shown(tournament, item.table.round + 1, sent.id))
        for board in item.pairings:  # a round-robin's forfeit win: nothing to play, said by DM too
            against = item.table.forfeits.get((board.round, board.first_id))
            if against is not None and await self.service.matches.wants_turn_dms(board.first_id):
                said = forfeit_win_text(tournament, board.round, against, sent.jump_url, DISCORD)
                await self.core.dm(
                    board.first_id,
                    said,
                    nonce=limits.forfeit_nonce(tournament.id, board.round, board.first_id),
                )

    @staticmethod
    async def remember(kept: Awaitable[None]) -> None:
        """Keep the id of a message that states a round's end, to correct it if the end moves: a
        store out of reach costs that correction alone, never the post's own work."""
        try:
            await kept
        except StoreUnavailable as exc:
            log.warning("Could not keep a tournament message's id (%s): its round's end stays as posted", exc)


async def setup(bot: commands.Bot) -> None:
    own: Any = bot  # the bot's services, handed in
    await bot.add_cog(Tournaments(bot, own.service, own.settings))


__all__ = ["TournamentButton", "Tournaments", "setup"]
