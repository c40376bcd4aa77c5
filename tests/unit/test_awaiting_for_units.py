"""`for_units`: what a player key limited to some units is told the battle awaits (issue 34):
only the prompts it may answer. A choice is narrowed only where its field names what the
prompt's commands order, by the ruleset's own `ordered_units` (the map `check_units`
judges commands by, domain.ordering): a target or a unit joined is kept whole, and a
prompt whose ordered field keeps none of the key's units is dropped (every answer to it
would be refused)."""

from __future__ import annotations

from domain.actors import Actor
from domain.prompts import Prompt
from domain.rulesets.phased import RULESET as PHASED
from domain.rulesets.quickstart import RULESET as QUICKSTART
from domain.rulesets.warfare import RULESET as WARFARE
from service.battles.awaiting import for_units, ordering_of

NORTH = Actor(role="side", side="north")
QS = QUICKSTART.ordered_units
WF = WARFARE.ordered_units


def _p(
    id: str,
    side: str | None,
    commands: tuple[str, ...],
    subject: str | None = None,
    **choices: list[str],
) -> Prompt:
    role = "referee" if side is None else "side"
    return Prompt(
        id=id,
        role=role,
        side=side,
        subject=subject,
        commands=commands,
        reason="r",
        choices=choices,
    )


PROMPTS = [
    _p("skill:n1", "north", ("UseSkill",), "n1", hero=["n1"], skill=["s1", "s2"]),
    _p("move:n2", "north", ("MoveSquad",), "n2", squad=["n2"]),
    _p("attack", "north", ("Attack",), None, squads=["n1", "n2"], targets=["s1"]),
    _p("casualty", "north", ("ChooseCasualty",), None, squad=["n2", "n3"]),
    _p("turn:s1", "south", ("MoveSquad",), "s1", squad=["s1"]),
    _p("ruling", None, ("AdjustSquad",), squad=["n1"]),
]


def test_a_key_without_a_limit_is_told_everything() -> None:
    assert for_units(PROMPTS, NORTH, None, QS) == PROMPTS


def test_a_limited_key_is_told_only_what_it_may_answer() -> None:
    got = for_units(PROMPTS, NORTH, ("n1",), QS)
    assert [p.id for p in got] == ["skill:n1", "attack"]
    assert got[0] == PROMPTS[0]  # its skills are not units: untouched
    assert got[1].choices == {"squads": ["n1"], "targets": ["s1"]}


def test_a_prompt_whose_ordered_field_keeps_none_of_the_keys_units_is_dropped() -> None:
    # The casualty prompt lists only n2 and n3 (none of n1's): it used to be kept whole.
    got = for_units(PROMPTS, NORTH, ("n1",), QS)
    assert "casualty" not in [p.id for p in got]
    assert [p.id for p in for_units(PROMPTS, NORTH, ("n9",), QS)] == []
    kept = for_units(PROMPTS, NORTH, ("n3",), QS)
    assert [(p.id, p.choices) for p in kept] == [("casualty", {"squad": ["n3"]})]


def test_a_field_naming_a_target_or_a_unit_joined_is_kept_whole() -> None:
    # warfare: JoinUnit orders the champion, not the unit it joins (domain.ordering).
    join = _p("champion:c1", "north", ("PassChampion", "JoinUnit"), "c1", unit=["u1", "u2"])
    assert for_units([join], NORTH, ("c1", "u1"), WF) == [join]
    assert for_units([join], NORTH, ("c1",), WF) == [join]


def test_a_ruleset_that_cannot_tell_lets_a_limited_key_answer_nothing() -> None:
    assert for_units(PROMPTS, NORTH, ("n1",), None) == []
    assert for_units(PROMPTS, NORTH, None, None) == PROMPTS


def test_each_ruleset_is_found_by_its_id() -> None:
    assert ordering_of("warfare") is WF
    assert ordering_of("phased") is PHASED.ordered_units
    assert ordering_of("no-such-ruleset") is None
