"""A cheater's hunt (docs/fairness.md, "What a cheater tried"): attacks a motivated player with a
phone and a second account would try, each through the real paths (the fake Discord, the console)
and the real engine. Each test of a leak failed before its fix; the twins and the second account
guard what held."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from data import Match, Status
from engine import registry
from engine.fixbayonets.model import GERMANS
from engine.protocol import Game, Menu, State, drew_or_revealed
from play import Played
from play.errors import ServiceError
from play.markup import PLAIN
from play.present import standing_actions, status_text
from play.results import quick_seconds
from play.service import MatchService
from tests.fakediscord.fixtures import fake_discord, start_bot  # noqa: F401 (pytest fixtures)
from tests.fixbayonets.test_discord import Table as FixBayonetsTable
from tests.fixbayonets.test_discord import started as fixbayonets_started
from tests.fixbayonets.test_discord import table  # noqa: F401 (pytest fixture)
from tests.ids import button_id
from tests.test_bot import World, deployed, world  # noqa: F401 (pytest fixtures)
from tests.test_conformance import bad_inputs
from tests.test_console import START, close_consoles, open_console  # noqa: F401 (pytest fixture)
from tests.test_fair_chance import answer, match_of, twin_moments
from tests.test_service import ALICE as SERVICE_ALICE
from tests.test_service import CHANNEL as SERVICE_CHANNEL
from tests.test_service import ai_game
from tests.test_turn_ends import battlefronts_begun
from tests.test_undo import close_databases, open_service  # noqa: F401 (pytest fixture)
from tests.test_undo_hidden import quiet_step


async def test_a_draw_offer_during_the_other_players_private_turn_is_refused_and_shows_nothing(
    world: World,  # noqa: F811
) -> None:
    """Alice's turn is hers until she hands it over. Bob offering a draw in the middle of it must not
    make the channel's board (or his `board` and `history`) show her steps so far, nor stop her
    taking them back: the offer is refused, saying she is still taking her turn."""
    w = world
    await deployed(w)
    channel_before = await w.slash(w.eve, "board")
    step = await w.slash(w.alice, "play", {"action": "a6-a5"})
    assert all(m.ephemeral for m in step.messages)  # her step is hers alone
    offer = await w.slash(w.bob, "draw", {"choice": "offer"})
    assert [m for m in offer.messages if not m.ephemeral] == []
    assert "is taking their turn. A draw is offered or declined on your own turn" in offer.content
    assert "1 action left" not in offer.content
    for user in (w.bob, w.eve):
        board = await w.slash(user, "board")
        assert "2 actions left" in board.content and "1 action left" not in board.content
        assert board.message.attachments[0].data == channel_before.message.attachments[0].data
        history = await w.slash(user, "history")
        assert "a6-a5" not in history.content and "draw" not in history.content
    undone = await w.fake.slash(w.alice, w.general, "wargames", "undo", {})
    assert "you took back `a6-a5`" in undone.content


async def test_a_waiting_players_draw_offer_or_decline_tells_nothing_of_whether_she_has_begun(
    world: World,  # noqa: F811
) -> None:
    """Bob's draw offer (or decline) during Alice's turn got through before her first step and was
    told to wait after it: any offer told him whether she had begun. It now always waits, in the
    same words before her first step and after it (RULES.md, "Your turn is yours")."""
    w = world
    await deployed(w)
    answers = {}
    for moment in ("before", "after"):
        offer = await w.slash(w.bob, "draw", {"choice": "offer"})
        decline = await w.slash(w.bob, "draw", {"choice": "decline"})
        assert all(m.ephemeral for m in [*offer.messages, *decline.messages])
        answers[moment] = (offer.content, decline.content)
        if moment == "before":
            step = await w.slash(w.alice, "play", {"action": "a6-a5"})
            assert all(m.ephemeral for m in step.messages)
    assert answers["before"] == answers["after"]
    assert "on your own turn" in answers["before"][0]
    assert "draw" not in (await w.slash(w.eve, "history")).content


async def test_declining_a_draw_during_the_other_players_private_turn_waits_for_the_hand_off(
    world: World,  # noqa: F811
) -> None:
    """Alice offers a draw (public), then takes a step of her turn (hers alone). Bob's decline
    would post the game as it is, her step included: it waits for the hand-off like his other
    commands, and the offer stands meanwhile."""
    w = world
    await deployed(w)
    await w.slash(w.alice, "draw", {"choice": "offer"})
    step = await w.slash(w.alice, "play", {"action": "a6-a5"})
    assert all(m.ephemeral for m in step.messages)
    declined = await w.slash(w.bob, "draw", {"choice": "decline"})
    assert [m for m in declined.messages if not m.ephemeral] == []
    assert (
        "is taking their turn. A draw is offered or declined on your own turn" in declined.content
        and "1 action left" not in declined.content
    )
    history = await w.slash(w.eve, "history")
    assert "a6-a5" not in history.content and "decline" not in history.content


async def test_in_the_console_legal_and_board_show_others_nothing_of_a_turn_still_private(
    tmp_path: Path,
) -> None:
    """The console's `legal` told Bob (and an onlooker) the status of Alice's turn as it was after
    her private steps ("1 action left"), and `board` named its picture by the number of actions
    stored, her private steps included: both now read the game as the channel saw it."""
    console, out = await open_console(tmp_path)
    await console.run_lines(START)

    async def said(*lines: str) -> str:
        out.truncate(0)
        out.seek(0)
        await console.run_lines(list(lines))
        return out.getvalue()

    before = await said("/as bob", "/blockwars board")
    picture = re.search(r"board: (\S+)", before)
    assert picture is not None
    await said("/as alice", "/blockwars play a6-a5")
    for user in ("bob", "carol"):
        text = await said(f"/as {user}", "/blockwars legal", "/blockwars board")
        assert "2 actions left" in text and "1 action left" not in text, text
        assert f"board: {picture.group(1)}\n" in text
    await console.close()


async def test_in_the_console_standing_orders_draw_no_board_of_a_turn_still_private(tmp_path: Path) -> None:
    """Bob's standing orders, given while Alice's turn is still hers, are for him alone and show the
    channel nothing: in Discord he reads only their words. The console wrote him a board of the
    game as it is, her private step on it; now it says only what he ordered, as Discord does."""
    console, out = await open_console(tmp_path)
    await console.run_lines(
        [
            *("/fixbayonets challenge @bob side:germans", "/as bob", "/fixbayonets accept", "/as alice"),
            *("/fixbayonets setup std", "/as bob", "/fixbayonets setup std", "/as alice"),
        ]
    )
    _, state = await console.service.current(console.channel_id)
    found = quiet_step(registry.game("fixbayonets"), state, GERMANS, random.Random(1), set())
    assert found is not None
    await console.run_lines([f"/fixbayonets play {found[0]}", "/as bob"])
    written = set(console.written)
    out.truncate(0)
    out.seek(0)
    await console.run_lines(["/fixbayonets play orders never"])
    said = out.getvalue()
    assert "never cancel" in said and "only you see this" in said.lower()
    assert "board:" not in said and set(console.written) == written  # no picture of her turn
    await console.close()


async def test_a_menu_opened_during_the_other_players_private_turn_carries_the_channels_version(
    table: FixBayonetsTable,  # noqa: F811
) -> None:
    """Every button carries the version of the position it was built on. A menu Bob opened from the
    channel's board while Alice's turn was still hers (his standing orders) was built on the game as
    it is, so its custom_ids, which his client holds, counted her private steps and takings back.
    It now carries the channel's version, and still works."""
    t = table
    board = await fixbayonets_started(t)
    match = await t.match()
    _, state = await t.bot.service.current(t.channel.id)
    found = quiet_step(registry.game("fixbayonets"), state, GERMANS, random.Random(1), set())
    assert found is not None
    step = await t.slash(t.alice, "play", {"action": found[0]})
    assert all(m.ephemeral for m in step.messages)
    assert (await t.match()).version > match.version  # stored: the game as it is moved on
    opened = await t.fake.click(t.bob, board, button_id("open", match, "orders"))
    ids = [c for c in opened.message.custom_ids if c.startswith("bw:")]
    assert ids and all(c.startswith(button_id("pick", match, "")) for c in ids), ids
    given = await t.fake.select(t.bob, opened.message, ids[0], ["orders never"])
    assert given.ephemeral and given.content.startswith("Only you see this")


