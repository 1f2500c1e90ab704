"""Small frictions a player met in Discord (issue 21, item 6), each through the real bot on the fake
Discord: what the player reads in a select, a challenge, an autocomplete list or a refusal."""

from __future__ import annotations

import logging
import random

import pytest

from bot import WargamesBot
from data import Match
from engine import registry
from engine.protocol import Game, State
from play.service import game_of
from tests.botkit import BotKit
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser
from tests.fakediscord.fixtures import ForwardErrors, HandClock
from tests.ids import button_id
from tests.pings import after_ping

GAMES = registry.names()


class Table:
    """A guild with one channel, two players and a spectator, and the bot connected."""

    def __init__(self, fake: FakeDiscord, guild: FakeGuild, bot: WargamesBot) -> None:
        self.fake = fake
        self.bot = bot
        self.channel: FakeChannel = guild.channel("general")
        self.alice = fake.add_user("alice")
        self.bob = fake.add_user("bob")
        self.eve = fake.add_user("eve")

    @property
    def users(self) -> dict[int, FakeUser]:
        return {self.alice.id: self.alice, self.bob.id: self.bob}

    async def match(self) -> Match:
        match = await self.bot.database.get_channel_match(self.channel.id)
        assert match is not None
        return match

    async def slash(self, user, game: str, name: str, options: dict | None = None, **kw):
        return await self.fake.slash(user, self.channel, game, name, options or {}, **kw)

    async def start(self, game: Game) -> FakeMessage:
        """Alice (the first side) challenges Bob, who accepts with the button: the first board."""
        first = game.sides[0].name
        asked = {"opponent": self.bob, "side": first}
        challenged = await self.slash(self.alice, game.name, "challenge", asked)
        match = await self.match()
        return (await self.fake.click(self.bob, challenged.message, f"bw:accept:{match.id}")).message

    async def set_position(self, position: State) -> None:
        """Put the channel's game in `position`, Alice (the first side) to act."""
        match = await self.match()
        assert self.bot.database is not None
        await self.bot.database.update_match(
            match.id,
            expected_version=match.version,
            snapshot=position.to_json(),
            turn_player_id=self.alice.id,
        )
        self.bot.service.forget(self.channel.id)

    async def play_until(self, game: Game, done, seed: int = 1, limit: int = 400) -> None:
        """Seeded random legal actions through the service until `done(state, side)` holds for the
        side to act."""
        rng = random.Random(seed)
        for _ in range(limit):
            match, state = await self.bot.service.current(self.channel.id)
            side = min(state.to_act())
            if done(state, side):
                return
            legal = await self.bot.service.legal(self.channel.id, match.sides[side])
            await self.bot.service.act(self.channel.id, match.sides[side], rng.choice(legal))
        raise AssertionError("the wanted position never came")


@pytest.fixture
async def table(fake_discord: FakeDiscord, start_bot, botkit: BotKit):
    fake = fake_discord
    fake.settle = 0.02
    guild = fake.add_guild("Front", channels=("general",))
    errors = ForwardErrors(fake)
    logging.getLogger("bot").addHandler(errors)
    bot = await botkit.build(clock=HandClock(), rng=random.Random(2))
    t = Table(fake, guild, bot)  # users exist before the bot connects: they join the guild
    try:
        await start_bot(t.bot)
        yield t
    finally:
        logging.getLogger("bot").removeHandler(errors)
        await t.bot.close()


# ------------------------------------------------------------------------- Take action placeholders


