"""The worst tactical (seed 002) commands a hostile player can send at the setup's bounds,
timed for `bench/worst_command.py` (decide with the server's HMAC dice, then the fold).

The setup's bounds (`domain/rulesets/tactical/setup.py`): a map up to 1000 x 1000, 5,000
characters, 10,000 structures, items and powers, an area of rating 50, a path of 200
squares; a creation body is at most 1 MB, which caps what fits (about 6,000 characters of
the compact form below). The battle built here: 1,000 x 1,000, a dense block of 4,900
characters in range of a burst of rating 50, a maze of walls a sprinter (speed 100) winds
through, weapons and powers of 99d999+100.
"""

from __future__ import annotations

import time
from typing import Any

import msgspec

from domain.dice import ServerDice
from domain.errors import DomainError
from domain.rulesets.tactical import RULESET as TACTICAL
from domain.rulesets.tactical.model import State

__all__ = ["largest_tactical_setup", "tactical_figures"]

RUNS = 3
SIZE = 1000
BLOCK = 22  # characters stand in a BLOCK x BLOCK block: 484 (the cap is 500)


def _dice(version: int) -> ServerDice:
    return ServerDice(seed=b"\x07" * 32, epoch=1, battle_id="bench", version=version)


def _char(cid: str, side: str, x: int, y: int, **kw: Any) -> dict[str, Any]:
    return {
        "id": cid,
        "side": side,
        "x": x,
        "y": y,
        "HEA": {"cur": 9999, "max": 9999},
        "STA": {"cur": 9999, "max": 9999},
        "WIL": {"cur": 9999, "max": 9999},
        **kw,
    }


def largest_tactical_setup() -> dict[str, Any]:
    strong = {"stats": {"STR": 50, "DEX": 50, "END": 50, "SPE": 100}, "main_hand": "sword"}
    chars = [
        _char("hero", "a", 10, 10, powers=["storm"], **strong),
        _char("runner", "a", 2, 500, **strong),
    ]
    for i in range(BLOCK * BLOCK - 2):
        x, y = divmod(i, BLOCK)
        chars.append(_char(f"c{i}", "b" if i % 2 else "a", 40 + x, 40 + y))
    # a maze the runner winds through: walls every 4th column with a gap at alternate ends
    squares = [
        {"x": x, "y": y, "blocks_move": True, "blocks_sight": True}
        for x in range(4, 60, 4)
        for y in range(450, 550)
        if y != (450 if x % 8 == 4 else 549)
    ]
    return {
        "width": SIZE,
        "height": SIZE,
        "squares": squares,
        "sides": [{"id": "a"}, {"id": "b"}],
        "characters": chars,
        "items": [
            {"id": "sword", "category": "melee", "dice": "99d999+100", "add_stats": ["STR"]},
            {"id": "bow", "category": "ranged", "dice": "99d999", "range": 500},
        ],
        "powers": [
            {
                "id": "storm",
                "kind": "spell",
                "dice": "99d999+100",
                "range": 500,
                "pool": "STA",
                "area": {"shape": "burst", "rating": 50},
            }
        ],
    }


def _timed(state: State, command: dict[str, Any], version: int) -> tuple[float, State, int]:
    """Best-of-RUNS milliseconds of decide + fold, the state after, the events' count."""
    decoded = TACTICAL.command_decoder.decode(msgspec.json.encode(command))
    best, after, count = float("inf"), state, 0
    for _ in range(RUNS):
        start = time.perf_counter()
        try:
            events = TACTICAL.decide(state, decoded, _dice(version))
        except DomainError as e:  # a refusal is work too: timed, and said
            best = min(best, (time.perf_counter() - start) * 1000)
            print(f"  ({command['type']} refused: {str(e)[:150]})")
            continue
        folded = state
        for e in events:
            folded = TACTICAL.evolve(folded, e)
        best = min(best, (time.perf_counter() - start) * 1000)
        after, count = folded, len(events)
    return best, after, count


def _first(state: State, cid: str) -> State:
    """The same battle with `cid` acting first (initiative is the referee's roll anyway)."""
    order = (cid, *(c for c in state.order if c != cid))
    return msgspec.structs.replace(state, order=order, active=cid, turn=0)


def tactical_figures() -> list[tuple[str, float, int]]:
    setup = largest_tactical_setup()
    body = len(msgspec.json.encode({"ruleset": "tactical", "setup": setup}))
    state = TACTICAL.initial_state(
        msgspec.convert(setup, TACTICAL.setup_type),
        msgspec.convert({"reaction_window": "never"}, TACTICAL.options_type),
    )
    out: list[tuple[str, float, int]] = [("creation body (bytes, not ms)", body, 0)]
    ms, state, n = _timed(state, {"type": "RollInitiative"}, 2)
    out.append((f"RollInitiative ({len(state.chars)} characters)", ms, n))
    hero = _first(state, "hero")
    ms, _, n = _timed(
        hero,
        {"type": "Attack", "character": "hero", "weapon": "storm", "square": [72, 72]},
        3,
    )
    out.append(("Attack: a burst of rating 50 over the block", ms, n))
    ms, _, n = _timed(
        hero, {"type": "Move", "character": "hero", "to": [10 + 100, 10], "mode": "sprint"}, 3
    )
    out.append(("Move: a sprint of speed 100 on 1000x1000", ms, n))
    runner = _first(state, "runner")
    ms, _, n = _timed(
        runner,
        {"type": "Move", "character": "runner", "to": [60, 500], "mode": "sprint"},
        3,
    )
    out.append(("Move: a sprint into the maze, out of reach (the whole search)", ms, n))
    path = [[2, 500 - i] for i in range(1, 101)]
    ms, _, n = _timed(
        runner,
        {"type": "Move", "character": "runner", "to": path[-1], "path": path, "mode": "sprint"},
        3,
    )
    out.append(("Move: an explicit path of 100 squares", ms, n))
    ms, _, n = _timed(hero, {"type": "EndTurn", "character": "hero"}, 3)
    out.append((f"EndTurn (the next of {len(state.chars)} characters)", ms, n))
    return out
