"""Actions and positions in words for buttons, autocomplete, statuses and the private hand (the
game's `words`: every function takes the view, `engine.protocol.Words`).

Everything here that reaches the channel (statuses, the menu) is built from public facts only:
the board, the phase, the cards on the table and hand *sizes*, never a hand's cards.
"""

from __future__ import annotations

from engine.fixbayonets import actions as A
from engine.fixbayonets.cards import ATTACK, Card, cards_words
from engine.fixbayonets.model import (
    FORCE,
    NAMES,
    PLURAL,
    PRESET_WORDS,
    PRESETS,
    SINGULAR,
    TITLE,
    men_words,
    other,
    side_units,
    unit_kind,
)
from engine.fixbayonets.state import (
    DISCARD,
    FIGHTING,
    HAND_LIMIT,
    LOSS_WORDS,
    MOVING,
    NEGATE_WORDS,
    SETUP,
    State,
    View,
)
from engine.protocol import Action

PLAYER = "{player}"
ATTACK_VERBS = {
    "bayonet": "charges with the bayonet at",
    "pistol": "fires a pistol at",
    "flamer": "burns",
    "grenade": "throws a grenade at",
    "rifle3": "shoots at",
    "rifle4": "shoots at",
    "mg": "machine-guns",
    "sniper": "snipes at",
}
_PRESET_NAMES = {layout: name for name, layout in PRESETS.items()}


def describe(view: View, action: Action) -> str:
    state = view.state
    if isinstance(action, A.Move):
        return f"{action.card.name}: {SINGULAR[action.kind]} {NAMES[action.src]} → {NAMES[action.dst]}"
    if isinstance(action, A.Group):
        men = men_words("".join(k for _, k in action.men))
        where = ", ".join(NAMES[s] for s, _ in action.men)
        return f"{action.card.name}: {men} forward {action.card.lo} ({where})"[:100]
    if isinstance(action, A.Attack):
        target = state.men_at(action.dst)
        what = f" ({men_words(target)})" if target else ""
        whole = ", the whole stack" if action.card.area and len(target) > 1 else ""
        verb = ATTACK_VERBS[action.card.code]
        man = f"{SINGULAR[action.kind]} {NAMES[action.src]}"
        return f"{action.card.name}: {man} {verb} {NAMES[action.dst]}{what}{whole}"[:100]
    if isinstance(action, A.Negate):
        return f"Cancel it with {action.card.name}"
    if isinstance(action, A.Pass):
        return "Let it stand"
    if isinstance(action, A.Lose):
        return f"The {SINGULAR[action.kind]} falls"
    if isinstance(action, A.Discard):
        return f"Discard {action.card.name}"
    if isinstance(action, A.Fight):
        return "Done moving: on to the fight phase"
    if isinstance(action, A.End):
        return "End the turn"
    if isinstance(action, A.Setup):
        name = _PRESET_NAMES.get(action.layout)
        if name is not None:
            return f"Set up '{name}': {PRESET_WORDS[name]}"
        return f"Set up {'/'.join(action.layout)}"
    if isinstance(action, A.Orders):
        if action.negate is not None:
            return f"Standing orders: {NEGATE_WORDS[action.negate]}"
        return f"Standing orders: {LOSS_WORDS[action.losses or 'ask']}"
    return str(action)


def verb_of(view: View, action: Action) -> str:
    if isinstance(action, A.Move | A.Group):
        return "move"
    if isinstance(action, A.Attack):
        return "attack"
    if isinstance(action, A.Negate):
        return "negate"
    if isinstance(action, A.Pass):
        return "pass"
    if isinstance(action, A.Lose):
        return "lose"
    if isinstance(action, A.Discard):
        return "discard"
    if isinstance(action, A.Fight):
        return "fight"
    if isinstance(action, A.End):
        return "end"
    if isinstance(action, A.Setup):
        return "setup"
    if isinstance(action, A.Orders):
        return "orders"
    return "play"


def group_of(view: View, action: Action) -> str | None:
    """The man an action belongs to in the Take action flow ("Rd1"), or a kind of action."""
    if isinstance(action, A.Move | A.Attack):
        return f"{action.kind}{NAMES[action.src]}"
    if isinstance(action, A.Group):
        return "group"
    if isinstance(action, A.Discard):
        return "discard"
    if isinstance(action, A.Negate | A.Pass):
        return "answer"
    return None


def group_label(view: View, group: str) -> str:
    fixed = {
        "group": "Several men forward with one card",
        "discard": "Discard a card",
        "answer": "Answer the card just played",
    }
    if group in fixed:
        return fixed[group]
    return f"The {SINGULAR.get(group[0], 'man')} on {group[1:]}"


