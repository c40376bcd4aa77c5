"""The audit narrative of the seeds' worked examples, compared with stored snapshots.

Each example is played through its ruleset's decider as the rule tests play it (seed 000's
three worked examples, tests/unit/skirmish/test_volleys.py; seed 002's shield example,
tests/unit/tactical/test_attacks.py), then told as `GET /battles/{id}/narrative` tells a
command (`service.desk.narrative.tell`, rendered as its Markdown): the events with their
fields, the dice, the rules cited, the changes to the referee's view. The text must equal
tests/unit/snapshots/narrative/<example>.md exactly.

A change to how events are told, or to what they hold, fails here until the snapshots are
looked at and refreshed on purpose:

    UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/unit/test_narrative_snapshots.py

rewrites them (then review `git diff tests/unit/snapshots`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from domain.rulesets.skirmish import RULESET as SKIRMISH
from domain.rulesets.tactical import RULESET as TACTICAL
from service.desk.narrative import Narrative
from service.desk.narrative_routes import to_markdown
from tests.support import tactical_kit
from tests.support.narrative_kit import Step, narrative
from tests.support.skirmish_kit import army, gnolls, ready, run, to_phase
from tests.unit.skirmish.test_movement import engage
from tests.unit.skirmish.test_volleys import FIREBALL

SNAPSHOTS = Path(__file__).parent / "snapshots" / "narrative"
UPDATE = os.environ.get("UPDATE_SNAPSHOTS") == "1"


def _told(
    name: str, ruleset: Any, state: Any, steps: list[Step], advance: Callable[..., Any]
) -> Narrative:
    """The narrative of `steps` given from `state`."""
    return narrative(name, ruleset, state, steps, advance)


def _skirmish(state: Any, command: dict[str, Any], dice: list[int]) -> tuple[Any, list[Any]]:
    fields = {k: v for k, v in command.items() if k != "type"}
    return run(state, command["type"], dice, **fields)


def _tactical(state: Any, command: dict[str, Any], dice: list[int]) -> tuple[Any, list[Any]]:
    events, after = tactical_kit.play(state, command, dice)
    return after, events


def _declare(**fields: Any) -> dict[str, Any]:
    return {"type": "DeclareAction", "army": fields.pop("army", "fighters"), **fields}


def example_1_halberds_vs_orcs() -> Narrative:
    s = to_phase(engage(ready()), "melee")
    steps: list[Step] = [
        ("north", _declare(profile="halberd", target="orcs", reachable_targets=100), []),
        ("referee", {"type": "ResolvePhase"}, [14]),
    ]
    return _told("example-1", SKIRMISH, s, steps, _skirmish)


def example_2_crossbows_vs_gnolls() -> Narrative:
    s = to_phase(ready(south=[gnolls()]), "ranged")
    steps: list[Step] = [
        ("north", _declare(profile="heavy crossbow", target="gnolls", chosen_targets=25), []),
        ("referee", {"type": "ResolvePhase"}, [13]),
    ]
    return _told("example-2", SKIRMISH, s, steps, _skirmish)


def example_3_fireballs_vs_suli() -> Narrative:
    wizards = army(
        "wizards", army_size=3, soldier_hp=25, soldier_class="wizard", attacks=[FIREBALL]
    )
    suli = army(
        "suli", army_size=100, soldier_hp=11, constitution=11, resistances={"fire": 5}, reflex=0
    )
    s = to_phase(ready(north=[wizards], south=[suli]), "ranged")
    declare = _declare(
        army="wizards", profile="fireball", target="suli", reachable_targets=32, chosen_area=13
    )
    steps: list[Step] = [("north", declare, []), ("referee", {"type": "ResolvePhase"}, [11])]
    return _told("example-3", SKIRMISH, s, steps, _skirmish)


def shield_8_against_4() -> Narrative:
    """[Shield]: "Attack roll of 8 when you have 4 armor would result in 4 damage,
    requiring you to spend 4 STA to negate all damage." """
    ch = tactical_kit.ch
    s = tactical_kit.make(
        [
            ch("p", "a", 5, 5, stats={"STR": 2, "END": 2, "DEX": 9}),
            ch("g", "b", 6, 5, DEF=4, off_hand="shield"),
        ]
    )
    s = tactical_kit.started(s, [12, 1])
    attack = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}
    steps: list[Step] = [
        ("a", attack, [6]),
        ("b", {"type": "React", "character": "g", "reaction": "shield"}, []),
    ]
    return _told("shield-8-vs-4", TACTICAL, s, steps, _tactical)


def door_of_3_sth() -> Narrative:
    """[Structures]: "For every 10 points of HEA damage, a structure instead takes 1 point
    of STH damage. To destroy a 3 STH door with an axe, you must deal at least 30 points of
    HEA damage to it." (an axe of +10, three attacks)"""
    ch = tactical_kit.ch
    axe = {"id": "axe", "category": "melee", "dice": "+10"}
    s = tactical_kit.make(
        [ch("p", "a", 5, 5, main_hand="axe", stats={"END": 5}), ch("g", "b", 1, 1)],
        structures=[{"id": "door", "squares": [[6, 5]], "sth": 3}],
        items=[axe],
    )
    s = tactical_kit.started(s, [12, 1])
    attack = {"type": "Attack", "character": "p", "weapon": "axe", "target": "door"}
    steps: list[Step] = [("a", attack, []), ("a", attack, []), ("a", attack, [])]
    return _told("door-3-sth", TACTICAL, s, steps, _tactical)


EXAMPLES = {
    "skirmish-example-1-halberds-vs-orcs": example_1_halberds_vs_orcs,
    "skirmish-example-2-crossbows-vs-gnolls": example_2_crossbows_vs_gnolls,
    "skirmish-example-3-fireballs-vs-suli": example_3_fireballs_vs_suli,
    "tactical-shield-8-vs-4": shield_8_against_4,
    "tactical-door-3-sth": door_of_3_sth,
}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_narrative_of_a_worked_example_is_its_snapshot(name: str) -> None:
    told = to_markdown(EXAMPLES[name]())
    path = SNAPSHOTS / f"{name}.md"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(told, encoding="utf-8")
    assert path.exists(), f"no snapshot {path}: run with UPDATE_SNAPSHOTS=1 to write it"
    assert told == path.read_text(encoding="utf-8"), (
        f"the narrative of {name} changed: if on purpose, refresh the snapshots with "
        "UPDATE_SNAPSHOTS=1 and review the diff"
    )


def test_the_snapshots_hold_the_examples_figures() -> None:
    """The stored text is the examples' own account, not any text: the seed's figures."""
    crossbows = (SNAPSHOTS / "skirmish-example-2-crossbows-vs-gnolls.md").read_text()
    assert "792" in crossbows and "d20 13" in crossbows
    halberds = (SNAPSHOTS / "skirmish-example-1-halberds-vs-orcs.md").read_text()
    assert "5071" in halberds and "d20 14" in halberds
    fire = (SNAPSHOTS / "skirmish-example-3-fireballs-vs-suli.md").read_text()
    assert "748" in fire and "d20 11" in fire
    shield = (SNAPSHOTS / "tactical-shield-8-vs-4.md").read_text()
    assert "AttackResolved" in shield and "rule:" in shield
    door = (SNAPSHOTS / "tactical-door-3-sth.md").read_text()
    assert "door took 10 HEA damage (30 in all): STH 1 to 0, destroyed" in door
