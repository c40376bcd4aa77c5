"""What bench.wrk reads from wrk's output and the arithmetic of its table (pure, tested).

`parse_wrk` reads one run's text (`wrk --latency`); `combine` sums a server's runs (its
turns) into one figure; `ratio` divides the service's requests/s by a yardstick's.
"""

from __future__ import annotations

import re
import statistics
from typing import Any

__all__ = ["combine", "parse_bytes", "parse_duration_us", "parse_wrk", "ratio"]

_RPS = re.compile(r"Requests/sec:\s+([\d.]+)")
_TOTAL = re.compile(r"(\d+) requests in [\d.]+\w+, ([\d.]+\w+) read")
_NON2XX = re.compile(r"Non-2xx or 3xx responses: (\d+)")
_ERRORS = re.compile(r"Socket errors: (.*)")
# "Latency Distribution" lines: "     50%  449.00us"
_PERCENTILE = re.compile(r"^\s+(50|75|90|99)%\s+([\d.]+\w+)\s*$", re.MULTILINE)

# wrk's units (its units.c): times in us, ms, s, m, h; sizes binary, B to PB
_TIME_US = {"us": 1.0, "ms": 1e3, "s": 1e6, "m": 60e6, "h": 3600e6}
_SIZE = {"B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40, "PB": 1 << 50}
_NUMBER_UNIT = re.compile(r"^([\d.]+)([a-zA-Z]+)$")


def _split(text: str) -> tuple[float, str]:
    match = _NUMBER_UNIT.match(text.strip())
    if match is None:
        raise ValueError(f"not a number with a unit: {text!r}")
    return float(match.group(1)), match.group(2)


def parse_duration_us(text: str) -> float:
    """A wrk duration ("449.00us", "1.02ms", "2.00s") in microseconds."""
    value, unit = _split(text)
    if unit not in _TIME_US:
        raise ValueError(f"unknown time unit in {text!r}")
    return value * _TIME_US[unit]


def parse_bytes(text: str) -> float:
    """A wrk size ("502.67KB", "1.50MB", "512.00B") in bytes."""
    value, unit = _split(text)
    if unit not in _SIZE:
        raise ValueError(f"unknown size unit in {text!r}")
    return value * _SIZE[unit]


def parse_wrk(out: str) -> dict[str, Any]:
    """One run's figures: requests/s, requests, bytes read per request (answer with its
    head), non-2xx answers, socket errors, and the p50/p99 latency in microseconds
    (None where the run was not made with --latency)."""
    rps, total = _RPS.search(out), _TOTAL.search(out)
    if rps is None or total is None:
        raise ValueError(f"wrk printed no rate:\n{out}")
    non2xx, errors = _NON2XX.search(out), _ERRORS.search(out)
    requests = int(total.group(1))
    percentiles = {int(p): parse_duration_us(v) for p, v in _PERCENTILE.findall(out)}
    return {
        "rps": float(rps.group(1)),
        "requests": requests,
        "bytes_per_request": parse_bytes(total.group(2)) / requests if requests else 0.0,
        "non2xx": int(non2xx.group(1)) if non2xx else 0,
        "errors": errors.group(1) if errors else "",
        "p50_us": percentiles.get(50),
        "p99_us": percentiles.get(99),
    }


def _median(values: list[float | None]) -> float:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else float("nan")


def combine(runs: list[dict[str, Any]], seconds: float) -> dict[str, float]:
    """A server's runs (its turns, `seconds` in all) as one figure: requests/s over the
    whole time, CPU per request weighted by requests, and the median over the turns of
    each turn's p50 and p99 (a turn's distribution is not printed whole, so percentiles
    cannot be merged exactly)."""
    requests = sum(r["requests"] for r in runs)
    timed = [r for r in runs if r.get("cpu_us") is not None]
    cpu = sum(r["cpu_us"] * r["requests"] for r in timed)
    timed_requests = sum(r["requests"] for r in timed)
    return {
        "rps": requests / seconds if seconds > 0 else float("nan"),
        "requests": float(requests),
        "non2xx": float(sum(r["non2xx"] for r in runs)),
        "cpu_us": cpu / timed_requests if timed_requests else float("nan"),
        "p50_us": _median([r.get("p50_us") for r in runs]),
        "p99_us": _median([r.get("p99_us") for r in runs]),
        "bytes": sum(r.get("bytes_per_request", 0.0) * r["requests"] for r in runs) / requests
        if requests
        else float("nan"),
    }


def ratio(service: dict[str, float], yardstick: dict[str, float]) -> float:
    """The service's requests/s over the yardstick's (NaN when the yardstick did none)."""
    if not yardstick["rps"] > 0:
        return float("nan")
    return service["rps"] / yardstick["rps"]
