"""Each re-roll step names what granted it, when something did ("Modifying the Success
Percentage": the steps shown with a resolution)."""

from __future__ import annotations

from fractions import Fraction

from domain.rulesets.skirmish.resolution import Reroll, apply_reroll


def test_a_reroll_step_names_its_source_only_when_it_has_one() -> None:
    _p, named = apply_reroll(Fraction(45), Reroll(kind="on_success", count=1, source="bless"))
    _p, plain = apply_reroll(Fraction(45), Reroll(kind="on_success", count=1))
    assert named.name == "success percentage after re-roll on a success (bless)"
    assert plain.name == "success percentage after re-roll on a success"
