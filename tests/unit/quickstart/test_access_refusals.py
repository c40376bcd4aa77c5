"""A refused order in seed 001 says who may not do what, and carries the side refused."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.actors import Actor
from domain.errors import NotPermitted
from domain.rulesets.quickstart import RULESET
from domain.rulesets.quickstart.model import Combat, Hit, State
from tests.support.quickstart_testkit import cmd, make, side, sq, to_action


@pytest.fixture
def state() -> State:
    return to_action(
        make([sq("n", "north", "soldier", 1, 2, 2), sq("s", "south", "soldier", 1, 6, 6)])
    )


@pytest.mark.parametrize(
    ("command", "who", "reason"),
    [
        (
            cmd("MoveSquad", squad="n", x=3, y=3),
            "south",
            "south may not order another side's squad",
        ),
        (cmd("EndStep"), "south", "south may not end another side's step"),
        (
            cmd("EndBattle", winner="north"),
            "north",
            "north may not give EndBattle (referee only)",
        ),
    ],
)
def test_a_refusal_says_who_may_not_do_what(
    state: State, command: Any, who: str, reason: str
) -> None:
    with pytest.raises(NotPermitted) as refused:
        RULESET.authorize(state, command, side(who))
    assert refused.value.reason == reason
    assert refused.value.context == {"side": who}


def test_an_observer_gives_no_orders(state: State) -> None:
    with pytest.raises(NotPermitted) as refused:
        RULESET.authorize(state, cmd("EndStep"), Actor(role="observer"))
    assert refused.value.reason == "only the referee and the sides give commands"


@pytest.fixture
def armed() -> State:
    """North's squad and hero, south's squad, hero and siege engine."""
    return make(
        [sq("n", "north", "soldier", 1, 2, 2), sq("s", "south", "soldier", 1, 6, 6)],
        heroes=[
            {"id": "hn", "side": "north", "squad": "n", "skills": {"stealth": 2}},
            {"id": "hs", "side": "south", "squad": "s", "skills": {"stealth": 2}},
        ],
        engines=[{"id": "es", "side": "south", "level": 1, "x": 7, "y": 7}],
    )


@pytest.mark.parametrize(
    ("command", "reason"),
    [
        (cmd("Attack", squads=["s"], targets=["n"]), "north may not order another side's squad"),
        (
            cmd("FireEngine", engine="es", squad="n", target="s"),
            "north may not fire another side's engine",
        ),
        (
            cmd("PriorityCheck", hero="hs", skill="stealth"),
            "north may not act for another side's hero",
        ),
        (cmd("UseSkill", hero="hs", skill="stealth"), "north may not act for another side's hero"),
        (cmd("RepositionHero", hero="hs", squad="s"), "north may not act for another side's hero"),
        (cmd("ChoosePriority", first="north"), "north may not choose priority now"),
    ],
)
def test_each_order_of_another_sides_unit_is_refused_with_its_reason(
    armed: State, command: Any, reason: str
) -> None:
    state = msgspec.structs.replace(armed, chooser="south")
    with pytest.raises(NotPermitted) as refused:
        RULESET.authorize(state, command, side("north"))
    assert refused.value.reason == reason
    assert refused.value.context == {"side": "north"}


def test_own_units_and_unknown_ids_pass(armed: State) -> None:
    north = side("north")
    state = msgspec.structs.replace(armed, chooser="north")
    for command in (
        cmd("Attack", squads=["n"], targets=["s"]),
        cmd("UseSkill", hero="hn", skill="stealth"),
        cmd("ChoosePriority", first="north"),
        cmd("Attack", squads=["ghost"], targets=["s"]),
        cmd("FireEngine", engine="ghost", squad="ghost", target="s"),
        cmd("UseSkill", hero="ghost", skill="stealth"),
    ):
        RULESET.authorize(state, command, north)


def test_an_observer_key_never_orders_even_with_a_side_name(armed: State) -> None:
    with pytest.raises(NotPermitted) as refused:
        RULESET.authorize(armed, cmd("EndStep"), Actor(role="observer", side="north"))
    assert refused.value.reason == "only the referee and the sides give commands"


def test_combat_decisions_belong_to_the_side_they_wait_for(armed: State) -> None:
    combat = Combat(
        attacker_side="south",
        defender_side="north",
        attackers=("s",),
        defenders=("n",),
        queue=(Hit(victim_side="south", source="n", source_level=1),),
    )
    state = msgspec.structs.replace(armed, combat=combat)
    north, south = side("north"), side("south")
    for command, reason in (
        (cmd("ChooseCasualty", squad="s"), "north may not choose the other side's casualty"),
        (cmd("PressAttack"), "north may not decide the other side's attack"),
        (cmd("Retreat"), "north may not decide the other side's attack"),
    ):
        with pytest.raises(NotPermitted) as refused:
            RULESET.authorize(state, command, north)
        assert refused.value.reason == reason
        RULESET.authorize(state, command, south)
    # with no combat under way nothing is refused here (decide says why)
    RULESET.authorize(msgspec.structs.replace(state, combat=None), cmd("PressAttack"), north)


def test_an_engine_is_fired_by_a_squad_of_its_own_side(armed: State) -> None:
    state = make(
        [sq("n", "north", "soldier", 1, 2, 2), sq("s", "south", "soldier", 1, 6, 6)],
        engines=[{"id": "en", "side": "north", "level": 1, "x": 3, "y": 3}],
    )
    with pytest.raises(NotPermitted) as refused:
        RULESET.authorize(
            state, cmd("FireEngine", engine="en", squad="s", target="s"), side("north")
        )
    assert refused.value.reason == "north may not order another side's squad"
    RULESET.authorize(state, cmd("FireEngine", engine="en", squad="n", target="s"), side("north"))


def test_a_side_orders_its_own_hidden_squad(state: State) -> None:
    """Hidden from the others, not from its own side: the order is not judged on a view
    without it."""
    n = msgspec.structs.replace(state.squads["n"], hidden=True)
    hidden = msgspec.structs.replace(state, squads={**state.squads, "n": n})
    RULESET.authorize(hidden, cmd("MoveSquad", squad="n", x=3, y=3), side("north"))


def test_the_view_shows_the_combat_with_the_squads_still_there(state: State) -> None:
    combat = Combat(
        attacker_side="south",
        defender_side="north",
        attackers=("s", "gone"),
        defenders=("n",),
        exchanges=2,
    )
    fighting = msgspec.structs.replace(state, combat=combat)
    assert RULESET.view(fighting, side("north"))["combat"] == {
        "attacker_side": "south",
        "defender_side": "north",
        "attackers": ["s"],
        "defenders": ["n"],
        "exchanges": 2,
    }
    assert RULESET.view(state, side("north"))["combat"] is None
