"""Combined Arms in words: statuses, action descriptions, verbs and "Take action" groups.

Presentation only: legality always comes from the state. The game's `words` (`engine.protocol.Words`)
take the view, the helpers the state a view holds (never more than its viewer may know).
"""

from __future__ import annotations

from engine.combinedarms import actions as A
from engine.combinedarms.actions import LAYOUTS
from engine.combinedarms.army import describe_army
from engine.combinedarms.state import ATTACK, DEPLOY, DESIGN, MOVE, NOWHERE, OVER, REINFORCE, State, View

PLAYER = "{player}"


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def unit_at(state: State, name: str) -> int:
    sq = state.g.index.get(name)
    return NOWHERE if sq is None else state.board[sq]


def unit_words(state: State, name: str) -> str:
    uid = unit_at(state, name)
    return "unit" if uid == NOWHERE else state.unit_name(uid)


def status(view: View, side: str) -> str:
    """What `side` must do now, after its player's mention, as one sentence or two."""
    state = view.state
    who = state.side_index(side)
    title = state.title(who)
    if state.phase == OVER:
        return f"{PLAYER} ({title}): the game is over."
    if state.phase == DESIGN:
        example = next(iter(state.rules.presets))
        custom = " ".join(f"{c}{n}" for c, n in state.rules.presets[example].items())
        # An army of one's own is too many choices for Discord's selects (16 units of 8 or 13
        # types): it is typed, and the status says so; `army …` names the button that explains how.
        return (
            f"{PLAYER} ({title}): choose your army in secret, a ready-made one (`army {example}`) or "
            f"your own {state.rules.limits.size} units, typed as letters and counts "
            f"(`army …`, e.g. `army {custom}`)."
        )
    if state.phase == DEPLOY:
        rows = "1-3" if who == 0 else f"{state.g.height}-{state.g.height - 2}"
        return (
            f"{PLAYER} ({title}): deploy your army on ranks {rows}: a ready-made layout (`deploy line`) "
            "or rows of your own, typed in one command (`deploy …`)."
        )
    if state.pending is not None:
        uid, options = state.pending
        names = [state.g.names[s] for s in options]
        return (
            f"{PLAYER} ({title}): your {state.unit_name(uid)} on {state.g.names[state.u_sq[uid]]} must "
            f"retreat; choose {_or(names)} (`retreat {names[0]}`; {names[0]} is the automatic choice)."
        )
    turn = state.taken[who]
    if state.step == REINFORCE:
        return (
            f"{PLAYER} ({title}), turn {turn}: a reinforcement is due; place it on an empty square of "
            f"your back row (e.g. `{_first_reinforce(state)}`)."
        )
    if state.step == MOVE:
        moves = [a for a in state.legal_actions(state.sides[who]) if isinstance(a, A.Move)]
        if not moves:
            return (
                f"{PLAYER} ({title}) to play, turn {turn}, move phase: none of your units can move; "
                "`done` and attack, or `end` your turn."
            )
        left = len({m.src for m in moves})
        return (
            f"{PLAYER} ({title}) to play, turn {turn}, move phase: move any of your units (e.g. "
            f"`{_forward_move(state, who, moves)}`; {plural(left, 'unit')} can still move), then "
            "`done` and attack."
        )
    attacks = [a for a in state.legal_actions(state.sides[who]) if isinstance(a, A.Attack)]
    if not attacks:
        return (
            f"{PLAYER} ({title}), turn {turn}, attack phase: no unit of yours can attack now; `end` "
            "your turn."
        )
    left = len({a.src for a in attacks})
    return (
        f"{PLAYER} ({title}), turn {turn}, attack phase: attack with each unit once (e.g. "
        f"`{attacks[0]}`; {plural(left, 'unit')} can attack now), then `end`."
    )


