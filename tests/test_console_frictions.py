"""Small frictions a player met in the console (issue 21, item 6), driven as a user drives it: lines
in, text and real files out, on a real SQLite file in tmp_path."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest

from cogs.room import friendly
from console import Console, names
from console.app import command_for
from data import Database
from engine import registry
from play import IllegalMove, MatchService
from play.results import HINTS
from tests.fakediscord.fixtures import HandClock


async def open_console(tmp_path: Path, seed: int = 5) -> tuple[Console, io.StringIO]:
    clock = HandClock()
    db = await Database.open(tmp_path / "console.db", clock=clock)
    out = io.StringIO()
    service = MatchService(db, clock=clock, rng=random.Random(seed))
    return Console(service, boards=tmp_path / "boards", out=out, ai_budget=0.05), out


async def start(console: Console, name: str) -> None:
    """@alice (the first side) challenges @bob, who accepts; the console is left as @alice."""
    game = registry.game(name)
    lines = [f"/{name} challenge @bob side:{game.sides[0].name}", "/as bob", f"/{name} accept", "/as alice"]
    assert await console.run_lines(lines) == 0


async def play_until(console: Console, name: str, done, seed: int = 1, limit: int = 400) -> None:
    """Seeded random legal commands, typed as each player would, until `done(state, side)`."""
    game = registry.game(name)
    rng = random.Random(seed)
    for _ in range(limit):
        match, state = await console.service.latest(console.channel_id)
        side = min(state.to_act())
        if done(state, side):
            break
        who = names.user_name(match.sides[side])
        if console.me != who:
            await console.run_lines([f"/as {who}"])
        notation = rng.choice(await console.service.legal(console.channel_id, console.my_id))
        cmd, arg = command_for(game, state, notation)
        assert await console.run_lines([f"/{name} {cmd} {arg}".rstrip()]) == 0
    else:
        raise AssertionError("the wanted position never came")
    match, state = await console.service.latest(console.channel_id)
    who = names.user_name(match.sides[min(state.to_act())])
    if console.me != who:
        await console.run_lines([f"/as {who}"])


BLOCK_WARS_SET_UP = ["/blockwars setup", "/as bob", "/blockwars setup std", "/as alice"]


def said(out: io.StringIO) -> str:
    """What the console printed since the last call."""
    text = out.getvalue()
    out.seek(0)
    out.truncate()
    return text


@pytest.mark.parametrize("name", ["fixbayonets", "combinedarms"])
async def test_legal_lists_the_standing_orders_to_both_players(tmp_path: Path, name: str) -> None:
    console, out = await open_console(tmp_path)
    try:
        await start(console, name)
        await play_until(console, name, lambda state, side: state.turn_number() >= 1)
        verb = next(v for v in registry.game(name).verbs if v.choices)
        for who in (console.me, "alice" if console.me == "bob" else "bob"):
            said(out)
            assert await console.run_lines([f"/as {who}", f"/{name} legal"]) == 0
            text = said(out)
            assert "At any time, on turn or not:" in text
            # every setting but a switch already in force (Combined Arms: retreats are asked at first)
            offered = verb.choices if name == "fixbayonets" else ("on",)
            assert f"/{name} {verb.name}: {', '.join(offered)}" in text
    finally:
        await console.close()


async def test_a_pass_that_closes_a_phase_reads_one_event_a_line_grouped_by_phase(tmp_path: Path) -> None:
    """Battlefronts: the pass that ends a round used to answer with one line of every battle, every
    reduction, the end of the round and the next attrition (2,300 characters)."""
    console, out = await open_console(tmp_path)
    game = registry.game("battlefronts")

    def closes_a_round(state, side) -> bool:
        if "pass" not in [str(a) for a in state.legal_actions(side)]:
            return False
        events = state.clone().apply(game.parse("pass"), side)
        return sum(1 for e in events if type(e).__name__ == "Reduced") >= 4

    try:
        await start(console, "battlefronts")
        await play_until(console, "battlefronts", closes_a_round, seed=3, limit=1500)
        _, state = await console.service.latest(console.channel_id)
        events = state.clone().apply(game.parse("pass"), min(state.to_act()))
        said(out)
        assert await console.run_lines(["/battlefronts pass"]) == 0
        lines = said(out).splitlines()
        # (a pass after which the same side acts again is answered to it alone: "(only you see this) board:")
        start_at = next(i for i, ln in enumerate(lines) if "board: " in ln) + 1
        story = lines[start_at : next(i for i, ln in enumerate(lines) if ln.startswith("@"))]
        assert max(len(ln) for ln in story) < 200, story
        for event in events:
            text = event.text(None)
            assert any(ln.strip() in (text, text[:1].upper() + text[1:]) for ln in story), text
        assert story[0].endswith("pass")
        assert "  Battle:" in story
        headings = [ln.strip() for ln in story if ln.startswith("  ") and not ln.startswith("    ")]
        assert len(headings) == len(set(headings)), story  # each phase once, its events under it
    finally:
        await console.close()


# ------------------------------------------------------------------- one notation tolerance for all


def spaced(notation: str) -> list[str]:
    """What players type for `notation`: spaces around the notation's punctuation, a stray trailing
    separator, capitals."""
    import re

    wide = re.sub(r"\s*([-/@,])\s*", r" \1 ", notation).strip()
    out = [wide, notation.upper(), f"  {notation}  "]
    if "/" in notation:
        out.append(notation + "/")
    if re.search(r"\dx[a-h]\d", notation):
        out.append(re.sub(r"(\d)x([a-h]\d)", r"\1 x \2", notation))
    return out


@pytest.mark.parametrize("name", registry.names())
def test_every_game_reads_its_notation_with_spaces_and_a_trailing_separator(name: str) -> None:
    game = registry.game(name)
    state = game.new_game(game.normalise_options({}), 4)
    rng = random.Random(4)
    tried = 0
    for _ in range(120):
        if state.is_over():
            break
        side = min(state.to_act())
        legal = list(state.legal_actions(side))
        for action in legal[:40]:
            for typed in spaced(str(action)):
                assert game.parse(typed) == action, (typed, str(action))
                tried += 1
        state.apply(rng.choice(legal), side)
    assert tried > 100


async def test_block_wars_takes_a_move_typed_with_spaces(tmp_path: Path) -> None:
    """`F2 - E1` was 'Unknown command' in Block Wars, while Combined Arms took `b3 - b4`."""
    console, out = await open_console(tmp_path)
    try:
        await start(console, "blockwars")
        assert await console.run_lines(["/blockwars setup", "/as bob", "/blockwars setup std"]) == 0
        said(out)
        assert await console.run_lines(["/as alice", "E6 - E5", "D6 -d5"]) == 0, said(out)
        text = said(out)
        assert "Germans: e6-e5" in text and "Germans: d6-d5" in text
    finally:
        await console.close()


@pytest.mark.parametrize("name", ["combinedarms", "combinedarms_wwii"])
async def test_a_deployment_with_a_trailing_slash_is_taken(tmp_path: Path, name: str) -> None:
    """`deploy …/…/…/` answered "'' is not a row"."""
    from engine.combinedarms.actions import ROWS_EXAMPLE

    console, out = await open_console(tmp_path)
    game = registry.game(name)
    rows = ROWS_EXAMPLE["wwii" if name.endswith("wwii") else "wwi"]
    try:
        await start(console, name)
        assert await console.run_lines([f"/{name} army balanced", "/as bob", f"/{name} army balanced"]) == 0
        match, state = await console.service.latest(console.channel_id)
        first = names.user_name(match.sides[min(state.to_act())])
        said(out)
        assert await console.run_lines([f"/as {first}", f"/{name} deploy {rows}/"]) == 0, said(out)
        text = said(out)
        assert "is not a row" not in text and f"deploy {rows}" in text.replace(": deploy", " deploy")
        _, state = await console.service.latest(console.channel_id)
        assert game.sides[0].name not in state.to_act() or game.sides[1].name not in state.to_act()
    finally:
        await console.close()


async def test_block_wars_refuses_another_games_pass_instead_of_ending_the_turn(tmp_path: Path) -> None:
    """A bare `pass` (Fix Bayonets' and Battlefronts' word) silently ended a Block Wars turn with
    two actions left."""
    console, out = await open_console(tmp_path)
    try:
        await start(console, "blockwars")
        assert await console.run_lines(BLOCK_WARS_SET_UP) == 0
        match, _ = await console.service.latest(console.channel_id)
        said(out)
        assert await console.run_lines(["pass"]) == 1
        text = said(out)
        assert "✗" in text and "`end`" in text and "Germans: end" not in text
        after, _ = await console.service.latest(console.channel_id)
        assert after.version == match.version and after.turn_player_id == names.user_id("alice")
        assert await console.run_lines(["/blockwars play pass"]) == 1
        assert "Block Wars has no `pass`" in said(out)
    finally:
        await console.close()


async def test_a_line_of_actions_the_console_cannot_read_says_which_part(tmp_path: Path) -> None:
    """`b8-a7; d7-d...` answered "Unknown command" for the whole line."""
    console, out = await open_console(tmp_path)
    try:
        await start(console, "blockwars")
        assert await console.run_lines(BLOCK_WARS_SET_UP) == 0
        match, _ = await console.service.latest(console.channel_id)
        said(out)
        assert await console.run_lines(["e6-e5; d7-d..."]) == 1
        text = said(out)
        assert "Unknown command" not in text
        assert "Action 2 of 2: 'd7-d...' is not an action I understand." in text
        assert "Nothing was played." in text
        after, _ = await console.service.latest(console.channel_id)
        assert after.version == match.version
        assert await console.run_lines(["e6-e5 d6-d5"]) == 1  # a forgotten ';': the game says what it reads
        assert "'e6-e5 d6-d5' is not an action I understand" in said(out)
        assert await console.run_lines(["/blockwar board"]) == 1  # a mistyped command is still one
        assert "Unknown command '/blockwar board'" in said(out)
    finally:
        await console.close()


async def test_block_wars_refusals_offer_moves_towards_the_enemy_first(tmp_path: Path) -> None:
    console, out = await open_console(tmp_path)
    try:
        await start(console, "blockwars")
        assert await console.run_lines(BLOCK_WARS_SET_UP) == 0
        said(out)
        assert await console.run_lines(["a1-a2"]) == 1
        text = said(out)
        assert "There is no unit on a1." in text
        offered = text.split("You can play: ", 1)[1].split(", ")[:6]
        moves = [o for o in offered if o[2:3] == "-"]  # reinforcing and `end` come early too (`spread`)
        assert len(moves) >= 3 and all(int(o[4]) < int(o[1]) for o in moves), offered  # down the board
    finally:
        await console.close()


@pytest.mark.parametrize("name", registry.names())
async def test_the_console_names_the_rules_topics_once(tmp_path: Path, name: str) -> None:
    console, out = await open_console(tmp_path)
    try:
        assert await console.run_lines([f"/{name} rules"]) == 0
        assert said(out).count("Topics:") == 1
    finally:
        await console.close()


# ------------------------------------------------------------------------------------ the demo


async def test_the_first_demo_a_newcomer_runs_ends_decisively(tmp_path: Path, capsys) -> None:
    """`make run ARGS=--demo` showed a Block Wars game drawn after 60 turns without a card turned:
    the first thing a newcomer sees. The demo now plays a fixed seed (the same game every time) at
    the easy level, whose game ends in a breakthrough. The AI's time cap is widened here only so a
    loaded test machine cannot cut a search short; on an idle machine the default plays the same."""
    from console import amain

    boards = tmp_path / "boards"
    assert await amain(["--demo", "--boards", str(boards), "--ai-budget", "5"]) == 0
    text = capsys.readouterr().out
    assert "Demo: a complete game of Block Wars played by the AI (easy), seed 1." in text
    over = [ln for ln in text.splitlines() if ln.startswith("Game over")]
    assert len(over) == 1 and " wins with the " in over[0] and "draw" not in over[0], over
    assert list(boards.glob("demo-blockwars-1-*.png"))


async def test_a_line_the_game_cannot_read_is_refused_with_examples_playable_there(tmp_path: Path) -> None:
    """Issue 22, bug 2, in the console: a line of actions was refused by the notation alone, whose
    examples need not fit the moment (`deploy line` before any army is chosen). With a game in play,
    the refusal is the service's, for the position; and a verb's own command offers an army of the
    options chosen (a Campaign army has 24 units), which is then accepted."""
    console, out = await open_console(tmp_path)
    try:
        lines = ["/combinedarms_wwii challenge @bob side:americans campaign:true", "/as bob"]
        assert await console.run_lines([*lines, "/combinedarms_wwii accept", "/as alice"]) == 0
        said(out)
        await console.run_lines(["zork army balanced"])  # not a command: the line is taken as actions
        refused = said(out)
        assert "✗" in refused and refused.split("`")[1::2]
        assert all(e.startswith("army ") for e in refused.split("`")[1::2]), refused  # no `deploy line` yet
        await console.run_lines(["army balancd"])  # the verb's own command: the service refuses it
        offered = [e for e in said(out).split("`")[1::2] if e.startswith("army ")]
        assert offered and sum(int(word[1:]) for word in offered[0].split()[1:]) == 24
        _, before = await console.service.latest(console.channel_id)
        await console.run_lines([offered[0]])  # (`run_lines` counts the refusal above to the end)
        _, after = await console.service.latest(console.channel_id)
        assert "✗" not in said(out) and after.to_act() != before.to_act()  # accepted: the Germans owe theirs
    finally:
        await console.close()


async def test_time_away_names_its_date_once(tmp_path: Path) -> None:
    """`/wargames away` read "You are away until Tue 24 Nov 20:05 (in 5 days (Tue 24 Nov 20:05))",
    and so did the note to the opponent's channel: the date once, then how far off it is."""
    console, out = await open_console(tmp_path)
    try:
        await start(console, "blockwars")
        assert await console.run_lines(BLOCK_WARS_SET_UP) == 0
        said(out)
        assert await console.run_lines(["/wargames away days:5"]) == 0
        text = said(out)
        until = console.date(int(console.service.clock()) + 5 * 86400)
        assert f"You are away until {until} (in 5 days). " in text, text
        assert f"@alice is away until {until} (in 5 days). While it is their move" in text, text
        assert text.count(until) == 2, text  # once in the answer, once in the game's channel
        assert "Their move here is now due in 8 days (" in text, text  # another moment keeps its date
    finally:
        await console.close()


