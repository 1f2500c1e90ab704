"""The match service's ground floor: the store, the per-match locks and the write-through cache of
each channel's open game (see play/service.py's docstring for why it is kept and when it is dropped)."""

from __future__ import annotations

import asyncio
import itertools
import random
import secrets
import time
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from dataclasses import replace

from data import (
    ActionRecord,
    Database,
    Match,
    MatchChange,
    Status,
)
from engine.protocol import State
from engine.review import Review
from play.errors import (
    NoMatch,
    StalePrompt,
)
from play.markup import PLAIN, Markup
from play.results import (
    CHALLENGE_TTL,
    LIVE_GAMES_KEPT,
    NO_GAME,
    Played,
    PrivateTurn,
    Step,
    _handed_out,
    game_of,
)
from play.thinking import Thinker

# A challenge that never began, as the player who acts on it just after hears why.
UNANSWERED = {
    Status.DECLINED: "was declined",
    Status.EXPIRED: "expired unanswered",
    Status.CANCELLED: "was cancelled",
}


# A read of a channel's game overtaken by a change of it here is read again this many times at most
# (`LiveMatches._live_game`); the moments of such changes are kept for this many channels.
LIVE_READ_TRIES = 3
TOUCHES_KEPT = 4 * LIVE_GAMES_KEPT