def status(view: View, side: str) -> str:
    """What `side` must do, from public facts only (it is posted in the channel)."""
    s = view.state
    title = TITLE[side]
    if s.phase == SETUP:
        rank = 8 if side == "germans" else 1
        return (
            f"{PLAYER} ({title}): set up your 16 men, two to each square of rank {rank} "
            "(`setup std` for the standard layout); the other side will not see it until both have."
        )
    p = s.pending
    if p is not None:
        them = TITLE[other(side)]
        if p.kind == "negate":
            ask = (
                f"{PLAYER} ({title}): the {them} play {p.play.card.name}. Cancel it with a terrain card "
                "(`negate …`) or let it stand (`pass`)."
            )
            if s.asked[side] <= 1:  # the first time in the game: how not to be asked at all
                when = (
                    "whenever you hold a card that could cancel it (hands are face up)"
                    if s.options.open_hands
                    else "after every card, whatever you hold"
                )
                ask += (
                    f" You are asked {when}; standing orders (`orders …`) answer for you: let every "
                    "card stand (`orders never`), cancel only attacks on your officers (`orders "
                    "officers`), or ask again (`orders ask`)."
                )
            return ask
        assert isinstance(p.play, A.Attack)
        men = s.men_at(p.play.dst)
        choices = " or ".join(f"`lose {k}`" for k in dict.fromkeys(men))
        return (
            f"{PLAYER} ({title}): {p.play.card.name} hits your stack on {NAMES[p.play.dst]} "
            f"({men_words(men)}). Choose who falls: {choices}."
        )
    n = view.hand_counts[side]
    if s.phase == DISCARD:
        extra = n - HAND_LIMIT
        which = "one" if extra == 1 else f"the {extra}"  # Discord names the button by "discard"
        over = f"you hold {n} cards, {extra} over five"
        return f"{PLAYER} ({title}): {over}: choose {which} to discard (`discard …`)."
    if s.phase == MOVING:
        return f"{PLAYER} ({title}), round {s.round}: play move cards, then `fight` (or `end`)."
    if s.phase == FIGHTING:
        return f"{PLAYER} ({title}), round {s.round}: play attack cards, then `end`."
    return f"{PLAYER} ({title}): the battle is over."


def private_text(view: View, *, tapping: bool = False) -> str | None:
    """The viewer's hand in words (and, hands face up, the opponent's), plus their standing orders
    and how to change them: the command to type, or for a player who taps the button."""
    side = view.viewer
    if side is None:
        if not view.state.options.open_hands:
            return None
        return " ".join(_hand_line(view, s, own=False) for s in ("germans", "americans"))
    s = view.state
    lines = [_hand_line(view, side, own=True)]
    extra = len(s.hands[side]) - HAND_LIMIT
    if s.phase == DISCARD and s.active == side and extra > 0:
        # the discard is owed now: say how, first, before the orders and the unplayable cards
        which = "one" if extra == 1 else f"{extra}"
        lines.append(
            f"You are {extra} over five: tap **Discard…** under the board and choose {which} to discard."
            if tapping
            else f"You are {extra} over five: discard {which} now (`discard …`)."
        )
    if s.options.open_hands:
        lines.append(_hand_line(view, other(side), own=False))
    orders = s.orders[side]
    lines.append(
        f"Standing orders: {NEGATE_WORDS[orders['negate']]}; {LOSS_WORDS[orders['losses']]}."
        + (
            " Change them with **Standing orders…** under the board at any time."
            if tapping
            else " Change them with `orders …` at any time."
        )
    )
    useless = [f"{c.name} ({why})" for c in dict.fromkeys(s.hands[side]) if (why := _unplayable(s, side, c))]
    if useless:
        lines.append(f"Cards you cannot play (discard them when over five): {', '.join(useless)}.")
    return "\n".join(lines)


def _unplayable(s: State, side: str, c: Card) -> str | None:
    """Why `side` can never play `c` (the other side's card, or nobody left alive to use it), or None."""
    if not c.usable_by(side):
        return f"for the {TITLE[c.only or other(side)]} only"
    if c.kind != ATTACK:
        return None
    kinds = {unit_kind(u) for u in side_units(side) if s.alive[u]}
    if kinds & set(c.users):
        return None
    if len(c.users) > 1:
        return "none of your men left can use it"
    k = c.users
    if FORCE[k] == 1:
        return f"your {SINGULAR[k]} has fallen"
    return f"{'both' if FORCE[k] == 2 else 'all'} your {PLURAL[k]} have fallen"


def _hand_line(view: View, side: str, *, own: bool) -> str:
    cards = view.state.hands[side]
    n = len(cards)
    noun = "card" if n == 1 else "cards"
    who = "Your hand" if own else f"The {TITLE[side]}' hand"
    if not cards:
        return f"{who} is empty."  # not "(0 cards): no cards"
    return f"{who} ({n} {noun}): {cards_words(cards)}."
