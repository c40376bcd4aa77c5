"""Properties of the phased ruleset (seed 004) over random rounds: every declared action
resolves exactly once or is cancelled (or withdrawn), never before the phase its speed and
its side's initiative allowed; every command's events replay to the state decide folded,
and the whole log replays to the final state."""

from __future__ import annotations

from functools import reduce
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.dice import ServerDice
from domain.errors import RuleViolation
from domain.rulesets.phased import RULESET
from domain.rulesets.phased.events import (
    ActionCancelled,
    ActionCarriedOver,
    ActionDeclared,
    ActionResolved,
    ActionWithdrawn,
    InitiativeRolled,
)
from domain.rulesets.phased.model import PHASES, State, index_of
from tests.support.phased_kit import cb, make, setup_of
from tests.support.view_types_check import check_views

SPELLS = [
    {"id": "bolt", "speed": 1},
    {"id": "gate", "speed": 2, "casting_rounds": 1},
    {"id": "slow", "speed": 4, "casting_phases": 4},
]
SETUP = setup_of(
    combatants=[
        cb("r1", "red", spells=SPELLS, dex=18),
        cb("r2", "red", base_speed=2),
        cb("b1", "blue", dex=5),
        cb("p1", "party", base_speed=-1, spells=SPELLS),
    ]
)
TARGETS = {"r1": "b1", "r2": "p1", "b1": "r2", "p1": "r1"}


class Log:
    def __init__(self, state: State) -> None:
        self.start = state
        self.state = state
        self.events: list[Any] = []
        self.n = 0

    def give(self, body: dict[str, Any]) -> bool:
        cmd = RULESET.command_decoder.decode(msgspec.json.encode(body))
        self.n += 1
        dice = ServerDice(seed=b"property", epoch=1, battle_id="p", version=self.n)
        try:
            events, after = RULESET.decide_folded(self.state, cmd, dice)  # type: ignore[misc]
        except RuleViolation:
            return False
        stored = [RULESET.event_decoder.decode(msgspec.json.encode(e)) for e in events]
        assert reduce(RULESET.evolve, stored, self.state) == after
        self.events.extend(stored)
        self.state = after
        check_views(RULESET, after)  # every actor's view is what the view type says
        return True


_DECL = st.tuples(
    st.sampled_from(sorted(TARGETS)),
    st.sampled_from(["attack", "move", "other", "bolt", "gate", "slow"]),
    st.integers(0, 3),  # how much later than the earliest (0: the earliest)
    st.integers(0, 12),  # phases
)
_ROUND = st.tuples(
    st.lists(_DECL, max_size=6),
    st.lists(st.integers(0, 3), max_size=8),  # what to do with each current action
    st.booleans(),  # withdraw the first declaration
    st.booleans(),  # sustain (or cancel) carry-overs
)


def _declare(log: Log, d: tuple[str, str, int, int]) -> None:
    cid, kind, later, phases = d
    body: dict[str, Any] = {"type": "DeclareAction", "combatant": cid, "phases": phases}
    if kind == "attack":
        body |= {"kind": "attack", "weapon": "sword", "target": TARGETS[cid]}
    elif kind in ("move", "other"):
        body["kind"] = kind
    else:
        if not log.state.combatants[cid].spells:
            return
        body |= {"kind": "spell", "spell": kind}
    if later:
        body["rank"] = min(5, log.state.combatants[cid].base_rank + later)
    log.give(body)


def _settle(log: Log, how: int) -> None:
    """Settle every pending call (issue 32.5: a call holds the actions depending on it, and
    the round's end)."""
    for p in list(log.state.pending.values()):
        if p.kind == "test":
            result = ("success", "fail", "glancing", "fail")[how]
            assert log.give({"type": "RuleCheck", "check": p.id, "result": result})
        else:
            assert log.give(
                {"type": "ChooseEffects", "choice": p.id, "effects": list(range(p.count))}
            )


