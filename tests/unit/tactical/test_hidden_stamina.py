"""An invisible character's stamina stays its side's (seed 002 [Invisibility], [Stamina
Damage], [Stamina Actions] A17; RULINGS "Invisible stamina"), and what every side already
saw stays in view: the findings of review 2 (F1, F3, F5) as tests through the decider."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.actors import Actor
from domain.rulesets.tactical.access import audience, view
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started
from tests.unit.tactical.test_awaiting import INVISIBLE

FOE = Actor(role="side", side="a")
WAND = {"type": "Attack", "character": "a1", "weapon": "wand", "square": [5, 2]}


def _seen(s: State, cid: str, actor: Actor = FOE) -> list[str]:
    c = next(c for c in view(s, actor)["characters"] if c["id"] == cid)
    return [k["name"] for k in c["conditions"]]


def _invisible_b1(**b1: Any) -> State:
    a1 = ch("a1", "a", 2, 2, main_hand="wand")
    s = make([a1, ch("b1", "b", 5, 2, **{**INVISIBLE, **b1})], width=8, height=8)
    return started(s, [12, 1])  # a1, then b1


def test_a_hidden_drain_leaves_an_exposed_every_side_saw_in_view_and_saveable() -> None:
    # review 2, F1: the drain's side-only Exposed was merged over the public one, which
    # then left the foes' view (a drain told by a vanishing condition) and became
    # unsaveable in the referee's state ([Exposed]: a SPI save ends it; a drain's does not)
    s = _invisible_b1(STA={"cur": 2, "max": 20})
    ruling = {"type": "SetCondition", "character": "b1", "condition": "exposed", "reason": "r"}
    s = play(s, ruling)[1]
    assert "exposed" in _seen(s, "b1")
    events, s = play(s, WAND, [8])
    assert s.chars["b1"].STA.cur <= 0 and s.chars["b1"].drained_at is not None
    drain = [e for e in events if type(e).__name__ == "ConditionGained"]
    assert [audience(e) for e in drain] == ["side:b"]
    assert _seen(s, "b1") == ["invisible", "exposed"]  # as before the drain
    s = play(s, {"type": "EndTurn", "character": "a1"}, [1])[1]  # a1's regeneration d4
    # b1 saves against the public Exposed (d12 12 + SPI >= DC): it ends; the drain stays
    events, s = play(s, {"type": "Save", "character": "b1", "condition": "exposed"}, [12])
    assert [type(e).__name__ for e in events] == ["SaveRolled", "ConditionEnded"]
    b1 = s.chars["b1"]
    assert b1.has("exposed") and b1.drained_at is not None
    assert _seen(s, "b1") == ["invisible"]
    assert "exposed" in _seen(s, "b1", Actor(role="side", side="b"))


def test_a_hidden_drain_alone_stays_out_of_the_foes_view() -> None:
    s = _invisible_b1(STA={"cur": 2, "max": 20})
    s = play(s, WAND, [8])[1]
    assert s.chars["b1"].has("exposed")
    assert _seen(s, "b1") == ["invisible"]
    assert _seen(s, "b1", Actor(role="side", side="b")) == ["invisible", "exposed"]


SAP = {"id": "sap", "category": "melee", "dice": "d6", "pool": "STA"}


def test_an_invisible_attackers_interruption_after_a_window_is_its_sides_alone() -> None:
    # review 2, F3: a1's opportunity attack drains invisible b1 (its side's); b1's bow
    # shot, resumed after the window (A59), was interrupted by a public ActionInterrupted
    # "b1 is exposed": the hidden drain named to everyone
    b1 = ch("b1", "b", 3, 2, main_hand="bow", STA={"cur": 2, "max": 20}, **INVISIBLE)
    chars = [ch("a1", "a", 2, 2, main_hand="sap"), ch("a2", "a", 7, 7), b1]
    options = {"hidden_opportunity": "offered"}
    s = make(chars, width=10, height=10, items=[SAP], options=options)
    s = started(s, [1, 2, 12])  # b1 first
    s = play(s, {"type": "Attack", "character": "b1", "weapon": "bow", "target": "a2"})[1]
    s = play(s, {"type": "OpportunityAttack", "character": "a1"}, [6])[1]
    events, s = play(s, {"type": "React", "character": "b1", "reaction": "none"})
    assert s.chars["b1"].drained_at is not None
    stopped = [e for e in events if type(e).__name__ == "ActionInterrupted"]
    assert len(stopped) == 1 and "exposed" in stopped[0].reason
    assert audience(stopped[0]) == "side:b"
    public = [e for e in events if audience(e) == "all"]
    assert [type(e).__name__ for e in public] == ["AttackResolved", "OpportunityClosed"]


def test_an_invisible_shielders_exposure_is_its_sides_alone() -> None:
    # review 2, F5: under shield_exposure "separate_saveable", shielding to 0 or less STA
    # (A17, [Stamina Actions] Shield) was a public ConditionGained for an invisible
    # shielder: its STA told as a drain's would be ([Invisibility]; RULINGS)
    g = ch("g", "b", 6, 5, off_hand="shield", STA={"cur": 2, "max": 20}, **INVISIBLE)
    chars = [ch("p", "a", 5, 5), g, ch("far", "b", 11, 11)]
    s = started(make(chars, options={"shield_exposure": "separate_saveable"}), [12, 2, 1])
    p = replace(s.chars["p"], perceived=("g",))  # [Invisibility §1]: p perceived g
    s = replace(s, chars={**s.chars, "p": p})
    s = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [5])[1]
    events, s = play(s, {"type": "React", "character": "g", "reaction": "shield"})
    gained = [e for e in events if type(e).__name__ == "ConditionGained"]
    assert [audience(e) for e in gained] == ["side:b"]
    ex = s.chars["g"].condition("exposed")
    assert ex is not None and not ex.unsaveable  # still saveable, from its 2nd turn
    assert _seen(s, "g") == ["invisible"]
    assert _seen(s, "g", Actor(role="side", side="b")) == ["invisible", "exposed"]
