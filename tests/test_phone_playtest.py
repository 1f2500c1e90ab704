"""A newcomer's first turns on a phone, by buttons alone, through the fake Discord.

What the 2026-11-29 play-through by buttons found, kept: a Take action that could only answer
"nothing can act" (a dead end on a phone), select labels that led with a console keyword, and the
limits Discord cuts labels at. One bot serves the whole module (each test plays in its own channel),
so the stories stay cheap.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from itertools import islice
from typing import Any

import pytest
import pytest_asyncio

from cogs._format import groups_with_actions, nothing_alone_text
from cogs._views import PickSelect, notations
from engine import registry
from engine.protocol import Choice, Menu
from play.undo import MID_TURN_NOTE
from tests.fakediscord import FakeMessage
from tests.onebot import ON_THE_BOT, Table, one_bot
from tests.random_play import random_steps

BUTTON_LABEL = 80  # Discord cuts a button's label here...
OPTION_TEXT = 100  # ...a select option's label and description here...
OPTIONS = 25  # ...and a select holds this many options at most


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def phone(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Table]:
    async with one_bot(tmp_path_factory.mktemp("phone"), "Phones") as world:
        yield world


def fits_a_phone(message: FakeMessage) -> None:
    """Nothing under `message` is cut by Discord or left empty."""
    for comp in message.iter_components():
        if comp.get("type") == 2:
            assert 0 < len(comp["label"]) <= BUTTON_LABEL, comp
        if comp.get("type") == 3:
            options = comp["options"]
            assert 0 < len(options) <= OPTIONS, comp
            labels = [o["label"] for o in options]
            assert len(set(labels)) == len(labels), labels  # no two options read the same
            for option in options:
                assert 0 < len(option["label"]) <= OPTION_TEXT, option
                assert len(option.get("description") or "") <= OPTION_TEXT, option


def buttons(message: FakeMessage) -> dict[str, str]:
    """The labels of the buttons under `message`, by custom_id."""
    return {c["custom_id"]: c["label"] for c in message.iter_components() if c.get("type") == 2}


def take_action(message: FakeMessage) -> str | None:
    return next((c for c in message.custom_ids if c.startswith("bw:act:")), None)


async def accepted(phone: Table, game: str, side: str) -> tuple[Any, FakeMessage]:
    """The first board of a fresh game (Table.accepted), which must fit a phone."""
    channel, board = await phone.accepted(game, side)
    fits_a_phone(board)
    return channel, board


async def pick(phone: Table, user: Any, board: FakeMessage, group: str, notation: str) -> FakeMessage:
    """Take action, then the piece `group` (unless it is the only one: the actions come at once),
    then what it does (`notation`): the answer's board."""
    button = take_action(board)
    assert button is not None, buttons(board)
    what = (await phone.fake.click(user, board, button)).message
    assert what.ephemeral
    fits_a_phone(what)
    units = [c for c in what.custom_ids if c.startswith("bw:unit:")]
    if units:
        options = [o["value"] for u in units for o in what.component(u)["options"]]
        assert len(options) > 1 and group in options, options  # a choice of one is no choice
        (unit,) = [u for u in units if group in [o["value"] for o in what.component(u)["options"]]]
        (what,) = (await phone.fake.select(user, what, unit, [group])).edited
        fits_a_phone(what)
    (do,) = [c for c in what.custom_ids if c.startswith("bw:do:")]
    assert do.split(":")[4] == group, do
    played = await phone.fake.select(user, what, do, [notation])
    await phone.idle()
    fits_a_phone(played.message)
    return played.message


