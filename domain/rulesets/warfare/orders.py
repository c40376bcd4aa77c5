"""A unit's orders for seed 003: the free facing change, the move, engaging, disengaging,
the attack, the retaliation, resting, pursuit and the placing of a reserve.

Each checks the rule it enforces and refuses with a RuleViolation citing it; dice are
drawn only once every check has passed.
"""

from __future__ import annotations

from domain.dice import Dice
from domain.errors import RuleViolation
from domain.rulesets.warfare.combat import attack
from domain.rulesets.warfare.commands import (
    Attack,
    Disengage,
    Engage,
    Face,
    Move,
    PlaceReserve,
    Pursue,
    Rest,
    Retaliate,
)
from domain.rulesets.warfare.events import (
    Disengaged,
    Engaged,
    EngagementsBroken,
    ReservePlaced,
    UnitFaced,
    UnitMoved,
    UnitPursued,
    UnitRested,
)
from domain.rulesets.warfare.geometry import direction_of, distance, faces, find_path, is_step
from domain.rulesets.warfare.model import State, Tile, Unit
from domain.rulesets.warfare.rules import (
    R_ACTIONS,
    R_ATTACKS,
    R_ENGAGEMENT,
    R_FACING,
    R_PURSUIT,
    R_RANGE,
    R_RESTING,
    R_RETALIATION,
    R_ZONES,
    Run,
    ensure_can_act,
    ensure_on_field,
    ensure_round,
    ensure_turn,
    unit,
)
from domain.rulesets.warfare.setup import ConditionName, Direction

__all__ = [
    "MAX_INCREMENTS",
    "attack_order",
    "disengage",
    "end_facing",
    "engage",
    "ensure_can_move",
    "face",
    "move",
    "place_reserve",
    "pursue",
    "rest",
    "retaliate",
    "speed_of",
]

# [Ranged Increments] "Ranged units can attack up to 5 increments distant (-8 to hit), and
# artillery can attack up to 10 increments distant (-18 to hit)."
MAX_INCREMENTS = {"ranged": 5, "artillery": 10}
# [Resting] "removing Winded, downgrading Debilitated to Winded, and removing any fear
# condition it may have (Unsettled, Wavering, or Terrorized)"
RESTING_REMOVES: tuple[ConditionName, ...] = (
    "winded", "debilitated", "unsettled", "wavering", "terrorized"
)  # fmt: skip


def _faces(s: State, u: Unit, t: Unit) -> bool:
    return faces((u.x, u.y), u.facing, (t.x, t.y), s.board.options.facing_directions)


def _enemy_on_field(s: State, u: Unit, tid: str) -> Unit:
    t = unit(s, tid)
    if t.side == u.side:
        raise RuleViolation(f"{t.id} is on {u.id}'s own side", rule=R_ATTACKS)
    ensure_on_field(t)
    return t


def speed_of(s: State, u: Unit) -> int:
    """The tiles `u` may move this round: its speed with its conditions' shifts."""
    effects = s.options.conditions
    shift: int = sum(getattr(effects, c).speed for c in u.conditions)
    return max(0, u.speed + shift)


def face(run: Run, cmd: Face, dice: Dice) -> None:
    s = run.state
    u = unit(s, cmd.unit)
    ensure_can_act(s, u)
    if s.options.facing_directions == 4 and len(cmd.facing) != 1:
        raise RuleViolation(
            "units face one of four directions (N, E, S, W) in this battle", rule=R_FACING
        )
    if u.faced:
        raise RuleViolation(f"{u.id} has had its free facing change this round", rule=R_FACING)
    if u.acted:
        raise RuleViolation(f"the free facing change comes before {u.id}'s action", rule=R_FACING)
    run.emit(UnitFaced(unit=u.id, facing=cmd.facing, before=u.facing, rule=R_FACING))


def _break_away(run: Run, dice: Dice, u: Unit) -> bool:
    """[Engagement]: leaving without disengaging, every engaged unit takes a free attack
    "as they break away". False when the unit did not survive them on the field.

    The engagements end after the free attacks (`EngagementsBroken` follows them): the unit
    is still engaged while they land, so one that shatters from them takes the automatic
    hit of every unit it was engaged with, and each may pursue ([Shattered Units])."""
    engaged = u.engaged
    if not engaged:
        return True
    _free_attacks(run, dice, u.id, engaged)
    if not run.state.units[u.id].on_field:
        return False  # shattered or destroyed: leaving the field ended the engagements
    run.emit(EngagementsBroken(unit=u.id, units=engaged, rule=R_ENGAGEMENT))
    return True


