"""The checks skirmish's `awaiting` asks before probing an army's turns, charges and
tactics (issue 37): `turning.may_turn` and `may_pivot` (a rotation along a corner),
`charge.may_charge`, `orders.may_issue`, decide's own checks factored out of it. When one
refuses, awaiting probes no command of that kind, so it must never refuse what decide
would accept for any reader.

Given every state of the skirmish play-throughs (bench/awaiting.py's, as the golden
test's) and every army, when a pre-check refuses, then every command of its kind (each
facing and pivot, or each rotation along a corner; each target, profile and square in
charging distance; each tactic) is refused by the Asker awaiting uses, for the referee
and for each side; and each pre-check refuses in some states and passes in others where
decide accepts a command of its kind (not vacuous). `reach.can_move` agrees with reach.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from msgspec.structs import replace

from bench.awaiting import play_throughs
from domain.actors import Actor
from domain.probing import Asker
from domain.rulesets.skirmish.access import authorize
from domain.rulesets.skirmish.charge import may_charge
from domain.rulesets.skirmish.commands import ChargeArmy, Command, IssueTactic, TurnArmy
from domain.rulesets.skirmish.decide import decide
from domain.rulesets.skirmish.geometry import FACINGS, engaged
from domain.rulesets.skirmish.model import State
from domain.rulesets.skirmish.orders import may_issue
from domain.rulesets.skirmish.reach import can_move, reach
from domain.rulesets.skirmish.turning import may_pivot, may_turn


def _states() -> Iterator[State]:
    """The play-throughs' movement-phase states, and for each army in melee the same state
    with that army under each Retreat- or Withdrawal-kind tactic (which the plays seldom
    reach: it may rotate along a corner, and move, in melee)."""
    for s in play_throughs("skirmish"):
        if s.phase != "movement":
            continue
        yield s
        leaving = sorted(
            t for t, k in s.options.tactics.items() if k.kind in ("withdraw", "retreat")
        )
        for army in sorted(s.armies):
            a = s.armies[army]
            if a.placed and a.fighting and engaged(s, a):
                for t in leaving:
                    yield replace(s, armies={**s.armies, army: replace(a, tactic=t)})


def _readers(s: State) -> list[Actor]:
    return [Actor(role="referee"), *(Actor(role="side", side=x) for x in sorted(s.forces))]


def _turns(army: str) -> list[Command]:
    return [
        TurnArmy(army=army, facing=f, pivot=p) for p in (None, "left", "right") for f in FACINGS
    ]


def _charges(s: State, army: str, target: str, profile: str) -> list[Command]:
    # every square within 6 of the army's anchor: wider than any charge of the kits
    a = s.armies[army]
    return [
        ChargeArmy(army=army, target=target, profile=profile, x=a.x + dx, y=a.y + dy)
        for dx in range(-6, 7)
        for dy in range(-6, 7)
    ]


def test_a_refused_precheck_means_decide_refuses_every_such_command() -> None:
    seen: Counter[str] = Counter()
    wrong: list[tuple[str, Command, str]] = []
    for s in _states():
        askers = [Asker(s, r, authorize, decide) for r in _readers(s)]
        for army in sorted(s.armies):
            x = s.armies[army]
            cases: list[tuple[str, bool, list[Command]]] = [
                ("turn", may_turn(s, army), _turns(army)),
                ("pivot", may_pivot(s, army), [c for c in _turns(army) if c.pivot is not None]),
                ("tactic", may_issue(s, army),
                 [IssueTactic(army=army, tactic=t) for t in sorted(s.options.tactics)]),
            ]  # fmt: skip
            for t in sorted(s.armies):
                for p in x.spec.attacks:
                    ok = may_charge(s, army, t, p.name)
                    cases.append(("charge", ok, _charges(s, army, t, p.name)))
            for kind, ok, commands in cases:
                accepted = [c for c in commands if any(a.ok(c) for a in askers)]
                seen[
                    f"{kind} {'passes' if ok else 'refuses'}{', accepted' if accepted else ''}"
                ] += 1
                if kind == "pivot" and accepted and engaged(s, x):
                    seen["pivot in melee, accepted"] += 1
                if not ok and accepted:
                    wrong += [(kind, c, a.actor.role) for c in accepted for a in askers if a.ok(c)]
    assert wrong == []
    # not vacuous: each pre-check refused somewhere, and passed where decide accepted
    # (a rotation along a corner in melee too: the Retreat variants)
    assert seen["pivot in melee, accepted"] > 0, seen
    for kind in ("turn", "pivot", "tactic", "charge"):
        assert seen[f"{kind} refuses"] > 0, seen
        assert seen[f"{kind} passes, accepted"] > 0, seen


def test_can_move_agrees_with_reach_for_every_reader() -> None:
    """`reach.can_move` (awaiting's move prompt) tries the squares next to the anchor
    first: given every play-through state, army and reader, it is true exactly when reach
    lists a square, and both ways occur."""
    seen: Counter[bool] = Counter()
    held_moving = 0
    for s in _states():
        for army in sorted(s.armies):
            for r in [*_readers(s), Actor(role="observer")]:
                listed = bool(reach(s, r, army).squares)
                held_moving += listed and bool(engaged(s, s.armies[army]))
                assert can_move(s, r, army) == listed, (army, r)
                seen[listed] += 1
    assert seen[True] > 0 and seen[False] > 0, seen
    assert held_moving > 0  # an army in melee that may withdraw was asked