@ON_THE_BOT
async def test_take_action_leaves_once_nothing_can_act_alone(phone: Table) -> None:
    """Battlefronts, round 1: the Reds call up into each travel zone (by the select flow for T1;
    T2 and T3 in one typed command, to save boards; for T4, the only zone left, Take action goes
    straight to its call-ups). Once every zone has its call-up, the private board offers Pass,
    not a Take action that could only answer that nothing can act."""
    channel, board = await accepted(phone, "battlefronts", "red")
    board = await pick(phone, phone.alice, board, "T1", "call T1 1")
    typed = await phone.fake.slash(
        phone.alice, channel, "battlefronts", "play", {"action": "call T2 1; call T3 1"}
    )
    await phone.idle()
    board = typed.message
    assert board.ephemeral and take_action(board) is not None, buttons(board)
    board = await pick(phone, phone.alice, board, "T4", "call T4 1")
    assert board.ephemeral and board.attachments
    labels = buttons(board)
    assert take_action(board) is None, labels
    assert "Pass (finished with this phase)" in labels.values(), labels
    assert "every travel zone" in board.content


def test_nothing_alone_names_the_buttons_that_go_on() -> None:
    """Where Take action must stay (a hidden hand decides whether a card can be played), its refusal
    names the buttons that go on instead of sending a phone to type `play`."""
    menu = Menu(
        buttons=(
            Choice("Fight", "fight"),
            Choice("End turn", "end"),
            Choice("Standing orders…", opens="orders"),
        ),
        take_action=True,
    )
    text = nothing_alone_text(menu)
    assert text == "Nothing of yours can act on its own now: use **Fight** or **End turn** under the board."
    assert "`" not in nothing_alone_text(Menu(take_action=True))


def option_labels(message: FakeMessage) -> Iterator[str]:
    for comp in message.iter_components():
        if comp.get("type") == 3:
            yield from (o["label"] for o in comp["options"])


@ON_THE_BOT
async def test_fix_bayonets_submenus_read_as_sentences(phone: Table) -> None:
    """Fix Bayonets' "Other set-ups…" and "Standing orders…" selects: each option is the choice in
    words, capitalised, without the console keyword ("std:", "losses auto:") in front."""
    _, board = await accepted(phone, "fixbayonets", "germans")
    opened = [c for c in board.custom_ids if c.startswith("bw:open:")]
    assert {c.rsplit(":", 1)[1] for c in opened} == {"setup", "orders"}
    for button in opened:
        menu = (await phone.fake.click(phone.alice, board, button)).message
        assert menu.ephemeral
        fits_a_phone(menu)
        labels = list(option_labels(menu))
        assert labels
        for label in labels:
            assert label[0].isupper() and ":" not in label.split(" ")[0], label
        if button.endswith(":setup"):
            assert "The standard layout: officers in the centre" in labels
        else:
            assert "Never cancel a card" in labels and "Ask me who falls when a stack is hit" in labels


@ON_THE_BOT
async def test_a_draw_offer_board_has_no_undo_that_always_refuses(phone: Table) -> None:
    """Block Wars: the Germans deploy by a button, then the Canadians offer a draw before deploying.
    The channel's board asks the Germans to accept by the button; it carries no Undo, which would
    refuse either player (a word about a draw is never taken back). The Canadians' turn ping, by
    DM, names the game, the channel and what they owe."""
    await phone.fake.slash(phone.bob, phone.guild.channel("lobby"), "wargames", "notify", {"enabled": True})
    channel, board = await accepted(phone, "blockwars", "germans")
    layouts = [c for c in board.custom_ids if c.endswith(":setup std")]
    assert layouts, buttons(board)
    deployed = await phone.fake.click(phone.alice, board, layouts[0])
    await phone.idle()
    (handed,) = [m for m in deployed.messages if m.channel_id == channel.id]
    assert not handed.ephemeral  # a hand-off: the channel's board, the Canadians to deploy
    ping = phone.fake.dms_to(phone.bob)[-1].content
    assert ping.startswith(f"Your move in Block Wars in <#{channel.id}>, due <t:")
    assert "\nYou (Canadians): deploy your units" in ping, ping
    offered = await phone.fake.slash(phone.bob, channel, "blockwars", "draw", {"choice": "offer"})
    await phone.idle()
    offer = offered.message
    fits_a_phone(offer)
    labels = buttons(offer)
    assert "Accept the draw" in labels.values(), labels
    assert not any(c.startswith("bw:undo:") for c in labels), labels
    assert f"<@{phone.alice.id}>: accept the draw with the button" in offer.content


