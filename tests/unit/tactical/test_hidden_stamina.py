"""An invisible character's stamina stays its side's (seed 002 [Invisibility], [Stamina
Damage], [Stamina Actions] A17; RULINGS "Invisible stamina"), and what every side already
saw stays in view: the findings of review 2 (F1, F2, F3, F5) as tests through the decider."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.actors import Actor
from domain.dice import ServerDice, SuppliedDice, dice_for
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.access import audience, view
from domain.rulesets.tactical.awaiting import awaiting
from domain.rulesets.tactical.decide import decide
from domain.rulesets.tactical.model import Condition, State
from domain.rulesets.tactical.resume import _Counted
from events.dice_streams import check_streams
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


def _down_invisible_next() -> dict[str, State]:
    """a1's turn; b1, invisible and down, next in order: its turn ends by itself inside
    a1's EndTurn, with its drain recovery or regeneration; fresh, or drained."""
    chars = [ch("a1", "a", 2, 2), ch("b1", "b", 6, 6, **INVISIBLE), ch("b2", "b", 0, 7)]
    s = started(make(chars, width=8, height=8), [12, 5, 1])
    ruling = {"type": "SetCondition", "character": "b1", "condition": "unconscious"}
    s = play(s, {**ruling, "reason": "r"})[1]
    b = s.chars["b1"]
    drain = Condition(name="exposed", unsaveable=True, hidden=True)  # as evolve keeps it
    drained = replace(
        b, STA=replace(b.STA, cur=-3), drained_at=b.turns_taken, conditions=(*b.conditions, drain)
    )
    return {"fresh": s, "drained": replace(s, chars={**s.chars, "b1": drained})}


def test_no_prompt_lists_the_dice_of_another_sides_hidden_stamina() -> None:
    # review 2, F2: a1's EndTurn prompt listed b1's side-only drain recovery (d8) or
    # regeneration (d4): the dice told side a whether its invisible foe was drained
    worlds = _down_invisible_next()
    assert view(worlds["fresh"], FOE) == view(worlds["drained"], FOE)
    for w in worlds.values():
        turn = next(p for p in awaiting(w, FOE) if p.id == "turn:a1")
        assert [(d.sides, d.purpose) for d in turn.dice] == [(4, "stamina regeneration of a1")]


def test_table_dice_never_give_another_sides_hidden_dice() -> None:
    # review 2, F2: with table dice, side a supplied (and chose) b1's side-only dice;
    # now it supplies its own, and b1's are the server's, from side b's stream
    for w in _down_invisible_next().values():
        server = ServerDice(
            seed=b"s", epoch=0, battle_id="t", version=9, sub_seeds={"side:b": b"b"}
        )
        table = SuppliedDice([3], reader=FOE, hidden=server)
        cmd = RULESET.command_decoder.decode(b'{"type":"EndTurn","character":"a1"}')
        events = decide(w, cmd, table)
        table.finish()
        assert [r.purpose for r in table.drawn] == ["stamina regeneration of a1"]
        hidden = [e for e in events if audience(e) == "side:b"]
        rolls = [getattr(e, k, None) for e in hidden for k in ("die", "sta_die")]
        drawn = [r for r in rolls if r is not None]
        assert drawn and all(r.source == "server" for r in drawn)
        assert [r.purpose for r in server.streams["side:b"].drawn] == [r.purpose for r in drawn]


def test_a_save_against_a_side_only_exposed_is_its_sides_alone() -> None:
    # F5 continued: the invisible shielder's Exposed is saveable from its 2nd turn
    # ([Save], A17); a public SaveRolled would tell every side that it had it
    g = ch("g", "b", 6, 5, STA={"cur": -1, "max": 20}, **INVISIBLE)
    chars = [ch("p", "a", 5, 5), g, ch("far", "b", 11, 11)]
    s = started(make(chars, options={"shield_exposure": "separate_saveable"}), [12, 2, 1])
    shielded = Condition(name="exposed", no_save_before=1, hidden=True)  # as evolve keeps it
    g1 = s.chars["g"]
    s = replace(s, chars={**s.chars, "g": replace(g1, conditions=(*g1.conditions, shielded))})
    s = play(s, {"type": "EndTurn", "character": "p"}, [1])[1]  # p's regeneration d4
    events, s = play(s, {"type": "Save", "character": "g", "condition": "exposed"}, [12])
    assert [type(e).__name__ for e in events] == ["SaveRolled", "ConditionEnded"]
    assert [audience(e) for e in events] == ["side:b", "side:b"]
    assert not s.chars["g"].has("exposed")