class LiveMatches:
    """The store behind the service and each channel's open game kept in memory (written through)."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        challenge_ttl: float = CHALLENGE_TTL,
        outbox: bool = False,
        thinker: Thinker | None = None,
        guilds: Callable[[int], bool] | None = None,
        seeded_inputs: bool | None = None,
        markup: Markup = PLAIN,
    ) -> None:
        """`outbox`: every stored move owes its board to the channel until `board_delivered` (the
        bot posts boards after acknowledging the move; the console draws them at once).
        `thinker`: where the AI thinks (the bot's worker processes; default: a thread).
        `guilds`: which guilds this process serves (its shards' own, docs/architecture.md); its sweep
        and its owed boards are theirs alone. None: every guild.
        `markup`: how the adapter names players in the refusals that name one (play/markup.py)."""
        self.db = db
        self.markup: Markup = markup
        self.thinker = thinker or Thinker(0)
        self._guilds = guilds
        self.outbox = outbox
        self.clock = clock
        self.rng = rng or random.Random()
        # the secret of each game's dice (play/fairness.py): from the OS, or from `rng` in tests
        self.new_secret: Callable[[], bytes] = (
            (lambda: rng.randbytes(32)) if rng else (lambda: secrets.token_bytes(32))
        )
        # a channel's seal, the secret of its next game (play/challenges.py): from the OS, or in a
        # seeded run from a generator of its own, so that drawing one leaves `rng`'s games alone; it
        # is seeded by `rng`'s state (read, not drawn from), so each seed has its own seals
        seals = random.Random(repr(rng.getstate()) if rng else "channel seals")
        self.new_seal: Callable[[], bytes] = (
            (lambda: seals.randbytes(32)) if rng else (lambda: secrets.token_bytes(32))
        )
        # The players' inputs to the dice are the ids Discord gave their interactions; a seeded run
        # (tests, benches: `rng` given) must be the same game every time, so it draws them from
        # `rng` instead, unless told otherwise.
        self.seeded_inputs = rng is not None if seeded_inputs is None else seeded_inputs
        self.challenge_ttl = challenge_ttl
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        # (guild id, user id) -> the lock of one player's time away here (`Clocks._away_lock`)
        self._away_locks: defaultdict[tuple[int, int], asyncio.Lock] = defaultdict(asyncio.Lock)
        # channel id -> its open match and state (None while a challenge): see the module docstring
        self._live: OrderedDict[int, tuple[Match, State | None]] = OrderedDict()
        # channel id -> the moment its game here last changed (`_touch`), so that a read overtaken
        # by a change is not kept (`_live_game`); the latest moment forgotten stands for the others
        self._moments = itertools.count(1)
        self._touched: OrderedDict[int, int] = OrderedDict()
        self._forgotten = 0
        self._cleared = 0  # the moment every game here was dropped (another process's writes missed)
        # channel id -> (match id, version, steps, complete): the trailing run of steps this process
        # stored since another player last acted, so a hand-off's stretch needs no replay
        # (`stretch`); complete when this process saw where it began (else the log tells)
        self._runs: OrderedDict[int, tuple[int, int, list[Step], bool]] = OrderedDict()
        self._reviews: OrderedDict[tuple[int, str], Review] = OrderedDict()  # (match id, side): the latest
        # (match id, version) -> the channel's view of a private turn then (`Reading.channel_view`),
        # and (match id, version the channel saw) -> the stretch it saw, so neither is replayed twice
        self._channel_views: OrderedDict[tuple[int, int], PrivateTurn | None] = OrderedDict()
        self._channel_seen: OrderedDict[tuple[int, int], Played] = OrderedDict()
        # the log last read for a channel view, by (match id, version): the sweep's next question
        # about the same game (`Reading.kept_secret`) reads it again from here
        self._last_log: tuple[tuple[int, int], list[ActionRecord]] | None = None
        db.watch(self._changed_elsewhere)

    def _changed_elsewhere(self, change: MatchChange | None) -> None:
        """Another process stored a match (a store several processes share tells): a copy older than
        that is dropped, so the next read goes to the database; None means anything may have."""
        if change is None:
            self._cleared = next(self._moments)
            self._live.clear()
            return
        live = self._live.get(change.channel_id)
        if live is not None and live[0].id == change.match_id and live[0].version >= change.version:
            return  # no news here (this process's own write, mostly): the copy stays
        # dropped, and a read or a write of it on its way, older than this change, not kept after it
        self.forget(change.channel_id)

    def serves(self, guild_id: int) -> bool:
        """Whether this process acts on its own for this guild (deadlines, owed boards, the AI)."""
        return self._guilds is None or self._guilds(guild_id)

    def _lock(self, match_id: int) -> asyncio.Lock:
        return self._locks[match_id]

    def _touch(self, channel_id: int) -> None:
        """The channel's game here changed (stored, dropped, or another process's write heard of)."""
        self._touched[channel_id] = next(self._moments)
        self._touched.move_to_end(channel_id)
        while len(self._touched) > TOUCHES_KEPT:
            self._forgotten = self._touched.popitem(last=False)[1]

    def _changed_since(self, channel_id: int, moment: int) -> bool:
        """Whether the channel's game here may have changed since `moment` (`_touch`)."""
        return max(self._touched.get(channel_id, self._forgotten), self._cleared) > moment

    def _remember(self, match: Match, state: State | None = None) -> Match:
        """Record what was just stored (write-through); a game that ended leaves the memory."""
        self._touch(match.channel_id)
        if match.status.is_open:
            if state is None and match.snapshot is not None:
                state = game_of(match).from_json(match.snapshot)
            self._live[match.channel_id] = (replace(match, snapshot=None), state)
            self._live.move_to_end(match.channel_id)
            while len(self._live) > LIVE_GAMES_KEPT:
                self._live.popitem(last=False)
        else:
            self._live.pop(match.channel_id, None)
        return match

    def _moment(self) -> int:
        """Now, among the changes of games here: taken before a write, for `_stored`."""
        return next(self._moments)

    def _stored(self, match: Match, state: State | None, since: int) -> Match:
        """Keep a row this process just stored (`_remember`), unless the channel's game changed here
        since `since` (taken before the write): another process's write heard of meanwhile is newer
        (its notice found the older copy and dropped it), so the copy is dropped, to be read afresh.
        Kept, it was served as the game until a move on it was refused (a player on turn told it was
        not their turn)."""
        if self._changed_since(match.channel_id, since):
            self.forget(match.channel_id)
            return match
        return self._remember(match, state)

    def forget(self, channel_id: int) -> None:
        """Drop the in-memory copy of a channel's game, so the next read goes to the database. (Its
        run of steps stays: it names the version it ends with, so a run that another process's
        write made old is never used; and a process may hear of its own write before it returns.)"""
        self._touch(channel_id)
        self._live.pop(channel_id, None)

    def _extend_run(self, before: Match, after: Match, done: list[Step], actor_id: int | None) -> None:
        """Keep the trailing run of steps up to `after`: this command's steps, after those before it
        when they were stored just before it and played by the same player (or by nobody). A run
        whose start this process did not see (it began before a restart) is incomplete."""
        run = self._runs.get(before.channel_id)
        steps: list[Step]
        if run is None or run[:2] != (before.id, before.version):
            steps, complete = [], False  # what came before is not known here
        elif any(step.player_id not in (actor_id, None) for step in run[2]):
            steps, complete = [], True  # another player's run ended: this command begins one
        else:
            steps, complete = run[2], run[3]
        self._keep_run(after, steps + done, complete)

    def _keep_run(self, match: Match, steps: list[Step], complete: bool) -> None:
        self._runs[match.channel_id] = (match.id, match.version, steps, complete)
        self._runs.move_to_end(match.channel_id)
        while len(self._runs) > LIVE_GAMES_KEPT:
            self._runs.popitem(last=False)

    def _run_up_to(self, match: Match) -> list[Step] | None:
        """The whole trailing run of steps that ends with `match`'s version, if this process has it."""
        run = self._runs.get(match.channel_id)
        return run[2] if run is not None and run[:2] == (match.id, match.version) and run[3] else None

    async def _live_game(self, channel_id: int) -> tuple[Match, State | None] | None:
        """The channel's open match and its state: from memory, or read once from the database. A
        read that a change of the channel's game here overtook (a move stored, a game ended, another
        process's notice) is not kept, but read again: the older row, put back in memory, hid that
        change from every later read of it (a move refused as out of date, an ended game shown as
        going, a time away moving the clocks of a turn that had passed; tests/test_pg_races5.py)."""
        match: Match | None = None
        for _ in range(LIVE_READ_TRIES):
            found = self._live.get(channel_id)
            if found is not None:
                self._live.move_to_end(channel_id)
                return found
            asked = next(self._moments)
            match = await self.db.get_channel_match(channel_id)
            if not self._changed_since(channel_id, asked):
                break
        if match is None:
            return None
        self._remember(match)
        return self._live.get(channel_id)

    async def current(self, channel_id: int) -> tuple[Match, State]:
        """The channel's game and its state; NoMatch if it has none (or it is still a challenge)."""
        match = await self._open_match(channel_id)
        found = self._live.get(channel_id)
        if match.status is Status.CHALLENGED or found is None or found[1] is None:
            raise NoMatch("The challenge has not been accepted yet.")
        return _handed_out(match, found[1])

    async def latest(self, channel_id: int) -> tuple[Match, State]:
        """Like `current`, but also finds the channel's most recent finished game (for boards and replays)."""
        live = await self._live_game(channel_id)
        if live is not None:
            if live[1] is None:
                raise NoMatch("The challenge has not been accepted yet.")
            return _handed_out(live[0], live[1])
        found = await self.db.list_matches(channel_id=channel_id, limit=1)
        if not found or found[0].snapshot is None:
            raise NoMatch(NO_GAME)
        return found[0], game_of(found[0]).from_json(found[0].snapshot)

    async def _reread(self, match: Match) -> Match:
        """The freshest copy of `match` once its lock is held (memory first, else the database)."""
        live = self._live.get(match.channel_id)
        if live is not None and live[0].id == match.id:
            return live[0]
        fresh = await self.db.get_match(match.id)
        self._remember(fresh)
        return fresh

    async def _open_match(self, channel_id: int, match_id: int | None = None) -> Match:
        live = await self._live_game(channel_id)
        match = live[0] if live else None
        if match is None or (match_id is not None and match.id != match_id):
            if match_id is not None:
                raise StalePrompt("This prompt belongs to a game that is over.")
            raise NoMatch(await self._no_game_text(channel_id))
        return match

    async def _no_game_text(self, channel_id: int) -> str:
        """Why there is no game to act in: the channel's last game is over, or its challenge never
        began (an accept just after a withdrawal heard only that the channel had no game)."""
        found = await self.db.list_matches(channel_id=channel_id, limit=1)
        if not found or found[0].status.is_open:
            return NO_GAME
        last = found[0]
        title = game_of(last).title
        if last.status is Status.FINISHED:
            said = f"Game #{last.id} in this channel ({title}) is over."
        elif last.sides:  # begun, then stopped by an admin
            said = f"Game #{last.id} in this channel ({title}) was cancelled."
        else:
            said = (
                f"The last challenge in this channel, game #{last.id} ({title}), {UNANSWERED[last.status]}."
            )
        return f"{said} Start a new one with the `challenge` command of a game."

    async def match(self, match_id: int) -> Match:
        """A match as stored now (the outbox checks the version it owes a board for)."""
        return await self.db.get_match(match_id)

    async def channel_match(self, channel_id: int) -> Match | None:
        """The channel's open match (a challenge or a game), if any."""
        return await self.db.get_channel_match(channel_id)

    async def last_match(self, channel_id: int) -> Match | None:
        """The channel's newest match, open or over: which game the channel plays."""
        found = await self.db.list_matches(channel_id=channel_id, limit=1)
        return found[0] if found else None

    async def active_matches(self) -> list[Match]:
        """Every game in play (at start-up: those where the AI owes a move)."""
        return await self.db.list_matches(statuses=[Status.ACTIVE])

    async def action_count(self, match_id: int, upto: int | None = None) -> int:
        """How many actions the match's log holds (with `upto`, as of that version)."""
        return await self.db.action_count(match_id, upto)

    async def wants_turn_dms(self, user_id: int) -> bool:
        return (await self.db.get_user_prefs(user_id)).dm_on_turn

    async def set_turn_dms(self, user_id: int, enabled: bool) -> None:
        await self.db.set_dm_on_turn(user_id, enabled)

    async def close(self) -> None:
        """Close the store (the console at its end; the bot closes its own)."""
        await self.db.close()

    async def board_delivered(self, match_id: int, version: int) -> None:
        """The channel has the board of this version (or a newer one): it is owed no more."""
        await self.db.board_delivered(match_id, version)

    async def owed_boards(self, older_than: float = 0.0) -> list[tuple[int, int, int]]:
        """(match id, newest owed version, channel id) of boards owed for `older_than` seconds."""
        return await self.db.owed_boards(self.clock() - older_than, guilds=self._guilds)
