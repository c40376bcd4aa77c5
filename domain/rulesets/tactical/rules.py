"""Shared machinery of decide for seed 002: the event run, the rule citations (the seed's
section names) and small queries on the state (who is hostile, whose turn, costs).
"""

from __future__ import annotations

from domain.errors import RuleViolation, UnknownEntity
from domain.folding import FoldingRun
from domain.rulesets.tactical.events import Event
from domain.rulesets.tactical.evolve import HANDLERS
from domain.rulesets.tactical.model import Char, Square, State

__all__ = [
    "R_ATTACKS",
    "R_BLAST",
    "R_CA",
    "R_CONCEALMENT",
    "R_CONCENTRATION",
    "R_CONDITIONS",
    "R_COVER",
    "R_DEFENSE",
    "R_DUAL",
    "R_HEALTH",
    "R_MOVE",
    "R_RANGES",
    "R_REFEREE",
    "R_REGEN",
    "R_SEQUENCE",
    "R_STAMINA",
    "R_STAMINA_ACTIONS",
    "R_STANDARD",
    "R_STRUCTURES",
    "R_SUPERIOR",
    "R_THROW",
    "R_TOTAL_CONCEALMENT",
    "R_TYPES",
    "R_UNSEEN",
    "Run",
    "char",
    "ensure_active",
    "ensure_combat",
    "hostile",
    "need_sta",
    "round_cap",
]

R_SEQUENCE = "002 Sequence"
R_TYPES = "002 Actions / Types"
R_STANDARD = "002 Actions / Standard Actions"
R_MOVE = "002 Actions / Move Actions"
R_STAMINA_ACTIONS = "002 Actions / Stamina Actions"
R_ATTACKS = "002 Attacks"
R_DEFENSE = "002 Defense and Focus"
R_HEALTH = "002 Damage / Health Damage"
R_STAMINA = "002 Damage / Stamina Damage"
R_CONDITIONS = "002 Conditions"
R_RANGES = "002 Ranges"
R_BLAST = "002 Ranges / Blast"
R_CA = "002 Attack Modifiers / Combat Advantage"
R_COVER = "002 Attack Modifiers / Cover"
R_SUPERIOR = "002 Attack Modifiers / Cover / Superior Cover"
R_CONCEALMENT = "002 Attack Modifiers / Concealment"
R_TOTAL_CONCEALMENT = "002 Attack Modifiers / Concealment / Total Concealment"
R_CONCENTRATION = "002 Niche Rules / Concentration"
R_DUAL = "002 Niche Rules / Dual Wielding"
R_REGEN = "002 Niche Rules / Regeneration"
R_STRUCTURES = "002 Niche Rules / Structures"
R_UNSEEN = "002 Niche Rules / Targeting What You Can't See"
R_THROW = "002 Niche Rules / Throwing Melee Weapons"
R_REFEREE = "002 (referee ruling)"


class Run(FoldingRun[State, Event]):
    """The events of one command, folded as they are emitted so later steps see them."""

    __slots__ = ()

    def __init__(self, state: State) -> None:
        super().__init__(state, HANDLERS)


def char(state: State, cid: str) -> Char:
    c = state.chars.get(cid)
    if c is None:
        raise UnknownEntity(f"no character {cid!r}", character=cid)
    return c


def hostile(state: State, a: Char, b: Char) -> bool:
    """Whether `b` is an enemy of `a` (their sides fight, per the setup's hostile_to)."""
    return b.side in state.board.hostile[a.side]


def ensure_combat(state: State) -> None:
    if state.phase == "over":
        raise RuleViolation("the combat is over", rule=R_SEQUENCE)
    if state.phase != "combat":
        raise RuleViolation("roll initiative first ([Sequence §3])", rule=R_SEQUENCE)


def ensure_active(state: State, c: Char, *, acting: bool = True, ending: bool = False) -> None:
    """The command acts on `c`'s turn ([Sequence §5]), with no attack waiting for a reaction.

    `acting`: an action proper, which a stunned character takes only once it has chosen
    what it loses this turn ([Stunned], A30).
    """
    ensure_combat(state)
    if state.pending is not None:  # naming no target hidden from some reader (decide._run)
        on = "" if state.pending_hidden is not None else f" on {state.pending.target}"
        raise RuleViolation(f"an attack{on} waits for its reaction", rule=R_STAMINA_ACTIONS)
    if state.active != c.id:
        raise RuleViolation(f"it is not {c.id}'s turn (active: {state.active})", rule=R_SEQUENCE)
    if c.down and not ending:  # `ending`: a turn its character fell in may still end
        raise RuleViolation(f"{c.id} is unconscious or dead", rule=R_CONDITIONS)
    if acting and c.stunned_lost is None and c.has("stunned"):
        raise RuleViolation(
            f"{c.id} is stunned: choose what it loses this turn first (Stunned)",
            rule=R_CONDITIONS,
        )


def need_sta(state: State, c: Char, cost: int, what: str) -> None:
    """A20: a fixed STA cost needs that much current STA (unless overspending is allowed)."""
    if cost and not state.options.allow_overspend and c.STA.cur < cost:
        raise RuleViolation(
            f"{what} costs {cost} STA; {c.id} has {c.STA.cur}", rule=R_STAMINA_ACTIONS
        )


def round_cap(c: Char) -> int:
    """[Standard Actions] Attack: at most max(END, 2) attack actions in a round."""
    return max(c.stats.END, 2)


def occupant(state: State, sq: Square) -> Char | None:
    cid = state.occupied.get(sq)
    return None if cid is None else state.chars[cid]
