"""Starting Skirmish Combat (seed 000): leaders, armies & commanders, boons, surprise,
tactical initiative, zones, placement with facing, strategies, secret tactics, adjusting."""

from __future__ import annotations

import pytest

from domain.errors import RuleViolation, UnknownEntity
from domain.rulesets.skirmish import RULESET
from tests.support.skirmish_kit import (
    army,
    fighters,
    gnolls,
    make,
    orcs,
    ready,
    run,
    types,
)


def _leaders():  # type: ignore[no-untyped-def]
    s = make()
    s, _ = run(s, "AppointLeader", side="north", leader={"name": "N", "profession_soldier": 5})
    s, _ = run(s, "AppointLeader", side="south", leader={"name": "S", "profession_soldier": 2})
    return s


def test_steps_run_in_the_seeds_order_and_need_their_inputs() -> None:
    s = make()
    assert (s.phase, s.step) == ("setup", "leaders")
    with pytest.raises(RuleViolation, match="acting leader"):
        run(s, "AdvanceSetup")
    with pytest.raises(RuleViolation, match="setup step 'armies'"):
        run(s, "RaiseArmy", side="north", army=fighters())
    s = _leaders()
    s, ev = run(s, "AdvanceSetup")
    assert ev[0].step == "armies"
    s, _ = run(s, "RaiseArmy", side="north", army=fighters())
    with pytest.raises(RuleViolation, match="at least one army"):
        run(s, "AdvanceSetup")
    s, _ = run(s, "RaiseArmy", side="south", army=orcs())
    seen = []
    for _ in range(3):
        s, ev = run(s, "AdvanceSetup")
        seen.append(ev[-1].step)
    assert seen == ["boons", "surprise", "initiative"]
    with pytest.raises(RuleViolation) as refused:
        run(s, "AdvanceSetup")
    # the forces named as text, not as a Python list
    assert refused.value.reason == "tactical initiative still to roll: north, south"


def test_army_attributes_morale_command_range_and_commander_cover() -> None:
    s = _leaders()
    s, _ = run(s, "AdvanceSetup")
    s, ev = run(
        s,
        "RaiseArmy",
        side="north",
        army=fighters(
            commander={"name": "Cap", "cha_mod": 2, "ac": 15, "reflex": 3, "leadership": 1}
        ),
    )
    e = ev[0]
    assert (e.army_type, e.squares, e.width, e.depth) == ("medium", 6, 3, 2)
    # lawful +1, fighters +1, leadership +1 (option)
    assert e.morale == 3
    assert [t.label for t in e.morale_terms] == [
        "base",
        "lawful",
        "class fighter",
        "commander leadership",
    ]
    assert e.command_range == 100 + 25 * 2
    assert (e.commander_ac, e.commander_reflex) == (15 + 8, 3 + 4)
    assert e.numbers.total_army_hp == 1100 and e.original_total_hp == 1100
    s, ev = run(s, "RaiseArmy", side="south", army=orcs())
    assert ev[0].morale == -3  # chaotic, barbarians, tribal race
    assert ev[0].army_type == "huge" and ev[0].squares == 30
    s, ev = run(s, "RaiseArmy", side="south", army=gnolls())
    assert ev[0].numbers.total_army_hp == 900  # Total Army HP given below full
    with pytest.raises(RuleViolation, match="already"):
        run(s, "RaiseArmy", side="south", army=gnolls())
    with pytest.raises(RuleViolation, match="Total Army HP"):
        run(s, "RaiseArmy", side="south", army=army("x", total_hp=5000))
    with pytest.raises(UnknownEntity):
        run(s, "RaiseArmy", side="west", army=army("y"))


def test_militaristic_race_and_options_change_morale() -> None:
    s = make({"morale_lawful": 2, "commander_leadership_to_morale": False})
    s, _ = run(s, "AppointLeader", side="north", leader={"name": "N"})
    s, _ = run(s, "AppointLeader", side="south", leader={"name": "S"})
    s, _ = run(s, "AdvanceSetup")
    s, ev = run(
        s,
        "RaiseArmy",
        side="north",
        army=army(
            "h", alignment="LG", race_kind="militaristic", commander={"name": "c", "leadership": 3}
        ),
    )
    assert ev[0].morale == 3
    # the labels a player reads, each with its value (seed 000 "Morale Modifier")
    assert [(t.label, t.value) for t in ev[0].morale_terms] == [
        ("base", 0),
        ("lawful", 2),
        ("militaristic race", 1),
    ]
    s, ev = run(s, "RaiseArmy", side="south", army=orcs(morale_adjustment=2))
    assert [(t.label, t.value) for t in ev[0].morale_terms] == [
        ("base", 0),
        ("chaotic", -1),
        ("class barbarian", -1),
        ("tribal race", -1),
        ("adjustments", 2),
    ]


