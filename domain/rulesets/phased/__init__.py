"""Combat Round (seed 004_f6b8997953305d2a.txt) as a decider ruleset: side initiative on 1d10
(1 delays, 10 advances, ties re-roll and draw combat events), rounds cut into speed-rank
phases from Starting to Final, base and weapon speed, actions spanning phases and rounds.

Modules: limits (bounded types), options (every open call), setup, model (state, phases),
commands, events, rules (citations, run, speed rules), outcomes (saves, checks and what
follows them), combat_events (the d20 table), initiative, phases (the walk through a round),
resolution (the configured roll, the referee's outcome), decide, evolve, initial, access.
"""

from __future__ import annotations

from domain.decider import Ruleset
from domain.rulesets.phased.access import audience, authorize, view
from domain.rulesets.phased.awaiting import awaiting
from domain.rulesets.phased.commands import COMMAND_DOCS, Command
from domain.rulesets.phased.decide import decide, decide_folded
from domain.rulesets.phased.events import Event
from domain.rulesets.phased.evolve import evolve
from domain.rulesets.phased.initial import initial_state, is_over
from domain.rulesets.phased.model import State
from domain.rulesets.phased.options import Options
from domain.rulesets.phased.ordering import ordered_units
from domain.rulesets.phased.setup import Setup
from domain.rulesets.phased.strength import strength
from domain.rulesets.phased.view_types import PhasedView

__all__ = ["RULESET"]

RULESET: Ruleset[State, Command, Event, Options, Setup] = Ruleset(
    id="phased",
    version="0.2.0",
    title="Combat Round: side initiative and speed-rank phases",
    seed="004_f6b8997953305d2a.txt",
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
    view_type=PhasedView,
    command_docs=COMMAND_DOCS,
    strength=strength,
    strength_measure="combatants up",
    awaiting=awaiting,
    ordered_units=ordered_units,
)
