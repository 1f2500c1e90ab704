"""The positions issue 32 describes, built by hand (`engine/<game>/position.py`)."""

from __future__ import annotations

from functools import partial

from engine.battlefronts.position import build as bf_build
from engine.battlefronts.state import MOVE
from engine.blockwars.model import Side as BwSide
from engine.blockwars.position import build as bw_build
from engine.combinedarms.position import build as ca_build
from engine.companycommander.position import build as cc_build
from engine.companycommander.state import DEPLOY, RECON
from engine.fixbayonets.cards import CARD_TYPES as FB_CARDS
from engine.fixbayonets.cards import MOVE as FB_MOVE
from engine.fixbayonets.cards import TERRAIN as FB_TERRAIN
from engine.fixbayonets.model import Options as FbOptions
from engine.fixbayonets.position import build as fb_build
from engine.protocol import State
from tests.ai_puzzles.kit import Puzzle


def cc_three_fronts() -> State:
    """The Americans hold the Left and the Center, the Germans only the Center: moving a unit of
    the crowded Center to the empty Right wins at once (three fronts against one)."""
    return cc_build(
        {
            "A1": "rifles L",
            "A2": "rifles C",
            "A3": "rifles C",
            "A4": "rifles C",
            "A5": "rifles L",
            "G1": "rifles C",
            "G2": "mg42 C",
        },
        phase=DEPLOY,
        round=4,
    )


def cc_tenth_kill() -> State:
    """Nine Germans are out; a Sherman faces Pinned Scouts: its assault routs or kills them on any
    throw (Strength 4 against 1, +2 against a Pinned unit), its fire only pins."""
    return cc_build(
        {
            "A1": "sherman C",
            "A2": "rifles L",
            "A3": "rifles R",
            "G1": "scouts C pinned",
            "G2": "rifles L",
            "G3": "mg42 R",
        },
        phase=RECON,
        round=5,
        lost={"germans": 9, "americans": 6},
    )


def cc_nine_losses() -> State:
    """Nine Americans are out: the Scouts (Strength 1) assaulting the Rifles at the Center are
    repulsed one time in four, and the Casualty marker is the tenth loss."""
    return cc_build(
        {
            "A1": "scouts C",
            "A2": "rifles L",
            "A3": "rifles R",
            "G1": "rifles C",
            "G2": "rifles L",
            "G3": "mg42 R",
        },
        phase=RECON,
        round=5,
        lost={"germans": 6, "americans": 9},
    )


def cc_two_fronts(active: str) -> State:
    """The enemy holds the Left and the Center, our whole company stands at the Center and the
    Right is empty: if the Deploy phase ends so, the enemy deploys a new unit to the Right next
    turn and holds all three fronts against our one. A unit moved to a flank holds a second front."""
    ours, theirs = ("A", "G") if active == "americans" else ("G", "A")
    gun = "hmg" if active == "americans" else "mg42"
    their_gun = "mg42" if active == "americans" else "hmg"
    return cc_build(
        {
            f"{ours}1": "rifles C",
            f"{ours}2": "rifles C",
            f"{ours}3": f"{gun} C",
            f"{theirs}1": "rifles L",
            f"{theirs}2": "rifles C",
            f"{theirs}3": f"{their_gun} C",
        },
        phase=DEPLOY,
        round=4,
        active=active,
        first="americans",
    )


def cc_last_flank(active: str) -> State:
    """The enemy stands at all three fronts; we hold the Left and the Center, which is all that
    stops its three-fronts win. Moving our only unit on the Left to the Center loses at once."""
    ours, theirs = ("A", "G") if active == "americans" else ("G", "A")
    their_gun = "mg42" if active == "americans" else "hmg"
    return cc_build(
        {
            f"{ours}1": "rifles L",
            f"{ours}2": "rifles C",
            f"{ours}3": "rifles C",
            f"{theirs}1": "rifles L",
            f"{theirs}2": "rifles C",
            f"{theirs}3": f"{their_gun} R",
        },
        phase=DEPLOY,
        round=4,
        active=active,
        first="americans",
    )


