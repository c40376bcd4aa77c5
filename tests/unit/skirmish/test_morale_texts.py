"""The texts a player reads in the routing phase and at the end (seed 000 "Morale Checks",
"Routing", "Opposed Morale Checks", "Ending Skirmish Combat"): each die's purpose, each
term's label, why an army cannot fail, why it routed, why the skirmish ended, and the
refusals of EndSkirmish, compared whole."""

from __future__ import annotations

import msgspec
import pytest

from domain.dice import Roll
from domain.errors import RuleViolation
from domain.rulesets.skirmish.events import ArmyRouted, Check, MoraleChecked, SkirmishEnded
from domain.rulesets.skirmish.model import State
from domain.rulesets.skirmish.morale import end_skirmish, opposed_check, standing_sides
from domain.rulesets.skirmish.rules import R_END, R_MORALE_DCS, R_ROUTING
from domain.rulesets.skirmish.specs import Term
from tests.support.skirmish_kit import ScriptedDice, cmd, make, orcs, ready, run, to_phase, types
from tests.unit.skirmish.test_movement import engage

EVERY = {"rout_check": "every_round"}


def _routing(dice: list[int], **orc: object) -> list[object]:
    s = to_phase(ready(south=[orcs(**orc)], options=EVERY), "routing")
    return run(s, "ResolvePhase", dice=dice)[1]


def _morale(value: int) -> tuple[Term, ...]:
    return (Term(label="morale", value=value, rule=R_MORALE_DCS),)


def test_a_rout_at_morale_plus_zero_says_so_and_ends_the_skirmish() -> None:
    """ "Routing": failing at +0 or below routs at once; one force alone can still fight."""
    ev = _routing([13, 5], morale_adjustment=3)  # orcs' morale -3 + 3 = +0
    assert types(ev) == ["MoraleChecked", "MoraleChecked", "ArmyRouted", "SkirmishEnded"]
    assert ev[0].check.die.purpose == "routing Morale check of fighters"
    assert ev[1].check.die.purpose == "routing Morale check of orcs"
    assert ev[1].check.terms == _morale(0) and ev[1].check.automatic == ""
    assert ev[2] == ArmyRouted(
        army="orcs", reason="failed its Morale check at morale +0 or below", rule=R_ROUTING
    )
    assert ev[3] == SkirmishEnded(
        reason="one force alone can still fight",
        bloodied=(),
        still_routed=("orcs",),
        standing=("north",),
        rule=R_END,
    )


def test_a_rout_after_a_failed_will_save_says_so() -> None:
    """ "Routing": above +0 the army makes the standard mass combat save (a Will save)."""
    ev = _routing([13, 5, 1], morale_adjustment=4)  # morale +1: the Will save 1 + 1 fails
    will = ev[1].will_save
    assert will is not None and will.die.purpose == "Will save of orcs against routing"
    assert will.terms == (Term(label="Will", value=1, rule=R_ROUTING),)
    assert ev[2] == ArmyRouted(
        army="orcs", reason="failed its Morale check and its Will save", rule=R_ROUTING
    )


@pytest.mark.parametrize(
    ("flag", "why"),
    [
        ("dominated", "dominated: cannot fail"),
        ("summoned", "summoned: cannot fail"),
        ("mindless", "mindless: cannot fail"),
        ("immune_to_fear", "immune to fear: cannot fail"),
    ],
)
def test_an_army_that_cannot_fail_its_morale_check_says_why(flag: str, why: str) -> None:
    """ "Morale Checks": dominated, summoned, mindless and fear-immune armies cannot fail
    (no die is rolled for them)."""
    ev = _routing([13], **{flag: True})
    assert ev[1] == MoraleChecked(
        army="orcs",
        purpose="rout",
        check=Check(
            die=None,
            terms=_morale(-3),
            total=-3,
            dc=15,
            success=True,
            rule=R_ROUTING,
            automatic=why,
        ),
        will_save=None,
        routed=False,
        rule=R_ROUTING,
    )


def test_the_opposed_check_dice_name_both_armies_and_the_tactic() -> None:
    """ "Opposed Morale Checks": the initiator's die and each opponent's."""
    s = engage(ready(options={"opposed_tactics": ["withdraw"]}))
    _, ev = run(s, "IssueTactic", dice=[10, 15, 12, 5], army="fighters", tactic="withdraw")
    assert ev[0].check.die.purpose == "opposed Morale check of fighters: tactic withdraw"
    (o,) = ev[0].opposed
    assert o.check.die.purpose == "opposed Morale check of orcs against fighters"


def test_ending_a_skirmish_not_started_or_already_over_is_refused_with_its_reason() -> None:
    """ "Ending Skirmish Combat" needs a skirmish under way."""
    with pytest.raises(RuleViolation) as refused:
        run(make(), "EndSkirmish", reason="too early")
    assert str(refused.value) == "the skirmish has not started"
    over, _ = run(ready(), "EndSkirmish", reason="the orcs withdrew")
    # `decide` refuses every order once the skirmish is over; `end_skirmish` on its own too
    with pytest.raises(RuleViolation) as refused:
        end_skirmish(over, cmd("EndSkirmish", reason="again"), ScriptedDice())
    assert str(refused.value) == "the skirmish is already over"


class _Subjects(ScriptedDice):
    """Scripted dice that keep the subject each die is asked for (table dice ask the side
    of that army for it)."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(values)
        self.subjects: list[str | None] = []

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        self.subjects.append(subject)
        return super().roll(sides, purpose, subject)


def test_the_opposed_check_rolls_a_d20_for_each_army_opponents_in_id_order() -> None:
    """ "Opposed Morale Checks": the initiator and each opposing army roll d20 + morale; each
    die is asked for the army that rolls it, the opponents' in the order of their ids
    whatever the order they are given in."""
    s = ready(south=[orcs(), orcs("brutes")], places={"brutes": (20, 70, "north")})
    dice = _Subjects([10, 4, 6])
    fighters, brutes, orcs_ = (s.armies[x] for x in ("fighters", "brutes", "orcs"))
    result, opposed = opposed_check(dice, fighters, [orcs_, brutes], "tactic withdraw")
    assert dice.subjects == ["fighters", "brutes", "orcs"]
    assert [r.sides for r in dice.drawn] == [20, 20, 20]
    assert [(o.army, o.check.die.value) for o in opposed] == [("brutes", 4), ("orcs", 6)]
    assert (result.die.sides, result.total, result.dc) == (20, 12, 3)


def _with(s: State, army: str, **fields: object) -> State:
    changed = msgspec.structs.replace(s.armies[army], **fields)
    return msgspec.structs.replace(s, armies={**s.armies, army: changed})


def test_a_side_stands_with_a_placed_army_that_neither_fell_nor_routed() -> None:
    """ "Ending Skirmish Combat": the sides still able to fight (the view's `standing`)."""
    s = ready()
    assert standing_sides(s) == ["north", "south"]
    assert standing_sides(_with(s, "orcs", routed=True)) == ["north"]
    assert standing_sides(_with(s, "orcs", defeated=True)) == ["north"]
    assert standing_sides(_with(s, "orcs", placed=False)) == ["north"]
