"""The contract `awaiting`'s probes rely on (domain.probing): a ruleset's decide checks
every rule before it draws its first die, so a command it runs up to its first roll is
one it accepts. `Asker.ok` (quickstart, skirmish) and `refusal` (phased, warfare) stop a
run there (issue 37: an attack's probe no longer resolves the combat to learn that).

Given the play-throughs of each ruleset that probes this way (bench/awaiting.py's, as the
golden test's), when `awaiting` probes a command for the referee or a side, then decide,
run whole on the lowest and on the highest faces, never refuses it after a roll. Tactical's
own probe (domain.rulesets.tactical.probe) stops at the first die as well, and is held
to the same.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest

from bench.awaiting import RULESETS, play_throughs
from domain.actors import Actor
from domain.errors import DomainError
from domain.probing import Asker, FixedDice

Decide = Callable[[Any, Any, Any], object]
# the awaiting modules that ask `refusal` (the package re-exports the function by the name)
_REFUSING = [
    importlib.import_module(f"domain.rulesets.{n}.awaiting") for n in ("phased", "warfare")
]


class Checked:
    """Every probe's command run whole on both faces: how many, and the refusals after
    a roll (the contract broken) as (command, rolls drawn, refusal)."""

    def __init__(self) -> None:
        self.probes = 0
        self.after_a_roll: list[tuple[Any, int, str]] = []

    def check(self, decide: Decide, state: Any, command: Any) -> None:
        self.probes += 1
        for high in (False, True):
            dice = FixedDice(high=high)
            try:
                decide(state, command, dice)
            except DomainError as refused:
                if dice.asked:
                    self.after_a_roll.append((command, len(dice.asked), str(refused)))

    def wrapping(self, decide: Decide) -> Decide:
        def checked(state: Any, command: Any, dice: Any) -> object:
            self.check(decide, state, command)
            return decide(state, command, dice)

        return checked


@pytest.mark.parametrize("name", ["quickstart", "skirmish", "phased", "warfare"])
def test_no_ruleset_that_probes_to_the_first_die_refuses_after_a_roll(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked = Checked()
    asker_init = Asker.__init__

    def init(self: Asker, state: Any, actor: Actor, authorize: Any, decide: Decide,
             known: Any = None) -> None:  # fmt: skip
        asker_init(self, state, actor, authorize, checked.wrapping(decide), known)

    monkeypatch.setattr(Asker, "__init__", init)
    for module in _REFUSING:
        refusal = module.refusal

        def wrapped(decide: Decide, state: Any, command: Any, refusal: Any = refusal) -> Any:
            checked.check(decide, state, command)
            return refusal(decide, state, command)

        monkeypatch.setattr(module, "refusal", wrapped)
    rs, _player, side = RULESETS[name]
    for state in play_throughs(name):
        for actor in (Actor(role="referee"), Actor(role="side", side=side)):
            rs.awaiting(state, actor)
    assert checked.probes > 200, checked.probes  # the probes were seen (and checked)
    assert checked.after_a_roll == []


def test_tactical_probes_to_the_first_die_and_never_refuses_after_a_roll(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Tactical's own `Probe.accepts` (domain.rulesets.tactical.probe) stops a run at its
    first die too: over its play-throughs, every command it probes for the referee, an
    observer or a side is never refused after a roll, on either face."""
    from domain.rulesets.tactical import probe

    checked = Checked()
    monkeypatch.setattr(probe, "decide", checked.wrapping(probe.decide))
    rs, _player, _side = RULESETS["tactical"]
    for state in play_throughs("tactical"):
        sides = sorted({c.side for c in state.chars.values()})
        for actor in (Actor(role="referee"), Actor(role="observer"),
                      *(Actor(role="side", side=s) for s in sides)):  # fmt: skip
            rs.awaiting(state, actor)
    assert checked.probes > 200, checked.probes
    assert checked.after_a_roll == []