def bf_one_card_left() -> State:
    """Round 3, Red to move its last battalion: R2 has already left F4, the Blues hold F1 and F5
    alone with B5 one step from F4. Taking R4 out of F4 too leaves the one-card R6 there: B5 moves
    in, the battle wipes R6 out, and the Blues hold three fronts alone."""
    return bf_build(
        {
            "F1": {"blue": ["B1:9C 8C"]},
            "F5": {"blue": ["B2:9D 8D"]},
            "T4": {"blue": ["B5:7S 6S 5S"]},
            "F2": {"red": ["R1:TH 9H 8H"]},
            "F3": {"red": ["R3:TD 9D 8D"]},
            "F4": {"red": ["R4:KH 7H 6H 5H", "R6:2C"]},
            "T3": {"red": ["R2:QS 4S"]},
        },
        round=3,
        phase=MOVE,
        moved=("R1", "R2", "R3", "R6"),
    )


def bf_jump_threat() -> State:
    """Round 3, Red to move: the Blues hold F2 and F5 alone, and B3 shows a Queen, so it may jump to
    any front. Red's only battalion at F3 is one card: passing lets B3 jump there and wipe it out in
    the battle (three fronts alone). A battalion moved up into F3 holds it."""
    return bf_build(
        {
            "F2": {"blue": ["B1:9C 8C"]},
            "F5": {"blue": ["B2:9D 8D"]},
            "F1": {"blue": ["B3:QH 9H 8H 7H"]},
            "F3": {"red": ["R1:3C"]},
            "T2": {"red": ["R2:9S 8S 7S"]},
            "T3": {"red": ["R3:8H 7H"]},
        },
        round=3,
        phase=MOVE,
    )


def bw_gamble() -> State:
    """Canadians to move: a German stands on a1, their back row, and another on h2 can step onto the
    empty h1 for the second. Covering h1 (g2-h1, or a reinforcement there) stops it; attacking h2
    wins the fight about half the time, and a lost fight leaves the step open, or g1 too."""
    return bw_build(
        {
            **{sq: "G" for sq in ("a1", "h2", "d6", "e6", "f7")},
            **{"c7": "GM", "f8": "GM"},
            **{sq: "C" for sq in ("g1", "g2", "f1", "c4", "d3", "e2")},
        },
        active=BwSide.CANADIANS,
    )


# Combined Arms: the Headquarters in a corner, ringed by three units. WWI: an enemy Flame Thrower
# (2 damage to anything) stands next to the ring and two Artillery are in range; moving the unit
# on b2 away lets the Flame Thrower step in, and the three bring the 4 damage that destroys the
# Headquarters. WWII: Engineers, Howitzers and a tank can bring 6 damage if b2 stays empty, and
# the Infantry on c3 closes the ring. Each is also built mirrored (files a-h) and from the other
# side's seat, four positions per era.
CA_WWI = {
    "a1": "H", "a2": "I", "b1": "I", "b2": "I", "f2": "T", "e1": "A",
    "c3": "f", "c5": "a", "e5": "a", "g7": "h", "f7": "i", "e7": "i", "h6": "t",
}  # fmt: skip
CA_WWII = {
    "a1": "H", "a2": "F", "b1": "F", "c3": "I", "h3": "T",
    "c2": "e", "d1": "a", "d4": "a", "d2": "k", "f3": "l", "h8": "h",
}  # fmt: skip


def _square(name: str, files: bool, sides: bool) -> str:
    f, r = name[0], int(name[1:])
    if files:
        f = chr(ord("a") + ord("h") - ord(f))
    if sides:
        r = 9 - r
    return f"{f}{r}"


def _move(text: str, files: bool, sides: bool) -> str:
    if "-" not in text:
        return text
    a, b = text.split("-")
    return f"{_square(a, files, sides)}-{_square(b, files, sides)}"


def _ca_puzzles(
    era: str,
    pieces: dict[str, str],
    kind: str,
    answers: tuple[str, ...],
    blunders: tuple[str, ...],
    note: str,
) -> list[Puzzle]:
    out = []
    for files in (False, True):
        for sides in (False, True):
            placed = {_square(sq, files, sides): (u.swapcase() if sides else u) for sq, u in pieces.items()}

            def build(placed: dict[str, str] = placed, sides: bool = sides) -> State:
                return ca_build(era, placed, active=1 if sides else 0)

            out.append(
                Puzzle(
                    "combinedarms" if era == "wwi" else "combinedarms_wwii",
                    f"ca-{era}-ring{'-mirrored' if files else ''}{'-other-side' if sides else ''}",
                    kind,
                    0,
                    (),
                    tuple(_move(a, files, sides) for a in answers),
                    tuple(_move(b, files, sides) for b in blunders),
                    note=note,
                    build=build,
                )
            )
    return out