async def to_a_private_formality(svc: MatchService, channel: int) -> tuple[Match, Played]:
    """Play a Battlefronts game at random (seeded) until a step of a turn still private leaves its
    player only a quick decision (the formal `pass`): the game as it was before that step, and the
    step."""
    rng = random.Random(1)
    for _ in range(300):
        match, state = await svc.current(channel)
        side = sorted(state.to_act())[0]
        quick = state.quick_decision()
        played = await svc.act(channel, match.sides[side], str(rng.choice(state.legal_actions(side))))
        if played.mid_turn and played.state.quick_decision() and not quick:
            return match, played
    raise AssertionError("no private step left only a formality")


async def test_a_private_step_that_leaves_only_a_formality_keeps_the_turns_deadline(tmp_path: Path) -> None:
    """In Battlefronts a side that has done all it can in a phase owes only `pass`, a quick decision
    with a short deadline. Reached by a step of a turn still private, the short deadline gave the
    turn away: everyone's board said "due in 6 hours" instead of the turn's days (so she had moved
    everything), and after she took the step back the short deadline stayed, and the sweep would
    have had her lose on time; in a tournament her game clock stopped too. A private step now leaves
    both clocks alone."""
    # a tournament's game clock, which a quick decision stops
    svc = await battlefronts_begun(tmp_path, game_seconds=7 * 24 * 3600)
    match, played = await to_a_private_formality(svc, 100)
    user = played.actor_id
    other = match.other_player(user)
    seen = await svc.channel_view(played.match)
    assert seen is not None  # still her turn alone
    assert played.match.deadline == match.deadline, "the deadline others see moved"
    assert played.match.game_clock == match.game_clock, "the game clock others see stopped"
    board = status_text(played.match, seen.seen.state, PLAIN)
    assert board == status_text(match, seen.seen.state, PLAIN)
    undone, _, _ = await svc.undo(100, user)
    assert undone.deadline == match.deadline
    late = svc.clock() + quick_seconds(match.turn_seconds) + 60  # past the short deadline
    assert await svc.sweep(late) == []
    after, _ = await svc.current(100)
    assert after.status.is_open and after.turn_player_id == user and other in after.players


