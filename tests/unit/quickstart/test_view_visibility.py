"""The state as each actor sees it in seed 001 (`view`): a hidden squad, its hiding flag
and the heroes riding with squads."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.actors import Actor
from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.model import State
from tests.support.quickstart_testkit import REF, run, side, sq
from tests.unit.quickstart.test_heroes_siege import FAR, hero, start


def squads(state: State, actor: Actor) -> dict[str, dict[str, Any]]:
    return {q["id"]: q for q in RULESET.view(state, actor)["squads"]}


def hidden() -> State:
    s = start(
        [sq("n", "north", "paladin", 2, 5, 3), sq("s", "south", "paladin", 1, 5, 6), FAR],
        [hero("h", "n", skills={"stealth": 2})],
    )
    s, _ = run(s, "UseSkill", [10], hero="h", skill="stealth")
    assert s.squads["n"].hidden
    return s


def test_the_hiding_side_and_the_referee_see_the_squad_and_its_flag() -> None:
    s = hidden()
    for actor in (REF, side("north")):
        n = squads(s, actor)["n"]
        assert (n["hidden"], n["hero"], n["minor_used"]) == (True, "h", True)
        assert squads(s, actor)["s"]["hero"] is None


def test_nobody_else_sees_the_squad_or_anyone_s_flags() -> None:
    s = hidden()
    for actor in (side("south"), Actor(role="observer"), Actor(role="observer", side="north")):
        seen = squads(s, actor)
        assert "n" not in seen, actor
        if actor.role == "observer":
            assert "hidden" not in seen["far"] and "minor_used" not in seen["far"]
    south_view = squads(s, side("south"))
    assert south_view["s"]["hidden"] is False  # its own squads: the flag, not hidden


def test_only_an_active_hero_rides_with_a_squad() -> None:
    s = hidden()
    assert squads(s, REF)["n"]["hero"] == "h"
    h = s.heroes["h"]
    s2 = msgspec.structs.replace(
        s, heroes={**s.heroes, "h": msgspec.structs.replace(h, status="trapped")}
    )
    assert squads(s2, REF)["n"]["hero"] is None


def heroes(state: State, actor: Actor) -> dict[str, dict[str, Any]]:
    return {h["id"]: h for h in RULESET.view(state, actor)["heroes"]}


def test_a_heros_minor_action_is_seen_by_its_side_and_the_referee_only() -> None:
    s = hidden()
    for actor, shown in ((REF, True), (side("north"), True), (side("south"), False)):
        h = heroes(s, actor)["h"]
        assert ("skill_used" in h) == shown, actor
        if shown:
            assert h["skill_used"] is True
    assert "skill_used" not in heroes(s, Actor(role="observer", side="north"))["h"]


def test_a_trapped_hero_shows_where_it_is_and_priority_goes_to_the_first_side() -> None:
    s = hidden()
    assert "x" not in heroes(s, REF)["h"]
    h = msgspec.structs.replace(s.heroes["h"], status="trapped", squad=None, x=4, y=9)
    s2 = msgspec.structs.replace(s, heroes={**s.heroes, "h": h})
    assert (heroes(s2, side("south"))["h"]["x"], heroes(s2, side("south"))["h"]["y"]) == (4, 9)
    view = RULESET.view(s, REF)
    assert view["priority_side"] == view["order"][0] == "north"
    assert RULESET.view(msgspec.structs.replace(s, order=()), REF)["priority_side"] is None
