"""The strength a reader last saw of units that left its sight (service.desk.unseen_strength):
a squad that hides is carried at its last seen strength, not counted as a loss; one that is
destroyed is a loss; one that comes back is counted by the view again."""

from __future__ import annotations

from typing import Any

from domain.rulesets.quickstart.strength import strength as squads
from domain.rulesets.skirmish.strength import strength as armies
from service.desk.unseen_strength import UnseenStrength, unit_ids


def _q(*ids: str) -> dict[str, Any]:
    return {"sides": ["n", "s"], "squads": [{"id": i, "side": i[0]} for i in ids]}


def test_a_hidden_squad_is_carried_until_seen_again() -> None:
    fold = UnseenStrength(squads)
    everyone = {"n1", "n2", "s1"}
    assert fold.step(_q("n1", "n2", "s1"), everyone) == {}
    assert fold.step(_q("n1", "s1"), everyone) == {"n": 1}  # n2 hid
    assert fold.step(_q("n1", "s1"), everyone - {"n2"}) == {"n": 1}  # nothing looked at since
    assert fold.step(_q("n1", "n2", "s1"), everyone) == {}  # back in sight


def test_a_destroyed_squad_is_a_loss() -> None:
    fold = UnseenStrength(squads)
    assert fold.step(_q("n1", "n2", "s1"), {"n1", "n2", "s1"}) == {}
    assert fold.step(_q("n1", "s1"), {"n1", "s1"}) == {}


def test_the_carried_strength_is_the_units_own_share() -> None:
    fold = UnseenStrength(armies)
    view = {"forces": [{"id": "n"}, {"id": "s"}], "armies": [
        {"id": "a", "side": "n", "army_size": 60}, {"id": "b", "side": "n", "army_size": 40},
        {"id": "c", "side": "s", "army_size": 0, "destroyed": True}]}  # fmt: skip
    assert fold.step(view, {"a", "b", "c"}) == {}
    gone = {**view, "armies": [view["armies"][0]]}
    assert fold.step(gone, {"a", "b", "c"}) == {"n": 40}  # b hid; c (worth 0) not carried


def test_unit_ids_of_each_ruleset_list() -> None:
    for key in ("squads", "armies", "characters", "units", "combatants"):
        assert unit_ids({key: [{"id": "x", "side": "n"}]}) == {"x"}
    assert unit_ids({"sides": []}) == set()
