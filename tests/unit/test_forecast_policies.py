"""The forecast's shipped policies and playouts (domain.forecast, domain.rulesets.*.policy):
every policy plays only commands the rules accept and never gets stuck, a run that cannot
go on ends undecided, and the runs depend on their seed only."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.actors import Actor
from domain.decider import Ruleset
from domain.dice import SuppliedDice
from domain.errors import DomainError
from domain.forecast import Policy, RandomDice, playout, strength
from domain.rulesets import get_ruleset
from domain.rulesets.forecasts import FORECASTS
from service.desk.forecast.odds import wilson
from service.desk.forecast.worker import run_slice
from tests.support.phased_kit import make as make_phased
from tests.support.quickstart_play import SETUP
from tests.support.skirmish_kit import crossbows, fighters, orcs, ready
from tests.support.tactical_kit import ch, make
from tests.support.warfare_kit import make as make_warfare
from tests.support.warfare_kit import unit

SEEDS = st.integers(0, 2**32)


def _quickstart(seed: int = 0, commands: int = 0) -> Any:
    """SETUP, then `commands` commands of the default policy (a mid-battle state)."""
    rs = get_ruleset("quickstart")
    assert rs is not None
    state = rs.initial_state(msgspec.convert(SETUP, rs.setup_type), rs.options_type())
    rules = FORECASTS["quickstart"]
    rng = Random(seed)
    dice = RandomDice(rng)
    for _ in range(commands):
        if rs.is_over(state):
            break
        _, command = next(iter(rules.policies["advance"](state, rng)))
        assert rs.decide_folded is not None
        _, state = rs.decide_folded(state, command, dice)
    return state


def _skirmish() -> Any:
    return ready(north=[fighters(), crossbows()], south=[orcs(army_size=150)])


def _tactical() -> Any:
    return make(
        [ch("a1", "a", 1, 1), ch("a2", "a", 1, 3, main_hand="bow"),
         ch("b1", "b", 9, 9), ch("b2", "b", 9, 7, off_hand="shield")],
    )  # fmt: skip


def _warfare() -> Any:
    return make_warfare(
        [unit("a1", "a", 3, 9), unit("a2", "a", 7, 9), unit("b1", "b", 3, 2),
         unit("b2", "b", 7, 2)],
    )  # fmt: skip


STARTS = {"skirmish": _skirmish, "tactical": _tactical, "warfare": _warfare, "phased": make_phased}


def _accepted(rs: Ruleset[Any, Any, Any, Any, Any], state: Any, actor: Actor, cmd: Any) -> bool:
    try:
        rs.authorize(state, cmd, actor)
        rs.decide(state, cmd, RandomDice(Random(0)))
    except DomainError:
        return False
    return True


class Watched:
    """The policy, with every state it was asked about and what it proposed there."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.seen: list[tuple[Any, list[tuple[Actor, Any]]]] = []

    def __call__(self, state: Any, rng: Random) -> Iterator[tuple[Actor, Any]]:
        proposals = list(self.policy(state, rng))
        self.seen.append((state, proposals))
        return iter(proposals)


def _run(ruleset_id: str, state: Any, seed: int) -> tuple[Any, Watched]:
    rs = get_ruleset(ruleset_id)
    assert rs is not None
    rules = FORECASTS[ruleset_id]
    watched = Watched(rules.policies[rules.default_policy])
    result = playout(rs, rules, state, watched, Random(seed), max_commands=3000)
    return result, watched


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(SEEDS, st.integers(0, 40))
def test_quickstart_policy_gives_one_command_and_the_rules_always_accept_it(
    seed: int, commands: int
) -> None:
    rs = get_ruleset("quickstart")
    assert rs is not None
    result, watched = _run("quickstart", _quickstart(seed, commands), seed)
    assert result is not None and result.result == "decided"
    assert result.winner in ("north", "south")
    assert len(watched.seen) == result.commands
    for state, proposals in watched.seen:
        assert len(proposals) == 1
        actor, command = proposals[0]
        assert _accepted(rs, state, actor, command), (command, actor)


