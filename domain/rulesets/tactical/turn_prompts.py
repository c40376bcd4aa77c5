"""The rest of what a tactical battle offers, as prompts (issue 34; seed 002): a charge, an
area attack or a wall, a reload and a free action in the active character's turn
(before initiative: setup_prompts.py). awaiting.py lists them beside its own; they are
built the same way: candidate commands that the call's `Probe` found authorize and
decide take from the prompt's side, so a prompt never offers what decide refuses. Where
a cheap copy of decide's first checks skips a probe bound to fail (awaiting runs on every
answer), a wrong copy could hide an answer, never list a refused one. `build`, `choose`
and `when` are the helpers awaiting.py shares.

- "charge:<c>:<target>" ([Standard Actions] Charge): one prompt per foe the actor sees,
  `to` the squares next to it from which decide takes the charge (the default path);
- "area:<c>:<weapon>" ([Ranges]): a blast or line with the directions decide takes, a
  burst with the squares within the weapon's range and in sight (the only checks decide
  makes on the square: range, sight, A31's fear), a close burst with no choice;
- "reload:<c>" ([Standard Actions] Reload), "free:<c>" ([Types] Free: the free actions
  that need no item), "draw:<c>" and "stow:<c>" ([Stamina Actions] Draw/Stow);
- "wall:<c>:<weapon>" ([Ranges] Wall): `sections` lists the origins (within range, in
  sight); the sections are a list of squares, the first one of those listed.

Squares in choices read "x,y". Nothing here names what the actor cannot see: targets come
from the names awaiting.py passes (hidden creatures left out) and candidate squares are
judged by decide, which refuses nothing for an unseen creature standing there.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

import msgspec

from domain.actors import Actor
from domain.errors import DomainError
from domain.prompts import Prompt
from domain.rulesets.tactical.area_attacks import area_squares
from domain.rulesets.tactical.commands import (
    Attack,
    Charge,
    Command,
    FreeAction,
    Reload,
)
from domain.rulesets.tactical.fear import check_area
from domain.rulesets.tactical.geometry import distance, in_bounds
from domain.rulesets.tactical.model import Char, State
from domain.rulesets.tactical.moves import budget
from domain.rulesets.tactical.probe import Probe
from domain.rulesets.tactical.rules import (
    R_RANGES,
    R_STAMINA_ACTIONS,
    R_STANDARD,
    R_TYPES,
)
from domain.rulesets.tactical.walls import R_WALL
from domain.rulesets.tactical.weapons import Weapon, check_range, weapon_of

__all__ = ["build", "choose", "extra_turn", "split_area", "when"]

_DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
_ITEMLESS = ("speak", "inspect", "other", "release")


def build(kind: type[Any], **fields: Any) -> Command:
    """The command of type `kind` with `fields`."""
    return msgspec.convert(fields, kind)  # type: ignore[no-any-return]


def choose(
    pr: Probe, actor: Actor, kind: type[Any], field: str, values: Iterable[Any], **base: Any
) -> list[Any]:
    """The values of `field` with which decide takes the command."""
    return [v for v in values if pr.accepts(build(kind, **{field: v}, **base), actor)]


def when(dice: Sequence[Any], cond: str) -> tuple[Any, ...]:
    """The dice, each marked as needed only under `cond` (unless already marked)."""
    return tuple(msgspec.structs.replace(d, when=d.when or f"if the {cond}") for d in dice)


def _sq(q: tuple[int, int]) -> str:
    return f"{q[0]},{q[1]}"


def _prompt(
    c: Char,
    pid: str,
    kind: type[Any],
    reason: str,
    choices: dict[str, list[str]],
    first: Command,
    me: Actor,
    pr: Probe,
    rule: str,
    cond: str,
) -> Prompt:
    return Prompt(
        id=pid,
        role="side",
        side=c.side,
        subject=c.id,
        commands=(kind.__struct_config__.tag,),
        reason=reason,
        choices=choices,
        dice=when(pr.needs(first, me), cond),
        rule=rule,
    )


def _room(c: Char, t: Char, goal: tuple[int, int], far: int, metric: Any, w: int, h: int) -> bool:
    """Whether decide's default charge path to `goal` may exist: its entry square, 3 back
    from `goal` away from `t`, on the map (or where `c` stands), and reached with 3
    squares to spare in the run (metric distance is the fewest squares; decide's own
    checks, cheaply, before a probe searches the path)."""
    dx = (t.x > goal[0]) - (t.x < goal[0])
    dy = (t.y > goal[1]) - (t.y < goal[1])
    entry = (goal[0] - 3 * dx, goal[1] - 3 * dy)
    if entry == c.pos:
        return True
    return in_bounds(entry, w, h) and distance(c.pos, entry, metric) + 3 <= far


def _may_charge(state: State, c: Char) -> bool:
    """decide's first checks of a charge that name no target or square (maneuvers.charge),
    made here only to skip probes bound to fail (awaiting runs on every answer): a wrong
    copy could hide a charge, never list one decide refuses (decide judges each listed)."""
    if c.standard_used or any(c.has(n) for n in ("immobilized", "grappled", "prone")):
        return False
    if c.moves >= 2 or (c.moves == 1 and state.options.charge_move != "stamina_allowed"):
        return False
    if c.main_hand is None:  # the prompt names no weapon: the charge strikes with this one
        return False
    try:
        return weapon_of(state, c, c.main_hand).kind == "melee"
    except DomainError:
        return False


def _charges(pr: Probe, c: Char, me: Actor, names: Sequence[str]) -> list[Prompt]:
    """[Charge]: the squares next to each seen foe that decide takes the charge to. Only
    squares within the run's reach are tried (a farther one is no move action's end)."""
    state = pr.state
    if not _may_charge(state, c):
        return []
    far = budget(c, "run")
    metric = state.options.metric
    w, h = state.board.width, state.board.height
    out: list[Prompt] = []
    for tid in names:
        t = state.chars.get(tid)
        if t is None or t.down or t.side == c.side:
            continue
        near = [(t.x + dx, t.y + dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
        near = [q for q in near if in_bounds(q, w, h) and _room(c, t, q, far, metric, w, h)]
        if state.options.charge_distance == "from_start":  # A36: 3 squares from the start
            near = [q for q in near if distance(c.pos, q, metric) >= 3]
        ok = choose(pr, me, Charge, "to", near, character=c.id, target=tid)
        if not ok:
            continue
        # no dice listed: whether the strike comes now depends on opportunity attacks
        # on the way, which creatures the charger cannot see may make (decide asks then)
        out.append(
            Prompt(
                id=f"charge:{c.id}:{tid}",
                role="side",
                side=c.side,
                subject=c.id,
                commands=("Charge",),
                reason=f"{c.id} may charge {tid} (to: the square the charge ends on, x,y)",
                choices={"target": [tid], "to": [_sq(q) for q in ok]},
                rule=R_STANDARD,
            )
        )
    return out


def _origins(state: State, c: Char, wp: Weapon) -> list[tuple[int, int]]:
    """The burst or wall origins decide's square checks take: within range and in sight
    (check_range), and for a burst none in it that frightens `c` (A31)."""
    assert wp.area is not None
    r = wp.range
    out: list[tuple[int, int]] = []
    for y in range(max(c.y - r, 0), min(c.y + r, state.board.height - 1) + 1):
        for x in range(max(c.x - r, 0), min(c.x + r, state.board.width - 1) + 1):
            try:
                check_range(state, c, wp, (x, y), None, False)
                if wp.area.shape != "burst":
                    out.append((x, y))
                    continue
                check_area(
                    state,
                    c,
                    area_squares(
                        "burst", wp.area.rating, (x, y), None, state.board.width, state.board.height
                    ),
                )
            except DomainError:
                continue
            out.append((x, y))
    return out


def _area(pr: Probe, c: Char, me: Actor, wid: str) -> list[Prompt]:
    state = pr.state
    wp = weapon_of(state, c, wid)
    assert wp.area is not None
    shape = wp.area.shape
    base = {"character": c.id, "weapon": wid}
    choices: dict[str, list[str]] = {"weapon": [wid]}
    if shape in ("blast", "line"):
        dirs = choose(pr, me, Attack, "direction", _DIRECTIONS, **base)
        if not dirs:
            return []
        choices["direction"] = dirs
        first = build(Attack, **base, direction=dirs[0])
        reason = f"{c.id} may attack with {wid} ({shape} {wp.area.rating}) in a direction"
    elif shape == "burst":
        squares = _origins(state, c, wp)
        # the square checks are range, sight and fear (listed above); the rest decide
        # judges once, on the first square
        if not squares or not pr.accepts(build(Attack, **base, square=squares[0]), me):
            return []
        choices["square"] = [_sq(q) for q in squares]
        first = build(Attack, **base, square=squares[0])
        reason = (
            f"{c.id} may attack with {wid} (burst {wp.area.rating}) centred on a square "
            f"within its range {wp.range} and in sight (listed: only those)"
        )
    elif shape == "close_burst":
        first = build(Attack, **base)
        if not pr.accepts(first, me):
            return []
        reason = f"{c.id} may attack with {wid} (close burst {wp.area.rating})"
    elif shape == "wall":
        # [Wall]: the sections are no small set; their origin is. Each origin listed is a
        # one-section wall decide takes (the shape's checks, check_wall, are the text's
        # and need no state; a section on an occupied square is discarded, not refused)
        squares = _origins(state, c, wp)
        if not squares or not pr.accepts(build(Attack, **base, sections=[squares[0]]), me):
            return []
        choices["sections"] = [_sq(q) for q in squares]
        first = build(Attack, **base, sections=[squares[0]])
        reason = (
            f"{c.id} may raise a wall with {wid} (wall {wp.area.rating}): sections, a list of "
            f"up to {wp.area.rating} squares x,y, orthogonally continuous, none next to three "
            "others, the first (the origin) one of those listed (within range and in sight)"
        )
        return [_prompt(c, f"wall:{c.id}:{wid}", Attack, reason, choices, first, me, pr,
                        R_WALL, "wall is raised")]  # fmt: skip
    else:
        return []
    return [
        _prompt(
            c,
            f"area:{c.id}:{wid}",
            Attack,
            reason,
            choices,
            first,
            me,
            pr,
            R_RANGES,
            "attack is made",
        )
    ]


def split_area(state: State, c: Char, weapons: Iterable[str]) -> tuple[list[str], list[str]]:
    """(the weapons that attack one target, the area ones) of `c`'s weapons."""
    single: list[str] = []
    area: list[str] = []
    for wid in dict.fromkeys(weapons):
        try:
            is_area = weapon_of(state, c, wid).area is not None
        except DomainError:
            is_area = False  # decide refuses it either way; the attack prompt finds none
        (area if is_area else single).append(wid)
    return single, area


