"""The battles a process keeps folded in memory: least recently used first out, bounded by
an estimate of their size in bytes (BATTLE_CACHE_MB), not by their number.

A cached battle holds its current state, the decoded events of its recent tail and a
few marks (states every `snapshot_every` versions) over them: `trim` drops the older
ones, which a read of an older version or an undo past them reads again from the store
(from the nearest stored snapshot). So a battle of 100,000 events costs about what one
of a thousand does.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from domain.battle import Timeline

__all__ = [
    "DEFAULT_CACHE_MB",
    "KEEP_VERSIONS",
    "ByteLRU",
    "timeline_bytes",
]

DEFAULT_CACHE_MB = 256
# Versions of recent history a cached battle keeps decoded (undo and reads of the last
# few hundred versions stay in memory); older ones are read again from the store.
KEEP_VERSIONS = 512

# The estimate, from the measurement (about 463 bytes per decoded event, 27 KiB
# for a small battle): a decoded event, a mark (a state mostly shared with its
# neighbours) and what every battle holds besides (state, metadata, lock, seeds).
_EVENT_BYTES = 500
_MARK_BYTES = 4096
_BATTLE_BYTES = 16384

V = TypeVar("V")


def timeline_bytes(timeline: Timeline) -> int:
    """An estimate of the memory a folded battle holds."""
    events, marks = timeline.held
    return _BATTLE_BYTES + events * _EVENT_BYTES + marks * _MARK_BYTES


class ByteLRU(Generic[V]):
    """A map that evicts its least recently used entries while their estimated sizes add up
    to more than `budget` bytes. The entry just used is never evicted (a battle bigger
    than the budget still works; it is dropped when another is used).

    `size_of` is asked again whenever an entry is used (`move_to_end`) or stored: what a
    cached battle holds grows with its commands.
    """

    def __init__(self, budget: int, size_of: Callable[[V], int]) -> None:
        self.budget = budget
        self._size_of = size_of
        self._entries: OrderedDict[str, V] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self.total = 0  # the sum of the sizes of the entries, as last estimated
        self.evictions = 0

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __getitem__(self, key: str) -> V:
        return self._entries[key]

    def get(self, key: str) -> V | None:
        """The entry, without counting it as used."""
        return self._entries.get(key)

    def move_to_end(self, key: str) -> None:
        """Count the entry as used now; estimate its size again."""
        self._entries.move_to_end(key)
        self._resize(key)

    def put(self, key: str, value: V) -> V:
        """Store `value` unless `key` is already there; the entry kept is returned."""
        existing = self._entries.get(key)
        if existing is not None:
            self.move_to_end(key)
            return existing
        self._entries[key] = value
        self._sizes[key] = 0
        self._resize(key)
        return value

    def pop(self, key: str) -> V | None:
        value = self._entries.pop(key, None)
        self.total -= self._sizes.pop(key, 0)
        return value

    def _resize(self, key: str) -> None:
        size = self._size_of(self._entries[key])
        self.total += size - self._sizes[key]
        self._sizes[key] = size
        entries = self._entries
        while self.total > self.budget and len(entries) > 1:
            oldest = next(iter(entries))
            if oldest == key:  # only the entry just used is left under the budget's weight
                break
            del entries[oldest]
            self.total -= self._sizes.pop(oldest)
            self.evictions += 1
