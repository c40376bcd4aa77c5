"""The fan-out doorbell across workers: Redis Pub/Sub carrying the last appended position.

Pub/Sub is at-most-once and that is enough here: a message only rings the hubs, which
then read the events from the store. A hub that misses messages (Redis restarted, the
worker reconnecting) rings itself on reconnect and polls the store meanwhile, so it
catches up by position and loses nothing.

A player key's revocation travels on a second channel (`<channel>:keys`, the key id as
the message): every worker's streams of that key check it against the store and end.
It is a doorbell too: the store says whether the key is revoked, so a lost message only
delays the end (streams also check on reconnect and periodically, service.live.fanout).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from service.live.fanout import Recheck

__all__ = ["CHANNEL", "RedisDoorbell"]

CHANNEL = "battle-service:appended"
log = logging.getLogger(__name__)


class RedisDoorbell:
    """Publishes after each local append; rings the local hub on every worker's publish."""

    def __init__(self, url: str, channel: str = CHANNEL, *, retry_after: float = 0.5) -> None:
        self._url = url
        self._channel = channel
        self._keys_channel = channel + ":keys"
        self._retry_after = retry_after
        # The listener blocks on the socket for as long as no one appends: no read timeout.
        self._listener = aioredis.Redis.from_url(url, socket_timeout=None)
        self._publisher = aioredis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self._task: asyncio.Task[None] | None = None
        self._sends: set[asyncio.Task[None]] = set()
        self.connected = asyncio.Event()

    async def start(self, ring: Callable[[], None], recheck: Recheck | None = None) -> None:
        self._task = asyncio.create_task(self._listen(ring, recheck), name="redis-doorbell")

    def announce(self, position: int) -> None:
        self._send(self._channel, str(position))

    def revoked(self, key_id: str) -> None:
        self._send(self._keys_channel, key_id)

    def _send(self, channel: str, message: str) -> None:
        # Fire and forget: the answer does not wait for Redis.
        task = asyncio.create_task(self._publish(channel, message))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    async def _publish(self, channel: str, message: str) -> None:
        try:
            await self._publisher.publish(channel, message)
        except RedisError as e:  # the other workers' polling delivers it a little later
            log.warning("could not publish to Redis: %s", e)

    async def _listen(self, ring: Callable[[], None], recheck: Recheck | None) -> None:
        keys_channel = self._keys_channel.encode()
        while True:
            pubsub = self._listener.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self._channel, self._keys_channel)
                self.connected.set()
                ring()  # anything appended while we were away is read now
                if recheck is not None:
                    recheck(None)  # and any key revoked meanwhile is checked now
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    if message.get("channel") == keys_channel:
                        if recheck is not None:
                            recheck(bytes(message["data"]).decode(errors="replace"))
                    else:
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
