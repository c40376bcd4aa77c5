"""[Move Actions] of seed 002: run (SPE), sprint (SPE + 2), shift (1), crawl (SPE / 4, prone),
the second move action (6 STA, at most two a round), standing up and dropping prone,
and the movement conditions (immobilized, grappled, slowed, frightened, broken).
"""

from __future__ import annotations

import msgspec

from domain.dice import Dice
from domain.errors import RuleViolation
from domain.rulesets.tactical.commands import Move
from domain.rulesets.tactical.conditions import can_act, speed
from domain.rulesets.tactical.events import Moved
from domain.rulesets.tactical.fear import check_steps, step_test
from domain.rulesets.tactical.geometry import Metric, adjacent, in_bounds
from domain.rulesets.tactical.hidden import unseen_squares
from domain.rulesets.tactical.model import Char, Square, State
from domain.rulesets.tactical.modifiers import square_hidden
from domain.rulesets.tactical.movement import path as find_path
from domain.rulesets.tactical.movement import step_cost
from domain.rulesets.tactical.pools import after_loss
from domain.rulesets.tactical.rules import (
    R_CONDITIONS,
    R_MOVE,
    R_STAMINA_ACTIONS,
    Run,
    char,
    ensure_active,
    need_sta,
)
from domain.rulesets.tactical.squares import SquareTest
from domain.rulesets.tactical.walking import walk

__all__ = [
    "MoveBudget",
    "blocked_for",
    "budget",
    "corner_blockers",
    "corner_problem",
    "enterable",
    "grappling",
    "move",
    "move_budget",
    "route",
]


def budget(c: Char, mode: str) -> int:
    """Squares a move action gives ([Move Actions]; A33: halve SPE first)."""
    spe = speed(c)
    if mode == "shift":
        return 1
    if mode == "crawl":
        return spe // 4
    if mode == "sprint":
        return spe + 2
    return spe


def blocked_for(state: State, c: Char) -> set[Square]:
    """A47: squares `c` may not pass: blocking terrain, standing structures, enemies;
    but not an enemy `c` cannot see (hidden.py: the walk stops when it meets one)."""
    blocked: set[Square] = set(state.board.blocks_move)
    for sq, sid in state.built.items():
        if state.structures[sid].blocks_move:
            blocked.add(sq)
    hostile = state.board.hostile[c.side]
    for sq, cid in state.occupied.items():
        if state.chars[cid].side in hostile:
            blocked.add(sq)
    return blocked - unseen_squares(state, c)


def corner_blockers(state: State, blocked: set[Square]) -> set[Square]:
    """A47 corners: the squares that block a diagonal step past them: blocking terrain and
    structures, and the enemies in `blocked` unless `creatures_block_corners` is off."""
    if state.options.creatures_block_corners:
        return blocked
    walls = set(state.board.blocks_move)
    walls.update(sq for sq, sid in state.built.items() if state.structures[sid].blocks_move)
    return blocked & walls


def corner_problem(prev: Square, sq: Square, pinch: set[Square], rule: str) -> str | None:
    """A47 "no cutting corners past blocking squares", for one step of a given path: the
    two squares a diagonal step passes between, under `corner_rule` (RULINGS)."""
    if prev[0] == sq[0] or prev[1] == sq[1] or rule == "allowed":
        return None
    sides = [q for q in ((sq[0], prev[1]), (prev[0], sq[1])) if q in pinch]
    if len(sides) == 2 or (sides and rule == "no_corner"):
        return (
            f"the step from {list(prev)} to {list(sq)} cuts the corner of "
            f"{' and '.join(str(list(q)) for q in sides)} (A47, corner_rule {rule})"
        )
    return None


def grappling(state: State, cid: str) -> bool:
    for c in state.chars.values():
        g = c.condition("grappled")
        if g is not None and g.source == cid and not c.dead:
            return True
    return False


def _step_cost(prev: Square, nxt: Square, metric: Metric, diagonals: int) -> tuple[int, int]:
    """The cost of one step and the diagonals taken so far: movement.step_cost, the cost
    the path search counts (A46), so that a path it finds is never refused for its cost."""
    diagonal = prev[0] != nxt[0] and prev[1] != nxt[1]
    return step_cost(diagonal, metric, diagonals), diagonals + diagonal


