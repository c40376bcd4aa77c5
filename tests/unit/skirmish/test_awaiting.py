"""The skirmish's prompts and reach in given states (issue 34): the setup's secret tactics,
an army's orders with the dice they need, the referee's ResolvePhase, and the squares a
move reaches by direction ("Movement & Distance"), judged on what the reader may know.
"""

from __future__ import annotations

import pytest
from msgspec.structs import replace

from domain.errors import UnknownEntity
from domain.prompts import DiceNeed, Excluded, Prompt
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.awaiting import awaiting
from domain.rulesets.skirmish.geometry import FACINGS
from domain.rulesets.skirmish.model import State
from domain.rulesets.skirmish.reach import reach
from tests.support.skirmish_kit import REF, fighters, orcs, ready, run, side
from tests.unit.skirmish.test_maneuvers import _melee

NORTH, SOUTH = side("north"), side("south")


def _by_id(prompts: list[Prompt]) -> dict[str, Prompt]:
    return {p.id: p for p in prompts}


def test_the_ruleset_serves_awaiting_and_reach() -> None:
    assert RULESET.awaiting is awaiting and RULESET.reach is reach


def test_secret_tactics_are_chosen_by_their_side_alone() -> None:
    s = ready([fighters()], [orcs()], until="tactics")
    mine = _by_id(awaiting(s, NORTH))
    assert mine["tactics:fighters"].choices["army"] == ["fighters"]
    assert "relentless_brutality" in mine["tactics:fighters"].choices["tactic"]
    assert (
        "relentless_brutality" not in _by_id(awaiting(s, SOUTH))["tactics:orcs"].choices["tactic"]
    )
    theirs = _by_id(awaiting(s, SOUTH))["tactics:north"]
    assert theirs.choices == {} and theirs.commands == ("ChooseTactic",)
    assert "fighters" not in str(awaiting(s, SOUTH))
    assert _by_id(awaiting(s, REF))["advance-setup:tactics"].commands == ("AdvanceSetup",)
    assert "advance-setup:tactics" in _by_id(awaiting(s, NORTH))  # seen, not answered


def test_movement_orders_with_the_dice_a_tactic_needs() -> None:
    s = ready([fighters()], [orcs()])
    got = _by_id(awaiting(s, NORTH))
    assert got["move:fighters"].choices == {"army": ["fighters"]}
    assert got["tactic:fighters"].dice == (
        DiceNeed(sides=20, purpose="Morale check of fighters: tactic", subject="fighters"),
        DiceNeed(
            sides=20,
            purpose="Profession (soldier) of fighters's commander: notice DC",
            subject="fighters",
        ),
    )
    assert got["tactic:fighters"].rule == "000 Movement & Tactics"
    # south sees north's window as one prompt, and the referee's, without their dice
    theirs = _by_id(awaiting(s, SOUTH))
    assert theirs["movement:north"].choices == {} and theirs["movement:north"].dice == ()
    assert theirs["resolve:1:movement"].role == "referee"
    # declared actions: per attack profile, with the targets decide accepts
    s, _ = run(s, "ResolvePhase")
    bows = _by_id(awaiting(s, NORTH))["declare:fighters:heavy crossbow"]
    assert bows.choices == {"army": ["fighters"], "profile": ["heavy crossbow"], "target": ["orcs"]}
    assert "declare:fighters:halberd" not in _by_id(awaiting(s, NORTH))  # melee: not now


def test_reach_by_direction_and_every_square_is_a_move_decide_accepts() -> None:
    s = ready([fighters()], [orcs()])  # fighters at (1, 58) facing south, speed 30'
    got = reach(s, NORTH, "fighters")
    assert got.command == "MoveArmy" and got.movement == 30 and got.unit_of_movement == "feet"
    cost = {(q.x - 1, q.y - 58): q.cost for q in got.squares}
    assert cost[(0, 3)] == 30  # forward: full speed
    assert cost[(2, 0)] == 20 and (3, 0) not in cost  # sideways: half, rounded up a square
    assert cost[(0, -1)] == 10 and (0, -2) not in cost  # backward: a third
    assert {q.facing for q in got.squares} == {"south"}
    why = "fighters can move 10' backward (1/3 of 30'), not 20'"
    assert Excluded(x=1, y=56, reason=why) in got.excluded
    for q in got.squares:
        _, ev = run(s, "MoveArmy", army="fighters", x=q.x, y=q.y)
        assert ev[-1].feet == q.cost
    with pytest.raises(UnknownEntity):
        reach(s, NORTH, "ghosts")


