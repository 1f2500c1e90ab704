"""A turn's news, for every game: what the channel, the turn DM and the console say after a stretch.

Issue 34: a long turn's text hid what happened (the opponent's fires and barrages unnamed, the
reader's losses never named, a last message cut mid-word). These walk seeded random games of every
registered game, take the longest stretches one side played before the other had to act (what an
AI turn or a chain of commands posts) and check that the summary names every loss and the weightiest
action within the line cap, the same for the channel and a player's DM, and that a game's last
message names the winner and why.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from cogs._format import DISCORD
from data.models import Match, Status
from engine import registry
from engine.protocol import Event, State, Weight
from play.news import NEWS_LINES, news, recap
from play.present import played_text, turn_dm_text
from play.service import Played, Step

GAMES = registry.names()
USERS = (1, 2)


def stretches(game: str, seed: int) -> Iterator[tuple[State, list[Step]]]:
    """Each stretch of a seeded random game: the actions one side played before the other had to
    act, as steps (the player of a side is user 1 or 2), with the state after it."""
    rules = registry.game(game)
    state = rules.new_game({}, seed)
    rng = random.Random(seed)
    steps: list[Step] = []
    while not state.is_over() and len(steps) < 400:
        side = min(state.to_act())
        if steps and steps[-1].player_id != _user(rules.sides[0].name, side):
            yield state, steps
            steps = []
        action = rng.choice(state.legal_actions(side))
        events = list(state.apply(action, side))
        steps.append(Step(rules.side(side).title, str(action), events, _user(rules.sides[0].name, side)))
    yield state, steps


def _user(first: str, side: str) -> int:
    return USERS[0] if side == first else USERS[1]


def weight(event: Event, viewer: str | None) -> int:
    kept = event.seen_by(viewer)
    return 0 if kept is None else int(getattr(kept, "weight", Weight.ROUTINE))


def briefs(step: Step, viewer: str | None) -> list[str]:
    """What a summary may say of an action's weighty events."""
    out = []
    for e in step.events:
        kept = e.seen_by(viewer)
        if kept is not None and weight(kept, viewer) > 0:
            brief = getattr(kept, "brief", None)
            said = brief(viewer) if callable(brief) else kept.text(viewer)
            if said:
                out.append(said)
    return out


def longest(game: str, seeds: range = range(1, 4)) -> list[list[Step]]:
    """The longest stretches with a loss in them, one a seed (an AI's turn, a chain of commands)."""
    out = []
    for seed in seeds:
        best: list[Step] = []
        for _, steps in stretches(game, seed):
            lost = any(getattr(e, "loss", None) for s in steps for e in s.events)
            if lost and len(steps) > len(best):
                best = steps
        if best:
            out.append(best)
    return out


def words_of(steps: list[Step], viewer: str | None) -> set[str]:
    """Every word the stretch's events and history lines say to `viewer`."""
    texts = [s.line(viewer) for s in steps]
    for step in steps:
        for e in step.events:
            kept = e.seen_by(viewer)
            if kept is None:
                continue
            texts.append(kept.text(viewer))
            brief = getattr(kept, "brief", None)
            if callable(brief):
                texts.append(brief(viewer))
    return {w.strip(".,;:()") for t in texts for w in t.split()}


def check_no_word_cut(text: str, steps: list[Step], viewer: str | None) -> None:
    known = words_of(steps, viewer)
    for line in text.splitlines():
        for piece in re.findall(r"(\S+)…", line):
            assert piece.strip(".,;:()") in known, (piece, line)


@pytest.mark.parametrize("game", GAMES)
def test_a_long_turn_is_told_losses_and_decisive_actions_first_within_the_line_cap(game: str) -> None:
    rules = registry.game(game)
    found = longest(game)
    assert found, f"no stretch with a loss in {game}'s seeded games"
    for steps in found:
        actor = next(s.name for s in rules.sides if s.title == steps[0].who)
        reader = rules.other(actor) if hasattr(rules, "other") else None
        for viewer in (None, reader):  # the channel, and the opponent's DM
            text = recap(steps, DISCORD, viewer)
            lines = text.splitlines()
            assert len(lines) <= NEWS_LINES, text
            for step in steps:
                for e in step.events:
                    kept = e.seen_by(viewer)
                    if kept is None:
                        continue
                    loss = getattr(kept, "loss", None)
                    if loss is not None and text.startswith("**"):  # summarised
                        assert loss[1] in text, (loss, text)  # every loss named in the headline
                    elif loss is not None:  # told line by line, in the events' own words
                        told = kept.text(viewer)  # a line of its own begins with a capital
                        assert told in text or told[:1].upper() + told[1:] in text, (kept, text)
            if text.startswith("**"):  # summarised: the latest of the weightiest actions is told
                weights = [max((weight(e, viewer) for e in step.events), default=0) for step in steps]
                top = max(weights)
                if top > 0:
                    step = steps[max(n for n, w in enumerate(weights) if w == top)]
                    said = [t[:30].lower() for t in briefs(step, viewer)]
                    assert any(t in text.lower() for t in said), (said, text)
            check_no_word_cut(text, steps, viewer)


