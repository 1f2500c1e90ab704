"""Why Block Wars refuses an action, in words, and the legal actions a refusal offers.

Kept apart from the rules (state.py) because it only reads a position. `State.apply` calls it
when it refuses an action or reads a bare square as the answer it stands for; state.py imports it
where it does (this module reads state.py's tables).
"""

from __future__ import annotations

from engine.blockwars import actions as A
from engine.blockwars.actions import Action
from engine.blockwars.model import MACHINE_GUN, TANK, Side, unit_kind, unit_side
from engine.blockwars.squares import NEIGHBOURS, SQUARE_NAMES, rank_of
from engine.blockwars.state import (
    _BARRAGES,
    _REINFORCE,
    _STRAFES,
    DECISION_LABELS,
    MG_LINES,
    PLAY,
    SETUP,
    TANK_ID,
    TANK_LINES,
    Decision,
    State,
    _and,
    _either,
    tank_squares,
)
from engine.errors import IllegalAction


def hint(state: State, action: Action) -> list[Action]:
    src = getattr(action, "src", None)
    if (
        isinstance(src, int)
        and 0 <= src < len(SQUARE_NAMES)
        and state.pending is None
        and state.phase == PLAY
    ):
        own = state.legal_for(src)
        if own:
            return own[:12]
    legal = state._legal_list()
    return legal[:12]


def from_square(state: State, at: int) -> Action:
    """The decision's answer on square `at` ("a8" means `R@a8`), or a refusal saying what to type."""
    name_ = SQUARE_NAMES[at]
    if state.phase == SETUP:
        raise IllegalAction(explain(state, A.END), [A.intern(A.Setup())])
    d = state.pending
    if d is None:
        own = state.legal_for(at)
        if own:
            raise IllegalAction(
                f"A square alone is not an action: say what the unit on {name_} does, e.g. `{own[0]}`.",
                own[:12],
            )
        raise IllegalAction(
            "A square alone is not an action: a move names two squares (`e2-e3`), an attack its "
            "target too (`e4xe5`).",
            state._legal_list()[:12],
        )
    legal = state._decision_actions(d)
    here = [a for a in legal if getattr(a, "at", getattr(a, "target", None)) == at]
    if d.kind == "barrage":
        return _BARRAGES[at]  # gas must be declared (`gas e4`), so a bare square is the ordinary one
    if len(here) == 1:
        return here[0]
    if len(here) > 1:
        raise IllegalAction(f"Say which unit comes to {name_}: {_either([str(a) for a in here])}.", here)
    if d.kind == "ace":
        return _REINFORCE[at]  # refused below with the reason and the legal squares
    if d.kind == "strafe":
        return _STRAFES[at]
    raise IllegalAction(
        f"The {DECISION_LABELS[d.kind]} is not answered with a square: {d.question(legal)}",
        legal,
    )


def refusal_words(state: State, action: Action) -> str:
    """`_explain`, for an action the legal list does not hold: one built in code may name a square
    off the board or fields no notation gives (issue 22); it is refused all the same."""
    squares = [
        v for f in ("src", "dst", "target", "via", "at") if isinstance(v := getattr(action, f, None), int)
    ]
    if any(not 0 <= sq < len(SQUARE_NAMES) for sq in squares):
        return "That square is not on the board: squares run from a1 to h8."
    try:
        return explain(state, action)
    except (IndexError, KeyError, ValueError):
        return f"'{action}' is not a legal action now."


def explain(state: State, action: Action) -> str:
    """Say why `action` is not legal now, in a player's words."""
    side = state.current_player()
    assert side is not None
    if state.phase == SETUP:
        return f"The {side.title} must deploy first: `setup std`, or `setup <back>/<second>/<guns>`."
    if state.pending is not None:
        return explain_answer(state, state.pending, action)
    if isinstance(action, (A.Barrage, A.Fly, A.Dogfight, A.Strafe, A.UseCross, A.Decline)):
        return (
            "There is no decision waiting for that answer: it is your turn to move, attack, fire, "
            "reinforce or `end` it."
        )
    if isinstance(action, A.Move | A.Attack):
        return explain_unit(state, side, action)
    if isinstance(action, A.TankMove | A.TankFire):
        return explain_tank(state, side, action)
    if isinstance(action, A.Reinforce):
        return explain_reinforce(state, side, action)
    return "That is not legal now."


