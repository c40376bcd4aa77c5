"""What a unit's orders refuse in seed 003, each with the exact reason, the seed-text
section it cites and the ids at fault (the problem+json answer's `detail`, `rule` and
context; a refusal appends nothing).

[Facing] one free facing change, before the action, toward one of the battle's directions;
[Actions] a move each round along a path within its speed, on the map, through no unit;
[Engagement] a free action facing a unit within reach, disengaging an action; [Attacks] and
[Ranged Increments] an enemy faced, engaged in melee, within 5 or 10 increments;
[Retaliatory Attacks] once a round, on a melee attacker faced within reach; [Resting] not
engaged; [Pursuit] a shattered unit's tile; [Reinforcement Zones] a reserve into a zone of
its side that holds no enemy."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import RuleViolation
from domain.rulesets.warfare.model import State
from tests.support.warfare_kit import SIDES, make, play, refused, started, unit

ACTIONS, FACING = "003 Unit Actions / Actions", "003 Unit Actions / Facing"
ENGAGEMENT, ATTACKS = "003 Unit Actions / Engagement", "003 Unit Actions / Attacks"
RANGE, RETALIATION = (
    "003 Unit Actions / Ranged Increments",
    "003 Unit Actions / Retaliatory Attacks",
)
RESTING, PURSUIT = "003 Unit Actions / Resting", "003 Unit Actions / Pursuit"
ZONES = "003 Battlefield Features / Reinforcement Zones"


def _face_to_face(options: dict[str, Any] | None = None, b1: str = "S") -> State:
    """a1 (north-facing) and a2 of a, b1 (south-facing) next to a1, b2 far; a's turn."""
    return started(
        make(
            [unit("a1", "a", 5, 6), unit("a2", "a", 7, 6), unit("b1", "b", 5, 5, facing=b1),
             unit("b2", "b", 6, 1), unit("a9", "a", None, None, reserve=True)],
            options=options,
        )
    )  # fmt: skip


def _after(*commands: Any, options: dict[str, Any] | None = None, b1: str = "S") -> Any:
    """The state after `commands` (each a command, or a command and its table dice)."""

    def build() -> State:
        s = _face_to_face(options, b1)
        for command in commands:
            given, dice = command if isinstance(command, tuple) else (command, None)
            _, s = play(s, given, dice)
        return s

    return build


ENGAGE = {"type": "Engage", "unit": "a1", "target": "b1"}
REST = {"type": "Rest", "unit": "a2"}
ATTACK = {"type": "Attack", "unit": "a1", "target": "b1"}
RETALIATE = {"type": "Retaliate", "unit": "b1", "target": "a1"}


def _ranged() -> State:
    return started(
        make([unit("a1", "a", 5, 11, kind="ranged", range_increment=1), unit("b1", "b", 5, 5)])
    )


def _surrounded() -> State:
    """a1 engaged with b1, b2 and b3 (all next to it and faced: four facings, W02)."""
    s = started(
        make(
            [unit("a1", "a", 5, 6), unit("b1", "b", 5, 5), unit("b2", "b", 4, 5),
             unit("b3", "b", 6, 5)],
            options={"facing_directions": 4},
        )
    )  # fmt: skip
    for target in ("b1", "b2", "b3"):
        _, s = play(s, {"type": "Engage", "unit": "a1", "target": target})
    return s


def _zone_held() -> State:
    """b1 stands in a's zone (row 11)."""
    return started(
        make([unit("a1", "a", 5, 6), unit("b1", "b", 3, 11, facing="N"),
              unit("a9", "a", None, None, reserve=True), unit("a2", "a", 0, 0)],
             sides=[{"id": "a", "zones": [{"id": "za", "tiles": [[3, 11], [4, 11]]},
                                          {"id": "zz", "tiles": [[0, 0]]}]}, SIDES[1]])
    )  # fmt: skip


