"""Each ruleset's `strength(view)` (the replay viewer's chart): what it counts, and that it
counts only what the reader's view shows (a hidden squad, an unseen character)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.actors import Actor
from domain.rulesets.phased import RULESET as PHASED
from domain.rulesets.quickstart import RULESET as QUICKSTART
from domain.rulesets.skirmish import RULESET as SKIRMISH
from domain.rulesets.tactical import RULESET as TACTICAL
from domain.rulesets.warfare import RULESET as WARFARE
from tests.support import phased_kit, skirmish_kit, tactical_kit, warfare_kit
from tests.support.quickstart_play import SETUP

REFEREE = Actor(role="referee")
NORTH, SOUTH = Actor(role="side", side="north"), Actor(role="side", side="south")


def _quickstart() -> Any:
    return QUICKSTART.initial_state(
        msgspec.convert(SETUP, QUICKSTART.setup_type), QUICKSTART.options_type()
    )


def test_quickstart_counts_squads_on_the_field_and_none_hidden_from_the_reader() -> None:
    state = _quickstart()
    assert QUICKSTART.strength(QUICKSTART.view(state, REFEREE)) == {"north": 5, "south": 5}
    squads = dict(state.squads)
    del squads["s_pal"]  # destroyed
    squads["n_sol"] = msgspec.structs.replace(squads["n_sol"], hidden=True)
    state = msgspec.structs.replace(state, squads=squads)
    assert QUICKSTART.strength(QUICKSTART.view(state, REFEREE)) == {"north": 5, "south": 4}
    assert QUICKSTART.strength(QUICKSTART.view(state, NORTH)) == {"north": 5, "south": 4}
    # South does not see north's hidden soldiers: the chart must not tell it they exist.
    assert QUICKSTART.strength(QUICKSTART.view(state, SOUTH)) == {"north": 4, "south": 4}


def test_quickstart_names_a_side_with_no_squad_left() -> None:
    state = msgspec.structs.replace(
        _quickstart(), squads={k: v for k, v in _quickstart().squads.items() if v.side == "north"}
    )
    assert QUICKSTART.strength(QUICKSTART.view(state, REFEREE)) == {"north": 5, "south": 0}


def test_skirmish_counts_the_army_size_of_armies_not_destroyed() -> None:
    state = skirmish_kit.ready(
        [skirmish_kit.fighters(), skirmish_kit.crossbows(army_size=40)], [skirmish_kit.orcs()]
    )
    assert SKIRMISH.strength(SKIRMISH.view(state, REFEREE)) == {"north": 140, "south": 500}
    armies = dict(state.armies)
    armies["crossbows"] = msgspec.structs.replace(armies["crossbows"], destroyed=True)
    state = msgspec.structs.replace(state, armies=armies)
    assert SKIRMISH.strength(SKIRMISH.view(state, SOUTH)) == {"north": 100, "south": 500}


def test_tactical_counts_current_health_of_the_living_never_below_zero() -> None:
    state = tactical_kit.make(
        [
            tactical_kit.ch("a1", "a", 1, 1, HEA={"cur": 12, "max": 20}),
            tactical_kit.ch("a2", "a", 2, 1, HEA={"cur": -3, "max": 20}),
            tactical_kit.ch("b1", "b", 8, 8),
            tactical_kit.ch("b2", "b", 9, 8),
        ]
    )
    chars = dict(state.chars)
    chars["b2"] = msgspec.structs.replace(chars["b2"], dead=True)
    state = msgspec.structs.replace(state, chars=chars)
    assert TACTICAL.strength(TACTICAL.view(state, REFEREE)) == {"a": 12, "b": 20}


def test_warfare_counts_the_health_of_units_on_the_field_only() -> None:
    state = warfare_kit.make(
        [
            warfare_kit.unit("a1", "a", 2, 5),
            warfare_kit.unit("a2", "a", 3, 5, health=30),
            warfare_kit.unit("b1", "b", 2, 2),
        ]
    )
    actor = Actor(role="side", side="b")
    assert WARFARE.strength(WARFARE.view(state, actor)) == {"a": 70, "b": 40}
    units = dict(state.units)
    units["a2"] = msgspec.structs.replace(units["a2"], status="shattered")
    units["b1"] = msgspec.structs.replace(units["b1"], health=-3)
    state = msgspec.structs.replace(state, units=units)
    assert WARFARE.strength(WARFARE.view(state, REFEREE)) == {"a": 40, "b": 0}
    # a side with no unit left on the field is still named, at 0 (the chart keeps its line)
    units["b1"] = msgspec.structs.replace(units["b1"], status="shattered")
    state = msgspec.structs.replace(state, units=units)
    assert WARFARE.strength(WARFARE.view(state, REFEREE)) == {"a": 40, "b": 0}


def test_phased_counts_combatants_up_and_names_every_side() -> None:
    state = phased_kit.make(
        phased_kit.setup_of(
            combatants=[
                phased_kit.cb("r1", "red"),
                phased_kit.cb("r2", "red", hp=None),
                phased_kit.cb("b1", "blue"),
                phased_kit.cb("p1", "party", hp=None),
            ]
        )
    )
    assert PHASED.strength(PHASED.view(state, REFEREE)) == {"red": 2, "blue": 1, "party": 1}
    combatants = dict(state.combatants)
    combatants["b1"] = msgspec.structs.replace(combatants["b1"], hp=0)
    state = msgspec.structs.replace(state, combatants=combatants)
    assert PHASED.strength(PHASED.view(state, REFEREE)) == {"red": 2, "blue": 0, "party": 1}
