"""The `rules` command's topics: short texts in our own words (rules/fixbayonets.md has the whole)."""

from __future__ import annotations

TOPICS: dict[str, str] = {
    "overview": (
        "**Fix Bayonets**: the Argonne forest, 1918. The Germans (stormtroopers, rank 8) attack the "
        "American Lost Battalion (rank 1) on an 8x8 board. Each side has 16 men: 2 officers (O), "
        "2 heavy weapons specialists (H), a sniper (S), a runner (U) and 10 riflemen (R). Men may "
        "share a square in stacks of any size. One shared 60-card deck (20 cards, 3 copies each) "
        "drives everything: move cards move men, attack cards kill them outright, terrain cards "
        "cancel the opponent's card. Kill both enemy officers to win. Your hand is private "
        "(`/fixbayonets hand`); the board shows every hand's size, the deck and the discard pile."
    ),
    "board": (
        "**Reading the board.** German men are dark square tiles, American men light discs, each "
        "marked with its kind's letter (O officer, H heavy weapons, S sniper, U runner, R rifleman); "
        "an officer has a gold rim and star, and a number in a black badge counts men of one kind on "
        "a square. Men of several kinds on one square show as one piece listing each kind with its "
        "count (3R: three riflemen): square-cornered for the Germans, rounded for the Americans. The "
        "last card: a white arrow is a move, a red one an attack, a yellow dashed one a card waiting "
        "for the answer, a purple dashed one a card cancelled; a red cross marks men killed (small in "
        "a corner when others still stand there). After a whole turn every card of it is drawn. "
        "Above the board: whose turn and the phase; beside each end: that side's men and hand size; "
        "below: the question awaited, the deck, the last card and what it did, and your own hand on "
        "your own board."
    ),
    "setup": (
        "Hands start empty: each side draws its first 3 cards in its own first turn. Both sides set up, "
        "secretly and at the same time: "
        "two men on each of the 8 squares of its back row, in any mix. Write the pairs from file a "
        "to h: `setup RR/HR/SR/OR/OR/UR/HR/RR`, or a preset: `setup std` (officers in the centre), "
        "`setup wings`, `setup guard`, `setup huddle`. Neither side sees the other's set-up until "
        "both have set up. The Germans then take the first turn."
    ),
    "turn": (
        "A turn has three phases.\n1. **Orders**: you draw 3 cards (the deck is reshuffled from the "
        "discard pile when it runs out). Holding more than 5, you discard down to 5, choosing which "
        "(`discard trees`).\n2. **Move**: play move cards one at a time; then `fight` (or `end`).\n"
        "3. **Fight**: play attack cards one at a time; then `end`.\nYou may stop a phase whenever "
        "you like. After every move or attack card the opponent may cancel it (see `cancelling`)."
    ),
    "moving": (
        "A move card moves one man **exactly** its number of squares in one straight line, "
        "orthogonal or diagonal (`march Rd1-d3`). Zigzag instead jumps him like a chess knight "
        "(`zigzag Rd1-e3`). Men pass through and stack with their own side freely but never enter "
        "or cross a square held by the enemy (a Zigzag jump only needs a free landing square). "
        "A man moves once a turn; the runner twice. **Group move**: one numbered card (not Zigzag) "
        "may instead move two or more men straight forward by its number: `march fwd ORd1,RRe1` "
        "(an officer and a rifleman from d1, two riflemen from e1). Advance is German only, Counter "
        "Attack American only."
    ),
    "fighting": (
        "An attack card lets one man kill the enemy on a square in reach: `rifle3 Rd3xd6`. A single "
        "number is an exact distance, a range like 1-2 any distance in it, counted along a straight "
        "line (orthogonal or diagonal); Grenade reaches a knight's jump. Men in between never block. "
        "A man may attack after moving, and again with each attack card played for him (the text limits "
        "moves, not attacks). Who may use what: officers only "
        "the Pistol; heavy weapons specialists only the Machine Gun (American) or the Flame Thrower "
        "(German); the Sniper card only snipers; riflemen, snipers and runners use Bayonet, Pistol, "
        "Grenade and Rifles. A hit on a stack kills one man of the defender's choice, but Grenade, "
        "Machine Gun and Flame Thrower kill the whole stack."
    ),
    "cards": (
        "Attack, by the squares it reaches: Bayonet 1, Pistol 1-2, Flame Thrower 2-3 (Germans, whole "
        "stack), Grenade a knight's jump (whole stack), Rifle 3, Rifle 4, Machine Gun 4-5 (Americans, "
        "whole stack), Sniper 5-6.\nMove, by the squares a man goes: Crawl 1, March 2, Double Time 3, "
        "Zigzag a knight's jump, Run 4, Charge 5, Advance 2 (Germans), "
        "Counter Attack 3 (Americans).\nTerrain: Trees (cancels an attack), Fox Holes (cancels an "
        "attack, Americans), Rough Ground (cancels a move), Hold Ground (cancels a move, Germans).\n"
        "Notation words: bayonet pistol flamer grenade rifle3 rifle4 mg sniper crawl march double "
        "zigzag run charge advance counter trees foxholes rough hold. A card of the other side's "
        "can be drawn but never played: discard it when you hold more than five."
    ),
    "cancelling": (
        "Right after a move or attack card is played, before it acts, its opponent may cancel it: "
        "`negate trees` (or foxholes) against an attack, `negate rough` (or hold) against a move, or "
        "`pass`. The cancelled card is spent, but the man has not moved: another card may move him. A "
        "cancelling card cannot itself be cancelled, and terrain cards are never played on your own "
        "turn. So that the question gives nothing away, it is asked after **every** card whenever "
        "the opponent holds any card at all (hand sizes are public); it is a quick decision with a "
        "short deadline, and the default is to let the card stand. With hands face up it is asked "
        "only when a fitting card is held."
    ),
    "orders": (
        "Standing orders answer your quick decisions for you, so a game over days never waits on a "
        "formality. Either player may change them at any time; they are private.\n"
        "`orders ask` (the default): ask me. `orders never`: never cancel. `orders officers`: cancel "
        "attacks on squares with my officers when I can, let the rest stand. `orders attacks`: "
        "cancel every attack I can. `orders always`: cancel every move and attack I can.\n"
        "`orders losses ask` (default): ask me who falls when a stack is hit. `orders losses auto`: "
        "riflemen first, then the runner, the sniper, the specialists, officers last.\nNew orders "
        "also answer a question already waiting.\nWhat your opponent can tell: an automatic answer "
        "comes inside their own command (which goes on, where `orders ask` stops it at the question), "
        "so they learn you answered by orders and, watching what is cancelled, which ones. Under "
        "`officers`, `attacks` or `always`, a card let stand where they would cancel shows you held "
        "no fitting card then. They never see your hand; `orders never` tells them nothing about it. "
        "To keep them guessing, stay on `orders ask` and answer by hand (rule R15)."
    ),
    "ending": (
        "You win the moment both enemy officers are dead. Either player may resign "
        "(`/fixbayonets resign`) or offer a draw (`/fixbayonets draw offer`, answered with `draw "
        "accept` or `draw decline`); the offer stands until answered, or until the side it went to "
        "ends a turn. The "
        "battle is drawn when the Americans end the last round of the turn limit: a rule of ours, "
        "30 rounds unless the challenge set another (`turn_limit:0` for none). Running out of time "
        "on a turn loses; on a quick decision, the default answer is played instead."
    ),
    "notation": (
        "`setup std` · `march Rd1-d3` (card, man's kind and square, destination) · `march fwd "
        "ORd1,RRe1` (group forward) · `rifle3 Rd3xd6` (attack) · `negate trees` / `pass` · `lose R` "
        "· `discard trees` · `fight` · `end` · `orders never`. Kinds: O officer, H heavy weapons "
        "specialist, S sniper, U runner, R rifleman. Several actions go in one command separated by "
        "`;`, e.g. `march Rd1-d3; crawl Ue1-e2; fight; rifle3 Rd3xd6; end`."
    ),
}
