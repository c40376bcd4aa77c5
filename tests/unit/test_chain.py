"""The SHA-256 hash chain: seal, event_hash, find_chain_break and the canonical encoding."""

from __future__ import annotations

import hashlib
import itertools
import json
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.chain import canonical, event_hash, find_chain_break, seal
from events.envelope import GENESIS_HASH, EventActor, PendingEvent, StoredEvent

RED = EventActor(role="side", side="red")
REF = EventActor(role="referee")


def stored(pending: list[PendingEvent], first_position: int = 100) -> list[StoredEvent]:
    return [
        StoredEvent(position=first_position + i, **msgspec.structs.asdict(p))
        for i, p in enumerate(pending)
    ]


def chain(count: int = 5, battle_id: str = "battle-1") -> list[StoredEvent]:
    """Events 1..count, sealed in three commands with different actors and command ids."""
    events: list[PendingEvent] = []
    batches = [(REF, None, "2025-01-01T00:00:00Z"), (RED, "cmd-a", "2025-01-01T00:01:00Z")]
    batches.append((RED, "cmd-b", "2025-01-01T00:02:00Z"))
    per_batch = -(-count // len(batches))
    for actor, command_id, recorded_at in batches:
        n = min(per_batch, count - len(events))
        if n <= 0:
            break
        prev_version = len(events)
        events += seal(
            battle_id=battle_id,
            prev_version=prev_version,
            prev_hash=events[-1].hash if events else GENESIS_HASH,
            items=[
                (
                    f"Event{prev_version + i}",
                    canonical({"i": prev_version + i, "text": "héllo", "list": [1, None]}),
                    "all" if i % 2 else "side:red",
                )
                for i in range(n)
            ],
            recorded_at=recorded_at,
            actor=actor,
            command_id=command_id,
        )
    return stored(events)


def reference_hash(ev: StoredEvent | PendingEvent) -> str:
    """The hash as the module docstring documents it, with the standard json module only."""
    header = {
        "battle_id": ev.battle_id,
        "version": ev.version,
        "type": ev.type,
        "audience": ev.audience,
        "recorded_at": ev.recorded_at,
        "actor": {"role": ev.actor.role, "side": ev.actor.side},
        "command_id": ev.command_id,
        "prev_hash": ev.prev_hash,
        "data": json.loads(ev.data),
    }
    text = json.dumps(header, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- intact chains -----------------------------------------------------------------------------


def test_an_intact_chain_passes() -> None:
    events = chain(7)
    assert [e.version for e in events] == list(range(1, 8))
    assert events[0].prev_hash == GENESIS_HASH == "0" * 64
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(events))
    assert len({e.hash for e in events}) == 7
    assert {e.command_id for e in events} == {None, "cmd-a", "cmd-b"}
    assert find_chain_break(events) is None


def test_an_empty_log_and_a_single_event_pass() -> None:
    assert find_chain_break([]) is None
    assert find_chain_break(chain(1)) is None


def test_seal_returns_nothing_for_no_items() -> None:
    sealed = seal(
        battle_id="b",
        prev_version=3,
        prev_hash="f" * 64,
        items=[],
        recorded_at="t",
        actor=REF,
        command_id=None,
    )
    assert sealed == []


def test_hash_matches_the_documented_recipe() -> None:
    for ev in chain(6):
        assert ev.hash == reference_hash(ev)
        assert (
            event_hash(
                battle_id=ev.battle_id,
                version=ev.version,
                type=ev.type,
                audience=ev.audience,
                recorded_at=ev.recorded_at,
                actor=ev.actor,
                command_id=ev.command_id,
                prev_hash=ev.prev_hash,
                data=ev.data,
            )
            == ev.hash
        )


def test_the_position_is_not_hashed() -> None:
    events = chain(4)
    moved = [msgspec.structs.replace(e, position=e.position * 7 + 3) for e in events]
    assert [e.hash for e in moved] == [e.hash for e in events]
    assert find_chain_break(moved) is None


def test_seal_continues_an_existing_chain() -> None:
    events = chain(3)
    more = seal(
        battle_id="battle-1",
        prev_version=3,
        prev_hash=events[-1].hash,
        items=[("Later", b'{"x":1}', "all")],
        recorded_at="2025-02-02T00:00:00Z",
        actor=REF,
        command_id="later",
    )
    assert more[0].version == 4
    assert more[0].prev_hash == events[-1].hash
    assert find_chain_break(events + stored(more, 200)) is None


# -- tampering ---------------------------------------------------------------------------------

TAMPERINGS: dict[str, dict[str, Any]] = {
    "data": {"data": canonical({"i": 2, "text": "héllo", "list": [1, 2]})},
    "data-whitespace": {"data": b'{"i": 2, "list": [1,null], "text": "h\xc3\xa9llo"}'},
    "type": {"type": "SomethingElse"},
    "actor-role": {"actor": EventActor(role="referee", side="red")},
    "actor-side": {"actor": EventActor(role="side", side="blue")},
    "actor-side-dropped": {"actor": EventActor(role="side")},
    "audience": {"audience": "side:blue"},
    "recorded_at": {"recorded_at": "2025-01-01T00:01:00.000001Z"},
    "command_id-added": {"command_id": "cmd-forged"},
    "command_id-changed": {"command_id": "cmd-b "},
    "command_id-dropped": {"command_id": None},
    "battle_id": {"battle_id": "battle-2"},
    "prev_hash": {"prev_hash": "1" * 64},
    "hash": {"hash": "2" * 64},
}


# event 1 has no command id to drop
TAMPER_CASES = [
    (change, victim)
    for change in sorted(TAMPERINGS)
    for victim in (1, 3, 5)
    if (change, victim) != ("command_id-dropped", 1)
]


@pytest.mark.parametrize(("change", "victim"), TAMPER_CASES)
def test_any_change_to_one_event_names_that_event(change: str, victim: int) -> None:
    events = chain(5)
    before = events[victim - 1]
    after = msgspec.structs.replace(before, **TAMPERINGS[change])
    assert after != before  # the tampering really changes something
    events[victim - 1] = after

    found = find_chain_break(events)

    assert found is not None
    assert found.version == victim
    assert str(victim) in found.reason


def test_a_rehashed_forgery_is_caught_at_the_next_link() -> None:
    events = chain(5)
    forged = msgspec.structs.replace(events[2], data=canonical({"i": 2, "forged": True}))
    forged = msgspec.structs.replace(forged, hash=reference_hash(forged))
    events[2] = forged

    found = find_chain_break(events)

    assert found is not None
    assert found.version == 4
    assert "prev_hash" in found.reason


def test_the_first_event_must_follow_the_genesis_hash() -> None:
    events = chain(3)
    first = msgspec.structs.replace(events[0], prev_hash="a" * 64)
    first = msgspec.structs.replace(first, hash=reference_hash(first))
    found = find_chain_break([first])
    assert found is not None
    assert found.version == 1


@pytest.mark.parametrize("missing", [1, 3, 5])
def test_a_gap_is_detected(missing: int) -> None:
    events = chain(6)
    del events[missing - 1]

    found = find_chain_break(events)

    assert found is not None
    assert found.version == missing + 1
    assert "gap" in found.reason


def test_reordered_or_repeated_events_are_detected() -> None:
    events = chain(4)
    swapped = [events[0], events[2], events[1], events[3]]
    found = find_chain_break(swapped)
    assert found is not None
    assert found.version == 3

    repeated = [*events[:3], events[2], events[3]]
    found = find_chain_break(repeated)
    assert found is not None
    assert found.version == 3


def test_a_changed_version_is_detected() -> None:
    events = chain(4)
    events[1] = msgspec.structs.replace(events[1], version=7)
    found = find_chain_break(events)
    assert found is not None
    assert found.version == 7


# -- canonical encoding ------------------------------------------------------------------------


def test_canonical_encoding_ignores_key_order() -> None:
    a = {"b": 1, "a": {"z": [1, {"y": 2, "x": 3}], "c": None}, "é": "ü"}
    b = {"é": "ü", "a": {"c": None, "z": [1, {"x": 3, "y": 2}]}, "b": 1}
    assert canonical(a) == canonical(b)
    assert canonical(a) == b'{"a":{"c":null,"z":[1,{"x":3,"y":2}]},"b":1,"\xc3\xa9":"\xc3\xbc"}'
    assert canonical([2, 1]) != canonical([1, 2])  # list order is meaning, not noise


def test_event_hash_depends_on_data_bytes_not_on_how_they_were_built() -> None:
    def h(data: bytes) -> str:
        return event_hash(
            battle_id="b",
            version=1,
            type="T",
            audience="all",
            recorded_at="t",
            actor=RED,
            command_id=None,
            prev_hash=GENESIS_HASH,
            data=data,
        )

    assert h(canonical({"a": 1, "b": 2})) == h(canonical({"b": 2, "a": 1}))
    assert h(canonical({"a": 1, "b": 2})) != h(canonical({"a": 1, "b": 3}))


# -- properties --------------------------------------------------------------------------------

json_scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=12)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
payloads = st.dictionaries(st.text(max_size=8), json_values, max_size=6)
texts = st.text(min_size=1, max_size=10)


