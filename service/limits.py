"""Limits against guessing keys and hoarding streams.

Failed authentications: every request whose key is not known counts against its client
address, in a fixed window (`BATTLE_AUTH_FAILURES` a minute, default 60). Past the
limit, every request from that address is refused with 429 (`Retry-After` and the
`RateLimit` headers) until the window ends, before any key is looked at, so a guesser
learns nothing more. With `BATTLE_REDIS_URL` the count is shared by all workers (INCR
in Redis, only on failures: a client that authenticates costs no round trip); each
worker remembers the addresses it found over the limit.

Streams: a key may hold `BATTLE_MAX_STREAMS_PER_KEY` open streams on one worker
(default 20); one more is refused with 429.

The address is the connection's peer: behind a proxy, every client has the proxy's.
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
from collections.abc import Iterator
from typing import Any

import redis.asyncio as aioredis
from litestar import Request
from litestar.types import Scope

from service.errors import TooManyRequests, Unauthenticated

__all__ = ["AuthFailureLimiter", "StreamCounter"]

log = logging.getLogger(__name__)
_WINDOW = 60  # seconds


def _address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class AuthFailureLimiter:
    """Counts failed authentications per client address; refuses an address past the limit."""

    def __init__(self, limit: int, redis_url: str | None = None, window: int = _WINDOW) -> None:
        self.limit = limit
        self.window = window
        self._redis: aioredis.Redis | None = (
            aioredis.Redis.from_url(redis_url) if redis_url else None
        )
        self._counts: dict[str, tuple[int, int]] = {}  # address -> (window start, failures)
        self._blocked: dict[str, float] = {}  # address -> blocked until (time.time())

    async def close(self) -> None:
        if self._redis is not None:
            await self._redis.aclose()

    async def before_request(self, request: Request[Any, Any, Any]) -> None:
        """Litestar `before_request` hook: 429 for an address over the limit."""
        if not self._blocked:
            return
        address = _address(request.scope)
        until = self._blocked.get(address)
        if until is None:
            return
        left = until - time.time()
        if left <= 0:
            del self._blocked[address]
            return
        raise self._refusal(left)

    async def after_exception(self, exc: Exception, scope: Scope) -> None:
        """Litestar `after_exception` hook: count a key that is not known."""
        if isinstance(exc, Unauthenticated) and exc.code == "unknown-key":
            await self.failed(_address(scope))

    async def failed(self, address: str) -> None:
        now = time.time()
        start = int(now // self.window) * self.window
        if self._redis is not None:
            key = f"battle:auth-failures:{address}:{start}"
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    pipe.incr(key)
                    pipe.expire(key, self.window + 1)
                    count = int((await pipe.execute())[0])
            except Exception:  # Redis down: count here, never fail the request for it
                log.warning("Redis unreachable: failed authentications counted per worker")
                count = self._count_locally(address, start)
        else:
            count = self._count_locally(address, start)
        if count >= self.limit:
            self._blocked[address] = start + self.window
            if len(self._blocked) > 100_000:  # bounded: drop the oldest half
                for old in sorted(self._blocked, key=self._blocked.__getitem__)[:50_000]:
                    del self._blocked[old]

    def _count_locally(self, address: str, start: int) -> int:
        seen_start, count = self._counts.get(address, (start, 0))
        count = count + 1 if seen_start == start else 1
        self._counts[address] = (start, count)
        if len(self._counts) > 100_000:
            self._counts = {a: c for a, c in self._counts.items() if c[0] == start}
        return count

    def _refusal(self, left: float) -> TooManyRequests:
        seconds = max(1, math.ceil(left))
        return TooManyRequests(
            f"too many requests with unknown keys from this address: wait {seconds} s",
            code="too-many-failed-authentications",
            headers={
                "Retry-After": str(seconds),
                "RateLimit-Policy": f"{self.limit}; w={self.window}",
                "RateLimit-Limit": str(self.limit),
                "RateLimit-Remaining": "0",
                "RateLimit-Reset": str(seconds),
            },
        )


class StreamCounter:
    """Open streams per key, in this worker; `open` refuses one past the cap."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._open: dict[Any, int] = {}

    @contextlib.contextmanager
    def open(self, key: Any) -> Iterator[None]:
        count = self._open.get(key, 0)
        if count >= self.cap:
            raise TooManyRequests(
                f"this key already holds {count} open streams on this worker (at most "
                f"{self.cap}): close one first",
                code="too-many-streams",
                headers={"Retry-After": "1"},
            )
        self._open[key] = count + 1
        try:
            yield
        finally:
            left = self._open[key] - 1
            if left:
                self._open[key] = left
            else:
                del self._open[key]
