"""What each phased command orders (domain.ordering): the combatant that acts, for player
keys limited to some combatants. A command naming a declared action orders that action's
combatant (an action id the state does not hold orders none: the decider refuses it)."""

from __future__ import annotations

from domain.ordering import OrderedByFields
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


class _Ordering(OrderedByFields):
    """The fields' map, and an action's combatant for the commands naming an action (a
    prompt's `action` choice is not narrowed by it: that needs the state)."""

    __slots__ = ()

    def __call__(self, state: State, command: Command) -> tuple[str, ...]:
        if str(command.__struct_config__.tag) in _BY_ACTION:
            action = state.actions.get(getattr(command, "action", ""))
            return () if action is None else (action.combatant,)
        return super().__call__(state, command)


ordered_units = _Ordering(ORDERED_FIELDS)
