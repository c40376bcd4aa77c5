"""The round for seed 003: its start (the sides' d20 roll-off, W01), each side's turn and
its end, the champions' one action before their units, and conceding.

[Battlefield Champions] "Characters can take one action per round, before their units
act"; [Actions] "All units act together with their controlling battlefield champion":
the side whose turn it is gives its champions' actions and its units' orders, then ends
its turn; the next side in the round's order follows.
"""

from __future__ import annotations

from domain.dice import Dice, Roll
from domain.errors import RuleViolation, UnknownEntity
from domain.rulesets.warfare.combat import check_end, next_side
from domain.rulesets.warfare.commands import (
    Concede,
    EndTurn,
    JoinUnit,
    PassChampion,
    ResolveChampionAction,
    StartRound,
)
from domain.rulesets.warfare.events import (
    ChampionActed,
    ConditionRemoved,
    RoundEnded,
    RoundStarted,
    SideConceded,
    SideDefeated,
    SideRoll,
    TurnEnded,
)
from domain.rulesets.warfare.model import Champion, State
from domain.rulesets.warfare.rules import (
    R_ACTIONS,
    R_CHAMPIONS,
    R_PROJECT,
    R_PURSUIT,
    R_REFEREE,
    Run,
    champion,
    ensure_turn,
    unit,
)

__all__ = [
    "concede",
    "end_turn",
    "join_unit",
    "pass_champion",
    "resolve_champion_action",
    "roll_off",
    "start_round",
]


def roll_off(dice: Dice, sides: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[SideRoll, ...]]:
    """Every side rolls a d20, highest first; the sides of a tie roll again (among
    themselves) until none ties. A side's dice compare in the order rolled."""
    rolled: dict[str, list[Roll]] = {side: [] for side in sides}
    tied = [list(sides)]
    while tied:
        for group in tied:
            for side in group:
                rolled[side].append(dice.roll(20, f"roll-off: {side}", subject=side))
        by_values: dict[tuple[int, ...], list[str]] = {}
        for side in sides:
            by_values.setdefault(tuple(r.value for r in rolled[side]), []).append(side)
        tied = [g for g in by_values.values() if len(g) > 1]
    order = sorted(sides, key=lambda side: tuple(r.value for r in rolled[side]), reverse=True)
    return tuple(order), tuple(SideRoll(side=side, dice=tuple(rolled[side])) for side in sides)


def start_round(run: Run, cmd: StartRound, dice: Dice) -> None:
    s = run.state
    if s.over:
        raise RuleViolation("the battle is over", rule=R_ACTIONS)
    if s.active is not None:
        raise RuleViolation(f"round {s.round} is under way ({s.active} acts)", rule=R_ACTIONS)
    sides = tuple(side for side in s.board.sides if side not in s.defeated)
    mode = s.options.side_order
    rolls: tuple[SideRoll, ...] = ()
    if mode == "setup":
        order = sides
    elif mode == "roll_off_once" and s.order:
        order = tuple(side for side in s.order if side not in s.defeated)
    else:
        order, rolls = roll_off(dice, sides)
    run.emit(RoundStarted(round=s.round + 1, order=order, rolls=rolls, rule=R_PROJECT))


def end_turn(run: Run, cmd: EndTurn, dice: Dice) -> None:
    s = run.state
    ensure_turn(s, cmd.side)
    for u in s.units.values():
        if u.side == cmd.side and u.pursuing_turns == 1:
            run.emit(
                ConditionRemoved(
                    unit=u.id,
                    condition="pursuing",
                    reason="the end of its next turn after pursuing",
                    rule=R_PURSUIT,
                )
            )
    nxt = next_side(s, cmd.side)
    run.emit(TurnEnded(side=cmd.side, next=nxt, rule=R_ACTIONS))
    if nxt is None:
        run.emit(RoundEnded(round=s.round))


def _ready(s: State, cid: str) -> Champion:
    c = champion(s, cid)
    ensure_turn(s, c.side)
    if c.acted:
        raise RuleViolation(f"{c.id} has taken its one action this round", rule=R_CHAMPIONS)
    return c


def pass_champion(run: Run, cmd: PassChampion, dice: Dice) -> None:
    c = _ready(run.state, cmd.champion)
    run.emit(ChampionActed(champion=c.id, action="pass", rule=R_CHAMPIONS))


def join_unit(run: Run, cmd: JoinUnit, dice: Dice) -> None:
    """[Battlefield Champions] "Characters can join units ... as part of certain
    character actions": one champion to a unit (the project's ruling)."""
    s = run.state
    c = _ready(s, cmd.champion)
    if cmd.unit is None:
        if c.joined is None:
            raise RuleViolation(f"{c.id} has joined no unit", rule=R_CHAMPIONS)
        run.emit(ChampionActed(champion=c.id, action="leave", unit=c.joined, rule=R_CHAMPIONS))
        return
    u = unit(s, cmd.unit)
    if u.side != c.side:
        raise RuleViolation(f"{u.id} is not {c.side}'s unit", rule=R_CHAMPIONS)
    if not u.on_field:
        raise RuleViolation(f"{u.id} is not on the battlefield", rule=R_CHAMPIONS)
    if u.joined_by is not None:
        raise RuleViolation(f"{u.joined_by} has joined {u.id} already", rule=R_CHAMPIONS)
    run.emit(ChampionActed(champion=c.id, action="join", unit=u.id, rule=R_CHAMPIONS))


def resolve_champion_action(run: Run, cmd: ResolveChampionAction, dice: Dice) -> None:
    """[Battlefield Champions] Note: "other actions at DM discretion": the referee records
    the action and its effect (in the champion's side's turn, as its one action)."""
    s = run.state
    c = _ready(s, cmd.champion)
    run.emit(
        ChampionActed(
            champion=c.id,
            action="referee",
            description=cmd.action,
            effect=cmd.effect,
            rule=R_REFEREE,
        )
    )


def concede(run: Run, cmd: Concede, dice: Dice) -> None:
    s = run.state
    if s.over:
        raise RuleViolation("the battle is over", rule=R_ACTIONS)
    if cmd.side not in s.board.sides:
        raise UnknownEntity(f"no side {cmd.side!r}", side=cmd.side)
    if cmd.side in s.defeated:
        raise RuleViolation(f"{cmd.side} is out of the battle already", rule=R_PROJECT)
    run.emit(SideConceded(side=cmd.side, reason=cmd.reason or "conceded"))
    run.emit(SideDefeated(side=cmd.side, reason="conceded", rule=R_PROJECT))
    check_end(run)
