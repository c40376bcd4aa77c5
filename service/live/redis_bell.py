"""The fan-out doorbell across workers: Redis Pub/Sub carrying the last appended position.

Pub/Sub is at-most-once and that is enough here: a message only rings the hubs, which
then read the events from the store. A hub that misses messages (Redis restarted, the
worker reconnecting) rings itself on reconnect and polls the store meanwhile, so it
catches up by position and loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import redis.asyncio as aioredis
from redis.exceptions import RedisError

__all__ = ["CHANNEL", "RedisDoorbell"]

CHANNEL = "battle-service:appended"
log = logging.getLogger(__name__)


class RedisDoorbell:
    """Publishes after each local append; rings the local hub on every worker's publish."""

    def __init__(self, url: str, channel: str = CHANNEL, *, retry_after: float = 0.5) -> None:
        self._url = url
        self._channel = channel
        self._retry_after = retry_after
        # The listener blocks on the socket for as long as no one appends: no read timeout.
        self._listener = aioredis.Redis.from_url(url, socket_timeout=None)
        self._publisher = aioredis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self._task: asyncio.Task[None] | None = None
        self._sends: set[asyncio.Task[None]] = set()
        self.connected = asyncio.Event()

    async def start(self, ring: Callable[[], None]) -> None:
        self._task = asyncio.create_task(self._listen(ring), name="redis-doorbell")

    def announce(self, position: int) -> None:
        # Fire and forget: the command's answer does not wait for Redis.
        task = asyncio.create_task(self._publish(position))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    async def _publish(self, position: int) -> None:
        try:
            await self._publisher.publish(self._channel, str(position))
        except RedisError as e:  # the other workers' polling delivers it a little later
            log.warning("could not publish to Redis: %s", e)

    async def _listen(self, ring: Callable[[], None]) -> None:
        while True:
            pubsub = self._listener.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self._channel)
                self.connected.set()
                ring()  # anything appended while we were away is read now
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        ring()
            except (RedisError, OSError) as e:
                self.connected.clear()
                log.warning("Redis fan-out lost (%s); retrying in %.1fs", e, self._retry_after)
                await asyncio.sleep(self._retry_after)
            finally:
                with contextlib.suppress(RedisError, OSError):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for task in tuple(self._sends):
            with contextlib.suppress(Exception):
                await task
        await self._listener.aclose()
        await self._publisher.aclose()
