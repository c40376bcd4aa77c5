"""Mass Combat quickstart (seed 001_ba3cf8a7d547fae2.txt) as a decider ruleset.

Modules: options (rule variants), model (setup/state), commands, events, grid (geometry),
rules (flow shared by decide), combat, decide, evolve, initial (initial_state, is_over),
access (authorize, audience, view), awaiting (prompts), reach (a squad's moves).
"""

from __future__ import annotations

from domain.decider import Ruleset
from domain.rulesets.quickstart.access import audience, authorize, view
from domain.rulesets.quickstart.awaiting import awaiting
from domain.rulesets.quickstart.commands import COMMAND_DOCS, Command
from domain.rulesets.quickstart.decide import decide, decide_folded
from domain.rulesets.quickstart.events import Event
from domain.rulesets.quickstart.evolve import evolve
from domain.rulesets.quickstart.initial import initial_state, is_over
from domain.rulesets.quickstart.model import Setup, State
from domain.rulesets.quickstart.options import Options
from domain.rulesets.quickstart.ordering import ordered_units
from domain.rulesets.quickstart.reach import reach
from domain.rulesets.quickstart.strength import strength
from domain.rulesets.quickstart.view_types import QuickstartView

__all__ = ["RULESET"]

RULESET: Ruleset[State, Command, Event, Options, Setup] = Ruleset(
    id="quickstart",
    version="1.1.0",
    title="Mass Combat quickstart",
    seed="001_ba3cf8a7d547fae2.txt",
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
    view_type=QuickstartView,
    strength=strength,
    strength_measure="squads on the field",
    command_docs=COMMAND_DOCS,
    awaiting=awaiting,
    reach=reach,
    ordered_units=ordered_units,
)