@settings(max_examples=16, deadline=None, suppress_health_check=list(HealthCheck))
@given(SEEDS, st.sampled_from(sorted(STARTS)))
def test_the_other_policies_never_get_stuck_and_end_the_battle(seed: int, ruleset_id: str) -> None:
    rs = get_ruleset(ruleset_id)
    assert rs is not None
    state = STARTS[ruleset_id]()
    result, watched = _run(ruleset_id, state, seed)
    assert result is not None and result.result == "decided", result
    assert result.commands == len(watched.seen)
    if result.winner is not None:  # the winner has something left
        assert result.strength[result.winner] > 0, result
    for state, proposals in watched.seen:
        # one of its proposals is accepted in every state: it never gets stuck
        assert any(_accepted(rs, state, *p) for p in proposals), proposals


def test_a_run_that_cannot_go_on_ends_undecided() -> None:
    rs = get_ruleset("quickstart")
    assert rs is not None
    rules = FORECASTS["quickstart"]
    state = _quickstart(1, 10)
    nonsense = rs.command_decoder.decode(b'{"type":"Retreat"}')  # no combat to retreat from

    def stuck(state: Any, rng: Random) -> Iterator[tuple[Actor, Any]]:
        yield Actor(role="referee"), nonsense

    result = playout(rs, rules, state, stuck, Random(0), max_commands=100)
    assert result is not None and (result.result, result.commands) == ("undecided", 0)
    capped = playout(rs, rules, state, rules.policies["advance"], Random(0), max_commands=3)
    assert capped is not None and (capped.result, capped.commands) == ("undecided", 3)
    assert capped.winner is None
    assert playout(rs, rules, state, rules.policies["advance"], Random(0), max_commands=100,
                   stop=lambda: True) is None  # fmt: skip


def test_losses_are_counted_from_the_strength_at_the_start() -> None:
    rs = get_ruleset("quickstart")
    assert rs is not None
    state = _quickstart(2, 0)
    assert strength(rs, state) == {"north": 5, "south": 5}  # squads on the field
    result, _ = _run("quickstart", state, 2)
    assert result is not None and result.winner is not None
    loser = "south" if result.winner == "north" else "north"
    assert result.strength[loser] == 0 < result.strength[result.winner]


def test_runs_depend_on_the_seed_and_their_index_only() -> None:
    state = _quickstart(3, 20)
    far = 1e18  # no deadline
    whole = run_slice("quickstart", "advance", state, 99, 0, 12, far)
    split = run_slice("quickstart", "advance", state, 99, 0, 5, far) + run_slice(
        "quickstart", "advance", state, 99, 5, 7, far
    )
    assert whole == split and [i for i, _ in whole] == list(range(12))
    other = run_slice("quickstart", "advance", state, 100, 0, 12, far)
    assert other != whole
    assert run_slice("quickstart", "advance", state, 99, 0, 12, 0.0) == []  # past deadline


def test_the_policies_dice_are_fair_enough() -> None:
    rng = Random(5)
    dice = RandomDice(rng)
    values = dice.roll_many(6000, 6, "test").values
    counts = [values.count(v) for v in range(1, 7)]
    assert all(900 < c < 1100 for c in counts), counts
    # table dice check the same faces: every value is one a d6 may show
    assert SuppliedDice(list(values[:3])).roll_many(3, 6, "again").values == values[:3]


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(5, 10)
    assert round(lo, 4) == 0.2366 and round(hi, 4) == 0.7634
    assert wilson(0, 10) == (0.0, wilson(0, 10)[1]) and round(wilson(0, 10)[1], 4) == 0.2775
    assert wilson(10, 10)[1] == 1.0 and round(wilson(10, 10)[0], 4) == 0.7225
    assert wilson(0, 0) == (0.0, 1.0)
