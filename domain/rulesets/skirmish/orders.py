"""decide for the movement & tactics phase of seed 000: strategy changes, tactics (with the
Morale check, or an opposed Morale check for `options.opposed_tactics` in melee, and others'
Profession (soldier) checks to notice), rallying, movement by direction, passing through
allies, withdrawing from melee, attacks of opportunity provoked by movement (noted here,
resolved in the opportunity phase). Turning is in `turning`, charges in `charge`.
"""

from __future__ import annotations

from typing import NamedTuple

from domain.actors import side_audience
from domain.dice import Dice, dice_for
from domain.errors import DomainError
from domain.rulesets.skirmish.army import formation_dims
from domain.rulesets.skirmish.commands import (
    ChangeStrategy,
    IssueTactic,
    LoseCommander,
    MoveArmy,
    RevealTactic,
    StopOperating,
)
from domain.rulesets.skirmish.common import army_of, check, force_of, need_phase, violation
from domain.rulesets.skirmish.events import (
    ArmyMoved,
    ArmyRallied,
    Check,
    CommanderLost,
    DyingStopped,
    Event,
    FormationChanged,
    StrategyChanged,
    TacticIssued,
    TacticNoticed,
    TacticRevealed,
)
from domain.rulesets.skirmish.geometry import (
    DirectionClass,
    anchored,
    army_squares,
    direction_class,
    engaged,
    footprint,
    move_allowance,
    move_feet,
    swept,
)
from domain.rulesets.skirmish.model import Army, State
from domain.rulesets.skirmish.morale import opposed_check
from domain.rulesets.skirmish.moves import (
    fits,
    gap_feet,
    passable,
    provocations,
    use_move_action,
)
from domain.rulesets.skirmish.options import STRATEGIES
from domain.rulesets.skirmish.resolution import stop_operating as resolution_stop
from domain.rulesets.skirmish.rules import (
    R_COMMANDER,
    R_FORMATION,
    R_MELEE,
    R_MORALE_DCS,
    R_MOVE_TACTICS,
    R_MOVEMENT,
    R_ROUTING,
    R_SOLDIER,
    R_STRATEGY_CHANGE,
    R_TACTICS,
)
from domain.rulesets.skirmish.setup import tactic_allowed
from domain.rulesets.skirmish.specs import Term
from domain.rulesets.skirmish.turning import turn_army

__all__ = [
    "MoveJudged",
    "Mover",
    "change_strategy",
    "issue_tactic",
    "judge_move",
    "lose_commander",
    "may_issue",
    "may_move",
    "move_army",
    "mover",
    "reveal_tactic",
    "stop_operating",
    "turn_army",
]


def change_strategy(state: State, c: ChangeStrategy, dice: Dice) -> list[Event]:
    need_phase(state, "movement", R_STRATEGY_CHANGE, "changing strategy")
    force = force_of(state, c.side)
    o = state.options
    if c.strategy not in STRATEGIES or c.strategy not in o.strategies:
        raise violation(f"no strategy {c.strategy!r}; one of {list(STRATEGIES)}", R_STRATEGY_CHANGE)
    if force.strategy_attempts > o.strategy_retries_per_round:
        raise violation("the strategy change can be retried only once each turn", R_STRATEGY_CHANGE)
    armies = sorted(
        (a for a in state.armies.values() if a.side == c.side and a.fighting), key=lambda a: a.id
    )
    pending = [a for a in armies if a.strategy != c.strategy]
    if not pending:
        raise violation(f"every army of {c.side} already follows {c.strategy}", R_STRATEGY_CHANGE)
    new = STRATEGIES.index(c.strategy)
    checks: dict[str, Check] = {}
    changed: list[str] = []
    steps_max = 0
    for a in pending:
        steps = abs(new - STRATEGIES.index(a.strategy))
        steps_max = max(steps_max, steps)
        if a.routed:
            checks[a.id] = check(
                dice,
                "",
                [],
                0,
                R_STRATEGY_CHANGE,
                roll=False,
                automatic=False,
                why="routing armies do not gain the benefit of strategies",
            )
            continue
        if steps == 1:
            changed.append(a.id)
            continue
        dc = o.morale_dcs.strategy_change + steps - 1
        result = check(
            dice,
            f"Morale check of {a.id}: strategy {a.strategy} -> {c.strategy}",
            [Term(label="morale", value=a.morale, rule=R_MORALE_DCS)],
            dc,
            R_STRATEGY_CHANGE,
            subject=a.id,
        )
        checks[a.id] = result
        if result.success:
            changed.append(a.id)
    return [
        StrategyChanged(
            side=c.side,
            strategy=c.strategy,
            steps=steps_max,
            checks=checks,
            changed=tuple(changed),
            rule=R_STRATEGY_CHANGE,
        )
    ]


