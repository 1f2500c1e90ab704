"""What the channel is told when a private turn ends without its player (RULES.md, "Your turn is
yours"): a loss on time after private steps tells the steps that stand, the console's sweep runs what
the AI then owes, and a draw offer standing after a move shows its answers, read from the game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cogs._format import DISCORD
from console.names import BOT_ID
from data import Status
from play.markup import PLAIN
from play.news import told
from play.notices import notice_status, notice_text, notice_words
from play.present import tells_why
from play.service import MatchService
from tests.benchrun import last_figures
from tests.clock import Clock
from tests.fakediscord import FakeDiscordError
from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)
from tests.ids import button_id
from tests.test_bot import World, battlefronts_accepted, deployed, png_of, private_steps_until, world  # noqa: F401 (pytest fixtures)
from tests.test_console import close_consoles, open_console  # noqa: F401 (pytest fixture)
from tests.test_service import ALICE, BOB, CHANNEL, started
from tests.test_undo import close_databases, open_service  # noqa: F401 (pytest fixture)

DAY = 24 * 3600


async def private_steps(svc: MatchService, channel: int) -> list[str]:
    """Play Battlefronts at random (seeded) until a player is in the middle of a private turn that
    owes no quick decision: the notations of the steps the channel has not seen."""
    rng = random.Random(2)
    private: list[str] = []
    for _ in range(300):
        match, state = await svc.current(channel)
        side = sorted(state.to_act())[0]
        action = str(rng.choice(state.legal_actions(side)))
        played = await svc.act(channel, match.sides[side], action)
        private = [*private, action] if played.mid_turn else []
        if played.mid_turn and not played.state.quick_decision() and len(private) >= 2:
            return private
    raise AssertionError("no private turn of two steps came")


async def battlefronts_begun(
    tmp_path: Path, options: dict[str, object] | None = None, game_seconds: int | None = None
) -> MatchService:
    """A Battlefronts game in channel 100 on a fresh SQLite file: player 1 (the Reds) challenged
    player 2, who accepted (with a clock for the whole game of `game_seconds`, if given)."""
    svc = await open_service(tmp_path / "bf.db")
    await svc.challenge(
        guild_id=10,
        channel_id=100,
        challenger_id=1,
        opponent_id=2,
        game="battlefronts",
        side="red",
        options=options,
        game_seconds=game_seconds,
    )
    await svc.accept(100, 2)
    return svc


# The line under a board whose draw offer waits for the answer of a player not on turn.
ACCEPT_NOW = "accept the draw with the button (or the `draw` command), or decline it once it is your turn."


async def test_a_loss_on_time_after_private_steps_tells_them(tmp_path: Path) -> None:
    """Bob took two private steps, then let his deadline pass. The loss on time used to name only
    the loss while its board showed his steps; the steps stand, and the notice now tells them."""
    svc = await battlefronts_begun(tmp_path)
    private = await private_steps(svc, 100)
    match, _ = await svc.current(100)
    assert await svc.channel_view(match) is not None  # the channel has not seen them
    assert match.deadline is not None
    [notice] = [n for n in await svc.sweep(match.deadline + 1) if n.kind == "forfeit"]
    assert notice.played is not None and notice.played.over
    told_steps = [s.notation for s in notice.played.steps]
    assert told_steps[: len(private)] == private and len(told_steps) == len(private) + 1, (
        told_steps,
        private,
    )
    text = notice_text(notice, PLAIN)
    assert text.startswith(f"@{notice.user_id} ran out of time and loses the game."), text
    *steps, loss = told(notice.played, PLAIN).split("\n")
    for line in steps:
        assert line in text, (line, text)
    assert text.split("\n")[0].endswith("The steps of the turn they had begun stand:"), text
    assert loss not in text and text.count("ran out of time") == 1, text  # the loss is said once
    words = notice_words(notice, PLAIN)  # the loss on time says why: the status, only who won
    assert words.text == text and words.tells_why
    outcome = notice.played.state.outcome()
    assert outcome is not None and outcome.detail not in notice_status(notice, PLAIN, why_told=True)


async def test_a_game_ended_in_a_simultaneous_set_up_tells_the_present_players_hidden_steps(
    tmp_path: Path,
) -> None:
    """Combined Arms' armies are chosen at once, each kept secret until both are in. When one player
    never came, the loss on time said only that: the other's army, hidden till then and with nothing
    left to hide it for, was never told. The notice now tells it whole, once."""
    svc = await open_service(tmp_path / "ca.db")
    await svc.challenge(
        guild_id=10, channel_id=100, challenger_id=1, opponent_id=2, game="combinedarms", side="british"
    )
    await svc.accept(100, 2)
    await svc.act(100, 1, "army balanced")
    match, state = await svc.current(100)
    assert state.to_act() == {"germans"} and match.deadline is not None
    [notice] = [n for n in await svc.sweep(match.deadline + 1) if n.kind == "forfeit"]
    text = notice_text(notice, PLAIN)
    assert text == (
        "@2 ran out of time and loses the game.\nWhat @1 had done, hidden until now:\nThe British have "
        "chosen their army: 8 Infantry, 1 Sniper, 1 Machine Gun, 2 Tanks, 2 Artillery, 1 Flame Thrower, "
        "1 Headquarters (secret until both are in)"
    ), text


async def test_the_sweep_after_a_restart_tells_a_private_turn_as_a_whole_replay_would(tmp_path: Path) -> None:
    """After a restart (a process that did not see the turn played: nothing of it in memory) the
    sweep replays the private turn from where the channel last saw the game, not again from the
    seed: the same stretch, word for word and card for card, as a replay of the whole log."""
    svc = await battlefronts_begun(tmp_path)
    private = await private_steps(svc, 100)
    match, _ = await svc.current(100)
    assert match.deadline is not None
    restarted = MatchService(svc.db, clock=svc.clock)
    [notice] = [n for n in await restarted.sweep(match.deadline + 1) if n.kind == "forfeit"]
    assert notice.whole_turn and notice.played is not None
    assert [s.notation for s in notice.played.steps] == [*private, "timeout"]
    replayed = await MatchService(svc.db, clock=svc.clock).latest_stretch(await svc.db.get_match(match.id))
    assert replayed is not None
    assert told(replayed, PLAIN) == told(notice.played, PLAIN)
    assert replayed.private == notice.played.private
    assert replayed.state.to_json() == notice.played.state.to_json()


async def test_in_discord_the_loss_on_time_after_private_steps_shows_them(
    world: World,  # noqa: F811
) -> None:
    """The same through the bot: the channel's notice of the loss tells every private step, the
    words and the board agree, and no step was shown before (each was answered privately)."""
    w = world
    service = await battlefronts_accepted(w)
    private = await private_steps_until(
        w, service, 2, lambda _, after, private: not after.quick_decision() and len(private) >= 2
    )
    match = await w.match()
    assert match.deadline is not None
    before = len(w.fake.messages_in(w.general))
    w.clock.now = match.deadline + 1
    [notice] = [n for n in await w.cog.run_sweep() if n.kind == "forfeit"]
    assert notice.played is not None
    assert [s.notation for s in notice.played.steps] == [*private, "timeout"]
    [posted] = w.fake.messages_in(w.general)[before:]
    late = match.turn_player_id
    assert posted.content.startswith(f"<@{late}> ran out of time and loses the game."), posted.content
    *steps, loss = told(notice.played, DISCORD).split("\n")
    for story in steps:
        assert story in posted.content
    assert loss not in posted.content  # the loss is said in the notice's first sentence, not again
    png_of(posted)


async def test_the_consoles_sweep_runs_what_the_ai_then_owes(tmp_path: Path) -> None:
    """Against the AI at the console: my private Battlefronts turn leaves me only `pass` and its
    deadline passes. The sweep passed for me, but the AI's turn then waited for my next action,
    which the game refuses (it is the AI's turn): the game stood still. As in Discord's sweep loop,
    the AI now plays what it owes right after the notice."""
    clock = Clock(1_790_000_000.0)
    console, out = await open_console(tmp_path, clock=clock)
    await console.run_lines(["vs ai battlefronts random"])
    svc = console.service
    rng = random.Random(3)
    for _ in range(300):
        match, state = await svc.current(console.channel_id)
        mine = match.side_of(console.my_id)
        assert mine is not None and mine in state.to_act(), "the AI left its turn owed"
        quick = state.quick_decision()
        await console.run_lines([str(rng.choice(state.legal_actions(mine)))])
        match, state = await svc.current(console.channel_id)
        if await svc.channel_view(match) is not None and state.quick_decision() and not quick:
            break
    else:
        raise AssertionError("no private step left only a formality")
    assert match.deadline is not None
    played = len(await svc.db.actions(match.id))
    out.truncate(0)
    out.seek(0)
    clock.now = match.deadline + 1
    await console.run_lines(["/whoami"])  # every line runs the sweep first
    said = out.getvalue()
    assert "did not finish their turn in time" in said, said
    first = said.split("did not finish their turn in time, so the game finished it for them:\n")[1].split(
        "\n"
    )[0]
    assert said.count(first) == 1, said  # told once, as in Discord: the board then follows
    rows = (await svc.db.actions(match.id))[played:]
    assert rows[0].notation == "pass", [r.notation for r in rows]
    assert any(r.player_id == BOT_ID for r in rows[1:]), [(r.player_id, r.notation) for r in rows]
    match, state = await svc.latest(console.channel_id)
    assert state.is_over() or (match.side_of(console.my_id) in state.to_act()), state.to_act()
    assert said.count("board: ") >= 2, said  # the notice's board, then the AI's
    await console.close()


async def test_a_draw_offer_still_standing_at_the_hand_off_shows_its_answers(world: World) -> None:  # noqa: F811
    """Alice offers a draw, then plays her turn on in private (in Block Wars her offer stands). The
    buttons to answer it were shown only when a command's last link read `offer draw`; the board of
    her whole turn, at the hand-off, now shows them too, read from the game, and names Bob, whose
    answer it is. Her private boards show none (nobody else could click them)."""
    w = world
    await deployed(w)
    offered = await w.slash(w.alice, "draw", {"choice": "offer"})
    assert f"<@{w.bob.id}>: accept the draw with the button" in offered.message.content
    assert not any(c.endswith("decline draw") for c in offered.message.custom_ids)  # not his turn
    service = w.bot.service  # type: ignore[union-attr]
    rng = random.Random(4)
    handed = None
    for _ in range(20):
        match, state = await service.current(w.general.id)
        if match.side_of(w.alice.id) not in state.to_act():
            break
        legal = [a for a in state.legal_actions(match.side_of(w.alice.id)) if not a.anytime]
        step = await w.slash(w.alice, "play", {"action": str(rng.choice(legal))})
        await w.cog.idle()
        if step.message.ephemeral:
            assert not any("accept draw" in c for c in step.message.custom_ids), step.message.custom_ids
        else:
            handed = step.message
    assert handed is not None, "her turn was never handed over"
    match = await w.match()
    accept = button_id("dec", match, "accept draw")
    assert accept in handed.custom_ids, handed.custom_ids
    assert button_id("dec", match, "decline draw") in handed.custom_ids
    assert f"<@{w.bob.id}>: accept or decline the draw" in handed.content, handed.content
    answered = await w.fake.click(w.bob, handed, accept)
    assert "Game over: a draw" in answered.message.content


async def test_a_draw_offers_board_owed_after_a_crash_shows_its_answers(world: World) -> None:  # noqa: F811
    """Alice offers a draw and the bot dies before posting its board: the restarted bot posts the
    board it owed, but without the buttons to answer the offer or the line naming Bob. It now
    carries both, as the board it stands for would have (Accept alone: it is still Alice's turn)."""
    w = world
    await deployed(w)

    async def died(*args: object, **kwargs: object) -> None:
        return None  # as if the process were killed right after the acknowledgement

    w.cog.post_board = died  # type: ignore[method-assign]
    with pytest.raises(FakeDiscordError):
        await w.slash(w.alice, "draw", {"choice": "offer"}, timeout=1.0)
    match = await w.match()
    await w.restart()
    (board,) = await w.fake.wait_for_messages(
        lambda m: m.channel_id == w.general.id and not m.ephemeral and "offer a draw" in m.content,
        timeout=10,
    )
    assert button_id("dec", match, "accept draw") in board.custom_ids, board.custom_ids
    assert button_id("dec", match, "decline draw") not in board.custom_ids  # Alice's turn
    assert board.content.endswith(f"<@{w.bob.id}>: {ACCEPT_NOW}"), board.content
    answered = await w.fake.click(w.bob, board, button_id("dec", match, "accept draw"))
    assert "Game over: a draw" in answered.message.content, answered.message.content


async def test_a_draw_offer_standing_when_the_sweep_ends_a_turn_shows_its_answers(
    world: World,  # noqa: F811
) -> None:
    """In Battlefronts an offer stands until answered. Its maker plays her turn on in private till
    only `pass` is left and lets the deadline pass: the sweep's board of her whole turn, the first
    her opponent sees of it, carries the buttons to answer her offer."""
    w = world
    service = await battlefronts_accepted(w)
    rng = random.Random(5)
    offerer = None
    for _ in range(600):
        match, state = await service.current(w.general.id)
        side = sorted(state.to_act())[0]
        user = w.alice if match.sides[side] == w.alice.id else w.bob
        quick = state.quick_decision()
        if offerer is None and not quick and await service.channel_view(match) is None:
            made = await w.fake.slash(user, w.general, "battlefronts", "draw", {"choice": "offer"})
            assert not made.message.ephemeral, made.message.content  # never kept back
            offerer = user
            continue
        legal = [a for a in state.legal_actions(side) if not a.anytime]
        step = await w.fake.slash(user, w.general, "battlefronts", "play", {"action": str(rng.choice(legal))})
        await w.cog.idle()
        hidden = all(m.ephemeral for m in step.messages)
        _, after = await service.current(w.general.id)
        if hidden and user is offerer and after.quick_decision() and not quick:
            break
    else:
        raise AssertionError("the offerer's private turn never came down to a formality")
    other = w.bob if offerer is w.alice else w.alice
    match = await w.match()
    assert match.deadline is not None
    before = len(w.fake.messages_in(w.general))
    w.clock.now = match.deadline + 1
    [notice] = [n for n in await w.cog.run_sweep() if n.kind == "default"]
    assert notice.played is not None and other.id in notice.played.waiting
    [posted] = w.fake.messages_in(w.general)[before:]
    version = notice.played.match.version
    for answer in ("accept draw", "decline draw"):
        assert button_id("dec", match, answer, version=version) in posted.custom_ids, posted.custom_ids
    assert posted.content.endswith(
        f"<@{other.id}>: accept or decline the draw with the buttons (or the `draw` command)."
    )
    answered = await w.fake.click(other, posted, button_id("dec", match, "accept draw", version=version))
    assert "Game over: a draw" in answered.message.content, answered.message.content


async def test_a_battlefronts_offer_standing_off_turn_offers_accept_and_decline_on_ones_own_turn(
    world: World,  # noqa: F811
) -> None:
    """In Battlefronts an offer stands until answered, so the board showed Accept and Decline to the
    player who must answer even while the other was on turn, and Decline then always refused (a
    draw is declined on your own turn). While the answerer is not on turn the board now offers
    Accept alone and says Decline comes on their turn, in the same bytes before and after a private
    step of the player on turn; at the hand-off both answers show, and Decline goes through."""
    w = world
    service = await battlefronts_accepted(w)
    match, state = await service.current(w.general.id)
    side = sorted(state.to_act())[0]
    on, off = (w.alice, w.bob) if match.sides[side] == w.alice.id else (w.bob, w.alice)
    made = await w.fake.slash(on, w.general, "battlefronts", "draw", {"choice": "offer"})
    assert not made.message.ephemeral, made.message.content
    match = await w.match()
    assert button_id("dec", match, "accept draw") in made.message.custom_ids
    assert not any(c.endswith("decline draw") for c in made.message.custom_ids), made.message.custom_ids
    assert made.message.content.endswith(f"<@{off.id}>: {ACCEPT_NOW}"), made.message.content
    before = await w.fake.slash(off, w.general, "battlefronts", "board", {})
    assert before.content.endswith(f"<@{off.id}>: {ACCEPT_NOW}"), before.content
    step = None
    for action in state.legal_actions(side):  # a step that keeps the turn: hers alone
        if not action.anytime and str(action) not in ("end", "pass"):
            step = await w.fake.slash(on, w.general, "battlefronts", "play", {"action": str(action)})
            break
    assert step is not None and all(m.ephemeral for m in step.messages), step
    await w.cog.idle()
    after = await w.fake.slash(off, w.general, "battlefronts", "board", {})
    assert after.content == before.content
    assert after.message.custom_ids == before.message.custom_ids
    refused = await w.fake.slash(off, w.general, "battlefronts", "draw", {"choice": "decline"})
    assert refused.message.ephemeral and "on your own turn" in refused.content, refused.content
    handed = await w.fake.slash(on, w.general, "battlefronts", "play", {"action": "end"})
    await w.cog.idle()
    [board] = [m for m in handed.messages if not m.ephemeral] or [handed.message]
    match = await w.match()
    decline = button_id("dec", match, "decline draw")
    assert decline in board.custom_ids, board.custom_ids
    assert board.content.endswith(
        f"<@{off.id}>: accept or decline the draw with the buttons (or the `draw` command)."
    ), board.content
    answered = await w.fake.click(off, board, decline)
    assert not answered.message.ephemeral and "decline the draw" in answered.message.content, (
        answered.message.content
    )
    assert (await w.match()).version == match.version + 1


async def test_a_default_answer_that_ends_the_game_is_not_called_a_loss_on_time(tmp_path: Path) -> None:
    """Battlefronts: a player left only the formal `pass` lets the deadline go by; the game passes
    for them, and that pass ends the game (the last round's limit, or three fronts held), often with
    them as the winner. The notice said they "ran out of time and lose the game", beside a game-over
    line naming them the winner. It now says the game's automatic answer ended it, and tells it."""
    svc = await battlefronts_begun(tmp_path, {"rounds": 2})
    rng = random.Random(8)
    for _ in range(3000):
        match, state = await svc.current(100)
        side = sorted(state.to_act())[0]
        default = state.default_action(side) if state.quick_decision() else None
        if default is not None:
            after = state.clone()
            after.apply(default, side)
            outcome = after.outcome()
            if outcome is not None and outcome.winner == side:
                break
        await svc.act(100, match.sides[side], str(rng.choice(state.legal_actions(side))))
    else:
        raise AssertionError("no default answer that wins the game came")
    assert match.deadline is not None
    [notice] = await svc.sweep(match.deadline + 1)
    assert notice.played is not None and notice.played.over
    assert notice.played.match.winner_id == match.sides[side]  # the late player won by the pass
    text = notice_text(notice, PLAIN)
    assert "loses" not in text and "ran out of time" not in text, text
    assert text.startswith(f"@{match.sides[side]} did not "), text
    assert "and that ended the game:" in text and told(notice.played, PLAIN) in text, text
    # whether it says why is known as it is worded: the story's own end line, not the text read back
    words = notice_words(notice, PLAIN)
    assert words.text == text and words.tells_why is tells_why(
        told(notice.played, PLAIN), notice.played.state
    )
    outcome = notice.played.state.outcome()
    assert outcome is not None
    status = notice_status(notice, PLAIN, why_told=words.tells_why)
    assert (outcome.detail in status) is not words.tells_why, (status, text)


async def test_the_board_command_shows_the_answers_to_a_standing_draw_offer(world: World) -> None:  # noqa: F811
    """Alice offers a draw; anyone's `board` showed the game without the buttons to answer it (only
    the board after the offer had them). It now carries them (Accept: Bob declines on his own turn)
    and names Bob, the same before and
    after a private step of her turn (nothing shows whether she has taken one). Only Bob's click
    counts: hers and Eve's are refused and leave the game as it was. Her own look at her private turn
    shows none."""
    w = world
    await deployed(w)
    await w.slash(w.alice, "draw", {"choice": "offer"})
    match = await w.match()
    accept = button_id("dec", match, "accept draw")
    note = f"<@{w.bob.id}>: {ACCEPT_NOW}"
    before = await w.slash(w.eve, "board")
    assert accept in before.message.custom_ids, before.message.custom_ids
    assert button_id("dec", match, "decline draw") not in before.message.custom_ids
    assert before.content.endswith(note), before.content
    for wrong in (w.alice, w.eve):
        refused = await w.fake.click(wrong, before.message, accept)
        assert refused.message.ephemeral and "Game over" not in refused.content, refused.content
    assert (await w.match()).version == match.version  # nothing was applied
    step = await w.slash(w.alice, "play", {"action": "a6-a5"})
    assert all(m.ephemeral for m in step.messages)  # her step is hers alone
    for user in (w.bob, w.eve):
        board = await w.slash(user, "board")
        assert board.content == before.content, board.content
        assert board.message.custom_ids == before.message.custom_ids
        assert board.message.attachments[0].data == before.message.attachments[0].data
    hers = await w.slash(w.alice, "board")
    assert hers.message.ephemeral and not any("draw" in c for c in hers.message.custom_ids)
    assert "accept the draw" not in hers.content
    await w.fake.slash(w.alice, w.general, "wargames", "undo", {})
    board = await w.slash(w.bob, "board")  # her step taken back: the game as the channel saw it, newer
    assert board.content.endswith(note), board.content
    again = next(c for c in board.message.custom_ids if c.endswith(":accept draw"))
    answered = await w.fake.click(w.bob, board.message, again)
    assert "Game over: a draw" in answered.message.content, answered.message.content


def test_the_sweep_bench_runs_and_ends_with_its_figures() -> None:
    """bench/sweep.py (docs/performance.md), at its smallest: it must not rot unseen."""
    figures = last_figures("sweep.py", "--games", "4", "--turns", "3", "--reps", "1")
    assert figures["bench"] == "sweep" and figures["notices"] == 4
    assert figures["whole_turn_notices"] == figures["private_turns"] >= 1
    assert figures["log_reads"] == 4 + figures["private_turns"]  # one per game, one more per whole turn


async def test_a_reminder_of_a_set_up_made_at_once_goes_to_both_players(tmp_path: Path) -> None:
    """Both sides of Fix Bayonets set up at once, so both owe the move the reminder is about: each
    is reminded, not only the player the match names as on turn."""
    svc = await open_service(tmp_path / "r.db")
    await svc.challenge(
        guild_id=10, channel_id=100, challenger_id=1, opponent_id=2, game="fixbayonets", side="americans"
    )
    match = await svc.accept(100, 2)
    assert match.reminder_at is not None
    notices = await svc.sweep(now=match.reminder_at)
    assert sorted(n.user_id or 0 for n in notices if n.kind == "reminder") == [1, 2]


async def test_a_deadline_read_before_a_move_landed_is_not_applied(tmp_path: Path) -> None:
    """The sweep (or a round's close) read a game whose deadline had passed, and a move landed before
    it took the game's lock: the deadline it read is no longer the game's, so nobody loses on time."""
    svc = await open_service(tmp_path / "d.db")
    clock = svc.clock
    assert isinstance(clock, Clock)
    await started(svc)  # Alice (Germans) to move
    read, _ = await svc.current(CHANNEL)
    assert read.deadline is not None
    clock.now += DAY
    handed = await svc.act(CHANNEL, ALICE, "c7-b7; f7-g7")  # her whole turn: Bob's clock starts
    assert handed.match.turn_player_id == BOB
    assert await svc.overdue(read, read.deadline + 1) is None
    match, _ = await svc.current(CHANNEL)
    assert match.status is Status.ACTIVE and match.version == handed.match.version


async def test_a_loss_on_time_after_every_step_was_taken_back_tells_no_steps(tmp_path: Path) -> None:
    """A player took a step of their turn, took it back, and let the deadline pass: the channel is
    told the loss on time alone, as if no step had been tried (nothing of the turn stands, and
    saying there were steps would tell that some were tried)."""
    svc = await open_service(tmp_path / "u.db")
    await started(svc)
    await svc.act(CHANNEL, ALICE, "c7-b7")
    await svc.undo(CHANNEL, ALICE)
    match, _ = await svc.current(CHANNEL)
    assert match.deadline is not None
    (notice,) = await svc.sweep(now=match.deadline + 1)
    assert notice.kind == "forfeit" and not notice.whole_turn
    assert notice_text(notice, PLAIN) == "@1 ran out of time and loses the game."


async def test_a_set_up_made_at_once_that_neither_player_comes_to_ends_without_a_winner(
    tmp_path: Path,
) -> None:
    """RULES.md, "Deadlines": when both players owe an action at once and neither comes, the game ends
    without a winner, and the channel is told so, not that one of them lost on time."""
    svc = await open_service(tmp_path / "n.db")
    await svc.challenge(
        guild_id=10, channel_id=100, challenger_id=1, opponent_id=2, game="fixbayonets", side="americans"
    )
    match = await svc.accept(100, 2)
    assert match.deadline is not None
    (notice,) = await svc.sweep(now=match.deadline + 1)
    assert notice.kind == "forfeit" and notice.abandoned and notice.match.winner_id is None
    assert notice_text(notice, PLAIN) == "Neither player acted in time: the game ends without a winner."


async def test_a_loss_on_time_after_a_draw_offer_tells_no_steps(tmp_path: Path) -> None:
    """A draw offer is posted with the board as it is: a player who offered one on their turn and
    then let the deadline pass took no private step, so the notice tells the loss on time alone."""
    svc = await open_service(tmp_path / "o.db")
    await started(svc)
    offered = await svc.act(CHANNEL, ALICE, "offer draw")
    assert not offered.mid_turn and offered.match.deadline is not None
    (notice,) = await svc.sweep(now=offered.match.deadline + 1)
    assert notice.kind == "forfeit" and not notice.whole_turn
    assert notice_text(notice, PLAIN) == "@1 ran out of time and loses the game."


async def test_a_loss_on_time_after_the_set_up_tells_no_card_drawn_since(store: str) -> None:
    """The "hidden until now" line of a game's end is for a set-up made at once that the late
    player never came to (RULES.md, "A no-show"). In Fix Bayonets both set up, the Germans draw
    their cards (the channel reads "draw 3 cards") and hand over; the Americans run out of time.
    The notice names no card: a hand drawn in play is no set-up the end owes anyone."""
    svc = await open_service(store)
    await svc.challenge(guild_id=10, channel_id=100, challenger_id=1, opponent_id=2, game="fixbayonets")
    await svc.accept(100, 2)
    match, _ = await svc.current(100)
    await svc.act(100, match.sides["americans"], "setup OR/HR/SR/RR/RR/UR/HR/OR")
    for step in ("setup RR/HR/SR/OR/OR/UR/HR/RR", "zigzag Od8-f7", "fight", "end"):
        await svc.act(100, match.sides["germans"], step)
    match, state = await svc.current(100)
    assert state.to_act() == {"americans"} and match.deadline is not None
    [notice] = [n for n in await svc.sweep(match.deadline + 1) if n.kind == "forfeit"]
    assert notice.secret == ()
    assert "hidden until now" not in notice_text(notice, PLAIN)
