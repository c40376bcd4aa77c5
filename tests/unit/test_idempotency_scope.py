"""An Idempotency-Key's request hash is scoped by the player key that sent it (issue 34):
a player key's id is part of it, and the hash of every other key (a side's, the
referee's, an integration's) is the one stored before, so that old records still match."""

from __future__ import annotations

import msgspec

from domain.actors import Actor
from service.battles.batches import batch_request_hash, request_hash
from service.schemas import CommandBatchItem, CommandBatchRequest, CommandRequest

NORTH = Actor(role="side", side="north")
REQ = CommandRequest(command=msgspec.Raw(b'{"type":"EndStep","b":1}'), expected_version=3)
BATCH = CommandBatchRequest(commands=[CommandBatchItem(command=msgspec.Raw(b'{"type":"EndStep"}'))])


def test_the_hashes_of_keys_that_are_not_player_keys_are_unchanged() -> None:
    # Recorded with the code before player keys were part of the hash.
    assert request_hash(REQ, NORTH) == (
        "dba019c647bc5c1957ef83ade047d6358844124ee2e216832d5a09a55b16d640"
    )
    assert batch_request_hash(BATCH, Actor(role="referee")) == (
        "4bdfca5e5a1fe03b44dcbecc3742373b66692b0a1b8efebc209b6aa4a49c9b8e"
    )


def test_each_player_key_has_its_own_scope() -> None:
    alice, bob = request_hash(REQ, NORTH, "pk_a"), request_hash(REQ, NORTH, "pk_b")
    assert len({alice, bob, request_hash(REQ, NORTH)}) == 3
    assert alice == request_hash(REQ, NORTH, "pk_a")
    batches = {batch_request_hash(BATCH, NORTH, k) for k in ("pk_a", "pk_b", None)}
    assert len(batches) == 3