class MoveBudget(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """What a move action of `c` may spend before its path is checked: the squares `left`
    once standing up or dropping prone is paid, whether it `stood` up, the `sta` a second
    move costs first. reach.py answers from it too, so that a VTT's highlighted squares
    and decide's refusals come from the same checks."""

    left: int
    stood: bool
    sta: int


def move_budget(st: State, c: Char, cmd: Move) -> MoveBudget:
    """The checks of [Move Actions] before the path (RuleViolation citing the section)."""
    ensure_active(st, c)
    why = can_act(c)
    if why is not None:
        raise RuleViolation(why, rule=R_MOVE)
    for name in ("immobilized", "grappled"):
        if c.has(name):
            raise RuleViolation(f"{c.id} is {name}: no move actions", rule=R_CONDITIONS)
    if c.moves >= 2:
        raise RuleViolation("at most two move actions a round", rule=R_STAMINA_ACTIONS)
    sta = 0
    if c.moves == 1:
        if c.has("dazed"):
            raise RuleViolation(f"{c.id} is dazed: no stamina actions", rule=R_CONDITIONS)
        sta = 6
        need_sta(st, c, sta, "a second move action")
    prone = c.has("prone")
    if cmd.mode == "crawl" and not prone:
        raise RuleViolation("you must be prone to crawl", rule=R_MOVE)
    o = st.options
    left = budget(c, cmd.mode)
    if grappling(st, c.id) and cmd.mode != "shift":
        left //= 2  # [Grappled]: the grappler moves at half speed, dragging its foe
    stood = False
    if prone and cmd.mode != "crawl":
        if not cmd.stand_up:
            raise RuleViolation(
                "prone: the only move action is crawl (or stand up first)", rule=R_CONDITIONS
            )
        if cmd.mode == "shift":
            raise RuleViolation("standing up takes 2 squares of movement", rule=R_CONDITIONS)
        left = left - o.stand_cost if o.stand_up == "two_squares" else 0
        stood = True
    if cmd.drop_prone:
        if prone:
            raise RuleViolation(f"{c.id} is already prone", rule=R_CONDITIONS)
        left -= o.stand_cost
    if left < 0:
        raise RuleViolation("not enough movement to stand up or drop prone", rule=R_CONDITIONS)
    return MoveBudget(left=left, stood=stood, sta=sta)


def enterable(
    st: State, c: Char, blocked: set[Square], goal: Square, unseen: set[Square] | None = None
) -> str | None:
    """Why `c` may not end a move on `goal` (None: it may): off the map, blocking, occupied
    by a creature it can see (A47). A creature it cannot see does not count (hidden.py);
    `unseen` (default: those `c` cannot see) are the squares of such creatures."""
    if goal == c.pos:
        return None
    if goal in blocked or not in_bounds(goal, st.board.width, st.board.height):
        return f"{list(goal)} cannot be entered"
    if unseen is None:
        unseen = unseen_squares(st, c)
    if goal in st.occupied and goal not in unseen:
        return f"{list(goal)} is occupied (A47)"
    return None


def move(run: Run, cmd: Move, dice: Dice) -> None:
    st = run.state
    c = char(st, cmd.character)
    b = move_budget(st, c, cmd)
    left, stood, sta, o = b.left, b.stood, b.sta, st.options
    goal = (cmd.to[0], cmd.to[1])
    blocked = blocked_for(st, c)
    why = enterable(st, c, blocked, goal)
    if why is not None:
        raise RuleViolation(why, rule=R_MOVE)
    path = route(st, c, goal, cmd, blocked, left)
    check_steps(st, c, path)  # [Conditions] Frightened (A31)
    costs = _step_costs(c.pos, path, o.metric)
    standing = o.stand_cost if stood or cmd.drop_prone else 0
    if sta:
        run.emit(  # the 6 STA of a second move are spent before it starts
            Moved(
                character=c.id,
                mode=cmd.mode,
                path=(),
                cost=0,
                sta_spent=sta,
                move_action=False,
                hidden_side=c.side if c.has("invisible") else None,  # as the move it pays for
            )
        )
        after_loss(run, c.id, "STA", c.STA.cur, "a second move action")
    first = Moved(
        character=c.id,
        mode=cmd.mode,
        path=(),
        cost=standing,  # walk adds each part's squares
        stood_up=stood,
        dropped_prone=cmd.drop_prone,
        # its side's while its square is (0.5.0: a glimpsed one, §4, is only concealed: seen
        # moving, as the windows it opens are public; its STA payment above stays its side's)
        hidden_side=c.side if square_hidden(c) else None,
    )
    walk(run, first, path, costs=costs)


def _step_costs(start: Square, path: list[Square], metric: Metric) -> list[int]:
    """What entering each square of `path` costs, in order (A46: the diagonals alternate)."""
    out: list[int] = []
    diagonals = 0
    prev = start
    for sq in path:
        step, diagonals = _step_cost(prev, sq, metric, diagonals)
        out.append(step)
        prev = sq
    return out


def _cost(start: Square, path: list[Square], metric: Metric) -> int:
    return sum(_step_costs(start, path, metric))


def route(
    st: State, c: Char, goal: Square, cmd: Move, blocked: set[Square], left: int
) -> list[Square]:
    """The squares entered: the command's path checked, or a shortest path found."""
    if goal == c.pos:
        return []
    w, h = st.board.width, st.board.height
    metric = st.options.metric
    if cmd.path is not None:
        steps = [(p[0], p[1]) for p in cmd.path]
        if steps and steps[0] == c.pos:
            steps = steps[1:]
        if not steps or steps[-1] != goal:
            raise RuleViolation("the path must end at `to`", rule=R_MOVE)
        prev = c.pos
        pinch = corner_blockers(st, blocked)
        for sq in steps:
            if not adjacent(prev, sq) or sq in blocked or not in_bounds(sq, w, h):
                raise RuleViolation(f"the path cannot step to {list(sq)}", rule=R_MOVE)
            why = corner_problem(prev, sq, pinch, st.options.corner_rule)
            if why is not None:
                raise RuleViolation(why, rule=R_MOVE)
            prev = sq
        cost = _cost(c.pos, steps, metric)
    else:
        found = find_path(
            c.pos,
            goal,
            SquareTest(lambda sq: sq not in blocked),
            width=w,
            height=h,
            metric=metric,
            max_cost=left,
            corners=st.options.corner_rule,
            blocks_corner=SquareTest(corner_blockers(st, blocked).__contains__),
            step_ok=step_test(st, c),  # [Conditions] Frightened: no step towards the source
        )
        if found is None:
            raise RuleViolation(
                f"{list(goal)} is not reachable with {left} squares of movement", rule=R_MOVE
            )
        steps = list(found)
        if steps and steps[0] == c.pos:
            steps = steps[1:]
        cost = _cost(c.pos, steps, metric)
    if cost > left:
        raise RuleViolation(f"the path costs {cost} squares; {cmd.mode} gives {left}", rule=R_MOVE)
    return steps
