"""decide for the setup steps of seed 000 ("Starting Skirmish Combat"), in the seed's order:
leaders, armies and commanders, boons, surprise (optional), tactical initiative, zone
boundaries, army placement, strategies, secret tactics, adjusting tactics.

The zone, placement and strategy steps are resolved leader by leader, lowest tactical
initiative first ("Resolve each step separately, in order of the lowest result to the
highest result"). `AdvanceSetup` (the referee) closes a step once it is complete.
"""

from __future__ import annotations

from domain.dice import Dice
from domain.rulesets.skirmish.army import (
    army_type,
    command_range,
    commander_defenses,
    formation_dims,
    representation,
    starting_morale,
    total,
)
from domain.rulesets.skirmish.commands import (
    AdjustTactic,
    AdvanceSetup,
    AppointLeader,
    CheckSurprise,
    ChooseTactic,
    DeclareStrategy,
    GrantBoon,
    PlaceArmy,
    RaiseArmy,
    RollInitiative,
    SetZones,
)
from domain.rulesets.skirmish.common import army_of, check, force_of, need_phase, violation
from domain.rulesets.skirmish.events import (
    AdjustmentsGranted,
    ArmyPlaced,
    ArmyRaised,
    BoonGranted,
    Event,
    InitiativeOrdered,
    InitiativeRolled,
    LeaderAppointed,
    PhaseBegan,
    SetupAdvanced,
    SideAllowance,
    StrategyDeclared,
    SurpriseChecked,
    TacticChosen,
    TacticLearned,
    ZonesSet,
)
from domain.rulesets.skirmish.geometry import army_squares, footprint, zone_of
from domain.rulesets.skirmish.limits import MAX_ARMIES, MAX_ARMY_SQUARES
from domain.rulesets.skirmish.model import SETUP_STEPS, State
from domain.rulesets.skirmish.options import STRATEGIES
from domain.rulesets.skirmish.resolution import Exact, Resistance, TargetArmy
from domain.rulesets.skirmish.rules import (
    R_ADJUST,
    R_BOONS,
    R_INITIATIVE,
    R_LEADER,
    R_PLACEMENT,
    R_SETUP,
    R_STRATEGY,
    R_SURPRISE,
    R_TACTICS,
    R_TERMS,
    R_ZONES,
)
from domain.rulesets.skirmish.specs import Term

__all__ = [
    "adjust_tactic",
    "advance_setup",
    "appoint_leader",
    "check_surprise",
    "choose_tactic",
    "declare_strategy",
    "grant_boon",
    "place_army",
    "raise_army",
    "roll_initiative",
    "set_zones",
    "tactic_allowed",
]


def appoint_leader(state: State, c: AppointLeader, dice: Dice) -> list[Event]:
    """The acting leader; during a movement phase a temporary one (the leader left the
    command zone). Boons stay those of the first leader (they change only after 1d6 hours)."""
    temporary = state.phase == "movement"
    if not temporary:
        need_phase(state, "setup", R_LEADER, "appointing a leader", "leaders")
    force_of(state, c.side)
    if not c.leader.name.strip():
        raise violation("a leader needs a name", R_LEADER)
    return [LeaderAppointed(side=c.side, leader=c.leader, temporary=temporary, rule=R_LEADER)]