async def test_the_turn_ping_says_what_you_drew_when_the_recap_is_summed_up(tmp_path: Path) -> None:
    """Bob's cards, drawn when the Germans end their turn, were lost when he became himself: the
    direct message waiting for him is not printed beside the turn ping, and the ping's recap summed
    the Germans' turn up among its "routine actions", draw and all."""
    console, out = await open_console(tmp_path)
    try:
        await start(console, "fixbayonets")
        lines = ["/as bob", "/fixbayonets setup std", "/as alice", "/fixbayonets setup std; fight; end"]
        assert await console.run_lines(lines) == 0
        match, _ = await console.service.current(console.channel_id)
        stretch = await console.service.latest_stretch(match)
        assert stretch is not None
        secret = stretch.private["americans"]
        said(out)
        assert await console.run_lines(["/as bob"]) == 0
        ping = said(out)
        assert "history` lists each action" in ping  # the recap is summed up...
        assert f"Only you see this: {secret}." in ping  # ...and still says what Bob drew, once
        assert ping.count(secret) == 1 and "[direct message]" not in ping
    finally:
        await console.close()


async def test_a_refusal_says_when_its_examples_are_only_some_of_what_is_legal(tmp_path: Path) -> None:
    """A newcomer asked to strafe was shown twelve squares, b1 (the prompt's own example) not among
    them, with no word that there were more: the list read as all there is."""
    console, out = await open_console(tmp_path)
    try:
        await start(console, "blockwars")
        assert await console.run_lines(BLOCK_WARS_SET_UP) == 0
        legal = await console.service.legal(console.channel_id, console.my_id)
        assert len(legal) > 12
        said(out)
        assert await console.run_lines(["a1-a2"]) == 1
        hints = said(out).split("You can play: ", 1)[1]
        assert hints.count(", ") == 11 and hints.endswith(f" … ({len(legal)} in all; `legal` lists them)\n")
        assert await console.run_lines(["e7-e5"]) == 1  # a few examples, all there are: no word more
        text = said(out)
        assert "Infantry moves one square" in text and "in all" not in text
    finally:
        await console.close()


