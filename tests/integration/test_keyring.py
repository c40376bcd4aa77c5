"""KeyRing: the Authorization header resolved against a real store, through its caches."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from events.envelope import AccessKey
from events.sqlite import SQLiteEventStore
from service.battles.keys import KeyRing, hash_key
from service.battles.record_macs import RecordMacs
from service.battles.signing import ServiceKeys
from service.errors import Forbidden, Unauthenticated


async def test_headers_resolve_the_same_through_a_full_cache(tmp_path: Path) -> None:
    store = SQLiteEventStore(tmp_path / "keys.db")
    await store.open()
    try:
        keys = {f"bk_key{i}": f"b{i}" for i in range(5)}
        macs = RecordMacs(ServiceKeys.generate())
        records = [
            AccessKey(key_hash=hash_key(k), battle_id=b, role="referee") for k, b in keys.items()
        ]
        await store.save_keys([msgspec.structs.replace(r, mac=macs.access_key(r)) for r in records])
        ring = KeyRing(store, macs, cache_size=2)  # smaller than the keys in use: caches overflow
        for _ in range(3):
            for key, battle in keys.items():
                for header in (f"Bearer {key}", f"bearer  {key} "):
                    principal = await ring.resolve(header, battle)
                    assert principal.battle_id == battle
                    assert principal.actor.role == "referee"
                with pytest.raises(Forbidden):
                    await ring.resolve(f"Bearer {key}", "another-battle")
        for bad in ("Bearer", "Basic bk_key0", "bk_key0", "Bearer bk_unknown"):
            for _ in range(2):  # the second time too: a refused header is never remembered
                with pytest.raises(Unauthenticated):
                    await ring.resolve(bad, "b0")
    finally:
        await store.close()
