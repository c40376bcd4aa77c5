"""Every refusal of seed 004's decide, exactly as a player or the referee reads it: the
error, its text, the seed section it cites and the ids it names (the problem+json's
`context`). A change of wording is a change of what users see: it shows here first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domain.errors import DomainError
from domain.rulesets.phased.model import State
from tests.support.phased_kit import cb, declare, make, play, setup_of, to_phases

TIE = [5, 5, 3, 7, 2]  # red and blue tie on 5, re-roll 7 and 2: one combat event
STARTING = "004 Starting Phase and Actions Before Base Speed"
SPEED = "004 Speed Rank and Actions"
MULTI = "004 Taking Multiple Phases"
PHASES = "004 Combat Phases"
EVENTS = "004 Combat Events"
INITIATIVE = "004 Initiative"
REFEREE = "004 (referee)"


def _three(**by_id: dict[str, Any]) -> dict[str, Any]:
    return setup_of(
        combatants=[
            cb(c, side, **by_id.get(c, {}))
            for c, side in (("r1", "red"), ("b1", "blue"), ("p1", "party"))
        ]
    )


def _attack() -> State:
    """r1 declares its sword attack on b1 (Average: Weapon Speed 1)."""
    return declare(make(), "r1", target="b1")


def _in_phases() -> State:
    return to_phases(_attack(), [8, 5, 2])[1]


def _both_attack() -> State:
    return to_phases(declare(_attack(), "b1", target="r1"), [8, 5, 2])[1]


def _closed(state: State, side: str = "red") -> State:
    return play(state, {"type": "EndDeclarations", "side": side})[1]


def _sword_dropped() -> State:
    """The tie draws Item Dropped (8) on r1 (d3 1): its sword is on the ground, its attack
    due in phase 1."""
    return to_phases(_attack(), [*TIE, 8, 1])[1]


def _round_two_sword_dropped() -> State:
    return play(_sword_dropped(), {"type": "CancelAction", "action": "red.1"})[1]


def _stunned() -> State:
    """Round 2: r1's mount stumbled (14, d6 6), its riding check and save failed: stunned."""
    r1 = {"mount": {"kind": "mount"}, "checks": {"riding": 15}, "saves": {"paralyzation": 14}}
    s = declare(declare(make(_three(r1=r1)), "r1", target="b1"), "b1", target="r1")
    s = to_phases(s, [*TIE, 14, 6, 2, 2, 2])[1]
    return play(s, {"type": "ResolveAction", "action": "blue.1"}, [1])[1]


def _slip_first() -> State:
    """initiative_first: the roll's tie draws Slip (18) on r1; its save waits (p1)."""
    return play(make(initiative_first=True), {"type": "RollInitiative"}, [*TIE, 18, 1, 1])[1]


def _two_slips_first() -> State:
    """initiative_first, an event per tied side: r1 slips twice; both saves wait (p1, p2)."""
    s = make(initiative_first=True, events_per_reroll="side")
    return play(s, {"type": "RollInitiative"}, [*TIE, 18, 1, 1, 18, 1, 1])[1]


def _slip_in_phases() -> State:
    """r1's attack is due in phase 1 and waits for its Slip save (p1)."""
    s = declare(make(_three(r1={"x": 2, "y": 2})), "r1", target="b1")
    return to_phases(s, [*TIE, 18, 1, 1])[1]


def _slip_choice() -> State:
    """The referee rules r1's Slip save a success: its side chooses 1 of the 3 effects (p2)."""
    return play(_slip_in_phases(), {"type": "RuleCheck", "check": "p1", "result": "success"})[1]


def _disarm_pending() -> State:
    """Round 2: the tie draws Weapon Trouble (19) on r1, who attacked last round; d6 1:
    disarmed unless it saves, which the referee rules (p1); r1's new attack waits."""
    s = to_phases(_attack(), [9, 3, 2])[1]
    s = play(s, {"type": "ResolveAction", "action": "red.1"}, [1])[1]
    return to_phases(declare(s, "r1", target="b1"), [*TIE, 19, 1])[1]


def _grid() -> State:
    return make({**_three(), "width": 5, "height": 4})


def _over() -> State:
    return play(make(), {"type": "EndBattle", "reason": "truce"})[1]


def _declare(combatant: str, kind: str, **kw: Any) -> dict[str, Any]:
    return {"type": "DeclareAction", "combatant": combatant, "kind": kind, **kw}


