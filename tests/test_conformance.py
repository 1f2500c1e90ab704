"""The platform's conformance suite: every registered game, through the protocol only.

Seeded random playouts that never crash, invariants after every action, JSON, view and replay round
trips, notation round trips, refusals that say why and change nothing, views that hide what they
must (two states that differ only in what a side may not know look the same to that side, on the
board too), the shared actions, the AI answering legally within its budget, and metadata the
Discord and console layers rely on. A new game passes this before it is hosted.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import random
import re
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from PIL import Image

from engine import registry
from engine.errors import IllegalAction, InvalidNotation
from engine.meta import DRAW_ACCEPT, DRAW_DECLINE, DRAW_OFFER, RESIGN, TIMEOUT
from engine.protocol import EndReason, Event, Game, State
from render import renderer, seen
from render.kit import css_px_at, measuring

GAMES = registry.names()
NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
MAX_STEPS = 400  # actions per playout: long enough to reach the end of most games, or a late position


def game_of(name: str) -> Game:
    return registry.game(name)


def actor(state: State, rng: random.Random) -> str:
    sides = sorted(state.to_act())
    return rng.choice(sides)


def roundtrip(data: dict) -> dict:
    return json.loads(json.dumps(data))


def check_invariants(game: Game, state: State) -> None:
    names = {s.name for s in game.sides}
    owed = state.to_act()
    assert owed <= names
    if state.is_over():
        assert state.outcome() is not None and not owed
        for side in names:
            assert state.legal_actions(side) == []
    else:
        assert state.outcome() is None and owed, "a game in progress must be waiting for someone"
        for side in owed:
            legal = state.legal_actions(side)
            assert legal, f"{side} owes an action but has none"
            assert [str(a) for a in legal] == [str(a) for a in state.legal_actions(side)], "unstable order"
        for side in names - owed:
            assert state.legal_actions(side) == [], f"{side} is not owed an action but has some"
    assert state.turn_number() >= 0


def check_round_trips(game: Game, state: State) -> State:
    """The state as the platform keeps it between two commands (stored, then read back): the same
    JSON, and the same game to play on, which the playouts then do. Comparing JSON alone misses a
    field that the writer and the reader both leave out (a mark that a battalion has moved)."""
    data = state.to_json()
    again = game.from_json(roundtrip(data))
    assert again.to_json() == data
    assert again.to_act() == state.to_act() and again.outcome() == state.outcome()
    for side in game.sides:
        legal = [str(a) for a in state.legal_actions(side.name)]
        assert [str(a) for a in again.legal_actions(side.name)] == legal, f"{side.name} plays another game"
    for viewer in (None, *(s.name for s in game.sides)):
        view = state.view(viewer)
        assert view.viewer == viewer
        vdata = view.to_json()
        assert game.view_from_json(roundtrip(vdata)).to_json() == vdata
    return again


def playout(name: str, seed: int, *, deep_every: int = 1, steps: int = MAX_STEPS):
    """A seeded random game; yields (state, log) after every action, checking as it goes."""
    game = game_of(name)
    rng = random.Random(seed)
    state = game.new_game({}, seed)
    log: list[tuple[str, str]] = []
    check_invariants(game, state)
    check_round_trips(game, state)
    for step in range(steps):
        if state.is_over():
            break
        side = actor(state, rng)
        action = rng.choice(state.legal_actions(side))
        text = str(action)
        assert str(game.parse(text)) == text, "notation must parse back to itself"
        before = state.clone().to_json()
        events = state.apply(action, side)
        log.append((side, text))
        for e in events:
            for viewer in (None, *(s.name for s in game.sides)):
                assert isinstance(e.text(viewer), str)
                kept = e.seen_by(viewer)
                if kept is not None:
                    json.dumps(kept.to_json())
        assert state.to_json() != before or events, f"{text} changed nothing and said nothing"
        check_invariants(game, state)
        if step % deep_every == 0:
            state = check_round_trips(game, state)  # and play on from what was stored
        yield state, log


@pytest.mark.parametrize("name", GAMES)
def test_metadata(name: str) -> None:
    game = game_of(name)
    assert game.name == name and NAME.match(name)
    assert game.title and 0 < len(game.description) <= 100
    a, b = game.sides
    assert a.name != b.name and NAME.match(a.name) and NAME.match(b.name)
    assert a.title and b.title and a.adjective and b.adjective
    for spec in game.options:
        assert NAME.match(spec.name) and spec.label and 0 < len(spec.description) <= 100
        if spec.limit:  # a limit of ours: an int the challenger may set or switch off with 0 (which
            # may be the default: Company Commander's games end by themselves, issue 31)
            assert isinstance(spec.default, int) and spec.default >= 0 and spec.minimum == 0
            assert "0 = no limit" in spec.description and spec.off and "{}" in spec.shown
            assert game.normalise_options({spec.name: 0})[spec.name] == 0
    verbs = [v.name for v in game.verbs]
    assert len(verbs) == len(set(verbs)) and all(NAME.match(v) for v in verbs)
    for verb in game.verbs:
        assert 0 < len(verb.description) <= 100 and len(verb.arg_description) <= 100
    assert game.ai.default in game.ai.names and "random" in game.ai.names
    assert game.rules and all(NAME.match(t.replace(" ", "_")) for t in game.rules)
    assert all(0 < len(text) <= 1900 for text in game.rules.values())
    assert game.notation_help
    assert game.normalise_options({}) == game.normalise_options(game.normalise_options({}))
    with pytest.raises(ValueError):
        game.normalise_options({"no_such_option": True})


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playouts_keep_every_invariant(name: str, seed: int) -> None:
    game = game_of(name)
    steps = list(playout(name, seed, deep_every=1 if seed == 1 else 7))
    assert steps
    state, log = steps[-1]
    # Seed plus log is the game: replaying it gives the same state, event for event.
    replayed = game.new_game({}, seed)
    for side, text in log:
        replayed.apply(game.parse(text), side)
    assert replayed.to_json() == state.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_options_each_play(name: str) -> None:
    """Every option, switched on alone, gives a game that starts and plays a few actions (a limit
    also switched off)."""
    game = game_of(name)
    tries: list[tuple[str, object]] = []
    for spec in game.options:
        if isinstance(spec.default, bool):
            tries.append((spec.name, not spec.default))
        elif isinstance(spec.default, int):
            tries.append((spec.name, spec.maximum if spec.maximum is not None else spec.default + 1))
            if spec.limit:
                tries.append((spec.name, 0))
        else:
            tries.append((spec.name, next((c for c in spec.choices if c != spec.default), spec.default)))
    for option, value in tries:
        options = game.normalise_options({option: value})
        state = game.new_game(options, 5)
        rng = random.Random(5)
        for _ in range(60):
            if state.is_over():
                break
            side = actor(state, rng)
            state.apply(rng.choice(state.legal_actions(side)), side)
            check_invariants(game, state)
        check_round_trips(game, state)


@pytest.mark.parametrize("name", GAMES)
def test_illegal_actions_are_refused_with_a_reason_and_change_nothing(name: str) -> None:
    game = game_of(name)
    seen_actions: list[str] = []
    refused = 0
    for state, _ in playout(name, 11, deep_every=50, steps=150):
        if state.is_over():
            break
        for side in {s.name for s in game.sides}:
            legal = {str(a) for a in state.legal_actions(side)}
            for text in seen_actions[-30:]:
                if text in legal:
                    continue
                probe = state.clone()
                before = probe.to_json()
                try:
                    probe.apply(game.parse(text), side)
                except IllegalAction as exc:
                    refused += 1
                    assert str(exc).strip(), f"{text}: refused without a reason"
                    assert probe.to_json() == before, f"{text}: refused, but the state changed"
        for side in state.to_act():
            seen_actions.extend(str(a) for a in state.legal_actions(side)[:20])
    assert refused > 0
    with pytest.raises(InvalidNotation):
        game.parse("this is not an action")


@pytest.mark.parametrize("name", GAMES)
def test_acting_out_of_turn_is_refused(name: str) -> None:
    game = game_of(name)
    for state, _ in playout(name, 4, deep_every=50, steps=80):
        if state.is_over():
            break
        waiting = state.to_act()
        idle = [s.name for s in game.sides if s.name not in waiting]
        if not idle:
            continue
        mover = min(waiting)
        for action in state.legal_actions(mover)[:5]:
            probe = state.clone()
            with pytest.raises(IllegalAction):
                probe.apply(action, idle[0])


@pytest.mark.parametrize("name", GAMES)
def test_views_hide_what_their_viewer_may_not_know(name: str) -> None:
    """Deal the unknown two ways from a side's view: that side (and a spectator) cannot tell them apart."""
    game = game_of(name)
    draw = renderer(name)
    checked = 0
    for step, (state, _) in enumerate(playout(name, 21, deep_every=50, steps=120)):
        if step % 10:
            continue
        for viewer in [s.name for s in game.sides]:
            view = state.view(viewer)
            a = view.determinize(random.Random(1))
            b = view.determinize(random.Random(2))
            assert a.view(viewer).to_json() == b.view(viewer).to_json() == view.to_json()
            assert a.view(None).to_json() == b.view(None).to_json() == state.view(None).to_json()
            if step % 30 == 0:
                assert pixels(draw.picture(a.view(viewer), [])) == pixels(draw.picture(b.view(viewer), []))
            checked += 1
    assert checked > 0


