"""The prompts of seed 003 whole (domain/rulesets/warfare/awaiting.py): each window's id,
who answers it, its commands, its reason, its choices, the dice its answer will draw (what
for, whose, and when) and the section of the text that opens it. A client keys buttons on
the ids and shows the reasons; a table reads the dice it must roll.

The windows: the round's start and its roll-off (W01), a side's turn, its champions' one
action before their units ([Battlefield Champions]), a unit's orders with the free attacks
breaking away draws ([Engagement]), its engaging and attacking with the morale die a hit
may add ([Morale]) and W09's automatic retaliations, its reserves' zones ([Reinforcement
Zones]), a retaliation ([Retaliatory Attacks]) and a pursuit ([Pursuit]) out of turn, and
the referee's calls."""

from __future__ import annotations

from typing import Any

import pytest

from domain.actors import Actor
from domain.errors import RuleViolation
from domain.prompts import DiceNeed, Prompt
from domain.rulesets.warfare import RULESET
from domain.rulesets.warfare.model import State
from tests.support.warfare_kit import SIDES, make, play, started, unit

PROJECT, REFEREE = "003 (project ruling)", "003 (referee ruling)"
ACTIONS, ATTACKS = "003 Unit Actions / Actions", "003 Unit Actions / Attacks"
CHAMPIONS, MORALE = "003 Battlefield Champions", "003 Unit Actions / Morale"
ENGAGEMENT, PURSUIT = "003 Unit Actions / Engagement", "003 Unit Actions / Pursuit"
RETALIATION = "003 Unit Actions / Retaliatory Attacks"
ZONES = "003 Battlefield Features / Reinforcement Zones"

REFEREE_CALLS = [
    Prompt(id="referee:morale", role="referee", commands=("ForceMoraleCheck",),
           reason="the referee may force a unit's morale check", choices={"unit": ["a1", "b1"]},
           dice=(DiceNeed(sides=20, purpose="morale check: <unit>"),), optional=True,
           rule=MORALE),
    Prompt(id="referee:conditions", role="referee",
           commands=("ApplyCondition", "RemoveCondition"),
           reason="the referee may apply or remove a unit's condition, with the reason",
           optional=True, rule=REFEREE),
]  # fmt: skip


def prompts(state: State) -> dict[str, Prompt]:
    out = {p.id: p for p in RULESET.awaiting(state, Actor(role="referee"))}
    # seed 003 hides nothing: a side reads the same prompts
    assert list(out.values()) == RULESET.awaiting(state, Actor(role="side", side="b"))
    return out


def _duel(options: dict[str, Any] | None = None) -> State:
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)], options=options))
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    return s


def test_before_a_round_the_referee_starts_it_and_each_side_rolls_a_d20() -> None:
    s = make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)])
    assert RULESET.awaiting(s, Actor(role="referee")) == [
        Prompt(id="round:1", role="referee", commands=("StartRound",),
               reason="round 1 starts: the sides' order",
               dice=(DiceNeed(sides=20, purpose="roll-off: a", subject="a"),
                     DiceNeed(sides=20, purpose="roll-off: b", subject="b"),
                     DiceNeed(sides=20, purpose="roll-off: <tied side>",
                              when="for each tie, again")),
               rule=PROJECT),
        *REFEREE_CALLS,
    ]  # fmt: skip


