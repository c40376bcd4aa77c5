"""A fork's claim on its parent (events.exports.lineage): what a forger or a wrong parent
file would get past `battle-service verify --parent` if a check were dropped."""

from __future__ import annotations

import msgspec
import pytest

from events.exports.lineage import ForkPoint, fork_point, parent_break

HEAD = "ab" * 32
OTHER = "cd" * 32
FORK = ForkPoint(battle_id="parent", version=5, head_hash=HEAD)


def _created(**fields: object) -> bytes:
    return msgspec.json.encode({"dice_epoch": 1, "dice_commitment": "00", **fields})


FORKED = _created(forked_from="parent", forked_at=5, forked_head_hash=HEAD)


def test_a_fork_point_is_read_from_the_first_battle_created_only() -> None:
    assert fork_point([(1, "BattleCreated", FORKED)]) == FORK
    # Other facts before it are passed over, not taken as the end of the search.
    assert fork_point([(3, "DiceSeedRevealed", b"{}"), (1, "BattleCreated", FORKED)]) == FORK
    # A BattleCreated that is not the first event, or a first fact of another type,
    # makes no claim.
    assert fork_point([(2, "BattleCreated", FORKED)]) is None
    assert fork_point([(1, "DiceEpochStarted", FORKED)]) is None
    assert fork_point([(1, "BattleCreated", _created())]) is None
    assert fork_point([]) is None


@pytest.mark.parametrize(
    "fields",
    [
        {"forked_from": 7, "forked_at": 5, "forked_head_hash": HEAD},
        {"forked_from": "parent", "forked_at": "5", "forked_head_hash": HEAD},
        {"forked_from": "parent", "forked_at": 5, "forked_head_hash": None},
    ],
)
def test_a_claim_of_the_wrong_shape_is_no_fork(fields: dict[str, object]) -> None:
    assert fork_point([(1, "BattleCreated", _created(**fields))]) is None


def test_the_parent_vouches_only_for_its_own_event_at_the_fork() -> None:
    assert parent_break(FORK, "parent", None, 5, HEAD) is None
    assert parent_break(FORK, "parent", None, 9, HEAD) is None


def test_each_way_the_parent_fails_to_vouch_is_named() -> None:
    assert parent_break(None, "parent", None, 5, HEAD) == (
        "the battle is not a fork (its BattleCreated names no forked_from)"
    )
    assert parent_break(FORK, "someone", None, 5, HEAD) == (
        "the fork names parent parent, but the parent's export is of battle someone"
    )
    assert parent_break(FORK, "parent", "version 3: bad hash", 5, HEAD) == (
        "the parent's export does not verify: version 3: bad hash"
    )
    ends = "the fork was made at the parent's version 5, but the parent's export ends at version {}"
    assert parent_break(FORK, "parent", None, 4, None) == ends.format(4)
    # A hash held for the version, but the export ends before it: still too short.
    assert parent_break(FORK, "parent", None, 4, HEAD) == ends.format(4)
    assert parent_break(FORK, "parent", None, 9, None) == ends.format(9)
    assert parent_break(FORK, "parent", None, 5, OTHER) == (
        f"the fork was made at the parent's version 5 with head hash {HEAD[:16]}…, but the "
        f"parent's event 5 has hash {OTHER[:16]}…"
    )
