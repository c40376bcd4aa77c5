"""Strategic combat quick reference (seed 003_70d260850ad8865c.txt) as a decider ruleset.

Units with facing and engagement, d20 attacks in four bands, range increments,
retaliation, morale (diminished, shattered, pursuit), resting, battlefield champions and
reinforcement zones. Modules: limits (bounded types), options (every open call, W01..),
setup, model, commands, events, rules (citations, the event run, shared checks), bands
(the bands and their rounding), geometry (facing, distance, paths), combat (attacks,
morale, shattering, the end), orders (a unit's orders), turns (rounds, champions,
conceding), referee, decide, evolve, initial, access.
"""

from __future__ import annotations

from domain.decider import Ruleset
from domain.rulesets.warfare.access import audience, authorize, view
from domain.rulesets.warfare.awaiting import awaiting
from domain.rulesets.warfare.commands import COMMAND_DOCS, Command
from domain.rulesets.warfare.decide import decide, decide_folded
from domain.rulesets.warfare.events import Event
from domain.rulesets.warfare.evolve import evolve
from domain.rulesets.warfare.initial import initial_state, is_over
from domain.rulesets.warfare.model import State
from domain.rulesets.warfare.options import Options
from domain.rulesets.warfare.ordering import ordered_units
from domain.rulesets.warfare.reach import reach
from domain.rulesets.warfare.setup import Setup
from domain.rulesets.warfare.strength import strength
from domain.rulesets.warfare.view_types import WarfareView

__all__ = ["RULESET"]


def _side_ids(setup: Setup) -> list[str]:
    return [s.id for s in setup.sides]


RULESET: Ruleset[State, Command, Event, Options, Setup] = Ruleset(
    id="warfare",
    version="0.2.0",
    title="Strategic combat: units, facing, engagement and morale",
    seed="003_70d260850ad8865c.txt",
    options_type=Options,
    setup_type=Setup,
    command_type=Command,
    event_type=Event,
    initial_state=initial_state,
    decide=decide,
    decide_folded=decide_folded,
    evolve=evolve,
    is_over=is_over,
    authorize=authorize,
    audience=audience,
    view=view,
    view_type=WarfareView,
    command_docs=COMMAND_DOCS,
    side_ids=_side_ids,
    strength=strength,
    strength_measure="unit health on the field",
    awaiting=awaiting,
    reach=reach,
    ordered_units=ordered_units,
)