def _free_attacks(run: Run, dice: Dice, uid: str, attackers: tuple[str, ...]) -> None:
    for other in attackers:
        s = run.state
        if s.over or not s.units[uid].on_field:
            return
        o = s.units[other]
        if not o.on_field:
            continue
        if s.options.free_attack_needs_facing and not _faces(s, o, s.units[uid]):
            continue
        attack(run, dice, other, uid, "free", True)


def _path(s: State, u: Unit, to: Tile, given: tuple[Tile, ...] | None) -> tuple[Tile, ...]:
    speed = speed_of(s, u)
    if not (0 <= to[0] < s.board.width and 0 <= to[1] < s.board.height):
        raise RuleViolation(f"{to} is off the map", rule=R_ACTIONS)
    if given is None:
        path = find_path(u.tile, to, speed, s.board.width, s.board.height, s.occupied)
        if path is None:
            raise RuleViolation(
                f"{u.id} cannot reach {to} within {speed} tiles", rule=R_ACTIONS, speed=speed
            )
        return path
    if not given or given[-1] != to:
        raise RuleViolation("the path must end at the destination", rule=R_ACTIONS)
    if len(given) > speed:
        raise RuleViolation(
            f"{len(given)} tiles is beyond {u.id}'s speed of {speed}", rule=R_ACTIONS, speed=speed
        )
    at = u.tile
    for tile in given:
        if not is_step(at, tile):
            raise RuleViolation(f"{tile} is not next to {at}", rule=R_ACTIONS)
        if not (0 <= tile[0] < s.board.width and 0 <= tile[1] < s.board.height):
            raise RuleViolation(f"{tile} is off the map", rule=R_ACTIONS)
        if tile in s.occupied:
            raise RuleViolation(f"{tile} holds {s.occupied[tile]}", rule=R_ACTIONS)
        at = tile
    return given


def ensure_can_move(s: State, u: Unit) -> None:
    """[Actions] "a move ... each round": on its side's turn, once (what a move and a
    unit's reach both check first)."""
    ensure_can_act(s, u)
    if u.moved:
        raise RuleViolation(f"{u.id} has moved this round", rule=R_ACTIONS)


def move(run: Run, cmd: Move, dice: Dice) -> None:
    """[Actions] "a move ... each round"; breaking away from engagements first (free
    attacks); the facing stays unless W03 turns the unit."""
    s = run.state
    u = unit(s, cmd.unit)
    ensure_can_move(s, u)
    if cmd.to == u.tile:
        # a move goes somewhere: one to the unit's own tile would spend the move (and break
        # away from its engagements) for nothing
        raise RuleViolation(
            f"{u.id} is on {cmd.to} already: a move must leave its tile", rule=R_ACTIONS
        )
    path = _path(s, u, cmd.to, cmd.path)
    if not _break_away(run, dice, u):
        return
    run.emit(UnitMoved(unit=u.id, path=path, facing=end_facing(s, u, path), rule=R_ACTIONS))


def end_facing(s: State, u: Unit, path: tuple[Tile, ...]) -> Direction:
    """The facing `u` ends a move along `path` with: its own, unless W03 turns it to its
    last step's direction."""
    facing = u.facing
    if s.options.move_turns_unit and path:
        prev = path[-2] if len(path) > 1 else u.tile
        facing = direction_of(path[-1][0] - prev[0], path[-1][1] - prev[1])
        if s.options.facing_directions == 4 and len(facing) == 2:
            facing = "N" if facing[0] == "N" else "S"  # a diagonal step: its north or south
    return facing


def engage(run: Run, cmd: Engage, dice: Dice) -> None:
    """[Engagement] "free action, requires facing"."""
    s = run.state
    u = unit(s, cmd.unit)
    ensure_can_act(s, u)
    t = _enemy_on_field(s, u, cmd.target)
    if t.id in u.engaged:
        raise RuleViolation(f"{u.id} is engaged with {t.id} already", rule=R_ENGAGEMENT)
    if not _faces(s, u, t):
        # the sentence is [Engagement]'s "(free action, requires facing)"; [Facing] is attacks
        raise RuleViolation(
            f"{u.id} does not face {t.id}: engaging requires facing", rule=R_ENGAGEMENT
        )
    if distance(u.tile, t.tile) > s.options.melee_reach:
        raise RuleViolation(f"{t.id} is not within {u.id}'s reach", rule=R_ENGAGEMENT)
    run.emit(Engaged(unit=u.id, target=t.id, rule=R_ENGAGEMENT))


