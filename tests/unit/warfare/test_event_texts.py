"""What the events of seed 003 say, word for word: the log is the battle's record and the
narrative, the viewer and a table read these texts. Each die's purpose names the roll and
who makes it on whom; each modifier its source ([Attacks] the attack modifier, [Ranged
Increments] the range, [Battlefield Champions] the champion joined, W15 a condition,
[Morale] an ability and the morale modifier); each ending event its reason and section
(W10 destroyed at 0 health, W12 no zone to retreat to, W14 no unit left, one side left,
[Pursuit] the end of its next turn)."""

from __future__ import annotations

from typing import Any

from domain.rulesets.warfare.events import (
    AttackResolved,
    BattleEnded,
    ChampionActed,
    ConditionRemoved,
    EngagementsBroken,
    MoraleChecked,
    RoundStarted,
    SideDefeated,
    TurnEnded,
    UnitDestroyed,
    UnitMoved,
    UnitShattered,
)
from domain.rulesets.warfare.model import State
from tests.support.warfare_kit import SIDES, make, play, started, types, unit

PROJECT, ATTACKS = "003 (project ruling)", "003 Unit Actions / Attacks"
MORALE, DIMINISHED = "003 Unit Actions / Morale", "003 Unit Actions / Diminished"
SHATTERED, ZONES = (
    "003 Unit Actions / Shattered Units",
    "003 Battlefield Features / Reinforcement Zones",
)
ENGAGEMENT, ACTIONS = "003 Unit Actions / Engagement", "003 Unit Actions / Actions"
PURSUIT = "003 Unit Actions / Pursuit"
REFEREE, CHAMPIONS = "003 (referee ruling)", "003 Battlefield Champions"


def _said(e: AttackResolved) -> tuple[Any, ...]:
    """An attack's texts: its die's purpose, its modifiers' (value, reason), its section."""
    pairs = [
        [(m.value, m.reason) for m in mods]
        for mods in (e.modifiers, e.defense_modifiers, e.damage_modifiers)
    ]
    return (e.die.purpose if e.die else None, *pairs, e.rule)


def _engaged(b: dict[str, Any] | None = None, **kw: Any) -> State:
    s = started(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5, **(b or {}))], **kw))
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    return s


def test_a_unit_reduced_to_0_health_is_destroyed_and_its_side_with_it() -> None:
    events, _ = play(_engaged({"health_now": 10}), {"type": "Attack", "unit": "a1",
                                                     "target": "b1"}, [12])  # fmt: skip
    assert isinstance(events[0], AttackResolved)
    assert _said(events[0]) == ("attack: a1 on b1", [(5, "attack modifier")], [], [], ATTACKS)
    assert events[1:] == [
        UnitDestroyed(unit="b1", reason="reduced to 0 health", rule=PROJECT),
        SideDefeated(side="b", reason="no unit left on the battlefield", rule=PROJECT),
        BattleEnded(winner="a", reason="one side left", rule=PROJECT),
    ]


def test_a_diminished_unit_that_cannot_retreat_is_destroyed_under_w12() -> None:
    sides = [SIDES[0], {"id": "b", "zones": [{"id": "zb", "tiles": [[0, 0]]}]}]
    s = make(
        [unit("a1", "a", 5, 6), unit("b1", "b", 5, 5, health_now=25), unit("a2", "a", 0, 0),
         unit("b2", "b", 9, 5)],
        sides=sides, options={"retreat_blocked": "destroyed"},
    )  # fmt: skip
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    events, _ = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [12, 1])
    assert types(events) == ["AttackResolved", "MoraleChecked", "UnitDestroyed"]
    check = events[1]
    assert isinstance(check, MoraleChecked) and check.die.purpose == "morale check: b1"
    assert [(m.value, m.reason) for m in check.modifiers] == [(2, "morale modifier")]
    assert (check.reason, check.rule) == ("diminished: took damage", DIMINISHED)
    assert events[2] == UnitDestroyed(
        unit="b1", reason="shattered with no working zone to retreat to", rule=ZONES
    )


def _champion_and_fear() -> State:
    a1 = unit("a1", "a", 5, 6, abilities=[{"id": "fear", "morale": -2}],
              champion_bonus={"attack": 1, "damage": 2, "morale": 1})  # fmt: skip
    s = make(
        [a1, unit("b1", "b", 5, 5, conditions=["debilitated"]),
         unit("a3", "a", 5, 9, kind="ranged", range_increment=1)],
        champions=[{"id": "hero", "side": "a", "joined": "a1"}],
    )  # fmt: skip
    s = started(s)
    _, s = play(s, {"type": "PassChampion", "champion": "hero"})
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    return s


