"""Challenges and moves: the one path for a command, from its words to the stored snapshot and log."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from data import AwayChanged, DuplicateInteraction, Match, NewAction, Result, StaleVersion, Status
from engine.errors import IllegalAction, InvalidNotation
from engine.protocol import Action, Event, Game, State, drew_or_revealed
from play import undo
from play.challenges import Challenges
from play.clocks import game_clock_moved, game_clock_stopped
from play.errors import (
    STRANGER,
    AlreadyApplied,
    AwayBusy,
    IllegalMove,
    MatchOver,
    NoMatch,
    NotAPlayer,
    NotYourTurn,
    StalePrompt,
)
from play.fairness import engine_seed
from play.markup import PLAIN, Markup
from play.present import partly_made
from play.ratings import level_rating
from play.results import (
    SEPARATOR,
    Chain,
    Played,
    PrivateTurn,
    Refused,
    Step,
    draw_waits,
    game_of,
    is_current,
    ranked_hints,
    split_actions,
    unread_hints,
    waiting_ids,
)
from play.stamps import Stamp, denotes, stale_text
from play.words import unseen


class Moves(Challenges):
    """Moves: who may act, parsing, legality, one transaction per command; a step taken back."""

    async def legal(self, channel_id: int, user_id: int) -> list[str]:
        """What `user_id` may play now (empty when they owe nothing): for autocomplete and buttons."""
        try:
            match, state = await self.current(channel_id)
        except NoMatch:
            return []
        side = match.side_of(user_id)
        if side is None or side not in state.to_act():
            return []
        return [str(a) for a in state.legal_actions(side)]

    async def act(
        self,
        channel_id: int,
        user_id: int,
        notation: str,
        *,
        interaction_id: int | None = None,
        expected_version: Stamp | None = None,
        match_id: int | None = None,
        before_commit: Callable[[], Any] | None = None,
    ) -> Played:
        """Apply one command for `user_id`: a move, a decision, a set-up, resign, a draw action, or
        several actions separated by ";", applied in order (RULES.md, "One command, several
        actions"): a refused step refuses the whole command, the game unchanged, unless an earlier
        step drew chance or brought a secret into the open (`drew_or_revealed`); then the steps
        before the refused one stand and the reply (`Played.not_made`, and the actor's private
        note) says which step was not made and why, worded on the position they now see.

        `expected_version` comes from a button's custom_id (a stamp: play/stamps.py), or is a plain
        version: if the game moved on since the button was posted, the click is refused rather than
        applied to a different position.
        """
        texts = split_actions(notation)
        if not texts:
            raise IllegalMove("Give an action (several may be separated by ;).")
        match = await self._open_match(channel_id, match_id)
        rules = game_of(match)
        live = self._live.get(channel_id)
        side = match.side_of(user_id)
        held = await self.held_back(match, user_id)
        # the other player's turn still private: what this player may know is the channel's position
        position = held.seen.state if held is not None else live[1] if live is not None else None
        try:
            actions = self.parse_command(rules, position, side, texts)
        except IllegalMove:
            if held is not None and side not in held.seen.state.to_act():
                raise self.still_private(match, held) from None
            await self._refuse_if_not_their_turn(match, user_id)
            raise
        async with self._lock(match.id):
            match = await self._reread(match)
            live = self._live.get(channel_id)
            if not match.status.is_open:
                raise MatchOver("This game is over.")
            if match.status is Status.CHALLENGED or live is None or live[1] is None:
                raise NoMatch("The challenge has not been accepted yet.")
            side = match.side_of(user_id)
            if side is None:
                raise NotAPlayer(STRANGER)
            held = await self.held_back(match, user_id)
            if held is not None and expected_version is not None:
                # The other player's turn is still theirs alone: this player's buttons are the
                # channel's board's. Any other version is out of date, the newest too: telling it
                # apart would count the private steps.
                if not denotes(match, expected_version, held.seen.match.version):
                    raise StalePrompt(stale_text(match, expected_version))
                expected_version = None  # the channel's board is still the newest this player has
            if expected_version is not None and not is_current(match, expected_version):
                raise StalePrompt(stale_text(match, expected_version))
            before = live[1]
            seen = held.seen.state if held is not None else before  # what this player may know
            if draw_waits(match, seen, side, actions):
                # a draw offered or declined waits for the hand-off, begun or not: its board would
                # show the turn so far, and an answer only once begun would tell that it had
                raise self._draw_waits_answer(match, seen)
            if held is not None and side not in seen.to_act() and not all(a.anytime for a in actions):
                # Before the game's own checks: a refusal worded on the position as it is would tell
                # of steps the other player may yet take back (RULES.md, "Your turn is yours").
                raise self.still_private(match, held)
            quick_before = before.quick_decision()
            chain = self.run_chain(match, rules, before, side, actions, self.markup)
            state, steps, refused = chain.state, chain.steps, chain.refused
            mid_turn = user_id != match.ai_player_id and self.keeps_turn(rules, state, side, steps)
            played = await self._commit(
                match,
                state,
                steps,
                user_id,
                interaction_id,
                before_commit,
                quick_before=quick_before,
                mid_turn=mid_turn,
            )
            notes = []
            if chain.left_out:
                words = f"{SEPARATOR} ".join(chain.left_out)
                notes.append(f"`{words}` was left out: your command had already answered the question")
            if refused is not None:
                played.not_made = refused
                notes.append(
                    partly_made(refused, [str(a) for a in actions], chain.stood, side in state.to_act())
                )
            for note in notes:
                played.private[side] = f"{played.private[side]}; {note}" if side in played.private else note
            return played

    async def undo(
        self,
        channel_id: int,
        user_id: int,
        *,
        interaction_id: int | None = None,
        expected_version: Stamp | None = None,
    ) -> tuple[Match, State, str]:
        """Take back `user_id`'s last step of this turn (play/undo.py has the rule): an `undo` entry
        appended to the log, the position before it stored. Refusals say why, and change nothing."""
        match = await self._open_match(channel_id)
        async with self._lock(match.id):
            match = await self._reread(match)
            live = self._live.get(channel_id)
            if match.status is Status.CHALLENGED or live is None or live[1] is None:
                raise NoMatch("The challenge has not been accepted yet.")
            # not to act: "not your turn" whatever the version (an old Undo told if the other had begun)
            mine = match.side_of(user_id) in live[1].to_act()
            if mine and expected_version is not None and not is_current(match, expected_version):
                raise StalePrompt(stale_text(match, expected_version))
            rows = undo.effective([r for r in await self.db.actions(match.id) if r.version <= match.version])
            back = undo.take_back(match, game_of(match), engine_seed(match), rows, live[1], user_id)
            waiting = waiting_ids(match, back.state)
            since = self._moment()
            try:
                updated = await self.db.commit_action(
                    match.id,
                    expected_version=match.version,
                    actions=[NewAction(undo.UNDO, user_id)],
                    interaction_id=interaction_id,
                    now=self.clock(),
                    snapshot=back.state.to_json(),
                    turn_player_id=waiting[0] if waiting else None,
                )
            except BaseException as exc:
                self.forget(channel_id)
                if isinstance(exc, DuplicateInteraction):
                    raise AlreadyApplied("That was already taken back.") from None
                if isinstance(exc, StaleVersion):
                    raise StalePrompt("The game moved on meanwhile; nothing was taken back.") from None
                raise
            self._runs.pop(channel_id, None)  # the stretch a hand-off shows is read from the log now
            self._stored(updated, back.state.clone(), since)
            return updated, back.state, back.notation

    @staticmethod
    def keeps_turn(rules: Game, state: State, side: str, steps: Sequence[tuple[str, list[Event]]]) -> bool:
        """Whether a player's command leaves the turn with them, so that its answer is theirs alone
        until the hand-off (RULES.md, "One board per hand-off"): they still owe the next action,
        the game goes on, and no step of it is news the other side must have now (a draw offered)
        or nobody may see at all (a standing order, already private). A step that drew chance or
        showed something hidden is kept back too: it cannot be undone, and the other side, who
        cannot act before the hand-off, sees it then, on the board of the whole turn."""
        if state.is_over() or side not in state.to_act():
            return False
        seen = [(text, done) for text, done in steps if not unseen(done)]
        return bool(seen) and not any(rules.parse(text).anytime for text, _ in seen)

    @classmethod
    def run_chain(
        cls,
        match: Match,
        rules: Game,
        before: State,
        side: str,
        actions: Sequence[Action],
        markup: Markup = PLAIN,
    ) -> Chain:
        """A command's actions played in order for `side` on a copy of `before` (RULES.md, "One
        command, several actions"). A refused step refuses the whole command (the error is
        raised, nothing changed) unless an earlier step drew chance or showed a secret
        (`drew_or_revealed`): then the steps before it stand, and the chain says which was not
        made. Pure: the fair-chance tests play twin positions through it (tests/test_fair_chance.py)."""
        state = before.clone()
        steps: list[tuple[str, list[Event]]] = []
        left_out: list[str] = []
        committed = False  # a step drew chance or revealed a secret: the steps made so far stand
        stood = (0, "")  # the first such step, and what it did
        refused: Refused | None = None
        for n, action in enumerate(actions, 1):
            if state.is_over():
                refused = Refused(n, str(action), "the game ended before this action.", MatchOver)
                break
            if not action.anytime and side not in state.to_act():
                if n > 1 and cls._answered_already(before, side, actions[: n - 1], action):
                    left_out.append(str(action))
                    continue
                if n == 1:
                    raise NotYourTurn(cls._waiting_for(match, rules, state, markup))
                # the command's own first steps handed the game to the other side
                refused = Refused(
                    n, str(action), cls._owed_first(match, rules, state, n, markup), NotYourTurn
                )
                break
            drawn = state.chance_drawn()
            try:
                done = list(state.apply(action, side))
            except IllegalAction as exc:
                hints, total = ranked_hints(rules, state, side, exc.legal)
                refused = Refused(n, str(action), str(exc), IllegalMove, hints, total)
                break
            steps.append((str(action), done))
            if not committed and drew_or_revealed(drawn, state.chance_drawn(), done):
                committed = True
                stood = (n, "drew chance" if state.chance_drawn() != drawn else "showed something hidden")
        if refused is not None and not committed:
            # Nothing drew chance or showed a secret: the command is refused whole, the game
            # unchanged, in words computed from what the player could see (RULES.md).
            if refused.kind is NotYourTurn:
                raise NotYourTurn(
                    cls._must_wait(match, rules, state, [str(a) for a in actions], refused.n, markup)
                )
            raise IllegalMove(cls._step(refused.n, len(actions), refused.why), refused.hints, refused.total)
        return Chain(state, steps, left_out, refused, stood)

    @staticmethod
    def _answered_already(before: State, side: str, earlier: Sequence[Action], action: Action) -> bool:
        """Whether `action` was this side's answer to a quick question it owed when the command
        began, and the command's earlier, any-time steps (a standing order) answered it instead."""
        if not (before.quick_decision() and side in before.to_act()):
            return False
        if not earlier or not all(a.anytime for a in earlier):
            return False
        return str(action) in {str(a) for a in before.legal_actions(side)}

    async def held_back(self, match: Match, user_id: int) -> PrivateTurn | None:
        """The other player's turn, while its steps are still theirs alone (`channel_view`): what
        `user_id`, one of the players, may know of the game is the position before it. None when
        there is no such turn, or it is theirs, or they are not a player."""
        side = match.side_of(user_id)
        if side is None or user_id == match.ai_player_id:
            return None
        live = self._live.get(match.channel_id)
        if live is not None and live[0].id == match.id and live[1] is not None and side in live[1].to_act():
            return None  # theirs to act (every move of the player on turn): no log to read
        private = await self.channel_view(match)
        return private if private is not None and private.player_id != user_id else None

    async def hand(self, channel_id: int, user_id: int, *, tapping: bool = False) -> tuple[Match, str | None]:
        """What `user_id` alone may know of the channel's game ("My hand"): None for someone not
        playing it, "" when their side holds nothing secret. While the other player's turn is still
        private it is read from the position the channel saw, so a card that turn took or gave (a
        step that may yet be taken back) is not told before the hand-off."""
        match, state = await self.latest(channel_id)
        side = match.side_of(user_id)
        if side is None:
            return match, None
        held = await self.held_back(match, user_id)
        if held is not None:
            state = held.seen.state
        # A player of a game without hands holds nothing secret: "", not None, which
        # would tell them they are not playing.
        return match, game_of(match).private_text(state.view(side), tapping=tapping) or ""

    def still_private(self, match: Match, held: PrivateTurn) -> NotYourTurn:
        """The answer to a player who would act while the other still takes a turn in private: the
        one they had before that turn's first step (whose turn it is, as the channel's board says),
        so it tells nothing of the steps, nor whether there are any."""
        return NotYourTurn(self._waiting_for(match, game_of(match), held.seen.state, self.markup))

    def _draw_waits_answer(self, match: Match, state: State) -> NotYourTurn:
        """The answer to a draw offered or declined while the other player takes their turn: the same
        words before their first step and after it."""
        rules = game_of(match)
        who = " and ".join(
            f"{self.markup.mention(match.sides[s])} ({rules.side(s).title})" for s in sorted(state.to_act())
        )
        return NotYourTurn(
            f"{who} is taking their turn. A draw is offered or declined on your own turn: try again once "
            "they hand it over (the channel then gets the board of their whole turn)."
        )

    async def _refuse_if_not_their_turn(self, match: Match, user_id: int) -> None:
        """Whoever is not owed an action (a stranger first) hears that: it helps more than a parse error."""
        live = self._live.get(match.channel_id)
        side = match.side_of(user_id)
        if live is None or live[1] is None or match.status is not Status.ACTIVE:
            return
        if side is None:
            raise NotAPlayer(STRANGER)
        state = live[1]
        if side not in state.to_act() and not state.is_over():
            raise NotYourTurn(self._waiting_for(match, game_of(match), state, self.markup))

    @staticmethod
    def _step(n: int, of: int, why: str) -> str:
        """A refusal of one action of a command of several says which one; nothing was played."""
        if of == 1:
            return why
        return f"Action {n} of {of}: {why} Nothing was played."

    @classmethod
    def parse_command(
        cls, rules: Game, before: State | None, side: str | None, texts: list[str]
    ) -> list[Action]:
        """Each action of a command parsed once, before anything is played, with `Game.parse_in` in
        the position where it would be played, so a refusal offers only examples legal there. That
        position never lies beyond a step that would draw chance or show a secret, nor an illegal
        one: from there on (or with no game in memory, or for a non-player) a bad action gets the
        parser's plain words, which depend on nothing drawn (RULES.md). The fair-chance tests call it."""
        actions: list[Action] = []
        state = before if side is not None else None  # the position of the next action, if known
        for n, text in enumerate(texts, 1):
            try:
                if state is None or side is None:
                    action = rules.parse(text)
                else:
                    action = rules.parse_in(text, state, side)
            except InvalidNotation as exc:
                hints, total = unread_hints(rules, state, side) if n == 1 and not exc.examples else ([], 0)
                raise IllegalMove(cls._step(n, len(texts), str(exc)), hints, total) from None
            actions.append(action)
            if state is not None and side is not None and n < len(texts):
                state = state.clone() if state is before else state
                drawn = state.chance_drawn()
                try:
                    done = state.apply(action, side)
                except IllegalAction:
                    state = None  # the command is refused at this step anyway: plain words after it
                else:
                    if drew_or_revealed(drawn, state.chance_drawn(), done):
                        state = None
        return actions

    async def _commit(
        self,
        match: Match,
        state: State,
        steps: list[tuple[str, list[Event]]],
        actor_id: int | None,
        interaction_id: int | None,
        before_commit: Callable[[], Any] | None = None,
        *,
        quick_before: bool = False,
        mid_turn: bool = False,
    ) -> Played:
        """Store a command's steps. A command `mid_turn` (its player goes on) owes the channel no
        board: the channel sees the turn at the hand-off (`MatchService.channel_view` meanwhile)."""
        rules = game_of(match)
        now = self.clock()
        changes: dict[str, Any] = {"snapshot": state.to_json()}
        events = [e for _, done in steps for e in done]
        # A command the channel does not see keeps the channel's board current (its buttons too).
        if unseen(events):
            changes["quiet_from"] = match.version if match.quiet_from is None else match.quiet_from
        elif match.quiet_from is not None:
            changes["quiet_from"] = None
        result: Result | None = None
        clocked = False  # a new clock is in `changes`, computed from the waiting players' time away
        outcome = state.outcome()
        if outcome is not None:
            winner = outcome.winner
            result = Result(
                winner_id=match.sides[winner] if winner else None,
                reason=outcome.detail,
                ai_rating=level_rating(rules, match.ai_level) if match.ai_level else None,
            )
            if match.game_clock is not None:  # the clock that ran stops: the game's record keeps it
                changes["game_clock"] = game_clock_stopped(match, now)
        else:
            waiting = waiting_ids(match, state)
            next_id = waiting[0] if waiting else None
            changes["turn_player_id"] = next_id
            # A new player's clock starts, and so does one for a quick decision (and after it),
            # but not within a turn still private: everyone sees the deadline, and a step that
            # may be taken back must not move it (RULES.md, "Your turn is yours").
            quick_changed = state.quick_decision() != quick_before and not mid_turn
            if next_id != match.turn_player_id or quick_changed:
                changes.update(await self._new_clock(match, state, now))
                clocked = True
            elif not mid_turn and (moved := game_clock_moved(match, state, now)) is not None:
                changes["game_clock"] = moved
        since = self._moment()
        try:
            updated = await self._commit_clocked(
                match,
                state,
                now,
                changes,
                clocked,
                expected_version=match.version,
                actions=[NewAction(text, actor_id) for text, _ in steps],
                interaction_id=interaction_id,
                result=result,
                before_commit=before_commit,
                owe_board=self.outbox and not mid_turn,
            )
        except BaseException as exc:
            # Whatever went wrong (already applied, another writer first, cancelled, crashed), the
            # copy in memory may be out of date: the next read goes to the database.
            self.forget(match.channel_id)
            if isinstance(exc, DuplicateInteraction):
                raise AlreadyApplied("That was already played.") from None
            if isinstance(exc, AwayChanged):  # the game did not move on: a time away was being written
                raise AwayBusy(
                    "A player's time away was changing just now, so your move was not stored. Send it again."
                ) from None
            if isinstance(exc, StaleVersion):
                raise StalePrompt(
                    "The game moved on while you were acting; nothing was changed. Look at the new board."
                ) from None
            raise
        self._stored(updated, state.clone(), since)
        side = match.side_of(actor_id) if actor_id is not None else None
        who = rules.side(side).title if side else "?"
        done = [Step(who, text, happened, actor_id) for text, happened in steps]
        self._extend_run(match, updated, done, actor_id)
        played = self._played(updated, state, done, actor_id)
        played.mid_turn = mid_turn
        return played

    @classmethod
    def _must_wait(
        cls, match: Match, rules: Game, state: State, texts: list[str], n: int, markup: Markup
    ) -> str:
        """A command whose step `n` comes after the other side must answer (a retreat square, a
        negation): what to send now and what after, so nobody has to work it out."""
        owed = " and ".join(f"the {rules.side(s).title}" for s in sorted(state.to_act()))
        now, later = f"{SEPARATOR} ".join(texts[: n - 1]), f"{SEPARATOR} ".join(texts[n - 1 :])
        return (
            f"Action {n} of {len(texts)} (`{texts[n - 1]}`) cannot be played yet: after action {n - 1} "
            f"{owed} must act first. Nothing was played. Send `{now}` now, then `{later}` when it is "
            f"your turn again.\nWhat they are asked: {cls._owed(match, rules, state, markup)}"
        )

    @classmethod
    def _owed_first(cls, match: Match, rules: Game, state: State, n: int, markup: Markup) -> str:
        """Why step `n` of a command that stands in part cannot be made: the other side owes an
        answer first (a retreat square, a negation)."""
        owed = " and ".join(f"the {rules.side(s).title}" for s in sorted(state.to_act()))
        asked = cls._owed(match, rules, state, markup)
        return f"after action {n - 1} {owed} must act first. What they are asked: {asked}"

    @classmethod
    def _waiting_for(cls, match: Match, rules: Game, state: State, markup: Markup) -> str:
        """Whom the game waits for, then their prompt (`Game.status`) quoted as theirs: it speaks to
        the player on turn ("@alice (their side) must decide: your …"), and read by the asker
        unmarked, its "your" seemed to be theirs. Every game's status says "you" to the player it
        names, so the words that frame it here say whose it is, whatever the game."""
        owed = sorted(state.to_act())
        if not owed:
            return "It is not your turn to act."
        who = " and ".join(f"{markup.mention(match.sides[s])} ({rules.side(s).title})" for s in owed)
        prompts = "Their prompts read" if len(owed) > 1 else "Their prompt reads"
        public = state.view(None)  # the public view: nothing the asker may not see
        prompts_of = [
            rules.status(public, s).replace("{player}", markup.mention(match.sides[s])) for s in owed
        ]
        quoted = "\n".join("> " + p.replace("\n", "\n> ") for p in prompts_of)
        return f"It is not your turn to act: the game waits for {who}. {prompts}:\n{quoted}"

    @staticmethod
    def _owed(match: Match, rules: Game, state: State, markup: Markup) -> str:
        public = state.view(None)
        return " ".join(
            rules.status(public, side).replace("{player}", markup.mention(match.sides[side]))
            for side in sorted(state.to_act())
        )
