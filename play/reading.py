"""Reading games back: the log replayed, the stretch a hand-off shows, history, standings, reviews."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from data import (
    OPEN_STATUSES,
    ActionRecord,
    AiRecord,
    Match,
    MatchNotFound,
    PlayerStats,
    RatedResult,
    Status,
)
from data.db import NO_LIMIT
from engine import registry
from engine.meta import MetaAction
from engine.protocol import Event, State
from engine.review import Review
from play import undo
from play.clocks import Clocks
from play.errors import (
    BadRequest,
    NoMatch,
    NotAPlayer,
)
from play.fairness import engine_seed
from play.privacy import Sees, ai_without, private_to, record_without
from play.ratings import Standing, standings
from play.results import (
    CHANNEL_VIEWS_KEPT,
    REVIEW_SECONDS,
    REVIEWS_KEPT,
    SEPARATOR,
    HistoryEntry,
    OpenGame,
    Played,
    PrivateTurn,
    Step,
    _run_start,
    game_of,
    merged,
    standing_order,
    waiting_ids,
)
from play.words import history_line, private_lines


class Reading(Clocks):
    """Reading a game back: its log, stretches since a hand-off, history, stats; a look back at it."""

    async def review(
        self, channel_id: int, user_id: int, match_id: int | None = None, *, budget_s: float = REVIEW_SECONDS
    ) -> tuple[Match, Review]:
        """The look back at the channel's last game (or match `match_id`, from its final board) for
        `user_id`: where their choices cost most by the AI's judgement (`engine.review`). Only once the
        game is over (before, it would be advice), and only a player's own choices."""
        if match_id is not None:  # a finished board's button, wherever it was clicked
            try:
                match = await self.db.get_match(match_id)
            except MatchNotFound:
                match = None
            mine = match is not None and match.side_of(user_id) is not None and user_id != match.ai_player_id
            if match is None or (not mine and match.channel_id != channel_id):
                # another channel's game: one answer whether game #N exists or not, as a forged
                # click would probe it (its own channel's readers see it, and hear the rule below)
                raise NoMatch(f"There is no game #{match_id} among your games to look back at.")
        else:
            match, _ = await self.latest(channel_id)
        side = match.side_of(user_id)
        if side is None or user_id == match.ai_player_id:  # first: an outsider is told what holds always
            raise NotAPlayer("Only the two players can look back at a game, each at their own choices.")
        if match.status is not Status.FINISHED:
            if match.status.is_open:
                raise BadRequest(
                    "The look back comes when the game is over: during it, it would be advice. "
                    "Ask again after the last move."
                )
            raise NoMatch("That game was never played to an end, so there is nothing to look back at.")
        key = (match.id, side)
        found = self._reviews.get(key)
        if found is None:  # a finished game's look back never changes: asked twice, it is thought once
            log = [(s, notation) for s, notation, _ in await self.log(match)]
            found = await self.thinker.review(
                match.game, match.options, engine_seed(match), log, side, budget_s
            )
            self._reviews[key] = found
            while len(self._reviews) > REVIEWS_KEPT:
                self._reviews.popitem(last=False)
        self._reviews.move_to_end(key)
        return match, found

    async def log(self, match: Match, upto: int | None = None) -> list[tuple[str, str, int | None]]:
        """The action log as (side, notation, player id); with `upto`, as of that version."""
        stored = await self.db.actions(match.id)
        rows = undo.effective([r for r in stored if upto is None or r.version <= upto])
        first = game_of(match).sides[0].name
        out = []
        for row in rows:
            side = match.side_of(row.player_id) if row.player_id is not None else None
            out.append((side or first, row.notation, row.player_id))
        return out

    async def replayed(self, match: Match) -> tuple[State, list[list[Event]], list[tuple[str, str]]]:
        """Seed + log, replayed: the final state, the events of every action, and the log."""
        rules = game_of(match)
        state = rules.new_game(match.options, engine_seed(match))
        per_action: list[list[Event]] = []
        log = [(side, notation) for side, notation, _ in await self.log(match)]
        for side, notation in log:
            per_action.append(list(state.apply(rules.parse(notation), side)))
        return state, per_action, log

    async def last_events(self, match: Match) -> list[Event]:
        """What the latest stretch did (`latest_stretch`), for re-drawing the board with its
        highlights."""
        found = await self.latest_stretch(match)
        return found.events if found is not None else []

    async def latest_stretch(self, match: Match) -> Played | None:
        """The position of `match` and the stretch that led to it: every action since a player other
        than the latest one acted (an AI's whole turn, a turn of several commands). What a board
        owed since a crash shows; None before the first action."""
        if match.snapshot is None:
            return None
        state = game_of(match).from_json(match.snapshot)
        steps = self._run_up_to(match)
        if steps:
            return self._played(match, state, steps, steps[-1].player_id)
        rows = undo.effective([r for r in await self.db.actions(match.id) if r.version <= match.version])
        if not rows:
            return None
        actor = rows[-1].player_id
        first = _run_start(rows, {p for p in match.players if p != actor})
        steps = self._replayed_steps(match, rows, first, len(rows))
        return self._played(match, state, steps, actor)

    async def stretch_at(self, match: Match, version: int) -> Played | None:
        """The stretch that ended at `version` of `match`, and its position, replayed from the log:
        the board still owed to the channel for a hand-off when the next player's turn, private
        until its own hand-off, has gone on since (None before the first action)."""
        rows = undo.effective([r for r in await self.db.actions(match.id) if r.version <= version])
        if not rows:
            return None
        return self._replay_stretch(replace(match, version=version, snapshot=None), rows, len(rows))

    async def channel_view(self, match: Match, state: State | None = None) -> PrivateTurn | None:
        """While a player plays a turn whose steps are still theirs alone (`Played.mid_turn`): what
        the channel last saw, replayed from the log (the position before their first step of the
        turn, and the stretch that led to it). None when the channel has seen all there is: its board is
        the latest position. `board`, `history` and `replay` show this to everyone but that player,
        so nobody else sees a step before the turn is handed over, nor one taken back meanwhile.

        Asked on every `board`, `history`, autocomplete and click of a private turn, so it is kept
        per match and version (and the position the channel saw, per turn start): asked again, it
        reads nothing and replays nothing. `state`: the position of `match` if the caller has it
        (the sweep), not parsed again; it is left as it was."""
        if not match.status.is_open:
            return None
        key = (match.id, match.version)
        if key in self._channel_views:
            self._channel_views.move_to_end(key)
            return self._channel_views[key]
        found = await self._channel_view(match, state)
        self._channel_views[key] = found
        while len(self._channel_views) > CHANNEL_VIEWS_KEPT:
            self._channel_views.popitem(last=False)
        return found

    async def _position(self, match: Match) -> State | None:
        """The position of `match` at its version: its snapshot, the copy in memory, or the store's."""
        rules = game_of(match)
        live = self._live.get(match.channel_id)
        if match.snapshot is not None:
            return rules.from_json(match.snapshot)
        if live is not None and live[0].id == match.id and live[0].version == match.version:
            return live[1]  # the copy in memory (a match kept there has no snapshot)
        stored = await self.db.get_match(match.id)
        if stored.version == match.version and stored.snapshot is not None:
            return rules.from_json(stored.snapshot)
        return None

    async def _channel_view(self, match: Match, state: State | None = None) -> PrivateTurn | None:
        rules = game_of(match)
        if state is None:
            state = await self._position(match)
        if state is None or state.is_over():
            return None
        if all(match.sides.get(side) in (None, match.ai_player_id) for side in state.to_act()):
            return None  # no player is to act (the AI is, or nobody): nobody's turn can be private
        raw = [r for r in await self.db.actions(match.id) if r.version <= match.version]
        self._last_log = ((match.id, match.version), raw)
        rows = undo.effective(raw)
        # A standing order given meanwhile, by either player, neither ends the turn nor shows
        # anything: the turn is whose it was before it.
        end = len(rows)
        while end > 0 and rows[end - 1].player_id is not None and standing_order(rules, rows[end - 1]):
            end -= 1
        if not end or rows[end - 1].player_id in (None, match.ai_player_id):
            return self._taken_back(match, state, raw, rows)
        actor = rows[end - 1].player_id
        assert actor is not None
        side = match.side_of(actor)
        if side is None or side not in state.to_act():
            return self._taken_back(match, state, raw, rows)
        others = {p for p in match.players if p != actor}
        first = _run_start(rows[:end], others, passed=lambda row: standing_order(rules, row))
        # A word about a draw in the turn (an offer) was posted with the position as it was then:
        # the channel has seen the turn up to it, and the rest, if any, is still the player's.
        said = [n for n in range(first, end) if isinstance(rules.parse(rows[n].notation), MetaAction)]
        if said:
            if said[-1] == end - 1:
                return self._taken_back(match, state, raw, rows)
            first = said[-1] + 1
        # the version of the board the channel saw last: the row before the turn's, or the game's
        # start (the version before its first row), never one that counts rows of the turn
        version = rows[first - 1].version if first > 0 else raw[0].version - 1
        return PrivateTurn(actor, self._seen_at(match, version, rows, first))

    def _taken_back(
        self, match: Match, state: State, raw: Sequence[ActionRecord], rows: Sequence[ActionRecord]
    ) -> PrivateTurn | None:
        """Nothing of the turn stands, but its player took steps and took them back: the log has
        rows the channel never saw, and the game's version counts them. What the channel saw is the
        position as it is, at the version before those rows (a board at the newest would tell the
        other player that steps were tried and taken back). None when no such rows follow the
        last that stands."""
        last = rows[-1].version if rows else None
        after = [r for r in raw if last is None or r.version > last]
        if not after or after[-1].player_id is None:
            return None
        actor = after[-1].player_id
        side = match.side_of(actor)
        if side is None or side not in state.to_act() or any(r.player_id != actor for r in after):
            return None
        version = last if last is not None else after[0].version - 1
        return PrivateTurn(actor, self._seen_at(match, version, rows, len(rows)), standing=False)

    def _seen_at(self, match: Match, version: int, rows: Sequence[ActionRecord], first: int) -> Played:
        """The position after the first `first` rows, as the channel saw it at `version` (kept)."""
        seen_key = (match.id, version)
        seen = self._channel_seen.get(seen_key)
        if seen is None:
            seen = self._replay_stretch(replace(match, version=version, snapshot=None), rows, first)
            self._channel_seen[seen_key] = seen
            while len(self._channel_seen) > CHANNEL_VIEWS_KEPT:
                self._channel_seen.popitem(last=False)
        return seen

    def _replay_stretch(self, match: Match, rows: Sequence[ActionRecord], end: int) -> Played:
        """The position after the first `end` rows, and the stretch of them since another player
        last acted (every action since that player's, as a hand-off board shows it)."""
        rules = game_of(match)
        state = rules.new_game(match.options, engine_seed(match))
        opening = rules.sides[0].name
        actor = rows[end - 1].player_id if end > 0 else None
        first = _run_start(rows[:end], {p for p in match.players if p != actor}) if end > 0 else 0
        steps = []
        for n, row in enumerate(rows[:end]):
            side = match.side_of(row.player_id) if row.player_id is not None else None
            events = list(state.apply(rules.parse(row.notation), side or opening))
            if n >= first:
                who = rules.side(side).title if side else "?"
                steps.append(Step(who, row.notation, events, row.player_id))
        return self._played(match, state, steps, actor)

    async def kept_secret(self, match: Match, late: Collection[int]) -> tuple[Step, ...]:
        """The steps the players present took since the `late` ones last acted whose words the
        channel read hidden (a simultaneous set-up's army: "kept secret until both are in"), for
        a game that ends before the late ones came: then nothing is left to keep them for. Only
        where a late player never acted (a game that ended in its set-up): a later turn's hidden
        steps (a card drawn) are no secret the game's end owes anyone."""
        key = (match.id, match.version)
        if self._last_log is not None and self._last_log[0] == key:
            raw = self._last_log[1]  # read by the channel view just before: not read twice
        else:
            raw = [r for r in await self.db.actions(match.id) if r.version <= match.version]
        rows = undo.effective(raw)
        if not rows or any(r.player_id in late for r in raw):
            return ()
        played = self._replay_stretch(match, rows, len(rows))
        return tuple(
            step
            for step in played.steps
            if step.player_id is not None
            and step.player_id not in late
            and (side := match.side_of(step.player_id)) is not None
            and step.line(side) != step.line(None)
        )

    async def stretch(self, played: Played, since: Played | None = None) -> Played:
        """`played` with the commands before it since any other player last acted: at a hand-off,
        the whole stretch the players now waiting have not seen acted out (a turn played as several
        commands, an AI turn resumed after a restart). The game is replayed only when there are
        such commands; most hand-offs are a single command. `since`: what the channel saw before a
        private turn (`channel_view`); when the stretch begins there, its position is the replay's
        start, not the seed."""
        match = played.match
        if not played.steps:
            return played
        run = self._run_up_to(match)
        if run is not None and len(run) >= len(played.steps):  # stored here: no replay
            earlier = run[: len(run) - len(played.steps)]
            if not earlier:
                return played
            return merged([self._played(match, played.state, earlier, played.actor_id), played])
        rows = undo.effective([r for r in await self.db.actions(match.id) if r.version <= match.version])
        start = len(rows) - len(played.steps)
        first = _run_start(rows[: max(start, 0)], {p for p in match.players if p != played.actor_id})
        if start <= 0 or first == start:
            return played
        at = None
        if since is not None and since.match.id == match.id:
            at = since.state if (rows[first - 1].version if first else 0) == since.match.version else None
        try:
            steps = self._replayed_steps(match, rows, first, start, at=at)
        except ValueError:  # a log that does not replay (a position set by hand): the command alone
            return played
        return merged([self._played(match, played.state, steps, played.actor_id), played])

    @staticmethod
    def _replayed_steps(
        match: Match, rows: Sequence[ActionRecord], first: int, end: int, *, at: State | None = None
    ) -> list[Step]:
        """The steps of log rows `first` to `end` (not included), replayed from the seed, or from
        `at`, the position after the first `first` rows (left as it was)."""
        rules = game_of(match)
        begin = 0 if at is None else first
        state = rules.new_game(match.options, engine_seed(match)) if at is None else at.clone()
        opening = rules.sides[0].name
        out = []
        for n, row in enumerate(rows[begin:end], begin):
            side = match.side_of(row.player_id) if row.player_id is not None else None
            events = list(state.apply(rules.parse(row.notation), side or opening))
            if n >= first:
                out.append(Step(rules.side(side).title if side else "?", row.notation, events, row.player_id))
        return out

    @staticmethod
    def _played(match: Match, state: State, steps: list[Step], actor_id: int | None) -> Played:
        """A `Played` of these steps (what a command, or a stretch of them, did)."""
        rules = game_of(match)
        events = [e for step in steps for e in step.events]
        return Played(
            match,
            state,
            events,
            f"{SEPARATOR} ".join(step.notation for step in steps),
            actor_id or 0,
            "\n".join(step.line() for step in steps),
            {s.name: p for s in rules.sides if (p := private_lines(events, s.name))},
            steps,
        )

    async def history(
        self, channel_id: int, limit: int = 20, viewer: str | None = None, *, asker: int | None = None
    ) -> list[str]:
        """The latest actions as lines, as `viewer` (None: the channel) may read them."""
        return [entry.line for entry in await self.history_entries(channel_id, limit, viewer, asker=asker)]

    async def history_entries(
        self, channel_id: int, limit: int = 20, viewer: str | None = None, *, asker: int | None = None
    ) -> list[HistoryEntry]:
        """The latest actions, numbered from the game's first, with the turn each was played in: for
        anyone but the player whose turn is still private (`channel_view`), up to that turn."""
        match, _ = await self.latest(channel_id)
        rules = game_of(match)
        state = rules.new_game(match.options, engine_seed(match))
        entries = []
        private = await self.channel_view(match)
        upto = private.seen.match.version if private is not None and private.player_id != asker else None
        for number, (side, notation, _) in enumerate(await self.log(match, upto), 1):
            turn = state.turn_number()
            events = state.apply(rules.parse(notation), side)
            line = history_line(rules.side(side).title, notation, events, viewer)
            heading = "Set-up" if turn == 0 else f"{rules.turn_label} {turn}"
            entries.append(HistoryEntry(number, turn, line, heading))
        return entries[-limit:] if limit > 0 else entries

    async def open_games(self, guild_id: int, user_id: int) -> list[OpenGame]:
        """Every open game and challenge of `user_id` in a guild, any game: those waiting on them
        first, then the soonest due."""
        found = await self.db.list_matches(guild_id=guild_id, player_id=user_id, statuses=OPEN_STATUSES)
        games = []
        for match in found:
            if match.status is Status.CHALLENGED:
                waiting: tuple[int, ...] = (match.opponent_id,)
            else:
                live = self._live.get(match.channel_id)
                if live is not None and live[0].id == match.id and live[1] is not None:
                    state = live[1]
                elif match.snapshot is not None:
                    state = game_of(match).from_json(match.snapshot)
                else:
                    continue
                waiting = tuple(waiting_ids(match, state))
            games.append(OpenGame(match, waiting))
        games.sort(key=lambda g: (user_id not in g.waiting, g.due is None, g.due or 0.0, g.match.id))
        return games

    async def stats(
        self, guild_id: int, game: str, user_id: int, *, asker: int | None = None, sees: Sees | None = None
    ) -> PlayerStats:
        """A player's record in `game` here, as `asker` may read it (`sees`: the channels they can
        view; None, all): without the games played where they cannot look (play/privacy.py)."""
        stats = await self.db.player_stats(guild_id, game, user_id)
        if asker == user_id:  # every game of theirs is theirs to see: nothing to ask
            return stats
        hidden = await self._private(guild_id, game, asker, sees, user_id)
        return record_without(stats, hidden) if hidden else stats

    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        limit: int = 10,
        *,
        ai_user_id: int | None = None,
        asker: int | None = None,
        sees: Sees | None = None,
    ) -> list[Standing]:
        """The best players of `game` here, and the AI (`ai_user_id`) at each level it played, at
        that level's rating (`play.ratings`); as `asker` may read it (`sees`, as for `stats`): a
        game played where they cannot look counts for nobody, and a player left with none is not
        listed."""
        hidden = await self._private(guild_id, game, asker, sees)
        records = await self.db.ai_records(guild_id, game)
        if not hidden:
            players = await self.db.leaderboard(guild_id, game, limit + 1)
        else:
            records = ai_without(records, hidden)
            every = await self.db.leaderboard(guild_id, game, NO_LIMIT)
            seen = [p for p in (record_without(p, hidden) for p in every) if p.games]
            seen.sort(key=lambda p: (-p.rating, -p.wins, p.user_id))  # the store's order, again
            players = seen[: limit + 1]
        rows = [(r.level, r.wins, r.losses, r.draws) for r in records]
        return standings(registry.game(game), players, ai_user_id, rows, limit)

    async def ai_records(
        self, guild_id: int, game: str, *, asker: int | None = None, sees: Sees | None = None
    ) -> list[AiRecord]:
        """The AI's record per level in `game` here, as `asker` may read it (as for `stats`)."""
        records = await self.db.ai_records(guild_id, game)
        hidden = await self._private(guild_id, game, asker, sees)
        return ai_without(records, hidden) if hidden else records

    async def _private(
        self, guild_id: int, game: str, asker: int | None, sees: Sees | None, player_id: int | None = None
    ) -> list[RatedResult]:
        """The finished, rated games of `game` here (of `player_id`, if given) private to `asker`:
        played in a channel they cannot view (`sees`), and not by them. None without `sees`."""
        if sees is None or asker is None:
            return []
        channels = await self.db.result_channels(guild_id, game, player_id)
        if not channels:
            return []
        seen = set(await sees(frozenset(channels)))
        unseen = channels - seen
        if not unseen:
            return []
        return private_to(await self.db.results_in(guild_id, game, unseen), asker)
