"""Each ruleset's `view_type` says exactly what its `view` gives (domain.rulesets.*.view_types).

Given real battles of every ruleset, played to their end by the forecast's shipped
policies (domain.rulesets.*.policy) from the starts the forecast tests use and from starts
with hidden information (a hidden quickstart squad, an invisible tactical character, a
secret skirmish tactic, a bard commander), when every actor (referee, observer, each side)
reads the state at every version, then the view decodes strictly into the ruleset's view
type (a missing or an extra field fails) and encodes back to the same JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.actors import Actor
from domain.decider import Ruleset
from domain.errors import DomainError
from domain.forecast import RandomDice
from domain.rulesets import RULESETS, get_ruleset
from domain.rulesets.forecasts import FORECASTS
from tests.support.phased_kit import make as make_phased
from tests.support.quickstart_play import SETUP
from tests.support.quickstart_testkit import make as make_quickstart
from tests.support.quickstart_testkit import run as run_quickstart
from tests.support.quickstart_testkit import sq
from tests.support.skirmish_kit import crossbows, fighters, orcs, ready
from tests.support.tactical_kit import ch
from tests.support.tactical_kit import make as make_tactical
from tests.support.view_types_check import check_views
from tests.support.warfare_kit import make as make_warfare
from tests.support.warfare_kit import unit


def _ruleset(ruleset_id: str) -> Ruleset[Any, Any, Any, Any, Any]:
    rs = get_ruleset(ruleset_id)
    assert rs is not None
    return rs


def _quickstart() -> Any:
    rs = _ruleset("quickstart")
    return rs.initial_state(msgspec.convert(SETUP, rs.setup_type), rs.options_type())


def _quickstart_hidden() -> Any:
    """South's hero hides its squad (stealth) and moves it; then north's move step."""
    hero = {"id": "h", "side": "south", "squad": "s_hid", "skills": {"stealth": 5}}
    s = make_quickstart(
        [sq("n", "north", "paladin", 2, 0, 0), sq("s_hid", "south", "soldier", 1, 6, 0),
         sq("s_far", "south", "soldier", 1, 11, 11)],
        heroes=[hero],
    )  # fmt: skip
    s, _ = run_quickstart(s, "PriorityCheck", [1, 1, 6], hero="h", skill="history")
    s, _ = run_quickstart(s, "UseSkill", [12], hero="h", skill="stealth")
    s, _ = run_quickstart(s, "MoveSquad", squad="s_hid", x=5, y=1)
    assert s.squads["s_hid"].hidden
    return s


def _skirmish() -> Any:
    return ready(north=[fighters(), crossbows()], south=[orcs(army_size=150)])


def _skirmish_secret() -> Any:
    """A secret tactic, and a bard commander with teamwork feats."""
    bards = fighters(
        commander={"name": "Lyra", "cha_mod": 3, "bard": True}, teamwork_feats=["shield_wall"]
    )
    return ready(north=[bards], tactics={"fighters": "cautious_combat"}, initiative=(20, 1))


def _tactical(invisible: bool = False) -> Any:
    hidden = {"conditions": [{"name": "invisible"}]} if invisible else {}
    return make_tactical(
        [ch("a1", "a", 1, 1, **hidden), ch("a2", "a", 1, 3, main_hand="bow"),
         ch("b1", "b", 9, 9), ch("b2", "b", 9, 7, off_hand="shield")],
    )  # fmt: skip


def _warfare() -> Any:
    return make_warfare(
        [unit("a1", "a", 3, 9), unit("a2", "a", 7, 9), unit("b1", "b", 3, 2),
         unit("b2", "b", 7, 2)],
    )  # fmt: skip


STARTS: dict[str, tuple[str, Callable[[], Any]]] = {
    "quickstart": ("quickstart", _quickstart),
    "quickstart-hidden": ("quickstart", _quickstart_hidden),
    "skirmish": ("skirmish", _skirmish),
    "skirmish-secret": ("skirmish", _skirmish_secret),
    "tactical": ("tactical", _tactical),
    "tactical-invisible": ("tactical", lambda: _tactical(invisible=True)),
    "warfare": ("warfare", _warfare),
    "phased": ("phased", make_phased),
}


def _play(ruleset_id: str, state: Any, policy: str, seed: int) -> list[dict[str, Any]]:
    """Play `state` to its end with `policy`, checking every actor's view at every version
    (after each event, not only after each command); the views checked."""
    rs = _ruleset(ruleset_id)
    rules = FORECASTS[ruleset_id]
    rng = Random(seed)
    dice = RandomDice(rng)
    views = check_views(rs, state)
    for _ in range(3000):
        if rs.is_over(state):
            break
        for actor, command in rules.policies[policy](state, rng):
            try:
                rs.authorize(state, command, actor)
                events = rs.decide(state, command, dice)
            except DomainError:
                continue
            for event in events:
                state = rs.evolve(state, event)
                views.extend(check_views(rs, state))
            break
        else:
            pytest.fail(f"{policy} got stuck")
    assert rs.is_over(state)
    return views


def test_every_ruleset_has_a_view_type_and_every_start_is_played() -> None:
    assert all(rs.view_type is not None for rs in RULESETS.values())
    assert {r for r, _ in STARTS.values()} == set(RULESETS)


@pytest.mark.parametrize("start", sorted(STARTS))
def test_every_view_of_a_real_battle_decodes_strictly_to_its_view_type(start: str) -> None:
    ruleset_id, make = STARTS[start]
    views = _play(ruleset_id, make(), FORECASTS[ruleset_id].default_policy, 0)
    assert len(views) > 20
    assert all(v["ruleset"] == ruleset_id for v in views)


def _shapes(views: list[dict[str, Any]], key: str) -> set[frozenset[str]]:
    return {frozenset(item) for v in views for item in v[key]}


def test_the_hidden_variants_are_played_and_described() -> None:
    """The starts with hidden information reach the views that leave fields out (so the
    types' optional fields are checked both ways)."""
    qs = _play("quickstart", _quickstart_hidden(), "advance", 0)
    assert len(_shapes(qs, "squads")) == 2  # with and without `minor_used`, `hidden`
    assert any(q.get("hidden") for v in qs for q in v["squads"])
    tac = _play("tactical", _tactical(invisible=True), "advance", 0)
    assert any("x" not in c for v in tac for c in v["characters"])
    assert any("rerolls" not in c and "x" in c for v in tac for c in v["characters"])
    sk = _play("skirmish", _skirmish_secret(), "advance", 0)
    armies = [a for v in sk for a in v["armies"]]
    assert any(a["tactic"] == "secret" for a in armies)
    assert any("bardic_radius" in a and "teamwork" in a and "known_by" in a for a in armies)
    assert any("known_by" not in a for a in armies)


def test_a_field_the_type_does_not_name_or_a_missing_one_fails() -> None:
    rs = _ruleset("warfare")
    view = msgspec.json.decode(msgspec.json.encode(rs.view(_warfare(), Actor(role="referee"))))
    msgspec.convert(view, rs.view_type, strict=True)
    with pytest.raises(msgspec.ValidationError, match="unknown field `extra`"):
        msgspec.convert({**view, "extra": 1}, rs.view_type, strict=True)
    del view["units"][0]["diminished"]
    with pytest.raises(msgspec.ValidationError, match="missing required field `diminished`"):
        msgspec.convert(view, rs.view_type, strict=True)


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**32), st.sampled_from(sorted(STARTS)), st.data())
def test_views_of_random_battles_decode_to_their_view_type(
    seed: int, start: str, data: st.DataObject
) -> None:
    ruleset_id, make = STARTS[start]
    policy = data.draw(st.sampled_from(sorted(FORECASTS[ruleset_id].policies)), label="policy")
    _play(ruleset_id, make(), policy, seed)
