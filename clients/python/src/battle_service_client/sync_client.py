"""The blocking client: `BattleClient` (create battles, open one) and `Battle` (view,
command, batch, reach, player keys, the table-dice loop, a live stream that resumes)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
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

__all__ = ["Battle", "BattleClient", "DicePrompt", "Keys", "TableDice"]

T = TypeVar("T")
# Asked for each die the service lacks; answers one int, or a list of `count` ints.
DicePrompt = Callable[[NextDie], int | Sequence[int]]
_RETRY_STATUS = frozenset({502, 503, 504})


class BattleClient:
    """The service at `base_url`; `key` (optional) is an integration key, sent when
    creating battles (they then belong to the integration)."""

    def __init__(
        self,
        base_url: str,
        key: str | None = None,
        *,
        retries: int = 2,
        timeout: float = 30,
        http: httpx.Client | None = None,
    ) -> None:
        self.key = key
        self.retries = retries
        self.http = http or httpx.Client(base_url=base_url, timeout=timeout)

    def __enter__(self) -> BattleClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.http.close()

    def run(self, flow: Flow[T], prompt: DicePrompt | None = None) -> T:
        """Drive a flow: send its calls (a dropped connection or a 502/503/504 retried,
        with the same Idempotency-Key) and ask `prompt` for its dice."""
        try:
            step = next(flow)
            while True:
                if isinstance(step, NextDie):
                    if prompt is None:
                        raise TypeError("this flow asks for dice but no prompt was given")
                    step = flow.send(prompt(step))
                else:
                    step = flow.send(self._send(step))
        except StopIteration as done:
            result: T = done.value
            return result

    def _send(self, call: Call) -> Answer:
        for attempt in range(self.retries + 1):
            last = attempt == self.retries or not call.retry_safe
            try:
                r = self.http.request(
                    call.method, call.path, json=call.json, params=call.params, headers=call.headers
                )
            except httpx.TransportError:
                if last:
                    raise
            else:
                if r.status_code not in _RETRY_STATUS or last:
                    return Answer(r.status_code, r.headers, r.content)
            time.sleep(0.2 * 2**attempt)
        raise AssertionError("unreachable")

    def create_battle(self, ruleset: str, setup: Any, **extra: Any) -> Created:
        """Create a battle (`extra`: title, options, client_dice, ...)."""
        return self.run(create_flow(ruleset, setup, self.key, extra))

    def battle(self, battle_id: str, key: str, *, track_version: bool = False) -> Battle:
        """A handle on a battle, acting with `key` (referee, side, observer or player key).
        `track_version`: send the last version seen as `expected_version` by default."""
        return Battle(self, BattleCore(battle_id, key, track_version=track_version))


class Keys:
    """A battle's player keys (the referee's or the integration's key manages them)."""

    def __init__(self, battle: Battle) -> None:
        self._b = battle

    def mint(
        self,
        role: str,
        label: str,
        *,
        side: str | None = None,
        units: Sequence[str] | None = None,
        expires_at: str | None = None,
    ) -> MintedKey:
        return self._b.client.run(self._b.core.mint_flow(role, label, side, units, expires_at))

    def list(self) -> list[KeyInfo]:
        return self._b.client.run(self._b.core.list_keys_flow())

    def revoke(self, key_id: str) -> None:
        self._b.client.run(self._b.core.revoke_flow(key_id))


class TableDice:
    """Commands sent with table dice: each `next_die` the service answers is asked of
    `prompt` and the command sent again with it."""

    def __init__(self, battle: Battle, prompt: DicePrompt) -> None:
        self._b, self._prompt = battle, prompt

    def command(
        self,
        command: CommandBody,
        dice: Sequence[int] = (),
        expected_version: int | None = None,
    ) -> CommandResult:
        flow = self._b.core.table_dice_flow(command, dice, expected_version)
        return self._b.client.run(flow, self._prompt)

    def batch(
        self, commands: Sequence[CommandBody], expected_version: int | None = None
    ) -> CommandResult:
        flow = self._b.core.table_dice_batch_flow(commands, expected_version)
        return self._b.client.run(flow, self._prompt)


class Battle:
    """One battle, seen and ordered with one key."""

    def __init__(self, client: BattleClient, core: BattleCore) -> None:
        self.client = client
        self.core = core
        self.keys = Keys(self)

    @property
    def id(self) -> str:
        return self.core.id

    @property
    def version(self) -> int | None:
        """The last version an answer showed."""
        return self.core.version

    def view(self) -> BattleView:
        return self.client.run(self.core.view_flow())

    def command(
        self,
        command: CommandBody,
        dice: Sequence[int] | None = None,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        client_seed: str | None = None,
    ) -> CommandResult:
        """Send one command. An Idempotency-Key is made for this call (reused when a
        dropped connection makes it send again) unless given."""
        flow = self.core.command_flow(command, dice, expected_version, idempotency_key, client_seed)
        return self.client.run(flow)

    def batch(
        self,
        commands: Sequence[CommandBody],
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> CommandResult:
        """Several commands, all or none (a refusal's ProblemError.index names the one)."""
        return self.client.run(self.core.batch_flow(commands, expected_version, idempotency_key))

    def reach(self, unit: str) -> Reach:
        return self.client.run(self.core.reach_flow(unit))

    def with_table_dice(self, prompt: DicePrompt) -> TableDice:
        return TableDice(self, prompt)

    def events(self, after: int = 0, limit: int = 500) -> list[Event | SealedEvent | UnknownEvent]:
        """Every event after version `after`, page by page."""
        out: list[Event | SealedEvent | UnknownEvent] = []
        cursor: int | None = after
        while cursor is not None:
            page, cursor = self.client.run(self.core.events_flow(cursor, limit))
            out += [decode_event(e) for e in page]
        return out

    def stream(self, after: int = 0, *, reconnect: bool = True) -> Iterator[StreamItem]:
        """The battle's events after version `after`, live, each once and in order, and an
        AwaitingChange when what the battle awaits (in this key's view) changes. A dropped
        connection is resumed from the last event delivered (`Last-Event-ID`)."""
        cursor = StreamCursor(after)
        path = f"/battles/{self.id}/events/stream"
        while True:
            parser = SseParser()
            try:
                headers = {**self.core.auth(), **cursor.headers()}
                with self.client.http.stream("GET", path, headers=headers) as r:
                    if r.status_code >= 400:
                        raise problem_from(r.status_code, r.read())
                    cursor.connects += 1
                    for line in r.iter_lines():
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
            time.sleep((parser.retry_ms or 1000) / 1000)

    def subscribe(
        self,
        on_event: Callable[[Event | SealedEvent | UnknownEvent], bool | None],
        on_awaiting: Callable[[AwaitingChange], bool | None] | None = None,
        after: int = 0,
    ) -> None:
        """Call `on_event` for each event and `on_awaiting` when awaiting changes, until
        one of them returns False."""
        for item in self.stream(after):
            if isinstance(item, AwaitingChange):
                if on_awaiting is not None and on_awaiting(item) is False:
                    return
            elif on_event(item) is False:
                return
