"""Soft cover and firing into melee found on the grid (seed 000, "Soft Cover & Firing Into
Melee", "Line of Effect & Indirect Fire"): the armies the line of effect crosses, the armies
the target is in melee with, 25% / 50% of the successes diverted, the recipient, indirect fire
and Precise Shot, the explicit override and the options. Figures worked by hand.

The crossbows (attack +2, 1d10 x2 on 19-20, 2 full rounds) roll 16: 18 against the orcs' AC
14 is 70%; 100 soldiers / 2 = 50 die rolls: 35 successful; critical 70% x 10% = 7%, 3.5 -> 4;
31 successful, 4 critical (before any diversion).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import msgspec

from domain.rulesets.skirmish.line_of_effect import (
    armies_in_the_way,
    centre,
    crossing,
    in_melee_with,
)
from domain.rulesets.skirmish.model import State
from tests.support.skirmish_kit import crossbows, fighters, ready, run, to_phase
from tests.unit.skirmish.test_movement import engage

XBOW = "heavy crossbow"
F = Fraction


def _shoot(s: State, **kw: Any) -> Any:
    """When the crossbows shoot the orcs in the ranged phase, rolling 16."""
    s = to_phase(s, "ranged")
    s, _ = run(s, "DeclareAction", army="xbows", profile=XBOW, target="orcs", **kw)
    return run(s, "ResolvePhase", dice=[16])


def _screened(options: dict[str, Any] | None = None, **profile: Any) -> State:
    """Given the crossbows at (1, 50), a screen of fighters at (1, 58) between them and the
    orcs at (1, 70), and a bigger army off to the side at (20, 58)."""
    xbows = crossbows("xbows")
    xbows["attacks"] = [{**xbows["attacks"][0], **profile}]
    north = [xbows, fighters("screen"), fighters("big", army_size=150)]
    places = {"xbows": (1, 50, "south"), "screen": (1, 58, "south"), "big": (20, 58, "south")}
    return ready(north=north, places=places, options=options)


def test_a_segment_crosses_a_square_over_a_stretch_not_at_a_corner() -> None:
    a, b = (F(1, 2), F(1, 2)), (F(9, 2), F(1, 2))
    assert crossing(a, b, (2, 0)) == F(3, 8)  # enters x = 2 at (2 - 0.5) / 4
    assert crossing(a, b, (2, 1)) is None
    diagonal = ((F(0), F(0)), (F(2), F(2)))
    assert crossing(*diagonal, (1, 0)) is None  # touches the corner (1, 1) only
    assert crossing(*diagonal, (1, 1)) == F(1, 2)
    edge = ((F(0), F(1)), (F(3), F(1)))  # along the border of rows 0 and 1
    assert crossing(*edge, (1, 0)) == F(1, 3) and crossing(*edge, (1, 1)) == F(1, 3)
    assert centre({(1, 50), (3, 51)}) == (F(5, 2), F(51))


def test_soft_cover_found_on_the_grid_diverts_25_percent_to_the_screen() -> None:
    s, ev = _shoot(_screened())
    r = ev[0]
    assert r.soft_cover == ("screen",) and r.into_melee == ()  # "big" is off the line
    assert r.diverted_to == "screen" and r.friendly_fire and r.diversion.percent == 25
    # 31 x 25% = 7.75 -> 7 successful, 4 x 25% = 1 critical diverted; 24 and 3 kept
    kept, diverted = r.diversion.kept, r.diversion.diverted
    assert (kept.successful, kept.critical) == (24, 3)
    assert (diverted.successful, diverted.critical, diverted.targets) == (7, 1, 8)
    first = r.diversion.steps[0]
    assert first.name == "armies giving soft cover" and first.value.num == 1
    assert first.formula == "line of effect (centres) from xbows to orcs crosses: screen (100)"
    assert first.rule.endswith("Soft Cover & Firing Into Melee")
    hit = {e.army: e.result for e in ev if type(e).__name__ == "PhaseDamageApplied"}
    # orcs: 24 x 5 + 3 x 11 = 153; 5,500 -> 5,347
    assert hit["orcs"].damage == 153 and hit["orcs"].after.total_army_hp == 5347
    # screen: 7 x 5 + 1 x 11 = 46 <= 11 x 8; 11 >= 11: 1 removed, 11 < 23: dying
    assert hit["screen"].damage == 46 and hit["screen"].after.total_army_hp == 1054
    assert (hit["screen"].after.army_size, hit["screen"].after.maximum_army_size) == (99, 100)
    assert s.armies["screen"].friendly_fire


def test_several_in_the_way_the_highest_army_size_takes_the_diverted_actions() -> None:
    north = [crossbows("xbows"), fighters("screen"), fighters("big", army_size=150)]
    places = {"xbows": (1, 42, "south"), "screen": (1, 50, "south"), "big": (1, 58, "south")}
    _s, ev = _shoot(ready(north=north, places=places))
    assert ev[0].soft_cover == ("screen", "big")  # nearest first
    assert ev[0].diverted_to == "big"  # 150 > 100, though farther
    assert (ev[0].diversion.diverted.successful, ev[0].diversion.diverted.critical) == (7, 1)


def test_soft_cover_and_firing_into_melee_divert_50_percent_to_the_cover() -> None:
    # Given the fighters engaged with the orcs and the crossbows right behind the fighters
    s = engage(ready(north=[fighters(), crossbows("xbows")], places={"xbows": (1, 55, "south")}))
    _s, ev = _shoot(s)
    r = ev[0]
    assert r.soft_cover == ("fighters",) and r.into_melee == ("fighters",)
    # both circumstances: 31 x 50% = 15.5 -> 15, 4 x 50% = 2
    assert r.diverted_to == "fighters" and r.diversion.percent == 50
    assert (r.diversion.diverted.successful, r.diversion.diverted.critical) == (15, 2)
    assert (r.diversion.kept.successful, r.diversion.kept.critical) == (16, 2)


def test_precise_shot_skips_firing_into_melee_not_soft_cover() -> None:
    s = engage(ready(north=[fighters(), crossbows("xbows")], places={"xbows": (1, 55, "south")}))
    xb = s.armies["xbows"]
    attacks = (msgspec.structs.replace(xb.spec.attacks[0], precise_shot=True),)
    xb = msgspec.structs.replace(xb, spec=msgspec.structs.replace(xb.spec, attacks=attacks))
    s = msgspec.structs.replace(s, armies={**s.armies, "xbows": xb})
    _s, ev = _shoot(s)
    # soft cover alone: 25%, 31 x 25% -> 7, 4 x 25% -> 1
    assert ev[0].diversion.percent == 25 and ev[0].diverted_to == "fighters"
    assert ev[0].diversion.diverted.successful == 7
    # off the line (crossbows at (10, 58)), melee alone and Precise Shot: nothing diverted
    s = engage(ready(north=[fighters(), crossbows("xbows")], places={"xbows": (10, 58, "south")}))
    s = msgspec.structs.replace(
        s, armies={**s.armies, "xbows": msgspec.structs.replace(s.armies["xbows"], spec=xb.spec)}
    )
    _s, ev = _shoot(s)
    assert ev[0].into_melee == ("fighters",) and ev[0].soft_cover == ()
    assert ev[0].diversion is None and ev[0].diverted_to is None


def test_indirect_fire_skips_both() -> None:
    _s, ev = _shoot(_screened(indirect=True))
    assert ev[0].soft_cover == () and ev[0].diversion is None
    assert ev[0].result.volley.successful == 31


def test_the_declared_through_overrides_the_grid() -> None:
    _s, ev = _shoot(_screened(), through=["big"])
    assert ev[0].soft_cover == ("big",) and ev[0].diverted_to == "big"
    assert ev[0].diversion.steps[0].formula == "declared: big (150)"


def test_option_soft_cover_from_grid_off() -> None:
    _s, ev = _shoot(_screened({"soft_cover_from_grid": False}))
    assert ev[0].soft_cover == () and ev[0].diversion is None


def test_option_line_of_effect_any_square() -> None:
    north = [crossbows("xbows"), fighters("screen")]
    places = {"xbows": (1, 50, "south"), "screen": (4, 58, "south")}
    s = ready(north=north, places=places)
    # the centres' line (2.5, 51) -> (4, 72.5) passes x ~ 3 at rows 58-59: west of the screen
    assert armies_in_the_way(s, s.armies["xbows"], s.armies["orcs"]) == ()
    _s, ev = _shoot(ready(north=north, places=places, options={"line_of_effect": "any"}))
    assert ev[0].soft_cover == ("screen",) and ev[0].diversion.percent == 25


def test_defeated_armies_and_the_allies_option() -> None:
    s = _screened()
    screen = msgspec.structs.replace(s.armies["screen"], defeated=True)
    down = msgspec.structs.replace(s, armies={**s.armies, "screen": screen})
    assert armies_in_the_way(down, down.armies["xbows"], down.armies["orcs"]) == ()
    board = msgspec.structs.replace(
        down.board,
        options=msgspec.structs.replace(down.options, soft_cover_from_defeated=True),
    )
    down = msgspec.structs.replace(down, board=board)
    assert armies_in_the_way(down, down.armies["xbows"], down.armies["orcs"]) == ("screen",)
    # the orcs in melee with the fighters; a third side's army would not be an ally
    e = engage(ready(north=[fighters(), crossbows("xbows")], places={"xbows": (10, 58, "south")}))
    assert in_melee_with(e, e.armies["xbows"], e.armies["orcs"]) == ("fighters",)
    other = msgspec.structs.replace(e.armies["fighters"], side="east")
    board = msgspec.structs.replace(
        e.board, options=msgspec.structs.replace(e.options, firing_into_melee_with="allies")
    )
    e2 = msgspec.structs.replace(e, board=board, armies={**e.armies, "fighters": other})
    assert in_melee_with(e2, e2.armies["xbows"], e2.armies["orcs"]) == ()