def explain_answer(state: State, d: Decision, action: Action) -> str:
    """Why an answer does not fit the pending decision, and what does."""
    legal = state._decision_actions(d)
    ask = d.question(legal)
    fits = {
        "barrage": A.Barrage,
        "ace": A.Reinforce,
        "fly": A.Fly,
        "dogfight": A.Dogfight | A.Decline,
        "strafe": A.Strafe | A.Decline,
        "cross": A.UseCross | A.Decline,
    }[d.kind]
    if isinstance(action, A.Decline):
        return f"The {DECISION_LABELS[d.kind]} cannot be declined: {ask}"
    if not isinstance(action, fits):
        return f"First finish the {DECISION_LABELS[d.kind]}: {ask}"
    if isinstance(action, A.Barrage):  # only gas can be refused
        if d.side is not Side.GERMANS:
            return "Only the Germans have poison gas. Answer `barrage <square>`, e.g. `barrage e4`."
        return (
            "The poison gas is used up (it is once a game). Answer `barrage <square>` for an "
            "ordinary barrage, e.g. `barrage e4`."
        )
    if isinstance(action, A.Fly | A.Dogfight):
        return f"Aircraft {action.aircraft} has been destroyed. {ask[0].upper()}{ask[1:]}"
    if isinstance(action, A.Strafe):
        occ = state.board[action.target]
        t = SQUARE_NAMES[action.target]
        why = (
            f"there is no enemy unit on {t}"
            if occ is None or unit_side(occ) is d.side
            else "the tank cannot be strafed"
        )
        return f"Aircraft {d.data['aircraft']} cannot strafe {t}: {why}. {ask[0].upper()}{ask[1:]}"
    assert isinstance(action, A.Reinforce)
    return f"{explain_ace(state, d.side, action)} {ask[0].upper()}{ask[1:]}"


def explain_ace(state: State, side: Side, action: A.Reinforce) -> str:
    """Why the Ace cannot bring `action`'s unit (R12, R13)."""
    reserve_inf = any(u[1] == "I" for u in state.reserves[side])
    if action.tank:
        if side is not Side.CANADIANS:
            return "The Germans have no tank."
        if TANK_ID not in state.reserves[side]:
            return "The tank is not in reserve, and a destroyed tank never returns."
        if not 0 <= action.at <= 6:
            return "The tank arrives on ranks 1 and 2: give its lower-left square, a1 to g1."
        busy = [SQUARE_NAMES[s] for s in tank_squares(action.at) if state.board[s] is not None]
        return f"The tank needs four empty squares: {_and(busy)} {'is' if len(busy) == 1 else 'are'} taken."
    if action.gun:
        if reserve_inf:
            return "A machine gun comes back only once no infantry is left in reserve."
        if not any(u[1] == "M" for u in state.casualties[side]):
            return "None of your machine guns has fallen."
    elif not reserve_inf and not any(u[1] == "I" for u in state.casualties[side]):
        return "You have no infantry left, in reserve or among the casualties."
    if rank_of(action.at) != side.back_rank:
        return f"The Ace's reinforcement arrives on your back row (rank {side.back_rank + 1})."
    return f"{SQUARE_NAMES[action.at]} is occupied."


def explain_unit(state: State, side: Side, action: A.Move | A.Attack) -> str:
    src = action.src
    sq = SQUARE_NAMES[src]
    uid = state.board[src]
    if uid is None:
        return f"There is no unit on {sq}."
    if unit_side(uid) is not side:
        return f"The unit on {sq} is not yours."
    kind = unit_kind(uid)
    if kind == TANK:
        return "Command the tank with T+ / T- (move) or Tx<square> (fire)."
    if kind == MACHINE_GUN:
        if isinstance(action, A.Move) or action.via is not None:
            return "Machine guns cannot move."
        return explain_fire(state, side, uid, src, action.target)
    if uid in state.moved:
        return f"The infantry on {sq} has already moved or attacked this turn."
    dst = action.dst if isinstance(action, A.Move) else action.via
    if dst is not None:
        if dst not in NEIGHBOURS[src]:
            return f"Infantry moves one square in any direction; {SQUARE_NAMES[dst]} is not next to {sq}."
        if (there := state.board[dst]) is not None:
            if unit_side(there) is side:
                return f"{SQUARE_NAMES[dst]} is occupied."
            return (  # a newcomer moving onto an enemy meant to attack it: say how
                f"{SQUARE_NAMES[dst]} is occupied by {_enemy(there)}; to attack it, "
                f"`{sq}x{SQUARE_NAMES[dst]}`."
            )
    if isinstance(action, A.Attack):
        if uid in state.entered:
            return f"The infantry on {sq} arrived this turn and cannot attack until your next turn."
        here = dst if dst is not None else src
        target = state.board[action.target]
        if action.target not in NEIGHBOURS[here]:
            return (
                f"Infantry attacks a neighbouring square only; {SQUARE_NAMES[action.target]} "
                f"is not next to {SQUARE_NAMES[here]}."
            )
        if target is None:
            return f"There is nothing to attack on {SQUARE_NAMES[action.target]}."
        if unit_side(target) is side:
            return f"The unit on {SQUARE_NAMES[action.target]} is your own."
    return "That is not legal now."