def pixels(im: Image.Image) -> tuple[object, ...]:
    """All a board's PNG holds (mode, size, palette, info, pixels): boards compared by these are
    compared as by their PNGs, without paying for the encoding (a quarter of a board's drawing)."""
    return (im.mode, im.size, im.getpalette(), im.info, im.tobytes())


def _seen_by(game: Game, state: State, viewer: str | None, events: Sequence[Event], *, board: bool) -> dict:
    """Everything `viewer` is shown after an action: the view, the events and history lines as they
    see them, every status line, the channel's menu and (with `board`) the board and replay frame."""
    view = state.view(viewer)
    mine = seen(events, viewer)
    out: dict[str, object] = {
        "view": view.to_json(),
        "events": [e.to_json() for e in mine],
        "history": [e.text(viewer) for e in mine],
        "status": [game.status(state.view(s), s) for s in sorted(state.to_act())],
        "menu": repr(game.menu(state.view(None))),
    }
    if board:
        draw = renderer(game.name)
        out["board"] = pixels(draw.picture(view, mine))
        out["frame"] = draw.frame(view, mine).tobytes()
    return out


def _any_verb(game: Game, state: State, side: str, choices: list[str], rng: random.Random) -> str:
    """A random action, the game's verb drawn first: a verb with few actions (a Recon mission among
    a dozen moves) comes up as often as one with many."""
    view = state.view(side)
    by_verb: dict[str, list[str]] = {}
    for text in choices:
        by_verb.setdefault(game.verb_of(view, game.parse(text)), []).append(text)
    return rng.choice(by_verb[rng.choice(sorted(by_verb))])