def _forward_move(state: State, who: int, moves: list[A.Move]) -> A.Move:
    """The example move: the one that gains the most ground towards the enemy (the first such)."""
    index, width = state.g.index, state.g.width
    ahead = 1 if who == 0 else -1

    def gain(m: A.Move) -> int:
        return ahead * (index[m.dst] // width - index[m.src] // width)

    return max(moves, key=gain)


def _first_reinforce(state: State) -> str:
    for a in state.legal_actions(state.sides[state.active]):
        return str(a)
    return "I@a1"


def _or(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]


def verb_of(view: View, action: object) -> str:
    """Which verb plays `action`."""
    if isinstance(action, A.Army):
        return "army"
    if isinstance(action, A.Deploy):
        return "deploy"
    if isinstance(action, A.Move):
        return "move"
    if isinstance(action, A.Attack):
        return "attack"
    if isinstance(action, A.Done):
        return "done"
    if isinstance(action, A.End):
        return "end"
    if isinstance(action, A.Retreat):
        return "retreat"
    if isinstance(action, A.Reinforce):
        return "reinforce"
    if isinstance(action, A.AutoRetreat):
        return "autoretreat"
    return "play"


def describe(view: View, action: object) -> str:
    """One action in words for buttons, selects and autocomplete."""
    state = view.state
    era = state.rules.era
    if isinstance(action, A.Army):
        if action.preset is not None:
            counts = state.rules.presets.get(action.preset)
            extra = f": {describe_army(counts, era)}" if counts else ""
            return f"Army '{action.preset}'{extra}"[:100]
        return f"Army: {describe_army(action.as_dict(), era)}"[:100]
    if isinstance(action, A.Deploy):
        if action.preset is not None:
            return f"Deploy '{action.preset}' ({LAYOUTS.get(action.preset, 'your own')})"
        return f"Deploy {'/'.join(action.rows)}"[:100]
    if isinstance(action, A.Move):
        return f"{unit_words(state, action.src)} {action.src} → {action.dst}"
    if isinstance(action, A.Attack):
        att, tgt = unit_at(state, action.src), unit_at(state, action.dst)
        if att == NOWHERE or tgt == NOWHERE:
            return f"Attack {action.dst} from {action.src}"
        dmg = state.damage_of(att, tgt)
        now = state.u_dmg[tgt] + dmg
        d = state.defense(tgt)
        effect = f" ({_forced(state, tgt)})" if now >= d else f" ({now} of {d} damage)"
        return f"{state.unit_name(att)} {action.src} attacks {state.unit_name(tgt)} {action.dst}{effect}"
    if isinstance(action, A.Done):
        return "Done moving: on to the attacks"
    if isinstance(action, A.End):
        return "End the turn"
    if isinstance(action, A.Retreat):
        auto = ""
        if state.pending is not None and state.g.names[state.pending[1][0]] == action.dst:
            auto = " (automatic choice)"
        return f"Retreat to {action.dst}{auto}"
    if isinstance(action, A.Reinforce):
        t = era.by_code.get(action.code)
        return f"Reinforcement: {t.name if t else action.code} on {action.dst}"
    if isinstance(action, A.AutoRetreat):
        if action.on:
            return "Standing order: my retreats take the automatic square"
        return "Standing order: ask me where each retreat goes"
    return str(action)


def _forced(state: State, target: int) -> str:
    """What an attack that reaches the target's defence does to it (R9-R14, W5): the engine's own
    test (`falls_if_forced`), so a Headquarters with free squares behind it is not said to retreat."""
    fall = state.falls_if_forced(target)
    if fall is None:
        return "forces a retreat"
    why = {
        "double whammy": "a second retreat this turn",
        "base": "a base cannot retreat",
        "cannot move": "a unit that cannot move cannot retreat",
    }.get(fall, "no square to retreat to")
    if state.utype(target).hq:
        return f"destroys it: {why}, and wins the game"
    return f"destroys it: {why}"


def group_of(view: View, action: object) -> str | None:
    """Moves and attacks group by the unit's square; reinforcements by type."""
    if isinstance(action, A.Move | A.Attack):
        return action.src
    if isinstance(action, A.Reinforce):
        return f"+{action.code}"
    return None


def group_label(view: View, group: str) -> str:
    if group.startswith("+"):
        t = view.state.rules.era.by_code.get(group[1:])
        return f"Reinforcement: {t.name if t else group[1:]}"
    return f"{unit_words(view.state, group)} on {group}"


def private_text(view: View, *, tapping: bool = False) -> None:
    """Combined Arms has no hand of cards to tell one player alone."""
    return None


def phase_words(state: State) -> str:
    """A few words for the board's header: whose turn and what phase."""
    if state.phase == DESIGN:
        return "Armies are being chosen in secret"
    if state.phase == DEPLOY:
        who = 0 if not state.deployed[0] else 1
        return f"The {state.title(who)} deploy"
    if state.phase == OVER:
        return "Game over"
    title = state.title(state.active)
    turn = state.taken[state.active]
    if state.pending is not None:
        side = state.u_side[state.pending[0]]
        return f"{title}, turn {turn}: the {state.title(side)} choose a retreat"
    step = {REINFORCE: "reinforcement", MOVE: "move phase", ATTACK: "attack phase"}.get(
        state.step, state.step
    )
    return f"{title}, turn {turn}: {step}"


__all__ = [
    "describe",
    "group_label",
    "group_of",
    "phase_words",
    "plural",
    "private_text",
    "status",
    "verb_of",
]