async def test_a_moderator_cannot_cancel_a_game_they_play_to_escape_its_result(
    world: World,  # noqa: F811
) -> None:
    """Cancelling records no result and moves no rating (in a tournament it counts as a draw). A
    member who may manage the channel and plays in the game could cancel it when it went badly, or
    cancel a game against the AI until its first deal suited them. A player's own started game is
    now theirs to resign, not to cancel; another moderator still may."""
    w = world
    await w.slash(w.mod, "challenge", {"opponent": w.bob})
    match = await w.match()
    await w.fake.click(w.bob, w.fake.messages_in(w.general)[-1], f"bw:accept:{match.id}")
    refused = await w.slash(w.mod, "cancel")
    assert refused.ephemeral and "you play in it" in refused.content and "Resign" in refused.content
    assert (await w.match()).status is Status.ACTIVE
    # the AI's answer comes from its worker process, slow to start on a loaded machine (it missed 5 s)
    ai = await w.slash(
        w.mod, "challenge", {"opponent": w.fake.bot_user}, channel=w.trenches, messages=2, timeout=30
    )
    assert any("against the AI" in m.content and not m.ephemeral for m in ai.messages)
    again = await w.slash(w.mod, "cancel", channel=w.trenches)
    assert again.ephemeral and "you play in it" in again.content
    assert (await w.match(w.trenches)).status is Status.ACTIVE


def _keys(menu: Menu) -> set[str]:
    return {b.opens for b in menu.buttons if b.opens}


def _asked(game: Game, state: State, side: str, texts: list[str]) -> tuple[list[tuple], dict[str, object]]:
    """Everything `side` (on turn or not) may ask of `state` without acting: its answers to
    commands, the any-time list autocomplete offers, the status lines, the menus and every
    submenu, the focus choices and its hand."""
    view, public = state.view(side), state.view(None)
    legal = state.legal_actions(side)
    menu = game.menu(public)
    keys = sorted(_keys(menu) | {"gas", "army", "layout", "setup", "negate", "orders"})
    return [answer(game, match_of(game), state, side, t) for t in texts], {
        "standing": [str(a) for a in standing_actions(game, None, state, side)],
        "status": [game.status(public, s) for s in sorted(state.to_act())],
        "menu": repr(menu),
        "submenus": [repr(game.submenu(view, legal, k)) for k in keys],
        "focus": game.focus_choices(public),
        "hand": game.private_text(view),
        "public": public.to_json(),
    }