def raise_army(state: State, c: RaiseArmy, dice: Dice) -> list[Event]:
    need_phase(state, "setup", R_SETUP, "raising an army", "armies")
    force = force_of(state, c.side)
    spec = c.army
    o = state.options
    if force.leader is None:
        raise violation(f"{c.side} has no leader", R_LEADER)
    if spec.id in state.armies:
        raise violation(f"there already is an army {spec.id!r}", R_SETUP, army=spec.id)
    if len(state.armies) >= MAX_ARMIES:  # every volley looks at every army: bound them
        raise violation(f"a battle holds at most {MAX_ARMIES} armies", R_SETUP, limit=MAX_ARMIES)
    if spec.army_size < 1 or spec.soldier_hp < 1:
        raise violation("an army needs at least one soldier with at least 1 HP", R_TERMS)
    full = spec.soldier_hp * spec.army_size
    hp = full if spec.total_hp is None else spec.total_hp
    if not 0 < hp <= full:
        raise violation(f"Total Army HP must be within 1..{full} (soldier HP x army size)", R_TERMS)
    names = [p.name for p in spec.attacks]
    if len(set(names)) != len(names):
        raise violation("attack profile names must be unique", R_TERMS)
    if spec.speed < 0 or spec.reach < 0:
        raise violation("speed and reach cannot be negative", R_TERMS)
    squares = representation(spec, o)
    if squares > MAX_ARMY_SQUARES:  # every volley weighs each army's squares against others'
        raise violation(
            f"{spec.id} would cover {squares} squares; an army covers at most "
            f"{MAX_ARMY_SQUARES} (a smaller army type, size or `squares`)",
            R_TERMS,
            army=spec.id,
            limit=MAX_ARMY_SQUARES,
        )
    width, depth = formation_dims(squares, o.default_formation, o, spec.size)
    morale = starting_morale(spec, o)
    defenses = commander_defenses(spec, o)
    return [
        ArmyRaised(
            side=c.side,
            army=spec,
            army_type=army_type(spec.army_size),
            squares=squares,
            width=width,
            depth=depth,
            morale=total(morale),
            morale_terms=morale,
            command_range=command_range(spec, o),
            commander_ac=defenses["ac"],
            commander_reflex=defenses["reflex"],
            numbers=TargetArmy(
                army_size=spec.army_size,
                maximum_army_size=spec.army_size,
                total_army_hp=hp,
                maximum_soldier_hp=Exact(num=spec.soldier_hp),
                constitution_score=spec.constitution,
                dies_at_zero_hp=spec.dies_at_zero,
                operates_below_zero=spec.ferocity,
                size=spec.size,
                damage_reduction=spec.damage_reduction,
                dr_bypassed_by=spec.dr_bypassed_by,
                resistances=tuple(
                    Resistance(damage_type=t, amount=n) for t, n in sorted(spec.resistances.items())
                ),
                immunities=spec.immunities,
            ),
            original_total_hp=hp,
            formation=o.default_formation,
            strategy=o.default_strategy,
            rule=R_SETUP,
        )
    ]


def grant_boon(state: State, c: GrantBoon, dice: Dice) -> list[Event]:
    need_phase(state, "setup", R_BOONS, "applying a boon", "boons")
    force = force_of(state, c.side)
    o = state.options
    if c.boon not in o.boons and c.boon not in o.boon_morale:
        raise violation(f"no boon {c.boon!r} affects skirmish combat", R_BOONS, boon=c.boon)
    own = [a for a in state.armies.values() if a.side == c.side]
    if c.boon in force.boons or any(c.boon in a.boons for a in own):
        raise violation(f"{c.boon!r} is already applied: no boon applies more than once", R_BOONS)
    if c.army is None:
        assert force.leader is not None
        if c.boon not in force.leader.boons:
            raise violation(f"the leader of {c.side} does not provide {c.boon!r}", R_BOONS)
        armies = tuple(sorted(a.id for a in own))
        source = "leader"
    else:
        a = army_of(state, c.army)
        if a.side != c.side:
            raise violation(f"{a.id} is not an army of {c.side}", R_BOONS)
        if c.boon not in a.spec.commander.boons:
            raise violation(f"the commander of {a.id} does not provide {c.boon!r}", R_BOONS)
        armies = (a.id,)
        source = "commander"
    return [
        BoonGranted(
            side=c.side,
            boon=c.boon,
            source=source,  # type: ignore[arg-type]
            armies=armies,
            morale=o.boon_morale.get(c.boon, 0),
            rule=R_BOONS,
        )
    ]


def check_surprise(state: State, c: CheckSurprise, dice: Dice) -> list[Event]:
    need_phase(state, "setup", R_SURPRISE, "checking for surprise", "surprise")
    force_of(state, c.side)
    target = force_of(state, c.target_side)
    if c.target_side == c.side or not c.armies:
        raise violation("name the hiding armies and another force as the target", R_SURPRISE)
    hiding = [army_of(state, a) for a in c.armies]
    for a in hiding:
        if a.side != c.side:
            raise violation(f"{a.id} is not an army of {c.side}", R_SURPRISE)
        if a.ambush:
            raise violation(f"{a.id} already has the benefit of an ambush", R_SURPRISE)
    worst = min(hiding, key=lambda a: (a.spec.camouflage, a.id))
    scouting = target.leader.scouting if target.leader is not None else 0
    dc = state.options.morale_dcs.surprise + scouting
    terms = [Term(label=f"camouflage of {worst.id}", value=worst.spec.camouflage, rule=R_SURPRISE)]
    result = check(
        dice,
        f"camouflage check of {c.side} vs {c.target_side}",
        terms,
        dc,
        R_SURPRISE,
        subject=c.side,
    )
    return [SurpriseChecked(side=c.side, target_side=c.target_side, armies=c.armies, check=result)]


def roll_initiative(state: State, c: RollInitiative, dice: Dice) -> list[Event]:
    need_phase(state, "setup", R_INITIATIVE, "tactical initiative", "initiative")
    force = force_of(state, c.side)
    if force.initiative is not None:
        raise violation(f"{c.side} already rolled tactical initiative", R_INITIATIVE)
    assert force.leader is not None
    terms = [
        Term(label="Profession (soldier)", value=force.leader.profession_soldier, rule=R_INITIATIVE)
    ]
    result = check(
        dice,
        f"tactical initiative of {c.side}",
        terms,
        0,
        R_INITIATIVE,
        roll=not force.surprised,
        automatic=True,
        why="surprised: the modifier only" if force.surprised else "no DC",
        subject=c.side,
    )
    return [InitiativeRolled(side=c.side, check=result, surprised=force.surprised)]


