"""Properties of the tactical decider over random fights (hypothesis draws every choice and
every die): pools never above their maximum, at most one reaction a round, attack caps
held, and a replay of the events (decoded from JSON) rebuilds the same state."""

from __future__ import annotations

from functools import reduce
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.dice import Roll
from domain.errors import DomainError
from domain.rulesets.tactical import RULESET
from domain.rulesets.tactical.events import AttackResolved, RoundStarted
from domain.rulesets.tactical.evolve import effective_max
from domain.rulesets.tactical.model import State
from domain.rulesets.tactical.rules import round_cap
from tests.support.tactical_kit import ch, make
from tests.support.view_types_check import check_views

FAN = {
    "id": "fan",
    "kind": "spell",
    "dice": "d8",
    "pool": "STA",
    "area": {"shape": "close_burst", "rating": 1},
}


class DrawnDice:
    """Dice whose values hypothesis draws (so a failure shrinks to a small example)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        values = tuple(self.data.draw(st.integers(1, sides)) for _ in range(count))
        return Roll(sides=sides, values=values, purpose=purpose, source="client")


def _fight() -> State:
    chars = [
        ch("a1", "a", 2, 2, stats={"STR": 2, "DEX": 1, "END": 1, "SPE": 4}, off_hand="shield",
           STA={"cur": 12, "max": 12}, powers=["fan"]),
        ch("a2", "a", 2, 4, stats={"STR": 1, "DEX": 2, "END": 3, "SPE": 5},
           STA={"cur": 8, "max": 12}),
        ch("b1", "b", 5, 2, stats={"STR": 2, "DEX": 0, "END": 0, "SPE": 6}, DEF=1,
           STA={"cur": 6, "max": 10}, powers=["fan"]),
        ch("b2", "b", 5, 4, stats={"STR": 3, "DEX": 1, "END": 2, "SPE": 4}, off_hand="shield",
           HEA={"cur": 12, "max": 12}),
    ]  # fmt: skip
    return make(chars, width=8, height=7, powers=[FAN])


def _candidates(s: State, data: st.DataObject) -> dict[str, Any]:
    if s.pending is not None:
        kind = data.draw(st.sampled_from(["dodge", "parry", "shield", "none"]))
        return {"type": "React", "character": s.pending.target, "reaction": kind,
                "sta": data.draw(st.integers(0, 12))}  # fmt: skip
    if s.opportunity is not None:
        who = s.opportunity.reactors[0]
        if data.draw(st.booleans()):
            return {"type": "OpportunityAttack", "character": who}
        return {"type": "React", "character": who, "reaction": "none"}
    c = s.chars[s.active or ""]
    kind = data.draw(
        st.sampled_from(
            ["move", "attack", "attack", "area", "end", "rest", "save", "grapple", "rush", "free"]
        )
    )
    foes = [f.id for f in s.chars.values() if f.side != c.side]
    if kind == "move":
        x = data.draw(st.integers(0, 7))
        y = data.draw(st.integers(0, 6))
        mode = data.draw(st.sampled_from(["run", "sprint", "shift"]))
        return {"type": "Move", "character": c.id, "to": [x, y], "mode": mode}
    if kind == "attack":
        return {"type": "Attack", "character": c.id, "weapon": "sword",
                "target": data.draw(st.sampled_from(foes))}  # fmt: skip
    if kind == "area":
        return {"type": "Attack", "character": c.id, "weapon": "fan"}
    if kind in ("grapple", "rush"):
        target = data.draw(st.sampled_from(foes))
        if kind == "grapple":
            return {"type": "Grapple", "character": c.id, "target": target}
        return {"type": "BullRush", "character": c.id, "target": target,
                "push": data.draw(st.sampled_from([1, 2]))}  # fmt: skip
    if kind == "free":
        return {"type": "FreeAction", "character": c.id, "action": "speak"}
    if kind == "rest":
        return {"type": "Rest", "character": c.id}
    if kind == "save" and c.conditions:
        return {"type": "Save", "character": c.id, "condition": c.conditions[0].name}
    return {"type": "EndTurn", "character": c.id}


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_random_fights_keep_the_invariants(data: st.DataObject) -> None:
    state = _fight()
    dice = DrawnDice(data)
    cmd0 = msgspec.convert({"type": "RollInitiative"}, RULESET.command_type)
    events, state = RULESET.decide_folded(state, cmd0, dice)  # type: ignore[misc]
    log: list[Any] = list(events)
    initial = _fight()
    reactions: dict[tuple[str, int], int] = {}
    current_round = state.round
    for _ in range(80):
        if RULESET.is_over(state):
            break
        command = msgspec.convert(_candidates(state, data), RULESET.command_type)
        try:
            events, after = RULESET.decide_folded(state, command, dice)  # type: ignore[misc]
        except DomainError:
            continue
        for e in events:
            if isinstance(e, RoundStarted):
                current_round = e.round
            if isinstance(e, AttackResolved):
                for r in e.reactions:
                    if r.kind != "none":
                        key = (r.character, current_round)
                        reactions[key] = reactions.get(key, 0) + 1
                if e.attack.action == "opportunity" and not e.attack.after_parry:
                    key = (e.attack.attacker, current_round)
                    reactions[key] = reactions.get(key, 0) + 1
        state = after
        log.extend(events)
        check_views(RULESET, state)  # every actor's view is what the view type says
        for c in state.chars.values():
            for pool in ("HEA", "STA", "WIL"):
                assert getattr(c, pool).cur <= effective_max(c, pool), (c.id, pool)
            assert c.attacks <= round_cap(c), c.id
    # at most one reaction a round (the one-reaction limit, A12 global rounds; a parry's
    # opportunity attack is outside it, A13)
    assert all(n <= 1 for n in reactions.values()), reactions
    # a replay of the stored events (through JSON) rebuilds the same state
    stored = [RULESET.event_decoder.decode(msgspec.json.encode(e)) for e in log]
    assert reduce(RULESET.evolve, stored, initial) == state
