"""The parts every ruleset is built from (domain.decider, domain.folding, domain.errors),
made inside the test: a `Ruleset`'s decoders and side ids, a `FoldingRun`'s fold as it
emits, a domain error's reason, rule and context."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.actors import ALL
from domain.decider import Ruleset
from domain.errors import InvalidSetup, RuleViolation
from domain.folding import FoldingRun
from domain.ordering import ordered_by_fields, ordered_fields


class Go(msgspec.Struct, frozen=True, tag_field="type", tag="Go"):
    to: int


class Went(msgspec.Struct, frozen=True, tag_field="type", tag="Went"):
    to: int


class Stayed(msgspec.Struct, frozen=True, tag_field="type", tag="Stayed"):
    why: str


class Side(msgspec.Struct, frozen=True):
    id: str


class NamedSides(msgspec.Struct, frozen=True):
    sides: tuple[str, ...]


class SideStructs(msgspec.Struct, frozen=True):
    sides: tuple[Side, ...]


def _ruleset() -> Ruleset[Any, Any, Any, Any, Any]:
    return Ruleset(
        id="parts-test",
        version="1",
        title="-",
        seed="-",
        options_type=msgspec.Struct,
        setup_type=msgspec.Struct,
        command_type=Go,
        event_type=Went | Stayed,
        initial_state=lambda setup, options: 0,
        decide=lambda state, command, dice: [Went(to=command.to)],
        evolve=lambda state, event: event.to if isinstance(event, Went) else state,
        is_over=lambda state: False,
        authorize=lambda state, command, actor: None,
        audience=lambda event: ALL,
        view=lambda state, actor: state,
    )


def test_a_rulesets_decoders_read_its_own_commands_and_events() -> None:
    ruleset = _ruleset()
    assert ruleset.command_decoder.decode(b'{"type":"Go","to":3}') == Go(to=3)
    assert ruleset.event_decoder.decode(b'{"type":"Stayed","why":"tired"}') == Stayed(why="tired")
    assert ruleset.event_convert({"type": "Went", "to": 4}) == Went(to=4)
    with pytest.raises(msgspec.ValidationError):
        ruleset.event_convert({"type": "Go", "to": 4})  # a command is no event


def test_the_default_side_ids_are_the_setups_sides_as_ids_or_structs() -> None:
    ruleset = _ruleset()
    assert ruleset.side_ids(NamedSides(sides=("north", "south"))) == ["north", "south"]
    assert ruleset.side_ids(SideStructs(sides=(Side(id="a"), Side(id="b")))) == ["a", "b"]
    assert ruleset.side_ids(msgspec.Struct()) == []  # a setup without sides


def test_a_folding_run_folds_each_event_as_it_is_emitted() -> None:
    seen: list[tuple[int, Any]] = []

    def went(state: int, event: Went) -> int:
        seen.append((state, event))
        return state + event.to

    run: FoldingRun[int, Any] = FoldingRun(10, {Went: went, Stayed: lambda s, e: s})
    assert (run.state, run.events) == (10, [])
    run.emit(Went(to=2))
    run.emit(Stayed(why="-"))
    run.emit(Went(to=5))
    assert run.events == [Went(to=2), Stayed(why="-"), Went(to=5)]
    assert run.state == 17 and seen == [(10, Went(to=2)), (12, Went(to=5))]


def test_a_domain_error_keeps_its_reason_rule_and_context() -> None:
    error = RuleViolation("out of reach", rule="001 Combat / 2", unit="u1", reach=3)
    assert (str(error), error.reason, error.rule) == (
        "out of reach",
        "out of reach",
        "001 Combat / 2",
    )
    assert error.context == {"unit": "u1", "reach": 3}
    plain = InvalidSetup("two units on one square")
    assert (plain.code, plain.rule, plain.context) == ("invalid-setup", None, {})


class Order(msgspec.Struct, frozen=True, tag_field="type", tag="Order"):
    unit: str
    escort: tuple[str | int, ...] = ()
    target: str = "t"
    count: int = 1


def test_what_a_command_orders_is_read_from_the_fields_its_tag_names() -> None:
    ordering = ordered_by_fields({"Order": ("unit", "escort", "count", "missing")})
    order = Order(unit="u1", escort=("u2", 3, "u4"), count=2)
    assert ordering(None, order) == ("u1", "u2", "u4")  # ids only; the target is not ordered
    assert ordering(None, Go(to=1)) == ()  # a tag the map leaves out orders none
    assert ordered_fields(ordering, "Order") == ("unit", "escort", "count", "missing")
    assert ordered_fields(ordering, "Go") == ()
    assert ordered_fields(lambda state, command: (), "Order") == ()  # not read from fields
