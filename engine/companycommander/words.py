"""Company Commander in words: what to do now, actions for buttons and autocomplete, the hand (the
game's `words`: every function takes the view, `engine.protocol.Words`).

Everything here that reaches the channel (statuses, group labels) is built from public facts only:
the units, the phase and hand *sizes*, never a hand's cards.
"""

from __future__ import annotations

from engine.companycommander import actions as A
from engine.companycommander.model import (
    ADJECTIVES,
    FRONT_LETTERS,
    FRONT_NAMES,
    FRONTS,
    HAND_LIMIT,
    LETTERS,
    TACTICS,
    TITLES,
    TYPES,
    TacticsCard,
    Unit,
    and_list,
    at_front,
    cards_words,
    other,
    plural,
)
from engine.companycommander.state import ASSAULT, DEPLOY, DISCARD, FIRE, RECON, State
from engine.companycommander.view import View
from engine.protocol import Action

PLAYER = "{player}"
# The Ambush card's words in an edition-1 game (H3, H4: it held against every Assault at its front).
AMBUSH_EDITION_1 = "every enemy Assault on your units at one front, until your next turn, is at -3"


def unit_words(u: Unit) -> str:
    """'Rifle squad A7 in the Center (Pinned, 1 Casualty)': what a player needs to pick it."""
    where = "arriving" if u.front < 0 else at_front(u.front)
    marks = []
    if u.pinned:
        marks.append("Pinned")
    if u.cas:
        marks.append(plural(u.cas, "Casualty", "Casualties"))
    tail = f" ({', '.join(marks)})" if marks else ""
    return f"{u.type.name} {u.label} {where}{tail}"


def status(view: View, side: str) -> str:
    """What `side` must do now, from public facts only (it is posted in the channel)."""
    s = view.state
    who = f"{PLAYER} ({TITLES[side]})"
    if s.active != side:
        return f"{who}: wait for the {TITLES[other(side)]}."
    head = f"{who}, round {s.round}"
    if s.phase == DEPLOY:
        steps = []
        waiting = s.arriving(side)
        if waiting:
            names = and_list([u.label for u in waiting])
            steps.append(f"deploy {names} to your fronts (`deploy {waiting[0].label} C`)")
        if extra_open(view, side):
            decks = [f"`extra {d}`" for d, left in (("squad", s.squad[side]), ("tactics", True)) if left]
            if s.extra_optional:
                steps.append(
                    f"take your Company Commander's extra card if you want it ({', '.join(decks)}, "
                    "or `extra none` to go without)"
                )
            else:  # edition 1: the extra card is always taken
                steps.append(f"take your Company Commander's extra card ({' or '.join(decks)})")
        if any(isinstance(a, A.Move) for a in s.legal_actions(side)):
            steps.append("move units to a neighbouring front if you like (`move …`)")
        steps.append(f"{'then ' if steps else ''}`tactics` to draw your two Tactics cards")
        return f"{head}, Deploy phase: {'; '.join(steps)}."
    if s.phase == DISCARD:
        n = view.hand_counts[side]
        extra = n - HAND_LIMIT
        which = "one" if extra == 1 else f"the {extra}"  # Discord names the button by "discard"
        return (
            f"{who}: you hold {n} Tactics cards, {extra} over seven: choose {which} to discard (`discard …`)."
        )
    # Public facts only: which units can act shows on the board; the hand's cards do not.
    legal = [a for a in s.legal_actions(side) if not isinstance(a, A.Play)]
    parts = []
    recon = [a.unit for a in legal if isinstance(a, A.Recon)]
    if recon:
        parts.append(
            f"Recon missions by {and_list(list(dict.fromkeys(recon)))} "
            f"(`recon {recon[0]} look` or `recon {recon[0]} mark`)"
        )
    fire = [a.unit for a in legal if isinstance(a, A.Fire)]
    if fire:
        parts.append(f"Suppression fire by {and_list(fire)} (`fire {fire[0]}`)")
    hits = [a.unit for a in legal if isinstance(a, A.Assault)]
    if hits:
        parts.append(f"assaults by {and_list(hits)} (`assault {hits[0]}`)")
    name = {RECON: "Recon", FIRE: "Suppression", ASSAULT: "Assault"}[s.phase]
    cards = " You may also play Tactics cards (`play …`)." if view.hand_counts[side] else ""
    if not parts:
        return f"{head}, {name} phase: none of your units can act now; `end` your turn.{cards}"
    return f"{head}, {name} phase: next, in this order, {'; then '.join(parts)}; then `end` your turn.{cards}"