def test_modifiers_name_the_champion_the_condition_the_range_and_the_ability() -> None:
    s = _champion_and_fear()
    events, _ = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [12, 15])
    assert types(events) == ["AttackResolved", "MoraleChecked", "UnitShattered",
                             "AttackResolved", "SideDefeated", "BattleEnded"]  # fmt: skip
    hero, debilitated = (1, "champion hero joined"), (-2, "condition: debilitated")
    assert _said(events[0]) == (
        "attack: a1 on b1", [(5, "attack modifier"), hero], [debilitated],
        [(2, "champion hero joined")], ATTACKS,
    )  # fmt: skip
    check = events[1]
    assert isinstance(check, MoraleChecked)
    assert [(m.value, m.reason) for m in check.modifiers] == [
        (2, "morale modifier"), (-2, "ability: fear")
    ]  # fmt: skip
    assert (check.reason, check.rule) == ("ability of a1", MORALE)
    assert events[2] == UnitShattered(unit="b1", engaged=("a1",), zone="zb", rule=SHATTERED)
    # the automatic hit rolls no die
    assert _said(events[3]) == (None, [], [debilitated], [(2, "champion hero joined")],
                                SHATTERED)  # fmt: skip
    events, _ = play(s, {"type": "Attack", "unit": "a3", "target": "b1"}, [12])
    assert _said(events[0]) == (
        "attack: a3 on b1", [(5, "attack modifier"), (-6, "range: 4 increments")],
        [debilitated], [], ATTACKS,
    )  # fmt: skip


def test_breaking_away_the_free_attack_names_its_die() -> None:
    events, _ = play(_champion_and_fear(), {"type": "Move", "unit": "a1", "to": [5, 7]}, [1])
    free = events[0]
    # a melee attack ([Engagement]) that opens no retaliation (RULINGS)
    assert isinstance(free, AttackResolved) and (free.kind, free.melee) == ("free", True)
    assert not free.opens_retaliation
    assert _said(events[0]) == (
        "free attack: b1 on a1", [(5, "attack modifier"), (-2, "condition: debilitated")],
        [], [], ATTACKS,
    )  # fmt: skip
    assert events[1:] == [
        EngagementsBroken(unit="a1", units=("b1",), rule=ENGAGEMENT),
        UnitMoved(unit="a1", path=((5, 7),), facing="N", rule=ACTIONS),
    ]


def _pursuing() -> State:
    s = make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5, health_now=30), unit("b9", "b", 0, 0)])
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    _, s = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10, 1])
    _, s = play(s, {"type": "Pursue", "unit": "a1", "shattered": "b1"})
    return s


def _to_a_second_turn_end(s: State) -> list[Any]:
    """a's turn ends, b's, round 2 starts (a first) and a's turn ends: its events."""
    _, s = play(s, {"type": "EndTurn", "side": "a"})
    _, s = play(s, {"type": "EndTurn", "side": "b"})
    _, s = play(s, {"type": "StartRound"}, [20, 1])
    events, _ = play(s, {"type": "EndTurn", "side": "a"})
    return events


def test_pursuing_ends_at_the_end_of_its_next_turn() -> None:
    ended = ConditionRemoved(
        unit="a1", condition="pursuing", reason="the end of its next turn after pursuing",
        rule=PURSUIT,
    )  # fmt: skip
    assert _to_a_second_turn_end(_pursuing())[0] == ended
    # another condition given and taken meanwhile does not reset the count
    s = _pursuing()
    for kind in ("ApplyCondition", "RemoveCondition"):
        _, s = play(s, {"type": kind, "unit": "a1", "condition": "winded", "reason": "r"})
    assert _to_a_second_turn_end(s)[0] == ended
    # taken off early by the referee, it is not taken off again
    _, s = play(_pursuing(), {"type": "RemoveCondition", "unit": "a1", "condition": "pursuing",
                              "reason": "called back"})  # fmt: skip
    events, _ = play(s, {"type": "EndTurn", "side": "a"})
    assert types(events) == ["TurnEnded"]
    assert types(_to_a_second_turn_end(s)) == ["TurnEnded"]


def test_the_round_the_turn_and_the_champions_actions_as_recorded() -> None:
    s = make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)],
             champions=[{"id": "hero", "side": "a"}])  # fmt: skip
    events, s = play(s, {"type": "StartRound"}, [7, 15])
    started_ = events[0]
    assert isinstance(started_, RoundStarted) and started_.rule == PROJECT
    assert [(r.side, r.dice[0].sides, r.dice[0].purpose) for r in started_.rolls] == [
        ("a", 20, "roll-off: a"), ("b", 20, "roll-off: b")
    ]  # fmt: skip
    events, s = play(s, {"type": "EndTurn", "side": "b"})
    assert events == [TurnEnded(side="b", next="a", rule=ACTIONS)]
    events, _ = play(s, {"type": "ResolveChampionAction", "champion": "hero",
                         "action": "rallies", "effect": "+1"})  # fmt: skip
    assert events == [ChampionActed(champion="hero", action="referee", description="rallies",
                                    effect="+1", rule=REFEREE)]  # fmt: skip
    events, s = play(s, {"type": "JoinUnit", "champion": "hero", "unit": "a1"})
    assert events == [ChampionActed(champion="hero", action="join", unit="a1", rule=CHAMPIONS)]
    # the next round, it leaves the unit it joined (a JoinUnit naming no unit)
    _, s = play(s, {"type": "EndTurn", "side": "a"})
    _, s = play(s, {"type": "StartRound"}, [20, 1])
    events, _ = play(s, {"type": "JoinUnit", "champion": "hero"})
    assert events == [ChampionActed(champion="hero", action="leave", unit="a1", rule=CHAMPIONS)]
