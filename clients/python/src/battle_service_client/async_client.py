"""The asyncio client: `AsyncBattleClient` and `AsyncBattle`, the same operations as the
blocking client (they drive the same flows, battle_service_client.protocol), awaited."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, TypeVar

import httpx

from battle_service_client.errors import problem_from
from battle_service_client.models import (
    AwaitingChange,
    BattleView,
    CommandResult,
    Created,
    Event,
    KeyInfo,
    MintedKey,
    NextDie,
    Reach,
    SealedEvent,
    UnknownEvent,
    decode_event,
)
from battle_service_client.protocol import (
    Answer,
    BattleCore,
    Call,
    CommandBody,
    Flow,
    create_flow,
)
from battle_service_client.sse import Dropped, SseParser, StreamCursor, StreamItem

__all__ = ["AsyncBattle", "AsyncBattleClient", "AsyncDicePrompt", "AsyncKeys", "AsyncTableDice"]

T = TypeVar("T")
# Asked for each die the service lacks (may be a coroutine: a player answering a page).
AsyncDicePrompt = Callable[[NextDie], int | Sequence[int] | Awaitable[int | Sequence[int]]]
_Callback = Callable[[Any], bool | Awaitable[bool | None] | None]
_RETRY_STATUS = frozenset({502, 503, 504})


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


class AsyncBattleClient:
    """As BattleClient, for asyncio."""

    def __init__(
        self,
        base_url: str,
        key: str | None = None,
        *,
        retries: int = 2,
        timeout: float = 30,
        http: httpx.AsyncClient | None = None,
    ) -> None:
        self.key = key
        self.retries = retries
        self.http = http or httpx.AsyncClient(base_url=base_url, timeout=timeout)

    async def __aenter__(self) -> AsyncBattleClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def run(self, flow: Flow[T], prompt: AsyncDicePrompt | None = None) -> T:
        try:
            step = next(flow)
            while True:
                if isinstance(step, NextDie):
                    if prompt is None:
                        raise TypeError("this flow asks for dice but no prompt was given")
                    step = flow.send(await _maybe_await(prompt(step)))
                else:
                    step = flow.send(await self._send(step))
        except StopIteration as done:
            result: T = done.value
            return result

    async def _send(self, call: Call) -> Answer:
        for attempt in range(self.retries + 1):
            last = attempt == self.retries or not call.retry_safe
            try:
                r = await self.http.request(
                    call.method, call.path, json=call.json, params=call.params, headers=call.headers
                )
            except httpx.TransportError:
                if last:
                    raise
            else:
                if r.status_code not in _RETRY_STATUS or last:
                    return Answer(r.status_code, r.headers, r.content)
            await asyncio.sleep(0.2 * 2**attempt)
        raise AssertionError("unreachable")

    async def create_battle(self, ruleset: str, setup: Any, **extra: Any) -> Created:
        return await self.run(create_flow(ruleset, setup, self.key, extra))

    def battle(self, battle_id: str, key: str, *, track_version: bool = False) -> AsyncBattle:
        return AsyncBattle(self, BattleCore(battle_id, key, track_version=track_version))


class AsyncKeys:
    def __init__(self, battle: AsyncBattle) -> None:
        self._b = battle

    async def mint(
        self,
        role: str,
        label: str,
        *,
        side: str | None = None,
        units: Sequence[str] | None = None,
        expires_at: str | None = None,
    ) -> MintedKey:
        flow = self._b.core.mint_flow(role, label, side, units, expires_at)
        return await self._b.client.run(flow)

    async def list(self) -> list[KeyInfo]:
        return await self._b.client.run(self._b.core.list_keys_flow())

    async def revoke(self, key_id: str) -> None:
        await self._b.client.run(self._b.core.revoke_flow(key_id))


class AsyncTableDice:
    def __init__(self, battle: AsyncBattle, prompt: AsyncDicePrompt) -> None:
        self._b, self._prompt = battle, prompt

    async def command(
        self,
        command: CommandBody,
        dice: Sequence[int] = (),
        expected_version: int | None = None,
    ) -> CommandResult:
        flow = self._b.core.table_dice_flow(command, dice, expected_version)
        return await self._b.client.run(flow, self._prompt)

    async def batch(
        self, commands: Sequence[CommandBody], expected_version: int | None = None
    ) -> CommandResult:
        flow = self._b.core.table_dice_batch_flow(commands, expected_version)
        return await self._b.client.run(flow, self._prompt)


class AsyncBattle:
    """As Battle, for asyncio."""

    def __init__(self, client: AsyncBattleClient, core: BattleCore) -> None:
        self.client = client
        self.core = core
        self.keys = AsyncKeys(self)

    @property
    def id(self) -> str:
        return self.core.id

    @property
    def version(self) -> int | None:
        return self.core.version

    async def view(self) -> BattleView:
        return await self.client.run(self.core.view_flow())

    async def command(
        self,
        command: CommandBody,
        dice: Sequence[int] | None = None,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        client_seed: str | None = None,
    ) -> CommandResult:
        flow = self.core.command_flow(command, dice, expected_version, idempotency_key, client_seed)
        return await self.client.run(flow)

    async def batch(
        self,
        commands: Sequence[CommandBody],
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> CommandResult:
        flow = self.core.batch_flow(commands, expected_version, idempotency_key)
        return await self.client.run(flow)

    async def reach(self, unit: str) -> Reach:
        return await self.client.run(self.core.reach_flow(unit))

    def with_table_dice(self, prompt: AsyncDicePrompt) -> AsyncTableDice:
        return AsyncTableDice(self, prompt)

    async def events(
        self, after: int = 0, limit: int = 500
    ) -> list[Event | SealedEvent | UnknownEvent]:
        out: list[Event | SealedEvent | UnknownEvent] = []
        cursor: int | None = after
        while cursor is not None:
            page, cursor = await self.client.run(self.core.events_flow(cursor, limit))
            out += [decode_event(e) for e in page]
        return out

    async def stream(self, after: int = 0, *, reconnect: bool = True) -> AsyncIterator[StreamItem]:
        """As Battle.stream: each event once, in order, resumed after a drop."""
        cursor = StreamCursor(after)
        path = f"/battles/{self.id}/events/stream"
        while True:
            parser = SseParser()
            try:
                headers = {**self.core.auth(), **cursor.headers()}
                async with self.client.http.stream("GET", path, headers=headers) as r:
                    if r.status_code >= 400:
                        raise problem_from(r.status_code, await r.aread())
                    cursor.connects += 1
                    async for line in r.aiter_lines():
                        frame = parser.feed(line)
                        item = cursor.accept(frame) if frame else None
                        if isinstance(item, Event | SealedEvent | UnknownEvent):
                            self.core.seen(item.version)
                        if item is not None:
                            yield item
            except httpx.TransportError:
                pass  # dropped: resume below
            except Dropped as e:  # ended with a problem that is not final (a 503): resume
                if not reconnect:
                    raise e.problem from None
            if not reconnect:
                return
            await asyncio.sleep((parser.retry_ms or 1000) / 1000)

    async def subscribe(
        self,
        on_event: _Callback,
        on_awaiting: _Callback | None = None,
        after: int = 0,
    ) -> None:
        """Call `on_event` for each event (Event or SealedEvent) and `on_awaiting` for each
        AwaitingChange (either may be a coroutine) until one returns False."""
        async for item in self.stream(after):
            if isinstance(item, AwaitingChange):
                if on_awaiting is not None and await _maybe_await(on_awaiting(item)) is False:
                    return
            elif await _maybe_await(on_event(item)) is False:
                return