@pytest.mark.parametrize(
    ("typed", "example"),
    [
        ("Ra8-a7", "crawl Ra8-a7"),
        ("a8-a6", "march Ra8-a6"),
        ("Rd6xd2", "rifle4 Rd6xd2"),
        ("Oe6xe5", "bayonet Oe6xe5"),
    ],
)
def test_fix_bayonets_asks_for_the_card_of_a_move_typed_as_in_chess(typed: str, example: str) -> None:
    """`move Ra8-a7` answered "'ra8-a7' is not an action" and the list of every game's examples: a
    newcomer did not learn that every move plays a card, named first."""
    from engine.errors import InvalidNotation

    with pytest.raises(InvalidNotation) as exc:
        registry.game("fixbayonets").parse(typed)
    said = str(exc.value)
    assert said.startswith("Every move and attack plays a card from your hand: name the card, then")
    assert f"like {example}. The hand command lists your cards." in said


def test_fix_bayonets_asks_which_rifle_card() -> None:
    """`rifle Rd6xd1` answered with all twenty card codes; there are two Rifle cards."""
    from engine.errors import InvalidNotation

    with pytest.raises(InvalidNotation) as exc:
        registry.game("fixbayonets").parse("rifle Rd6xd1")
    assert str(exc.value) == "Say which Rifle card: rifle3 reaches exactly 3 squares, rifle4 exactly 4."


