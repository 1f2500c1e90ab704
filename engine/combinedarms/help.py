"""Short rule summaries for `/combinedarms rules` and `/combinedarms_wwii rules`, in our own words.

The full rules with every ruling are rules/combinedarms.md and rules/combinedarms-wwii.md.
"""

from __future__ import annotations

from engine.combinedarms.actions import ROWS_EXAMPLE
from engine.combinedarms.rules import WWII_EDITION
from engine.combinedarms.units import WWI, WWII, Era, Limits


def _unit_table(era: Era) -> str:
    lines = []
    for u in era.units:
        most = era.limits.most.get(u.code)
        least = era.limits.least.get(u.code, 0)
        bound = ""
        if era.key == "wwi":
            bound = f", max {most}" if most is not None and least == 0 else ""
            bound = f", at least {least}" if least and most is None else bound
            bound = ", exactly 1" if least and most == least else bound
        lines.append(f"`{u.code}` {u.name} ({u.move}/{u.reach}/{u.defense}{bound})")
    return "; ".join(lines)


SHARED = {
    "turn": (
        "**A turn.** First the move phase: move any of your units, each once, up to its Move in king "
        "steps (straight or diagonal) over empty squares only: `b2-c4`. Then `done`, and the attack "
        "phase: each unit may attack once, one enemy within its Range (squares counted as a king "
        "walks; range 2 or more fires over anything in between): `c4xd6`. `end` ends the turn. An "
        "attack sent during the move phase closes it. Several steps go in one command with `;`: "
        "`b2-c4; d2-d4; done; c4xd6; end`."
    ),
    "damage": (
        "**Damage.** An attack does 1 damage, 2 with a special rule or an Elite attacker (never more). "
        "Damage adds up during the turn: when a unit's damage reaches its Defence it must retreat "
        "(extra damage is lost) and starts counting from 0. Forced back a second time in the same "
        "turn, it is destroyed (the Double Whammy). All damage clears when the turn ends."
    ),
    "retreats": (
        "**Retreats.** One square: back (straight or diagonal, towards your own side) or sideways. A "
        "sideways square may not touch an enemy unit. No square, or only off the board behind your "
        "back row: the unit is destroyed, and so is a unit that cannot move (the Headquarters, Move "
        "0: it falls to damage equal to its defence in one turn). The owner chooses (`retreat e4`) "
        "within a short deadline; "
        "when it passes, or with the standing order `autoretreat on`, the automatic choice is taken: "
        "straight back, then back towards the centre, then the other back diagonal, then sideways."
    ),
    "endings": (
        "**How it ends.** Destroy the enemy Headquarters and you win. You may also resign, or offer a "
        "draw (`offer draw`, `accept draw`). A turn limit of ours (the text has none): when both sides "
        "have played the agreed number of turns (20 each unless the challenge chose another, "
        "`turns:0` for none) the game is drawn."
    ),
}


def _board(era: Era) -> str:
    """The key to the board's picture (the board itself keeps only what changes)."""
    first, second = era.sides
    terrain = (
        "bunkers (a box, +2 defence), trenches (zigzags, +1), No Man's Land (craters, -1)"
        if era.key == "wwi"
        else "difficult ground (trees, +1 defence), cities (buildings; +1 defence too when Difficult "
        "Terrain is on)"
    )
    return (
        "**Reading the board.** Each unit shows its type as a letter (see `units`) under a small "
        f"symbol; {first.adjective} units are tan with rounded corners, {second.adjective} units "
        "grey-blue with cut corners. A gold rim marks the Headquarters, a gold star an Elite unit. "
        "Marks of this turn: a red badge is the damage a unit has taken (of its defence where it "
        "fits), an orange corner a unit that retreated, a red dot a unit that attacked. Lines: "
        "moves in the mover's colour from a dot where the unit stood, attacks red with an arrowhead "
        "at the target, retreats orange; a red cross over a faded letter is a unit destroyed. "
        "Lines run under the units. Before the side to move has acted, the other side's whole last "
        "turn is drawn; yellow frames mark the last action. Dashed lines edge the deployment "
        f"zones. Terrain, when in play: {terrain}."
    )