def late_company_commander() -> tuple[Any, str]:
    """A seeded Company Commander position late in a game (round 8) where the side to act has 26
    pieces that can act (units, cards, the Company Commander's extra card): more than a select holds."""
    game = registry.game("companycommander")
    state, _, _ = next(islice(random_steps(game, 0), 207, None))
    side = min(state.to_act())
    mine = state.view(side)
    pieces = {game.group_of(mine, a) for a in state.legal_actions(side)} - {None}
    assert len(pieces) > OPTIONS
    return state, side


@ON_THE_BOT
async def test_take_action_offers_every_piece_even_past_25(phone: Table) -> None:
    """Take action lists every piece that can act, over two selects when one holds too few: the 26th
    (left out before, so playable only by typing) opens its actions like any other."""
    channel, _ = await accepted(phone, "companycommander", "americans")
    state, side = late_company_commander()
    match = await phone.bot.database.get_channel_match(channel.id)
    await phone.bot.database.update_match(
        match.id, expected_version=match.version, snapshot=state.to_json(), turn_player_id=match.sides[side]
    )
    phone.bot.service.forget(channel.id)  # written behind the service's back: it must re-read
    player = phone.alice if match.sides[side] == phone.alice.id else phone.bob
    board = (await phone.fake.slash(player, channel, "companycommander", "board", {})).message
    picker = (await phone.fake.click(player, board, take_action(board) or "")).message
    fits_a_phone(picker)
    selects = [c for c in picker.iter_components() if c.get("type") == 3]
    assert [s["placeholder"] for s in selects] == ["Pick what acts (1/2)", "Pick what acts (2/2)"]
    keys = [o["value"] for s in selects for o in s["options"]]
    game = registry.game("companycommander")
    assert keys == groups_with_actions(game, state.view(side), state.legal_actions(side))
    last = selects[-1]
    chosen = await phone.fake.select(player, picker, last["custom_id"], [keys[-1]])
    (what,) = chosen.edited
    fits_a_phone(what)
    assert any(c.startswith("bw:do:") for c in what.custom_ids), what.content


def test_block_wars_decision_selects_say_what_they_choose() -> None:
    """A select's placeholder is all a phone shows of it before a tap: a strafe's and an Ace's read
    "Choose the unit to strafe (rank 6)", "Choose what comes on, and where", not a bare "Choose"."""
    game = registry.game("blockwars")
    seen: dict[str, list[str]] = {}
    for n, (state, _, _) in enumerate(random_steps(game, 0, 180)):
        if n in (21, 179):  # seed 0: a strafe, then an Ace's reinforcement, each with a select
            kind = state.pending.kind  # type: ignore[attr-defined]  # Block Wars' own State
            seen[kind] = [p.placeholder for p in game.menu(state.view(None)).picks]
    assert seen["strafe"] and all(p.startswith("Choose the unit to strafe (rank") for p in seen["strafe"])
    assert seen["ace"] == ["Choose what comes on, and where"]


def test_the_note_atop_a_private_step_is_one_short_sentence() -> None:
    """It heads every private step's answer: two sentences (137 characters) were read on each."""
    assert MID_TURN_NOTE.count(".") == 1 and len(MID_TURN_NOTE) <= 90, MID_TURN_NOTE


