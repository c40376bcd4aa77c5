"""An invisible attacker flanks with no one (0.5.0; [Combat Advantage]; RULINGS "Modifiers
from creatures a side cannot see"). Its attack's record is public, and "flanking g with
b2" named the one corner it stood on, opposite its visible ally: the target's side read
its square exactly (the tactical property's worlds with the foe one square away found
it). Issue 31 made the same call for an invisible third party. A visible one on the same
corner flanks (the control).
"""

from __future__ import annotations

from typing import Any

from domain.rulesets.tactical.events import AttackResolved
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started

STAB = {"type": "Attack", "character": "b1", "weapon": "sword", "target": "g"}


def _state(**b1: Any) -> State:
    """b1 (side b) at (6, 4), b2 (its ally) at (4, 6): opposite corners of g at (5, 5)."""
    chars = [ch("b1", "b", 6, 4, **b1), ch("g", "a", 5, 5), ch("b2", "b", 4, 6)]
    return started(make(chars, options={"reaction_window": "never"}), [12, 1, 2])


def _mods(events: list[Any]) -> list[tuple[str, str]]:
    return [(m.kind, m.reason) for e in events if isinstance(e, AttackResolved)
            for m in e.attack.modifiers]  # fmt: skip


def test_an_invisible_attacker_on_the_flanking_corner_gets_no_flanking() -> None:
    events, _ = play(_state(conditions=[{"name": "invisible"}]), STAB, [4])
    assert _mods(events) == []


def test_a_visible_attacker_on_the_same_corner_flanks() -> None:
    events, _ = play(_state(), STAB, [4])
    assert _mods(events) == [("combat_advantage", "flanking g with b2")]