async def test_fix_bayonets_cards_topic_says_what_the_numbers_and_knight_mean(tmp_path: Path) -> None:
    """The topic said "Grenade knight", "Zigzag knight": a newcomer read the word as a kind of man."""
    console, out = await open_console(tmp_path)
    try:
        assert await console.run_lines(["/fixbayonets rules cards"]) == 0
        text = said(out)
        assert "Attack, by the squares it reaches: Bayonet 1, Pistol 1-2," in text
        assert "Move, by the squares a man goes: Crawl 1," in text
        assert "Grenade a knight's jump" in text and "Zigzag a knight's jump" in text
    finally:
        await console.close()


async def test_the_board_after_an_undo_is_marked_as_yours_alone(tmp_path: Path) -> None:
    """Every board of a turn still going on prints as "(only you see this) board:", but the one
    after `undo` printed as a plain "board:", as if the channel saw it."""
    console, out = await open_console(tmp_path)
    try:
        await start(console, "blockwars")
        assert await console.run_lines([*BLOCK_WARS_SET_UP, "e6-e5"]) == 0
        said(out)
        assert await console.run_lines(["undo"]) == 0
        text = said(out)
        assert "you took back `e6-e5`. It is still your turn.\n(only you see this) board: " in text
    finally:
        await console.close()


