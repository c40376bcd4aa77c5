"""What a battle waits for (domain.prompts), as the service hands it to readers.

`awaiting_of` asks the ruleset (`Ruleset.awaiting`) for one actor's view of one state,
empty once the battle is over. `AwaitingCache` keeps the answer per (battle, version,
actor), so that the live streams, whose subscribers mostly share a few views (each side,
the referee, observers), compute it once per distinct view per version, whatever the
number of subscribers; a computation in flight is shared, not repeated. It is asked
by the readers (streams, the webhook outbox), never on the append path.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from domain.actors import Actor
from domain.decider import Ruleset
from domain.prompts import Prompt

__all__ = ["AwaitingCache", "awaiting_of"]

_Key = tuple[str, int, Actor]


def awaiting_of(ruleset: Ruleset[Any, Any, Any, Any, Any], game: Any, actor: Actor) -> list[Prompt]:
    """What `game` waits for in `actor`'s view: nothing once the battle is over."""
    if ruleset.is_over(game):
        return []
    return list(ruleset.awaiting(game, actor))


class AwaitingCache:
    """The prompts of recent (battle, version, actor) views, least recently used dropped."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._done: OrderedDict[_Key, list[Prompt]] = OrderedDict()
        self._running: dict[_Key, asyncio.Future[list[Prompt]]] = {}
        self.computed = 0  # how many views were computed (not served from the cache)

    def put(self, battle_id: str, version: int, actor: Actor, prompts: list[Prompt]) -> None:
        key = (battle_id, version, actor)
        self._done[key] = prompts
        self._done.move_to_end(key)
        while len(self._done) > self._size:
            self._done.popitem(last=False)

    async def get(
        self,
        battle_id: str,
        version: int,
        actor: Actor,
        compute: Callable[[], Awaitable[list[Prompt]]],
    ) -> list[Prompt]:
        """The cached prompts, else `compute()`'s, once for every caller asking meanwhile."""
        key = (battle_id, version, actor)
        found = self._done.get(key)
        if found is not None:
            self._done.move_to_end(key)
            return found
        running = self._running.get(key)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[list[Prompt]] = asyncio.get_running_loop().create_future()
        self._running[key] = future
        try:
            prompts = await compute()
        except asyncio.CancelledError:
            future.cancel()  # whoever waits on it asks again
            raise
        except Exception as e:
            future.set_exception(e)
            future.exception()  # retrieved: a future nobody else awaited must not warn
            raise
        finally:
            self._running.pop(key, None)
        self.computed += 1
        future.set_result(prompts)
        self.put(battle_id, version, actor, prompts)
        return prompts