def _helped_shielder() -> State:
    """g's turn: invisible g has its side-only Exposed of a shield (saveable from this
    turn, A17) and a Help reroll from its ally h ([Help])."""
    g = ch("g", "b", 6, 5, STA={"cur": -1, "max": 20}, **INVISIBLE)
    chars = [ch("p", "a", 5, 5), g, ch("h", "b", 7, 5)]
    s = started(make(chars, options={"shield_exposure": "separate_saveable"}), [12, 1, 2])
    shielded = Condition(name="exposed", no_save_before=1, hidden=True)  # as evolve keeps it
    g1 = s.chars["g"]
    s = replace(s, chars={**s.chars, "g": replace(g1, conditions=(*g1.conditions, shielded))})
    s = play(s, {"type": "EndTurn", "character": "p"}, [1])[1]  # p's regeneration d4
    s = play(s, {"type": "Help", "character": "h", "ally": "g"})[1]
    s = play(s, {"type": "EndTurn", "character": "h"}, [1])[1]  # h's regeneration d4
    assert s.active == "g" and s.chars["g"].rerolls == 1
    return s


SAVE_REROLLED = {"type": "Save", "character": "g", "condition": "exposed", "reroll_below": 21}


def test_a_help_reroll_of_a_side_only_save_is_its_sides_alone() -> None:
    # the reroll's DieRerolled was public: its original roll "SPI save of g (exposed)"
    # told every side of the hidden Exposed
    events, s = play(_helped_shielder(), SAVE_REROLLED, [1, 12])
    assert [type(e).__name__ for e in events] == ["SaveRolled", "ConditionEnded", "DieRerolled"]
    assert [audience(e) for e in events] == ["side:b"] * 3
    assert events[2].original.values == (1,) and events[0].die.values == (12,)
    assert s.chars["g"].rerolls == 0 and not s.chars["g"].has("exposed")


def test_a_help_reroll_of_a_side_only_save_draws_from_its_sides_stream() -> None:
    # with server dice, the rerollable dice had no `for_audience`: the save's die came
    # from the public stream into a side-only SaveRolled (the service answered 500)
    s = _helped_shielder()
    cmd = RULESET.command_decoder.decode(msgspec.json.encode(SAVE_REROLLED))
    server = ServerDice(seed=b"s", epoch=0, battle_id="t", version=9, sub_seeds={"side:b": b"b"})
    events = decide(s, cmd, server)
    assert server.streams["all"].drawn == []
    hidden = server.streams["side:b"].drawn
    assert [r.purpose for r in hidden][:1] == ["SPI save of g (exposed)"]
    assert all(audience(e) == "side:b" for e in events)
    check_streams(server, [(e, audience(e)) for e in events])


def test_the_dice_counted_while_resuming_draw_a_hidden_roll_from_its_stream() -> None:
    # resume._Counted had no `for_audience`: a side-only roll inside a resumed action
    # would be drawn from the public stream (as the Help reroll's was)
    server = ServerDice(seed=b"s", epoch=0, battle_id="t", version=9, sub_seeds={"side:b": b"b"})
    counted = _Counted(server)
    dice_for(counted, "side:b").roll(12, "hidden")
    counted.roll(4, "public")
    assert counted.drawn == 2
    assert [r.purpose for r in server.streams["side:b"].drawn] == ["hidden"]
    assert [r.purpose for r in server.streams["all"].drawn] == ["public"]