def _enemy(uid: str) -> str:
    """'German infantry', 'a Canadian machine gun', 'the Canadian tank'."""
    kind = unit_kind(uid)
    article = "" if kind != MACHINE_GUN and kind != TANK else "a " if kind == MACHINE_GUN else "the "
    return f"{article}{unit_side(uid).adjective} {kind}"


def explain_fire(state: State, side: Side, uid: str, src: int, target: int) -> str:
    gun = f"The machine gun on {SQUARE_NAMES[src]}"
    t = SQUARE_NAMES[target]
    if uid in state.entered:
        return f"{gun} arrived this turn and cannot fire yet."
    occ = state.board[target]
    if occ is None:
        return f"There is nothing to fire at on {t}."
    if unit_side(occ) is side:
        return f"The unit on {t} is your own."
    if occ == TANK_ID:
        return "Machine guns cannot fire at the tank."
    for line_target, block in MG_LINES[side][src]:
        if line_target == target:
            in_way = [SQUARE_NAMES[b] for b in block if state.board[b] is not None]
            verb = "is" if len(in_way) == 1 else "are"
            return f"{gun} cannot see {t}: {' and '.join(in_way)} {verb} in the way."
    return (
        f"{gun} cannot reach {t}: it fires up to two squares ahead, within 45 degrees either side of "
        "straight ahead."
    )


def explain_tank(state: State, side: Side, action: A.TankMove | A.TankFire) -> str:
    if side is not Side.CANADIANS:
        return "The Germans have no tank."
    if TANK_ID not in state.pos:
        return "The tank is not on the board."
    if isinstance(action, A.TankMove):
        if state.actions_left < 2:
            return "Moving the tank takes both actions; you have one left this turn."
        why = state._tank_move_block(action.forward)
        return f"The tank cannot move {'forward' if action.forward else 'back'}: {why}."
    if TANK_ID in state.entered:
        return "The tank arrived this turn and cannot fire yet."
    occ = state.board[action.target]
    t = SQUARE_NAMES[action.target]
    if occ is None or unit_side(occ) is side:
        return f"There is no enemy unit on {t}."
    own = tank_squares(state.pos[TANK_ID])
    blocks = [b for s in own for target, block in TANK_LINES[s] if target == action.target for b in block]
    if not blocks and not any(target == action.target for s in own for target, _ in TANK_LINES[s]):
        return (
            f"The tank's machine gun cannot reach {t}: it fires up to two squares from any of the "
            "tank's four squares."
        )
    in_way = sorted({b for b in blocks if state.board[b] is not None and b not in own})
    names = [SQUARE_NAMES[b] for b in in_way]
    verb = "is" if len(names) == 1 else "are"
    return f"The tank's machine gun cannot see {t}: {_and(names)} {verb} in the way."


def explain_reinforce(state: State, side: Side, action: A.Reinforce) -> str:
    if action.gun:
        return (
            "A machine gun comes back only when an Ace is drawn and no infantry is left in reserve "
            "(M@<square>, in answer to the Ace)."
        )
    if state.actions_left < 2:
        return "A reinforcement takes both actions; you have one left this turn."
    if action.tank:
        if side is not Side.CANADIANS:
            return "The Germans have no tank."
        if TANK_ID not in state.reserves[side]:
            return "The tank is not in reserve (it is on the board or was destroyed, and never returns)."
        if not 0 <= action.at <= 6:
            return "The tank arrives on rows 1 and 2: give its lower-left square on row 1, a1 to g1."
        busy = [SQUARE_NAMES[s] for s in tank_squares(action.at) if state.board[s] is not None]
        return f"The tank needs four empty squares: {_and(busy)} {'is' if len(busy) == 1 else 'are'} taken."
    if not any(u[1] == "I" for u in state.reserves[side]):
        return "You have no infantry left in reserve."
    if rank_of(action.at) != side.back_rank:
        return f"Reinforcements arrive on your back row (rank {side.back_rank + 1})."
    return f"{SQUARE_NAMES[action.at]} is occupied."