def test_a_turn_its_champion_its_units_orders_and_its_reserve() -> None:
    s = make(
        [unit("a1", "a", 5, 6), unit("a2", "a", 1, 6), unit("b1", "b", 5, 5),
         unit("b2", "b", 4, 5), unit("b3", "b", 6, 5), unit("a9", "a", None, None, reserve=True)],
        champions=[{"id": "hero", "side": "a", "leads": ["a2"]}],
        options={"facing_directions": 4},
    )  # fmt: skip
    s = started(s)
    for target in ("b1", "b2", "b3"):
        _, s = play(s, {"type": "Engage", "unit": "a1", "target": target})
    p = prompts(s)
    assert list(p) == [
        "turn:a", "champion:hero", "champion-action:hero", "turn:a1", "attack:a1",
        "reserve:a9", "referee:morale", "referee:conditions",
    ]  # fmt: skip
    assert p["turn:a"] == Prompt(
        id="turn:a", role="side", side="a", commands=("EndTurn",),
        reason="a's turn: its champions and units act, then it ends its turn", rule=ACTIONS,
    )  # fmt: skip
    assert p["champion:hero"] == Prompt(
        id="champion:hero", role="side", side="a", subject="hero",
        commands=("PassChampion", "JoinUnit"),
        reason="hero takes its one action before its units act",
        choices={"unit": ["a1", "a2"]}, optional=True, pass_with="PassChampion", rule=CHAMPIONS,
    )  # fmt: skip
    assert p["champion-action:hero"] == Prompt(
        id="champion-action:hero", role="referee", subject="hero",
        commands=("ResolveChampionAction",),
        reason="the referee may resolve another action of hero (at discretion)",
        optional=True, rule=REFEREE,
    )  # fmt: skip
    breaking_away = tuple(
        DiceNeed(sides=20, purpose=f"free attack: {b} on a1", subject=b,
                 when=f"Move or Disengage (breaking away from {b})")
        for b in ("b1", "b2", "b3")
    )  # fmt: skip
    assert p["turn:a1"] == Prompt(
        id="turn:a1", role="side", side="a", subject="a1",
        commands=("Face", "Move", "Disengage"),
        reason="a1 may act (Disengage names two of `spared`)",
        choices={"facing": ["N", "E", "S", "W"], "spared": ["b1", "b2", "b3"]},
        dice=breaking_away, optional=True, rule=ACTIONS,
    )  # fmt: skip
    # three targets: the dice name the target as <target>, the morale die no subject
    assert p["attack:a1"] == Prompt(
        id="attack:a1", role="side", side="a", subject="a1", commands=("Attack",),
        reason="a1 may attack a unit it faces", choices={"target": ["b1", "b2", "b3"]},
        dice=(DiceNeed(sides=20, purpose="attack: a1 on <target>", subject="a1", when="Attack"),
              DiceNeed(sides=20, purpose="morale check: <target>",
                       when="Attack, if the damage leaves <target> at or below half health "
                       "(or an ability of a1 forces a check)")),
        optional=True, rule=ATTACKS,
    )  # fmt: skip
    assert p["reserve:a9"] == Prompt(
        id="reserve:a9", role="side", side="a", subject="a9", commands=("PlaceReserve",),
        reason="a9 may enter at a working reinforcement zone (to: x,y)",
        choices={"to": [f"{x},11" for x in range(12)]}, optional=True, rule=ZONES,
    )  # fmt: skip


def test_engaging_a_unit_it_faces() -> None:
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)]))
    assert prompts(s)["engage:a1"] == Prompt(
        id="engage:a1", role="side", side="a", subject="a1", commands=("Engage",),
        reason="a1 may engage a unit it faces", choices={"target": ["b1"]}, optional=True,
        rule=ENGAGEMENT,
    )  # fmt: skip


def test_an_attack_on_one_target_names_it_and_w09_adds_both_retaliations() -> None:
    hit = DiceNeed(sides=20, purpose="attack: a1 on b1", subject="a1", when="Attack")
    morale = DiceNeed(
        sides=20, purpose="morale check: b1", subject="b1",
        when="Attack, if the damage leaves b1 at or below half health (or an ability of a1 "
        "forces a check)",
    )  # fmt: skip
    attack = Prompt(
        id="attack:a1", role="side", side="a", subject="a1", commands=("Attack",),
        reason="a1 may attack a unit it faces", choices={"target": ["b1"]},
        dice=(hit, morale), optional=True, rule=ATTACKS,
    )  # fmt: skip
    assert prompts(_duel())["attack:a1"] == attack
    back = "Attack in melee, if b1 may retaliate then (W09 automatic)"
    half = "at or below half health (or an ability of"
    assert prompts(_duel({"retaliation": "automatic"}))["attack:a1"].dice == (
        hit, morale,
        DiceNeed(sides=20, purpose="retaliation attack: b1 on a1", subject="b1", when=back),
        DiceNeed(sides=20, purpose="morale check: a1", subject="a1",
                 when=f"{back}, if the damage leaves a1 {half} b1 forces a check)"),
        DiceNeed(sides=20, purpose="retaliation attack: a1 on b1", subject="a1",
                 when=f"{back}, and a1 in turn"),
        DiceNeed(sides=20, purpose="morale check: b1", subject="b1",
                 when=f"{back}, and a1 in turn, if the damage leaves b1 {half} a1 forces a "
                 "check)"),
    )  # fmt: skip