def _ensure_action(u: Unit) -> None:
    if u.acted:
        raise RuleViolation(f"{u.id} has taken its action this round", rule=R_ACTIONS)


def disengage(run: Run, cmd: Disengage, dice: Dice) -> None:
    """[Engagement] "Disengaging requires an action"; engaged with more than two, all but
    two (chosen by the disengaging unit) take a free attack regardless. As in breaking
    away, the engagements (the spared ones too) end after the free attacks: a unit that
    shatters from them has not disengaged from anyone."""
    s = run.state
    u = unit(s, cmd.unit)
    ensure_can_act(s, u)
    _ensure_action(u)
    if not u.engaged:
        raise RuleViolation(f"{u.id} is not engaged", rule=R_ENGAGEMENT)
    spared = tuple(dict.fromkeys(cmd.spared))
    if any(x not in u.engaged for x in spared):
        raise RuleViolation("the spared units must be engaged with the unit", rule=R_ENGAGEMENT)
    attackers: tuple[str, ...] = ()
    if len(u.engaged) > 2:
        if len(spared) != 2:
            raise RuleViolation(
                f"{u.id} is engaged with {len(u.engaged)} units: name the two that take no "
                "free attack (spared)",
                rule=R_ENGAGEMENT,
            )
        attackers = tuple(x for x in u.engaged if x not in spared)
    _free_attacks(run, dice, u.id, attackers)
    if not run.state.units[u.id].on_field:
        return  # shattered or destroyed by a free attack: leaving the field ended them
    run.emit(
        Disengaged(
            unit=u.id, engaged=u.engaged, spared=spared, attackers=attackers, rule=R_ENGAGEMENT
        )
    )