def _secret_pass_through(s: State) -> State:
    """South's orcs with a secret Pass Through tactic, an allied army right before them."""
    orcs_ = replace(s.armies["orcs"], tactic="pass_through", tactic_public=False)
    return replace(s, armies={**s.armies, "orcs": orcs_})


def test_an_enemys_secret_tactic_does_not_shape_its_reach() -> None:
    # the orcs (6 x 5 squares) behind their wall (2 x 2) at rows 70-71
    s = ready([fighters()], [orcs(speed=90), orcs("wall", army_size=50)],
              places={"wall": (2, 70, "north"), "orcs": (1, 73, "north")})  # fmt: skip
    s = _secret_pass_through(s)
    own = {(q.x, q.y) for q in reach(s, SOUTH, "orcs").squares}
    seen = {(q.x, q.y) for q in reach(s, NORTH, "orcs").squares}
    assert own - seen  # south knows it passes through its wall; north does not
    assert reach(s, REF, "orcs") == reach(s, SOUTH, "orcs")
    plain = replace(s, armies={**s.armies, "orcs": replace(s.armies["orcs"], tactic="none")})
    assert reach(s, NORTH, "orcs") == reach(plain, NORTH, "orcs")


def test_strategies_are_declared_lowest_initiative_first() -> None:
    s = ready([fighters()], [orcs()], until="placement")
    first, then = s.initiative_order
    places = {"fighters": (1, 58, "south"), "orcs": (1, 70, "north")}
    for f in (first, then):
        for a in sorted(x.id for x in s.armies.values() if x.side == f):
            x, y, facing = places[a]
            s, _ = run(s, "PlaceArmy", army=a, x=x, y=y, facing=facing)
    s, _ = run(s, "AdvanceSetup")
    assert s.step == "strategies"
    ids = set(_by_id(awaiting(s, REF)))
    assert f"strategies:{first}" in ids and f"strategies:{then}" not in ids
    s, _ = run(s, "DeclareStrategy", side=first, strategy="standard")
    got = _by_id(awaiting(s, REF))
    assert got[f"strategies:{first}"].optional  # it may still change its mind
    assert not got[f"strategies:{then}"].optional


def test_maneuvers_list_the_fields_they_need() -> None:
    """ "Combat Maneuvers": sunder names the equipment; bull rush, drag and reposition may
    move the army (a boolean, listed "true"), reposition toward a listed facing."""
    got = _by_id(awaiting(_melee(), SOUTH))
    sunder = got["declare:orcs:sunder"]
    assert sunder.choices["equipment"] == ["weapon", "shield", "armor"]
    assert sunder.choices["target"] == ["fighters"]
    assert sunder.rule == "000 Alterations to Standard Combat / Combat Maneuvers"
    repo = got["declare:orcs:reposition:move"]
    assert repo.choices["move_target"] == ["true"] and "boolean" in repo.reason
    assert repo.choices["move_direction"] == list(FACINGS)
    assert "move_direction" not in got["declare:orcs:bull_rush:move"].choices
    assert "declare:orcs:reposition" in got and "declare:orcs:disarm:move" not in got
    assert "declare:orcs:steal" not in got  # no steal in skirmish combat
    assert not any(p.id.startswith("declare:orcs") for p in awaiting(_melee(), NORTH))


def test_the_referee_may_rule_a_commander_lost() -> None:
    s = ready([fighters()], [orcs()])
    p = _by_id(awaiting(s, REF))["lose-commander"]
    assert p.choices == {"army": ["fighters", "orcs"]} and p.optional
    assert p.role == "referee" and p.commands == ("LoseCommander",)
    s, _ = run(s, "LoseCommander", army="orcs")
    assert _by_id(awaiting(s, REF))["lose-commander"].choices == {"army": ["fighters"]}
    assert "lose-commander" not in _by_id(awaiting(s, NORTH))
