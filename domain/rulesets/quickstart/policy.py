"""The forecast's policies for the quickstart (seed 001): who plays what, from the state.

`advance` (the default) gives one command for every state, always one the rules accept:
a pending decision is answered (the first casualty candidate, press the attack up to six
exchanges then retreat, take the priority, roll the priority checks with each hero's best
skill), and the active side uses a hero's skill when it may, moves each squad with no
enemy in reach to the reachable square nearest an enemy, attacks (siege engines first)
with every squad that has a target, moves its skirmishers, and ends the step. The random
source picks among equally good targets and casualties, so runs differ beyond the dice.

Pure: the state and a random source are handed in. It reads the whole state, so it is for
the referee's forecasts (RULINGS.md, "Forecasts").
"""

from __future__ import annotations

from collections.abc import Iterator

from domain.actors import Actor
from domain.forecast import RandomSource
from domain.rulesets.quickstart.combat import candidates
from domain.rulesets.quickstart.commands import (
    Attack,
    ChooseCasualty,
    ChoosePriority,
    Command,
    EndStep,
    FireEngine,
    MoveSquad,
    PressAttack,
    PriorityCheck,
    Retreat,
    RollForPriority,
    UseSkill,
)
from domain.rulesets.quickstart.model import Squad, State

__all__ = ["POLICIES", "POLICY_DOCS", "advance", "next_command", "rounds", "winner"]

REFEREE = Actor(role="referee")
_SIDES: dict[str, Actor] = {}
_SKILL_PREFERENCE = ("arcana", "intimidate", "heal", "stealth")
_MAX_EXCHANGES = 6  # press the attack while fewer exchanges than this were rolled
_FOUR = ((1, 0), (-1, 0), (0, 1), (0, -1))
_EIGHT = (*_FOUR, (1, 1), (1, -1), (-1, 1), (-1, -1))
_END_STEP = EndStep()


def _side(side: str) -> Actor:
    actor = _SIDES.get(side)
    if actor is None:
        actor = _SIDES[side] = Actor(role="side", side=side)
    return actor


def _dist(ax: int, ay: int, bx: int, by: int, eight: bool) -> int:
    dx, dy = abs(ax - bx), abs(ay - by)
    return max(dx, dy) if eight else dx + dy


def _targets(s: State, q: Squad, eight: bool) -> list[Squad]:
    reach = s.options.caster_range if q.kind == "caster" else 1
    out = []
    for e in s.squads.values():
        if e.side != q.side and not e.hidden:
            d = _dist(q.x, q.y, e.x, e.y, eight)
            if d == 1 or 1 < d <= reach:
                out.append(e)
    return out


_NEIGHBOURS: dict[tuple[int, int, bool], tuple[tuple[int, ...], ...]] = {}


def _neighbours(width: int, height: int, eight: bool) -> tuple[tuple[int, ...], ...]:
    """For each square (numbered x * height + y), the squares a step reaches on the grid;
    made once per grid (the playouts' hot loop walks it)."""
    key = (width, height, eight)
    found = _NEIGHBOURS.get(key)
    if found is None:
        steps = _EIGHT if eight else _FOUR
        found = tuple(
            tuple(
                (x + dx) * height + y + dy
                for dx, dy in steps
                if 0 <= x + dx < width and 0 <= y + dy < height
            )
            for x in range(width)
            for y in range(height)
        )
        _NEIGHBOURS[key] = found
    return found


def _move_toward(s: State, q: Squad, eight: bool, rng: RandomSource) -> MoveSquad | None:
    """A move to the reachable square nearest an enemy (then the fewest steps), if it is
    nearer than where the squad stands."""
    enemies = [(e.x, e.y) for e in s.squads.values() if e.side != q.side]
    if not enemies:
        return None
    height = s.height
    # steps from the squad's square: -1 not reached yet, -2 taken by a unit
    steps = [-1] * (s.width * height)
    for o in s.squads.values():
        steps[o.x * height + o.y] = -2
    for g in s.engines.values():
        steps[g.x * height + g.y] = -2
    for b in s.barriers.values():
        steps[b.x * height + b.y] = -2
    neighbours = _neighbours(s.width, height, eight)
    here = q.x * height + q.y
    steps[here] = 0
    reached = [here]
    frontier = [here]
    limit = s.options.speeds.get(q.kind, 6)
    d = 0
    while frontier and d < limit:
        d += 1
        later = []
        for square in frontier:
            for n in neighbours[square]:
                if steps[n] == -1:
                    steps[n] = d
                    later.append(n)
        reached += later
        frontier = later
    best: list[int] = []
    best_score = (1 << 30, 0)
    here_near = 1 << 30
    for square in reached:
        px, py = divmod(square, height)
        near = 1 << 30
        for ex, ey in enemies:
            dx = px - ex if px > ex else ex - px
            dy = py - ey if py > ey else ey - py
            dist = (dx if dx > dy else dy) if eight else dx + dy
            if dist < near:
                near = dist
        if square == here:
            here_near = near
        score = (near, steps[square])
        if score < best_score:
            best_score, best = score, [square]
        elif score == best_score:
            best.append(square)
    if best_score[0] >= here_near:
        return None
    chosen = best[0] if len(best) == 1 else rng.choice(sorted(best))
    x, y = divmod(chosen, height)
    return MoveSquad(squad=q.id, x=x, y=y)