def _in_turn(state: State, side: str, done: set[str], what: str, rule: str) -> None:
    """Lowest initiative first: every force before `side` must be done with this step."""
    for other in state.initiative_order:
        if other == side:
            return
        if other not in done:
            raise violation(f"{other} resolves {what} before {side} (lower initiative)", rule)


def set_zones(state: State, c: SetZones, dice: Dice) -> list[Event]:
    need_phase(state, "setup", R_ZONES, "choosing zones", "zones")
    force_of(state, c.side)
    _in_turn(state, c.side, {f.id for f in state.forces.values() if f.zones}, "zones", R_ZONES)
    o, z = state.options, c.zones
    if z.ranged_width < o.ranged_zone_min_width:
        raise violation(
            f"the ranged zone must be at least {o.ranged_zone_min_width}' wide", R_ZONES
        )
    if z.camp_width < o.camp_zone_min_width:
        raise violation(f"the camp zone must be at least {o.camp_zone_min_width}' wide", R_ZONES)
    if z.command_distance < o.command_zone_min_distance:
        raise violation(
            f"the command zone must be at least {o.command_zone_min_distance}' from the edge "
            "of the ranged zone",
            R_ZONES,
        )
    if z.command_size < 1:
        raise violation("the command zone needs a size", R_ZONES)
    return [ZonesSet(side=c.side, zones=z, rule=R_ZONES)]


def place_army(state: State, c: PlaceArmy, dice: Dice) -> list[Event]:
    need_phase(state, "setup", R_PLACEMENT, "placing an army", "placement")
    a = army_of(state, c.army)
    force = force_of(state, a.side)
    done = {
        f.id
        for f in state.forces.values()
        if all(x.placed for x in state.armies.values() if x.side == f.id)
    }
    _in_turn(state, a.side, done, "army placement", R_PLACEMENT)
    squares = footprint(c.x, c.y, a.width, a.depth, c.facing)
    b = state.board
    if any(not (0 <= x < b.width and 0 <= y < b.height) for x, y in squares):
        raise violation(f"{a.id} would not fit on the map there", R_PLACEMENT)
    zone = zone_of(force, squares, state.options.square_feet)
    allowed = ("ranged", "camp", "melee") if a.ambush else ("ranged", "camp")
    if zone not in allowed:
        raise violation(
            f"{a.id} must be placed wholly within its ranged or camp zone"
            + (" (or the melee zone: it has an ambush)" if a.ambush else "")
            + f", not {zone}",
            R_PLACEMENT,
        )
    for other in state.armies.values():
        if other.id != a.id and other.placed and squares & army_squares(other):
            raise violation(f"{a.id} would overlap {other.id}", R_PLACEMENT)
    return [
        ArmyPlaced(
            army=a.id, side=a.side, x=c.x, y=c.y, facing=c.facing, zone=zone, rule=R_PLACEMENT
        )
    ]


def declare_strategy(state: State, c: DeclareStrategy, dice: Dice) -> list[Event]:
    need_phase(state, "setup", R_STRATEGY, "declaring a strategy", "strategies")
    force_of(state, c.side)
    if c.strategy not in STRATEGIES or c.strategy not in state.options.strategies:
        raise violation(f"no strategy {c.strategy!r}; one of {list(STRATEGIES)}", R_STRATEGY)
    done = {f.id for f in state.forces.values() if f.strategy is not None}
    _in_turn(state, c.side, done, "strategies", R_STRATEGY)
    return [StrategyDeclared(side=c.side, strategy=c.strategy, rule=R_STRATEGY)]


def tactic_allowed(state: State, army_id: str, tactic: str, *, rally: bool = False) -> None:
    """Raise unless the army may use `tactic` (known to the rules and trained, or universal)."""
    spec = state.options.tactics.get(tactic)
    if spec is None:
        raise violation(f"no tactic {tactic!r} affects skirmish combat", R_TACTICS)
    if spec.kind == "rally" and not rally:
        raise violation("rallying is only for a routed army", R_TACTICS)
    a = state.armies[army_id]
    if spec.kind == "plain" and tactic != "none" and tactic not in a.spec.tactics:
        raise violation(f"{army_id} is not trained in {tactic!r}", R_TACTICS)


