"""bench.pg_writers: the bench-only rewrite of battle_try_append_many without the counter row."""

from __future__ import annotations

import pytest

from bench.pg_writers import NO_COUNTER, remove_counter
from events.migrate import migrations


def _current_definition() -> str:
    """battle_try_append_many as the last migration that (re)defines it creates it."""
    defining = [m.sql for m in migrations() if "CREATE FUNCTION battle_try_append_many" in m.sql]
    sql = defining[-1]
    return sql[sql.index("CREATE FUNCTION battle_try_append_many") :]


def test_the_rewrite_takes_positions_from_a_sequence_and_never_touches_the_counter() -> None:
    rewritten = remove_counter(_current_definition())
    assert "event_position" not in rewritten  # neither locked nor updated
    assert "FOR UPDATE" not in rewritten
    assert rewritten.count("nextval('bench_positions')") == 1
    # the position is taken before the insert that uses it, once per append
    assert rewritten.index("nextval('bench_positions')") < rewritten.index(
        "INSERT INTO events (position,"
    )
    # everything else (the checks, the insert, the answers) is the store's own
    assert (
        rewritten.replace(NO_COUNTER[1][1], NO_COUNTER[1][0])
        .replace(NO_COUNTER[0][1], NO_COUNTER[0][0])
        .replace(NO_COUNTER[2][1], NO_COUNTER[2][0])
        == _current_definition()
    )


@pytest.mark.parametrize("missing", [old for old, _ in NO_COUNTER])
def test_a_definition_that_no_longer_says_a_line_stops_the_bench(missing: str) -> None:
    with pytest.raises(RuntimeError, match="must follow the migration"):
        remove_counter(_current_definition().replace(missing, "-- gone"))


def test_a_line_said_twice_stops_the_bench() -> None:
    old = NO_COUNTER[0][0]
    with pytest.raises(RuntimeError, match="2 times"):
        remove_counter(_current_definition().replace(old, old + "\n" + old))