def test_w09_dice_for_several_targets_say_target() -> None:
    s = make(
        [unit("a1", "a", 5, 6), unit("b1", "b", 5, 5), unit("b2", "b", 4, 5)],
        options={"facing_directions": 4, "retaliation": "automatic"},
    )
    s = started(s)
    for target in ("b1", "b2"):
        _, s = play(s, {"type": "Engage", "unit": "a1", "target": target})
    # engaged with two: Disengage needs no spared units named ([Engagement]: "all but two")
    turn = prompts(s)["turn:a1"]
    assert "Disengage" in turn.commands and "spared" not in turn.choices
    assert turn.reason == "a1 may act"
    dice = prompts(s)["attack:a1"].dice
    back = "Attack in melee, if <target> may retaliate then (W09 automatic)"
    assert [(d.purpose, d.when) for d in dice[2::2]] == [
        ("retaliation attack: <target> on a1", back),
        ("retaliation attack: a1 on <target>", f"{back}, and a1 in turn"),
    ]


def test_a_retaliation_and_a_pursuit_out_of_turn() -> None:
    _, s = play(_duel(), {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    assert prompts(s)["retaliation:b1"] == Prompt(
        id="retaliation:b1", role="side", side="b", subject="b1", commands=("Retaliate",),
        reason="b1 may retaliate once this round on a melee attacker",
        choices={"target": ["a1"]},
        dice=(DiceNeed(sides=20, purpose="retaliation attack: b1 on a1", subject="b1",
                       when="Retaliate"),
              DiceNeed(sides=20, purpose="morale check: a1", subject="a1",
                       when="Retaliate, if the damage leaves a1 at or below half health (or "
                       "an ability of b1 forces a check)")),
        optional=True, rule=RETALIATION,
    )  # fmt: skip
    s = make(
        [unit("a1", "a", 5, 6), unit("b1", "b", 5, 5, health_now=30), unit("b9", "b", 0, 0),
         unit("b2", "b", 4, 5)],
        options={"facing_directions": 4},
    )  # fmt: skip
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b2"})
    _, s = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10, 1])  # b1 shatters
    assert prompts(s)["pursuit:a1"] == Prompt(
        id="pursuit:a1", role="side", side="a", subject="a1", commands=("Pursue",),
        reason="a1 may pursue a unit that shattered while engaged with it",
        choices={"shattered": ["b1"]},
        dice=(DiceNeed(sides=20, purpose="free attack: b2 on a1", subject="b2",
                       when="Pursue (breaking away from b2)"),),
        optional=True, rule=PURSUIT,
    )  # fmt: skip


def test_w01_roll_off_once_rolls_before_the_first_round_only_and_not_for_the_defeated() -> None:
    three = [*SIDES, {"id": "c", "zones": [{"id": "zc", "tiles": [[0, 5]]}]}]
    s = make([unit("a1", "a", 5, 9), unit("b1", "b", 5, 2), unit("c1", "c", 0, 5)],
             sides=three, options={"side_order": "roll_off_once"})  # fmt: skip
    assert [(d.purpose, d.subject) for d in prompts(s)["round:1"].dice] == [
        ("roll-off: a", "a"), ("roll-off: b", "b"), ("roll-off: c", "c"),
        ("roll-off: <tied side>", None),
    ]  # fmt: skip
    _, s = play(s, {"type": "StartRound"}, [20, 10, 1])
    _, s = play(s, {"type": "Concede", "side": "b"})
    for side in ("a", "c"):
        _, s = play(s, {"type": "EndTurn", "side": side})
    assert prompts(s)["round:2"].dice == ()  # the first round's order is kept
    s = make([unit("a1", "a", 5, 9), unit("b1", "b", 5, 2), unit("c1", "c", 0, 5)], sides=three)
    _, s = play(s, {"type": "StartRound"}, [20, 10, 1])
    _, s = play(s, {"type": "Concede", "side": "b"})
    for side in ("a", "c"):
        _, s = play(s, {"type": "EndTurn", "side": side})
    assert [d.subject for d in prompts(s)["round:2"].dice] == ["a", "c", None]


