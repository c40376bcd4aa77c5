"""The battle cache: least recently used out first, by the bytes its entries are estimated
to hold, re-estimated when an entry is used (a cached battle grows with its commands)."""

from __future__ import annotations

from service.battles.cache import ByteLRU


class Sized:
    def __init__(self, size: int) -> None:
        self.size = size


def _lru(budget: int) -> ByteLRU[Sized]:
    return ByteLRU(budget, lambda entry: entry.size)


def test_the_least_recently_used_go_first_when_the_bytes_exceed_the_budget() -> None:
    lru = _lru(100)
    a, b, c = Sized(40), Sized(40), Sized(10)
    lru.put("a", a)
    lru.put("b", b)
    lru.put("c", c)
    assert lru.total == 90 and len(lru) == 3

    lru.move_to_end("a")  # b is now the least recently used
    lru.put("d", Sized(30))

    assert list(lru) == ["c", "a", "d"]
    assert lru.total == 80
    assert lru.evictions == 1


def test_many_small_entries_fit_where_one_big_one_does_not() -> None:
    lru = _lru(1000)
    for i in range(50):
        lru.put(f"small{i}", Sized(10))
    assert len(lru) == 50

    lru.put("big", Sized(900))

    assert "big" in lru
    assert lru.total <= 1000
    assert len(lru) == 1 + 10  # the 10 most recent small ones are left beside it


def test_an_entry_that_grew_is_measured_again_when_used() -> None:
    lru = _lru(100)
    first, second = Sized(30), Sized(30)
    lru.put("first", first)
    lru.put("second", second)

    second.size = 80  # its battle took many commands
    lru.move_to_end("second")

    assert list(lru) == ["second"]
    assert lru.total == 80


def test_the_entry_just_used_stays_even_when_it_alone_exceeds_the_budget() -> None:
    lru = _lru(50)
    lru.put("small", Sized(10))
    huge = Sized(500)

    assert lru.put("huge", huge) is huge

    assert list(lru) == ["huge"]
    assert lru.get("huge") is huge


def test_putting_a_key_already_there_keeps_the_first_value() -> None:
    lru = _lru(100)
    first = Sized(10)
    lru.put("k", first)

    assert lru.put("k", Sized(20)) is first
    assert lru.total == 10
    assert lru.pop("k") is first and lru.total == 0
