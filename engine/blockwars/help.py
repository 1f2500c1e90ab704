"""Short rule summaries for `/blockwars rules`, condensed from rules/blockwars.md in our own words."""

from __future__ import annotations

TOPICS: dict[str, str] = {
    "overview": (
        "**Block Wars in brief.** Two trench lines on a chessboard: the Germans hold ranks 6–8, the "
        "Canadians ranks 1–3, with No Man's Land (ranks 4–5) between. Every fight is settled by turning "
        "cards, one from each side's deck. Get two of your units onto the enemy's back row at the same "
        "time to win. The Germans deploy first and move first."
    ),
    "board": (
        "**Reading the board.** German units are dark octagons marked G, Canadian units light discs "
        "marked C; a machine gun is marked MG and its yellow wedge points along its arc. The Canadian "
        "tank covers four squares; its red pips count damage (two destroy it). Grey ranks 6–8 are the "
        "German lines, sand ranks 1–3 the Canadian, brown ranks 4–5 No Man's Land, with sandbags and "
        "barbed wire along both trench edges. What was just played: white arrows are moves, red arrows "
        "and frames attacks, a red cross a unit destroyed, an orange frame a barrage with its cards, a "
        "green frame a reinforcement; after a whole turn every action of it is drawn. Above the board: "
        "whose turn and how many actions are left; beside each side's end: its reserve, losses, deck, "
        "aircraft (ok, damaged or lost) and gas; below it: what was played, with both cards of each fight."
    ),
    "actions": (
        "**Your turn: two actions.** Move an infantry unit one square (any direction, onto an "
        "empty "
        "square); move-and-attack (step if you like, then hit a neighbour); fire a machine gun; move the "
        "tank a rank forward or back (both actions); fire the tank's gun; or reinforce from the reserve "
        "(both actions). Each infantry unit moves at most once a turn. You may end early with `end`."
    ),
    "combat": (
        "**Fights.** Each side turns its top card; Ace is high. Higher card wins: a beaten defender is "
        "removed, a beaten attacking infantry unit is removed, a machine gun that loses while firing is "
        "unharmed. Equal cards: nothing happens. The tank must be beaten by two and takes one damage "
        "(two destroys it)."
    ),
    "wire": (
        "**Barbed wire.** Infantry attacking from the No Man's Land rank next to the enemy trench into "
        "that trench (5→6 against the Germans, 4→3 against the Canadians, diagonals too) must win by "
        "two; winning by one is a tie. It never applies to guns, the tank or strafing, and never "
        "blocks moves."
    ),
    "machine guns": (
        "**Machine guns.** They never move, can fire with both actions, and reach the three squares "
        "ahead and the five squares two ranks ahead. Any unit on a square the shot passes over blocks "
        "it. They cannot target the tank."
    ),
    "tank": (
        "**The tank (Canadians).** It covers four squares and moves one rank straight forward or back, "
        "using both actions. Its machine gun fires in every direction up to two squares from any of its "
        "squares, but not in a turn it moved or arrived. Enemies must win by two to damage it."
    ),
    "specials": (
        "**Special cards** (in ordinary fights only). **King**: an artillery barrage on any square and its "
        "neighbours, friend or foe; for each unit there a card is turned, and a 2 or 3 destroys it (the tank "
        "is damaged instead; the Germans may use gas once: 2–6). **Ace**: bring "
        "a unit onto your back row at once (with no infantry left in reserve, a fallen infantry unit or "
        "machine gun comes back; a destroyed tank never does). **Jack**: an air battle; one of your "
        "aircraft may strafe an enemy unit (never the tank), and the enemy may meet it in a dogfight first."
    ),
    "winning": (
        "**Winning.** Two of your units on the enemy back row at once wins at that moment. You can also "
        "resign, agree a draw, or lose on time when your turn deadline passes. A side with no unit left, "
        "on the board or in reserve, loses; sixty turns in a row with no card turned is a draw."
    ),
    "optional": (
        "**Optional rules** (chosen in the challenge). *Crosses*: once a game each side may turn one "
        "infantry defeat into a win. *Fighter aces*: aircraft A adds one to its cards, a damaged aircraft "
        "subtracts one, in dogfights and strafes."
    ),
    "notation": (
        "**Notation.** `e2-e3` move · `e4-e5xe6` step and attack · `e5xe6` attack in place · `c6xd4` gun "
        "fires · `T+`/`T-` tank moves · `Txd5` tank fires · `R@c1` reinforce · `T@c1` tank arrives · "
        "`M@c1` a fallen gun returns (Ace) · `end` · `barrage e4`/`gas e4` · `fly A` · `dogfight B` · "
        "`strafe e4` · `cross` · `decline` · `setup std` or `setup bcfg/cdef/cf`. A decision about a square "
        "also takes the square alone (`e4`). The command options autocomplete what is legal now."
    ),
    "rulings": (
        "**Rulings** the bot applies where the booklet is unclear, for example: attacking without "
        "stepping is allowed; units that arrived this turn may not attack; the wire and the tank's "
        "win-by-two do not stack; a Cross can be spent during the opponent's turn. The full list is in "
        "rules/blockwars.md of the bot's repository."
    ),
}
