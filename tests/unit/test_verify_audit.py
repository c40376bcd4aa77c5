"""`audit_log`: the chain first, then every server die recomputed from its revealed seed
(docs/VERIFYING.md "Verifiable dice"); each failure names the first event at fault and why."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.dice import commitment, derive_value
from events.chain import canonical, seal
from events.envelope import GENESIS_HASH, EventActor, StoredEvent
from events.verify import LogAudit, audit_log
from tests.support.sealed_logs import sealed_log

S1, S2 = bytes(range(32)), bytes(range(1, 33))
B = "battle-v"


def die(seed: bytes, version: int, index: int, sides: int = 6, client: str = "") -> int:
    return derive_value(seed, B, version, index, client, sides)


def server(
    version: int, index: int, count: int = 1, *, epoch: int = 1, sides: int = 6, **over: Any
) -> dict[str, Any]:
    seed = S1 if epoch == 1 else S2
    client = over.get("client_seed", "")
    roll = {
        "kind": "roll",
        "sides": sides,
        "values": [die(seed, version, index + i, sides, client) for i in range(count)],
        "purpose": "attack",
        "source": "server",
        "epoch": epoch,
        "version": version,
        "index": index,
        "client_seed": client,
    }
    roll.update(over)
    return roll


def created() -> tuple[str, dict[str, Any]]:
    return "BattleCreated", {"dice_epoch": 1, "dice_commitment": commitment(S1)}


def revealed(epoch: int = 1, seed: bytes = S1, **over: Any) -> tuple[str, dict[str, Any]]:
    data = {"epoch": epoch, "seed": seed.hex(), "reason": "requested"}
    if epoch == 1:
        data |= {"next_epoch": 2, "next_commitment": commitment(S2)}
    data.update(over)
    return "DiceSeedRevealed", data


def log(*items: tuple[str, dict[str, Any]]) -> list[StoredEvent]:
    return sealed_log(B, items, first_position=10)


def failure(events: list[StoredEvent], version: int, reason: str) -> LogAudit:
    return LogAudit(
        events_checked=len(events),
        chain_ok=True,
        dice_ok=False,
        dice_checked=0,
        dice_pending=0,
        client_dice=0,
        failed_version=version,
        reason=reason,
    )


def played(*extra: tuple[str, dict[str, Any]]) -> list[StoredEvent]:
    """Dice of two commands, table dice, a reveal, then a die of the next epoch (pending)."""
    return log(
        created(),
        ("Attacked", {"nested": {"roll": server(2, 0, 2, client_seed="c")}}),
        (
            "Volley",
            {
                "rolls": [
                    server(3, 0, sides=20),
                    {"kind": "roll", "source": "client", "values": [4, 5]},
                ]
            },
        ),
        revealed(),
        ("Attacked", {"roll": server(5, 0, epoch=2)}),
        *extra,
    )


def test_a_sound_log_counts_checked_pending_and_table_dice() -> None:
    events = played()
    audit = audit_log(events)
    assert audit == LogAudit(
        events_checked=5,
        chain_ok=True,
        dice_ok=True,
        dice_checked=3,
        dice_pending=1,
        client_dice=2,
        failed_version=None,
        reason=None,
    )
    assert audit.ok


def test_the_next_epoch_is_checked_once_its_seed_is_revealed() -> None:
    events = played(revealed(2, S2, reason="battle-over"))
    audit = audit_log(events)
    assert (audit.ok, audit.dice_checked, audit.dice_pending) == (True, 4, 0)


def test_an_empty_log_is_sound() -> None:
    assert audit_log([]) == LogAudit(
        events_checked=0, chain_ok=True, dice_ok=True, dice_checked=0, dice_pending=0, client_dice=0
    )


def test_a_broken_chain_is_reported_before_any_die() -> None:
    events = played()
    events[1] = msgspec.structs.replace(events[1], data=events[1].data.replace(b"attack", b"atak"))
    audit = audit_log(events)
    assert (audit.chain_ok, audit.dice_ok, audit.ok) == (False, False, False)
    assert (audit.events_checked, audit.failed_version) == (5, 2)
    assert (audit.dice_checked, audit.dice_pending, audit.client_dice) == (0, 0, 0)
    assert audit.reason


def test_a_die_that_the_seed_does_not_give_is_named() -> None:
    roll = server(2, 0, 2, client_seed="c")
    right = roll["values"][1]
    roll["values"][1] = right % 6 + 1
    events = log(created(), ("Attacked", {"roll": roll}), revealed())
    assert audit_log(events) == failure(
        events,
        2,
        f"die 1 of roll 2 (attack) shows {right % 6 + 1}, but the revealed seed gives {right}",
    )


def test_the_client_seed_is_part_of_the_die() -> None:
    roll = server(2, 0, 2, client_seed="c")
    roll["client_seed"] = "d"
    assert not audit_log(log(created(), ("Attacked", {"roll": roll}), revealed())).ok
    del roll["client_seed"]  # an absent client seed is the empty one
    roll["values"] = [die(S1, 2, 0), die(S1, 2, 1)]
    assert audit_log(log(created(), ("Attacked", {"roll": roll}), revealed())).dice_checked == 2


@pytest.mark.parametrize(
    ("seed", "reason"),
    [
        ("zz", "revealed seed of epoch 1 is not hex"),
        (
            S2.hex(),
            f"the seed revealed for epoch 1 does not match its commitment {commitment(S1)}",
        ),
    ],
)
def test_a_wrong_reveal_is_named(seed: str, reason: str) -> None:
    kind, data = revealed()
    events = log(created(), ("Attacked", {"roll": server(2, 0)}), (kind, data | {"seed": seed}))
    assert audit_log(events) == failure(events, 3, reason)


def test_a_reveal_of_an_epoch_never_committed_fails() -> None:
    events = log(created(), revealed(3, S2))
    assert audit_log(events) == failure(
        events, 2, "the seed revealed for epoch 3 does not match its commitment None"
    )


def test_a_final_reveal_commits_no_next_epoch() -> None:
    events = log(
        created(), revealed(1, S1, next_epoch=None), ("Attacked", {"roll": server(4, 0, epoch=2)})
    )
    assert audit_log(events) == failure(events, 3, "a server die names no committed epoch")


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"epoch": 9}, "a server die names no committed epoch"),
        ({"version": None}, "a server die names no committed epoch"),
        ({"index": None}, "a server die names no committed epoch"),
        ({"version": "2"}, "a server die is malformed"),
        ({"index": "0"}, "a server die is malformed"),
        ({"values": 3}, "a server die is malformed"),
        ({"sides": 0}, "a server die is malformed"),
        ({"sides": "6"}, "a server die is malformed"),
        ({"version": 3}, "server die (3, 0) reuses a roll counter"),  # after its own event
    ],
)
def test_a_malformed_server_die_is_named(change: dict[str, Any], reason: str) -> None:
    events = log(created(), ("Attacked", {"roll": server(2, 0) | change}), revealed())
    assert audit_log(events) == failure(events, 2, reason)


def test_a_server_die_without_sides_is_malformed() -> None:
    roll = server(2, 0)
    del roll["sides"]
    events = log(created(), ("Attacked", {"roll": roll}), revealed())
    assert audit_log(events) == failure(events, 2, "a server die is malformed")


def test_a_roll_counter_used_twice_is_named() -> None:
    events = log(
        created(),
        ("Attacked", {"rolls": [server(2, 0, 2), server(2, 1)]}),  # die (2, 1) twice
        revealed(),
    )
    assert audit_log(events) == failure(events, 2, "server die (2, 1) reuses a roll counter")
    again = server(2, 0) | {"purpose": "damage"}  # the same die for another decision
    later = log(created(), ("Attacked", {"roll": server(2, 0)}), ("Again", {"roll": again}))
    assert audit_log(later) == failure(later, 3, "server die (2, 0) reuses a roll counter")


@pytest.mark.parametrize(
    "change",
    [{"purpose": "damage"}, {"sides": 8}, {"epoch": 2}, {"client_seed": "x"}, {"values": [9]}],
)
def test_a_later_event_may_quote_a_die_whole_and_it_counts_once(change: dict[str, Any]) -> None:
    """A tactical attack resolved after the target's reaction repeats the attack's roll: the
    same die (counter, sides, value, epoch, client seed, purpose), counted once. Quoted with
    anything changed, it is a reuse."""
    first = ("Declared", {"roll": server(2, 0)})
    quoted = log(created(), first, ("Resolved", {"attack": {"roll": server(2, 0)}}), revealed())
    audit = audit_log(quoted)
    assert (audit.ok, audit.dice_checked) == (True, 1)
    other = server(2, 0) | change
    changed = log(created(), first, ("Resolved", {"roll": other}), revealed())
    assert not audit_log(changed).ok


def test_pending_dice_are_still_checked_for_reuse_and_table_dice_are_not_dice_to_check() -> None:
    events = log(
        created(),
        ("Attacked", {"roll": server(2, 0, 3)}),
        ("Table", {"roll": {"kind": "roll", "source": "client", "values": "not a list"}}),
    )
    assert audit_log(events) == LogAudit(
        events_checked=3, chain_ok=True, dice_ok=True, dice_checked=0, dice_pending=3, client_dice=0
    )


def test_every_roll_of_an_event_is_counted_whatever_comes_before_it() -> None:
    """Table dice (even malformed ones) before a server die do not end the event's rolls."""
    events = log(
        created(),
        (
            "Mixed",
            {
                "rolls": [
                    {"kind": "roll", "source": "client", "values": "not a list"},
                    {"kind": "roll", "source": "client", "values": [1, 2]},
                    server(2, 0),
                    {"kind": "roll", "source": "client", "values": [3]},
                ]
            },
        ),
        revealed(),
    )
    audit = audit_log(events)
    assert (audit.ok, audit.dice_checked, audit.client_dice) == (True, 1, 3)


