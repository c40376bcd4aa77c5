"""[Damage] and [Conditions] of seed 002 through the decider: dying and death saves,
healing, drained stamina and its recovery, WIL at 0, bleeding, saves, the end of combat."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec.structs import replace

from domain.errors import RuleViolation
from domain.rulesets.tactical.events import (
    CharacterDied,
    DeathSaveRolled,
    DrainRecovered,
    Regenerated,
)
from domain.rulesets.tactical.model import State
from tests.support.tactical_kit import ch, make, play, started, types


def _pair(g: dict[str, Any], **kw: Any) -> State:
    s = make(
        [ch("p", "a", 1, 1, stats={"END": 1}), g, ch("h", "b", 9, 9)],
        **kw,
    )
    return started(s, [12, 6, 1])  # p, then g, then h


def _set(s: State, cid: str, **fields: Any) -> State:
    return replace(s, chars={**s.chars, cid: replace(s.chars[cid], **fields)})


def test_dying_character_rolls_a_death_save_at_the_start_of_its_turn() -> None:
    g = ch(
        "g", "b", 5, 5, HEA={"cur": 2, "max": 20}, conditions=[{"name": "bleeding", "rating": 3}]
    )
    s = _pair(g)
    # p ends its turn (d4 regen); g's turn starts: bleeding 3 -> HEA -1, a wound, dying;
    # then its death save (d12 = 9 >= 7: a success); unconscious, its turn ends (no regen dice
    # needed: STA and WIL are full, but the d4 is still rolled)
    events, s = play(s, {"type": "EndTurn", "character": "p"}, [1, 9, 1])
    names = types(events)
    assert names.index("CharacterDamaged") < names.index("WoundRecorded")
    save = next(e for e in events if isinstance(e, DeathSaveRolled))
    assert save.success and save.successes == 1
    g2 = s.chars["g"]
    assert g2.HEA.cur == -1 and g2.has("dying") and not g2.has("bleeding")
    assert s.active == "h"


def _down(s: State, cid: str) -> State:
    from domain.rulesets.tactical.model import Condition

    c = s.chars[cid]
    return _set(
        s,
        cid,
        HEA=replace(c.HEA, cur=-2),
        conditions=(
            Condition(name="unconscious", from_wound=True, unsaveable=True),
            Condition(name="dying", from_wound=True, unsaveable=True),
        ),
    )


def test_three_failed_death_saves_kill() -> None:
    s = _down(_pair(ch("g", "b", 5, 5)), "g")
    s = _set(s, "g", death_failures=2)
    # p's d4, g's death save (3: a failure); a dead character regenerates nothing
    events, s = play(s, {"type": "EndTurn", "character": "p"}, [1, 3])
    assert any(isinstance(e, CharacterDied) for e in events)
    assert s.chars["g"].dead and (5, 5) not in s.occupied


def test_three_successes_stabilise() -> None:
    s = _down(_pair(ch("g", "b", 5, 5)), "g")
    s = _set(s, "g", death_successes=2)
    events, s = play(s, {"type": "EndTurn", "character": "p"}, [1, 7, 1])
    g = s.chars["g"]
    assert "Stabilized" in types(events) and not g.has("dying") and g.has("unconscious")


def test_death_save_dc_is_an_option() -> None:
    s = _down(_pair(ch("g", "b", 5, 5), options={"death_save_dc": 10}), "g")
    events, s = play(s, {"type": "EndTurn", "character": "p"}, [1, 9, 1])
    assert not next(e for e in events if isinstance(e, DeathSaveRolled)).success


def test_healing_above_zero_ends_unconscious_and_throws_out_the_saves() -> None:
    s = _down(_pair(ch("g", "b", 5, 5)), "g")
    s = _set(s, "g", death_failures=2, death_successes=1)
    _, s = play(s, {"type": "Restore", "character": "g", "amount": 5, "reason": "healing potion"})
    g = s.chars["g"]
    assert g.HEA.cur == 3 and not g.has("unconscious") and not g.has("dying")
    assert (g.death_failures, g.death_successes) == (0, 0)


def test_restore_never_above_max() -> None:
    s = _pair(ch("g", "b", 5, 5, HEA={"cur": 18, "max": 20}))
    _, s = play(s, {"type": "Restore", "character": "g", "amount": 50, "reason": "potion"})
    assert s.chars["g"].HEA.cur == 20


def test_drained_recovers_at_the_end_of_the_next_turn() -> None:
    # p drained during g's previous turn (STA -> -2): exposed, no save
    s = _pair(ch("g", "b", 5, 5))
    p = s.chars["p"]
    from domain.rulesets.tactical.model import Condition

    s = _set(
        s,
        "p",
        STA=replace(p.STA, cur=-2),
        conditions=(Condition(name="exposed", unsaveable=True),),
        drained_at=0,
    )
    with pytest.raises(RuleViolation):  # exposed: free actions only
        play(s, {"type": "Move", "character": "p", "to": [2, 2]})
    with pytest.raises(RuleViolation):  # drained: no save against it
        play(s, {"type": "Save", "character": "p", "condition": "exposed"})
    events, s = play(s, {"type": "EndTurn", "character": "p"}, [5])
    rec = next(e for e in events if isinstance(e, DrainRecovered))
    # d8 5 + END 1 = 6: -2 -> 4; and no d4 regeneration this turn (A19)
    assert rec.gain == 6 and s.chars["p"].STA.cur == 4 and not s.chars["p"].has("exposed")
    assert not any(isinstance(e, Regenerated) and e.sta_die for e in events)


def test_wil_zero_dazes() -> None:
    s = _pair(
        ch("g", "b", 5, 5),
        powers=[{"id": "mind", "kind": "spell", "dice": "+12", "pool": "WIL", "range": 10}],
    )
    s = _set(s, "p", powers=("mind",))
    s = play(
        s, {"type": "Attack", "character": "p", "weapon": "mind", "target": "g", "pool": "WIL"}
    )[1]
    if s.pending is not None:
        s = play(s, {"type": "React", "character": "g", "reaction": "none"})[1]
    g = s.chars["g"]
    assert g.WIL.cur == -2 and g.has("dazed")


def test_save_removes_a_condition_on_success() -> None:
    s = _pair(ch("g", "b", 5, 5))
    s = _set(s, "p", conditions=(), stats=replace(s.chars["p"].stats, VIT=2))
    s = play(s, {"type": "SetCondition", "character": "p", "condition": "slowed", "reason": "ice"})[
        1
    ]
    events, s = play(s, {"type": "Save", "character": "p", "condition": "slowed"}, [5])
    assert types(events) == ["SaveRolled", "ConditionEnded"] and not s.chars["p"].has("slowed")


def test_save_fails_below_dc_and_cannot_heal_a_wound() -> None:
    s = _pair(ch("g", "b", 5, 5))
    s = play(s, {"type": "SetCondition", "character": "p", "condition": "slowed", "reason": "ice"})[
        1
    ]
    events, s = play(s, {"type": "Save", "character": "p", "condition": "slowed"}, [6])
    assert types(events) == ["SaveRolled"] and s.chars["p"].has("slowed")
    s = _pair(ch("g", "b", 5, 5))
    s = play(
        s,
        {
            "type": "SetCondition",
            "character": "p",
            "condition": "slowed",
            "from_wound": True,
            "reason": "a leg wound",
        },
    )[1]
    with pytest.raises(RuleViolation):
        play(s, {"type": "Save", "character": "p", "condition": "slowed"}, [12])


def test_exhausted_lowers_the_maximum_to_at_least_1() -> None:
    s = _pair(ch("g", "b", 5, 5))
    _, s = play(
        s,
        {
            "type": "SetCondition",
            "character": "p",
            "condition": "exhausted",
            "rating": 25,
            "reason": "forced march",
        },
    )
    p = s.chars["p"]
    assert p.STA.cur == 1 and p.WIL.cur == 1


def test_combat_ends_when_a_side_is_down() -> None:
    s = make(
        [ch("p", "a", 5, 5, stats={"STR": 30}), ch("g", "b", 6, 5)],
        options={"reaction_window": "never"},
    )
    s = started(s, [12, 1])
    events, s = play(s, {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"}, [6])
    assert types(events)[-1] == "CombatEnded" and s.winner == "a" and s.phase == "over"
    with pytest.raises(RuleViolation):
        play(s, {"type": "EndTurn", "character": "p"})


def test_an_unconscious_character_cannot_act_and_only_healing_or_medicine_ends_it() -> None:
    # [Unconscious]: "unable to perform actions ... can only be removed through healing or
    # medicine from an ally"; p is down on its own turn
    s = _down(_pair(ch("g", "b", 2, 1)), "p")
    for cmd in (
        {"type": "Attack", "character": "p", "weapon": "sword", "target": "g"},
        {"type": "Move", "character": "p", "to": [1, 2]},
        {"type": "Save", "character": "p", "condition": "unconscious"},
        {"type": "Rest", "character": "p"},
    ):
        with pytest.raises(RuleViolation):
            play(s, cmd, [12])
    events, s = play(s, {"type": "Restore", "character": "p", "amount": 1, "medicine": True,
                         "reason": "an ally's bandages"})  # fmt: skip
    p = s.chars["p"]
    assert "ConditionEnded" in types(events) and not p.has("unconscious")
