"""Challenges: the first step of a match, from the challenge to the set-up with its committed dice."""

from __future__ import annotations

import json
import random
from collections.abc import Awaitable, Mapping
from dataclasses import replace
from typing import Any

from data import (
    AwayChanged,
    AwaySeen,
    ChannelBusy,
    GameClock,
    Match,
    Seal,
    StaleVersion,
    Status,
)
from data.tournaments import TournamentStore
from engine import chance, registry
from engine.fairness import random_side
from engine.protocol import State
from play import fairness
from play.errors import (
    AwayBusy,
    BadRequest,
    MatchOver,
    NotAPlayer,
    StalePrompt,
)
from play.reading import Reading
from play.results import (
    DEFAULT_TURN_SECONDS,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    game_of,
    waiting_ids,
)

# A tournament's own challenge, answered by hand (`Challenges.tournaments_own`).
TOURNAMENTS_OWN = (
    "This is a tournament's game: the bot starts it itself, soon, here in its thread, so there is "
    "nothing to answer."
)
# ... and cancelled by an admin (`Challenges.cancel`): the tournament manages its games.
TOURNAMENTS_CANCEL = (
    "This is a tournament's game: the bot starts it itself, soon, here in its thread, so there is "
    "nothing to cancel. An organiser can take a player off the tournament "
    "(`/tournament remove`) or cancel the whole tournament (`/tournament cancel`) "
    "in its channel."
)