@pytest.mark.parametrize("name", registry.names())
def test_twins_answer_alike_whoever_asks_on_turn_or_not(name: str) -> None:
    """The fair-chance twins (tests/test_fair_chance.py) are asked by the side on turn; a cheater
    asks from either seat. For each side, a twin that differs only in what that side may not see
    gets the same answer to the other side's moves (typed out of turn), to mistyped ones and to the
    standing orders, and shows the same menus, submenus, status and hand."""
    game = registry.game(name)
    probed = differ = 0
    for rng, state, _ in twin_moments(name, 31, steps=120, every=8):
        for info in game.sides:
            twin = game.chance_twin(state, info.name, random.Random(rng.random()))
            texts = [str(a) for a in standing_actions(game)][:3]
            for owed in sorted(state.to_act()):
                legal = [str(a) for a in state.legal_actions(owed)]
                texts += (
                    rng.sample(legal, min(2, len(legal))) + sorted(bad_inputs(rng.choice(legal), rng))[:1]
                )
            (said, one), (said_twin, two) = (
                _asked(game, state, info.name, texts),
                _asked(game, twin, info.name, texts),
            )
            for n, (a, b) in enumerate(zip(said, said_twin, strict=True)):
                if not (a[0] == b[0] == "played" and a[1] and b[1]):  # both drew: they may differ
                    assert a == b, f"{name}: {info.name} asked `{texts[n]}`:\n{a}\n{b}"
            assert one == two, f"{name}: {info.name} sees a difference"
            probed += 1
            differ += twin.to_json() != state.to_json()
    assert probed > 10
    if not name.startswith("combinedarms"):  # their only chance, the map, is dealt before play
        assert differ > 5, f"{name}: only {differ} twins differ from their original at all"


@pytest.mark.parametrize("name", registry.names())
def test_a_step_that_may_be_undone_teaches_its_player_nothing_hidden(name: str) -> None:
    """Undo is allowed because the step drew nothing and showed nothing: so played on twins that
    differ only in what the mover may not see, such a step must leave the mover's view, the words
    they read and their hand the same. Otherwise a player could step, look, and take it back."""
    game = registry.game(name)
    undoable = 0
    for rng, state, side in twin_moments(name, 41, steps=150, every=4):
        twin = game.chance_twin(state, side, random.Random(rng.random()))
        legal = state.legal_actions(side)
        for action in rng.sample(legal, min(4, len(legal))):
            one, two = state.clone(), twin.clone()
            marks = one.chance_drawn(), two.chance_drawn()
            said = one.apply(action, side), two.apply(action, side)
            drew = [
                drew_or_revealed(m, s.chance_drawn(), e)
                for m, s, e in zip(marks, (one, two), said, strict=True)
            ]
            assert drew[0] == drew[1], f"{name}: `{action}` drew or showed in one twin only"
            if drew[0]:
                continue
            undoable += 1
            assert one.view(side).to_json() == two.view(side).to_json(), f"{name}: `{action}` showed a secret"
            assert [e.text(side) for e in said[0]] == [e.text(side) for e in said[1]]
            assert game.private_text(one.view(side)) == game.private_text(two.view(side))
    assert undoable > 20