def _starts(game: Game, seed: int) -> list[tuple[State, list[str]]]:
    """Where the twins begin: a new game, and each of the game's showcases (`BaseGame.showcases`:
    positions and the actions that show a secret from there, which random play may never reach)."""
    showcases = getattr(game, "showcases", None)
    extra = [(state, list(script)) for state, script in showcases()] if showcases else []
    return [(game.new_game({}, seed), []), *extra]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [31, 32])
def test_secrets_reach_their_owner_and_nobody_else(name: str, seed: int) -> None:
    """Twins (`BaseGame.twin`): two games alike but for one side's secret, the chance to come the
    same, played on with the same actions. To the other side and to a spectator they must look the
    same at every step, events and boards included, until the other side's own secrets differ
    (it drew a card that differs). An event whose class says `reveals = True` shows the secret to
    the other side by the rules (a look at the hand) and is the one thing that may differ for it;
    the spectator sees no difference even then. Games without secrets give no twin."""
    game = game_of(name)
    make = getattr(game, "twin", None)
    rng = random.Random(seed)
    for start, script in _starts(game, seed):
        for owner in (s.name for s in game.sides):
            one = start.clone()
            two = make(one, owner, random.Random(seed)) if make else None
            if two is None:
                continue
            watcher = next(s.name for s in game.sides if s.name != owner)
            assert one.view(owner).to_json() != two.view(owner).to_json(), "the twins must differ"
            steps = 0
            while not one.is_over() and steps < 200:
                assert two.to_act() == one.to_act()
                side = actor(one, rng)
                shared = sorted(
                    {str(a) for a in one.legal_actions(side)} & {str(a) for a in two.legal_actions(side)}
                )
                assert shared, "some public action is always open to both twins"
                text = script[steps] if steps < len(script) else _any_verb(game, one, side, shared, rng)
                ev1, ev2 = one.apply(game.parse(text), side), two.apply(game.parse(text), side)
                if game.private_text(one.view(watcher)) != game.private_text(two.view(watcher)):
                    break  # the watcher drew a card that differs: no longer twins in one secret
                board = steps % 10 == 0 or steps < len(script)
                spectator = [
                    _seen_by(game, twin, None, ev, board=board) for twin, ev in ((one, ev1), (two, ev2))
                ]
                assert spectator[0] == spectator[1], (steps, text)
                assert one.view(watcher).to_json() == two.view(watcher).to_json(), (steps, text)
                kept = [
                    [e.to_json() for e in seen(ev, watcher) if not getattr(e, "reveals", False)]
                    for ev in (ev1, ev2)
                ]
                assert kept[0] == kept[1], (steps, text)
                if board:
                    draw = renderer(name)
                    assert pixels(draw.picture(one.view(watcher), [])) == pixels(
                        draw.picture(two.view(watcher), [])
                    )
                steps += 1
            assert steps > min(20, len(script)) or one.is_over(), (
                f"{name}: the twins parted after {steps} steps"
            )


