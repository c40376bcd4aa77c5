"""Seed 000 section names cited by every `Step`, and the `step` builder."""

from __future__ import annotations

from domain.rulesets.skirmish.resolution.exact import Number, exact, show
from domain.rulesets.skirmish.resolution.model import Step

__all__ = [
    "S_ACTIONS",
    "S_ADV",
    "S_AREA",
    "S_BARDIC",
    "S_CONCENTRATION",
    "S_CRITICAL",
    "S_CRITICAL_ROLLS",
    "S_DAMAGE_OPTIONS",
    "S_DEAD",
    "S_DEFEATED",
    "S_DIE_ROLLS",
    "S_EFFECTIVE_ADV",
    "S_ENDING",
    "S_HEALING",
    "S_LINE_OF_EFFECT",
    "S_MODIFYING",
    "S_RECALCULATE",
    "S_REDUCING",
    "S_REROLL_FAIL",
    "S_REROLL_MODIFIER",
    "S_REROLL_SUCCESS",
    "S_SOFT_COVER",
    "S_SUCCESS",
    "S_SUCCESSFUL_ROLLS",
    "S_TARGETS",
    "S_TEAMWORK",
    "S_TEMPORARY",
    "S_TERMINOLOGY",
    "S_TOTAL_DAMAGE",
    "step",
]

_A = "Actions, Targets, Concentration & Die Rolls"
S_ACTIONS = f"{_A} / Number of Actions"
S_TARGETS = f"{_A} / Number of Targets"
S_AREA = f"{_A} / Affected Area & Density"
S_CONCENTRATION = f"{_A} / Concentration"
S_DIE_ROLLS = f"{_A} / Die Rolls"
S_SUCCESS = "The Success Percentage / Using the Success Percentage"
S_CRITICAL = "The Success Percentage / Critical Percentage"
S_MODIFYING = "The Success Percentage / Modifying the Success Percentage"
S_REROLL_SUCCESS = f"{S_MODIFYING} / Re-roll on a success"
S_REROLL_FAIL = f"{S_MODIFYING} / Re-roll on a fail"
S_REROLL_MODIFIER = f"{S_MODIFYING} / Re-roll at a different modifier"
S_SUCCESSFUL_ROLLS = "The Success Percentage / Determining Successful Die Rolls"
S_CRITICAL_ROLLS = "The Success Percentage / Determining Critical Die Rolls"
S_ADV = "Average Damage Value (ADV)"
S_DAMAGE_OPTIONS = f"{S_ADV} / Damage Options"
S_EFFECTIVE_ADV = "Applying Damage in Skirmish Combat / Determining Effective ADV"
S_TOTAL_DAMAGE = "Applying Damage in Skirmish Combat / Determining Total Damage"
S_REDUCING = "Applying Damage in Skirmish Combat / Concentration & Reducing Army Size"
S_DEAD = "Applying Damage in Skirmish Combat / Dead Soldiers & Acting below 0 HP"
S_RECALCULATE = "Applying Damage in Skirmish Combat / Recalculate"
S_DEFEATED = "Applying Damage in Skirmish Combat / Defeated & Destroyed"
S_HEALING = "Healing in Skirmish Combat"
S_TERMINOLOGY = "Terminology"
S_TEMPORARY = "Terminology / Total Army HP, Temporary"
S_ENDING = "Ending Skirmish Combat (Bloodied)"
S_SOFT_COVER = "Alterations to Standard Combat / Ranged Attacks / Soft Cover & Firing Into Melee"
S_LINE_OF_EFFECT = (
    "Alterations to Standard Combat / Ranged Attacks / Line of Effect & Indirect Fire"
)
S_BARDIC = "Alterations to Standard Combat / Bardic Performance"
S_TEAMWORK = "Alterations to Standard Combat / Teamwork Feats"


def step(name: str, value: Number, formula: str, rule: str) -> Step:
    """A `Step`: the figure exactly, shown (integers as is, others to 2 decimals), its formula
    and its seed section."""
    e = exact(value)
    shown = str(e.num) if e.den == 1 else show(value)
    return Step(name=name, value=e, shown=shown, formula=formula, rule=rule)
