"""The words the bot and the console post, for every game: history, status, options."""

from __future__ import annotations

import random
import re
from pathlib import Path

from cogs._format import DISCORD
from data import Database
from engine import registry
from play import HistoryEntry, MatchService
from play.markup import PLAIN
from play.present import history_text, status_text, tells_why, turn_ping
from tests.clock import Clock


def entries(n: int, per_turn: int = 2, words: int = 8) -> list[HistoryEntry]:
    line = " ".join(["attacks"] * words)
    turns = [(i - 1) // per_turn + 1 for i in range(1, n + 1)]
    return [HistoryEntry(i, t, f"Side: {line} #{i}", f"Turn {t}") for i, t in enumerate(turns, 1)]


def test_history_is_numbered_and_broken_into_turns() -> None:
    text = history_text([HistoryEntry(1, 0, "Germans: deployed", "Set-up"), *entries(4)[1:]], DISCORD)
    lines = text.splitlines()
    assert lines[0] == "**Set-up**" and lines[1] == "1. Germans: deployed"
    assert "**Turn 1**" in lines and "**Turn 2**" in lines
    assert [ln.split(".")[0] for ln in lines if not ln.startswith("**")] == ["1", "2", "3", "4"]


def test_a_long_history_keeps_its_numbers_and_says_what_it_left_out() -> None:
    """60 long lines do not fit in one Discord message: the oldest go, the rest keep their numbers,
    and the reader is told how many were left out."""
    asked = entries(60, words=6)
    text = history_text(asked, DISCORD)
    assert len(text) <= 1900
    first, *rest = text.splitlines()
    shown = [ln for ln in rest if not ln.startswith("**")]
    assert all(re.match(r"^\d+\. ", ln) for ln in shown)
    assert shown[-1].startswith("60. ")
    numbers = [int(ln.split(".")[0]) for ln in shown]
    assert numbers == list(range(61 - len(numbers), 61)) and len(numbers) < 60
    assert (
        first
        == f"(The {60 - len(numbers)} older actions asked for did not fit; showing the last {len(numbers)}.)"
    )


def test_a_history_one_action_too_long_names_the_one_left_out() -> None:
    """It said '(The 1 older action asked for did not fit; showing the last 1.)'."""
    long = HistoryEntry(1, 1, "Side: " + "x " * 700, "Turn 1")
    text = history_text([long, HistoryEntry(2, 1, "Side: " + "y " * 700, "Turn 1")], DISCORD)
    assert text.startswith("(The oldest action asked for did not fit; showing the latest only.)")
    text = history_text(entries(60, words=6), DISCORD, limit=1900)
    assert "1 older" not in text


def test_a_short_history_is_whole() -> None:
    assert "did not fit" not in history_text(entries(5), DISCORD)
    assert history_text([], DISCORD) == "Nothing has been played yet."


def test_a_secret_action_never_shows_its_notation() -> None:
    """When the events of an action are hidden from the reader, the history does not fall back to
    the action's notation (which would tell the secret); a public silent action does."""
    from dataclasses import dataclass

    from play.service import history_line

    @dataclass(frozen=True)
    class Hidden:
        owner: str

        def text(self, viewer: str | None) -> str:
            return "you set standing orders: never negate" if viewer == self.owner else ""

        def seen_by(self, viewer: str | None) -> Hidden | None:
            return self if viewer == self.owner else None

        def to_json(self) -> dict:
            return {}

    @dataclass(frozen=True)
    class Silent:
        def text(self, viewer: str | None) -> str:
            return ""

        def seen_by(self, viewer: str | None) -> Silent:
            return self

        def to_json(self) -> dict:
            return {}

    secret = [Hidden("americans")]
    assert (
        history_line("Americans", "orders never", secret, None) == "Americans: (something only they may see)"
    )
    assert "orders never" not in history_line("Americans", "orders never", secret, "germans")
    assert history_line("Americans", "orders never", secret, "americans").endswith("never negate")
    assert history_line("Germans", "end", [Silent()], None) == "Germans: end"


def test_history_headings_are_the_games_own_words() -> None:
    rounds = [HistoryEntry(1, 1, "The Reds pass", "Round 1"), HistoryEntry(2, 2, "The Blues pass", "Round 2")]
    assert history_text(rounds, DISCORD).splitlines() == [
        "**Round 1**",
        "1. The Reds pass",
        "**Round 2**",
        "2. The Blues pass",
    ]


def test_a_line_whose_words_name_the_side_is_not_prefixed_again() -> None:
    """ "Reds: the Reds pass" says the side twice; events that name their side stand alone,
    capitalised, and events that do not (Block Wars' "e2-e3") keep the side in front."""
    from dataclasses import dataclass

    from play.service import history_line

    @dataclass(frozen=True)
    class Said:
        words: str

        def text(self, viewer: str | None) -> str:
            return self.words

        def seen_by(self, viewer: str | None) -> Said:
            return self

        def to_json(self) -> dict:
            return {}

    assert history_line("Reds", "pass", [Said("the Reds pass")]) == "The Reds pass"
    assert history_line("Germans", "e2-e3", [Said("e2-e3")]) == "Germans: e2-e3"
    # "the Reds' turn" is not the Reds acting: the side still leads
    assert history_line("Reds", "end", [Said("the Reds' turn ends")]) == "Reds: the Reds' turn ends"
    # the clauses of one action are parted by semicolons, as a clause may hold commas
    both = [Said("the Reds attack F1, F2"), Said("the Blues lose 3 cards")]
    assert history_line("Reds", "pass", both) == "The Reds attack F1, F2; the Blues lose 3 cards"


def test_a_turn_dm_over_discords_limit_shortens_only_its_recap() -> None:
    """The turn DM was cut at 2,000 characters wherever that fell, which could take the dealt cards
    (the one thing only the DM says) with it: now the recap gives way and says so, the rest stays."""
    import random

    from data.models import Match, Status
    from engine import registry
    from play.present import turn_dm_text
    from play.service import Played, Step

    rules = registry.game("combinedarms")
    state = rules.new_game({}, 7)
    first = sorted(state.to_act())[0]
    rng = random.Random(7)
    steps = []
    for _ in range(80):  # random play; what the British played is the stretch the DM recaps
        side = sorted(state.to_act())[0]
        action = rng.choice(state.legal_actions(side))
        events = list(state.apply(action, side))
        if side == first:
            steps.append(Step("British", str(action), events, player_id=1))
    match = Match(
        1, 10, 20, "combinedarms", {}, 7, 1, 2, "random", {first: 1, "other": 2}, Status.ACTIVE,
        2, 1e9, None, False, 3600, 5, None, None, None, None, None, None, 0.0, 0.0,
    )  # fmt: skip
    played = Played(match, state, [], "", 1, "", steps=steps)
    secret = "you drew " + ", ".join(f"card {n}" for n in range(12))
    whole = turn_dm_text(match, played, 2, DISCORD, secret)
    assert len(whole) > 400 and whole.endswith(f"Only you see this: {secret}.")
    short = turn_dm_text(match, played, 2, DISCORD, secret, limit=len(whole) - 100)
    assert len(short) <= len(whole) - 100
    head = "Your move in WWI Combined Arms in <#20>, due <t:1000000000:R> (<t:1000000000:f>)."
    assert short.startswith(f"{head} Since you last acted:\n")
    assert short.endswith(f"…\nOnly you see this: {secret}.")
    tiny = turn_dm_text(match, played, 2, DISCORD, secret, limit=len(secret) + 110)
    assert "Since you last acted" not in tiny and secret in tiny and len(tiny) <= len(secret) + 110


def test_a_shortened_text_is_cut_between_words_never_inside_one() -> None:
    """Battlefronts' last message was cut mid-word ("turning up the 4♠ (strength…"): a text too
    long is cut at a space, with an ellipsis, and without a dangling comma or bracket."""
    from play.news import clipped

    text = "battle at F1: R3 loses its 4♠ (strength 4), turning up the 9♥ (strength 9)"
    assert clipped(text, 200) == text
    for most in range(20, len(text)):
        cut = clipped(text, most)
        assert len(cut) <= most and cut.endswith("…")
        kept = cut[:-1]
        assert text.startswith(kept) and text[len(kept)] in " ,(", (most, cut)
        assert not kept.endswith((",", "(", " "))


def test_the_end_line_tells_why_so_the_status_need_not_say_it_again() -> None:
    """Under "The Canadians resigned: the Germans win" the status said "(the Canadians resigned)"
    again; each game's end line carries its outcome's detail, so `tells_why` finds it there, and
    only there: a story whose last line is something else keeps the reason in the status."""
    for game in registry.games():
        state = game.new_game({}, 7)
        loser = game.sides[1].name
        events = state.apply(game.parse("resign"), loser)
        last = [e.text(None) for e in events][-1]
        assert tells_why(last, state), (game.name, last)
        assert tells_why(f"Something first\n{last}\n", state)
        assert not tells_why(f"{last}\nSomething after", state)
        assert not tells_why("", state)
    assert not tells_why("anything", registry.game("blockwars").new_game({}, 7))  # not over


async def test_the_status_names_the_player_to_act_and_a_hand_off_to_the_ai_pings_nobody(
    tmp_path: Path,
) -> None:
    """The whose-move line names the player by their mention (a phone shows it as their name, and it
    is what the reader looks for); the first line of a hand-off's board pings the person to move,
    but nobody when only the AI is to act (a ping to the bot reaches no one)."""
    clock = Clock()
    db = await Database.open(tmp_path / "s.db", clock=clock)
    svc = MatchService(db, clock=clock, rng=random.Random(3))
    try:
        await svc.challenge(
            guild_id=10,
            channel_id=100,
            challenger_id=1,
            opponent_id=99,
            game="blockwars",
            side="germans",
            ai_level="random",
        )
        match, state = await svc.current(100)  # the Germans set up first
        assert status_text(match, state, PLAIN).startswith("@1 ")
        assert turn_ping(match, state, PLAIN) == "@1, your move in Block Wars (vs the AI)."
        played = await svc.act(100, 1, "setup std")
        assert played.hands_off and played.waiting == [99]
        assert turn_ping(played.match, played.state, PLAIN) == ""
    finally:
        await db.close()