Case = tuple[Callable[[], State], dict[str, Any], str, str, str | None, dict[str, Any]]

CASES: dict[str, Case] = {
    "unknown combatant": (
        make,
        _declare("zz", "move"),
        "UnknownEntity",
        "no combatant 'zz'",
        None,
        {"combatant": "zz"},
    ),
    "declaring in the phases": (
        _in_phases,
        _declare("b1", "move"),
        "RuleViolation",
        "actions are declared in the Starting Phase",
        STARTING,
        {},
    ),
    "declaring before initiative_first's roll": (
        lambda: make(initiative_first=True),
        _declare("b1", "move"),
        "RuleViolation",
        "initiative is rolled first this round (initiative_first): the referee rolls it "
        "(RollInitiative), then the sides declare",
        INITIATIVE,
        {},
    ),
    "an attack without its weapon": (
        make,
        _declare("r1", "attack"),
        "RuleViolation",
        "an attack names its weapon",
        SPEED,
        {},
    ),
    "an unknown weapon": (
        make,
        _declare("r1", "attack", weapon="axe"),
        "UnknownEntity",
        "r1 has no weapon 'axe'",
        None,
        {"weapon": "axe"},
    ),
    "a weapon not in hand": (
        _round_two_sword_dropped,
        _declare("r1", "attack", weapon="sword"),
        "RuleViolation",
        "r1's sword is not in hand",
        EVENTS,
        {},
    ),
    "a spell without its spell": (
        make,
        _declare("r1", "spell"),
        "RuleViolation",
        "a spell action names its spell",
        STARTING,
        {},
    ),
    "an unknown spell": (
        make,
        _declare("r1", "spell", spell="fire"),
        "UnknownEntity",
        "r1 has no spell 'fire'",
        None,
        {"spell": "fire"},
    ),
    "an unknown target": (
        make,
        _declare("r1", "move", target="zz"),
        "UnknownEntity",
        "no combatant 'zz'",
        None,
        {"combatant": "zz"},
    ),
    "before Base Speed": (
        make,
        _declare("r1", "move", rank=-1),
        "RuleViolation",
        "r1 may not act before phase 0 (Base Speed 0)",
        SPEED,
        {},
    ),
    "before Weapon Speed": (
        make,
        _declare("r1", "attack", weapon="sword", rank=0),
        "RuleViolation",
        "r1 may not act before phase 1 (Base Speed 0, Weapon Speed)",
        SPEED,
        {},
    ),
    "no action to spare": (
        _attack,
        _declare("r1", "other"),
        "RuleViolation",
        "r1 has no action to spare this round (1 a round)",
        SPEED,
        {},
    ),
    "no move to spare": (
        lambda: declare(make(), "r1", "move"),
        _declare("r1", "move"),
        "RuleViolation",
        "r1 has no move to spare this round (1 a round)",
        SPEED,
        {},
    ),
    "busy with a multi-phase action": (
        lambda: declare(make(), "r1", "move", phases=2),
        _declare("r1", "other", rank=1),
        "RuleViolation",
        "r1 is busy with red.1 from phase 0 to 2",
        MULTI,
        {},
    ),
    "a side that ended its declarations": (
        lambda: _closed(make()),
        _declare("r1", "move"),
        "RuleViolation",
        "red has ended its declarations",
        STARTING,
        {},
    ),
    "a combatant out of the fight": (
        lambda: play(make(), {"type": "AdjustCombatant", "combatant": "r1", "hp": 0})[1],
        _declare("r1", "move"),
        "RuleViolation",
        "r1 cannot act (out)",
        REFEREE,
        {},
    ),
    "a stunned combatant": (
        _stunned,
        _declare("r1", "move"),
        "RuleViolation",
        "r1 cannot act (stunned)",
        EVENTS,
        {},
    ),
    "a declaration held by a save": (
        _slip_first,
        _declare("r1", "move"),
        "RuleViolation",
        "a declaration of r1 waits for p1 (save:paralyzation of r1, the referee's "
        "RuleCheck): settle it first",
        EVENTS,
        {},
    ),
    "a declaration held by two saves": (
        _two_slips_first,
        _declare("r1", "move"),
        "RuleViolation",
        "a declaration of r1 waits for p1 (save:paralyzation of r1, the referee's "
        "RuleCheck), p2 (save:paralyzation of r1, the referee's RuleCheck): settle it first",
        EVENTS,
        {},
    ),
    "withdrawing an unknown action": (
        make,
        {"type": "WithdrawAction", "action": "red.9"},
        "UnknownEntity",
        "no action 'red.9'",
        None,
        {"action": "red.9"},
    ),
    "withdrawing in the phases": (
        _in_phases,
        {"type": "WithdrawAction", "action": "red.1"},
        "RuleViolation",
        "actions are declared in the Starting Phase",
        STARTING,
        {},
    ),
    "withdrawing a cancelled action": (
        lambda: play(_attack(), {"type": "CancelAction", "action": "red.1"})[1],
        {"type": "WithdrawAction", "action": "red.1"},
        "RuleViolation",
        "red.1 was not declared this round",
        STARTING,
        {},
    ),
    "withdrawing after ending": (
        lambda: _closed(_attack()),
        {"type": "WithdrawAction", "action": "red.1"},
        "RuleViolation",
        "red has ended its declarations",
        STARTING,
        {},
    ),
    "sustaining what did not carry over": (
        _attack,
        {"type": "SustainAction", "action": "red.1"},
        "RuleViolation",
        "red.1 is no carried-over action to sustain",
        MULTI,
        {},
    ),
    "cancelling twice": (
        lambda: play(_attack(), {"type": "CancelAction", "action": "red.1"})[1],
        {"type": "CancelAction", "action": "red.1"},
        "RuleViolation",
        "red.1 is already cancelled",
        MULTI,
        {},
    ),
    "ending an unknown side": (
        make,
        {"type": "EndDeclarations", "side": "green"},
        "UnknownEntity",
        "no side 'green'",
        None,
        {"side": "green"},
    ),
    "ending twice": (
        lambda: _closed(make()),
        {"type": "EndDeclarations", "side": "red"},
        "RuleViolation",
        "red has already ended its declarations",
        STARTING,
        {},
    ),
    "rolling initiative twice": (
        lambda: play(make(initiative_first=True), {"type": "RollInitiative"}, [8, 5, 2])[1],
        {"type": "RollInitiative"},
        "RuleViolation",
        "initiative is already rolled this round",
        INITIATIVE,
        {},
    ),
    "resolving in the Starting Phase": (
        _attack,
        {"type": "ResolveAction", "action": "red.1"},
        "RuleViolation",
        "no action is due now: the round is in its Starting Phase",
        PHASES,
        {},
    ),
    "resolving out of turn": (
        _both_attack,
        {"type": "ResolveAction", "action": "blue.1"},
        "RuleViolation",
        "it is red.1's turn (red, r1) in phase 1",
        PHASES,
        {},
    ),
    "resolving an action held by a save": (
        _slip_in_phases,
        {"type": "ResolveAction", "action": "red.1"},
        "RuleViolation",
        "red.1 (r1's attack) waits for p1 (save:paralyzation of r1, the referee's "
        "RuleCheck): settle it first",
        EVENTS,
        {},
    ),
    "resolving an attack held by a save of its weapon": (
        _disarm_pending,
        {"type": "ResolveAction", "action": "red.2"},
        "RuleViolation",
        "red.2 (r1's attack) waits for p1 (save:paralyzation of sword of r1, the referee's "
        "RuleCheck): settle it first",
        EVENTS,
        {},
    ),
    "recording an action held by a choice": (
        _slip_choice,
        {"type": "RecordOutcome", "action": "red.1", "outcome": "hit"},
        "RuleViolation",
        "red.1 (r1's attack) waits for p2 (the choice of r1's side, ChooseEffects): "
        "settle it first",
        EVENTS,
        {},
    ),
    "resolving under resolution: referee": (
        lambda: to_phases(declare(make(resolution="referee"), "r1", target="b1"), [8, 5, 2])[1],
        {"type": "ResolveAction", "action": "red.1"},
        "RuleViolation",
        "the referee records attack outcomes (resolution: referee)",
        PHASES,
        {},
    ),
    "resolving an attack without a target": (
        lambda: to_phases(declare(make(), "r1"), [8, 5, 2])[1],
        {"type": "ResolveAction", "action": "red.1"},
        "RuleViolation",
        "an attack without a target is recorded by the referee (RecordOutcome)",
        PHASES,
        {},
    ),
    "resolving an attack with a dropped weapon": (
        _sword_dropped,
        {"type": "ResolveAction", "action": "red.1"},
        "RuleViolation",
        "r1's sword is not in hand: cancel the action or let the referee record it",
        EVENTS,
        {},
    ),
    "ruling an unknown check": (
        make,
        {"type": "RuleCheck", "check": "p9", "result": "success"},
        "UnknownEntity",
        "no save or check 'p9' waits for a ruling",
        None,
        {"check": "p9"},
    ),
    "ruling a choice": (
        _slip_choice,
        {"type": "RuleCheck", "check": "p2", "result": "success"},
        "UnknownEntity",
        "no save or check 'p2' waits for a ruling",
        None,
        {"check": "p2"},
    ),
    "choosing for an unknown choice": (
        make,
        {"type": "ChooseEffects", "choice": "p9", "effects": [0]},
        "UnknownEntity",
        "no choice 'p9' waits",
        None,
        {"choice": "p9"},
    ),
    "choosing for a save": (
        _slip_in_phases,
        {"type": "ChooseEffects", "choice": "p1", "effects": [0]},
        "UnknownEntity",
        "no choice 'p1' waits",
        None,
        {"choice": "p1"},
    ),
    "choosing too many": (
        _slip_choice,
        {"type": "ChooseEffects", "choice": "p2", "effects": [0, 1]},
        "RuleViolation",
        "choose 1 distinct effects of the 3 offered (0-based)",
        EVENTS,
        {},
    ),
    "choosing past the last effect": (
        _slip_choice,
        {"type": "ChooseEffects", "choice": "p2", "effects": [3]},
        "RuleViolation",
        "choose 1 distinct effects of the 3 offered (0-based)",
        EVENTS,
        {},
    ),
    "closing an unknown prompt": (
        make,
        {"type": "ClosePrompt", "prompt": "p9"},
        "UnknownEntity",
        "no prompt 'p9'",
        None,
        {"prompt": "p9"},
    ),
    "adjusting an unknown combatant": (
        make,
        {"type": "AdjustCombatant", "combatant": "zz", "hp": 3},
        "UnknownEntity",
        "no combatant 'zz'",
        None,
        {"combatant": "zz"},
    ),
    "adjusting x alone": (
        make,
        {"type": "AdjustCombatant", "combatant": "r1", "x": 1},
        "RuleViolation",
        "give both x and y, or neither",
        REFEREE,
        {},
    ),
    "adjusting y alone": (
        make,
        {"type": "AdjustCombatant", "combatant": "r1", "y": 1},
        "RuleViolation",
        "give both x and y, or neither",
        REFEREE,
        {},
    ),
    "recovering an unknown item": (
        make,
        {"type": "AdjustCombatant", "combatant": "r1", "recover": ["sword", "axe"]},
        "UnknownEntity",
        "r1 has no item 'axe'",
        None,
        {"item": "axe"},
    ),
    "moving off the grid's width": (
        _grid,
        {"type": "AdjustCombatant", "combatant": "r1", "x": 5, "y": 0},
        "RuleViolation",
        "off the grid",
        REFEREE,
        {},
    ),
    "moving off the grid's height": (
        _grid,
        {"type": "AdjustCombatant", "combatant": "r1", "x": 0, "y": 4},
        "RuleViolation",
        "off the grid",
        REFEREE,
        {},
    ),
    "engaging an unknown combatant": (
        make,
        {"type": "SetEngagement", "a": "r1", "b": "zz", "engaged": True},
        "UnknownEntity",
        "no combatant 'zz'",
        None,
        {"combatant": "zz"},
    ),
    "engaging a combatant with itself": (
        make,
        {"type": "SetEngagement", "a": "r1", "b": "r1", "engaged": True},
        "RuleViolation",
        "a combatant is not engaged with itself",
        REFEREE,
        {},
    ),
    "ending the battle for an unknown side": (
        make,
        {"type": "EndBattle", "winner": "green", "reason": "x"},
        "UnknownEntity",
        "no side 'green'",
        None,
        {"side": "green"},
    ),
    "a command once the battle is over": (
        _over,
        {"type": "ClosePrompt", "prompt": "p1"},
        "RuleViolation",
        "the battle is over",
        REFEREE,
        {},
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_refusal_reads_exactly(case: str) -> None:
    build, body, kind, reason, rule, context = CASES[case]
    state = build()
    with pytest.raises(DomainError) as err:
        play(state, body)
    e = err.value
    assert (type(e).__name__, e.reason, e.rule, e.context) == (kind, reason, rule, context)