@pytest.mark.parametrize("game", GAMES)
def test_every_stretch_reads_in_a_few_lines_without_a_word_cut(game: str) -> None:
    """Every stretch of two seeded games, short or long, as the channel and each side read it."""
    rules = registry.game(game)
    for seed in (5, 6):
        for _, steps in stretches(game, seed):
            for viewer in (None, *(s.name for s in rules.sides)):
                text = recap(steps, DISCORD, viewer)
                assert len(text.splitlines()) <= NEWS_LINES, text
                assert all(len(line) <= 300 for line in text.splitlines()), text
                check_no_word_cut(text, steps, viewer)


def match_of(game: str, state: State, seed: int) -> Match:
    rules = registry.game(game)
    sides = {rules.sides[0].name: USERS[0], rules.sides[1].name: USERS[1]}
    status = Status.FINISHED if state.is_over() else Status.ACTIVE
    return Match(
        1, 10, 20, game, {}, seed, USERS[0], USERS[1], "random", sides, status,
        2, 1e9, None, False, 3600, 5, None, None, None, None, None, None, 0.0, 0.0,
    )  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
def test_a_games_last_message_names_the_winner_and_why(game: str) -> None:
    """However much the last stretch did, the message that ends a game says who won and why (or
    that it is drawn, and why), and the story above it never pushes that out, even in a short
    message."""
    for seed in (1, 2, 3):
        *_, (state, steps) = stretches(game, seed)
        outcome = state.outcome()
        if outcome is None:
            continue  # the 400-action cap came first
        played = Played(match_of(game, state, seed), state, [], "", steps[-1].player_id or 1, "", steps=steps)
        for limit in (2000, 400):
            text = played_text(played, DISCORD, limit)
            assert "Game over" in text and outcome.detail in text, text
            if outcome.winner is not None:
                assert f"<@{played.match.sides[outcome.winner]}> wins" in text
            assert len(text) <= limit and len(text.splitlines()) <= NEWS_LINES + 1, text


@pytest.mark.parametrize("game", GAMES)
def test_the_turn_dm_carries_the_same_summary_as_the_channel(game: str) -> None:
    """The DM has no picture: it says what the opponent did as the summary does, as the reader's
    side may know it."""
    rules = registry.game(game)
    for steps in longest(game, range(1, 3)):
        actor = next(s.name for s in rules.sides if s.title == steps[0].who)
        reader = rules.other(actor) if hasattr(rules, "other") else actor
        reader_id = _user(rules.sides[0].name, reader)
        state = rules.new_game({}, 1)
        played = Played(match_of(game, state, 1), state, [], "", steps[-1].player_id or 1, "", steps=steps)
        dm = turn_dm_text(played.match, played, reader_id, DISCORD)
        assert dm.startswith(f"Your move in {rules.title} in <#20>")
        assert recap(steps, DISCORD, reader, game) in dm  # its history command named for the game


def test_a_summary_names_each_sides_losses_and_their_standing() -> None:
    """Company Commander's long turn: the headline names the units each side lost and how far
    each is from the ten losses that lose the game."""
    from engine.companycommander.events import Assaulted, Removed, TurnEnded

    blow = Assaulted(
        "americans", "A4", "A:rifles", "G5", "G:mg42", 1, (6, 5), (), "routed", (("G5", "G:mg42", "routed"),)
    )
    out = Removed("germans", "G5", "G:mg42", "routed", 3)
    own = Removed("americans", "A2", "A:scouts", "destroyed", 1)
    moves = [Step("Americans", f"move {n}", [TurnEnded("americans")]) for n in range(6)]
    stretch = [*moves, Step("Americans", "assault A4", [blow, out]), Step("Americans", "x", [own])]
    text = news(stretch, DISCORD)
    lines = text.splitlines()
    assert lines[0] == (
        "**Americans, 8 actions.** The Germans lost G5 MG 42 team. The Americans lost A2 Scout team. "
        "German losses so far: 3 of 10; American losses so far: 1 of 10."
    )
    assert lines[1] == "A4 Rifle squad assaults G5 in the Center: a rout, G5 routs"
    assert lines[-1] == "And 6 routine actions: `history` lists each action."
