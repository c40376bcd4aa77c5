"""Who orders what, who sees what (seed 000 access rules of this ruleset)."""

from __future__ import annotations

import msgspec
import pytest

from domain.actors import Actor
from domain.errors import NotPermitted
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.geometry import zone_rows
from domain.rulesets.skirmish.model import Force, Zones
from tests.support.skirmish_kit import REF, cmd, ready, run, side


def test_a_side_orders_only_its_own_force_and_armies() -> None:
    s = ready(tactics={"fighters": "cautious_combat"})
    north, south = side("north"), side("south")
    RULESET.authorize(s, cmd("MoveArmy", army="fighters", x=1, y=60), north)
    RULESET.authorize(s, cmd("ChangeStrategy", side="north", strategy="cautious"), north)
    with pytest.raises(NotPermitted):
        RULESET.authorize(s, cmd("MoveArmy", army="fighters", x=1, y=60), south)
    with pytest.raises(NotPermitted):
        RULESET.authorize(s, cmd("ChangeStrategy", side="north", strategy="cautious"), south)
    with pytest.raises(NotPermitted):
        RULESET.authorize(s, cmd("IssueTactic", army="orcs", tactic="rally", by="fighters"), south)
    for referee_only in ("AdvanceSetup", "ResolvePhase", "EndSkirmish"):
        with pytest.raises(NotPermitted):
            RULESET.authorize(s, cmd(referee_only), north)
        RULESET.authorize(s, cmd(referee_only), REF)
    with pytest.raises(NotPermitted):
        RULESET.authorize(s, cmd("LoseCommander", army="fighters"), north)
    with pytest.raises(NotPermitted):
        RULESET.authorize(s, cmd("MoveArmy", army="fighters", x=1, y=60), Actor(role="observer"))
    # adjusting: learning the other side's tactic is an order of one's own force
    RULESET.authorize(s, cmd("AdjustTactic", side="north", army="orcs"), north)


def test_secret_tactics_and_declarations_are_hidden_until_revealed() -> None:
    s = ready(tactics={"fighters": "cautious_combat"}, initiative=(20, 1))
    views = {who: RULESET.view(s, a) for who, a in (("n", side("north")), ("s", side("south")))}
    tactic = {
        k: next(a for a in v["armies"] if a["id"] == "fighters")["tactic"] for k, v in views.items()
    }
    assert tactic == {"n": "cautious_combat", "s": "secret"}
    assert views["s"]["forces"][0]["adjust_allowance"] is None
    assert RULESET.view(s, Actor(role="observer"))["armies"][0]["tactic"] == "secret"
    s, _ = run(s, "RevealTactic", army="fighters")
    south = RULESET.view(s, side("south"))
    assert next(a for a in south["armies"] if a["id"] == "fighters")["tactic"] == "cautious_combat"


def test_view_shows_the_computed_attributes() -> None:
    s = ready()
    v = RULESET.view(s, REF)
    f = next(a for a in v["armies"] if a["id"] == "fighters")
    assert f["army_type"] == "medium" and f["soldier_hp"] == "11.00"
    assert f["commander"]["command_range"] == 125 and f["commander"]["ac"] == 18
    assert v["legal"][0] == "side: ChangeStrategy" and v["phase"] == "movement"


def test_bardic_radius_teamwork_and_temporary_leader_in_the_view() -> None:
    from tests.support.skirmish_kit import fighters

    bards = fighters(
        commander={"name": "Lyra", "cha_mod": 3, "bard": True},
        teamwork_feats=["shield_wall"],
    )
    s = ready(north=[bards])
    f = RULESET.view(s, REF)["armies"][0]
    assert f["bardic_radius"] == {"feet": 100 + 50 * 3, "squares": 25}
    assert f["commander"]["command_range"] == 100 + 25 * 3
    assert f["teamwork"] == {"feats": ["shield_wall"], "participants": 16}
    s, ev = run(s, "AppointLeader", side="north", leader={"name": "Sergeant"})
    assert ev[0].temporary and RULESET.view(s, REF)["forces"][0]["leader"] == "Sergeant"


def test_every_reader_sees_each_forces_zones_in_rows() -> None:
    # SetZones is seen by all: north's melee edge at 600', south's at 700' (10' squares);
    # both command zones lie 500' behind their ranged zones, off the 120-row map
    s = ready(until="placement")
    want = {
        "north": {"ranged": [50, 60], "camp": [0, 50], "command": None, "melee_edge": 60},
        "south": {"ranged": [70, 80], "camp": [80, 120], "command": None, "melee_edge": 70},
    }
    for actor in (REF, side("north"), side("south"), Actor(role="observer")):
        forces = RULESET.view(s, actor)["forces"]
        assert {f["id"]: f["zones"]["rows"] for f in forces} == want


@pytest.mark.parametrize(
    ("home", "zones", "rows"),
    [
        # the ranged zone behind the melee edge, the camp behind it, the command zone 500'
        # behind the ranged zone's rear edge and 20' (two squares) deep
        ("north", {"melee_edge": 1150}, {"ranged": [105, 115], "camp": [55, 105],
                                          "command": [53, 55], "melee_edge": 115}),
        ("south", {"melee_edge": 50}, {"ranged": [5, 15], "camp": [15, 65],
                                        "command": [65, 67], "melee_edge": 5}),
        # a 25' command zone takes three squares; the camp zone is cut at the map's edge
        ("south", {"melee_edge": 80, "command_distance": 500, "command_size": 25},
         {"ranged": [8, 18], "camp": [18, 68], "command": [68, 71], "melee_edge": 8}),
        # a melee edge beyond the map: only what is on it
        ("north", {"melee_edge": 1300}, {"ranged": None, "camp": [70, 120], "command": [68, 70],
                                          "melee_edge": None}),
        # melee edges on the map's two edges are on it; a command distance of 505' is 50
        # whole squares (rounded down, not 50.5)
        ("south", {"melee_edge": 0}, {"ranged": [0, 10], "camp": [10, 60], "command": [60, 62],
                                      "melee_edge": 0}),
        ("north", {"melee_edge": 1200}, {"ranged": [110, 120], "camp": [60, 110],
                                         "command": [58, 60], "melee_edge": 120}),
        ("south", {"melee_edge": 50, "command_distance": 505},
         {"ranged": [5, 15], "camp": [15, 65], "command": [65, 67], "melee_edge": 5}),
    ],
)  # fmt: skip
def test_zone_rows_place_a_forces_zones_on_the_map(
    home: str, zones: dict[str, int], rows: dict[str, object]
) -> None:
    force = Force(id=home, home=home, zones=msgspec.convert(zones, Zones))
    assert zone_rows(force, 120, 10) == rows
    assert zone_rows(Force(id=home, home=home), 120, 10) == {}