def test_a_reused_counter_is_named_by_the_die_that_reuses_it() -> None:
    events = log(created(), ("Attacked", {"rolls": [server(2, 1), server(2, 0, 2)]}), revealed())
    assert audit_log(events) == failure(events, 2, "server die (2, 1) reuses a roll counter")


def test_a_log_of_one_event_is_sound() -> None:
    events = log(created())
    assert audit_log(events).ok and audit_log(events).events_checked == 1


def test_a_gap_in_the_log_names_the_version_it_follows() -> None:
    events = played()
    gapped = [events[0], events[1], events[3]]  # versions 1, 2, 4
    audit = audit_log(gapped)
    assert (audit.chain_ok, audit.failed_version) == (False, 4)
    assert audit.reason == "version 4 follows 2: the log has a gap"


def test_a_die_spelled_with_escapes_is_still_audited() -> None:
    """The audit skips decoding events whose text cannot hold a die; JSON may spell `roll`
    as `\\u0072oll`, and such an event is decoded and its die checked all the same."""
    roll = server(2, 0)
    roll["values"] = [roll["values"][0] % 6 + 1]  # not what the seed gives
    pending = seal(
        battle_id=B,
        prev_version=0,
        prev_hash=GENESIS_HASH,
        items=[
            (created()[0], canonical(created()[1]), "all"),
            ("Attacked", canonical({"r": roll}).replace(b'"roll"', b'"\\u0072oll"'), "all"),
            (revealed()[0], canonical(revealed()[1]), "all"),
        ],
        recorded_at="2026-01-01T00:00:00.000Z",
        actor=EventActor(role="referee"),
        command_id=None,
    )
    events = [StoredEvent(position=i, **msgspec.structs.asdict(p)) for i, p in enumerate(pending)]
    assert b"roll" not in events[1].data
    audit = audit_log(events)
    assert (audit.dice_ok, audit.failed_version) == (False, 2)
