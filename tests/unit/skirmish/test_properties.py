"""Properties (seed 000): army size never exceeds its maximum through a phase; replaying a
skirmish's events rebuilds the same state, for random legal command sequences."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.dice import Roll
from domain.errors import DomainError
from domain.rulesets.skirmish import RULESET
from domain.rulesets.skirmish.model import State
from domain.rulesets.skirmish.options import STRATEGIES
from tests.support.skirmish_kit import crossbows, fighters, gnolls, make, orcs, run
from tests.support.view_types_check import check_views

FIREBALL = {
    "name": "fireball",
    "kind": "area",
    "save": "reflex",
    "save_dc": 14,
    "damage": [{"count": 3, "sides": 6, "type": "fire"}],
    "radius": 20,
}
BASH = {"name": "bull_rush", "kind": "maneuver", "maneuver": "bull_rush", "attack_bonus": 4}
CURE = {"name": "cure", "kind": "heal", "damage": [{"count": 1, "sides": 8, "bonus": 1}]}


class RandomDice:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def roll(self, sides: int, purpose: str, subject: str | None = None) -> Roll:
        return self.roll_many(1, sides, purpose)

    def roll_many(self, count: int, sides: int, purpose: str, subject: str | None = None) -> Roll:
        values = tuple(self.rng.randint(1, sides) for _ in range(count))
        return Roll(sides=sides, values=values, purpose=purpose, source="client")


def _setup_log() -> tuple[State, list[Any]]:
    """The setup run command by command, keeping every event."""
    s = make({"rout_check": "every_round"})
    log: list[Any] = []

    def go(type_: str, dice: tuple[int, ...] = (), **f: Any) -> None:
        nonlocal s
        s, ev = run(s, type_, dice, **f)
        log.extend(ev)

    go("AppointLeader", side="north", leader={"name": "N", "profession_soldier": 3})
    go("AppointLeader", side="south", leader={"name": "S", "profession_soldier": 3})
    go("AdvanceSetup")
    go("RaiseArmy", side="north", army=fighters(attacks=[*fighters()["attacks"], BASH, CURE]))
    go("RaiseArmy", side="north", army=crossbows(attacks=[*crossbows()["attacks"], FIREBALL]))
    go("RaiseArmy", side="south", army=orcs(army_size=200))
    go("RaiseArmy", side="south", army=gnolls(attacks=[*gnolls()["attacks"], BASH]))
    for _ in range(3):
        go("AdvanceSetup")
    go("RollInitiative", (10,), side="north")
    go("RollInitiative", (12,), side="south")
    go("AdvanceSetup")
    go("SetZones", side="north", zones={"melee_edge": 600})
    go("SetZones", side="south", zones={"melee_edge": 700})
    go("AdvanceSetup")
    go("PlaceArmy", army="fighters", x=1, y=58, facing="south")
    go("PlaceArmy", army="crossbows", x=6, y=58, facing="south")
    go("PlaceArmy", army="orcs", x=1, y=70, facing="north")
    go("PlaceArmy", army="gnolls", x=10, y=70, facing="north")
    go("AdvanceSetup")
    go("DeclareStrategy", side="north", strategy="standard")
    go("DeclareStrategy", side="south", strategy="standard")
    go("AdvanceSetup")
    go("AdvanceSetup")
    go("AdvanceSetup")
    return s, log


SETUP_STATE, SETUP_LOG = _setup_log()
ARMIES = ("fighters", "crossbows", "orcs", "gnolls")


def _candidate(s: State, draw: Any) -> dict[str, Any]:
    a = s.armies[draw(st.sampled_from(ARMIES))]
    if s.phase == "movement":
        kind = draw(st.sampled_from(["move", "move", "move", "turn", "tactic", "strategy", "end"]))
        if kind == "move":
            dx, dy = draw(st.integers(-3, 3)), draw(st.integers(-3, 3))
            return {"type": "MoveArmy", "army": a.id, "x": a.x + dx, "y": a.y + dy}
        if kind == "turn":
            return {
                "type": "TurnArmy",
                "army": a.id,
                "facing": draw(st.sampled_from(["north", "south", "east", "west"])),
            }
        if kind == "tactic":
            t = draw(
                st.sampled_from(
                    [
                        "cautious_combat",
                        "withdraw",
                        "retreat",
                        "rally",
                        "pass_through",
                        "change_formation",
                    ]
                )
            )
            extra = (
                {"formation": draw(st.sampled_from(["open", "closed", "hedgehog"]))}
                if t == "change_formation"
                else {}
            )
            return {"type": "IssueTactic", "army": a.id, "tactic": t, **extra}
        if kind == "strategy":
            return {
                "type": "ChangeStrategy",
                "side": a.side,
                "strategy": draw(st.sampled_from(STRATEGIES)),
            }
    elif s.phase in ("ranged", "melee", "other") and draw(st.integers(0, 3)) > 0:
        profile = draw(st.sampled_from([p.name for p in a.spec.attacks]))
        target = draw(st.sampled_from(ARMIES))
        extra: dict[str, Any] = {}
        if draw(st.booleans()):
            extra["chosen_targets"] = draw(st.integers(1, 60))
        if profile == "bull_rush":
            extra["move_target"] = draw(st.booleans())
        return {
            "type": "DeclareAction",
            "army": a.id,
            "profile": profile,
            "target": target,
            **extra,
        }
    return {"type": "ResolvePhase"}


seen: set[str] = set()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_random_skirmishes_keep_army_size_bounded_and_replay_to_the_same_state(
    data: st.DataObject, seed: int
) -> None:
    dice = RandomDice(seed)
    s, log = SETUP_STATE, list(SETUP_LOG)
    for _ in range(120):
        if RULESET.is_over(s):
            break
        body = _candidate(s, data.draw)
        command = RULESET.command_decoder.decode(msgspec.json.encode(body))
        try:
            events = RULESET.decide(s, command, dice)
        except DomainError:
            continue
        for e in events:
            s = RULESET.evolve(s, e)
            log.append(e)
            for a in s.armies.values():
                n = a.numbers
                assert 0 <= n.army_size <= n.maximum_army_size
                assert n.total_army_hp >= 0
            check_views(RULESET, s)  # every actor's view is what the view type says
    seen.update(type(e).__name__ for e in log)
    # the log alone, decoded from JSON, rebuilds the state
    setup = msgspec.convert(
        {
            "sides": [{"id": "north", "home": "north"}, {"id": "south", "home": "south"}],
            "width": 40,
            "height": 120,
        },
        RULESET.setup_type,
    )
    replay = RULESET.initial_state(setup, SETUP_STATE.options)
    for e in log:
        replay = RULESET.evolve(replay, RULESET.event_decoder.decode(msgspec.json.encode(e)))
    assert replay == s


def test_the_random_skirmishes_reach_the_phases() -> None:
    """Guards the property's reach: it must have resolved volleys and moved armies."""
    if not seen:
        test_random_skirmishes_keep_army_size_bounded_and_replay_to_the_same_state()
    assert {"ArmyMoved", "ActionResolved", "PhaseDamageApplied", "MoraleChecked"} <= seen