def choose_tactic(state: State, c: ChooseTactic, dice: Dice) -> list[Event]:
    need_phase(state, "setup", R_TACTICS, "choosing a starting tactic", "tactics")
    a = army_of(state, c.army)
    tactic_allowed(state, a.id, c.tactic)
    return [TacticChosen(army=a.id, side=a.side, tactic=c.tactic, reason="setup", rule=R_TACTICS)]


def adjust_tactic(state: State, c: AdjustTactic, dice: Dice) -> list[Event]:
    need_phase(state, "setup", R_ADJUST, "adjusting tactics", "adjust")
    force = force_of(state, c.side)
    a = army_of(state, c.army)
    if len(force.adjust_used) >= force.adjust_allowance:
        raise violation(
            f"{c.side} has no adjustment left ({force.adjust_allowance} earned)", R_ADJUST
        )
    if a.id in force.adjust_used:
        raise violation("no more than 1 tactic can be learned or changed per army", R_ADJUST)
    if a.side == c.side:
        if c.tactic is None:
            raise violation("name the new tactic for your own army", R_ADJUST)
        tactic_allowed(state, a.id, c.tactic)
        return [
            TacticChosen(army=a.id, side=a.side, tactic=c.tactic, reason="adjusted", rule=R_ADJUST)
        ]
    if c.tactic is not None:
        raise violation("an opposing army's tactic can be learned, not changed", R_ADJUST)
    return [TacticLearned(side=c.side, army=a.id, tactic=a.tactic, rule=R_ADJUST)]


def _allowances(state: State) -> tuple[SideAllowance, ...]:
    per = state.options.adjust_tactics_per
    out: list[SideAllowance] = []
    for f in state.forces.values():
        mine = f.initiative or 0
        beats = tuple(
            Term(label=f"beats {g.id} by {mine - (g.initiative or 0)}", value=steps, rule=R_ADJUST)
            for g in state.forces.values()
            if g.id != f.id and (steps := (mine - (g.initiative or 0)) // per) > 0
        )
        out.append(SideAllowance(side=f.id, allowance=total(beats), beats=beats))
    return tuple(out)


def _modifier(state: State, side: str) -> int:
    leader = state.forces[side].leader
    return leader.profession_soldier if leader is not None else 0


def advance_setup(state: State, c: AdvanceSetup, dice: Dice) -> list[Event]:
    if state.phase != "setup":
        raise violation("setup is over", R_SETUP)
    step = state.step
    forces = list(state.forces.values())
    if step == "leaders" and any(f.leader is None for f in forces):
        missing = [f.id for f in forces if f.leader is None]
        raise violation(f"every force needs an acting leader first: {', '.join(missing)}", R_LEADER)
    if step == "armies":
        empty = [f.id for f in forces if not any(a.side == f.id for a in state.armies.values())]
        if empty:
            raise violation(f"every force needs at least one army: {empty}", R_SETUP)
    events: list[Event] = []
    if step == "initiative":
        missing = [f.id for f in forces if f.initiative is None]
        if missing:
            raise violation(
                f"tactical initiative still to roll: {', '.join(missing)}", R_INITIATIVE
            )
        results = {f.id: f.initiative or 0 for f in forces}
        mods = {f.id: _modifier(state, f.id) for f in forces}
        order = tuple(sorted(results, key=lambda s: (results[s], mods[s], s)))
        events.append(
            InitiativeOrdered(order=order, results=results, modifiers=mods, rule=R_INITIATIVE)
        )
    if step == "zones":
        missing = [f.id for f in forces if f.zones is None]
        if missing:
            raise violation(f"zones still to choose: {', '.join(missing)}", R_ZONES)
        gap = state.options.melee_zone_min_width
        for n in (f for f in forces if f.home == "north"):
            for s in (f for f in forces if f.home == "south"):
                assert n.zones is not None and s.zones is not None
                if s.zones.melee_edge - n.zones.melee_edge < gap:
                    raise violation(
                        f"the melee zone between {n.id} and {s.id} must be at least {gap}' "
                        "wide: resolve the conflict with SetZones",
                        R_ZONES,
                    )
    if step == "placement":
        unplaced = sorted(a.id for a in state.armies.values() if not a.placed)
        if unplaced:
            raise violation(f"armies still to place: {unplaced}", R_PLACEMENT)
    if step == "strategies":
        missing = [f.id for f in forces if f.strategy is None]
        if missing:
            raise violation(f"strategies still to declare: {', '.join(missing)}", R_STRATEGY)
    if step == "tactics":
        events.append(AdjustmentsGranted(allowances=_allowances(state), rule=R_ADJUST))
    index = SETUP_STEPS.index(step)
    if index + 1 < len(SETUP_STEPS):
        events.append(SetupAdvanced(step=SETUP_STEPS[index + 1], rule=R_SETUP))
    else:
        events.append(PhaseBegan(round=1, phase="movement", rule=R_SETUP))
    return events