# (state, command, reason, rule, context): every one a RuleViolation
CASES = [
    (lambda: _face_to_face({"facing_directions": 4}),
     {"type": "Face", "unit": "a1", "facing": "NE"},
     "units face one of four directions (N, E, S, W) in this battle", FACING, {}),
    (_after({"type": "Face", "unit": "a2", "facing": "E"}),
     {"type": "Face", "unit": "a2", "facing": "W"},
     "a2 has had its free facing change this round", FACING, {}),
    (_after(REST), {"type": "Face", "unit": "a2", "facing": "W"},
     "the free facing change comes before a2's action", FACING, {}),
    (_face_to_face, {"type": "Move", "unit": "a2", "to": [12, 6]},
     "(12, 6) is off the map", ACTIONS, {}),
    (_face_to_face, {"type": "Move", "unit": "a2", "to": [7, 12]},
     "(7, 12) is off the map", ACTIONS, {}),
    (_face_to_face, {"type": "Move", "unit": "a2", "to": [7, 1]},
     "a2 cannot reach (7, 1) within 4 tiles", ACTIONS, {"speed": 4}),
    (_face_to_face, {"type": "Move", "unit": "a2", "to": [7, 6]},
     "a2 is on (7, 6) already: a move must leave its tile", ACTIONS, {}),
    (_face_to_face, {"type": "Move", "unit": "a2", "to": [7, 4], "path": [[7, 5]]},
     "the path must end at the destination", ACTIONS, {}),
    (_face_to_face, {"type": "Move", "unit": "a2", "to": [7, 4], "path": []},
     "the path must end at the destination", ACTIONS, {}),
    (_face_to_face,
     {"type": "Move", "unit": "a2", "to": [7, 1], "path": [[7, 5], [7, 4], [7, 3], [7, 2], [7, 1]]},
     "5 tiles is beyond a2's speed of 4", ACTIONS, {"speed": 4}),
    (_face_to_face, {"type": "Move", "unit": "a2", "to": [7, 4], "path": [[7, 4]]},
     "(7, 4) is not next to (7, 6)", ACTIONS, {}),
    (_face_to_face, {"type": "Move", "unit": "a1", "to": [5, 4], "path": [[5, 5], [5, 4]]},
     "(5, 5) holds b1", ACTIONS, {}),
    (_after({"type": "Move", "unit": "a2", "to": [7, 7]}),
     {"type": "Move", "unit": "a2", "to": [7, 8]}, "a2 has moved this round", ACTIONS, {}),
    (_face_to_face, {"type": "Engage", "unit": "a1", "target": "a2"},
     "a2 is on a1's own side", ATTACKS, {}),
    (_after(ENGAGE), ENGAGE, "a1 is engaged with b1 already", ENGAGEMENT, {}),
    (_face_to_face, {"type": "Engage", "unit": "a2", "target": "b1"},
     "a2 does not face b1: engaging requires facing", ENGAGEMENT, {}),
    (_face_to_face, {"type": "Engage", "unit": "a1", "target": "b2"},
     "b2 is not within a1's reach", ENGAGEMENT, {}),
    (_after(REST), REST, "a2 has taken its action this round", ACTIONS, {}),
    (_face_to_face, {"type": "Disengage", "unit": "a1"}, "a1 is not engaged", ENGAGEMENT, {}),
    (_after(ENGAGE), {"type": "Disengage", "unit": "a1", "spared": ["b2"]},
     "the spared units must be engaged with the unit", ENGAGEMENT, {}),
    (_surrounded, {"type": "Disengage", "unit": "a1", "spared": ["b1"]},
     "a1 is engaged with 3 units: name the two that take no free attack (spared)",
     ENGAGEMENT, {}),
    (_face_to_face, {"type": "Attack", "unit": "a1", "target": "b1"},
     "a1 must engage b1 to attack it in melee", ENGAGEMENT, {}),
    (lambda: _face_to_face({"melee_needs_engagement": False}),
     {"type": "Attack", "unit": "a1", "target": "b2"}, "b2 is not within a1's reach",
     ENGAGEMENT, {}),
    (_face_to_face, {"type": "Attack", "unit": "a2", "target": "b1"}, "a2 does not face b1",
     FACING, {}),
    (_ranged, {"type": "Attack", "unit": "a1", "target": "b1"},
     "b1 is 6 increments away; ranged units reach 5", RANGE, {"increments": 6}),
    (_after(ENGAGE), {"type": "Rest", "unit": "a1"},
     "a1 is engaged: only a unit not engaged may rest", RESTING, {}),
    (_face_to_face, {"type": "Pursue", "unit": "a1", "shattered": "b1"},
     "a1 may not pursue b1: b1 never shattered", PURSUIT, {}),
    (_face_to_face, {"type": "PlaceReserve", "unit": "a1", "to": [0, 11]},
     "a1 is not a reserve (field)", ZONES, {}),
    (_face_to_face, {"type": "PlaceReserve", "unit": "a9", "to": [5, 10]},
     "(5, 10) is in none of a's reinforcement zones", ZONES, {}),
    (_zone_held, {"type": "PlaceReserve", "unit": "a9", "to": [4, 11]},
     "zone za does not function: b1 stands on it", ZONES, {"enemy": "b1"}),
    (_zone_held, {"type": "PlaceReserve", "unit": "a9", "to": [0, 0]},
     "(0, 0) holds a2", ZONES, {}),
    (_face_to_face, {"type": "Retaliate", "unit": "b1", "target": "a1"},
     "a1 has not attacked b1 in melee this round", RETALIATION, {}),
    (_after(ENGAGE, (ATTACK, [10]), (RETALIATE, [1])), RETALIATE,
     "b1 has made its one retaliatory attack this round", RETALIATION, {}),
    (_after(ENGAGE, (ATTACK, [10]), b1="N"), RETALIATE, "b1 does not face a1", RETALIATION,
     {}),
    (_after(ENGAGE, (ATTACK, [10]), ({"type": "Move", "unit": "a1", "to": [5, 7]}, [1])),
     RETALIATE, "a1 is not within b1's reach", RETALIATION, {}),
]  # fmt: skip


@pytest.mark.parametrize(("state", "command", "reason", "rule", "context"), CASES)
def test_an_order_refused_names_the_fault_and_the_section_it_breaks(
    state: Any, command: dict[str, Any], reason: str, rule: str, context: dict[str, Any]
) -> None:
    got = refused(state(), command)
    assert type(got) is RuleViolation
    assert (got.reason, got.rule, got.context) == (reason, rule, context)