def _issued_to(state: State, army: str) -> Army:
    """issue_tactic's checks that do not turn on the tactic: the phase, and a fighting
    army that had no tactic issued this round."""
    need_phase(state, "movement", R_MOVE_TACTICS, "issuing a tactic")
    a = army_of(state, army)
    if not a.fighting:
        raise violation(f"{a.id} is defeated and cannot act", R_TACTICS)
    if a.tactic_issued:
        raise violation(f"{a.id} already had a tactic issued this round", R_TACTICS)
    return a


def may_issue(state: State, army: str) -> bool:
    """Whether issue_tactic's checks that do not turn on the tactic pass for `army`: if
    not, decide refuses every IssueTactic for it (awaiting asks this before it probes the
    tactics one by one)."""
    try:
        _issued_to(state, army)
    except DomainError:
        return False
    return True


def issue_tactic(state: State, c: IssueTactic, dice: Dice) -> list[Event]:
    a = _issued_to(state, c.army)
    o = state.options
    spec = o.tactics.get(c.tactic)
    if spec is None:
        raise violation(f"no tactic {c.tactic!r} affects skirmish combat", R_TACTICS)
    rally = spec.kind == "rally"
    if a.routed and not rally:
        raise violation(f"{a.id} is routing: only rallying it is possible", R_MOVE_TACTICS)
    if rally and not a.routed:
        raise violation(f"{a.id} is not routing", R_ROUTING)
    tactic_allowed(state, a.id, c.tactic, rally=rally)
    issuer = a if c.by is None else army_of(state, c.by)
    if issuer.side != a.side or (c.by is not None and not rally):
        raise violation("only the army's own or (rallying) an allied commander", R_COMMANDER)
    if issuer.commander_lost:
        raise violation(f"{issuer.id} has no commander to issue tactics", R_COMMANDER)
    if issuer.id != a.id:
        if issuer.routed or not issuer.fighting:
            raise violation(f"{issuer.id} cannot rally others now", R_ROUTING)
        gap = gap_feet(issuer, a, o.square_feet)
        if gap > issuer.command_range:
            raise violation(
                f"{a.id} is {gap}' away, beyond the command range of {issuer.id} "
                f"({issuer.command_range}')",
                R_COMMANDER,
            )
    formation = None
    if spec.kind == "formation":
        if c.formation is None or c.formation not in o.formations:
            raise violation(f"name a formation: one of {sorted(o.formations)}", R_FORMATION)
        if c.formation == a.formation:
            raise violation(f"{a.id} already is in {c.formation} formation", R_FORMATION)
        formation = c.formation
        width, depth = formation_dims(a.squares, formation, o, a.spec.size)
        x, y = anchored(a, width, depth)
        where = fits(state, a, footprint(x, y, width, depth, a.facing))
        if where is not None:
            raise violation(f"the new formation would not fit ({where})", R_FORMATION)
    opponents = [
        state.armies[x]
        for x in engaged(state, a)
        if not state.armies[x].routed and c.tactic in o.opposed_tactics
    ]
    # The order is its side's secret (access.audience: TacticIssued): its dice come from
    # that side's sub-seed, which another side revealing the dice never learns.
    secret = dice_for(dice, side_audience(a.side))
    if opponents:
        # "Opposed Morale Checks": the issuer against every enemy army in melee with it
        result, opposed = opposed_check(secret, a, opponents, f"tactic {c.tactic}")
    else:
        result = check(
            secret,
            f"Morale check of {a.id}: tactic {c.tactic}",
            [Term(label="morale", value=a.morale, rule=R_MORALE_DCS)],
            spec.dc,
            R_TACTICS,
            subject=a.id,
        )
        opposed = ()
    notice = secret.roll(
        20, f"Profession (soldier) of {issuer.id}'s commander: notice DC", subject=issuer.id
    )
    notice_dc = notice.value + issuer.spec.commander.profession_soldier
    events: list[Event] = [
        TacticIssued(
            army=a.id,
            side=a.side,
            tactic=c.tactic,
            check=result,
            notice_dc=notice_dc,
            notice_die=notice,
            formation=formation,
            rule=R_TACTICS,
            opposed=opposed,
        )
    ]
    if not result.success:
        return events
    for other in sorted(state.armies.values(), key=lambda x: x.id):
        if other.side == a.side or other.commander_lost or not other.fighting:
            continue
        seen = check(
            dice_for(dice, side_audience(other.side)),  # TacticNoticed: that side's alone
            f"Profession (soldier) of {other.id}'s commander: notice {a.id}",
            [
                Term(
                    label="Profession (soldier)",
                    value=other.spec.commander.profession_soldier,
                    rule=R_MOVE_TACTICS,
                )
            ],
            notice_dc,
            R_MOVE_TACTICS,
            subject=other.id,
        )
        events.append(
            TacticNoticed(
                army=a.id,
                by_side=other.side,
                by_army=other.id,
                check=seen,
                tactic=c.tactic if seen.success else None,
            )
        )
    if formation is not None:
        width, depth = formation_dims(a.squares, formation, o, a.spec.size)
        x, y = anchored(a, width, depth)
        events.append(
            TacticRevealed(
                army=a.id, side=a.side, tactic=c.tactic, reason="formation", rule=R_FORMATION
            )
        )
        events.append(
            FormationChanged(
                army=a.id,
                formation=formation,
                x=x,
                y=y,
                width=width,
                depth=depth,
                reason="tactic",
                rule=R_FORMATION,
            )
        )
    if rally:
        events.append(
            TacticRevealed(army=a.id, side=a.side, tactic=c.tactic, reason="rally", rule=R_ROUTING)
        )
        events.append(ArmyRallied(army=a.id, by=issuer.id, rule=R_ROUTING))
    return events


