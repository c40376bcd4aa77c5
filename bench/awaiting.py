"""`python -m bench.awaiting`: what `ruleset.awaiting(state, actor)` costs, per ruleset.

A command's answer carries `awaiting` (service.battles.awaiting), computed by probing the
ruleset's decider (domain.probing): more than the command itself costs. Here, for each of
the five rulesets, the states of real play-throughs (the table policies of
tests/support/table_policies, as the unit tests play them to their end) are each asked
`awaiting` for the referee and for one side, and the mean and p99 of one call are printed
in microseconds. A client that does not read `awaiting` skips the cost with `Prefer:
return=minimal` (service.http.prefer). Not a test: it reports, it does not fail on a slow
machine.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import msgspec

from domain.actors import Actor
from domain.decider import Ruleset
from domain.prompts import Prompt
from domain.rulesets.phased import RULESET as PHASED
from domain.rulesets.quickstart import RULESET as QUICKSTART
from domain.rulesets.skirmish import RULESET as SKIRMISH
from domain.rulesets.tactical import RULESET as TACTICAL
from domain.rulesets.warfare import RULESET as WARFARE
from tests.support.phased_kit import cb, make, setup_of
from tests.support.quickstart_play import SETUP
from tests.support.skirmish_kit import crossbows, fighters, orcs, ready
from tests.support.table_policies import phased, quickstart, skirmish, warfare
from tests.support.table_policies.loop import play_to_end
from tests.support.table_policies.play import play
from tests.support.tactical_kit import ch
from tests.support.tactical_kit import make as tactical_make
from tests.support.tactical_table import play_through
from tests.support.warfare_kit import make as warfare_make
from tests.support.warfare_kit import unit

__all__ = ["main", "measure", "play_throughs"]

REFEREE = Actor(role="referee")
SEEDS = range(2)  # play-throughs per ruleset
REPEAT = 3  # calls per state and actor


def _quickstart(seed: int) -> list[Any]:
    rs = QUICKSTART
    start = rs.initial_state(msgspec.convert(SETUP, rs.setup_type), rs.options_type())
    states: list[Any] = []
    play(rs, start, quickstart.pick, quickstart.choose, seed, referee_last=True,
         on_command=lambda state, *_: states.append(state))  # fmt: skip
    return states


def _skirmish(seed: int) -> list[Any]:
    start = ready([fighters(), crossbows("bows")], [orcs(army_size=200)], until="tactics")
    states: list[Any] = []
    play(SKIRMISH, start, skirmish.pick, skirmish.choose, seed,
         on_command=lambda state, *_: states.append(state))  # fmt: skip
    return states


def _phased(seed: int) -> list[Any]:
    two = {"weapons": [
        {"id": "sword", "speed": 1, "damage": "1d8", "damage_type": "slashing"},
        {"id": "dagger", "speed": -1, "damage": "1d4", "damage_type": "piercing"},
    ]}  # fmt: skip
    setup = setup_of(
        combatants=[
            cb("r1", "red", x=1, y=1, **two),
            cb("r2", "red", x=2, y=1, hp=12),
            cb("b1", "blue", x=1, y=2, **two),
            cb("p1", "party", x=2, y=2, dex=18),
        ],
        width=6,
        height=6,
    )
    states: list[Any] = []
    play_to_end(PHASED, make(setup), phased.pick, phased.choose, seed,
                seen=lambda state, *_: states.append(state))  # fmt: skip
    return states


def _warfare(seed: int) -> list[Any]:
    units = [
        unit("a1", "a", 4, 7, health=30),
        unit("a2", "a", 6, 7, health=20),
        unit("a3", "a", 5, 9, kind="ranged", range_increment=2, damage=6, health=15),
        unit("b1", "b", 4, 4, health=30),
        unit("b2", "b", 6, 4, health=20, attack=7),
        unit("b3", "b", 5, 2, kind="artillery", range_increment=1, damage=8, health=15),
    ]
    states: list[Any] = []
    play_to_end(WARFARE, warfare_make(units), warfare.pick, warfare.choose, seed,
                seen=lambda state, *_: states.append(state))  # fmt: skip
    return states


def _tactical(seed: int) -> list[Any]:
    rng = random.Random(seed)
    a1, a2, b1, b2 = rng.sample([(x, y) for x in range(7) for y in range(7)], k=4)
    start = tactical_make(
        [
            ch("a1", "a", *a1, off_hand="shield"),
            ch("a2", "a", *a2, main_hand="bow"),
            ch("b1", "b", *b1),
            ch("b2", "b", *b2, main_hand="wand"),
        ],
        width=7,
        height=7,
    )
    return [state for state, *_ in play_through(start, rng)]


Player = Callable[[int], list[Any]]
# each ruleset, how its play-throughs are played, and the side whose view is measured
RULESETS: dict[str, tuple[Ruleset[Any, Any, Any, Any, Any], Player, str]] = {
    "quickstart": (QUICKSTART, _quickstart, "north"),
    "tactical": (TACTICAL, _tactical, "a"),
    "phased": (PHASED, _phased, "red"),
    "warfare": (WARFARE, _warfare, "a"),
    "skirmish": (SKIRMISH, _skirmish, "north"),
}


def play_throughs(name: str) -> list[Any]:
    """The states met (before each command) in the ruleset's play-throughs."""
    _rs, player, _side = RULESETS[name]
    return [state for seed in SEEDS for state in player(seed)]


def measure(
    rs: Ruleset[Any, Any, Any, Any, Any], states: list[Any], actor: Actor
) -> tuple[float, float]:
    """(mean, p99) in microseconds of one `awaiting` call over the states."""
    times: list[float] = []
    for state in states:
        for _ in range(REPEAT):
            t0 = time.perf_counter()
            prompts: list[Prompt] = list(rs.awaiting(state, actor))
            times.append((time.perf_counter() - t0) * 1e6)
            del prompts
    times.sort()
    return statistics.fmean(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def main() -> None:
    print("ruleset.awaiting(state, actor), over the states of table play-throughs (µs per call)")
    head = ("ruleset", "states", "referee mean", "p99", "side mean", "p99")
    print("{:<11} {:>6} {:>13} {:>8} {:>10} {:>8}".format(*head))
    for name, (rs, _player, side) in RULESETS.items():
        states = play_throughs(name)
        ref_mean, ref_p99 = measure(rs, states, REFEREE)
        side_mean, side_p99 = measure(rs, states, Actor(role="side", side=side))
        print(
            f"{name:<11} {len(states):>6} {ref_mean:>13.0f} {ref_p99:>8.0f} "
            f"{side_mean:>10.0f} {side_p99:>8.0f}"
        )


if __name__ == "__main__":
    main()