@pytest.mark.parametrize("name", GAMES)
async def test_take_action_asks_in_words_that_read_for_every_piece(table: Table, name: str):
    """'What should the the rifleman on a8 do?', 'What should the call up into travel zone T3 do?':
    the second select's words must read whatever the game calls its pieces."""
    t, game = table, registry.game(name)
    await t.start(game)

    def has_groups(state, side) -> bool:
        view = state.view(side)
        return state.turn_number() >= 1 and any(game.group_of(view, a) for a in state.legal_actions(side))

    await t.play_until(game, has_groups)
    match, state = await t.bot.service.current(t.channel.id)
    side = min(state.to_act())
    user = t.users[match.sides[side]]
    board = (await t.slash(user, name, "board")).message
    opened = await t.fake.click(user, board, button_id("act", match))
    picker = opened.message
    (unit_select,) = [c for c in picker.custom_ids if c.startswith("bw:unit:")]
    options = picker.component(unit_select)["options"]
    for option in options[:3]:
        await t.fake.select(user, picker, unit_select, [option["value"]])  # edits the picker
        label = option["label"]
        assert picker.content == f"{label}: what now?"
        for custom_id in picker.custom_ids:
            placeholder = picker.component(custom_id)["placeholder"]
            assert placeholder.startswith("Choose an action"), placeholder
            assert "the the" not in placeholder.lower()
        picker = (await t.fake.click(user, board, button_id("act", match))).message


# ------------------------------------------------------------------------------- the challenge text


@pytest.mark.parametrize("name", GAMES)
async def test_the_challenge_names_the_challengers_side_as_a_title(table: Table, name: str):
    t, game = table, registry.game(name)
    second = game.sides[1]
    challenged = await t.slash(t.alice, name, "challenge", {"opponent": t.bob, "side": second.name})
    assert f"challenger's side: the {second.title};" in challenged.content
    assert f"side: {second.name};" not in challenged.content
    match = await t.match()
    await t.fake.click(t.alice, challenged.message, f"bw:decline:{match.id}")
    chance = await t.slash(t.alice, name, "challenge", {"opponent": t.bob})
    assert "challenger's side: chosen at random;" in chance.content
    assert game_of(await t.match()).name == name


# ------------------------------------------------------------------- any-time commands' autocomplete


def standing_verbs() -> list[tuple[str, str]]:
    """(game, verb) of every verb whose fixed choices are any-time actions (standing orders)."""
    out = []
    for game in registry.games():
        for verb in game.verbs:
            if verb.choices and all(game.parse(verb.notation(c)).anytime for c in verb.choices):
                out.append((game.name, verb.name))
    return out


def test_the_standing_orders_are_declared_as_fixed_choices() -> None:
    assert ("fixbayonets", "orders") in standing_verbs()
    assert ("combinedarms", "autoretreat") in standing_verbs()
    assert ("combinedarms_wwii", "autoretreat") in standing_verbs()


@pytest.mark.parametrize(("name", "verb"), standing_verbs())
async def test_any_time_commands_are_offered_to_both_players_and_accepted(table: Table, name: str, verb: str):
    """`/fixbayonets orders`, `/combinedarms autoretreat`: the player not on turn used to read 'Not
    your turn', the player on turn nothing, and sending the note was refused."""
    t, game = table, registry.game(name)
    (spec,) = [v for v in game.verbs if v.name == verb]
    assert spec.arg is not None
    await t.start(game)
    await t.play_until(game, lambda state, side: state.turn_number() >= 1 and not state.quick_decision())
    match, state = await t.bot.service.current(t.channel.id)
    on_turn = match.sides[min(state.to_act())]
    waiting = match.other_player(on_turn)
    for user_id in (on_turn, waiting):
        user = t.users[user_id]
        offered = await t.fake.autocomplete(user, t.channel, name, verb, {spec.arg: ""}, focused=spec.arg)
        values = [c["value"] for c in offered]
        # every setting, but a switch already set that way (it would be refused as "already")
        assert values and set(values) <= set(spec.choices), offered
        assert not any("not your turn" in c["name"].lower() for c in offered)
        typed = await t.fake.autocomplete(
            user, t.channel, name, verb, {spec.arg: values[-1][:3]}, focused=spec.arg
        )
        assert values[-1] in [c["value"] for c in typed]
        answers = []
        for value in values:  # taken, never refused for the turn nor as a setting already in force
            answers.append(sent := await t.slash(user, name, verb, {spec.arg: value}))
            assert "not your turn" not in sent.content.lower(), sent.content
            assert "already" not in sent.content.lower(), sent.content
        # taken: a private note (orders kept secret) or the board in the channel (orders made public)
        assert any(not a.ephemeral or a.content.startswith("Only you see this") for a in answers)
    # the general `play` command offers them too, after the note, to the player not on turn
    user = t.users[waiting]
    mine = await t.fake.autocomplete(user, t.channel, name, verb, {spec.arg: ""}, focused=spec.arg)
    offered = await t.fake.autocomplete(user, t.channel, name, "play", {"action": ""}, focused="action")
    assert "not your turn" in offered[0]["name"].lower()
    assert spec.notation(mine[0]["value"]) in [c["value"] for c in offered[1:]]
    # a spectator is offered nothing
    assert await t.fake.autocomplete(t.eve, t.channel, name, verb, {spec.arg: ""}, focused=spec.arg) == []


