"""`python -m bench.tactical`: what a tactical (seed 002) command costs on a big map.

In process, at the decider (`decide_folded`, the call the service makes): an area attack
(burst 2) on a 200 x 200 map with 500 characters, and a full round of 50 characters
(each: a move, an attack, the end of its turn), in microseconds per command; beside them
the quickstart's commands, replayed the same way from a played script. Not a test: it
reports, it does not fail on a slow machine.
"""

from __future__ import annotations

import random
import time
from typing import Any

import msgspec

from bench.scripts import QUICKSTART, _SeededDice, play_script
from domain.dice import SuppliedDice
from domain.rulesets.tactical import RULESET as TACTICAL
from domain.rulesets.tactical.model import State

__all__ = ["main"]

ROUNDS = 5


def _character(cid: str, side: str, x: int, y: int) -> dict[str, Any]:
    return {
        "id": cid,
        "side": side,
        "x": x,
        "y": y,
        "stats": {"STR": 2, "DEX": 1, "END": 2, "SPE": 6},
        "HEA": {"cur": 500, "max": 500},
        "STA": {"cur": 50, "max": 50},
        "WIL": {"cur": 10, "max": 10},
        "DEF": 2,
        "main_hand": "sword",
        "powers": ["fireball"],
    }


ITEMS = [{"id": "sword", "category": "melee", "dice": "d6", "add_stats": ["STR"]}]
POWERS = [
    {
        "id": "fireball",
        "kind": "spell",
        "dice": "2d6",
        "range": 10,
        "pool": "STA",
        "area": {"shape": "burst", "rating": 2},
    }
]


def _state(characters: list[dict[str, Any]], size: int, **options: Any) -> State:
    setup = {
        "width": size,
        "height": size,
        "sides": [{"id": "a"}, {"id": "b", "controller": "gm"}],
        "characters": characters,
        "items": ITEMS,
        "powers": POWERS,
    }
    return TACTICAL.initial_state(
        msgspec.convert(setup, TACTICAL.setup_type),
        msgspec.convert(options, TACTICAL.options_type),
    )


def _start(state: State, seed: int) -> State:
    cmd = msgspec.convert({"type": "RollInitiative"}, TACTICAL.command_type)
    _, after = TACTICAL.decide_folded(state, cmd, _SeededDice(random.Random(seed)))  # type: ignore[misc]
    return after  # type: ignore[no-any-return]


def area_attack_us(repeats: int = 200) -> tuple[float, int]:
    """500 characters on 200 x 200; the first in the order bursts a cluster 5 squares off."""
    chars = []
    for i in range(250):
        chars.append(_character(f"a{i}", "a", 2 * (i % 50), 2 * (i // 50)))
        chars.append(_character(f"b{i}", "b", 100 + 2 * (i % 50), 100 + 2 * (i // 50)))
    state = _start(_state(chars, 200, reaction_window="never"), 1)
    active = state.chars[state.active or ""]
    target = (min(active.x + 5, 199), min(active.y + 5, 199))
    cmd = msgspec.convert(
        {"type": "Attack", "character": active.id, "weapon": "fireball", "square": target},
        TACTICAL.command_type,
    )
    rng = random.Random(2)
    events, _ = TACTICAL.decide_folded(state, cmd, _SeededDice(rng))  # type: ignore[misc]
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(repeats):
            TACTICAL.decide_folded(state, cmd, _SeededDice(rng))  # type: ignore[misc]
        best = min(best, (time.perf_counter() - start) / repeats)
    return best * 1e6, len(events)


def round_us() -> tuple[float, int]:
    """50 characters in facing pairs on 200 x 200: one whole round, every turn a move
    (one square north), an attack on the paired foe and the end of the turn."""
    chars = []
    for i in range(25):
        x, y = 4 + 6 * (i % 5), 4 + 6 * (i // 5)
        chars.append(_character(f"a{i}", "a", x, y))
        chars.append(_character(f"b{i}", "b", x + 1, y))
    base = _start(_state(chars, 200, reaction_window="never"), 3)
    best = float("inf")
    count = 0
    for r in range(ROUNDS):
        rng = random.Random(10 + r)
        state = base
        n = 0
        elapsed = 0.0
        while state.round == 1 and state.phase == "combat":
            c = state.chars[state.active or ""]
            foe = f"b{c.id[1:]}" if c.side == "a" else f"a{c.id[1:]}"
            for command in (
                {"type": "Move", "character": c.id, "to": [c.x, c.y + 1]},
                {"type": "Attack", "character": c.id, "weapon": "sword", "target": foe},
                {"type": "EndTurn", "character": c.id},
            ):
                cmd = msgspec.convert(command, TACTICAL.command_type)
                start = time.perf_counter()
                _, state = TACTICAL.decide_folded(state, cmd, _SeededDice(rng))  # type: ignore[misc]
                elapsed += time.perf_counter() - start
                n += 1
        best = min(best, elapsed / n)
        count = n
    return best * 1e6, count


def quickstart_us() -> tuple[float, int]:
    """The quickstart's commands of one played battle, decided again with their dice."""
    assert QUICKSTART is not None
    rs = QUICKSTART
    script, _ = play_script(1)
    commands = [(msgspec.convert(c, rs.command_type), d) for c, d in script]
    initial = rs.initial_state(msgspec.convert(_qs_setup(), rs.setup_type), rs.options_type())
    best = float("inf")
    for _ in range(ROUNDS):
        state = initial
        start = time.perf_counter()
        for cmd, dice in commands:
            _, state = rs.decide_folded(state, cmd, SuppliedDice(dice))  # type: ignore[misc]
        best = min(best, (time.perf_counter() - start) / len(commands))
    return best * 1e6, len(commands)


def _qs_setup() -> dict[str, Any]:
    from tests.support.quickstart_play import SETUP

    return SETUP


def main() -> None:
    area, events = area_attack_us()
    per_round, commands = round_us()
    qs, qs_commands = quickstart_us()
    print("tactical (seed 002), in process at the decider (decide_folded)")
    print(
        f"  area attack, burst 2, 200x200, 500 characters: {area:8.1f} us/command ({events} events)"
    )
    print(f"  a full round of 50 characters ({commands} commands): {per_round:8.1f} us/command")
    print(f"  quickstart, one played battle ({qs_commands} commands): {qs:8.1f} us/command")


if __name__ == "__main__":
    main()