async def test_an_ai_turn_cut_short_by_closing_the_console_is_played_at_the_next_command(
    tmp_path: Path,
) -> None:
    """The player's move was saved, then the console closed before the AI had played (a Ctrl-D
    while it thought, a crash): the game stood waiting on the AI until the AI lost on time, since
    only a player's own move set it going. The bot resumes such games at start-up; the console does
    at the next line typed in that channel."""
    console, out = await open_console(tmp_path)
    try:
        assert await console.run_lines(["vs ai blockwars easy side:germans"]) == 0
        await console.service.act(console.channel_id, console.my_id, "setup std")  # and no AI after
        _, state = await console.service.current(console.channel_id)
        assert state.to_act() == {"canadians"}
    finally:
        await console.close()  # before the AI played
    console, out = await open_console(tmp_path)
    try:
        assert await console.run_lines(["/blockwars board"]) == 0
        text = said(out)
        assert "The Canadians deploy" in text and "@alice (Germans) to play, 2 actions left." in text
        _, state = await console.service.current(console.channel_id)
        assert state.to_act() == {"germans"}
    finally:
        await console.close()


async def test_an_ai_turn_cut_short_by_an_error_is_played_at_the_next_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The AI's turn broke off after its first action (its thinking failed): the line says
    something went wrong, and the next line, whatever it is, has the AI play the rest of its
    turn. The console looks for a turn owed to the AI only after such lines, not before each."""
    console, out = await open_console(tmp_path)
    try:
        assert await console.run_lines(["vs ai blockwars easy side:germans", "/blockwars setup std"]) == 0
        assert await console.run_lines(["/blockwars legal"]) == 0  # the AI deployed; Germans' turn
        _, state = await console.service.current(console.channel_id)
        assert state.to_act() == {"germans"}
        thinker = console.service.thinker
        real_choose = thinker.choose
        calls = 0

        async def choose_then_break(*args: Any, **kwargs: Any) -> str:
            nonlocal calls
            calls += 1
            if calls == 2:
                raise RuntimeError("the AI's thinking broke off")
            return await real_choose(*args, **kwargs)

        monkeypatch.setattr(thinker, "choose", choose_then_break)
        match, _ = await console.service.current(console.channel_id)
        before = len(await console.service.db.actions(match.id))
        said(out)
        assert await console.run_lines(["/blockwars end"]) == 1  # the Germans pass; the AI's turn
        assert "Something went wrong" in said(out)
        match, state = await console.service.current(console.channel_id)
        assert state.to_act() == {"canadians"}  # cut short: the AI still owes the rest of its turn
        cut = await console.service.db.actions(match.id)
        assert [a.player_id for a in cut[before:]] == [console.my_id, match.ai_player_id]
        outcome = await console.handle("/whoami")  # any line: the AI plays the rest first
        assert outcome is not None and outcome.ok
        _, state = await console.service.current(console.channel_id)
        assert state.to_act() == {"germans"}
        rest = (await console.service.db.actions(match.id))[len(cut) :]
        assert rest and {a.player_id for a in rest} == {match.ai_player_id}
        text = said(out)  # the AI's board and words, then the line's own answer
        assert "\nCanadians: " in text and "@alice (Germans) to play, 2 actions left." in text
        assert text.index("to play") < text.index("You are @alice in #general.")
    finally:
        await console.close()


async def test_a_misspelt_game_and_a_verb_without_its_action_say_what_to_type(tmp_path: Path) -> None:
    """`/blokwars challenge @bot` was only "Unknown command"; `/blockwars move` said "(The move,
    e.g. e2-e3 (choose from the list))", a list the terminal has not."""
    console, out = await open_console(tmp_path)
    try:
        assert await console.run_lines(["/blokwars challenge @bot", "/xyz"]) == 1
        text = said(out)
        assert "Unknown command '/blokwars challenge @bot'. Did you mean /blockwars? Type /help" in text
        assert "Unknown command '/xyz'. Type /help for the list." in text  # nothing close: no guess
        assert await console.run_lines(["/blockwars move"]) == 1
        assert said(out) == (
            "alice #general> /blockwars move\n✗ Usage: /blockwars move ACTION: The move, e.g. e2-e3. "
            "`/blockwars legal` lists what you can play now.\n"
        )
    finally:
        await console.close()


