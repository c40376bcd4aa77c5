"""bench.pg_writers: the bench-only rewrite without the counter row, and the table's arithmetic."""

from __future__ import annotations

import math

import pytest

from bench.pg_writers import NO_COUNTER, remove_counter, summary
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


def test_turns_sum_up_over_all_their_time_and_all_their_appends() -> None:
    cells = [
        {"latencies": [0.001] * 60 + [0.100], "wall": 1.0, "cpu": 0.0305},
        {"latencies": [0.003] * 39, "wall": 1.5, "cpu": 0.0195},
    ]
    figure = summary(cells)
    assert figure["appends"] == 100
    assert figure["rate"] == 40.0  # 100 appends in the 2.5 s of both turns
    assert figure["p50_ms"] == 1.0  # of all appends, not a median of the turns' medians
    assert figure["p99_ms"] == 100.0
    assert figure["cpu_us"] == pytest.approx(500.0)


def test_a_cell_without_appends_reads_as_none() -> None:
    figure = summary([{"latencies": [], "wall": 1.0, "cpu": 0.1}])
    assert figure["rate"] == 0.0 and math.isnan(figure["p50_ms"])