@pytest.mark.parametrize("name", GAMES)
def test_shared_actions(name: str) -> None:
    game = game_of(name)
    a, b = (s.name for s in game.sides)
    state = game.new_game({}, 3)
    state.apply(RESIGN, a)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == b and outcome.reason is EndReason.RESIGNATION
    assert state.is_over() and state.to_act() == frozenset()
    with pytest.raises(IllegalAction):
        state.apply(RESIGN, b)

    state = game.new_game({}, 3)
    state.apply(DRAW_OFFER, b)
    with pytest.raises(IllegalAction):
        state.apply(DRAW_OFFER, b)
    with pytest.raises(IllegalAction):
        state.apply(DRAW_ACCEPT, b)
    state.apply(DRAW_DECLINE, a)
    state.apply(DRAW_OFFER, a)
    state.apply(DRAW_ACCEPT, b)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None and outcome.reason is EndReason.AGREEMENT

    state = game.new_game({}, 3)
    late = min(state.to_act())
    state.apply(TIMEOUT, late)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == (b if late == a else a)
    assert outcome.reason is EndReason.TIMEOUT
    for word in ("resign", "offer draw", "accept draw", "decline draw", "timeout", "abandon"):
        assert str(game.parse(word)) == word


@pytest.mark.parametrize("name", GAMES)
def test_words_and_menus_cover_every_legal_action(name: str) -> None:
    game = game_of(name)
    verbs = {p for v in game.verbs for p in v.plays} | {"play"}
    for step, (state, _) in enumerate(playout(name, 8, deep_every=50, steps=120)):
        if state.is_over():
            break
        if step % 5:
            continue
        public = state.view(None)
        menu = game.menu(public)
        for choice in menu.buttons:
            assert choice.label and (choice.notation is None) != (choice.opens is None)
            if choice.notation is not None:
                game.parse(choice.notation)
        assert len(menu.buttons) <= 5 and len(menu.picks) <= 4
        for choice in menu.buttons:
            if choice.disabled:  # a step named as coming next: not playable yet by anyone
                assert choice.notation is not None
                shown = str(game.parse(choice.notation))
                assert all(shown not in map(str, state.legal_actions(s)) for s in state.to_act()), shown
        for pick in menu.picks:
            assert 1 <= len(pick.choices) <= 25 and len(pick.placeholder) <= 150
            assert 0 <= pick.least <= pick.most <= len(pick.choices)  # picks Discord can take
            for choice in pick.choices:
                assert choice.notation is not None and 0 < len(choice.label) <= 100
        for side in state.to_act():
            view = state.view(side)
            status = game.status(view, side)
            assert "{player}" in status and status.rstrip().endswith((".", "?", "!"))
            for action in state.legal_actions(side):
                assert game.describe(view, action)
                assert game.verb_of(view, action) in verbs
                group = game.group_of(view, action)
                if group is not None:
                    assert game.group_label(view, group)
                    assert ":" not in group, f"{group!r}: a group goes into a custom id, parted by ':'"
            for choice in menu.buttons:
                if choice.opens is not None:
                    sub = game.submenu(view, state.legal_actions(side), choice.opens)
                    assert sub.title or sub.picks or sub.buttons
                    for pick in sub.picks:  # several picks (a discard) are legal one after another
                        assert 0 <= pick.least <= pick.most <= len(pick.choices) <= 25
                        if pick.most > 1:
                            trial = state.clone()
                            for choice in pick.choices[: pick.most]:
                                assert choice.notation is not None
                                trial.apply(game.parse(choice.notation), side)