def test_block_wars_asks_for_the_dash_of_a_move_typed_as_in_chess() -> None:
    """`e2e4` was "not an action I understand" with the whole list of notations."""
    from engine.errors import InvalidNotation

    with pytest.raises(InvalidNotation) as exc:
        registry.game("blockwars").parse("E6E5")
    assert str(exc.value) == (
        "Put a dash between the squares of a move, e6-e5, or an x before the square you attack, e6xe5."
    )


@pytest.mark.parametrize("name", ["combinedarms", "combinedarms_wwii"])
@pytest.mark.parametrize("typed", ["d3d5", "D3 D5"])
def test_combined_arms_asks_for_the_dash_of_a_move_typed_as_in_chess(name: str, typed: str) -> None:
    """`d3d5` was "not an action here" with four back-row shuffles as the legal examples."""
    from engine.errors import InvalidNotation

    with pytest.raises(InvalidNotation) as exc:
        registry.game(name).parse(typed)
    assert str(exc.value) == (
        "Put a dash between the squares of a move, d3-d5, or an x before the square you attack, d3xd5."
    )


@pytest.mark.parametrize(
    ("typed", "start"),
    [
        ("deploy A2", "Say which front: `deploy A2 L`, `deploy A2 C` or `deploy A2 R` (your Left Flank,"),
        ("move a1", "Say which front it moves to (the next one over): `move A1 L`, `move A1 C` or"),
        ("A2 C", "Say what A2 does: deploy A2 C (a unit just drawn) or move A2 C (one already"),
    ],
)
def test_company_commander_says_what_a_deploy_or_move_lacks(typed: str, start: str) -> None:
    """`deploy A1` and `A1 C` were "not a Company Commander action" and eight examples."""
    from engine.errors import InvalidNotation

    with pytest.raises(InvalidNotation) as exc:
        registry.game("companycommander").parse(typed)
    assert str(exc.value).startswith(start)