class MoveJudged(NamedTuple):
    """A move `judge_move` allows: its feet, allowance, direction, and what it reveals."""

    feet: int
    allowance: int
    direction: DirectionClass
    kind: str  # the army's tactic kind ("plain" without one)
    reveals: bool  # it passes through allies or leaves melee: a secret tactic shows


def may_move(state: State, a: Army) -> None:
    """Raise unless army `a` may make a move now: the movement phase, placed and fighting,
    with a move action left ("Movement & Distance")."""
    need_phase(state, "movement", R_MOVEMENT, "movement")
    if not a.placed or not a.fighting:
        raise violation(f"{a.id} cannot move", R_MOVEMENT)
    use_move_action(a)


class Mover(NamedTuple):
    """What `judge_move` works out once for an army, whatever the square: its tactic's
    kind ("plain" without one) and the enemy armies in melee with it."""

    kind: str
    foes: list[str]

    def held(self) -> bool:
        """In melee without the Retreat or Withdrawal tactic: no square is a move."""
        return bool(self.foes) and self.kind not in ("withdraw", "retreat")


def mover(state: State, a: Army) -> Mover:
    """`may_move`, then what judging any of army `a`'s squares needs (`reach` asks it once
    for all the squares it judges rather than once a square)."""
    may_move(state, a)
    tactic = state.options.tactics.get(a.tactic)
    return Mover(tactic.kind if tactic is not None else "plain", engaged(state, a))