@pytest.mark.parametrize("name", GAMES)
def test_boards_and_frames_draw(name: str) -> None:
    game = game_of(name)
    draw = renderer(name)
    for step, (state, _) in enumerate(playout(name, 9, deep_every=50, steps=150)):
        if step % 25:
            continue
        for viewer in (None, *(s.name for s in game.sides)):
            png = draw.board(state.view(viewer), [])
            image = Image.open(io.BytesIO(png))
            assert image.format == "PNG" and image.size[0] >= 300
        frame = draw.frame(state.view(None), [])
        assert frame.size[0] >= 100


@pytest.mark.parametrize("name", GAMES)
def test_ai_answers_legally(name: str) -> None:
    """Each level asked with a budget answers with a legal action. How long it took is a figure, in
    bench/budget.py: the wall clock this test once asserted also counted other processes' time."""
    game = game_of(name)
    budget = 0.25
    asked = 0
    for step, (state, _) in enumerate(playout(name, 13, deep_every=50, steps=90)):
        if state.is_over():
            break
        if step % 15:
            continue
        for side in state.to_act():
            legal = {str(a) for a in state.legal_actions(side)}
            for level in (game.ai.default, "random"):
                action = game.choose(state.view(side), level, seed=step, budget_s=budget)
                assert str(action) in legal or _accepted(state, action, side), (level, str(action))
                asked += 1
    assert asked > 0


def _accepted(state: State, action: object, side: str) -> bool:
    """For set-ups outside the listed menu: the state accepts it."""
    probe = state.clone()
    try:
        probe.apply(action, side)  # type: ignore[arg-type]
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("name", GAMES)
def test_events_seen_by_a_viewer_render(name: str) -> None:
    """The board after each action draws with that action's events as each viewer saw them."""
    game = game_of(name)
    draw = renderer(name)
    rng = random.Random(17)
    state = game.new_game({}, 17)
    for step in range(100):
        if state.is_over():
            break
        side = actor(state, rng)
        events = state.apply(rng.choice(state.legal_actions(side)), side)
        if step % 20 == 0:
            for viewer in (None, *(s.name for s in game.sides)):
                draw.board(state.view(viewer), seen(events, viewer))


# ----------------------------------------------------------------------------- boards on a phone

PHONE_CSS_PX = 12  # the smallest text a player must read, in CSS px, with the image 400 CSS px wide
PHONE_WIDTH = 400
# Games whose phone layout has not landed yet: their boards are known to fail the check below.
# Remove a game from here in the commit that gives it its new layout (strict: a pass is an error).
PHONE_PENDING: dict[str, str] = {}


def _phone_param(name: str) -> object:
    if name in PHONE_PENDING:
        return pytest.param(name, marks=pytest.mark.xfail(reason=PHONE_PENDING[name], strict=True))
    return name