@pytest.mark.parametrize("typed", ["call T1", "call 5", "CALL UP t2"])
def test_battlefronts_says_what_a_call_up_lacks(typed: str) -> None:
    """`call T1` and `call 5` were "not a Battlefronts action" and six examples."""
    from engine.errors import InvalidNotation

    with pytest.raises(InvalidNotation) as exc:
        registry.game("battlefronts").parse(typed)
    assert str(exc.value) == (
        "A call-up names a travel zone, T1 to T4, and how many of your cards go into it: `call T1 3`."
    )


def test_battlefronts_says_battles_need_no_command() -> None:
    """`attack F2` was "not a Battlefronts action": a newcomer looked for the attack command."""
    from engine.errors import InvalidNotation

    with pytest.raises(InvalidNotation) as exc:
        registry.game("battlefronts").parse("Attack F2")
    said = str(exc.value)
    assert said.startswith("Battlefronts has no attack command: each round's battle phase fights at")
    assert "(move R1 F2); the rules topic battle says how a battle goes." in said


async def test_combined_arms_says_a_deployment_of_one_row_is_one_row(tmp_path: Path) -> None:
    """`deploy IIIIIIII` was "There is no ready-made layout 'IIIIIIII'"."""
    console, out = await open_console(tmp_path)
    try:
        assert await console.run_lines(["vs ai combinedarms easy side:british", "army balanced"]) == 0
        said(out)
        assert await console.run_lines(["deploy IIIIIIII"]) == 1
        text = said(out)
        assert (
            "'IIIIIIII' is one row, and your army needs more: separate the rows by '/'. Deploy with" in text
        )
        assert "ready-made layout" not in text.split("Deploy with")[0]
    finally:
        await console.close()


