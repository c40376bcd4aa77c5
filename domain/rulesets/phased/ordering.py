"""What each phased command orders (domain.ordering): the combatant that acts, for player
keys limited to some combatants. A command naming a declared action orders that action's
combatant (an action id the state does not hold orders none: the decider refuses it)."""

from __future__ import annotations

from domain.ordering import ordered_by_fields
from domain.rulesets.phased.commands import Command
from domain.rulesets.phased.model import State

__all__ = ["ORDERED_FIELDS", "ordered_units"]

# command tag -> the fields holding the ids of the combatants it orders
ORDERED_FIELDS: dict[str, tuple[str, ...]] = {
    "DeclareAction": ("combatant",),
    "AdjustCombatant": ("combatant",),
}
# commands naming a declared action: they order its combatant
_BY_ACTION = frozenset({"WithdrawAction", "SustainAction", "CancelAction", "ResolveAction"})
_by_fields = ordered_by_fields(ORDERED_FIELDS)


def ordered_units(state: State, command: Command) -> tuple[str, ...]:
    if str(command.__struct_config__.tag) in _BY_ACTION:
        action = state.actions.get(getattr(command, "action", ""))
        return () if action is None else (action.combatant,)
    return _by_fields(state, command)