def judge_move(state: State, a: Army, x: int, y: int, moving: Mover | None = None) -> MoveJudged:
    """ "Movement & Distance": whether army `a` may move its anchor to (x, y) now, or the
    RuleViolation that says why not (shared by decide and `reach`); `moving`: `mover`'s
    answer for `a` in `state`, if asked already."""
    moving = mover(state, a) if moving is None else moving
    kind, foes = moving
    o = state.options
    dx, dy = x - a.x, y - a.y
    direction = direction_class(a.facing, dx, dy)
    if direction == "none":
        raise violation("the army is already there", R_MOVEMENT)
    if moving.held():
        raise violation(
            f"{a.id} is in melee with {foes}: it cannot withdraw without the Retreat or "
            "Withdrawal tactic",
            R_MELEE,
        )
    if a.routed:
        home = state.forces[a.side].home
        if (home == "north" and dy >= 0) or (home == "south" and dy <= 0):
            raise violation(f"{a.id} is routing: it can only move toward its camp", R_ROUTING)
    fraction = {"forward": (1, 1), "sideways": o.side_move_fraction}.get(
        direction, o.back_move_fraction
    )
    allowance = move_allowance(a.spec.speed, fraction, o.square_feet)
    feet = move_feet(dx, dy, o.square_feet)
    if feet > allowance:
        raise violation(
            f"{a.id} can move {allowance}' {direction} ({fraction[0]}/{fraction[1]} of "
            f"{a.spec.speed}'), not {feet}'",
            R_MOVEMENT,
        )
    b = state.board
    passed_allies = False
    for step in swept(a, x, y):
        if any(not (0 <= sx < b.width and 0 <= sy < b.height) for sx, sy in step):
            raise violation(f"{a.id} would leave the map", R_MOVEMENT)
        for other in state.armies.values():
            if other.id == a.id or not other.placed or not step & army_squares(other):
                continue
            if passable(state, other):
                continue
            if other.side != a.side:
                raise violation(f"{a.id} cannot move through {other.id}", R_MOVEMENT)
            if kind != "pass_through":
                raise violation(
                    f"{a.id} needs the Pass Through tactic to move through {other.id}",
                    R_MOVE_TACTICS,
                )
            passed_allies = True
    end = footprint(x, y, a.width, a.depth, a.facing)
    where = fits(state, a, end)
    if where is not None:
        raise violation(f"{a.id} cannot end its move {where}", R_MOVEMENT)
    return MoveJudged(feet, allowance, direction, kind, passed_allies or bool(foes))


def move_army(state: State, c: MoveArmy, dice: Dice) -> list[Event]:
    need_phase(state, "movement", R_MOVEMENT, "movement")
    a = army_of(state, c.army)
    judged = judge_move(state, a, c.x, c.y)
    events: list[Event] = []
    if judged.reveals and not a.tactic_public:
        events.append(
            TacticRevealed(army=a.id, side=a.side, tactic=a.tactic, reason="used", rule=R_TACTICS)
        )
    events.append(
        ArmyMoved(
            army=a.id,
            x=c.x,
            y=c.y,
            feet=judged.feet,
            allowance=judged.allowance,
            direction=judged.direction,
            provoked=provocations(state, a, judged.kind),
            rule=R_MOVEMENT,
        )
    )
    return events


def reveal_tactic(state: State, c: RevealTactic, dice: Dice) -> list[Event]:
    if state.phase in ("over",):
        raise violation("the skirmish is over", R_TACTICS)
    a = army_of(state, c.army)
    if a.tactic_public:
        raise violation(f"the tactic of {a.id} is already public", R_TACTICS)
    return [
        TacticRevealed(army=a.id, side=a.side, tactic=a.tactic, reason="revealed", rule=R_TACTICS)
    ]


def lose_commander(state: State, c: LoseCommander, dice: Dice) -> list[Event]:
    if state.phase == "over":
        raise violation("the skirmish is over", R_COMMANDER)
    a = army_of(state, c.army)
    if a.commander_lost:
        raise violation(f"{a.id} has already lost its commander", R_COMMANDER)
    return [CommanderLost(army=a.id, reason=c.reason, rule=R_COMMANDER)]


def stop_operating(state: State, c: StopOperating, dice: Dice) -> list[Event]:
    """ "Dead Soldiers & Acting below 0 HP": the deferred army size reduction applies when the
    dying soldiers stop operating (the referee says when)."""
    if state.phase in ("setup", "over"):
        raise violation("only during the rounds", R_SOLDIER)
    a = army_of(state, c.army)
    n = a.numbers.dying_operating
    if n == 0:
        raise violation(f"{a.id} has no dying soldiers still operating", R_SOLDIER)
    count = n if c.soldiers is None else c.soldiers
    if not 0 < count <= n:
        raise violation(f"{a.id} has {n} dying soldiers still operating", R_SOLDIER)
    numbers, steps = resolution_stop(a.numbers, count)
    return [
        DyingStopped(army=a.id, soldiers=count, numbers=numbers, steps=tuple(steps), rule=R_SOLDIER)
    ]
