"""Skirmish Combat (seed 000_3c2569068bd44279.txt) as a decider ruleset.

Armies of hundreds resolved statistically alongside standard combat. Modules: options (rule
variants and the lost tables), specs (leaders, commanders, armies, attack profiles), model
(setup/state), commands, events, rules (seed citations), army (derived figures), geometry
(facing in eight directions, threat, sight, zones, movement rates), turning, moves
(movement checks, provocations), line_of_effect (soft cover, firing into melee), common,
setup (the setup steps), orders (movement & tactics), charge, choices (damage options,
re-rolls), volley and phases (declared actions resolved together), morale (checks,
opposed checks, routing, end), flight (routed armies fleeing), decide, evolve, initial,
access, awaiting and awaiting_setup (prompts), reach (an army's moves); `resolution`
holds the statistical arithmetic.
"""

from __future__ import annotations

from domain.decider import Ruleset
from domain.rulesets.skirmish.access import audience, authorize, view
from domain.rulesets.skirmish.awaiting import awaiting
from domain.rulesets.skirmish.commands import COMMAND_DOCS, Command
from domain.rulesets.skirmish.decide import decide
from domain.rulesets.skirmish.events import Event
from domain.rulesets.skirmish.evolve import evolve
from domain.rulesets.skirmish.initial import initial_state, is_over
from domain.rulesets.skirmish.model import Setup, State
from domain.rulesets.skirmish.options import Options
from domain.rulesets.skirmish.ordering import ordered_units
from domain.rulesets.skirmish.reach import reach
from domain.rulesets.skirmish.strength import strength
from domain.rulesets.skirmish.view_types import SkirmishView

__all__ = ["RULESET"]

RULESET: Ruleset[State, Command, Event, Options, Setup] = Ruleset(
    id="skirmish",
    version="1.1.0",
    title="Skirmish Combat",
    seed="000_3c2569068bd44279.txt",
    options_type=Options,
    setup_type=Setup,
    command_type=Command,
    event_type=Event,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    is_over=is_over,
    authorize=authorize,
    audience=audience,
    view=view,
    view_type=SkirmishView,
    strength=strength,
    strength_measure="army size",
    command_docs=COMMAND_DOCS,
    awaiting=awaiting,
    reach=reach,
    ordered_units=ordered_units,
)
