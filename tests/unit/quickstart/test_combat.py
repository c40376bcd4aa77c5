"""2. Action Phase moves, Resolving Combat, The troops, Magic circles (seed 001)."""

from __future__ import annotations

import pytest

from domain.errors import NotPermitted, RuleViolation, UnknownEntity
from domain.rulesets.quickstart import RULESET
from tests.support.quickstart_testkit import cmd, make, run, side, sq, to_action, types

FAR = sq("far", "south", "soldier", 1, 11, 11)


def test_move_within_speed_and_converted_standard() -> None:
    s = to_action(make([sq("p", "north", "paladin", 2, 0, 0), FAR]))
    s, ev = run(s, "MoveSquad", squad="p", x=6, y=0)
    assert ev[0].action == "move" and ev[0].cost == 6
    s, ev = run(s, "MoveSquad", squad="p", x=6, y=6)  # the standard converted
    assert ev[0].action == "standard" and s.squads["p"].standard_used
    with pytest.raises(RuleViolation):  # no third move, no extra action
        run(s, "MoveSquad", squad="p", x=6, y=7)


def test_move_beyond_speed_occupied_and_blocked() -> None:
    s = to_action(
        make(
            [sq("m", "north", "medic", 1, 0, 0), sq("x", "north", "soldier", 1, 0, 3), FAR],
            barriers=[{"id": "b", "side": "south", "level": 1, "x": 2, "y": 2}],
            circles=[{"id": "c", "side": "south", "x": 1, "y": 1}],
        )
    )
    with pytest.raises(RuleViolation, match="beyond"):
        run(s, "MoveSquad", squad="m", x=6, y=0)  # medic speed 5
    with pytest.raises(RuleViolation, match="occupied"):
        run(s, "MoveSquad", squad="m", x=0, y=3)
    with pytest.raises(RuleViolation, match="occupied"):
        run(s, "MoveSquad", squad="m", x=2, y=2)  # barriers block movement
    with pytest.raises(UnknownEntity):
        run(s, "MoveSquad", squad="nope", x=1, y=0)
    s, ev = run(s, "MoveSquad", squad="m", x=1, y=1)  # circles do not block
    assert ev[0].cost == 1
    s, _ = run(s, "EndStep")
    with pytest.raises(RuleViolation):  # moves come before combats
        run(s, "MoveSquad", squad="x", x=0, y=4)


def test_orthogonal_adjacency_option() -> None:
    s = to_action(
        make(
            [sq("p", "north", "paladin", 2, 0, 0), FAR],
            options={"adjacency": "orthogonal"},
        )
    )
    with pytest.raises(RuleViolation):
        run(s, "MoveSquad", squad="p", x=4, y=4)  # 8 orthogonal steps > 6
    s, ev = run(s, "MoveSquad", squad="p", x=3, y=3)
    assert ev[0].cost == 6


def duel(n_level: int = 2, s_level: int = 2, n_kind: str = "paladin", **kw: object):  # type: ignore[no-untyped-def]
    squads = [
        sq("n", "north", n_kind, n_level, 5, 5),
        sq("s", "south", "paladin", s_level, 5, 6, **kw),
        FAR,
    ]
    return to_action(make(squads), step="combat")


def test_attack_needs_contact_and_combat_step() -> None:
    s = to_action(
        make([sq("n", "north", "paladin", 2, 5, 5), sq("s", "south", "paladin", 2, 5, 8)])
    )
    with pytest.raises(RuleViolation):
        run(s, "Attack", squads=["n"], targets=["s"])  # still the moves step
    s, _ = run(s, "EndStep")
    with pytest.raises(RuleViolation, match="contact"):
        run(s, "Attack", squads=["n"], targets=["s"])


def test_combat_dice_hit_on_six_and_single_hit() -> None:
    s = duel()
    s2, ev = run(s, "Attack", [6, 6, 1, 2], squads=["n"], targets=["s"])
    rolled = ev[1]
    assert types(ev)[:2] == ["CombatStarted", "CombatRolled"]
    assert [len(r.dice.values) for r in rolled.rolls] == [2, 2]  # Xd6, X = level
    assert [r.hits for r in rolled.rolls] == [1, 0]  # two sixes: still one hit
    assert "s" not in s2.squads and "HitApplied" in types(ev)
    _s3, ev = run(s, "Attack", [5, 4, 3, 2], squads=["n"], targets=["s"])
    assert ev[1].hits == () and types(ev)[-1] == "PressOrRetreatOffered"


def test_loser_chooses_casualty_then_press_or_retreat() -> None:
    squads = [
        sq("n", "north", "paladin", 2, 5, 5),
        sq("s1", "south", "paladin", 2, 4, 6),
        sq("s2", "south", "paladin", 2, 6, 6),
    ]
    s = to_action(make(squads), step="combat")
    s, ev = run(s, "Attack", [6, 1, 1, 1, 1, 1], squads=["n"], targets=["s1", "s2"])
    assert types(ev)[-1] == "CombatRolled"  # waits for south's choice
    assert RULESET.view(s, side("south"))["pending"]["candidates"] == ["s1", "s2"]
    with pytest.raises(NotPermitted):
        RULESET.authorize(s, cmd("ChooseCasualty", squad="s1"), side("north"))
    with pytest.raises(RuleViolation):  # a combat is pending
        run(s, "EndStep")
    with pytest.raises(RuleViolation):
        run(s, "ChooseCasualty", squad="n")
    RULESET.authorize(s, cmd("ChooseCasualty", squad="s2"), side("south"))
    s, ev = run(s, "ChooseCasualty", squad="s2")
    assert "s2" not in s.squads and types(ev)[-1] == "PressOrRetreatOffered"
    with pytest.raises(NotPermitted):
        RULESET.authorize(s, cmd("PressAttack"), side("south"))
    _pressed, ev = run(s, "PressAttack", [1, 1, 1, 1])  # both roll again
    assert types(ev)[:2] == ["AttackPressed", "CombatRolled"] and len(ev[1].rolls) == 2
    s, ev = run(s, "Retreat")
    assert types(ev) == ["SquadsRetreated", "CombatEnded"]
    m = ev[0].moves[0]
    assert max(abs(m.x - 4), abs(m.y - 6)) > 1 and max(abs(m.x - 5), abs(m.y - 5)) == 1
    assert s.combat is None


