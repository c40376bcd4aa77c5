"""What a warfare battle awaits (issue 34, seed 003): given a state, then its prompts. The
round's start with its roll-off dice, a side's turn and its units' orders, a retaliation
window prompted to the side that may take it (out of turn), pursuit, champions first,
reserves, the dice an attack will need and the die table dice ask for by subject."""

from __future__ import annotations

import pytest

from domain.actors import Actor
from domain.dice import SuppliedDice
from domain.errors import DiceError
from domain.prompts import Prompt
from domain.rulesets.warfare import RULESET
from domain.rulesets.warfare.commands import Attack
from domain.rulesets.warfare.model import State
from tests.support.warfare_kit import make, play, started, unit

REFEREE = Actor(role="referee")


def _by_id(state: State, actor: Actor = REFEREE) -> dict[str, Prompt]:
    return {p.id: p for p in RULESET.awaiting(state, actor)}


def _duel(options: dict | None = None, **b: object) -> State:
    """a1 (N-facing) engaged with b1 (S-facing) just north of it, a's turn."""
    s = make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5, **b)], options=options)
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    return s


def test_before_a_round_the_referee_starts_it_with_a_d20_per_side() -> None:
    p = _by_id(make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)]))
    r = p["round:1"]
    assert (r.role, r.commands, r.optional) == ("referee", ("StartRound",), False)
    assert [(d.sides, d.subject, d.when) for d in r.dice[:2]] == [(20, "a", None), (20, "b", None)]
    assert r.dice[2].when is not None  # a tie's re-roll cannot be known in advance
    assert r.rule == "003 (project ruling)"
    assert not any(q.role == "side" for q in p.values())


def test_setup_order_rolls_no_die() -> None:
    s = make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)], options={"side_order": "setup"})
    assert _by_id(s)["round:1"].dice == ()


def test_a_side_turn_lists_its_units_orders_and_only_what_decide_accepts() -> None:
    p = _by_id(_duel())
    assert p["turn:a"].commands == ("EndTurn",) and not p["turn:a"].optional
    assert p["attack:a1"].choices == {"target": ["b1"]}
    turn = p["turn:a1"]
    # engaged: it may not rest ([Resting]) and Face lists the eight directions once
    assert "Rest" not in turn.commands and "Disengage" in turn.commands
    assert "Move" in turn.commands and len(turn.choices["facing"]) == 8
    assert "engage:a1" not in p  # engaged with the only foe already
    assert "turn:b1" not in p and "attack:b1" not in p  # not b's turn


def test_the_attack_prompt_names_its_d20_and_the_morale_die_when_it_diminishes() -> None:
    d = _by_id(_duel())["attack:a1"].dice
    assert [(x.sides, x.purpose, x.subject) for x in d] == [
        (20, "attack: a1 on b1", "a1"),
        (20, "morale check: b1", "b1"),
    ]
    assert d[0].when == "Attack" and "half health" in (d[1].when or "")


def test_table_dice_name_the_subject_of_each_die_they_ask_for() -> None:
    s = _duel(health_now=30)
    with pytest.raises(DiceError) as first:
        RULESET.decide(s, Attack(unit="a1", target="b1"), SuppliedDice([]))
    need = first.value.context["next_die"]
    assert (need.sides, need.purpose, need.subject) == (20, "attack: a1 on b1", "a1")
    with pytest.raises(DiceError) as second:
        RULESET.decide(s, Attack(unit="a1", target="b1"), SuppliedDice([10]))
    need = second.value.context["next_die"]
    assert (need.purpose, need.subject) == ("morale check: b1", "b1")


def test_table_dice_name_each_side_of_the_roll_off() -> None:
    s = make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5)])
    with pytest.raises(DiceError) as refused:
        play(s, {"type": "StartRound"}, [7])
    assert refused.value.context["next_die"].subject == "b"


def test_a_melee_attack_opens_a_retaliation_prompt_to_the_target_side_out_of_turn() -> None:
    _, s = play(_duel(), {"type": "Attack", "unit": "a1", "target": "b1"}, [10])
    assert s.active == "a"
    r = _by_id(s)["retaliation:b1"]
    assert (r.role, r.side, r.subject, r.commands) == ("side", "b", "b1", ("Retaliate",))
    assert r.choices == {"target": ["a1"]} and r.optional
    assert r.rule == "003 Unit Actions / Retaliatory Attacks"
    assert r.dice[0].purpose == "retaliation attack: b1 on a1"
    # b's own key reads it too: the window is b's to take
    assert "retaliation:b1" in _by_id(s, Actor(role="side", side="b"))
    _, s = play(s, {"type": "Retaliate", "unit": "b1", "target": "a1"}, [1])
    assert "retaliation:b1" not in _by_id(s)  # one a round


def test_no_retaliation_prompt_when_the_service_makes_it_automatically() -> None:
    _, s = play(
        _duel({"retaliation": "automatic"}),
        {"type": "Attack", "unit": "a1", "target": "b1"},
        [10, 1, 1],
    )
    assert not any(k.startswith("retaliation:") for k in _by_id(s))