def _play_round(log: Log, r: tuple[Any, ...]) -> None:
    decls, acts, withdraw, sustain = r
    if log.state.options.initiative_first:
        assert log.give({"type": "RollInitiative"})
        _settle(log, 0)
    s = log.state
    for a in s.actions.values():
        if a.carried and not a.decided and a.status == "declared":
            log.give({"type": "SustainAction" if sustain else "CancelAction", "action": a.id})
    for d in decls:
        _declare(log, d)
    mine = [a for a in log.state.actions.values() if a.declared_round == log.state.round]
    if withdraw and mine:
        log.give({"type": "WithdrawAction", "action": mine[0].id})
    for side in log.state.board.sides:
        log.give({"type": "EndDeclarations", "side": side})
    i = 0
    while log.state.stage == "phases":
        how = acts[i] if i < len(acts) else 0
        i += 1
        _settle(log, how)
        cur = log.state.current
        if cur is None:  # the round's end waited for a call, now settled
            continue
        if how == 3:
            log.give({"type": "CancelAction", "action": cur.id})
        elif how == 2 or not log.give({"type": "ResolveAction", "action": cur.id}):
            log.give({"type": "RecordOutcome", "action": cur.id, "outcome": "ruled"})


@settings(max_examples=60, deadline=None)
@given(
    rounds=st.lists(_ROUND, min_size=1, max_size=4),
    options=st.fixed_dictionaries(
        {
            "declarations": st.sampled_from(["secret", "open"]),
            "carry_over_default": st.sampled_from(["sustain", "cancel"]),
            "ten_lifts_to_starting": st.booleans(),
            "initiative_first": st.booleans(),
            "auto_end": st.just(False),
        }
    ),
)
def test_every_action_resolves_once_or_is_cancelled_never_before_its_phase(
    rounds: list[tuple[Any, ...]], options: dict[str, Any]
) -> None:
    log = Log(make(SETUP, **options))
    for r in rounds:
        _play_round(log, r)
    for _ in range(4):  # rounds with no new declaration: carry-overs come due
        _play_round(log, ([], [], False, True))
    declared: dict[str, ActionDeclared] = {}
    ends: dict[str, int] = {}
    shift: dict[tuple[int, str], int] = {}
    carried: dict[str, ActionCarriedOver] = {}
    floor = 0 if options["ten_lifts_to_starting"] else 1
    for e in log.events:
        if isinstance(e, ActionDeclared):
            declared[e.action.id] = e
        elif isinstance(e, ActionCarriedOver):
            a = declared[e.action].action
            if e.due != a.due:  # moved past the Final Phase: Fast, or a faster Base Speed
                base = log.state.combatants[a.combatant].base_rank
                fast = a.kind == "spell" or base >= 0
                assert e.due == (index_of(0) if fast else index_of(base)), (e, a)
            carried[e.action] = e
        elif isinstance(e, InitiativeRolled):
            for side in log.state.board.sides:
                shift[(e.round, side)] = e.shifts.get(side, 0)
        elif isinstance(e, (ActionResolved, ActionCancelled, ActionWithdrawn)):
            ends[e.action] = ends.get(e.action, 0) + 1
            assert ends[e.action] == 1, f"{e.action} ended twice"
        if isinstance(e, ActionResolved):
            a = declared[e.action].action
            at = PHASES.index(e.phase)
            if e.round == a.declared_round and options["initiative_first"]:
                # declared knowing the roll: its shift is in its due from the start
                assert at == a.due and a.shift == shift[(e.round, a.side)], (e, a)
            elif e.round == a.declared_round:
                allowed = max(a.due + shift[(e.round, a.side)], floor)
                assert at == allowed and at >= min(a.earliest - 1, a.earliest), (e, a)
                assert at >= a.earliest or shift[(e.round, a.side)] == -1
            else:  # carried over: due where its last carry put it, shifted by that round's die
                c = carried[e.action]
                assert e.round == c.to_round > a.declared_round
                assert at == max(c.due + shift[(e.round, a.side)], floor), (e, c)
    assert set(ends) == set(declared), "an action neither resolved nor cancelled"
    assert reduce(RULESET.evolve, log.events, log.start) == log.state
    # a stored snapshot of the state (msgpack) decodes to the same state
    packed = msgspec.msgpack.encode(log.state)
    assert msgspec.msgpack.decode(packed, type=State) == log.state
