"""What a battle waits for (domain.prompts), as the service hands it to readers.

`awaiting_of` asks the ruleset (`Ruleset.awaiting`) for one actor's view of one state,
empty once the battle is over. `AwaitingCache` keeps the answer per (battle, version,
actor), so that the live streams, whose subscribers mostly share a few views (each side,
the referee, observers), compute it once per distinct view per version, whatever the
number of subscribers; a computation in flight is shared, not repeated. It is asked
by the readers (streams, the webhook outbox), never on the append path.

`for_units` narrows a view for a player key limited to some units (issue 34): it lists
only the prompts that key may answer, by the ruleset's own account of what a command
orders (`Ruleset.ordered_units`, as commands are judged), applied where the answer goes
out (a view, a command's answer, a stream), after the cache, so that the cache stays
per view.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from domain.actors import Actor
from domain.decider import Ruleset
from domain.ordering import ordered_fields
from domain.prompts import Prompt
from domain.rulesets import get_ruleset

__all__ = ["AwaitingCache", "awaiting_of", "for_units", "ordering_of"]

_Key = tuple[str, int, Actor]


def awaiting_of(ruleset: Ruleset[Any, Any, Any, Any, Any], game: Any, actor: Actor) -> list[Prompt]:
    """What `game` waits for in `actor`'s view: nothing once the battle is over."""
    if ruleset.is_over(game):
        return []
    return list(ruleset.awaiting(game, actor))


def for_units(
    prompts: list[Prompt],
    actor: Actor,
    units: tuple[str, ...] | None,
    ordering: Callable[[Any, Any], tuple[str, ...]] | None,
) -> list[Prompt]:
    """The prompts a key limited to `units` may answer (all of them when `units` is None):
    its own side's, for one of its units or for none in particular (a side's turn, which
    it takes with one of its units). `ordering` is the ruleset's `ordered_units`, what
    `check_units` judges a command by: a choice of a field that names what the prompt's
    commands order (domain.ordering) offers only the key's units, and a prompt with such a
    field left with none is dropped; any other field (a target, a unit joined) is kept
    whole. A ruleset that cannot tell (None) lets such a key answer nothing."""
    if units is None:
        return prompts
    if ordering is None:
        return []
    allowed = set(units)
    out: list[Prompt] = []
    for p in prompts:
        if p.role != "side" or p.side != actor.side:
            continue
        if p.subject is not None and p.subject not in allowed:
            continue
        ordered = {field for tag in p.commands for field in ordered_fields(ordering, tag)}
        choices = {
            field: [v for v in values if v in allowed] if field in ordered else values
            for field, values in p.choices.items()
        }
        if any(values and not choices[field] for field, values in p.choices.items()):
            continue  # it orders only units this key may not order: every answer refused
        out.append(p if choices == p.choices else msgspec.structs.replace(p, choices=choices))
    return out


def ordering_of(ruleset_id: str) -> Callable[[Any, Any], tuple[str, ...]] | None:
    """The `ordered_units` of the ruleset named `ruleset_id`, for `for_units` (None: an
    unknown ruleset, or one that cannot tell)."""
    ruleset = get_ruleset(ruleset_id)
    return None if ruleset is None else ruleset.ordered_units


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
