"""Movement helpers shared by the movement-phase decide modules of seed 000 (orders, charge,
flight): whether a footprint fits, the gap between armies, the move-action budget, and the
attacks of opportunity movement provokes ("Attacks of Opportunity & Movement").
"""

from __future__ import annotations

from domain.rulesets.skirmish.common import violation
from domain.rulesets.skirmish.geometry import Square, army_squares, threatened
from domain.rulesets.skirmish.model import Army, Provocation, State
from domain.rulesets.skirmish.rules import R_MOVEMENT

__all__ = ["fits", "gap_feet", "passable", "provocations", "use_move_action"]


def passable(state: State, other: Army) -> bool:
    """Whether a move may pass (never end on) `other`'s squares whoever it belongs to: a
    defeated or destroyed army, under `move_through_defeated`."""
    return state.options.move_through_defeated and not other.fighting


def fits(state: State, a: Army, squares: frozenset[Square], *, passing: bool = False) -> str | None:
    """Why `a` cannot stand on `squares` ("off the map", "onto <army>"), or None; `passing`:
    only crossing them on the way, where a `passable` army is no obstacle."""
    b = state.board
    if any(not (0 <= x < b.width and 0 <= y < b.height) for x, y in squares):
        return "off the map"
    for other in sorted(state.armies.values(), key=lambda o: o.id):
        if other.id == a.id or not other.placed or (passing and passable(state, other)):
            continue
        if squares & army_squares(other):
            return f"onto {other.id}"
    return None


def gap_feet(a: Army, b: Army, square_feet: int) -> int:
    """Feet between the nearest squares of two armies (0 when adjacent or overlapping)."""
    best = min(
        max(abs(x1 - x2), abs(y1 - y2)) for x1, y1 in army_squares(a) for x2, y2 in army_squares(b)
    )
    return max(0, best - 1) * square_feet


def use_move_action(a: Army) -> None:
    """Raise unless the army has a move action left (two a round; one after its standard)."""
    if a.moves >= 2 or (a.moves == 1 and a.acted):
        raise violation(f"{a.id} has no move action left this round", R_MOVEMENT)


def provocations(state: State, a: Army, kind: str) -> tuple[Provocation, ...]:
    """ "Attacks of Opportunity & Movement": leaving squares an enemy threatens provokes; when
    both threaten each other the greater reach gets the attack."""
    if kind == "withdraw":
        return ()
    o = state.options
    sf = o.square_feet
    mine = army_squares(a)
    used: dict[str, int] = {}
    for p in state.provoked:
        used[p.attacker] = used.get(p.attacker, 0) + 1
    out: list[Provocation] = []
    for b in sorted(state.armies.values(), key=lambda x: x.id):
        if b.side == a.side or not b.placed or not b.fighting or b.routed:
            continue
        if not threatened(b, b.spec.reach, sf) & mine:
            continue
        mutual = bool(threatened(a, a.spec.reach, sf) & army_squares(b))
        attackers: list[Army] = [b]
        if mutual:
            if a.spec.reach > b.spec.reach:
                attackers = [a]
            elif a.spec.reach == b.spec.reach:
                attackers = {"stationary": [b], "none": [], "both": [b, a]}[o.aoo_equal_reach]
        for att in attackers:
            target = b if att is a else a
            if used.get(att.id, 0) >= att.spec.aoo_per_round:
                continue
            used[att.id] = used.get(att.id, 0) + 1
            out.append(Provocation(provoker=target.id, attacker=att.id))
    return tuple(out)