def test_boons_leader_to_all_commander_to_one_never_twice() -> None:
    s = make()
    s, _ = run(
        s,
        "AppointLeader",
        side="north",
        leader={"name": "N", "boons": ["hold_the_line", "rallying_cry"]},
    )
    s, _ = run(s, "AppointLeader", side="south", leader={"name": "S"})
    s, _ = run(s, "AdvanceSetup")
    s, _ = run(s, "RaiseArmy", side="north", army=fighters("a"))
    s, _ = run(
        s,
        "RaiseArmy",
        side="north",
        army=fighters("b", commander={"name": "c", "boons": ["merciless"]}),
    )
    s, _ = run(s, "RaiseArmy", side="south", army=orcs())
    with pytest.raises(RuleViolation, match="boons"):
        run(s, "GrantBoon", side="north", boon="hold_the_line")
    s, _ = run(s, "AdvanceSetup")
    s, ev = run(s, "GrantBoon", side="north", boon="rallying_cry")
    assert ev[0].armies == ("a", "b") and ev[0].morale == 2
    assert s.armies["a"].morale == 4 and s.armies["b"].morale == 4
    s, ev = run(s, "GrantBoon", side="north", boon="merciless", army="b")
    assert ev[0].source == "commander" and s.armies["b"].boons == ("rallying_cry", "merciless")
    with pytest.raises(RuleViolation, match="more than once"):
        run(s, "GrantBoon", side="north", boon="rallying_cry")
    with pytest.raises(RuleViolation, match="does not provide"):
        run(s, "GrantBoon", side="north", boon="sharpshooter", army="a")
    with pytest.raises(RuleViolation, match="no boon"):
        run(s, "GrantBoon", side="north", boon="free_lunch")


def test_surprise_gives_ambush_flat_footed_and_melee_zone_placement() -> None:
    s = ready(until="surprise")
    s, _ = run(s, "AdvanceSetup")  # boons -> surprise
    assert s.step == "surprise"
    s, ev = run(
        s, "CheckSurprise", dice=[9], side="north", target_side="south", armies=["fighters"]
    )
    assert ev[0].check.dc == 10 and ev[0].check.total == 9 and not ev[0].check.success
    assert not s.armies["fighters"].ambush
    s2, ev = run(
        s, "CheckSurprise", dice=[10], side="north", target_side="south", armies=["fighters"]
    )
    assert ev[0].check.success
    assert s2.armies["fighters"].ambush and s2.forces["south"].surprised
    assert s2.armies["orcs"].flat_footed
    s2, _ = run(s2, "AdvanceSetup")
    # a surprised leader uses only the modifier: no die
    s2, ev = run(s2, "RollInitiative", side="south")
    assert ev[0].check.die is None and ev[0].check.total == 2 and ev[0].surprised
    s2, _ = run(s2, "RollInitiative", dice=[1], side="north")
    s2, ev = run(s2, "AdvanceSetup")
    assert ev[0].order == ("south", "north")  # 2 < 6
    s2, _ = run(s2, "SetZones", side="south", zones={"melee_edge": 700})
    s2, _ = run(s2, "SetZones", side="north", zones={"melee_edge": 600})
    s2, _ = run(s2, "AdvanceSetup")
    s2, _ = run(s2, "PlaceArmy", army="orcs", x=1, y=70, facing="north")
    s2, ev = run(s2, "PlaceArmy", army="fighters", x=1, y=64, facing="south")
    assert ev[0].zone == "melee"  # only after a successful ambush


def test_no_melee_zone_placement_without_ambush_and_placement_order() -> None:
    s = ready(until="placement", initiative=(15, 3))
    assert s.initiative_order == ("south", "north")
    with pytest.raises(RuleViolation, match="lower initiative"):
        run(s, "PlaceArmy", army="fighters", x=1, y=58, facing="south")
    s, _ = run(s, "PlaceArmy", army="orcs", x=1, y=70, facing="north")
    with pytest.raises(RuleViolation, match="ranged or camp"):
        run(s, "PlaceArmy", army="fighters", x=1, y=62, facing="south")
    with pytest.raises(RuleViolation, match="ranged or camp"):
        run(s, "PlaceArmy", army="fighters", x=1, y=59, facing="south")  # straddles the edge
    s, ev = run(s, "PlaceArmy", army="fighters", x=1, y=40, facing="east")
    assert ev[0].zone == "camp"
    s, ev = run(s, "PlaceArmy", army="fighters", x=1, y=58, facing="south")  # placed again
    assert ev[0].zone == "ranged" and s.armies["fighters"].facing == "south"
    with pytest.raises(RuleViolation, match="fit"):
        run(s, "PlaceArmy", army="fighters", x=39, y=58, facing="south")


def test_initiative_ties_go_to_the_higher_modifier() -> None:
    s = ready(until="initiative")
    s, _ = run(s, "AdvanceSetup")
    s, _ = run(s, "RollInitiative", dice=[5], side="north")  # 5 + 5 = 10
    with pytest.raises(RuleViolation, match="already"):
        run(s, "RollInitiative", dice=[5], side="north")
    s, _ = run(s, "RollInitiative", dice=[8], side="south")  # 8 + 2 = 10
    s, ev = run(s, "AdvanceSetup")
    assert ev[0].results == {"north": 10, "south": 10}
    assert ev[0].order == ("south", "north")  # lowest first; the tie goes to +5


