"""Tactical combat on a grid (seed 002_b2e998ab3b1545db.txt, "Combat") as a decider ruleset.

One token per character on a square grid, turns in initiative order, reactions out of
turn: the ruleset most virtual tabletops play. Modules: options (every open call, A01..),
setup (the setup Structs), model (state), records (what an attack records), commands,
events, rules (the event run, citations), sequence (surprise, positions, initiative,
turns, regeneration), moves, weapons (what a weapon or power rolls and reaches), attacks,
reactions (dodge, parry, shield), area_attacks, walls, opportunity (opportunity attacks),
maneuvers (bull rush, charge, grapple, reload), hits (finisher, conditions on a hit,
concentration checks), modifiers (combat advantage, cover, concealment), pools (dying,
drained, death saves, checks), conditions, actions (save, rest, help, free actions),
help (the Help reroll), referee (rulings), squares, decide, evolve, initial, access; table
play (issue 34): awaiting (prompts), probe (a command tried on decide), reach; and
the grid geometry: geometry, areas, movement, sight.
"""

from __future__ import annotations

from domain.decider import Ruleset
from domain.rulesets.tactical.access import audience, authorize, view
from domain.rulesets.tactical.awaiting import awaiting
from domain.rulesets.tactical.commands import COMMAND_DOCS, Command
from domain.rulesets.tactical.decide import decide, decide_folded
from domain.rulesets.tactical.events import Event
from domain.rulesets.tactical.evolve import evolve
from domain.rulesets.tactical.initial import initial_state, is_over
from domain.rulesets.tactical.model import State
from domain.rulesets.tactical.options import Options
from domain.rulesets.tactical.ordering import ordered_units
from domain.rulesets.tactical.reach import reach
from domain.rulesets.tactical.setup import Setup
from domain.rulesets.tactical.strength import strength
from domain.rulesets.tactical.view_types import TacticalView

__all__ = ["RULESET"]

RULESET: Ruleset[State, Command, Event, Options, Setup] = Ruleset(
    id="tactical",
    version="0.5.0",
    title="Tactical combat on a grid",
    seed="002_b2e998ab3b1545db.txt",
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
    view_type=TacticalView,
    strength=strength,
    strength_measure="hit points (HEA)",
    command_docs=COMMAND_DOCS,
    awaiting=awaiting,
    reach=reach,
    ordered_units=ordered_units,
)
