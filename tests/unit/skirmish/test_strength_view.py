"""`strength` on views as a reader may get them (the replay viewer's chart; seed 000 "Army
Size": the soldiers of an army; a destroyed army counts nothing): every force named even
with no army, a view without forces or armies, an army size not shown, an army of a side
the view lists no force for."""

from __future__ import annotations

from domain.rulesets.skirmish.strength import strength


def test_every_force_is_named_with_no_army_or_no_armies_at_all() -> None:
    forces = [{"id": "north"}, {"id": "south"}]
    assert strength({"forces": forces}) == {"north": 0, "south": 0}
    armies = [{"side": "north", "army_size": 40}]
    assert strength({"forces": forces, "armies": armies}) == {"north": 40, "south": 0}


def test_a_view_without_forces_counts_the_sides_of_its_armies() -> None:
    armies = [
        {"side": "west", "army_size": 40},
        {"side": "west", "army_size": 2},
        {"side": "east", "army_size": None},  # not shown to this reader
        {"side": "east", "army_size": 90, "destroyed": True},
    ]
    assert strength({"armies": armies}) == {"west": 42, "east": 0}
    assert strength({}) == {}
