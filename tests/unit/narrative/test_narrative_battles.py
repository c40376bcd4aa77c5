"""Short real battles of quickstart, tactical, warfare and phased, told as the narrative
tells them and compared with stored snapshots (the skirmish and tactical worked examples
are in tests/unit/test_narrative_snapshots.py); then what every line of every ruleset's
narrative must be: figures in words, never a Python repr nor `key=value`, never cut inside
a word, every event that applies a rule citing one.

After a change on purpose, refresh the snapshots and review the diff:

    UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/unit/narrative/
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.rulesets.phased import RULESET as PHASED
from domain.rulesets.quickstart import RULESET as QUICKSTART
from domain.rulesets.quickstart.policy import next_command
from domain.rulesets.tactical import RULESET as TACTICAL
from domain.rulesets.warfare import RULESET as WARFARE
from service.desk.narrative import Narrative
from service.desk.narrative_routes import to_markdown
from service.desk.narrative_words import cut
from tests.support import phased_kit, tactical_kit, warfare_kit
from tests.support.narrative_kit import Step, narrative
from tests.support.quickstart_play import SETUP, SeededDice
from tests.unit.test_narrative_snapshots import EXAMPLES

SNAPSHOTS = Path(__file__).parents[1] / "snapshots" / "narrative"
UPDATE = os.environ.get("UPDATE_SNAPSHOTS") == "1"


def quickstart_opening() -> Narrative:
    """The first 40 commands of a quickstart battle as the forecast's policy plays it,
    with table dice from a seed."""
    state = QUICKSTART.initial_state(
        msgspec.convert(SETUP, QUICKSTART.setup_type), QUICKSTART.options_type()
    )
    dice, choices, steps, start = SeededDice(3), random.Random("policy:3"), [], state
    for _ in range(40):
        actor, cmd = next_command(state, choices)
        for e in QUICKSTART.decide(state, cmd, dice):
            state = QUICKSTART.evolve(state, e)
        steps.append((actor.side or "referee", msgspec.to_builtins(cmd), []))
    again = SeededDice(3)  # the same dice again, in the same order

    def advance(s: Any, command: dict[str, Any], _: list[int]) -> tuple[Any, list[Any]]:
        events = QUICKSTART.decide(s, msgspec.convert(command, QUICKSTART.command_type), again)
        for e in events:
            s = QUICKSTART.evolve(s, e)
        return s, events

    return narrative("quickstart-opening", QUICKSTART, start, steps, advance)


def tactical_flank_to_the_ground() -> Narrative:
    """p, flanked in by q, cuts g (DEF 1, 3 HEA) down: the attack with its combat
    advantage, g's reaction declined, the wound and the conditions it brings."""
    ch = tactical_kit.ch
    s = tactical_kit.make(
        [ch("p", "a", 5, 5, stats={"STR": 3}), ch("q", "a", 7, 5),
         ch("g", "b", 6, 5, DEF=1, HEA={"cur": 3, "max": 20})]
    )  # fmt: skip
    s = tactical_kit.started(s, [12, 5, 1])
    attack = {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}
    steps: list[Step] = [
        ("a", attack, [5]),
        ("b", {"type": "React", "character": "g", "reaction": "none"}, []),
    ]
    return narrative("tactical-flank", TACTICAL, s, steps, _tactical)


def _tactical(state: Any, command: dict[str, Any], dice: list[int]) -> tuple[Any, list[Any]]:
    events, after = tactical_kit.play(state, command, dice)
    return after, events


def warfare_duel_to_shatter() -> Narrative:
    """a1 hits b1 (30 of 40 health) to half: b1's morale fails and it shatters."""
    unit = warfare_kit.unit
    s = warfare_kit.make(
        [unit("a1", "a", 5, 6), unit("b1", "b", 5, 5, health_now=30), unit("b9", "b", 0, 0)]
    )
    steps: list[Step] = [
        ("referee", {"type": "StartRound"}, [20, 1]),
        ("a", {"type": "Engage", "unit": "a1", "target": "b1"}, []),
        ("a", {"type": "Attack", "unit": "a1", "target": "b1"}, [10, 17]),
        ("a", {"type": "Pursue", "unit": "a1", "shattered": "b1"}, []),
        ("a", {"type": "EndTurn", "side": "a"}, []),
    ]

    def advance(st: Any, command: dict[str, Any], dice: list[int]) -> tuple[Any, list[Any]]:
        events, after = warfare_kit.play(st, command, dice)
        return after, events

    return narrative("warfare-duel", WARFARE, s, steps, advance)


