"""The `rules` command's topics: short texts in our own words (rules/companycommander.md has the whole,
with every house rule H1 to H24 and the designer's precedent it follows, or that it is ours)."""

from __future__ import annotations

from engine.companycommander.model import EDITION


def topics(edition: int) -> dict[str, str]:
    """The topics as a game of `edition` plays them. Edition 1 (rules/companycommander.md,
    "Editions") differs in a few clauses only, chosen here one by one, so an edit to the rest
    reaches both; each clause of edition 1 says so, and `play.present` says which edition first."""
    new = edition >= 2
    return {
        "overview": (
            "**Company Commander**: two WWII infantry companies, Americans against Germans, on three fronts: "
            "the Left Flank, the Center and the Right Flank (the same names for both sides, so your Left "
            "Flank faces theirs). Each side draws its units from its own Squad deck and holds a private hand "
            "from the shared Tactics deck (`/companycommander hand`). Units fire and assault the enemy front "
            "directly across; dice decide, and the bot rolls them all. Destroy or rout **ten** enemy units "
            "to win, or, once each side has had two turns, hold all three fronts while the enemy holds one "
            "or none. Our text of the game is a fragment: what it leaves out is filled with house rules of "
            "ours (see `house rules`)."
        ),
        "board": (
            "**Reading the board.** The Germans' three fronts are at the top, the Americans' at the bottom, "
            "facing each other across the band that names the fronts; each side's first unit at a front "
            "stands next to the band. A card is a unit: its name (A3, G5), its kind, and its Strength left "
            "in large type, red once it has taken a Casualty; a red cross for each Casualty marker; "
            "**Pinned** in orange on an orange card; the Company Commander's card says Co. Cmdr. The side to "
            "act sees what each of its units did this turn: done (it went on a mission, fired or assaulted, "
            "even one deployed this turn), moved, or new (deployed this turn, not yet used). A gold outline "
            "marks the units the last move (or the opponent's whole turn) touched. In the band: Recon +1 on "
            "the side of a front marked by a Recon success, Ambush on the side that laid one. Each side's "
            "row gives units lost of the ten, hand and Squad deck sizes; units drawn and not yet deployed "
            "are listed as Arriving. Below: the dice of this turn (or of the last turn, until the new one "
            "rolls), the latest ones when they do not all fit (the history has every roll), then the "
            "Tactics deck and its discard pile."
        ),
        "turn": (
            "**A turn**: 1. Deploy: your 3 Squad cards are drawn"
            + ("" if new else " (2 in the first player's very first turn, edition 1)")
            + "; deploy them (`deploy A7 L`), "
            + ("take or decline" if new else "take")
            + " your Company Commander's extra card if he is in play, move units if you like, then "
            "`tactics`. 2. Tactics: 2 cards drawn for you; over 7 in hand, discard. 3. Recon. 4. "
            "Suppression. 5. Assault. 6. Rally, by itself when you `end`. You pass to a later phase by "
            "acting in it (firing ends Recon, assaulting ends Suppression). The first player is drawn at "
            "random. Nothing is ever asked of the side whose turn it is not. A whole turn fits in one "
            "command: `deploy A7 L; deploy A8 C; deploy A9 R; tactics; recon A2 mark; fire A4; assault A1; "
            "end`."
        ),
        "deploy": (
            "**Deploy.** The 3 Squad cards drawn"
            + ("" if new else " (2 in the game's very first Deploy phase, edition 1)")
            + " are face up for all to see and named in order (A7, A8, A9; "
            "G1, G2... for the Germans). Deploy each to any front, as many to a front as you like. If your "
            "Company Commander stood at a front when your turn began, "
            + (
                "you may take one extra card: `extra squad` or `extra tactics`, or `extra none` to go "
                "without."
                if new
                else "you take one extra card: `extra squad` or `extra tactics` (edition 1: it may not be "
                "declined)."
            )
            + " Units deployed on an earlier turn and "
            "not Pinned may move one step to a neighbouring front (`move A3 C`; the Center neighbours both "
            "flanks), once a turn; a unit that moved may not attack or go on a mission this turn. New units "
            "may fire or assault at once, but not move. An empty Squad deck is not reshuffled."
        ),
        "recon": (
            "**Recon.** Scouts may go on a mission into the enemy front directly across (there must be an "
            "enemy unit there). Say beforehand what a success is for: `recon A2 look` (look at the enemy's "
            "hand: shown to you alone, once) or `recon A2 mark` (+1 to every Suppression roll you make "
            "against that front this turn). 1D6: 1-2 spotted, the enemy makes one Suppression roll against "
            "your Scouts; 3-4 nothing; 5-6 success. A unit on a mission does nothing else this turn."
        ),
        "suppression": (
            "**Suppression.** Artillery observers, mortars, tanks and machine guns (the HMG and the MG 42) "
            "fire at the enemy front directly across: `fire A4`. 2D6: 2-7 nothing; 8-10 an enemy unit there, "
            "drawn at random, is **Pinned**; 11+ one takes a **Casualty**. The MG 42 and the American "
            "Artillery observer add +1. A unit that fires may not assault; a Pinned unit may not fire. "
            "**Support cards** (`play artillery C`) give their number of such rolls against the enemy front "
            "you name. A unit whose Casualties equal its Strength is destroyed. "
            + (
                "A Pin on a unit already Pinned is a Casualty instead (house rule H13)."
                if new
                else "A Pin on a unit already Pinned has no effect (house rule H13, edition 1)."
            )
        ),
        "assault": (
            "**Assault** (house rule H15). Each unit not Pinned, not moved and not yet used this turn may "
            "assault the enemy front across: `assault A1`. The target is drawn at random "
            + (
                "among the Pinned units there, or among all if none is Pinned"
                if new
                else "among all the enemy units there, Pinned or not (edition 1)"
            )
            + "; roll 2D6 + (your Strength left − theirs), +2 if "
            "the target is Pinned, +1 German Assault squad, +3 Surprise Attack, −3 against an Ambush "
            + (
                "(one assault, then it is spent)"
                if new
                else "(every assault at that front until the Ambush side's next turn, edition 1)"
            )
            + ". 4 or less: repulsed, your unit takes a Casualty. 5-7: stalled, your "
            "unit is Pinned. 8-9: the target takes a Casualty. 10-11: a Casualty and Pinned. 12+: the target "
            "**routs** (out of play, it counts towards the ten)."
        ),
        "rally": (
            "**Rally** (house rule H17), when you `end` your turn: each of your Pinned units rolls 1D6, +1 "
            "if your Company Commander stands at its front "
            + (
                "(not for his own roll, nor once he has routed)"
                if new
                else "(not for his own roll; in edition 1 it still counts for the units that roll after he "
                "routs)"
            )
            + ". 4+: it rallies. A 1 on "
            "a unit that has a Casualty marker: it routs. Otherwise it stays Pinned. A Pinned unit may not "
            "move, go on a mission, fire or assault, and is assaulted at +2."
        ),
        "units": (
            "**Americans (32 cards):** Rifle squad 3 (×16), Heavy MG team 2 (×4, fires), Mortar team 2 (×4, "
            "fires), Sherman tank 4 (×2, fires), Artillery observer 1 (×2, fires +1), Scout team 1 (×3, "
            "Recon), Company Commander 2.\n**Germans (29 cards):** Rifle squad 3 (×9), Assault squad 3 (×3, "
            "+1 in assaults), MG 42 team 2 (×6, fires +1), Mortar team 2 (×3, fires), Panzer IV 4 (×2, "
            "fires), Artillery observer 1 (×2, fires), Scout team 1 (×3, Recon), Company Commander 2.\nThe "
            "number is the Strength. The Company Commander gives an extra card each turn and +1 to rallies "
            "at his front."
        ),
        "cards": (
            "**Tactics deck (34 cards, shared; hands private, at most 7).** Support, played in Recon or "
            "Suppression against an enemy front you name: Sniper 1 roll (×6), Mortar Barrage 2 (×8), "
            "Artillery Barrage 3 (×5), Air Strike 4 (×1). Keyword cards: Surprise Attack (×3) +3 to your "
            "next assault this turn; Ambush (×3) on one of your fronts, "
            + (
                "the next enemy assault there −3 (before your next turn)"
                if new
                else "every enemy assault there −3 until your next turn (edition 1)"
            )
            + "; Rally (×3) unpins all your units at one front; Medic (×3) removes a "
            "Casualty from one of your units; Reinforcements (×2) in Deploy, 2 more Squad cards. Cards are "
            "played in your own turn only. The first player starts with 3 cards, the second player with "
            + ("7." if new else "5 (edition 1).")
        ),
        "winning": (
            "**Winning.** Destroy or rout ten enemy units. Or, once each side has had two turns, have units "
            "at all three fronts while the enemy has units at one front or none: that wins at once, checked "
            "after every action. A side with no unit left and an empty Squad deck loses. A turn limit is "
            "ours and off unless the challenge sets one: then, at the end of its last round, more enemy "
            "units put out wins; equal is a draw. You may resign or offer a draw at any time; an offer "
            "lapses when the other side ends a turn instead of answering."
        ),
        "notation": (
            "`deploy A7 L` (fronts L, C, R) · `extra squad` / `extra tactics`"
            + (" / `extra none`" if new else "")
            + " · `move A3 C` · "
            "`tactics` (done deploying) · `discard medic` · `recon A2 look` / `recon A2 mark` · `fire A4` · "
            "`play artillery C` · `play sniper R` · `play mortars L` · `play airstrike C` · `play rally L` · "
            "`play medic A3` · `play ambush R` · `play surprise` · `play reinforcements` · `assault A1` · "
            "`end`. A card play may leave out `play` (`mortars L`) or say `card` (`card mortars L`). Units "
            "are A1, A2... (Americans) and G1, G2... (Germans) in the order drawn. Join several with `;`. A "
            "mistake found before any die is rolled or card drawn refuses the whole command; after one, "
            "what came before stands (it cannot be taken back) and you alone are told which action "
            "could not be made and why."
        ),
        "house rules": (
            "Our text of Company Commander stops in the middle of the Suppression phase. Everything after, "
            "and every gap before, is a house rule of ours in the designer's style, numbered H1-H24 in the "
            "project's rules/companycommander.md, each with the precedent it follows from his own games or "
            "marked as simply ours: the Assault table and rout (his Napoleonic game's opposed roll), the "
            "Rally phase (his Squad), both Squad decks and the Tactics deck (his Tank Killers), "
            + (
                "a Pin on a Pinned unit costing a Casualty (his Combined Arms' double whammy), "
                if new
                else "a Pin on a Pinned unit doing nothing (edition 1), "
            )
            + "units acting the turn they "
            "arrive, Pinned forbidding every action, no reshuffle of an empty Squad deck, the second "
            "player's larger starting hand, and an optional turn limit. Fronts have one set of names."
        ),
    }


TOPICS = topics(EDITION)  # the newest: what a new challenge plays
EDITION_1 = topics(1)

__all__ = ["EDITION_1", "TOPICS", "topics"]