class Challenges(Reading):
    """Challenges: made, accepted (the game set up with its committed dice), declined, cancelled."""

    async def challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        game: str,
        side: str = "random",
        options: Mapping[str, Any] | None = None,
        turn_seconds: int | None = None,
        game_seconds: int | None = None,
        opponent_is_bot: bool = False,
        ai_level: str | None = None,
        entropy: int | str | None = None,
        secret: bytes | None = None,
        inputs: list[str] | None = None,
    ) -> Match:
        """Open a challenge to a game of `game`; against the AI (`ai_level` set) it starts at once.
        `entropy` is the challenger's input to the dice (the interaction's id), mixed in after the
        commitment is fixed (play/fairness.py). `game_seconds` gives each player a clock for the
        whole game, that much time in all (a tournament's games: RULES.md); None, none. A tournament
        gives its game's `secret` (from its seal) and `inputs` (its players' joins), used instead of
        a secret drawn now (or the channel's seal) and the challenge's id."""
        try:
            rules = registry.game(game)
        except registry.UnknownGame as exc:
            raise BadRequest(str(exc)) from None
        if challenger_id == opponent_id:
            raise BadRequest(
                "You cannot challenge yourself. Pick another player, or challenge me for an AI game."
            )
        if opponent_is_bot and ai_level is None:
            raise BadRequest("Bots cannot play. Challenge a person, or challenge me to play the AI.")
        side = side.strip().lower()
        names = [s.name for s in rules.sides]
        if side not in ("random", *names):
            raise BadRequest(f"Side must be {names[0]}, {names[1]} or random.")
        if ai_level is not None and ai_level not in rules.ai.names:
            raise BadRequest(f"The AI levels of {rules.title} are {', '.join(rules.ai.names)}.")
        try:
            chosen = rules.normalise_options(options or {})
        except ValueError as exc:
            raise BadRequest(str(exc)) from None
        turn = DEFAULT_TURN_SECONDS if turn_seconds is None else int(turn_seconds)
        if not MIN_TURN_SECONDS <= turn <= MAX_TURN_SECONDS:
            raise BadRequest("Time per turn must be between 1 minute and 14 days.")
        if game_seconds is not None and game_seconds < MIN_TURN_SECONDS:
            raise BadRequest("A clock for the whole game must hold at least a minute.")
        game_clock = (
            None if game_seconds is None else GameClock.fresh(game_seconds, (challenger_id, opponent_id))
        )
        now = self.clock()
        # drawn in this order even when given, so a seeded run's draws stay in step
        drawn = self.new_secret()
        seed = self.rng.getrandbits(62)
        given = secret is not None
        secret = drawn if secret is None else secret
        challenge_input = f"challenge:{self.player_input(entropy)}"
        entered = [challenge_input] if inputs is None else inputs
        try:
            match = await self.db.create_challenge(
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=challenger_id,
                opponent_id=opponent_id,
                seed=seed,
                turn_seconds=turn,
                challenge_expires_at=now + self.challenge_ttl,
                game=rules.name,
                options=chosen,
                challenger_side=side,
                ai_player_id=opponent_id if ai_level else None,
                ai_level=ai_level,
                now=now,
                chance_version=chance.VERSION,
                seed_secret=secret.hex(),
                seed_commitment=chance.commitment(secret),
                seed_inputs=json.dumps(entered),
                game_clock=game_clock,
                # the channel's seal, if shown, is this game's secret, unless the game was given one
                sealed=chance.VERSION == 2 and not given,
            )
        except ChannelBusy:
            self.forget(channel_id)  # a game we did not know of: read it next time
            raise BadRequest(
                "This channel already has a game. Open a thread for a new one: "
                "each thread can hold its own game."
            ) from None
        self._remember(match)
        if ai_level is not None:
            match = await self._start(match, now)
        return match

    async def seals_after(self, match: Match) -> bool:
        """Whether the message that says `match` ended seals its channel's next game (docs/fairness.md,
        "Sealed in advance"): not while it goes on, and not after a tournament's game, whose thread
        holds that game alone (a challenge typed there anyway is sealed at the challenge)."""
        if match.status.is_open:
            return False
        return await TournamentStore(self.db).board_of_match(match.id) is None

    async def next_seal(self, channel_id: int) -> Seal:
        """The seal of the channel's next game, for a message to show: the one it holds, else one
        drawn now (docs/fairness.md, "Sealed in advance"). A challenge takes it once it was shown."""
        secret = self.new_seal()
        return await self.db.channel_seal(
            channel_id, secret=secret.hex(), commitment=chance.commitment(secret), now=self.clock()
        )

    async def seal_shown(self, seal: Seal, message_id: int | None = None) -> bool:
        """A message (`message_id`, where the platform gives one) showed `seal` in its channel: from
        now on the channel's next challenge takes it. Only the first showing counts."""
        return await self.db.seal_shown(
            seal.channel_id, seal.commitment, message_id=message_id, now=self.clock()
        )

    def player_input(self, entropy: int | str | None) -> int | str:
        """A player's input to the dice as stored: their interaction's id (`-` where there is none,
        as in the console), or a number from `rng` in a seeded run."""
        if self.seeded_inputs:
            return self.rng.getrandbits(63)
        return "-" if entropy is None else entropy

    async def accept(
        self,
        channel_id: int,
        user_id: int,
        match_id: int | None = None,
        *,
        entropy: int | str | None = None,
        for_tournament: bool = False,
    ) -> Match:
        """The challenged player accepts; `entropy` (the click's id) is their input to the dice. A
        tournament's challenge is accepted by the tournament alone (`for_tournament`)."""
        match = await self._open_match(channel_id, match_id)
        if match.status is not Status.CHALLENGED:
            raise BadRequest("This game has already started.")
        if not for_tournament and await self.tournaments_own(match):
            raise BadRequest(TOURNAMENTS_OWN)
        them = self.markup.mention(match.opponent_id)
        if user_id == match.challenger_id:
            raise NotAPlayer(f"You made this challenge: wait for {them} to accept it.")
        if user_id != match.opponent_id:
            raise NotAPlayer(f"Only {them} can accept this challenge.")
        async with self._lock(match.id):
            return await self._start(await self._reread(match), self.clock(), entropy)

    async def tournaments_own(self, match: Match) -> bool:
        """Whether `match` is the challenge a tournament's board made between its two players, which
        the bot accepts itself: answered by hand (while the board waits for the next sweep, or after
        a crash between the two steps), a click's id would join the dice after the tournament's own
        inputs, or a decline would leave the board unplayable (docs/fairness.md, the fourth review)."""
        boards = await TournamentStore(self.db).boards_in_thread(match.channel_id)
        return any(
            b.match_id in (None, match.id) and {b.first_id, b.second_id} == set(match.players) for b in boards
        )

    async def _start(self, match: Match, now: float, entropy: int | str | None = None) -> Match:
        rules = game_of(match)
        names = [s.name for s in rules.sides]
        if match.chance_version == 2 and match.ai_player_id is None:
            match = replace(
                match, seed_inputs=fairness.with_input(match, "accept", self.player_input(entropy))
            )
        seed = fairness.engine_seed(match)
        wanted = match.challenger_side
        if wanted == "random":
            if match.chance_version == 2:  # drawn from the committed seed, so it can be checked too
                wanted = random_side(seed, names)
            else:
                wanted = random.Random(match.seed).choice(names)
        other = names[1] if wanted == names[0] else names[0]
        sides = {wanted: match.challenger_id, other: match.opponent_id}
        state = rules.new_game(match.options, seed)
        placed = replace(match, sides=sides)
        waiting = waiting_ids(placed, state)
        async with self._holding_aways(match.guild_id, waiting):  # no `away` of theirs here meanwhile
            return await self._store_start(placed, state, now, waiting)

    async def _store_start(self, match: Match, state: State, now: float, waiting: list[int]) -> Match:
        """Store the start of `match` (its sides placed) in `state`, its first clock read from the
        time away of the players it waits on."""
        clock = await self._new_clock(match, state, now)

        def start(seen: AwaySeen | None) -> Awaitable[Match]:
            return self.db.start_match(
                match.id,
                expected_version=match.version,
                seed_inputs=match.seed_inputs,
                now=now,
                away_seen=seen,
                owe_board=self.outbox,  # its first board, until posted (a crash before it: the outbox)
                status=Status.ACTIVE,
                sides=match.sides,
                snapshot=state.to_json(),
                turn_player_id=waiting[0] if waiting else None,
                challenge_expires_at=None,
                **clock,
            )

        since = self._moment()
        try:
            # its first clock held to the players' time away as read (another process's `away`)
            started = await self._store_clocked(match, state, now, clock, start)
        except AwayChanged:
            raise AwayBusy(
                "A player's time away was changing just now, so the game did not start. Try again."
            ) from None
        except StaleVersion:
            self.forget(match.channel_id)
            raise StalePrompt("This challenge was already answered.") from None
        self._keep_run(started, [], complete=True)  # nothing played yet: every run starts here
        return self._stored(started, state, since)

    async def decline(self, channel_id: int, user_id: int, match_id: int | None = None) -> Match:
        """The challenged player says no, or the challenger withdraws; either frees the channel."""
        match = await self._open_match(channel_id, match_id)
        if match.status is not Status.CHALLENGED:
            raise BadRequest("The game has started: use resign or offer a draw instead.")
        if await self.tournaments_own(match):
            raise BadRequest(f"{TOURNAMENTS_OWN} To leave the tournament, use `/tournament leave`.")
        if user_id not in match.players:
            raise NotAPlayer("Only the two players can decline or withdraw this challenge.")
        status = Status.DECLINED if user_id == match.opponent_id else Status.CANCELLED
        try:
            return self._remember(
                await self.db.update_match(match.id, expected_version=match.version, status=status)
            )
        except StaleVersion:
            self.forget(match.channel_id)
            raise StalePrompt("This challenge was already answered.") from None

    @staticmethod
    def _may_cancel(match: Match, user_id: int) -> None:
        if user_id in match.players and match.status is not Status.CHALLENGED:
            # A cancelled game has no result: a player who could cancel their own would escape a
            # loss, or deal again against the AI until the first hand suited them.
            raise NotAPlayer(
                "You cannot cancel this game: you play in it, and a cancelled game records no result. "
                "Resign or offer a draw, or ask another member who can manage this channel."
            )

    async def _may_cancel_here(self, match: Match, user_id: int, by_tournament: bool) -> None:
        """Refuse an admin's cancel of a tournament's own challenge (`tournaments_own`), saying what
        an organiser does instead; its game, once begun, may be cancelled (a draw of its round), but
        not by an admin who plays in that tournament: each such cancel hands their rivals a draw."""
        if by_tournament:
            return
        if match.status is Status.CHALLENGED and await self.tournaments_own(match):
            raise BadRequest(TOURNAMENTS_CANCEL)
        store = TournamentStore(self.db)
        board = await store.board_of_match(match.id)
        if board is not None and user_id not in match.players:
            entrants = {e.user_id for e in await store.tournament_entries(board.tournament_id)}
            if user_id in entrants:
                raise BadRequest(
                    "You cannot cancel this game: you play in this tournament, and a cancelled game "
                    "counts as a draw for both its players. Ask another member who can manage this "
                    "channel, or an organiser to remove a player who does not play."
                )

    async def cancel(
        self, channel_id: int, user_id: int, *, is_admin: bool, by_tournament: bool = False
    ) -> Match:
        """An admin (Manage Channels) ends the channel's game without a result. Not a tournament's
        challenge waiting for the bot's accept: the tournament manages it (its sweep stops it,
        `by_tournament`), and an admin's cancel would leave its board unplayable."""
        match = await self._open_match(channel_id)
        if not is_admin:
            raise NotAPlayer("Only members who can manage this channel may cancel a game.")
        self._may_cancel(match, user_id)
        await self._may_cancel_here(match, user_id, by_tournament)
        async with self._lock(match.id):
            self.forget(channel_id)
            match = await self.db.get_match(match.id)
            # read again: it may have ended (a resignation) or begun (an accept) meanwhile, here or in
            # another process, and a finished game must keep its result
            if not match.status.is_open:
                raise MatchOver("This game has just ended, with its result: there is nothing to cancel.")
            self._may_cancel(match, user_id)
            await self._may_cancel_here(match, user_id, by_tournament)
            try:
                cancelled = await self.db.update_match(
                    match.id,
                    expected_version=match.version,
                    status=Status.CANCELLED,
                    turn_player_id=None,
                    deadline=None,
                    reminder_at=None,
                )
            except StaleVersion:
                # another process stored a move, an accept or an end between this read and this
                # write (this process's lock holds back its own only): the admin decides again
                self.forget(channel_id)
                raise StalePrompt(
                    "The game moved on just now; nothing was cancelled. Look at it again, and cancel "
                    "again if you still mean to."
                ) from None
            return self._remember(cancelled)
