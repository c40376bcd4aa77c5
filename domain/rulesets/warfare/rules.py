"""Shared machinery of decide for seed 003: the rule citations (the quick reference's
headings), the event run, and the checks every unit order makes (its side's turn, its
champion acted first, it is on the field).

The text has no numbered sections: a citation is "003 <part> / <heading>" as the text
prints them; "003 (project ruling)" marks a call the text leaves open (an option, W..).
"""

from __future__ import annotations

from domain.errors import RuleViolation, UnknownEntity
from domain.folding import FoldingRun
from domain.rulesets.warfare.events import Event
from domain.rulesets.warfare.evolve import HANDLERS
from domain.rulesets.warfare.model import Champion, State, Unit

__all__ = [
    "R_ACTIONS",
    "R_ATTACKS",
    "R_CHAMPIONS",
    "R_DIMINISHED",
    "R_ENGAGEMENT",
    "R_FACING",
    "R_MORALE",
    "R_PROJECT",
    "R_PURSUIT",
    "R_RANGE",
    "R_REFEREE",
    "R_RESTING",
    "R_RETALIATION",
    "R_SHATTERED",
    "R_ZONES",
    "Run",
    "champion",
    "ensure_can_act",
    "ensure_on_field",
    "ensure_round",
    "ensure_turn",
    "unit",
]

R_CHAMPIONS = "003 Battlefield Champions"
R_ACTIONS = "003 Unit Actions / Actions"
R_FACING = "003 Unit Actions / Facing"
R_ENGAGEMENT = "003 Unit Actions / Engagement"
R_ATTACKS = "003 Unit Actions / Attacks"
R_RANGE = "003 Unit Actions / Ranged Increments"
R_RETALIATION = "003 Unit Actions / Retaliatory Attacks"
R_MORALE = "003 Unit Actions / Morale"
R_DIMINISHED = "003 Unit Actions / Diminished"
R_SHATTERED = "003 Unit Actions / Shattered Units"
R_PURSUIT = "003 Unit Actions / Pursuit"
R_RESTING = "003 Unit Actions / Resting"
R_ZONES = "003 Battlefield Features / Reinforcement Zones"
R_PROJECT = "003 (project ruling)"
R_REFEREE = "003 (referee ruling)"


class Run(FoldingRun[State, Event]):
    """The events of one command, folded as they are emitted so later steps see them."""

    __slots__ = ()

    def __init__(self, state: State) -> None:
        super().__init__(state, HANDLERS)


def unit(state: State, uid: str) -> Unit:
    u = state.units.get(uid)
    if u is None:
        raise UnknownEntity(f"no unit {uid!r}", unit=uid)
    return u


def champion(state: State, cid: str) -> Champion:
    c = state.champions.get(cid)
    if c is None:
        raise UnknownEntity(f"no champion {cid!r}", champion=cid)
    return c


def ensure_round(state: State) -> None:
    if state.over:
        raise RuleViolation("the battle is over", rule=R_ACTIONS)
    if state.active is None:
        raise RuleViolation(
            "no round under way: the referee starts one (StartRound)", rule=R_ACTIONS
        )


def ensure_turn(state: State, side: str) -> None:
    """It is `side`'s turn ([Actions]: a side's units act together, W01)."""
    ensure_round(state)
    if state.active != side:
        raise RuleViolation(
            f"it is not {side}'s turn (active: {state.active})", rule=R_ACTIONS, active=state.active
        )


def ensure_on_field(u: Unit) -> None:
    if u.status == "shattered":
        raise RuleViolation(f"{u.id} has shattered and left the battlefield", rule=R_SHATTERED)
    if not u.on_field:
        raise RuleViolation(f"{u.id} is not on the battlefield ({u.status})", rule=R_ACTIONS)


def ensure_can_act(state: State, u: Unit) -> None:
    """A unit order on its side's turn: it is on the field and the champions that lead it
    have taken their action this round ([Battlefield Champions], W04)."""
    ensure_turn(state, u.side)
    ensure_on_field(u)
    if state.champions and state.board.options.champions_first:
        for c in state.champions.values():
            if not c.acted and (u.id in c.leads or c.joined == u.id):
                raise RuleViolation(
                    f"{c.id} acts before its units: its action first (PassChampion, "
                    "JoinUnit or the referee's ResolveChampionAction)",
                    rule=R_CHAMPIONS,
                    champion=c.id,
                )