def _simple(
    pr: Probe,
    c: Char,
    me: Actor,
    pid: str,
    kind: type[Any],
    field: str,
    values: Iterable[Any],
    base: dict[str, Any],
    reason: str,
    rule: str,
    alike: Callable[[Any], Hashable] | None = None,
) -> list[Prompt]:
    """One prompt for `kind` with the values of `field` decide takes. `alike`: values of
    one key decide judges alike, so one probe judges them all."""
    if alike is None:
        ok = choose(pr, me, kind, field, values, character=c.id, **base)
    else:
        judged: dict[Hashable, bool] = {}
        ok = []
        for v in values:
            key = alike(v)
            if key not in judged:
                judged[key] = bool(choose(pr, me, kind, field, [v], character=c.id, **base))
            if judged[key]:
                ok.append(v)
    if not ok:
        return []
    choices = {field: [str(v) for v in ok], **{k: [str(v)] for k, v in base.items()}}
    # no dice: a reload or a free action rolls none
    return [
        Prompt(
            id=pid,
            role="side",
            side=c.side,
            subject=c.id,
            commands=(kind.__struct_config__.tag,),
            reason=reason,
            choices=choices,
            rule=rule,
        )
    ]


def extra_turn(
    pr: Probe, c: Char, me: Actor, names: Sequence[str], area: Sequence[str]
) -> list[Prompt]:
    """The active character's charges, area attacks, reloads and free actions."""
    cid = c.id
    held = [i for i in (c.main_hand, c.off_hand) if i is not None]
    out = _charges(pr, c, me, names)
    for wid in area:
        out += _area(pr, c, me, wid)
    # only probes bound to fail are skipped (decide's item checks, maneuvers.reload and
    # actions.free_action): an item with no reload left, a release holding no one
    loaded = [i for i in held if c.reload_left.get(i, 0) > 0]
    out += _simple(
        pr, c, me, f"reload:{cid}", Reload, "item", loaded, {}, f"{cid} may reload", R_STANDARD
    )
    holds = any(
        (g := k.condition("grappled")) is not None and g.source == cid
        for k in pr.state.chars.values()
    )
    free = _ITEMLESS if holds else tuple(a for a in _ITEMLESS if a != "release")
    out += _simple(
        pr,
        c,
        me,
        f"free:{cid}",
        FreeAction,
        "action",
        free,
        {},
        f"{cid} may take a free action (the same again this round: 6 STA)",
        R_TYPES,
        # actions.free_action reads an itemless action's name only to ask whether it was
        # taken this round (free_used: 6 STA) and whether it is a release: the rest alike
        alike=lambda a: (a in c.free_used, a == "release"),
    )
    out += _simple(
        pr,
        c,
        me,
        f"draw:{cid}",
        FreeAction,
        "item",
        c.stowed,
        {"action": "draw"},
        f"{cid} may draw an item",
        R_STAMINA_ACTIONS,
    )
    out += _simple(
        pr,
        c,
        me,
        f"stow:{cid}",
        FreeAction,
        "item",
        held,
        {"action": "stow"},
        f"{cid} may stow an item",
        R_STAMINA_ACTIONS,
    )
    return out
