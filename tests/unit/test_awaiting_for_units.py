"""`for_units`: what a player key limited to some units is told the battle awaits (issue 34):
only the prompts it may answer. A choice is narrowed only where its field names what the
prompt's commands order, by the ruleset's own `ordered_units` (the map `check_units`
judges commands by, domain.ordering): a target or a unit joined is kept whole, and a
prompt whose ordered field keeps none of the key's units is dropped (every answer to it
would be refused)."""

from __future__ import annotations

from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest

from bench.awaiting import RULESETS, play_throughs
from domain.actors import Actor
from domain.ordering import ordered_fields
from domain.prompts import Prompt
from domain.rulesets.phased import RULESET as PHASED
from domain.rulesets.quickstart import RULESET as QUICKSTART
from domain.rulesets.warfare import RULESET as WARFARE
from service.battles.awaiting import for_units, ordering_of
from tests.support.phased_kit import cb, declare, make, setup_of

NORTH = Actor(role="side", side="north")
RED = Actor(role="side", side="red")
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


def test_a_phased_withdrawal_is_told_only_for_the_keys_own_combatants() -> None:
    # A side's declarations to take back were one prompt listing every combatant's: a key
    # limited to r1 was offered r2's too (and refused when it took one).
    two = [cb("r1", "red"), cb("r2", "red"), cb("b1", "blue"), cb("p1", "party")]
    s = declare(declare(make(setup_of(combatants=two)), "r1"), "r2")
    red = PHASED.awaiting(s, RED)
    withdraw = {p.subject: p.choices for p in red if p.commands == ("WithdrawAction",)}
    assert withdraw == {"r1": {"action": ["red.1"]}, "r2": {"action": ["red.2"]}}
    got = for_units(red, RED, ("r1",), PHASED.ordered_units)
    told = [p.choices for p in got if p.commands == ("WithdrawAction",)]
    assert told == [{"action": ["red.1"]}]


# A few states of each ruleset's table play-throughs (bench/awaiting.py), every side
_EVERY = 6


def _sides(prompts: list[Prompt]) -> set[str]:
    return {p.side for p in prompts if p.side is not None}


def _typed(t: Any, text: str | None) -> Any:
    """`text`, a choice as a prompt lists it (None: a field the prompt does not list, any
    value of its type), as a value of the command field's type `t`."""
    if isinstance(t, mi.UnionType):
        t = next(x for x in t.types if not isinstance(x, mi.NoneType))
    if isinstance(t, mi.StrType):
        return text or "x"
    if isinstance(t, mi.IntType):
        return int(text) if text is not None else (t.ge or 0)
    if isinstance(t, mi.BoolType):
        return text == "true"
    if isinstance(t, mi.LiteralType):
        return next((v for v in t.values if str(v) == text), t.values[0])
    if isinstance(t, mi.TupleType):  # a square, "x,y"
        return [int(v) for v in text.split(",")] if text else [0] * len(t.item_types)
    if isinstance(t, (mi.VarTupleType, mi.ListType)):
        item = t.item_type
        if isinstance(item, mi.IntType):  # indexes listed joined, "0,2"
            return [int(v) for v in text.split(",")] if text else []
        return [_typed(item, text)]
    return text


def _command(rs: Any, prompt: Prompt, tag: str, field: str, value: str, unit: str) -> Any:
    """The command `tag` answering `prompt` with `value` for `field` (the first listed for
    its other choices, any value for the fields it needs that the prompt does not list),
    what it orders named by the prompt's subject, or the key's unit where the prompt names
    none; None when the ruleset has no such command with such a field."""
    shape = next(st for st in mi.type_info(rs.command_type).types if st.tag == tag)
    types = {f.name: f.type for f in shape.fields}
    if field not in types:
        return None  # a choice for another of the prompt's commands
    body: dict[str, Any] = {"type": tag}
    for f in shape.fields:
        listed = prompt.choices.get(f.name)
        if f.name == field:
            body[f.name] = _typed(f.type, value)
        elif listed:
            body[f.name] = _typed(f.type, listed[0])
        elif f.required:
            body[f.name] = _typed(f.type, None)
    for name in ordered_fields(rs.ordered_units, tag):
        if name not in prompt.choices:
            body[name] = _typed(types[name], prompt.subject or unit)
    return msgspec.convert(body, rs.command_type)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_no_prompt_told_to_a_limited_key_lists_a_unit_it_may_not_order(name: str) -> None:
    """For each unit of each side, a key limited to it: every choice of every prompt it
    is told, given as a command, orders that unit alone (by the ruleset's own
    `ordered_units`, as the command would be judged; a phased action names its
    combatant only through the state)."""
    rs = RULESETS[name][0]
    referee = Actor(role="referee")
    checked = 0
    for state in play_throughs(name)[::_EVERY]:
        everything = list(rs.awaiting(state, referee))
        for side in _sides(everything):
            actor = Actor(role="side", side=side)
            prompts = list(rs.awaiting(state, actor))
            units = {p.subject for p in everything if p.side == side and p.subject}
            for unit in units:
                for p in for_units(prompts, actor, (unit,), rs.ordered_units):
                    for tag in p.commands:
                        for field, values in p.choices.items():
                            for value in values:
                                cmd = _command(rs, p, tag, field, value, unit)
                                if cmd is None:
                                    continue
                                ordered = set(rs.ordered_units(state, cmd))
                                assert ordered <= {unit}, (name, p.id, tag, field, value)
                                checked += 1
    assert checked > 0