@ON_THE_BOT
async def test_a_private_step_says_only_you_see_this_once(phone: Table) -> None:
    """A step that deals its player something (Company Commander's `tactics` draws two cards, and
    the turn goes on) is answered under the note that only they see it: the cards are told where
    they were drawn, once (not a line of them and a line of their count), and not under a second
    "Only you see this:", read twice in two lines."""
    channel, _ = await accepted(phone, "companycommander", "germans")
    match, state = await phone.bot.service.current(channel.id)
    (side,) = state.to_act()  # who deploys first is drawn
    first = phone.alice if match.sides[side] == phone.alice.id else phone.bob
    u = side[0].upper()  # the units are A1-A3 or G1-G3
    step = await phone.fake.slash(
        first,
        channel,
        "companycommander",
        "play",
        {"action": f"deploy {u}3 L; deploy {u}2 L; deploy {u}1 L; tactics"},
    )
    assert step.ephemeral
    text = step.message.content
    assert text.startswith(f"{MID_TURN_NOTE}\nThe {side.title()} deploy "), text
    # the draw told once, in its place, as its player saw it: the cards, not also their count
    (drew,) = [line for line in text.splitlines() if line.startswith(f"The {side.title()} draw ")]
    assert "Tactics cards" not in drew, text
    assert text.count("Only you see this") == 1, text


async def placed(phone: Table, name: str, side: str, position: Any) -> tuple[Any, FakeMessage]:
    """A new game of `name`, Alice playing `side`, set to `position` with her to act: the channel and
    the board she asks for."""
    channel, _ = await phone.accepted(name, side)
    match = await phone.bot.database.get_channel_match(channel.id)
    await phone.bot.database.update_match(
        match.id, expected_version=match.version, snapshot=position.to_json(), turn_player_id=phone.alice.id
    )
    phone.bot.service.forget(channel.id)  # written behind the service's back: it must re-read
    return channel, (await phone.fake.slash(phone.alice, channel, name, "board", {})).message


def over_the_limit(name: str) -> tuple[str, Any, int]:
    """A position where the side Alice plays (first) holds three cards over its game's limit, two
    of them alike: (her side, the position, the limit)."""
    if name == "fixbayonets":
        from engine.fixbayonets.position import build as fb_build
        from engine.fixbayonets.state import DISCARD as FB_DISCARD

        hand = ["march", "march", "trees", "rifle3", "rifle3", "crawl", "run", "charge"]
        position = fb_build({"d8": "GR", "a1": "AR"}, hands={"germans": hand}, phase=FB_DISCARD)
        return "germans", position, 5
    from engine.companycommander.position import build as cc_build
    from engine.companycommander.state import DISCARD as CC_DISCARD

    hand = ["medic", "medic", "sniper", "mortars", "mortars", "rally", "rally", "ambush", "surprise"]
    hand.append("artillery")
    units = {"A1": "rifles C", "G1": "rifles C"}
    return "americans", cc_build(units, hands={"americans": hand}, phase=CC_DISCARD), 7


@ON_THE_BOT
@pytest.mark.parametrize("name", ["fixbayonets", "companycommander"])
async def test_cards_over_the_limit_are_discarded_in_one_pick(phone: Table, name: str) -> None:
    """Fix Bayonets' discard down to five and Company Commander's down to seven took a round trip a
    card (Take action, a card, a board). Now Discard… opens the player's hand to them alone as one
    select of exactly as many picks as they are over, two alike told apart, and the picks are
    discarded together, as one command; the opponent's click shows nothing of that hand."""
    side, position, limit = over_the_limit(name)
    channel, board = await placed(phone, name, side, position)
    assert "choose the 3 to **discard**" in board.content and "`" not in board.content, board.content
    (opener,) = [c for c in board.custom_ids if c.endswith(":discard")]
    assert buttons(board)[opener] == "Discard…" and take_action(board) is None, buttons(board)
    theirs = (await phone.fake.click(phone.bob, board, opener)).message
    assert theirs.ephemeral and not list(option_labels(theirs)), theirs.content  # not his to see
    hand = (await phone.fake.click(phone.alice, board, opener)).message
    assert hand.ephemeral
    fits_a_phone(hand)
    (select,) = [c for c in hand.iter_components() if c.get("type") == 3]
    assert select["min_values"] == select["max_values"] == 3, select
    options = {o["label"]: o["value"] for o in select["options"]}
    assert len(options) == len(position.hands[side]), options
    alike = "March" if name == "fixbayonets" else "Medic"
    picked = [options[alike], options[f"{alike}, a second one"], options[min(options)]]
    played = await phone.fake.select(phone.alice, hand, select["custom_id"], picked)
    await phone.idle()
    assert "Discard" not in buttons(played.message).values(), played.message.content
    _, state = await phone.bot.service.current(channel.id)
    held = [c.name for c in state.hands[side]]
    assert len(held) == limit and alike not in held, held
    # the same picks again, from the hand shown before: out of date, and nothing of them is played
    again = await phone.fake.select(phone.alice, hand, select["custom_id"], picked[1:] + picked[:1])
    assert again.ephemeral and "out of date" in again.content, again.content
    _, after = await phone.bot.service.current(channel.id)
    assert [c.name for c in after.hands[side]] == held