def phased_round() -> Narrative:
    """Three sides each attack another; initiative 8, 5, 2; the party acts first and p1 hits r1."""
    s = phased_kit.make()
    declare = [
        ("red", {"type": "DeclareAction", "combatant": "r1", "kind": "attack",
                 "weapon": "sword", "target": "b1"}, []),
        ("blue", {"type": "DeclareAction", "combatant": "b1", "kind": "attack",
                  "weapon": "sword", "target": "p1"}, []),
        ("party", {"type": "DeclareAction", "combatant": "p1", "kind": "attack",
                   "weapon": "sword", "target": "r1"}, []),
    ]  # fmt: skip
    steps: list[Step] = [
        *declare,
        ("red", {"type": "EndDeclarations", "side": "red"}, []),
        ("blue", {"type": "EndDeclarations", "side": "blue"}, []),
        ("party", {"type": "EndDeclarations", "side": "party"}, [8, 5, 2]),
        ("referee", {"type": "ResolveAction", "action": "party.1"}, [10, 5]),
    ]

    def advance(st: Any, command: dict[str, Any], dice: list[int]) -> tuple[Any, list[Any]]:
        events, after = phased_kit.play(st, command, dice)
        return after, events

    return narrative("phased-round", PHASED, s, steps, advance)


BATTLES = {
    "quickstart-opening": quickstart_opening,
    "tactical-flank-to-the-ground": tactical_flank_to_the_ground,
    "warfare-duel-to-shatter": warfare_duel_to_shatter,
    "phased-round": phased_round,
}


@pytest.mark.parametrize("name", sorted(BATTLES))
def test_the_narrative_of_a_short_battle_is_its_snapshot(name: str) -> None:
    told = to_markdown(BATTLES[name]())
    path = SNAPSHOTS / f"{name}.md"
    if UPDATE:
        path.write_text(told, encoding="utf-8")
    assert path.exists(), f"no snapshot {path}: run with UPDATE_SNAPSHOTS=1 to write it"
    assert told == path.read_text(encoding="utf-8"), (
        f"the narrative of {name} changed: if on purpose, refresh the snapshots with "
        "UPDATE_SNAPSHOTS=1 and review the diff"
    )


def _events(n: Narrative) -> list[Any]:
    return [ev for e in n.entries for ev in e.events]


def _lines(n: Narrative) -> list[str]:
    return [line for ev in _events(n) for line in (ev.summary, *ev.details, *ev.modifiers)]


# Python's reprs and `key=value` pairs: what the narrative told before issue 36
_LEAKS = re.compile(r"\b(True|False|None)\b|[A-Za-z_]=\S|\{'|\['|'\]")


def _every_narrative() -> dict[str, Narrative]:
    """The short battles here and the worked examples: all five rulesets."""
    return {name: make() for name, make in {**BATTLES, **EXAMPLES}.items()}


def test_no_line_of_any_ruleset_leaks_a_python_repr_or_a_key_value_pair() -> None:
    for name, n in _every_narrative().items():
        for line in _lines(n):
            assert not _LEAKS.search(line), f"{name}: {line}"
            assert not line.endswith("…") or line.endswith(" …"), f"{name}: cut mid-word: {line}"


def test_the_tactical_attack_tells_attacker_target_each_modifier_and_total_against_def() -> None:
    n = tactical_flank_to_the_ground()
    resolved = next(ev for ev in _events(n) if ev.type == "AttackResolved")
    line = resolved.summary
    assert line.startswith("p attacked g with sword (standard action): d6 5; +3 STR"), line
    # the flank: its value, its name, its reason and its rule, in the line and the list
    flank = next(m for m in resolved.modifiers if m.startswith("+2 combat advantage"))
    assert "flank" in flank and "[002 Attack Modifiers / Combat Advantage]" in flank, flank
    assert flank in line
    assert "total 10 against DEF 1: a hit, 9 before reactions" in line, line
    assert "g did not react; 9 damage to HEA" in line, line
    gained = [ev.summary for ev in _events(n) if ev.type == "ConditionGained"]
    assert "g gained unconscious, no save, from a wound" in gained, gained


def test_quickstart_combat_tells_each_squads_dice_what_it_needed_and_its_hits() -> None:
    n = quickstart_opening()
    rolled = [ev.summary for ev in _events(n) if ev.type == "CombatRolled"]
    assert rolled, "the opening has a combat"
    for line in rolled:
        assert re.search(r"rolled \d+d6 \(level \d", line), line
        assert "a hit on 6 or more" in line and re.search(r"; \d+ hits?", line), line
        assert "Hits: " in line
    # every quickstart event applies a rule of seed 001, and says which
    for ev in _events(n):
        assert any(r.startswith("001 ") for r in ev.rules), (ev.type, ev.rules)


def test_skirmish_bonuses_are_modifiers_with_their_rule() -> None:
    n = EXAMPLES["skirmish-example-1-halberds-vs-orcs"]()
    resolved = next(ev for ev in _events(n) if ev.type == "ActionResolved")
    assert "+3 attack bonus [000 Actions, Targets, Concentration & Die Rolls]" in resolved.modifiers
    assert "d20 14 +3 attack bonus, total 17 against DC 14: success" in resolved.summary


@given(st.text(alphabet="ab ,;", max_size=60), st.integers(min_value=2, max_value=40))
def test_a_cut_is_at_a_word_boundary(text: str, limit: int) -> None:
    out = cut(text, limit)
    if out == text:
        return
    assert out.endswith(" …")
    head = out[: -len(" …")]
    assert text.startswith(head)
    rest = text[len(head) :]
    # what was left out starts at a boundary: a space, or the punctuation before one
    assert re.match(r"[,;:]*( |$)", rest), (text, out)
