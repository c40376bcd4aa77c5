"""Hero Units, Defenses and siege weapons, The Watchtower (seed 001)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.actors import Actor
from domain.errors import RuleViolation
from domain.rulesets.quickstart import RULESET
from tests.support.quickstart_testkit import REF, make, run, side, sq, to_action, types

FAR = sq("far", "south", "soldier", 1, 11, 11)


def hero(hid: str, squad: str | None, side_: str = "north", **kw: Any) -> dict[str, Any]:
    return {"id": hid, "side": side_, "squad": squad, **kw}


def start(squads: list[dict[str, Any]], heroes: list[dict[str, Any]], **kw: Any) -> Any:
    """Heroes check and fail; the roll-off gives north priority."""
    s = make(squads, heroes=heroes, **kw)
    for i, h in enumerate(heroes):
        last = i == len(heroes) - 1
        s, _ = run(s, "PriorityCheck", [1, 6, 1] if last else [1], hero=h["id"], skill="history")
    assert s.order[0] == "north"
    return s


def test_stealth_hides_squad_side_only_and_ambush_bonus() -> None:
    squads = [sq("n", "north", "paladin", 2, 5, 3), sq("s", "south", "paladin", 1, 5, 6), FAR]
    s = start(squads, [hero("h", "n", skills={"stealth": 2})])
    s, ev = run(s, "UseSkill", [10], hero="h", skill="stealth")
    assert ev[0].success and s.squads["n"].hidden
    assert RULESET.audience(ev[0]) == "side:north"
    assert "n" not in [q["id"] for q in RULESET.view(s, side("south"))["squads"]]
    assert "n" not in [q["id"] for q in RULESET.view(s, side("observer"))["squads"]]
    observer = RULESET.view(s, Actor(role="observer"))  # a real observer, not a side
    assert "n" not in [q["id"] for q in observer["squads"]]
    assert "minor_used" not in observer["squads"][0]
    assert "n" in [q["id"] for q in RULESET.view(s, side("north"))["squads"]]
    s, ev = run(s, "MoveSquad", squad="n", x=5, y=5)
    assert RULESET.audience(ev[0]) == "side:north"
    s, _ = run(s, "EndStep")
    s2, ev = run(s, "Attack", [1, 1, 1, 1, 6, 1], squads=["n"], targets=["s"])
    assert ev[0].ambush == ("n",) and len(ev[1].rolls[0].dice.values) == 2 + 3
    assert RULESET.audience(ev[0]) == "all" and not s2.squads["n"].hidden


def test_hidden_squad_cannot_be_targeted_and_is_revealed_at_round_end() -> None:
    squads = [sq("n", "north", "paladin", 2, 5, 5), sq("s", "south", "paladin", 2, 5, 6)]
    s = start(squads, [hero("h", "s", "south", skills={"stealth": 5})])
    s, _ = run(s, "EndStep")
    s, _ = run(s, "EndStep")
    assert s.active_side == "south"
    s, ev = run(s, "UseSkill", [12], hero="h", skill="stealth")
    assert s.squads["s"].hidden
    as_north = msgspec.structs.replace(s, turn=0, step="combat")
    with pytest.raises(RuleViolation, match="cannot be seen"):
        run(as_north, "Attack", [1, 1, 1, 1], squads=["n"], targets=["s"])
    for _ in range(3):
        s, _ = run(s, "EndStep")
    assert s.phase == "reposition"
    s, ev = run(s, "EndStep")
    assert types(ev)[:2] == ["SquadRevealed", "RoundEnded"] and not s.squads["s"].hidden


def test_heal_arcana_intimidate() -> None:
    squads = [
        sq("n", "north", "caster", 2, 5, 5),
        sq("s1", "south", "paladin", 2, 4, 6),
        sq("s2", "south", "paladin", 2, 6, 6),
    ]
    heroes = [hero("h", "n", skills={"arcana": 2, "heal": 2, "intimidate": 2})]
    s = start(squads, heroes, options={"casters_assist_defence": False})
    a, ev = run(s, "UseSkill", [10], hero="h", skill="arcana")
    a, _ = run(a, "EndStep")
    a, ev = run(a, "Attack", [6, 1], squads=["n"], targets=["s1", "s2"])
    assert ev[1].rolls[0].hits == 2  # arcana: the magical attack reaches another squad
    assert RULESET.view(a, REF)["pending"]["hits_waiting"] == 2
    with pytest.raises(RuleViolation):  # one minor action per squad
        run(a, "UseSkill", [10], hero="h", skill="heal")
    hl, _ = run(s, "UseSkill", [10], hero="h", skill="heal")
    hl, _ = run(hl, "EndStep")
    hl, ev = run(hl, "Attack", [1, 1, 6, 1, 1, 1], squads=["n"], targets=["s1", "s2"])
    assert ev[2].ignored["north"] == 1 and ev[2].healed == ("n",) and "n" in hl.squads
    it, _ = run(s, "UseSkill", [10], hero="h", skill="intimidate")
    it, _ = run(it, "EndStep")
    it, ev = run(it, "Attack", [1, 1, 1, 1], squads=["n"], targets=["s1", "s2"])
    assert [len(r.dice.values) for r in ev[2].rolls] == [1, 1]  # level 2 - 1


def test_arcana_needs_a_caster_and_failed_check() -> None:
    squads = [sq("n", "north", "paladin", 2, 5, 5), FAR]
    s = start(squads, [hero("h", "n", skills={"arcana": 2})])
    with pytest.raises(RuleViolation):
        run(s, "UseSkill", [10], hero="h", skill="arcana")
    with pytest.raises(RuleViolation):
        run(s, "UseSkill", [10], hero="h", skill="athletics")
    s, ev = run(s, "UseSkill", [9], hero="h", skill="stealth")
    assert not ev[0].success and not s.squads["n"].hidden and s.squads["n"].minor_used


def test_hero_retreats_to_closest_squad_without_hero() -> None:
    squads = [
        sq("n", "north", "paladin", 2, 5, 5),
        sq("n2", "north", "paladin", 2, 0, 0),
        sq("n3", "north", "paladin", 2, 8, 5),
        sq("s", "south", "paladin", 2, 5, 6),
    ]
    s = start(squads, [hero("h", "n")])
    s, _ = run(s, "EndStep")
    s, ev = run(s, "Attack", [1, 1, 6, 1], squads=["n"], targets=["s"])
    r = next(e for e in ev if type(e).__name__ == "HeroRetreated")
    assert r.squad == "n3" and s.heroes["h"].minor_lost
    with pytest.raises(RuleViolation):
        run(s, "UseSkill", [20], hero="h", skill="heal")


def test_trapped_hero_loses_surges_is_removed_and_revived() -> None:
    squads = [
        sq("n", "north", "paladin", 2, 5, 5),
        sq("n2", "north", "paladin", 2, 0, 0),
        sq("s", "south", "paladin", 2, 5, 6),
    ]
    heroes = [hero("h", "n", surges=1), hero("g", "n2")]
    s = start(squads, heroes)
    s, _ = run(s, "EndStep")
    s, ev = run(s, "Attack", [1, 1, 6, 1], squads=["n"], targets=["s"])
    assert s.heroes["h"].status == "trapped"
    assert RULESET.view(s, REF)["heroes"][1]["status"] == "trapped"
    s, _ = run(s, "EndStep")  # north combat -> south move
    for _ in range(4):
        s, _ = run(s, "EndStep")
    assert s.phase == "priority"
    s, _ = run(s, "PriorityCheck", [1], hero="h", skill="history")
    s, ev = run(s, "PriorityCheck", [1, 6, 1], hero="g", skill="history")
    assert types(ev)[-2:] == ["HeroSurgeLost", "HeroRemoved"]  # start of north's action
    assert s.heroes["h"].status == "removed"
    with pytest.raises(RuleViolation):  # n2 has a hero already
        run(s, "ReviveHero", hero="h", squad="n2")
    s, ev = run(s, "AdjustSquad", level=3, squad="n2")
    assert s.squads["n2"].level == 3


def test_a_removed_hero_is_seen_with_no_squad_and_out_of_the_watchtower() -> None:
    # Given h trapped (its squad n destroyed, no free squad), with no surge left
    squads = [
        sq("n", "north", "paladin", 2, 5, 5),
        sq("n2", "north", "paladin", 2, 0, 0),
        sq("s", "south", "paladin", 2, 5, 6),
    ]
    s = start(squads, [hero("h", "n", surges=1), hero("g", "n2")])
    s, _ = run(s, "EndStep")
    s, _ = run(s, "Attack", [1, 1, 6, 1], squads=["n"], targets=["s"])
    for _ in range(5):
        s, _ = run(s, "EndStep")
    s, _ = run(s, "PriorityCheck", [1], hero="h", skill="history")
    # When its side's action begins (Hero Units: a trapped hero loses a surge, then is out)
    s, ev = run(s, "PriorityCheck", [1, 6, 1], hero="g", skill="history")
    assert types(ev)[-1] == "HeroRemoved"
    # Then everyone sees it removed, with no squad, and not in the watchtower
    seen = next(h for h in RULESET.view(s, REF)["heroes"] if h["id"] == "h")
    assert (seen["status"], seen["squad"], seen["watchtower"]) == ("removed", None, False)


def test_a_trapped_hero_is_revived_into_a_squad_with_room() -> None:
    """As below, but the referee revives h into n3 once its hero left for the watchtower."""
    squads = [
        sq("n", "north", "paladin", 2, 5, 5),
        sq("n2", "north", "paladin", 2, 0, 0),
        sq("n3", "north", "paladin", 2, 9, 0),
        sq("s", "south", "paladin", 2, 5, 6),
    ]
    heroes = [hero("h", "n"), hero("g", "n2"), hero("k", "n3")]
    s = start(squads, heroes, watchtower={"x": 11, "y": 0})
    s, _ = run(s, "EndStep")
    s, _ = run(s, "Attack", [1, 1, 6, 1], squads=["n"], targets=["s"])
    assert s.heroes["h"].status == "trapped"
    with pytest.raises(RuleViolation):  # n3 has its hero
        run(s, "ReviveHero", hero="h", squad="n3")
    for _ in range(3):
        s, _ = run(s, "EndStep")
    s, _ = run(s, "RepositionHero", hero="k", watchtower=True)
    s, ev = run(s, "ReviveHero", hero="h", squad="n3")
    assert types(ev) == ["HeroRevived"]
    assert (s.heroes["h"].status, s.heroes["h"].squad) == ("active", "n3")


def test_trapped_hero_escapes_and_revive() -> None:
    squads = [
        sq("n", "north", "paladin", 2, 5, 5),
        sq("n2", "north", "paladin", 2, 0, 0),
        sq("n3", "north", "paladin", 2, 9, 0),
        sq("s", "south", "paladin", 2, 5, 6),
    ]
    heroes = [hero("h", "n"), hero("g", "n2"), hero("k", "n3")]
    s = start(squads, heroes, watchtower={"x": 11, "y": 0})
    s, _ = run(s, "EndStep")
    s, _ = run(s, "Attack", [1, 1, 6, 1], squads=["n"], targets=["s"])
    assert s.heroes["h"].status == "trapped"
    for _ in range(3):
        s, _ = run(s, "EndStep")
    assert s.phase == "reposition" and s.active_side == "north"
    s, _ = run(s, "RepositionHero", hero="k", watchtower=True)  # n3 is free now
    s, _ = run(s, "EndStep")
    s, _ = run(s, "EndStep")
    for hid in ("h", "g", "k"):
        if s.heroes[hid].status != "removed":
            s, ev = run(
                s, "PriorityCheck", [1, 6, 1] if hid == "k" else [1], hero=hid, skill="history"
            )
    assert ev[-1].hero == "h" and ev[-1].squad == "n3" and ev[-1].cause == "escaped"
    r, ev = run(s, "EndBattle", winner="north", reason="test")
    assert r.phase == "over"


def test_reposition_and_watchtower_scouting() -> None:
    squads = [
        sq("n", "north", "paladin", 2, 5, 5),
        sq("n2", "north", "paladin", 2, 8, 5),
        sq("s", "south", "paladin", 2, 5, 9),
    ]
    heroes = [
        hero("h", "n", skills={"perception": 3}),
        hero("x", "s", "south", skills={"stealth": 9}),
    ]
    s = start(squads, heroes, watchtower={"x": 0, "y": 6})
    for _ in range(2):
        s, _ = run(s, "EndStep")
    s, _ = run(s, "UseSkill", [10], hero="x", skill="stealth")
    assert s.squads["s"].hidden
    for _ in range(2):
        s, _ = run(s, "EndStep")
    with pytest.raises(RuleViolation):  # the heroes of the side in turn only
        run(s, "RepositionHero", hero="x", squad=None, watchtower=True)
    s, ev = run(s, "RepositionHero", hero="h", watchtower=True)
    assert s.heroes["h"].watchtower and RULESET.view(s, REF)["watchtower"]["heroes"] == ["h"]
    with pytest.raises(RuleViolation):
        run(s, "RepositionHero", hero="h", squad="n2")  # once per round
    s, _ = run(s, "EndStep")
    s, ev = run(s, "EndStep")
    assert types(ev)[:2] == ["SquadRevealed", "RoundEnded"]  # stealth lasts the round
    s, _ = run(s, "PriorityCheck", [1], hero="h", skill="perception")
    s, _ = run(s, "PriorityCheck", [20], hero="x", skill="history")
    s, _ = run(s, "ChoosePriority", first="south")
    s, _ = run(s, "UseSkill", [10], hero="x", skill="stealth")
    s, _ = run(s, "EndStep")
    s, _ = run(s, "EndStep")
    assert s.active_side == "north" and s.squads["s"].hidden
    with pytest.raises(RuleViolation):  # a watchtower hero uses battlefield-wide skills
        run(s, "UseSkill", [10], hero="h", skill="heal")
    s, ev = run(s, "UseSkill", [9], hero="h", skill="perception")  # 9 + 3 >= 12
    assert types(ev) == ["SkillChecked", "SquadRevealed"] and not s.squads["s"].hidden
    assert RULESET.audience(ev[1]) == "all"


def test_reposition_blocked_in() -> None:
    squads = [
        sq("n", "north", "paladin", 2, 0, 0),
        sq("n2", "north", "paladin", 2, 8, 5),
        sq("s", "south", "paladin", 2, 11, 11),
    ]
    walls = [
        {"id": f"b{i}", "side": "south", "level": 1, "x": x, "y": y}
        for i, (x, y) in enumerate([(1, 0), (0, 1), (1, 1)])
    ]
    s = start(squads, [hero("h", "n")], barriers=walls)
    for _ in range(4):
        s, _ = run(s, "EndStep")
    with pytest.raises(RuleViolation, match="blocked"):
        run(s, "RepositionHero", hero="h", squad="n2")


def engine_state(**kw: Any) -> Any:
    squads = [
        sq("n", "north", "paladin", 2, 1, 5),
        sq("s", "south", "paladin", 2, 1, 6),
        sq("big", "south", "soldier", 2, 8, 8, large=True),
    ]
    engines = [
        {"id": "e1", "side": "north", "level": 2, "x": 0, "y": 5},
        {"id": "e2", "side": "north", "level": 1, "x": 0, "y": 4},
        {"id": "se", "side": "south", "level": 1, "x": 10, "y": 10},
    ]
    return to_action(make(squads, engines=engines, **kw), step="combat")


def test_engine_fire_targets_and_dice_reduction() -> None:
    s = engine_state()
    with pytest.raises(RuleViolation, match="only target"):
        run(s, "FireEngine", [6, 6], engine="e1", squad="n", target="s")
    with pytest.raises(RuleViolation):
        run(s, "FireEngine", [6, 6], engine="se", squad="n", target="big")
    with pytest.raises(RuleViolation):
        run(s, "FireEngine", [6, 6], engine="e1", squad="n", target="e2")
    s, ev = run(s, "FireEngine", [6, 1], engine="e1", squad="n", target="big")
    assert ev[0].hit and "big" not in s.squads and s.squads["n"].engines_fired == 1
    with pytest.raises(RuleViolation):
        run(s, "FireEngine", [6], engine="e1", squad="n", target="se")  # fired this round
    s2, ev = run(s, "FireEngine", [6], engine="e2", squad="n", target="se")
    assert types(ev) == ["EngineFired", "EngineDestroyed"] and "se" not in s2.engines
    _s3, ev = run(s2, "Attack", [1, 1], squads=["n"], targets=["s"])
    assert [len(r.dice.values) for r in ev[1].rolls] == [0, 2]  # two engines fired: 2 - 2
    a, _ = run(engine_state(), "Attack", [1, 1, 1, 1], squads=["n"], targets=["s"])
    a, _ = run(a, "Retreat")
    with pytest.raises(RuleViolation, match="already rolled"):  # fire before the squad rolls
        run(a, "FireEngine", [6], engine="e1", squad="n", target="big")


def test_engine_miss_and_barriers() -> None:
    walls = [
        {"id": "w2", "side": "south", "level": 2, "x": 6, "y": 6},
        {"id": "w0", "side": "south", "level": 0, "x": 7, "y": 7},
    ]
    s = engine_state(barriers=walls)
    m, ev = run(s, "FireEngine", [5, 5], engine="e1", squad="n", target="w2")
    assert not ev[0].hit and "w2" in m.barriers
    h, ev = run(s, "FireEngine", [6, 1, 5, 1], engine="e1", squad="n", target="w2")
    assert ev[1].level == 1 and not ev[1].destroyed and h.barriers["w2"].level == 1
    d, ev = run(s, "FireEngine", [6, 1, 4, 4], engine="e1", squad="n", target="w2")
    assert ev[1].destroyed and "w2" not in d.barriers
    _z, ev = run(s, "FireEngine", [6], engine="e2", squad="n", target="w0")
    assert ev[1].destroyed and ev[1].dice.values == ()
