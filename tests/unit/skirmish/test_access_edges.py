"""Access in seed 000, edge by edge: each refusal says who and why (and carries the side),
actors that are neither referee nor side give nothing, and each view hides what is not the
caller's: other forces' adjust allowance, other sides' declarations and who knows a tactic.
"""

from __future__ import annotations

import msgspec
import pytest

from domain.actors import Actor
from domain.errors import NotPermitted
from domain.rulesets.skirmish import RULESET
from tests.support.skirmish_kit import REF, cmd, fighters, make, ready, run, side, to_phase

NORTH, SOUTH = side("north"), side("south")


def refusal(command: object, actor: Actor) -> NotPermitted:
    s = ready()
    with pytest.raises(NotPermitted) as refused:
        RULESET.authorize(s, command, actor)  # type: ignore[arg-type]
    return refused.value


@pytest.mark.parametrize(
    "actor", [Actor(role="observer"), Actor(role="observer", side="north"), Actor(role="side")]
)
def test_only_the_referee_and_real_sides_give_commands(actor: Actor) -> None:
    e = refusal(cmd("MoveArmy", army="fighters", x=1, y=60), actor)
    assert e.reason == "only the referee and the sides give commands"
    assert e.context == {}


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        (cmd("ResolvePhase"), "ResolvePhase is for the referee only"),
        (
            cmd("ChangeStrategy", side="south", strategy="cautious"),
            "north may not give orders for south",
        ),
        (
            cmd("MoveArmy", army="orcs", x=1, y=60),
            "north may not order orcs, an army of south",
        ),
        (
            cmd("IssueTactic", army="fighters", tactic="rally", by="orcs"),
            "orcs is not an army of north",
        ),
    ],
)
def test_a_refusal_says_why_and_names_the_side(command: object, reason: str) -> None:
    e = refusal(command, NORTH)
    assert e.reason == reason
    assert e.context == {"side": "north"}


def test_unknown_armies_pass_through_to_the_decider() -> None:
    s = ready()
    RULESET.authorize(s, cmd("MoveArmy", army="nobody", x=1, y=60), NORTH)
    RULESET.authorize(s, cmd("IssueTactic", army="fighters", tactic="rally", by="nobody"), NORTH)


def test_each_force_sees_only_its_own_adjust_allowance() -> None:
    s = ready()
    for who, actor in (("referee", REF), ("north", NORTH), ("south", SOUTH)):
        forces = {f["id"]: f for f in RULESET.view(s, actor)["forces"]}
        for fid, f in forces.items():
            mine = who in ("referee", fid)
            assert (f["adjust_allowance"] is not None) == mine, (who, fid)
            assert (f["adjust_used"] is not None) == mine, (who, fid)


def test_declarations_are_seen_by_their_side_and_the_referee() -> None:
    s = to_phase(ready(), "ranged")
    s, _ = run(s, "DeclareAction", army="fighters", profile="heavy crossbow", target="orcs")
    seen = {
        who: [d["army"] for d in RULESET.view(s, actor)["declared"]]
        for who, actor in (
            ("referee", REF),
            ("north", NORTH),
            ("south", SOUTH),
            ("observer", Actor(role="observer")),
        )
    }
    assert seen == {"referee": ["fighters"], "north": ["fighters"], "south": [], "observer": []}


def test_who_knows_a_tactic_is_told_to_its_side_and_the_referee_only() -> None:
    s = ready(tactics={"fighters": "cautious_combat"})
    for who, actor, shown in (
        ("referee", REF, True),
        ("north", NORTH, True),
        ("south", SOUTH, False),
        ("observer", Actor(role="observer"), False),
    ):
        f = next(a for a in RULESET.view(s, actor)["armies"] if a["id"] == "fighters")
        assert ("known_by" in f) == shown, who
        if shown:
            assert f["known_by"] == []


def test_the_bardic_radius_follows_the_battles_options() -> None:
    bards = fighters(commander={"name": "Lyra", "cha_mod": 2, "bard": True})
    s = ready(north=[bards], options={"resolution": {"bardic_radius_base_ft": 200}})
    f = RULESET.view(s, REF)["armies"][0]
    assert f["bardic_radius"] == {"feet": 200 + 50 * 2, "squares": 30}


def test_a_force_without_a_leader_shows_none() -> None:
    forces = RULESET.view(make(), REF)["forces"]
    assert [f["leader"] for f in forces] == [None, None]


def test_only_a_secret_declaration_hides_that_an_army_has_acted() -> None:
    """A ranged or melee declaration spends the standard action at once and is its side's
    secret until the phase resolves ("Combat Phases"): others read `acted` as False then.
    An army that acted otherwise (a charge in the movement phase) shows it to everyone."""
    s = to_phase(ready(), "ranged")
    charged = msgspec.structs.replace(s.armies["orcs"], acted=True)
    s = msgspec.structs.replace(s, armies={**s.armies, "orcs": charged})
    for actor in (REF, NORTH, SOUTH, Actor(role="observer")):
        armies = {a["id"]: a for a in RULESET.view(s, actor)["armies"]}
        assert armies["orcs"]["acted"] is True, actor
    s, _ = run(s, "DeclareAction", army="fighters", profile="heavy crossbow", target="orcs")
    acted = {
        who: {a["id"]: a["acted"] for a in RULESET.view(s, actor)["armies"]}["fighters"]
        for who, actor in (("referee", REF), ("north", NORTH), ("south", SOUTH))
    }
    assert acted == {"referee": True, "north": True, "south": False}
    # the same in the melee phase (the declaration's own kind is not what hides it)
    melee = msgspec.structs.replace(s, phase="melee")
    south = {a["id"]: a["acted"] for a in RULESET.view(melee, SOUTH)["armies"]}
    assert south["fighters"] is False