# -------------------------------------------------------------- Fix Bayonets: the question of a card


async def a_card_on_the_table(t: Table) -> FakeMessage:
    """A Fix Bayonets game where the Germans (Alice) just played a March: the Americans (Bob) are
    asked whether to cancel it, and hold a Rough Ground that could."""
    from engine.fixbayonets.model import AMERICANS, GERMANS
    from engine.fixbayonets.position import build

    await t.start(registry.game("fixbayonets"))
    position = build(
        {"d8": "GOOR", "d7": "GR", "d1": "AOOR", "e2": "AR"},
        hands={GERMANS: ["march", "rifle3"], AMERICANS: ["rough", "bayonet"]},
        active=GERMANS,
    )
    await t.set_position(position)
    legal = await t.bot.service.legal(t.channel.id, t.alice.id)
    move = next(a for a in legal if a.startswith("march "))
    played = await t.slash(t.alice, "fixbayonets", "play", {"action": move})
    (board,) = [m for m in played.messages if not m.ephemeral]
    assert (await t.match()).turn_player_id == t.bob.id
    return board


async def test_cancel_it_clicked_by_the_cards_own_player_says_the_question_is_the_opponents(table: Table):
    """Alice clicking "Cancel it…" under her own card read 'There is no card of your opponent's to
    answer now', as if nothing were on the table."""
    t = table
    board = await a_card_on_the_table(t)
    match = await t.match()
    own = await t.fake.click(t.alice, board, button_id("open", match, "negate"))
    assert own.ephemeral
    assert own.content == (
        "The question is for the Americans: they decide whether to cancel your March. Wait for their answer."
    )
    theirs = await t.fake.click(t.bob, board, button_id("open", match, "negate"))
    assert theirs.ephemeral and theirs.content == "Cancel the card with:"


async def test_new_orders_that_answer_the_question_let_the_rest_of_the_command_through(table: Table):
    """`orders attacks; pass` sent while the question waits: the orders answer it at once (R15), so
    the `pass` after them has nothing left to answer. It was refused with advice to send `pass`
    later; now the command is played and the player told why the `pass` was left out."""
    t = table
    await a_card_on_the_table(t)
    sent = await t.slash(t.bob, "fixbayonets", "play", {"action": "orders attacks; pass"}, messages=2)
    public = [m for m in sent.messages if not m.ephemeral]
    private = [m for m in sent.messages if m.ephemeral]
    assert len(public) == 1, [m.content for m in sent.messages]
    assert after_ping(public[0].content).startswith("The Americans let it stand; the German rifleman moves")
    assert "orders" not in public[0].content  # the orders stay private
    (note,) = private
    assert note.content.startswith("Only you see this:")
    assert "cancel every attack" in note.content
    assert "`pass` was left out: your command had already answered the question" in note.content
    match, state = await t.bot.service.current(t.channel.id)
    assert match.turn_player_id == t.alice.id and not state.quick_decision()
    log = [notation for _, notation, _ in await t.bot.service.log(match)]
    assert log[-1] == "orders attacks" and log[-2].startswith("march ")


