"""What a declared action chooses about its attack profile (seed 000): the damage option
("Average Damage Value (ADV)" / Damage Options) and re-rolls of its die roll ("Modifying the
Success Percentage": Re-roll on a success / on a fail / at a different modifier).

`declare_with_choices` wraps the phases' `declare_action`: the choices are validated and
written into the declared profile (`AttackProfile.option`, `AttackProfile.rerolls`), so the
`ActionDeclared` event carries them and the resolution reads them from the declaration.
"""

from __future__ import annotations

from msgspec.structs import replace

from domain.dice import Dice
from domain.rulesets.skirmish.commands import DeclareAction
from domain.rulesets.skirmish.common import violation
from domain.rulesets.skirmish.events import ActionDeclared, Event
from domain.rulesets.skirmish.model import State
from domain.rulesets.skirmish.phases import declare_action
from domain.rulesets.skirmish.specs import AttackProfile
from domain.rulesets.skirmish.volley import R_DAMAGE_OPTIONS, option_names

__all__ = ["R_REROLLS", "choose", "declare_with_choices"]

R_REROLLS = "000 The Success Percentage / Modifying the Success Percentage"
_NO_ROLL = ("heal", "temp_hp")


def choose(profile: AttackProfile, c: DeclareAction) -> AttackProfile:
    """The profile as the action declares it: its damage option (one of `option_names`; the
    profile's own name is its base damage) and its re-rolls (the profile's own, then the
    declared ones). RuleViolation for an unknown option or a re-roll with no die roll."""
    names = option_names(profile)
    if profile.option is not None and profile.option not in names:
        raise violation(
            f"{profile.name} has no damage option {profile.option!r} (options: {', '.join(names)})",
            R_DAMAGE_OPTIONS,
        )
    option = profile.option
    if c.damage_option is not None:
        if c.damage_option not in names:
            raise violation(
                f"{profile.name} has no damage option {c.damage_option!r} "
                f"(options: {', '.join(names)})",
                R_DAMAGE_OPTIONS,
            )
        option = c.damage_option
    if c.rerolls and profile.kind in _NO_ROLL:
        raise violation(f"{profile.name} ({profile.kind}) has no die roll to re-roll", R_REROLLS)
    if option == profile.option and not c.rerolls:
        return profile
    return replace(profile, option=option, rerolls=(*profile.rerolls, *c.rerolls))


def declare_with_choices(state: State, c: DeclareAction, dice: Dice) -> list[Event]:
    """decide for `DeclareAction`: the phases' checks, then the profile's choices."""
    events = declare_action(state, c, dice)
    out: list[Event] = []
    for e in events:
        if isinstance(e, ActionDeclared):
            d = e.declaration
            p = choose(d.profile, c)
            if p is not d.profile:
                e = replace(e, declaration=replace(d, profile=p))
        out.append(e)
    return out
