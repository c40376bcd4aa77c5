"""bench.wrk_output: what bench.wrk reads from wrk's text, and the arithmetic of its table."""

from __future__ import annotations

import math

import pytest

from bench.wrk_output import combine, parse_bytes, parse_duration_us, parse_wrk, ratio

# Printed by wrk 4.1 (`wrk -t1 -c1 -d1s --latency`) against a route that answered 404
_OUT = """\
Running 1s test @ http://127.0.0.1:18777/nope
  1 threads and 1 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    14.66ms   36.74ms 187.94ms   88.86%
    Req/Sec     1.66k     1.04k    3.10k    66.67%
  Latency Distribution
     50%  280.00us
     75%    3.54ms
     90%   60.36ms
     99%  172.07ms
  1520 requests in 1.01s, 255.44KB read
  Socket errors: connect 0, read 1, write 0, timeout 0
  Non-2xx or 3xx responses: 1520
Requests/sec:   1512.04
Transfer/sec:    254.10KB
"""


def test_a_run_is_read_with_its_latency_distribution() -> None:
    run = parse_wrk(_OUT)
    assert run["rps"] == 1512.04
    assert run["requests"] == 1520
    assert run["non2xx"] == 1520
    assert run["errors"] == "connect 0, read 1, write 0, timeout 0"
    # the percentiles of the distribution, not the Thread Stats line's average or max
    assert run["p50_us"] == 280.0
    assert run["p99_us"] == 172_070.0
    assert run["bytes_per_request"] == pytest.approx(255.44 * 1024 / 1520)


def test_a_run_without_latency_or_failures() -> None:
    dropped = ("%  ", "Latency Distribution", "Socket errors", "Non-2xx")
    out = "\n".join(line for line in _OUT.splitlines() if not any(d in line for d in dropped))
    run = parse_wrk(out)
    assert (run["p50_us"], run["p99_us"], run["non2xx"], run["errors"]) == (None, None, 0, "")
    assert run["requests"] == 1520


def test_wrk_without_a_rate_is_an_error() -> None:
    with pytest.raises(ValueError, match="no rate"):
        parse_wrk("unable to connect to 127.0.0.1:1 Connection refused\n")


@pytest.mark.parametrize(
    ("text", "us"),
    [("449.00us", 449.0), ("1.02ms", 1020.0), ("2.00s", 2e6), ("1.50m", 90e6)],
)
def test_durations_in_wrk_units(text: str, us: float) -> None:
    assert parse_duration_us(text) == pytest.approx(us)


@pytest.mark.parametrize(
    ("text", "size"),
    [("512.00B", 512.0), ("502.67KB", 502.67 * 1024), ("1.50MB", 1.5 * 1024 * 1024)],
)
def test_sizes_in_wrk_binary_units(text: str, size: float) -> None:
    assert parse_bytes(text) == pytest.approx(size)


def test_unknown_units_are_refused() -> None:
    with pytest.raises(ValueError):
        parse_duration_us("3.00KB")
    with pytest.raises(ValueError):
        parse_bytes("3.00ms")


def _run(requests: int, cpu_us: float | None, p50: float, p99: float) -> dict[str, object]:
    return {
        "rps": requests / 2.0,
        "requests": requests,
        "non2xx": 1,
        "cpu_us": cpu_us,
        "p50_us": p50,
        "p99_us": p99,
        "bytes_per_request": 100.0,
    }


def test_turns_combine_over_the_whole_time_and_weight_cpu_by_requests() -> None:
    runs = [
        _run(1000, 100.0, 200.0, 900.0),
        _run(3000, 200.0, 300.0, 5000.0),
        _run(2000, None, 250.0, 1000.0),
    ]
    total = combine(runs, seconds=6.0)
    assert total["rps"] == 1000.0  # 6,000 requests in the 6 s of all turns
    assert total["requests"] == 6000
    assert total["non2xx"] == 3
    # (1000 * 100 + 3000 * 200) / 4000: the turn without a CPU figure left out
    assert total["cpu_us"] == 175.0
    # the median of the turns' percentiles: one slow turn does not make the p99
    assert (total["p50_us"], total["p99_us"]) == (250.0, 1000.0)
    assert total["bytes"] == 100.0


def test_turns_without_cpu_or_latency_figures_give_nan() -> None:
    run = {"rps": 10.0, "requests": 20, "non2xx": 0, "cpu_us": None}
    total = combine([run], seconds=2.0)
    assert total["rps"] == 10.0
    assert math.isnan(total["cpu_us"]) and math.isnan(total["p50_us"])


def test_ratios_divide_the_service_by_the_yardstick() -> None:
    service, floor, bare = {"rps": 2846.0}, {"rps": 5162.0}, {"rps": 8313.0}
    assert ratio(service, floor) == pytest.approx(0.551, abs=1e-3)
    assert ratio(service, bare) == pytest.approx(0.342, abs=1e-3)
    assert math.isnan(ratio(service, {"rps": 0.0}))