def test_a_select_of_several_picks_tells_alike_choices_apart() -> None:
    """Discord refuses two options of one value: two of one card, both to discard, are two options
    (the second says which it is), and the picks play as one command in the order listed."""
    alike = [Choice("March", "discard march"), Choice("Run", "discard run"), Choice("March", "discard march")]
    select = PickSelect.build(1, "ab12", 0, alike, "Choose the 2 cards to discard", least=2, most=2).item
    assert (select.min_values, select.max_values) == (2, 2)
    assert [o.label for o in select.options] == ["March", "Run", "March, a second one"]
    values = [o.value for o in select.options]
    assert len(set(values)) == 3
    assert notations([values[2], values[0]], select.options) == "discard march; discard march"
    assert notations([values[1]], select.options) == "discard run"


@ON_THE_BOT
async def test_a_face_led_battalion_jumps_by_take_action(phone: Table) -> None:
    """Battlefronts' move phase told a phone player a face-led battalion "may `jump` to any front",
    a word to type: now the words say it may jump, and Take action offers the jump with its moves."""
    from engine.battlefronts.model import PLACE_NAMES
    from engine.battlefronts.position import build
    from engine.battlefronts.state import MOVE

    position = build({"T2": {"red": ["?5H 6H"]}, "F1": {"red": ["KS 4D"]}}, round=3, phase=MOVE)
    channel, board = await placed(phone, "battlefronts", "red", position)
    assert "or jump R2, led by a face card, to any front, then **End turn**" in board.content, board.content
    assert "`jump" not in board.content, board.content
    played = await pick(phone, phone.alice, board, "R2", "jump R2 F2")
    assert "R2" in played.content, played.content
    _, state = await phone.bot.service.current(channel.id)
    assert PLACE_NAMES[state.find("R2").place] == "F2"


@ON_THE_BOT
async def test_an_army_and_layout_of_ones_own_say_they_are_typed(phone: Table) -> None:
    """Combined Arms: the ready-made armies and layouts are buttons; one's own (16 units of 8 unit
    types, or rows of a whole deployment) are far more than Discord's selects hold, so they stay
    typed, and the status says so and names the button that explains how, not a bare `deploy`."""
    channel, board = await accepted(phone, "combinedarms", "british")
    assert "your own 16 units, typed as letters and counts (**Design my own…**, e.g. `army " in board.content
    (balanced,) = [c for c in board.custom_ids if c.endswith(":army balanced")]
    for user in (phone.alice, phone.bob):  # each on the newest board
        await phone.fake.click(user, board, balanced)
        await phone.idle()
        board = [m for m in phone.fake.messages_in(channel) if not m.ephemeral][-1]
        balanced = next((c for c in board.custom_ids if c.endswith(":army balanced")), "")
    deploy = board
    said = "or rows of your own, typed in one command (**Write my own layout…**)."
    assert said in deploy.content, deploy.content
    (own,) = [c for c in deploy.custom_ids if c.endswith(":deploy")]
    mine = (await phone.fake.click(phone.alice, deploy, own)).message
    assert mine.ephemeral and "The 'line' layout of your army reads: `deploy " in mine.content, mine.content