def _skill(s: State, side: str) -> UseSkill | None:
    effects = s.options.skill_effects
    for h in s.heroes.values():
        if h.side != side or h.status != "active":
            continue
        if h.watchtower:
            if h.skill_used:
                continue
            for skill in h.skills:
                if skill in s.options.watchtower_effects:
                    return UseSkill(hero=h.id, skill=skill)
            continue
        q = s.squads.get(h.squad) if h.squad is not None else None
        if q is None or q.minor_used or h.minor_lost:
            continue
        for skill in _SKILL_PREFERENCE:
            if skill not in h.skills or skill not in effects:
                continue
            if effects[skill] == "arcana" and q.kind != "caster":
                continue
            return UseSkill(hero=h.id, skill=skill)
    return None


def _combat_step(s: State, side: str, eight: bool, rng: RandomSource) -> Command | None:
    mine = [q for q in s.squads.values() if q.side == side]
    for g in s.engines.values():
        if g.side != side or g.fired:
            continue
        ctl = [
            q
            for q in mine
            if not q.attacked and q.level >= 2 and _dist(q.x, q.y, g.x, g.y, eight) == 1
        ]
        if not ctl:
            continue
        targets = [e.id for e in s.engines.values() if e.side != side]
        targets += [b.id for b in s.barriers.values() if b.side != side]
        targets += [e.id for e in s.squads.values() if e.side != side and e.large and not e.hidden]
        if targets:
            return FireEngine(engine=g.id, squad=ctl[0].id, target=rng.choice(targets))
    for q in mine:
        if q.standard_used:
            continue
        t = _targets(s, q, eight)
        if t:
            return Attack(squads=(q.id,), targets=(rng.choice(t).id,))
    return None


def next_command(s: State, rng: RandomSource) -> tuple[Actor, Command]:
    """The one command `advance` gives in `s` (a state that is not over), and who gives it."""
    c = s.combat
    if c is not None:
        if c.queue:
            return _side(c.queue[0].victim_side), ChooseCasualty(squad=rng.choice(candidates(s)))
        if c.awaiting:
            kind = PressAttack() if c.exchanges < _MAX_EXCHANGES else Retreat()
            return _side(c.attacker_side), kind
    if s.phase == "priority":
        if s.step == "choose":
            chooser = s.chooser or ""
            return _side(chooser), ChoosePriority(first=chooser)
        waiting = sorted(
            h.id for h in s.heroes.values() if h.status != "removed" and h.id not in s.checks
        )
        if not waiting:
            return REFEREE, RollForPriority()
        hero = s.heroes[waiting[0]]
        skill = max(s.options.priority_skills, key=lambda k: (hero.skills.get(k, 0), k))
        return _side(hero.side), PriorityCheck(hero=hero.id, skill=skill)
    side = s.active_side or ""
    step = s.step
    eight = s.options.adjacency == "eight"
    cmd: Command | None = None
    if step in ("move", "combat"):
        cmd = _skill(s, side)
    if cmd is None and step == "move":
        for q in s.squads.values():
            if q.side != side or _targets(s, q, eight):
                continue
            if q.moves_used == 0 or (q.moves_used == 1 and not q.standard_used):
                cmd = _move_toward(s, q, eight, rng)
                if cmd is not None:
                    break
    if cmd is None and step == "combat":
        cmd = _combat_step(s, side, eight, rng)
    if cmd is None and step == "skirmish":
        for q in s.squads.values():
            ready = q.side == side and q.kind == "skirmisher" and not q.skirmished
            if ready and not _targets(s, q, eight):
                cmd = _move_toward(s, q, eight, rng)
                if cmd is not None:
                    break
    return _side(side), cmd if cmd is not None else _END_STEP


def advance(s: State, rng: RandomSource) -> Iterator[tuple[Actor, Command]]:
    """The default policy: one proposal, `next_command`'s."""
    yield next_command(s, rng)


def winner(s: State) -> str | None:
    return s.winner


def rounds(s: State) -> int:
    return s.round


POLICIES = {"advance": advance}
POLICY_DOCS = {
    "advance": (
        "every side closes in and attacks the nearest enemy it can reach, uses its heroes' "
        "skills, presses an attack for up to six exchanges, then ends its step"
    )
}
