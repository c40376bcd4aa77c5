"""The rate limits' smallest settings and their defaults (service.http.limits), counted in
memory: a limit of 1 is on (only 0 is off) for streams per key, per address and per worker
and for failed authentications; a slot refused or given back takes back exactly its one;
a gauge back at zero is forgotten; a stream or a refusal that names no address or holder
says "unknown" or "key" (issue 38: the service's trust code under mutation testing)."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Request
from litestar.stores.memory import MemoryStore

from service.http.limits import (
    AuthFailures,
    Counters,
    StreamSlots,
    TooManyStreams,
    client_address,
    key_identity,
)


async def test_one_stream_per_key_is_a_limit() -> None:
    counters = Counters(MemoryStore())
    slots = StreamSlots(counters, 1)
    first = await slots.take("Bearer k", "1.1.1.1")
    assert first.names == [f"streams:{key_identity('k')}"]
    for _ in range(2):  # each refusal takes back only the one it added
        with pytest.raises(TooManyStreams) as caught:
            await slots.take("Bearer k", "2.2.2.2")
        assert (caught.value.limit, caught.value.holder) == (1, "key")
    await slots.give_back(first)
    again = await slots.take("Bearer k", "1.1.1.1")  # given back: one again, not less
    with pytest.raises(TooManyStreams):
        await slots.take("Bearer k", "1.1.1.1")
    await slots.give_back(again)
    assert counters._gauges == {}  # back at zero: nothing kept for the key


async def test_a_slot_given_back_frees_one_and_no_more() -> None:
    slots = StreamSlots(Counters(MemoryStore()), 2)
    first = await slots.take("Bearer k", "1.1.1.1")
    await slots.take("Bearer k", "1.1.1.1")
    await slots.give_back(first)
    await slots.take("Bearer k", "1.1.1.1")
    with pytest.raises(TooManyStreams):
        await slots.take("Bearer k", "1.1.1.1")


async def test_one_stream_per_address_is_a_limit() -> None:
    slots = StreamSlots(Counters(MemoryStore()), 0, per_address=1)
    slot = await slots.take("Bearer a", "1.1.1.1")
    assert slot.names == ["streams-address:1.1.1.1"]
    with pytest.raises(TooManyStreams) as caught:
        await slots.take("Bearer b", "1.1.1.1")
    assert (caught.value.limit, caught.value.holder) == (1, "address")
    assert (await slots.take("Bearer b")).names == ["streams-address:unknown"]


async def test_one_stream_per_worker_is_a_limit() -> None:
    slots = StreamSlots(Counters(MemoryStore()), 0, per_worker=1)
    slot = await slots.take(None)
    assert slot.worker and slots.open == 1
    with pytest.raises(TooManyStreams) as caught:
        await slots.take(None)
    assert (caught.value.limit, caught.value.holder, caught.value.status) == (1, "worker", 503)
    await slots.give_back(slot)
    assert slot.worker is False and slots.open == 0


async def test_one_failed_authentication_is_a_limit() -> None:
    counters = Counters(MemoryStore())
    failures = AuthFailures(counters, 1)
    await failures.failed("1.1.1.1")
    count, reset = await counters.peek("auth-failures:1.1.1.1")
    assert count == 1 and 59 <= reset <= 60
    assert await failures.refused("1.1.1.1") in (59, 60)


def test_a_refusal_names_a_key_unless_told_otherwise() -> None:
    refused = TooManyStreams(3)
    assert (refused.holder, refused.status, refused.code) == ("key", 429, "too-many-streams")
    assert str(refused) == "this key already holds 3 open streams; close one first"


def _request(client: Any) -> Request[Any, Any, Any]:
    return Request({"type": "http", "client": client, "headers": [], "app": None})  # type: ignore[arg-type,typeddict-item]


def test_a_request_without_a_client_comes_from_unknown() -> None:
    assert client_address(_request(("10.0.0.7", 5000))) == "10.0.0.7"
    assert client_address(_request(None)) == "unknown"