async def test_standing_orders_alone_owe_the_channel_no_board(table: Table):
    """Orders given alone, while the other side holds the question, are for their player only: the
    answer is private, and the store owes the channel no board of them (the outbox would otherwise
    post the unchanged board again later, as one never delivered)."""
    t = table
    await a_card_on_the_table(t)
    sent = await t.slash(t.alice, "fixbayonets", "play", {"action": "orders never"})
    assert [m.ephemeral for m in sent.messages] == [True]
    assert sent.messages[0].content.startswith("Only you see this:")
    assert await t.bot.service.owed_boards() == []


# ----------------------------------------------------------------------- refusal hints, best first


@pytest.mark.parametrize("name", ["combinedarms", "combinedarms_wwii"])
async def test_a_refusal_offers_moves_towards_the_enemy_first(table: Table, name: str):
    """'The unit on a8 is not yours. You can play: a1-b1, a1-b2, h1-g1, …': five back-row shuffles
    and none of the useful moves."""
    t, game = table, registry.game(name)
    await t.start(game)
    await t.play_until(game, lambda state, side: state.turn_number() >= 1 and not state.quick_decision())
    match, state = await t.bot.service.current(t.channel.id)
    side = min(state.to_act())
    forward = 1 if side == game.sides[0].name else -1  # the first side starts on rank 1
    refused = await t.slash(
        t.users[match.sides[side]], name, "play", {"action": "a8-a7" if forward == 1 else "a1-a2"}
    )
    assert refused.ephemeral and "is not yours" in refused.content
    offered = refused.content.split("You could play: ", 1)[1].split(", ")
    first = [o.strip("`. ") for o in offered[:6]]
    moves = [e for e in first if e not in ("done", "end")]  # the other kinds come early too (`spread`)
    assert len(moves) >= 3, first
    for example in moves:
        src, dst = example.replace("x", "-").split("-")
        assert (int(dst[1]) - int(src[1])) * forward > 0 or "x" in example, first


async def test_the_hand_marks_cards_whose_users_are_dead_as_unplayable(table: Table):
    """Fix Bayonets' hand marked only the other side's cards as not playable, not a Sniper card
    after the sniper fell nor a Flame Thrower after both heavy-weapons men fell."""
    from engine.fixbayonets.model import AMERICANS, GERMANS
    from engine.fixbayonets.position import build

    t = table
    board = await t.start(registry.game("fixbayonets"))
    match = await t.match()
    position = build(
        {"d8": "GOOR", "d7": "GR", "c8": "GU", "d1": "AOOR", "e2": "AR"},  # no German sniper or specialist
        hands={GERMANS: ["sniper", "flamer", "rifle3", "mg", "pistol"], AMERICANS: ["rough"]},
        active=GERMANS,
    )
    await t.set_position(position)
    shown = await t.fake.click(t.alice, board, f"bw:hand:{match.id}")
    assert shown.ephemeral
    assert (
        "Cards you cannot play (discard them when over five): Flame Thrower (both your specialists "
        "have fallen), Machine Gun (for the Americans only), Sniper (your sniper has fallen)."
    ) in shown.content
    for playable in ("Rifle (3) (", "Pistol ("):
        assert playable not in shown.content
    by_command = await t.slash(t.alice, "fixbayonets", "hand")
    assert by_command.content == shown.content


# --------------------------------------------------------- Combined Arms: why a unit was destroyed


async def test_a_unit_destroyed_on_its_back_row_says_it_had_no_square_to_retreat_to(table: Table):
    """'Headquarters on d8 destroyed (retreats off the board)' when it had no square at all: its
    side squares were taken. Say the real reason. (The WWI Headquarters now cannot retreat at all,
    by a later ruling: an Infantry on its back row shows the same.)"""
    from engine.combinedarms.position import build

    t = table
    await t.start(registry.game("combinedarms"))
    pieces = {"c7": "F", "e7": "F", "d8": "i", "c8": "i", "e8": "i", "a1": "H", "h5": "h"}
    position = build("wwi", pieces)
    await t.set_position(position)
    played = await t.slash(t.alice, "combinedarms", "play", {"action": "done; c7xd8; e7xd8"})
    (board,) = [m for m in played.messages if m.attachments]  # hers alone while her turn goes on
    assert "retreats off the board" not in board.content
    assert (
        "German Infantry on d8 is destroyed (no square to retreat to: the board ends behind it, and "
        "each square beside it is taken or next to an enemy)"
    ) in board.content