EXAMPLES: list[Puzzle] = [
    *(
        Puzzle(
            "companycommander",
            f"cc-two-fronts-{active}",
            "stop the loss",
            0,
            (),
            tuple(f"move {letter}{n} {f}" for n in (1, 2, 3) for f in ("L", "R")),
            ("tactics",),
            note="issue 32: no level ever moved a unit; here only a move stops the three-fronts win",
            build=partial(cc_two_fronts, active),
        )
        for active, letter in (("americans", "A"), ("germans", "G"))
    ),
    *(
        Puzzle(
            "companycommander",
            f"cc-last-flank-{active}",
            "don't blunder",
            0,
            (),
            ("tactics", f"move {letter}2 L", f"move {letter}3 R"),
            (f"move {letter}1 C",),
            note="issue 32: a move that leaves the enemy three fronts against one",
            build=partial(cc_last_flank, active),
        )
        for active, letter in (("americans", "A"), ("germans", "G"))
    ),
    *_ca_puzzles(
        "wwi",
        CA_WWI,
        "don't blunder",
        ("f2-f3", "e1-e2"),
        ("b2-c2", "b2-b3"),
        "issue 32: WWI hard walked the ring of its Headquarters away from a Flame Thrower and Artillery",
    ),
    *_ca_puzzles(
        "wwii",
        CA_WWII,
        "stop the loss",
        ("c3-b2",),
        ("done",),
        "tests/combinedarms/test_plan.py's ring, issue 32",
    ),
    Puzzle(
        "battlefronts",
        "bf-one-card-left",
        "don't blunder",
        0,
        (),
        ("pass", "jump R4 F1", "jump R4 F5"),
        ("move R4 T3", "move R4 T4"),
        note="issue 32, game 1: hard moved R2 and R4 out of F4, leaving a one-card battalion",
        build=bf_one_card_left,
    ),
    Puzzle(
        "battlefronts",
        "bf-jump-threat",
        "stop the loss",
        0,
        (),
        ("move R2 F3", "move R3 F3"),
        ("pass",),
        note="issue 32, game 2: hard passed its move phase while the newcomer held two fronts alone",
        build=bf_jump_threat,
    ),
    Puzzle(
        "blockwars",
        "bw-quiet-move-not-a-fight",
        "stop the loss",
        0,
        (),
        ("g2-h1", "R@h1"),
        ("g2xh2", "g1xh2"),
        note="issue 32: hard gambled the game on a card fight where one quiet move stopped the loss",
        build=bw_gamble,
        blunder_share=0.1,  # lost only when the fight (and the second try) goes wrong
    ),
    Puzzle(
        "companycommander",
        "cc-move-a4-r",
        "win now",
        0,
        (),
        ("move A4 R", "move A2 R", "move A3 R"),
        note="issue 32: no level ever moved a unit, even when `move A4 R` won at once",
        build=cc_three_fronts,
    ),
    Puzzle(
        "companycommander",
        "cc-tenth-kill",
        "win now",
        0,
        (),
        ("assault A1",),
        note="issue 32: it fired a tank where an assault took the tenth kill",
        build=cc_tenth_kill,
    ),
    Puzzle(
        "companycommander",
        "cc-nine-losses",
        "don't blunder",
        0,
        (),
        ("end", "assault A2", "assault A3"),
        ("assault A1",),
        note="issue 32: at nine losses it assaulted with a 1-Strength squad",
        build=cc_nine_losses,
        blunder_share=0.2,
    ),
]