def extra_open(view: View, side: str) -> bool:
    """`State._extra_open` from a view: a spectator's view holds no Tactics deck (its order is
    secret), so its count stands in."""
    s = view.state
    return s.extra and bool(s.squad[side] or view.tactics_count or s.tactics_discard)


def describe(view: View, action: Action) -> str:
    """An action in words, for buttons and autocomplete (under 100 characters: a test holds it)."""
    state = view.state
    if isinstance(action, A.Draw):
        return "Done deploying: draw 2 Tactics cards"
    if isinstance(action, A.End):
        return "End your turn (Pinned units then roll to rally)"
    if isinstance(action, A.Extra):
        if action.deck == "none":
            return "Go without your Company Commander's extra card this turn"
        return f"Company Commander's extra card: a {action.deck.title()} card"
    if isinstance(action, A.Discard):
        return f"Discard {action.card.name}"
    if isinstance(action, A.Play):
        return _play_words(state, action)
    u = state.unit(getattr(action, "unit", ""))
    if u is None:
        return str(action)
    name = f"{u.type.name} {u.label}"
    them = ADJECTIVES[other(u.side)]
    if isinstance(action, A.Deploy):
        return f"Deploy {name} {at_front(action.front)}"
    if isinstance(action, A.Move):
        src, dst = FRONT_NAMES[u.front], FRONT_NAMES[action.front]
        return f"Move {name} from the {src} to the {dst} (no attack this turn)"
    across = f"the {them} {FRONT_NAMES[u.front]}"
    count = len(state.at(other(u.side), u.front))
    if isinstance(action, A.Recon):
        why = "look at their hand" if action.choice == "look" else "+1 to your fire there"
        return f"{name}: Recon mission into {across}; if it succeeds, {why}"
    if isinstance(action, A.Fire):
        bonus = f", +{u.type.fire_bonus}" if u.type.fire_bonus else ""
        return f"{name} fires at {across} ({plural(count, 'unit')} there{bonus})"
    if isinstance(action, A.Assault):
        pool = state.assault_targets(u)  # (H15) the Pinned ones across, if any (edition 2)
        if len(pool) == count:
            return f"{name} assaults {across} ({plural(count, 'unit')} there, one at random)"
        if len(pool) == 1:
            return f"{name} assaults {across} (the Pinned {pool[0].label} there)"
        return f"{name} assaults {across} (a random one of the {len(pool)} Pinned there)"
    return str(action)


def _play_words(state: State, action: A.Play) -> str:
    c = action.card
    side = state.active
    if c.kind == "support":
        assert action.front is not None
        count = len(state.at(other(side), action.front))
        them = ADJECTIVES[other(side)]
        return (
            f"Play {c.name} on the {them} {FRONT_NAMES[action.front]} "
            f"({plural(c.rolls, 'roll')} against {plural(count, 'unit')})"
        )
    if c.code == "rally":
        assert action.front is not None
        pinned = [u.label for u in state.at(side, action.front) if u.pinned]
        return f"Play Rally {at_front(action.front, 'your')}: {and_list(pinned)} no longer Pinned"
    if c.code == "ambush":
        assert action.front is not None
        lasts = (
            "the next enemy Assault there"
            if state.ambush_once
            else "every enemy Assault there until your next turn"
        )
        return f"Play Ambush {at_front(action.front, 'your')}: {lasts} is at −3"
    if c.code == "medic":
        u = state.unit(action.unit or "")
        what = f"{u.type.name} {u.label}" if u else action.unit
        return f"Play Medic on {what}: one Casualty marker off"
    if c.code == "surprise":
        return "Play Surprise Attack: +3 to your next Assault roll this turn"
    if c.code == "reinforcements":
        return "Play Reinforcements: draw 2 more Squad cards to deploy"
    return str(action)