def test_a_tile_of_a_held_zone_is_not_offered_through_a_later_zone() -> None:
    """A tile in two zones is its first zone's (decide): when that zone holds an enemy, the
    tile is not offered, even after a zone in between."""
    sides = [
        {"id": "a", "zones": [{"id": "z1", "tiles": [[0, 11], [1, 11]]},
                              {"id": "z2", "tiles": [[5, 11]]},
                              {"id": "z3", "tiles": [[1, 11], [2, 11]]}]},
        SIDES[1],
    ]  # fmt: skip
    s = make([unit("a1", "a", 5, 6), unit("a9", "a", None, None, reserve=True),
              unit("b1", "b", 0, 11)], sides=sides)  # fmt: skip
    s = started(s)
    assert prompts(s)["reserve:a9"].choices == {"to": ["2,11", "5,11"]}
    with pytest.raises(RuleViolation) as held:
        play(s, {"type": "PlaceReserve", "unit": "a9", "to": [1, 11]})
    assert held.value.reason == "zone z1 does not function: b1 stands on it"


def test_each_champion_of_the_side_yet_to_act_is_prompted_after_one_that_is_not() -> None:
    """[Battlefield Champions] "Characters can take one action per round, before their units
    act": every champion of the side whose turn it is that has not acted gets its prompt,
    whichever champions (the other side's, one that acted) come before it; one with no unit
    it may join is offered PassChampion alone, with no choices."""
    s = make(
        [unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)],
        champions=[{"id": "hb", "side": "b"}, {"id": "h1", "side": "a", "joined": "a1"},
                   {"id": "h2", "side": "a"}],
    )  # fmt: skip
    s = started(s)

    def alone(cid: str) -> Prompt:  # a1 is joined by h1: no unit left to join
        return Prompt(
            id=f"champion:{cid}", role="side", side="a", subject=cid, commands=("PassChampion",),
            reason=f"{cid} takes its one action before its units act", choices={},
            optional=True, pass_with="PassChampion", rule=CHAMPIONS,
        )  # fmt: skip

    p = prompts(s)
    assert [k for k in p if k.startswith("champion:")] == ["champion:h1", "champion:h2"]
    assert (p["champion:h1"], p["champion:h2"]) == (alone("h1"), alone("h2"))
    _, s = play(s, {"type": "PassChampion", "champion": "h1"})
    p = prompts(s)
    assert [k for k in p if k.startswith("champion:")] == ["champion:h2"]
    assert p["champion:h2"] == alone("h2")


def test_a_retaliation_window_after_a_unit_off_the_field() -> None:
    """[Retaliatory Attacks]: b1, attacked in melee, may retaliate; a reserve (not on the
    field) listed before it opens no window and hides none."""
    s = make([unit("a0", "a", None, None, reserve=True), unit("a1", "a", 5, 6),
              unit("b1", "b", 5, 5)])  # fmt: skip
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    _, s = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    p = prompts(s)
    assert p["retaliation:b1"].choices == {"target": ["a1"]}
    assert [k for k in p if k.startswith(("retaliation:", "pursuit:"))] == ["retaliation:b1"]


def test_two_units_may_pursue_the_one_that_shattered_each_offered_it_once() -> None:
    """[Pursuit] "A unit can choose to pursue another unit that shatters while engaged with
    them": a1 and a2 were both engaged with b1; each is offered b1, once, for itself."""
    s = make(
        [unit("a1", "a", 5, 6), unit("a2", "a", 4, 6, facing="NE"),
         unit("b1", "b", 5, 5, health_now=30), unit("b9", "b", 0, 0)],
    )  # fmt: skip
    s = started(s)
    for a in ("a1", "a2"):
        _, s = play(s, {"type": "Engage", "unit": a, "target": "b1"})
    _, s = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10, 1])  # b1 shatters
    p = prompts(s)
    assert [k for k in p if k.startswith("pursuit:")] == ["pursuit:a1", "pursuit:a2"]
    assert p["pursuit:a1"].choices == p["pursuit:a2"].choices == {"shattered": ["b1"]}