# WWII's last blow: the ring above left open (its side ends the turn at once), the enemy's `hard`
# moves up and strikes; the position before its last attack, where one of five attacks destroys
# the Headquarters. The actions were recorded from that play (2026-11-28) and are replayed here.
LAST_BLOWS: dict[str, tuple[tuple[tuple[str, str], ...], tuple[str, ...]]] = {
    "ca-wwii-ring": (
        (
            ("americans", "done"),
            ("americans", "end"),
            ("germans", "c2-b2"),
            ("germans", "f3-c2"),
            ("germans", "d2-c1"),
            ("germans", "d4-c4"),
            ("germans", "d1-d2"),
            ("germans", "done"),
            ("germans", "b2xa1"),
            ("germans", "d2xa1"),
            ("germans", "c1xa1"),
            ("germans", "c2xa1"),
        ),
        ("c4xa1",),
    ),
    "ca-wwii-ring-other-side": (
        (
            ("germans", "done"),
            ("germans", "end"),
            ("americans", "d7-c8"),
            ("americans", "c7-b7"),
            ("americans", "f6-c7"),
            ("americans", "d5-d6"),
            ("americans", "d8-d7"),
            ("americans", "done"),
            ("americans", "b7xa8"),
            ("americans", "d6xa8"),
            ("americans", "c7xa8"),
            ("americans", "c8xa8"),
        ),
        ("d7xa8",),
    ),
    "ca-wwii-ring-mirrored": (
        (
            ("americans", "done"),
            ("americans", "end"),
            ("germans", "f2-g2"),
            ("germans", "c3-f2"),
            ("germans", "e2-f1"),
            ("germans", "e4-e3"),
            ("germans", "e1-e2"),
            ("germans", "done"),
            ("germans", "g2xh1"),
            ("germans", "e2xh1"),
            ("germans", "f1xh1"),
            ("germans", "f2xh1"),
        ),
        ("e3xh1",),
    ),
    "ca-wwii-ring-mirrored-other-side": (
        (
            ("germans", "done"),
            ("germans", "end"),
            ("americans", "f7-g7"),
            ("americans", "c6-f7"),
            ("americans", "e7-f8"),
            ("americans", "e5-f5"),
            ("americans", "e8-e7"),
            ("americans", "done"),
            ("americans", "g7xh8"),
            ("americans", "f5xh8"),
            ("americans", "f7xh8"),
            ("americans", "f8xh8"),
        ),
        ("e7xh8",),
    ),
}


def fb_officer_at_bay(stack: str) -> State:
    """Strategic Version (hands face up), the Americans' move phase with one Run in hand and their
    last officer on d3 (with `stack`, the men beside him), a German rifleman two squares away on d5
    with a Bayonet and a Pistol. Every move card is in the discard pile, so the Germans cannot
    draw one: their next turn is the fight, and a lone officer within the Pistol's two squares
    falls. Running the officer to h3 takes him out of every reach; a man who leaves him alone, or
    a turn that leaves him where he stands alone, loses the game."""
    moves = [c.code for c in FB_CARDS if c.kind == FB_MOVE for _ in range(3)]
    moves.remove("run")
    return fb_build(
        {"d3": "A" + stack, "a1": "ARR", "d5": "GR", "h8": "GOO", "c8": "GRR"},
        hands={"americans": ["run"], "germans": ["bayonet", "pistol"]},
        discard=moves,
        active="americans",
        options=FbOptions(open_hands=True),
    )


EXAMPLES += [
    Puzzle(
        "fixbayonets",
        "fb-officer-at-bay",
        "stop the loss",
        0,
        (),
        ("run Od3-h3",),
        ("fight", "end", "run Od3-h7", "run Ra1-e1"),
        note="the last officer alone within a Pistol's reach: only running him clear saves the game",
        build=partial(fb_officer_at_bay, "O"),
    ),
    Puzzle(
        "fixbayonets",
        "fb-officer-shield",
        "don't blunder",
        0,
        (),
        ("fight", "end", "run Od3-h3", "run Ra1-e5"),
        ("run Rd3-h7", "run Rd3-h3"),
        note="the rifleman beside the last officer shields him from a single shot: running him "
        "forward leaves the officer alone within a Pistol's reach",
        build=partial(fb_officer_at_bay, "OR"),
    ),
]