VERBS: dict[type, str] = {
    A.Deploy: "deploy",
    A.Move: "move",
    A.Extra: "extra",
    A.Draw: "tactics",
    A.Discard: "discard",
    A.Recon: "recon",
    A.Fire: "fire",
    A.Play: "card",
    A.Assault: "assault",
    A.End: "end",
}


def verb_of(view: View, action: Action) -> str:
    return VERBS.get(type(action), "play")


def group_of(view: View, action: Action) -> str | None:
    """A unit's actions group under its label, a card's plays under the card, discards together."""
    if isinstance(action, A.Deploy | A.Move | A.Recon | A.Fire | A.Assault):
        return action.unit
    if isinstance(action, A.Play):
        return action.card.code  # no ':' (it goes into a component's custom id)
    if isinstance(action, A.Discard):
        return "discard"
    if isinstance(action, A.Extra):
        return "extra"
    return None


def group_label(view: View, group: str) -> str:
    if group == "discard":
        return "Discard a Tactics card"
    if group == "extra":
        return "Company Commander's extra card"
    if group in TACTICS:
        return f"{TACTICS[group].name} card"
    u = view.state.unit(group)
    return unit_words(u) if u is not None else group


def private_text(view: View, *, tapping: bool = False) -> str | None:
    """The viewer's hand in words, each card with what it does and, for a player who types, how
    to play it; one who taps is told the buttons instead (Take action, then the card)."""
    side = view.viewer
    if side is None:
        return None
    cards = view.state.hands[side]
    if not cards:
        return "Your hand is empty."
    lines = [f"Your hand ({plural(len(cards), 'card')}): {cards_words(cards)}."]
    for c in dict.fromkeys(cards):
        text = c.text if c.code != "ambush" or view.state.ambush_once else AMBUSH_EDITION_1
        form = "" if tapping else f" ({_play_form(view, c)})"
        lines.append(f"- {c.name}{form}: {text}.")
    extra = len(cards) - HAND_LIMIT
    if view.state.phase == DISCARD and extra > 0:
        # the discard is owed now: Take action is not under the board, Discard… is
        which = "one" if extra == 1 else f"{extra}"
        lines.append(
            f"You are {extra} over seven: tap **Discard…** under the board and choose {which} to discard."
            if tapping
            else f"You are {extra} over seven: discard {which} now (`discard …`)."
        )
    elif tapping:
        lines.append(
            "To play one on your turn, tap **Take action** under the board, pick the card, then how "
            "it is played."
        )
    return "\n".join(lines)


def _play_form(view: View, card: TacticsCard) -> str:
    """How to play `card`, whole, as it may be typed (issue 31): the front or unit it names filled
    in from the table (a front across from the enemy, a unit of the player's), the others said."""
    s, side = view.state, view.viewer
    assert side is not None
    if card.target == "front":
        if card.kind == "support":  # an enemy front
            fits = [f for f in FRONTS if s.enemy_at(side, f)]
        else:  # a front of the player's: with a Pinned unit for Rally
            fits = [f for f in FRONTS for u in s.at(side, f) if u.pinned or card.code != "rally"]
        front = FRONT_LETTERS[fits[0] if fits else 1]
        return f"`play {card.code} {front}`; L, C or R"
    if card.target == "unit":
        mine = sorted(s.in_play(side), key=lambda u: (not u.cas, int(u.label[1:])))
        label = mine[0].label if mine else f"{LETTERS[side]}1"
        return f"`play {card.code} {label}`, naming your unit"
    return f"`play {card.code}`"


def type_words(key: str) -> str:
    t = TYPES[key]
    gifts = []
    if t.fires:
        gifts.append("long-range fire" + (f" (+{t.fire_bonus})" if t.fire_bonus else ""))
    if t.recon:
        gifts.append("Recon")
    if t.assault_bonus:
        gifts.append(f"+{t.assault_bonus} to its assaults")
    if t.commander:
        gifts.append("an extra card each turn, +1 to rallies beside it")
    return f"{t.name}, Strength {t.strength}" + (f": {', '.join(gifts)}" if gifts else "")


__all__ = [
    "describe",
    "extra_open",
    "group_label",
    "group_of",
    "private_text",
    "status",
    "type_words",
    "unit_words",
    "verb_of",
]