def phone_cases(name: str, seed: int) -> list[tuple[str, State, list]]:
    """The start, the middle and the end of a seeded playout, each with the events of the stretch
    that led to it (the actions one side played before the other had to act: what one board per
    hand-off draws), as the channel saw them."""
    game = game_of(name)
    steps = sum(1 for _ in playout(name, seed, deep_every=1000))
    rng = random.Random(seed)
    state = game.new_game({}, seed)
    cases: list[tuple[str, State, list]] = [("start", state.clone(), [])]
    stretch: list = []
    last_side = None
    for step in range(1, steps + 1):
        side = actor(state, rng)
        if side != last_side:
            stretch, last_side = [], side
        stretch.extend(state.apply(rng.choice(state.legal_actions(side)), side))
        if step in (steps // 2, steps):
            cases.append(("middle" if step < steps else "end", state.clone(), list(stretch)))
    return cases


@pytest.mark.parametrize("name", [_phone_param(n) for n in GAMES])
def test_boards_read_on_a_phone(name: str) -> None:
    """Every word drawn on a board, for every viewer, and on a replay frame, is at least 12 CSS px
    tall when the image is shown 400 CSS px wide (a phone): font px x 400 / image width >= 12.
    The font sizes are those the renderer really drew (render.kit.measuring)."""
    game = game_of(name)
    draw = renderer(name)
    worst: list[tuple[float, str]] = []
    for seed in (2, 5):
        for when, state, events in phone_cases(name, seed):
            for viewer in (None, *(s.name for s in game.sides)):
                with measuring() as sizes:
                    width = draw.picture(state.view(viewer), seen(events, viewer)).width
                assert sizes, f"{when}: the board says nothing in words"
                worst.append(
                    (css_px_at(sizes, width, PHONE_WIDTH), f"seed {seed}, {when}, board for {viewer}")
                )
            with measuring() as sizes:
                frame = draw.frame(state.view(None), seen(events, None))
            worst.append((css_px_at(sizes, frame.width, PHONE_WIDTH), f"seed {seed}, {when}, replay frame"))
    small = [(round(css, 1), where) for css, where in worst if css < PHONE_CSS_PX]
    assert not small, f"text under {PHONE_CSS_PX} CSS px at {PHONE_WIDTH} px wide: {small}"


def test_boards_draw_their_text_through_the_kit() -> None:
    """The phone check measures the fonts render.kit hands out: no renderer may load its own."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parent.parent / "render"
    for path in root.rglob("*.py"):
        if path.name != "kit.py":
            source = path.read_text()
            assert "ImageFont" not in source and "truetype" not in source, path


# ---------------------------------------------------------------------- refusals' examples (issue 22)

TICKED = re.compile(r"`([^`]+)`")
SQUARE = re.compile(r"\b[a-zA-Z][0-9]{1,2}\b")


def bad_inputs(text: str, rng: random.Random) -> set[str]:
    """What a player might type instead of the legal `text`: a word misspelt (a letter dropped, two
    added), a square off any board, a number changed, a stray word before or after."""
    out = set()
    for word in re.findall(r"[A-Za-z]{3,}", text):
        i = rng.randrange(len(word))
        out.add(text.replace(word, word[:i] + word[i + 1 :], 1))
        out.add(text.replace(word, word + "ie", 1))
    for square in SQUARE.findall(text):
        out |= {text.replace(square, "z9", 1), text.replace(square, "a99", 1)}
    for number in re.findall(r"\d+", text):
        out |= {text.replace(number, "77", 1), text.replace(number, "0", 1)}
    out |= {f"zork {text}", f"{text} zork", "zork", ""}
    out.discard(text)
    return out


def refusal(game: Game, state: State, side: str, text: str) -> tuple[str, list[str]] | None:
    """The refusal a player gets for `text` in `state` (the parser's, else the rules'): its words
    and the legal actions it lists; None if `text` is accepted."""
    try:
        action = game.parse_in(text, state, side)
    except InvalidNotation as exc:
        return str(exc), []
    probe = state.clone()
    try:
        probe.apply(action, side)
    except IllegalAction as exc:
        return str(exc), [str(a) for a in exc.legal]
    return None


def accepted_here(game: Game, state: State, side: str, example: str) -> str | None:
    """None if `example` (one or several actions separated by ';') is accepted in `state` by
    `side`, else why not."""
    probe = state.clone()
    try:
        for part in [p for p in example.split(";") if p.strip()]:
            probe.apply(game.parse(part), side)
    except (InvalidNotation, IllegalAction) as exc:
        return str(exc)
    return None


def moments(name: str, seeds: tuple[int, ...], steps: int) -> Iterator[tuple[random.Random, State, Any, str]]:
    """Each side owed an action at each position along seeded random playouts (until the game
    ends), with that seed's random source and the log so far."""
    for seed in seeds:
        rng = random.Random(seed)
        for state, log in playout(name, seed, deep_every=1000, steps=steps):
            if state.is_over():
                break
            for side in sorted(state.to_act()):
                yield rng, state, log, side


@pytest.mark.parametrize("name", GAMES)
def test_every_example_a_refusal_offers_is_accepted_where_it_is_offered(name: str) -> None:
    """Issue 22: a refusal's examples (`...` in its words, and the legal actions it lists) are
    accepted in the very position the refusal was given (the WWII Combined Arms refusals offered WWI
    armies and rows). Bad inputs are legal notations of the position, misspelt or mangled."""
    game = game_of(name)
    failures: dict[tuple[str, str], str] = {}
    checked = 0
    for rng, state, log, side in moments(name, (5, 6), steps=120):
        legal = [str(a) for a in state.legal_actions(side)]
        earlier = [text for _, text in log]  # notations of other moments: a verb out of its time
        for typed in rng.sample(legal, min(3, len(legal))) + rng.sample(earlier, min(2, len(earlier))):
            for text in sorted(bad_inputs(typed, rng)):
                found = refusal(game, state, side, text)
                if found is None:
                    continue
                words, listed = found
                for example in [e for e in TICKED.findall(words) if e != text.strip()] + listed:
                    checked += 1
                    why = accepted_here(game, state, side, example)
                    if why is not None:
                        said = re.sub(r"'[^']*'", "'…'", words)[:90]  # one line per kind of refusal
                        failures.setdefault((said, example), f"for {text!r}: {why}")
    assert checked > 0
    assert not failures, "\n".join(f"{w!r} offers `{e}`, refused {why}" for (w, e), why in failures.items())


# ---------------------------------------------------------------------- apply is the authority (issue 22)


def action_fields(action: object) -> list[str]:
    """The fields an action is built from: a dataclass's, or the slots of its classes (its
    notation text aside)."""
    return list(_fields_of(type(action)))


_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields_of(kind: type) -> tuple[str, ...]:
    """action_fields, worked out once per class: the test compares millions of actions."""
    found = _FIELDS.get(kind)
    if found is not None:
        return found
    if dataclasses.is_dataclass(kind):
        found = tuple(f.name for f in dataclasses.fields(kind))
    else:
        names: list[str] = []
        for klass in kind.__mro__:
            slots = getattr(klass, "__slots__", ())
            for slot in (slots,) if isinstance(slots, str) else slots:
                if slot != "text" and slot not in names:
                    names.append(slot)
        found = tuple(names)
    _FIELDS[kind] = found
    return found


def rebuilt(action: object, name: str, value: object) -> object:
    """`action` with one field changed, built as code would build it."""
    if dataclasses.is_dataclass(action):
        return dataclasses.replace(action, **{name: value})  # type: ignore[type-var]
    fields = {n: getattr(action, n) for n in action_fields(action)}
    fields[name] = value
    return type(action)(**fields)


def changed_values(value: object, seen: set) -> list[object]:
    """What one field may be changed to: an int by one either way, to 0, negative; a flag flipped;
    anything else to the other values of that field in the game's legal actions (other squares,
    zones, cards, groups of men)."""
    if isinstance(value, bool):
        return [not value]
    out: list[object] = []
    if isinstance(value, int):
        out += [value + 1, value - 1, 0, -1, -value]
    out += [v for v in seen if v != value and type(v) is type(value)]
    return [v for n, v in enumerate(out) if v != value and v not in out[:n]]


def _same(a: object, b: object) -> bool:
    """The same action, field by field (a notation may coincide: a front numbered -1 reads as the
    last front, yet it is no front)."""
    return type(a) is type(b) and all(getattr(a, f) == getattr(b, f) for f in _fields_of(type(a)))


def _identity(action: object) -> tuple[object, ...] | None:
    """What `_same` compares, as one hashable key (None where a field cannot be hashed): looking a
    mutant up among a position's keys asks what `_same` asks of every listed action, at once."""
    key = (type(action), *(getattr(action, f) for f in _fields_of(type(action))))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _listed(legal: Sequence[object], keys: set[tuple[object, ...] | None], mutant: object) -> bool:
    """Whether `mutant` is one of the `legal` actions, field by field; `keys`: their `_identity`s."""
    key = _identity(mutant)
    if key is None or None in keys:
        return any(_same(a, mutant) for a in legal)
    return key in keys


def _listed_but_for(game: Game, mutant: object, legal: Sequence[object]) -> bool:
    """Whether `mutant` differs from a listed action only in a field the game lists a sample of
    (`sampled`: a call-up of any size, a custom army): legal though not listed."""
    open_fields = getattr(game, "sampled", {}).get(type(mutant).__name__, ())
    if not open_fields:
        return False
    fixed = [f for f in action_fields(mutant) if f not in open_fields]
    return any(
        type(a) is type(mutant) and all(getattr(a, f) == getattr(mutant, f) for f in fixed) for a in legal
    )


def _verdict(
    game: Game, state: State, side: str, legal: list, keys: set, mutant: object, before: dict
) -> str | None:
    """What is wrong with how `state` takes `mutant` (None: nothing): a listed action is accepted,
    an unlisted one refused with IllegalAction and no change, unless it is legal beyond the list
    (`_listed_but_for`) and its notation reads back as itself."""
    listed = _listed(legal, keys, mutant)
    probe = state.clone()
    try:
        probe.apply(mutant, side)  # type: ignore[arg-type]
    except IllegalAction:
        if listed:
            return f"{mutant!r} is listed but refused"
        return f"{mutant!r} was refused but changed the state" if probe.to_json() != before else None
    except Exception as exc:
        return f"{mutant!r} raised {exc!r}, not IllegalAction"
    if listed:
        return None
    if not _listed_but_for(game, mutant, legal):
        return f"{mutant!r} is accepted, not listed"
    try:
        reread = game.parse(str(mutant))
    except InvalidNotation as exc:
        return f"{mutant!r} is accepted; the parser says {exc}"
    return None if reread == mutant else f"{mutant!r} is accepted; its notation reads {reread!r}"


@pytest.mark.parametrize("name", GAMES)
def test_apply_accepts_a_changed_action_exactly_when_it_is_legal(name: str) -> None:
    """Issue 22, bug 3: `apply` is the one authority on legality, so an action built in code is
    refused unless `legal_actions` lists it (Battlefronts took a jump into a travel zone and a call-up
    of 0 cards, Fix Bayonets two men moved by the Zigzag card). From positions along random playouts,
    legal actions get one field changed; `apply` accepts the change exactly when it is listed (or the
    game lists a sample of that field and the parser reads it back), and a refusal changes nothing."""
    game = game_of(name)
    seen: dict[str, set] = {}
    problems: dict[tuple[str, str], str] = {}
    tried = 0
    for rng, state, _, side in moments(name, (8, 9), steps=100):
        legal = list(state.legal_actions(side))
        for action in legal:
            for field in action_fields(action):
                value = getattr(action, field)
                with contextlib.suppress(TypeError):
                    seen.setdefault(field, set()).add(value)
        before = state.to_json()
        keys = {_identity(a) for a in legal}
        for action in rng.sample(legal, min(4, len(legal))):
            for field in action_fields(action):
                for value in changed_values(getattr(action, field), seen.get(field, set())):
                    try:
                        mutant = rebuilt(action, field, value)
                    except Exception:  # code cannot even build it: there is nothing to apply
                        continue
                    if mutant == action:
                        continue
                    tried += 1
                    problem = _verdict(game, state, side, legal, keys, mutant, before)
                    if problem is not None:
                        problems.setdefault((type(mutant).__name__, field), f"{problem} (from {action!r})")
    assert tried > 0
    assert not problems, "\n".join(problems.values())


@pytest.mark.parametrize("name", GAMES)
def test_boards_stay_phone_sized(name: str) -> None:
    """A board shown 400 CSS px wide is at most 1.6 times as tall (640 CSS px: about a phone's
    screen) at the start, middle and end of seeded games, for every viewer, however much the last
    stretch did: its record of the turn keeps its last lines, the history has the rest (issue 34)."""
    from render.kit import MAX_RATIO

    game = game_of(name)
    draw = renderer(name)
    tall = []
    for seed in (2, 5, 7):
        for when, state, events in phone_cases(name, seed):
            for viewer in (None, *(s.name for s in game.sides)):
                w, h = draw.picture(state.view(viewer), seen(events, viewer)).size
                if h > w * MAX_RATIO:
                    tall.append((f"{w}x{h}", f"seed {seed}, {when}, board for {viewer}"))
    assert not tall, f"boards over {MAX_RATIO} x as tall as wide: {tall}"