def _reach(s: State, u: Unit, t: Unit) -> tuple[bool, int]:
    """(melee, range increments) of an attack by `u` on `t`, or a refusal."""
    if t.id in u.engaged:
        return True, 0
    d = distance(u.tile, t.tile)
    if u.kind == "melee":
        if s.options.melee_needs_engagement:
            raise RuleViolation(
                f"{u.id} must engage {t.id} to attack it in melee", rule=R_ENGAGEMENT
            )
        if d > s.options.melee_reach:
            raise RuleViolation(f"{t.id} is not within {u.id}'s reach", rule=R_ENGAGEMENT)
        return True, 0
    step = u.range_increment or 1
    increments = -(-d // step)
    most = MAX_INCREMENTS[u.kind]
    if increments > most:
        raise RuleViolation(
            f"{t.id} is {increments} increments away; {u.kind} units reach {most}",
            rule=R_RANGE,
            increments=increments,
        )
    return False, increments


def attack_order(run: Run, cmd: Attack, dice: Dice) -> None:
    """[Attacks], [Facing] "must be facing another unit to attack it"; W09 automatic
    retaliation."""
    s = run.state
    u = unit(s, cmd.unit)
    ensure_can_act(s, u)
    _ensure_action(u)
    t = _enemy_on_field(s, u, cmd.target)
    if not _faces(s, u, t):
        raise RuleViolation(f"{u.id} does not face {t.id}", rule=R_FACING)
    melee, increments = _reach(s, u, t)
    attack(run, dice, u.id, t.id, "attack", melee, increments)
    if melee and s.options.retaliation == "automatic":
        # a retaliation is a melee attack on the unit it hits, which may answer it in turn:
        # one retaliation each a round, so the target's and then at most the attacker's
        hitter, hit = u.id, t.id
        while not run.state.over:
            after = run.state
            if _may_retaliate(after, after.units[hit], after.units[hitter]) is not None:
                break
            attack(run, dice, hit, hitter, "retaliation", True)
            hitter, hit = hit, hitter


def _may_retaliate(s: State, u: Unit, t: Unit) -> str | None:
    """Why `u` may not retaliate on `t` now (None: it may)."""
    if not u.on_field:
        return f"{u.id} is not on the battlefield"
    if u.retaliated:
        return f"{u.id} has made its one retaliatory attack this round"
    if t.id not in u.melee_attackers:
        return f"{t.id} has not attacked {u.id} in melee this round"
    if not t.on_field:
        return f"{t.id} is not on the battlefield"
    if not _faces(s, u, t):
        return f"{u.id} does not face {t.id}"
    if distance(u.tile, t.tile) > s.options.melee_reach:
        return f"{t.id} is not within {u.id}'s reach"
    return None


def retaliate(run: Run, cmd: Retaliate, dice: Dice) -> None:
    """[Retaliatory Attacks] "one retaliatory attack per round ... against any unit they
    are facing that attacks them in melee"; given out of turn, by the target's side."""
    s = run.state
    ensure_round(s)
    u = unit(s, cmd.unit)
    t = unit(s, cmd.target)
    ensure_on_field(u)
    why = _may_retaliate(s, u, t)
    if why is not None:
        raise RuleViolation(why, rule=R_RETALIATION)
    attack(run, dice, u.id, t.id, "retaliation", True)


def rest(run: Run, cmd: Rest, dice: Dice) -> None:
    s = run.state
    u = unit(s, cmd.unit)
    ensure_can_act(s, u)
    _ensure_action(u)
    if u.engaged:
        raise RuleViolation(f"{u.id} is engaged: only a unit not engaged may rest", rule=R_RESTING)
    has = set(u.conditions)
    removed = tuple(c for c in RESTING_REMOVES if c in has)
    gained: tuple[ConditionName, ...] = ("winded",) if "debilitated" in has else ()
    run.emit(UnitRested(unit=u.id, removed=removed, gained=gained, rule=R_RESTING))


def pursue(run: Run, cmd: Pursue, dice: Dice) -> None:
    """[Pursuit]: move into the shattered unit's tile; Pursuing until the end of its next
    turn (its side's turn ends twice if this is its own turn, else once)."""
    s = run.state
    ensure_round(s)
    u = unit(s, cmd.unit)
    ensure_on_field(u)
    chase = next((p for p in s.pursuits if p.unit == u.id and p.shattered == cmd.shattered), None)
    if chase is None and unit(s, cmd.shattered).status != "shattered":
        raise RuleViolation(
            f"{u.id} may not pursue {cmd.shattered}: {cmd.shattered} never shattered",
            rule=R_PURSUIT,
        )
    if chase is None:
        raise RuleViolation(
            f"{u.id} may not pursue {cmd.shattered}: only a unit engaged with it when it "
            "shattered, before that turn ends",
            rule=R_PURSUIT,
        )
    to = (chase.x, chase.y)
    if to in s.occupied:
        raise RuleViolation(f"{to} holds {s.occupied[to]}", rule=R_PURSUIT)
    if not _break_away(run, dice, u):
        return
    turns = 2 if s.active == u.side else 1
    run.emit(UnitPursued(unit=u.id, shattered=cmd.shattered, to=to, turns=turns, rule=R_PURSUIT))


def place_reserve(run: Run, cmd: PlaceReserve, dice: Dice) -> None:
    """[Reinforcement Zones] "where reserve units can be placed mid-battle"; "does not
    function while an enemy unit occupies any of its tiles"."""
    s = run.state
    u = unit(s, cmd.unit)
    ensure_turn(s, u.side)
    if u.status != "reserve":
        raise RuleViolation(f"{u.id} is not a reserve ({u.status})", rule=R_ZONES)
    to = (cmd.to[0], cmd.to[1])
    zone = next(((zid, tiles) for zid, tiles in s.board.zones[u.side] if to in tiles), None)
    if zone is None:
        raise RuleViolation(f"{to} is in none of {u.side}'s reinforcement zones", rule=R_ZONES)
    enemy = next(
        (o for tile in zone[1] if (o := s.occupied.get(tile)) and s.units[o].side != u.side),
        None,
    )
    if enemy is not None:
        raise RuleViolation(
            f"zone {zone[0]} does not function: {enemy} stands on it", rule=R_ZONES, enemy=enemy
        )
    if to in s.occupied:
        raise RuleViolation(f"{to} holds {s.occupied[to]}", rule=R_ZONES)
    moved = s.options.reserve_placement == "is_move"
    run.emit(ReservePlaced(unit=u.id, zone=zone[0], to=to, moved=moved, rule=R_ZONES))