def fb_officer_hidden(more_moves: bool = False, full_hand: bool = False) -> State:
    """The standard game (hands hidden), the Americans' move phase with one Run in hand and their
    last officer alone on d3 inside a ring of German men who could hit him with any of six attack
    cards (a Bayonet or Pistol from d4, a Flame Thrower from d5, a Rifle (3) from d6, a Grenade from
    c5, a Sniper from d8). The Germans hold two cards the Americans cannot see and draw three; move
    cards are still to draw (the terrain cards, the Rifles (4) and the Americans' own cards are in
    the discard pile, so nearly every German hand holds a shot). Their stacks at the back make
    many group moves that `order` ranks above FIGHT, so a check that tries only the first few
    actions of the reply never sees into the fight, then the shot. Running the officer to h3 takes
    him out of every reach. With `more_moves`, the Zigzags and Advances are still to draw too: a
    German hand then lacks a shot a little more often (about one deal in thirty), and the levels'
    own searches, before the check saw the fight, ran the officer in only half the worlds. With
    `full_hand` the Germans hold three cards, so their turn opens with a discard (six after the
    draw) before the fight and the shot."""
    kept = ("rifle4", "mg", "counter") if more_moves else ("rifle4", "mg", "counter", "zigzag", "advance")
    discard = [c.code for c in FB_CARDS if c.kind == FB_TERRAIN or c.code in kept]
    return fb_build(
        {
            "d3": "AO",
            "a1": "ARR",
            "d4": "GR",
            "d5": "GH",
            "d6": "GR",
            "c5": "GR",
            "d8": "GS",
            "h8": "GOO",
            "a7": "GUR",
            "b7": "GRR",
            "a8": "GRRH",
        },
        hands={"americans": ["run"], "germans": ["crawl", "march", *(["march"] if full_hand else [])]},
        discard=[c for c in discard for _ in range(3)],
        active="americans",
    )


EXAMPLES += [
    Puzzle(
        "fixbayonets",
        "fb-officer-hidden",
        "stop the loss",
        0,
        (),
        ("run Od3-h3",),
        ("fight", "end", "run Ra1-e1", "run Ra1-a5", "run fwd RRa1"),
        note="hands hidden, move cards to draw: the Germans' win is into the fight, then the shot; "
        "only running the last officer clear saves the game",
        build=fb_officer_hidden,
    ),
    Puzzle(
        "fixbayonets",
        "fb-officer-hidden-more-moves",
        "stop the loss",
        0,
        (),
        ("run Od3-h3",),
        ("run Ra1-e1", "run Ra1-a5", "run fwd RRa1"),
        note="as fb-officer-hidden with more move cards to draw; the Germans draw no shot in about "
        "one deal in eight of the check's, so the blunders state their share (and ending the turn "
        "or fighting with the officer where he stands is judged by the loss the turn leaves)",
        build=partial(fb_officer_hidden, True),
        blunder_share=0.85,
    ),
]


def fb_fight_then_shot() -> State:
    """The mirror, a *win now*: the standard game (hands hidden), the Germans' move phase with a
    Pistol, a Double Time and a March in hand, a German rifleman on d5 two squares from the
    Americans' last officer alone on d3. The terrain cards are in the discard pile, so the
    Americans' two hidden cards cannot cancel the shot. The moves rank first by `order` (group
    moves forward); the win is into the fight, then the Pistol."""
    discard = [c.code for c in FB_CARDS if c.kind == FB_TERRAIN or c.code in ("rifle4", "mg", "counter")]
    return fb_build(
        {
            "d3": "AO",
            "a1": "ARR",
            "d5": "GR",
            "h8": "GOO",
            "a7": "GUR",
            "b7": "GRR",
            "a8": "GRRH",
            "c8": "GRR",
        },
        hands={"americans": ["run", "crawl"], "germans": ["pistol", "double", "march"]},
        discard=[c for c in discard for _ in range(3)],
        active="germans",
    )


EXAMPLES += [
    Puzzle(
        "fixbayonets",
        "fb-fight-then-shot",
        "win now",
        0,
        (),
        ("fight",),
        note="hands hidden, move cards in hand: the win is into the fight, then the Pistol at the last "
        "officer",
        build=fb_fight_then_shot,
    ),
]


def _last_blow(ring: Puzzle, log: tuple[tuple[str, str], ...]) -> State:
    from engine.registry import game

    rules = game(ring.game)
    state = ring.position()
    for side, notation in log:
        state.apply(rules.parse(notation), side)
    return state


EXAMPLES += [
    Puzzle(
        ring.game,
        f"{ring.name}-last-blow",
        "win now",
        0,
        (),
        LAST_BLOWS[ring.name][1],
        note="the enemy's last attack on a Headquarters left open",
        build=partial(_last_blow, ring, LAST_BLOWS[ring.name][0]),
    )
    for ring in list(EXAMPLES)
    if ring.name in LAST_BLOWS
]