def test_a_shattering_opens_a_pursuit_prompt() -> None:
    s = make([unit("a1", "a", 5, 6), unit("b1", "b", 5, 5, health_now=30), unit("b9", "b", 0, 0)])
    s = started(s)
    _, s = play(s, {"type": "Engage", "unit": "a1", "target": "b1"})
    _, s = play(s, {"type": "Attack", "unit": "a1", "target": "b1"}, [10, 1])
    p = _by_id(s)["pursuit:a1"]
    assert p.commands == ("Pursue",) and p.choices == {"shattered": ["b1"]}
    assert p.rule == "003 Unit Actions / Pursuit"
    _, s = play(s, {"type": "Pursue", "unit": "a1", "shattered": "b1"})
    assert "pursuit:a1" not in _by_id(s)


def test_a_champion_acts_before_its_units() -> None:
    s = make(
        [unit("a1", "a", 5, 6), unit("a2", "a", 7, 6), unit("b1", "b", 5, 2)],
        champions=[{"id": "hero", "side": "a", "leads": ["a1"]}],
    )
    p = _by_id(started(s))
    c = p["champion:hero"]
    assert c.pass_with == "PassChampion" and c.choices == {"unit": ["a1", "a2"]}
    assert p["champion-action:hero"].role == "referee"
    assert "turn:a1" not in p and "turn:a2" in p  # a1 waits for its champion
    _, s = play(started(s), {"type": "PassChampion", "champion": "hero"})
    assert "turn:a1" in _by_id(s) and "champion:hero" not in _by_id(s)


def test_a_reserve_may_enter_only_on_free_tiles_of_a_working_zone() -> None:
    s = make([unit("a1", "a", 3, 11), unit("a9", "a", None, None, reserve=True),
              unit("b1", "b", 5, 2)])  # fmt: skip
    r = _by_id(started(s))["reserve:a9"]
    assert "3,11" not in r.choices["to"] and "4,11" in r.choices["to"]
    assert len(r.choices["to"]) == 11
    blocked = make([unit("b2", "b", 3, 11), unit("a9", "a", None, None, reserve=True),
                    unit("a1", "a", 5, 5), unit("b1", "b", 5, 2)])  # fmt: skip
    assert "reserve:a9" not in _by_id(started(blocked))


def test_a_battle_over_awaits_nothing() -> None:
    _, s = play(_duel(), {"type": "Concede", "side": "b"})
    assert RULESET.is_over(s) and RULESET.awaiting(s, REFEREE) == []


def test_engaging_comes_before_a_melee_attack_and_a_ranged_unit_reaches_five_increments() -> None:
    s = make([unit("a1", "a", 5, 6), unit("a3", "a", 7, 10, kind="ranged", range_increment=1),
              unit("b1", "b", 5, 5), unit("b2", "b", 7, 5), unit("b3", "b", 7, 4)])  # fmt: skip
    p = _by_id(started(s))
    assert p["engage:a1"].choices == {"target": ["b1"]} and "attack:a1" not in p
    # b1 and b2 are 5 tiles (increments) from a3, b3 is 6: beyond a ranged unit's five
    assert p["attack:a3"].choices == {"target": ["b1", "b2"]}


def test_a_ranged_unit_is_prompted_for_foes_five_of_its_increments_away_not_five_tiles() -> None:
    """[Ranged Increments] "Ranged units can attack up to 5 increments distant": with an
    increment of 2 tiles, a foe 10 tiles off (5 increments) is a target, one 11 off (6) not;
    the prompt lists what decide accepts, whatever the increment."""
    s = make([unit("a3", "a", 5, 11, kind="ranged", range_increment=2),
              unit("b1", "b", 5, 1), unit("b2", "b", 5, 0)])  # fmt: skip
    s = started(s)
    assert _by_id(s)["attack:a3"].choices == {"target": ["b1"]}
    events, _ = play(s, {"type": "Attack", "unit": "a3", "target": "b1"}, [1])
    assert events[0].increments == 5


def test_a_tile_of_two_zones_is_its_first_zones_and_a_unit_of_speed_0_never_moves() -> None:
    sides = [
        {"id": "a", "zones": [{"id": "z1", "tiles": [[0, 11], [1, 11]]},
                              {"id": "z2", "tiles": [[1, 11], [2, 11]]}]},
        {"id": "b", "zones": [{"id": "zb", "tiles": [[0, 0]]}]},
    ]  # fmt: skip
    s = make([unit("a1", "a", 5, 6, speed=0), unit("a9", "a", None, None, reserve=True),
              unit("b1", "b", 0, 11)], sides=sides)  # fmt: skip
    p = _by_id(started(s))
    # z1 holds b1, so it does not work: (1, 11) is z1's first, refused; (2, 11) is z2's
    assert p["reserve:a9"].choices == {"to": ["2,11"]}
    assert "Move" not in p["turn:a1"].commands