def test_half_level_squad_needs_two_hits() -> None:
    s = duel(n_level=1, s_level=2)
    s, ev = run(s, "Attack", [6, 1, 1], squads=["n"], targets=["s"])
    assert ev[2].outcome == "wounded" and s.squads["s"].wounds == 1
    s, ev = run(s, "PressAttack", [6, 1, 1])
    assert [e.outcome for e in ev if type(e).__name__ == "HitApplied"] == ["destroyed"]
    assert "s" not in s.squads


def test_soldier_hit_cancels_one_enemy_hit() -> None:
    s = duel(n_kind="soldier")
    s, ev = run(s, "Attack", [6, 1, 6, 1], squads=["n"], targets=["s"])
    assert ev[1].ignored == {"south": 0, "north": 1}
    assert "n" in s.squads and "s" not in s.squads


def test_paladin_scores_every_six_against_undead() -> None:
    squads = [
        sq("n", "north", "paladin", 3, 5, 5),
        sq("s1", "south", "soldier", 1, 4, 6, undead=True),
        sq("s2", "south", "soldier", 1, 6, 6),
    ]
    s = to_action(make(squads), step="combat")
    s, ev = run(s, "Attack", [6, 6, 1, 1, 1], squads=["n"], targets=["s1", "s2"])
    assert ev[1].rolls[0].hits == 2 and ev[1].rolls[0].undead_only == 1
    assert [h.only for h in ev[1].hits] == ["undead", "any"]  # the restricted one first
    # each hit has one squad that may take it: the undead s1, then s2
    assert [(e.squad, e.outcome) for e in ev if type(e).__name__ == "HitApplied"] == [
        ("s1", "destroyed"),
        ("s2", "destroyed"),
    ]
    assert s.winner == "north"


def test_caster_range_and_first_strike() -> None:
    squads = [sq("c", "north", "caster", 2, 5, 2), sq("s", "south", "paladin", 2, 5, 7), FAR]
    s = to_action(make(squads), step="combat")
    s2, ev = run(s, "Attack", [6, 1], squads=["c"], targets=["s"])  # 5 squares away
    assert ev[1].stage == "first_strike" and "s" not in s2.squads
    assert all(r.squad == "c" for e in ev if type(e).__name__ == "CombatRolled" for r in e.rolls)
    s3, ev = run(s, "Attack", [1, 1, 6, 1], squads=["c"], targets=["s"])
    assert [e.stage for e in ev if type(e).__name__ == "CombatRolled"] == ["first_strike", "main"]
    assert "c" not in s3.squads
    far = to_action(make([squads[0], sq("s", "south", "paladin", 2, 5, 8)]), step="combat")
    with pytest.raises(RuleViolation):
        run(far, "Attack", [1, 1], squads=["c"], targets=["s"])


def test_medic_saving_throw() -> None:
    squads = [
        sq("n", "north", "paladin", 2, 5, 5),
        sq("s", "south", "paladin", 2, 5, 6),
        sq("m", "south", "medic", 2, 5, 7),
    ]
    s = to_action(make(squads), step="combat")
    _s2, ev = run(s, "Attack", [6, 1, 1, 1, 13], squads=["n"], targets=["s"])  # 13 + 2 >= 15
    hit = next(e for e in ev if type(e).__name__ == "HitApplied")
    assert hit.outcome == "saved" and hit.medic == "m" and hit.save.value == 13
    s3, ev = run(s, "Attack", [6, 1, 1, 1, 12], squads=["n"], targets=["s"])
    assert "s" not in s3.squads


def test_skirmisher_moves_again_after_combats() -> None:
    squads = [sq("k", "north", "skirmisher", 1, 0, 0), sq("p", "north", "paladin", 1, 0, 2), FAR]
    s = to_action(make(squads))
    s, ev = run(s, "MoveSquad", squad="k", x=7, y=0)
    assert ev[0].cost == 7
    s, _ = run(s, "EndStep")
    s, _ = run(s, "EndStep")
    assert s.step == "skirmish"
    with pytest.raises(RuleViolation):
        run(s, "MoveSquad", squad="p", x=0, y=3)
    s, ev = run(s, "MoveSquad", squad="k", x=7, y=7)
    assert ev[0].action == "skirmish"
    with pytest.raises(RuleViolation):
        run(s, "MoveSquad", squad="k", x=7, y=8)


def test_squad_on_enemy_magic_circle_is_hit_on_five() -> None:
    squads = [sq("n", "north", "paladin", 1, 5, 5), sq("s", "south", "paladin", 1, 5, 6), FAR]
    circle = [{"id": "c", "side": "north", "x": 5, "y": 6}]
    s = to_action(make(squads, circles=circle), step="combat")
    s2, ev = run(s, "Attack", [5, 5], squads=["n"], targets=["s"])
    assert ev[1].rolls[0].circle_hit_on == 5 and ev[1].rolls[1].circle_hit_on is None
    assert ev[1].rolls[0].circle_only == 1 and [h.only for h in ev[1].hits] == ["circle"]
    assert "s" not in s2.squads and "n" in s2.squads