def _per_type(lim: Limits) -> int:
    """The most units of one type an army may have (the Headquarters' one apart): the same for every type."""
    return max(n for code, n in lim.most.items() if code != "H")


def _reinforcements(era: Era) -> str:
    """WWII's Reinforcements option (W10): the limits a reinforcement must keep, named one by one,
    since "the army's limits" would also take in the types a design needs, which it does not."""
    lim, camp = era.limits, era.campaign_limits
    return (
        "Reinforcements: every third turn of yours, one more unit on your back row, placed before "
        "you move (`T@a1`): any type but a base (Fortification or Headquarters), as long as you then "
        f"have at most {_per_type(lim)} of its type and at most {lim.class_most['armour']} tanks on the "
        f"board ({_per_type(camp)} and {camp.class_most['armour']} in the Campaign). The "
        f"rule of {lim.min_types} different types is for designing an army only."
    )


def _topics(era: Era, edition: int = 1) -> dict[str, str]:
    """The topics of `era` as a game of `edition` plays them: WWII's edition 1 (W6, before issue
    22's hold) differs only in when every city held wins, chosen below clause by clause."""
    first, second = era.sides
    lim = era.limits
    if era.key == "wwi":
        overview = (
            "**WWI Combined Arms in brief.** No cards, no dice: two armies of 16 units on a chessboard. "
            "Each side secretly designs its army, then deploys it on its back three ranks (the "
            f"{first.title} on ranks 1-3 first, then the {second.title} on 6-8). Each turn you move, "
            "then attack with each unit; damage builds up during the turn and forces retreats, and a "
            "second forced retreat destroys. Destroy the enemy Headquarters to win. The "
            f"{first.title} move first."
        )
        army = (
            "**Army.** Exactly 16 units within each type's bounds: at least 8 Infantry, exactly one "
            "Headquarters, at most 2 Snipers, Machine Guns, Tanks, Flame Throwers and Trench Raiders, "
            "at most 5 Artillery. `army balanced` (or assault, guns, firepower), or your own counts: "
            "`army I8 S1 M1 T2 A2 F1 H1`. Your army stays secret until both are in. In the Campaign: "
            "24 units, at least 12 Infantry, at most 3 of each of those five types, at most 7 Artillery."
        )
        special = (
            "**Special damage.** Machine Guns do 2 to Infantry and Flame Throwers; Flame Throwers always "
            "do 2; Tanks do 2 to Machine Guns."
        )
        options = (
            "**Options.** Terrain: bunkers (+2 defence), trenches (+1) and No Man's Land (-1), dealt "
            "from the seed and mirrored. Elite: up to 2 units (`*` in your deployment) get +1 "
            "defence and always do 2. Experienced: a unit that has hit 5 enemy units in the turns "
            "they died becomes Elite. Reinforcements: every third turn of yours, one more unit (not "
            "an HQ, and no more of its type than your army may have) on your back row, placed "
            "before you move (`T@a1`). Campaign: a 12x10 board, 24-unit armies, every option on."
        )
        return {
            "overview": overview,
            "board": _board(era),
            "units": "**Units** (move/range/defence): " + _unit_table(era) + ".",
            "army": army,
            "setup": _setup(era),
            **SHARED,
            "special": special,
            "options": options,
            "notation": _notation(),
        }
    overview = (
        "**WWII Combined Arms in brief.** The WWI system with thirteen WWII unit types in five classes. "
        "Each side secretly designs 16 units, deploys them on its back three ranks (the "
        f"{first.title} first), and each turn moves, then attacks. Damage builds up during a turn and "
        "forces retreats; a second forced retreat destroys, and bases (Fortifications and the "
        "Headquarters) cannot retreat at all. Destroy the enemy Headquarters to win."
    )
    army = (
        f"**Army.** Exactly {lim.size} units: one Headquarters, at most 4 of any type, at most 5 tanks "
        "(light, medium and heavy together), and at least 7 different types besides the Headquarters. "
        "`army balanced` (or armoured, airborne, fortress), or counts: "
        "`army I3 E2 M2 L1 T2 K1 A2 X1 Y1 H1`. Secret until both are in. In the Campaign: "
        f"{era.campaign_limits.size} units, at most 6 of any type and 7 tanks in all."
    )
    special = (
        "**Special rules.** Engineers do 2 to Fortifications and the HQ. Anti-Tank Guns do 2 to every "
        "tank. Airfields cannot attack an Anti-Aircraft Gun or a unit next to one (its own side's). "
        "Paratroopers that begin the turn next to a friendly Airfield move 4. An Airfield moves only "
        "to a square next to a friendly unit and not next to an enemy, and never moves and attacks "
        "in one turn; forced back, it retreats like any unit. Fortifications and the HQ cannot move: "
        "a forced retreat destroys them."
    )
    options = (
        "**Options.** City Spaces: 4 cities on the two middle ranks; occupy them all and you win "
        + (
            "when your next turn begins if you still hold them all (a rule of ours: the enemy gets a "
            "whole turn to push you off one, so the side that moves first cannot win before the other "
            "has moved)."
            if edition >= 2
            else "the moment the last one is taken (edition 1 of our rule: even in the first side's "
            "first turn)."
        )
        + " Difficult Terrain: +1 defence; tanks and mechanized infantry stop on entering "
        "(cities count too). Elite: up to 2 units (`*` in your deployment) get +1 defence and always "
        "do 2 damage. Experienced: a unit that has hit five enemy units in the turns they were "
        "destroyed becomes Elite. " + _reinforcements(era) + " Campaign: 12x10 board, 24 units, every "
        "option on."
    )
    endings = (
        "**How it ends.** Destroy the enemy Headquarters and you win (a base: it falls when it must "
        "retreat). With City Spaces, you also win "
        + (
            "if your units stand on every city when your next turn begins: the enemy gets a whole turn "
            "to push one off."
            if edition >= 2
            else "the moment your units stand on every city (edition 1)."
        )
        + " You may also resign, or offer a draw (`offer draw`, `accept draw`). A turn limit of ours (the "
        "text has none): when both sides have played the agreed number of turns (20 each unless the "
        "challenge chose another, `turns:0` for none) the game is drawn."
    )
    return {
        "overview": overview,
        "board": _board(era),
        "units": "**Units** (move/range/defence): " + _unit_table(era) + ".",
        "army": army,
        "setup": _setup(era),
        **SHARED,
        "endings": endings,
        "special": special,
        "options": options,
        "notation": _notation(),
    }


def _setup(era: Era) -> str:
    first, second = era.sides
    return (
        f"**Deployment.** When both armies are in, the {first.title} deploy, then the {second.title} "
        "(seeing them); the side that deployed first moves first. Units go on your back three ranks, "
        "one per square, with squares left empty. In one command: `deploy line` (or wedge, flanks), "
        "or rows from your back row forwards, files a.. in order, `.` for empty, `*` after an Elite "
        f"unit: `deploy {ROWS_EXAMPLE[era.key]}`."
    )


def _notation() -> str:
    return (
        "**Notation.** `army balanced` · `deploy line` · `b2-c4` (move) · `done` (end moves) · "
        "`c4xd6` (attack) · `end` (end turn) · `retreat e4` · `T@a1` (reinforcement) · "
        "`autoretreat on|off` · chain with `;`. Shared: `resign`, `offer draw`, `accept draw`, "
        "`decline draw`."
    )


WWI_TOPICS = _topics(WWI)
WWII_TOPICS = _topics(WWII, WWII_EDITION)  # the newest: what a new challenge plays
WWII_EDITION_1 = _topics(WWII, 1)

__all__ = ["WWII_EDITION_1", "WWII_TOPICS", "WWI_TOPICS"]