async def test_the_ai_does_not_decline_a_draw_offer_its_opponent_played_on_from_in_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice offers the AI a draw and, before its answer comes, takes a step of her turn (hers alone
    until she hands it over). A decline would post the game as it is, her step included: the AI
    keeps it back (it comes at her hand-off: tests/test_ai_draws.py) and the channel
    sees nothing. Accepting ends the game, which is never kept back (the real AI, not clearly
    losing this early, declines: both answers are made to order here)."""
    svc = await open_service(tmp_path / "ai.db")
    await ai_game(svc)
    await svc.ai_turns(SERVICE_CHANNEL, budget_s=0.01)  # the AI's first turn: now Alice's
    match, state = await svc.current(SERVICE_CHANNEL)
    side = match.side_of(SERVICE_ALICE)
    assert side is not None and side in state.to_act()
    await svc.act(SERVICE_CHANNEL, SERVICE_ALICE, "offer draw")
    _, state = await svc.current(SERVICE_CHANNEL)
    found = quiet_step(registry.game("blockwars"), state, side, random.Random(1), set())
    assert found is not None
    step = await svc.act(SERVICE_CHANNEL, SERVICE_ALICE, found[0])
    assert step.mid_turn
    judge = svc.thinker.accepts_draw

    async def declines(*args: object) -> bool:
        await judge(*args)  # type: ignore[arg-type]
        return False

    monkeypatch.setattr(svc.thinker, "accepts_draw", declines)
    assert await svc.ai_answers_draw(SERVICE_CHANNEL) is None
    after, _ = await svc.current(SERVICE_CHANNEL)
    assert after.version == step.match.version  # nothing stored, nothing posted

    async def accepts(*args: object) -> bool:
        await judge(*args)  # type: ignore[arg-type]
        return True

    monkeypatch.setattr(svc.thinker, "accepts_draw", accepts)
    accepted = await svc.ai_answers_draw(SERVICE_CHANNEL)
    assert accepted is not None and accepted.over  # the end shows all: not kept back


async def test_a_second_account_watching_a_private_turn_learns_nothing(world: World) -> None:  # noqa: F811
    """Alice plays Bob in a thread; Eve, Alice's second account (or a friend she invited), watches
    there and plays Bob herself in the channel, so she holds a seat against him too. While Alice's
    step is hers alone, Eve's every way in to the thread's game answers as to any onlooker: the
    board and history as the channel saw them, no autocomplete, no look back, no record,
    no undo, no move; and her own game's seat gives her nothing of this one."""
    w = world
    await deployed(w, channel=w.thread)
    await w.slash(w.eve, "challenge", {"opponent": w.bob, "side": "germans"})
    g2 = await w.match()
    await w.fake.click(w.bob, w.fake.messages_in(w.general)[-1], f"bw:accept:{g2.id}")
    step = await w.slash(w.alice, "play", {"action": "a6-a5"}, channel=w.thread)
    assert all(m.ephemeral for m in step.messages)
    t = w.thread
    board = await w.slash(w.eve, "board", channel=t)
    assert "2 actions left" in board.content and "1 action left" not in board.content
    history = await w.slash(w.eve, "history", channel=t)
    assert "a6-a5" not in history.content
    for name, options, words in (
        ("play", {"action": "a6-a4"}, "not playing in this game"),
        ("play", {"action": "zz9"}, "not playing in this game"),  # before the parser's words
        ("review", {}, "Only the two players"),
    ):
        asked = await w.slash(w.eve, name, options, channel=t)
        assert asked.ephemeral and words in asked.content, (name, asked.content)
    for name, words in (("undo", "Only the two players"), ("export", "still being played")):
        asked = await w.fake.slash(w.eve, t, "wargames", name, {})
        assert asked.ephemeral and words in asked.content, (name, asked.content)
    assert await w.fake.autocomplete(w.eve, t, "blockwars", "play", {"action": ""}, focused="action") == []
    g1 = await w.match(t)
    own = await w.slash(w.eve, "history")  # her own game, in the channel: nothing of the thread's
    assert "a6-a5" not in own.content
    assert (await w.match(t)).version == g1.version


async def test_the_commitment_shown_is_long_enough_that_no_two_secrets_share_it(
    world: World,  # noqa: F811
) -> None:
    """The challenge shows the commitment shortened for a phone. At 16 hex digits (64 bits) whoever
    draws the secret could find two secrets whose commitments begin alike in about 2**32 tries, show
    those digits, and after the accepting click pick whichever secret gives the dice they like: the
    reveal would still match what was shown. At 32 digits (128 bits) that takes about 2**64 tries.
    The first board of an AI game and the end message show the same digits."""
    w = world
    result = await w.slash(w.alice, "challenge", {"opponent": w.bob, "side": "germans"})
    match = await w.match()
    assert match.seed_commitment is not None
    assert f"`{match.seed_commitment[:32]}…`" in result.content


async def test_a_forged_version_tells_the_waiting_player_nothing_of_a_private_turn(tmp_path: Path) -> None:
    """A button's custom_id carries the version it was drawn at, and a click on an old one is refused
    as out of date. While Alice's turn is private, Bob holds only the channel's board; a client that
    forged the version would have heard "out of date" for every version but the game's newest, which
    counts her private steps. Now any version but the channel's is out of date for him, the newest
    included, and Undo answers him as not his turn before looking at any version."""
    svc = await open_service(tmp_path / "v.db")
    await svc.challenge(
        guild_id=10, channel_id=100, challenger_id=1, opponent_id=2, game="blockwars", side="germans"
    )
    await svc.accept(100, 2)
    await svc.act(100, 1, "setup std")
    await svc.act(100, 2, "setup std")
    channel, _ = await svc.current(100)
    step = await svc.act(100, 1, "a6-a5")
    assert step.mid_turn
    newest = step.match.version
    answers = []
    for version in (newest, newest + 3, channel.version - 1):
        try:
            await svc.act(100, 2, "h3-h4", expected_version=version)
        except ServiceError as exc:
            answers.append((type(exc).__name__, exc.message))
    assert answers[0] == answers[1] == answers[2] and "out of date" in answers[0][1], answers
    with pytest.raises(ServiceError) as held:
        await svc.act(100, 2, "h3-h4", expected_version=channel.version)
    assert "It is not your turn to act" in held.value.message  # as before her step
    undos = []
    for forged in (newest, newest + 3, None):
        try:
            await svc.undo(100, 2, expected_version=forged)
        except ServiceError as exc:
            undos.append((type(exc).__name__, exc.message))
    assert undos[0] == undos[1] == undos[2], undos
