"""Logs of whole battles as an older ruleset version stored them, with the state that
version folded them to: the evidence that a battle replays to the same state after a
ruleset changes (tests/unit/test_stored_logs.py).

Run with the older checkout first on the path, e.g.
`PYTHONPATH=/path/to/old/checkout .venv/bin/python tests/support/stored_logs.py OUT`:
it plays each battle below with the forecast's default policy and seeded dice under
whatever rulesets that checkout holds, and writes OUT (JSON). This module imports only
what every version has (the rulesets, their forecast policies, the dice).
"""

from __future__ import annotations

import hashlib
import json
import sys
from random import Random
from typing import Any

import msgspec

from domain.errors import DomainError
from domain.forecast import RandomDice
from domain.rulesets import get_ruleset
from domain.rulesets.forecasts import FORECASTS

__all__ = ["BATTLES", "digest", "plain", "play"]


def _wunit(uid: str, side: str, x: int, y: int) -> dict[str, Any]:
    facing = "N" if side == "a" else "S"
    return {"id": uid, "side": side, "x": x, "y": y, "attack": 5, "defense": 15, "damage": 10,
            "health": 40, "speed": 4, "morale": 2, "facing": facing}  # fmt: skip


_WARFARE = {
    "width": 12,
    "height": 12,
    "sides": [
        {"id": "a", "zones": [{"id": "za", "tiles": [[x, 11] for x in range(12)]}]},
        {"id": "b", "zones": [{"id": "zb", "tiles": [[x, 0] for x in range(12)]}]},
    ],
    "units": [_wunit("a1", "a", 3, 8), _wunit("a2", "a", 6, 8), _wunit("a3", "a", 9, 8),
              _wunit("b1", "b", 3, 3), _wunit("b2", "b", 6, 3), _wunit("b3", "b", 9, 3)],
}  # fmt: skip

_QUICKSTART = {
    "sides": ["north", "south"],
    "width": 8,
    "height": 8,
    "squads": [
        {"id": "n1", "side": "north", "kind": "paladin", "level": 3, "x": 2, "y": 1},
        {"id": "n2", "side": "north", "kind": "soldier", "level": 2, "x": 4, "y": 1},
        {"id": "n3", "side": "north", "kind": "caster", "level": 2, "x": 6, "y": 0},
        {"id": "s1", "side": "south", "kind": "paladin", "level": 2, "x": 2, "y": 6},
        {"id": "s2", "side": "south", "kind": "soldier", "level": 3, "x": 4, "y": 6},
        {"id": "s3", "side": "south", "kind": "medic", "level": 1, "x": 6, "y": 7},
    ],
    "heroes": [
        {"id": "hn", "side": "north", "squad": "n1", "skills": {"intimidate": 4, "history": 2}},
        {"id": "hs", "side": "south", "squad": "s2", "skills": {"heal": 4, "bluff": 2}},
    ],
}

# (ruleset, setup, options, seed): warfare with automatic retaliations (the forecast's
# policy gives no Retaliate), quickstart with heroes (intimidate) on its default options
BATTLES: list[tuple[str, dict[str, Any], dict[str, Any], int]] = [
    ("warfare", _WARFARE, {"retaliation": "automatic"}, 1),
    ("warfare", _WARFARE, {"retaliation": "automatic"}, 2),
    ("quickstart", _QUICKSTART, {}, 1),
    ("quickstart", _QUICKSTART, {}, 2),
    ("quickstart", _QUICKSTART, {}, 3),
]


def plain(obj: Any) -> Any:
    """`obj` as JSON values, a state's dicts with tuple keys (tiles) as lists of pairs."""
    if isinstance(obj, msgspec.Struct):
        return {f: plain(getattr(obj, f)) for f in obj.__struct_fields__}
    if isinstance(obj, dict):
        if all(isinstance(k, str) for k in obj):
            return {k: plain(v) for k, v in obj.items()}
        return [[plain(k), plain(v)] for k, v in obj.items()]
    if isinstance(obj, (tuple, list)):
        return [plain(x) for x in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(plain(x) for x in obj)
    return msgspec.to_builtins(obj)


def digest(state: Any) -> str:
    """A short fingerprint of `state` (its `plain` JSON, keys sorted)."""
    text = json.dumps(plain(state), separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def play(ruleset_id: str, setup: dict[str, Any], options: dict[str, Any], seed: int,
         max_commands: int = 2000) -> dict[str, Any]:  # fmt: skip
    """The battle played to its end: its ruleset version, events, the fingerprint of the
    state after each event and the final state (JSON)."""
    rs = get_ruleset(ruleset_id)
    assert rs is not None
    rules = FORECASTS[ruleset_id]
    policy = rules.policies[rules.default_policy]
    state = rs.initial_state(
        msgspec.convert(setup, rs.setup_type), msgspec.convert(options, rs.options_type)
    )
    rng = Random(seed)
    dice = RandomDice(rng)
    events: list[Any] = []
    digests: list[str] = []  # the state after each event, as this version folds it
    for _ in range(max_commands):
        if rs.is_over(state):
            break
        for actor, command in policy(state, rng):
            try:
                rs.authorize(state, command, actor)
                assert rs.decide_folded is not None
                got, after = rs.decide_folded(state, command, dice)
            except DomainError:
                continue
            for e in got:
                state = rs.evolve(state, e)
                digests.append(digest(state))
            assert state == after
            events.extend(got)
            break
        else:
            raise AssertionError("the policy proposed nothing the rules accept")
    return {
        "ruleset": ruleset_id,
        "version": rs.version,
        "setup": setup,
        "options": options,
        "seed": seed,
        "events": msgspec.to_builtins(events),
        "digests": digests,
        "state": plain(state),
    }


def main(out: str) -> None:
    logs = [play(*battle) for battle in BATTLES]
    with open(out, "w") as f:
        json.dump(logs, f, separators=(",", ":"), sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