def test_zone_minimum_sizes_and_conflicts() -> None:
    s = ready(until="zones")
    first, second = s.initiative_order
    with pytest.raises(RuleViolation, match="lower initiative"):
        run(s, "SetZones", side=second, zones={"melee_edge": 600})
    bad = [
        ({"melee_edge": 600, "ranged_width": 90}, "ranged zone"),
        ({"melee_edge": 600, "camp_width": 400}, "camp zone"),
        ({"melee_edge": 600, "command_distance": 450}, "command zone"),
    ]
    for zones, msg in bad:
        with pytest.raises(RuleViolation, match=msg):
            run(s, "SetZones", side=first, zones=zones)
    edges = {"north": 600, "south": 650}
    s, _ = run(s, "SetZones", side=first, zones={"melee_edge": edges[first]})
    s, _ = run(s, "SetZones", side=second, zones={"melee_edge": edges[second]})
    with pytest.raises(RuleViolation, match="at least 100"):
        run(s, "AdvanceSetup")
    s, _ = run(s, "SetZones", side="south", zones={"melee_edge": 700})
    s, ev = run(s, "AdvanceSetup")
    assert ev[0].step == "placement"


def test_strategies_in_order_and_redeclared() -> None:
    s = ready(until="placement", initiative=(3, 15))
    s, _ = run(s, "PlaceArmy", army="fighters", x=1, y=58, facing="south")
    s, _ = run(s, "PlaceArmy", army="orcs", x=1, y=70, facing="north")
    s, _ = run(s, "AdvanceSetup")
    with pytest.raises(RuleViolation, match="lower initiative"):
        run(s, "DeclareStrategy", side="south", strategy="reckless")
    s, _ = run(s, "DeclareStrategy", side="north", strategy="cautious")
    s, _ = run(s, "DeclareStrategy", side="south", strategy="reckless")
    s, _ = run(s, "DeclareStrategy", side="north", strategy="defensive")  # in response
    with pytest.raises(RuleViolation, match="no strategy"):
        run(s, "DeclareStrategy", side="north", strategy="sneaky")
    s, _ = run(s, "AdvanceSetup")
    assert s.armies["fighters"].strategy == "defensive" and s.armies["orcs"].strategy == "reckless"


def test_secret_tactics_and_adjusting_for_every_five_points() -> None:
    s = ready(until="adjust", initiative=(16, 3), tactics={"fighters": "cautious_combat"})
    # north 16+5 = 21 beats south 3+2 = 5 by 16: three adjustments
    assert s.forces["north"].adjust_allowance == 3 and s.forces["south"].adjust_allowance == 0
    assert (
        s.armies["fighters"].tactic == "cautious_combat" and not s.armies["fighters"].tactic_public
    )
    s, ev = run(s, "AdjustTactic", side="north", army="orcs")
    assert types(ev) == ["TacticLearned"] and RULESET.audience(ev[0]) == "side:north"
    assert s.armies["orcs"].known_by == ("north",)
    with pytest.raises(RuleViolation, match="per army"):
        run(s, "AdjustTactic", side="north", army="orcs")
    s, ev = run(s, "AdjustTactic", side="north", army="fighters", tactic="relentless_brutality")
    assert RULESET.audience(ev[0]) == "side:north"
    assert s.armies["fighters"].tactic == "relentless_brutality"
    with pytest.raises(RuleViolation, match="no adjustment left"):
        run(s, "AdjustTactic", side="south", army="fighters")


def test_choose_tactic_is_secret_and_checked() -> None:
    s = ready(until="tactics")
    s, ev = run(s, "ChooseTactic", army="orcs", tactic="none")
    assert s.armies["orcs"].tactic_public
    s, ev = run(s, "ChooseTactic", army="fighters", tactic="cautious_combat")
    assert RULESET.audience(ev[0]) == "side:north" and not s.armies["fighters"].tactic_public
    with pytest.raises(RuleViolation, match="not trained"):
        run(s, "ChooseTactic", army="orcs", tactic="cautious_combat")
    with pytest.raises(RuleViolation, match="routed"):
        run(s, "ChooseTactic", army="orcs", tactic="rally")
    with pytest.raises(RuleViolation, match="no tactic"):
        run(s, "ChooseTactic", army="orcs", tactic="teleport")


def test_formation_never_thinner_than_one_soldier() -> None:
    s = ready(until="boons")
    assert s.armies["orcs"].width == 6
    giants = army("giants", size="huge", army_size=4, squares=1)
    s = make()
    s, _ = run(s, "AppointLeader", side="north", leader={"name": "N"})
    s, _ = run(s, "AppointLeader", side="south", leader={"name": "S"})
    s, _ = run(s, "AdvanceSetup")
    s, ev = run(s, "RaiseArmy", side="north", army=giants)
    assert (ev[0].squares, ev[0].width, ev[0].depth) == (1, 2, 2)  # a Huge soldier is 15'
