"""Short rule summaries for `/battlefronts rules`, condensed from rules/battlefronts.md in our own words."""

from __future__ import annotations

TOPICS: dict[str, str] = {
    "overview": (
        "**Battlefronts in brief.** No board: five fronts (F1–F5) in a row with a travel zone between "
        "each pair (T1 lies between F1 and F2, ... T4 between F4 and F5). Each side, Reds and Blues, has "
        "its own shuffled 52-card deck. You call up battalions (stacks of face-down cards) into the "
        "travel zones, march them onto the fronts, and wear the enemy down. At the end of a round, "
        "holding **three fronts alone** (no enemy battalion there) wins."
    ),
    "board": (
        "**Reading the board.** The places run down the picture, F1 at the top to F5, each travel "
        "zone between its two fronts. Each row has the Blues' battalions on the left, the Reds' on "
        "the right, and the place in the middle: at a front, the Blues' total : the Reds' total (a "
        "dash: nobody of that side there). A battalion's line gives its name, its top card (? while "
        "face down, on the side's dark colour), its strength after = where the card does not say it "
        "(an Ace counts 1, a face card the stack's size), its size (×5: five cards) and what it did "
        "this round: ←T2 moved from T2, ⇐T4 jumped from T4, new just called up. Under a side's "
        "battalions: ⚔2 is the reductions it took in the last battle, and the grey struck cards are "
        "those it lost there since. A gold frame marks the battalions the last action touched or "
        "that must be chosen between. Above: the round, who is to act and the phase; each side's "
        "battalions, deck, cards in play (deck and battalions) and lost, and the fronts it holds alone. "
        "Below: what was just "
        "played, its last steps when it does not all fit (the history has the rest)."
    ),
    "round": (
        "**A round.** 1. Attrition. 2. Move. 3. Support. 4. Battle. 5. Check for a win. The Reds go "
        "first in odd rounds, the Blues in even ones. In round 1 only the support phase has anything "
        "to do. In the move and support phases the sides take turns: on your turn make as many moves "
        "(or call-ups) as you like, then `end` your turn (your opponent acts, and you may act again "
        "later) or `pass` (you are finished with the phase for good: a rule of ours, R9, that saves "
        "days of waiting; to wait and see, act once and `end`). When both have passed the phase is over. "
        "With nothing to do when your turn comes, you pass by yourself; once you have done all you "
        "can, finish with `pass` (it has a short deadline). Several actions fit in one command, "
        "separated by `;`: `call T1 4; call T2 3; pass`."
    ),
    "strength": (
        "**Strength.** Only a battalion's top card shows (face up once it has reached a front). Its "
        "strength is that card's value, Ace = 1, 2–10 as printed. A Jack, Queen or King on top is worth "
        "the number of cards in the stack: a King on a six-card stack is strength 6. Face-down cards "
        "are unknown to both players, their owner too."
    ),
    "attrition": (
        "**Attrition** (start of each round). At every front where both sides stand, each side reduces "
        "one battalion there: its strongest (you choose between equally strong ones). **Reducing** "
        "discards the top card and turns up the next; a battalion with no card left is gone. A lone "
        "one-card battalion at a contested front is wiped out. Fronts held by one side have no attrition."
    ),
    "moving": (
        "**Moving.** Each battalion moves at most once a round, one step along the row: from a travel "
        "zone to either neighbouring front, or from a front to either neighbouring travel zone (never "
        "front to front). A battalion arriving at a front turns its top card up. **Jump:** a battalion "
        "showing a Jack, Queen or King on top (and holding more than that card) may discard it to go "
        "straight to any other front; the next card is turned up there."
    ),
    "support": (
        "**Support: call-ups.** Deal cards face down from your deck into a travel zone as a new "
        "battalion, as many as you like (`call T2 5`). Each travel zone takes one call-up per side per "
        "round, so at most four new battalions a round. Battalions called up move from the next round "
        "on. An empty deck calls up nothing more."
    ),
    "battle": (
        "**Battle.** At every front where both sides stand, each side adds up its strengths there, "
        "divides by 5 and rounds up: that many reductions hit the enemy at that front. Both numbers are "
        "worked out before anyone loses a card. Each reduction takes the strongest battalion as it is "
        "now (after the previous one turned up a new card). Reductions left over when a side has "
        "nothing left at that front are lost."
    ),
    "winning": (
        "**Winning.** At the end of a round, the side with battalions at three fronts where the enemy "
        "has none wins. The game is drawn when both sides have fewer than three battalions and no "
        "cards left to call up (neither can ever hold three fronts). A round limit of ours (the text "
        "has none): after the last round (30 unless the challenge chose another, `rounds:0` for none) "
        "the side holding more fronts alone wins, by our rule; equal is a draw. You may resign or "
        "offer a draw at any time."
    ),
    "notation": (
        "**Notation.** `call T2 5` call up 5 cards into T2 · `move R3 F2` move battalion R3 to F2 · "
        "`jump R3 F5` discard R3's face card and jump to F5 · `reduce R3` choose R3 for a reduction · "
        "`end` end your turn · `pass` finish the phase. Battalions are named R1, R2... (Reds) and B1, "
        "B2... (Blues) in the order they were called up. Join several with `;`."
    ),
    "rulings": (
        "**Rulings** (the full list is in the project's rules/battlefronts.md). Reductions hit the "
        "highest strength, not the highest card. Equal battalions that differ in nothing you can see "
        "are reduced without asking. A battalion's top stays face down in the travel zone until it "
        "reaches a front, and a battalion returning to a zone keeps its top face up. Call-ups are "
        "dealt off the top of the deck, the last card dealt on top. The example in the original text "
        "calls the Queen's battalion 'two cards' but gives it strength 4: it has four cards."
    ),
}

__all__ = ["TOPICS"]
