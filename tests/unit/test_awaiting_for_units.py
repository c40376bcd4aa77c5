"""`for_units`: what a player key limited to some units is told the battle awaits (issue 34):
only the prompts it may answer, and in a choice of its side's units only its own."""

from __future__ import annotations

from domain.actors import Actor
from domain.prompts import Prompt
from service.battles.awaiting import for_units

NORTH = Actor(role="side", side="north")


def _p(id: str, side: str | None, subject: str | None = None, **choices: list[str]) -> Prompt:
    role = "referee" if side is None else "side"
    return Prompt(
        id=id, role=role, side=side, subject=subject, commands=("X",), reason="r", choices=choices
    )


PROMPTS = [
    _p("turn:n1", "north", "n1", target=["s1", "s2"]),
    _p("turn:n2", "north", "n2"),
    _p("attack", "north", None, squads=["n1", "n2"], targets=["s1"]),
    _p("turn:s1", "south", "s1"),
    _p("ruling", None),
]


def test_a_key_without_a_limit_is_told_everything() -> None:
    assert for_units(PROMPTS, NORTH, None) == PROMPTS


def test_a_limited_key_is_told_only_what_it_may_answer() -> None:
    got = for_units(PROMPTS, NORTH, ("n1",))
    assert [p.id for p in got] == ["turn:n1", "attack"]
    assert got[0] == PROMPTS[0]  # its targets are not its units: untouched
    assert got[1].choices == {"squads": ["n1"], "targets": ["s1"]}


def test_a_key_of_units_of_no_prompt_is_told_only_its_sides_open_prompts() -> None:
    got = for_units(PROMPTS, NORTH, ("n9",))
    assert [p.id for p in got] == ["attack"]
    assert got[0].choices == PROMPTS[2].choices  # none of its units among them