async def test_the_discord_refusal_counts_every_legal_action_beyond_its_examples(tmp_path: Path) -> None:
    """The same refusal in Discord's words: eight examples 'and N more', N counted over every legal
    action, not over the twelve examples the refusal carries ("and 4 more" where 30 were legal)."""
    console, _ = await open_console(tmp_path)
    try:
        await start(console, "blockwars")
        assert await console.run_lines(BLOCK_WARS_SET_UP) == 0
        legal = await console.service.legal(console.channel_id, console.my_id)
        with pytest.raises(IllegalMove) as refused:
            await console.service.act(console.channel_id, console.my_id, "a1-a2")
        assert len(refused.value.legal) == HINTS and refused.value.legal_total == len(legal) > HINTS
        text = friendly(refused.value)
        assert text is not None and text.endswith(f" and {len(legal) - 8} more."), text
    finally:
        await console.close()


async def test_a_private_step_tells_the_cards_it_drew_once(tmp_path: Path) -> None:
    """Company Commander's `tactics` mid-turn printed the draw as the channel will read it ("draw
    2 Tactics cards") and then the cards again under "(only you see this)": the step is the mover's
    alone, so its story names the cards, once."""
    console, out = await open_console(tmp_path)
    await start(console, "companycommander")
    match, state = await console.service.latest(console.channel_id)
    (side,) = state.to_act()  # who deploys first is drawn
    await console.run_lines([f"/as {names.user_name(match.sides[side])}"])
    u = side[0].upper()
    before = len(out.getvalue())
    line = f"/companycommander play deploy {u}3 L; deploy {u}2 L; deploy {u}1 L; tactics"
    assert await console.run_lines([line]) == 0
    said = out.getvalue()[before:]
    draws = [ln for ln in said.splitlines() if f" {side.title()} draw " in ln]
    assert len(draws) == 1 and "Tactics cards" not in draws[0], said
    await console.close()


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        # no --game: the demo's game is Block Wars, whose levels the level must be one of
        (["--demo", "--level", "bogus"], "--level must be one of random, easy, normal, hard, search"),
        (["--level", "hard"], "--level and --game choose what --demo plays"),
        (["--game", "fixbayonets"], "--level and --game choose what --demo plays"),
    ],
)
def test_the_consoles_options_are_refused_before_anything_is_played(
    argv: list[str], says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--demo --level bogus` without `--game` played a whole demo of some 500 random actions, each
    with "the AI failed (ValueError ...)"; `--level hard` without `--demo` (a newcomer hoping to
    play the AI at hard) was ignored without a word. Both now stop at the command line, exit 2."""
    from console.app import parse_args

    with pytest.raises(SystemExit) as stopped:
        parse_args([*argv, "--db", str(tmp_path / "x.db")])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert says in err, err
    assert not (tmp_path / "x.db").exists()


async def test_a_word_typed_where_no_game_was_ever_played_says_how_to_start_one(tmp_path: Path) -> None:
    """A newcomer's first line in `make run`'s empty #general, `start` or `play chess`, was refused
    as a Block Wars action, with Block Wars' notation for examples: of a game nobody had started."""
    console, out = await open_console(tmp_path)
    try:
        assert await console.run_lines(["start"]) == 1
        assert said(out).splitlines()[-1] == (
            "✗ 'start' is not a command, and #general has no game to play it in. "
            "`vs ai` starts a game against the AI; /help lists the games and commands."
        )
        # Where a game was played, a bare action is still read as that game's.
        console.refused = 0
        await start(console, "blockwars")
        assert await console.run_lines(["/blockwars resign", "start"]) == 1
        assert "'start' is not an action I understand" in said(out)
    finally:
        await console.close()