# ------------------------------------------------------------------------------- the rules' topics


@pytest.mark.parametrize("name", GAMES)
async def test_the_rules_overview_names_its_topics_once(table: Table, name: str):
    """Battlefronts' `rules` printed "Topics: …" twice in the console (its overview said it, and the
    console again); in Discord no other game said there were topics at all."""
    t, game = table, registry.game(name)
    topics = list(game.rules)
    shown = await t.slash(t.alice, name, "rules", {})
    assert shown.content.count("Topics:") == 1, shown.content
    assert shown.content.endswith(f"Topics: {', '.join(topics)} (`/{name} rules topic:…`).")
    one = await t.slash(t.alice, name, "rules", {"topic": topics[1]})
    assert "Topics:" not in one.content


# ----------------------------------------------------------------- a command that did a great deal


async def test_a_pass_that_sets_off_a_great_battle_still_posts_its_board(table: Table):
    """A Battlefronts pass closing a phase can tell of dozens of reductions: one line of over 2,000
    characters, more than a Discord message holds, so the board was never posted. The board comes,
    its words one event a line under the part of the turn (as in the console), cut to fit, saying
    how many lines it left out; whose turn it is now is never cut."""
    from engine.battlefronts.position import build
    from engine.battlefronts.state import SUPPORT

    t = table
    await t.start(registry.game("battlefronts"))
    places = {
        front: {side: [" ".join(f"{rank}{suit}" for rank in "9T8765")] for side in ("red", "blue")}
        for front, suit in zip(("F1", "F2", "F3", "F4"), "HDCS", strict=True)
    }
    position = build(places, round=3, phase=SUPPORT, current="red", passed=("blue",))
    await t.set_position(position)
    played = await t.slash(t.alice, "battlefronts", "pass")
    (board,) = [m for m in played.messages if not m.ephemeral]
    board.attachment("board.png")
    lines = after_ping(board.content).splitlines()
    assert len(board.content) <= 2000
    assert lines[0] == "**Reds, 1 action.** Fronts held alone after round 3: Reds 0, Blues 0 (three win)."
    battle = "Reds 9 against Blues 9, so the Blues take 2 reductions and the Reds 2"
    assert lines[1:5] == [f"Battle at F{n}: {battle}" for n in range(1, 5)]  # a line each
    assert len(lines) == 6 and lines[-1].startswith("<@")  # whose turn it is now is never cut


@pytest.mark.parametrize("name", ["combinedarms", "combinedarms_wwii"])
async def test_autoretreat_offers_only_the_switch_that_changes_something(table: Table, name: str):
    """A player whose automatic retreats were off was offered `autoretreat off` too, and sending it
    was refused as "already off": now each player is offered the one setting that changes theirs,
    in `/autoretreat` and in `play`, whoever is on turn."""
    t, game = table, registry.game(name)
    await t.start(game)
    await t.play_until(game, lambda state, side: state.turn_number() >= 1 and not state.quick_decision())
    match, state = await t.bot.service.current(t.channel.id)
    on_turn = match.sides[min(state.to_act())]
    for user_id in (on_turn, match.other_player(on_turn)):
        user = t.users[user_id]
        for expected in ("on", "off", "on"):
            offered = await t.fake.autocomplete(
                user, t.channel, name, "autoretreat", {"setting": ""}, focused="setting"
            )
            assert [c["value"] for c in offered] == [expected], offered
            play = await t.fake.autocomplete(
                user, t.channel, name, "play", {"action": "auto"}, focused="action"
            )
            assert [c["value"] for c in play if c["value"].startswith("autoretreat")] == [
                f"autoretreat {expected}"
            ]
            sent = await t.slash(user, name, "autoretreat", {"setting": expected})
            assert "already" not in sent.content.lower(), sent.content