@settings(max_examples=150, deadline=None)
@given(
    battle_id=texts,
    items=st.lists(
        st.tuples(texts, payloads, st.sampled_from(["all", "side:red", "gm"])),
        min_size=1,
        max_size=6,
    ),
    side=st.none() | texts,
    command_id=st.none() | texts,
    recorded_at=texts,
    data=st.data(),
)
def test_property_sealed_chains_verify_and_any_data_change_is_caught(
    battle_id: str,
    items: list[tuple[str, dict[str, Any], str]],
    side: str | None,
    command_id: str | None,
    recorded_at: str,
    data: st.DataObject,
) -> None:
    sealed = seal(
        battle_id=battle_id,
        prev_version=0,
        prev_hash=GENESIS_HASH,
        items=[(t, canonical(p), a) for t, p, a in items],
        recorded_at=recorded_at,
        actor=EventActor(role="side", side=side),
        command_id=command_id,
    )
    events = stored(sealed)
    assert find_chain_break(events) is None
    assert all(e.hash == reference_hash(e) for e in events)

    victim = data.draw(st.integers(0, len(events) - 1))
    new_payload = data.draw(payloads.filter(lambda p: canonical(p) != events[victim].data))
    events[victim] = msgspec.structs.replace(events[victim], data=canonical(new_payload))
    found = find_chain_break(events)
    assert found is not None
    assert found.version == victim + 1


@settings(max_examples=200, deadline=None)
@given(payload=payloads, seed=st.randoms(use_true_random=False))
def test_property_canonical_is_sorted_compact_json(payload: dict[str, Any], seed: Any) -> None:
    keys = list(payload)
    seed.shuffle(keys)
    shuffled = {k: payload[k] for k in keys}
    expected = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical(shuffled) == canonical(payload) == expected.encode("utf-8")
    assert msgspec.json.decode(canonical(payload)) == payload
