"""Live event streams: Server-Sent Events and a WebSocket per battle, and both across battles.

Every stream starts after a cursor (`Last-Event-ID`, or `?after=`), catches up from the
store, then goes live through the process's fan-out `Hub` with no gap and no duplicate
(`service.live.fanout.follow`). On a battle's streams the cursor is the battle version; on
`/events/stream` and `/events/ws` it is the global position. An SSE frame names the
event's type (`event:`; `sealed` for a sealed one), so that clients subscribe by type.
Once a stream has handed over what was committed (after its catch-up, after each live
batch), it says what each battle it carried events of awaits now in the caller's view
(SSE `event: awaiting`, WebSocket `{"kind": "awaiting", ...}`), when that changed since
the version before the first event it carried of that battle; the prompts are computed
once per view and version (service.battles.awaiting), not per subscriber.
Events the caller may not see are sent sealed, like on every other read
(`service.battles.sealing`); on the streams across battles a sealed event
still carries its position as its id, so that a reconnect neither skips nor repeats it.
A stream opened with a player key ends when that key is revoked (on any worker) or
expires: it checks the key against the store whenever a revocation of it is announced
(service.live.fanout), once subscribed, at its expiry, and every `RECHECK_SECONDS` (in
the catch-up too), and hands over nothing appended after the check failed. When the
check fails, SSE sends one `event: problem` message (the 401 problem+json, `revoked-key`
or `expired-key`) and ends; a WebSocket sends the same `{"kind": "problem", ...}`
message and closes with 4401 (4000 + the status), as it does for a stream refused at its
start. A client must not reconnect with that key. While the store cannot answer the
check, the stream hands over nothing but heartbeats until it can (it fails closed, and
the documented end stays the only problem message a stream sends).
Browsers cannot set headers on EventSource or WebSocket, so
the key may also come as `?access_key=` (it then appears in access logs: prefer the
header where the client allows it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from typing import Annotated, Any

import anyio
import msgspec
from litestar import WebSocket, get, websocket
from litestar.datastructures import State
from litestar.exceptions import WebSocketDisconnect
from litestar.params import HeaderParameter, PathParameter, QueryParameter
from litestar.response import ServerSentEvent
from litestar.response.sse import ServerSentEventMessage

from domain.actors import Actor, can_see
from domain.prompts import Prompt
from events.envelope import StoredEvent
from events.errors import StoreUnavailable
from service.battles.awaiting import for_units, ordering_of
from service.battles.keys import Principal
from service.battles.sealing import event_out, sealed_out
from service.battles.service import BattleService
from service.errors import BadRequest, NotFound, ServiceError
from service.http.cors import origin_refusal
from service.http.limits import (
    AuthFailures,
    StreamSlot,
    StreamSlots,
    TooManyStreams,
    client_address,
)
from service.http.problems import problem_type
from service.http.routes import (
    MAX_VERSION,
    SECURED,
    AppRequest,
    Authorization,
    BattleId,
    problems,
    service_of,
)
from service.live.fanout import Check, Hub, Idle, follow
from service.schemas import AwaitingMessage, EventOut, SealedEventOut

__all__ = ["CHECK_RETRY_SECONDS", "RECHECK_SECONDS", "STREAM_ROUTES", "KeyRefused"]

log = logging.getLogger(__name__)
_encode = msgspec.json.Encoder().encode
_PAGE = 500
# How often a player key's stream reads its key again even when no revocation was
# announced: the bound on how long a lost Redis message lets a revoked key keep a stream.
RECHECK_SECONDS = 15.0
# How often a stream whose key could not be checked (the store unavailable) asks again;
# it hands over nothing meanwhile.
CHECK_RETRY_SECONDS = 2.0

LastEventId = Annotated[
    str | None,
    HeaderParameter(
        name="Last-Event-ID",
        required=False,
        description="Resume after this id (what the last event received carried)",
    ),
]
After = Annotated[
    int | None,
    # gt=-1, not ge=0: Litestar documents an optional parameter's bound only when it is
    # truthy, so ge=0 left the OpenAPI document without a minimum.
    QueryParameter(
        gt=-1, le=MAX_VERSION, required=False, description="Start after this id (0: from the start)"
    ),
]
AccessKey = Annotated[
    str | None,
    QueryParameter(
        required=False,
        min_length=1,
        description="The access key, for clients that cannot send Authorization",
    ),
]


def _parse_cursor(last_event_id: str | None, after: int | None) -> int:
    """`Last-Event-ID` (a reconnect) wins over `?after=`; both default to 0."""
    if last_event_id is None:
        return after or 0
    text = last_event_id.strip()
    if not text.isdigit() or len(text) > 16 or int(text) > MAX_VERSION:
        raise BadRequest(
            f"Last-Event-ID must be the id of an event received (a non-negative integer), "
            f"not {last_event_id[:40]!r}",
            code="invalid-last-event-id",
        )
    return int(text)


def _authorization(header: str | None, access_key: str | None) -> str | None:
    return header if header else (f"Bearer {access_key}" if access_key else None)


class _KeyGuard:
    """A player key's stream: the key's id, its expiry as a loop time, and `check`, which
    reads the key again and raises the 401 when it no longer opens the stream."""

    __slots__ = ("check", "expires", "key_id")

    def __init__(
        self, key_id: str, expires: float | None, check: Callable[[], Awaitable[object]]
    ) -> None:
        self.key_id = key_id
        self.expires = expires
        self.check = check


def _awaiting(
    service: BattleService, principal: Principal
) -> Callable[[str, Actor, int], Awaitable[list[Prompt]]]:
    """What a battle awaits at a version, as the key is told it: a player key limited to
    some units hears only the prompts it may answer (service.battles.awaiting)."""
    units = principal.units
    if units is None:
        return service.awaiting

    async def narrowed(battle_id: str, actor: Actor, version: int) -> list[Prompt]:
        prompts = await service.awaiting(battle_id, actor, version)
        ordering = ordering_of(await service.ruleset_of(battle_id))
        return for_units(prompts, actor, units, ordering)

    return narrowed


def _guard(
    service: BattleService, principal: Principal, authorization: str | None, battle_id: str | None
) -> _KeyGuard | None:
    """What ends the stream of a player key (None for the other keys: they are never
    revoked). `battle_id`: the battle stream's; None for the stream across battles."""
    if principal.key_id is None:
        return None

    async def check() -> object:
        if battle_id is None:
            return await service.keys.principal(authorization)
        return await service.keys.resolve(authorization, battle_id)

    expires = None
    if principal.expires_at is not None:
        left = (principal.expires_at - datetime.now(UTC)).total_seconds()
        expires = asyncio.get_running_loop().time() + max(0.0, left)
    return _KeyGuard(principal.key_id, expires, check)


class _Stream:
    """What a stream follows: the events it accepts, how to catch up, its cursor."""

    def __init__(
        self,
        actor: Actor,
        accepts: Callable[[StoredEvent], bool],
        catch_up: Callable[[int], Any],
        cursor: Callable[[StoredEvent], int],
        after: int,
        unsealed_upto: Callable[[str], Awaitable[int]],
        ruleset_of: Callable[[str], Awaitable[str]],
        keep: Callable[[StoredEvent], Awaitable[bool]] | None = None,
        awaiting: Callable[[str, Actor, int], Awaitable[list[Prompt]]] | None = None,
        guard: _KeyGuard | None = None,
    ) -> None:
        self.guard = guard  # a player key's: the stream ends when the key is revoked
        self.actor = actor
        self.accepts = accepts
        self.catch_up = catch_up
        self.cursor = cursor
        self.after = after
        self.unsealed_upto = unsealed_upto  # a battle's `BattleService.unsealed_upto`
        self.ruleset_of = ruleset_of  # a battle's `BattleService.ruleset_of`
        self.keep = keep  # a second, asynchronous filter (one that must ask the store)
        self.awaiting = awaiting  # `BattleService.awaiting`: what a battle awaits at a version

    async def events(
        self, hub: Hub
    ) -> AsyncIterator[tuple[StoredEvent, EventOut | SealedEventOut] | AwaitingMessage | None]:
        """Events in order, each with what the caller is given of it, whole or sealed, and
        what a battle awaits when that changed (None: nothing for a while, time for a
        heartbeat). Raises `KeyRefused` (the 401) when the stream's player key was revoked
        or expired (nothing appended after that check is handed over)."""
        keep, actor, guard = self.keep, self.actor, self.guard
        ended: dict[str, int] = {}  # battle -> the last version known to be unsealed for all
        touched: dict[str, int] = {}  # battle -> its last version carried since the last idle
        told = _Told()
        marked = self.awaiting is not None
        rulesets: dict[str, str] = {}  # battle -> its ruleset, asked once per battle

        async def whole(ev: StoredEvent) -> EventOut:
            ruleset = rulesets.get(ev.battle_id)
            if ruleset is None:
                ruleset = rulesets[ev.battle_id] = await self.ruleset_of(ev.battle_id)
            return event_out(ev, ruleset)

        items = follow(
            hub,
            self.accepts,
            self.catch_up,
            self.cursor,
            self.after,
            mark_idle=marked,
            key_id=None if guard is None else guard.key_id,
            expires=None if guard is None else guard.expires,
            recheck=RECHECK_SECONDS,
        )
        async with contextlib.aclosing(items):  # a refused key unsubscribes at once
            async for ev in items:
                if ev is None:
                    yield None
                elif isinstance(ev, Check):
                    assert guard is not None
                    # Fails closed: while the store cannot tell, nothing more is handed
                    # over (heartbeats only, so the client waits and loses nothing).
                    while not await _still_valid(guard):
                        await asyncio.sleep(CHECK_RETRY_SECONDS)
                        if hub.closing:
                            return
                        yield None
                elif isinstance(ev, Idle):
                    for battle_id, version in touched.items():
                        message = await self._changed(told, battle_id, version)
                        if message is not None:
                            yield message
                    touched.clear()
                elif keep is not None and not await keep(ev):
                    continue
                elif can_see(actor, ev.audience):
                    told.first(ev)
                    touched[ev.battle_id] = ev.version
                    yield ev, await whole(ev)
                else:
                    # Asked again only for a hidden event past the known end: until the battle
                    # ends, each hidden event costs one catch-up of the battle.
                    told.first(ev)
                    touched[ev.battle_id] = ev.version
                    upto = ended.get(ev.battle_id, 0)
                    if ev.version > upto:
                        upto = ended[ev.battle_id] = await self.unsealed_upto(ev.battle_id)
                    yield ev, await whole(ev) if ev.version <= upto else sealed_out(ev)

    async def _changed(self, told: _Told, battle_id: str, version: int) -> AwaitingMessage | None:
        """What `battle_id` awaits right after `version`, if that is not what the caller
        was last told (or, first, what it awaited before the stream's first event of it)."""
        awaiting = self.awaiting
        assert awaiting is not None
        try:
            before = told.known.get(battle_id)
            if before is None:
                start = told.before[battle_id]
                before = await awaiting(battle_id, self.actor, start) if start >= 1 else []
            now = await awaiting(battle_id, self.actor, version)
        except Exception:  # a reader's extra must not end its stream: the events go on
            log.exception("live: what battle %s awaits at %s could not be read", battle_id, version)
            return None
        told.known[battle_id] = now
        if now == before:
            return None
        return AwaitingMessage(battle_id=battle_id, version=version, awaiting=now)


class KeyRefused(Exception):
    """The stream's player key no longer opens it (revoked, expired): `error` is the 401
    the stream ends with. Only this ends a stream with a problem message; any other
    error is the stream's failure, after which the client reconnects."""

    def __init__(self, error: ServiceError) -> None:
        super().__init__(error.detail)
        self.error = error


async def _still_valid(guard: _KeyGuard) -> bool:
    """Read the stream's player key again: False when the store cannot answer now (the
    caller holds everything until a check succeeds); raises `KeyRefused` when the key
    was revoked or expired."""
    try:
        await guard.check()
    except StoreUnavailable:
        log.warning(
            "live: player key %s could not be checked: the store is unavailable", guard.key_id
        )
        return False
    except ServiceError as e:
        raise KeyRefused(e) from e
    return True


class _Told:
    """Per stream: what each battle was last said to await, and the version before the
    stream's first event of it (what the caller knew when it connected)."""

    __slots__ = ("before", "known")

    def __init__(self) -> None:
        self.known: dict[str, list[Prompt]] = {}
        self.before: dict[str, int] = {}

    def first(self, ev: StoredEvent) -> None:
        self.before.setdefault(ev.battle_id, ev.version - 1)


async def _battle_stream(
    service: BattleService,
    principal: Principal,
    battle_id: str,
    after: int,
    authorization: str | None,
) -> _Stream:
    head = await service.store.head(battle_id)
    if head is None:
        raise NotFound(f"there is no battle {battle_id}", code="battle-not-found")
    if after > head.version:
        raise BadRequest(
            f"cursor {after} is past the end of battle {battle_id} (version {head.version})",
            code="cursor-past-end",
            current_version=head.version,
        )

    async def catch_up(version: int) -> list[StoredEvent]:
        return await service.store.read(battle_id, after=version, limit=_PAGE)

    return _Stream(
        principal.actor,
        lambda ev: ev.battle_id == battle_id,
        catch_up,
        lambda ev: ev.version,
        after,
        service.unsealed_upto,
        service.ruleset_of,
        awaiting=_awaiting(service, principal),
        guard=_guard(service, principal, authorization, battle_id),
    )


async def _global_stream(
    service: BattleService, principal: Principal, after: int, authorization: str | None
) -> _Stream:
    last = await service.store.last_position()
    if after > last:
        raise BadRequest(
            f"cursor {after} is past the last position of the log ({last})",
            code="cursor-past-end",
        )
    integration = principal.integration_id
    if integration is not None:
        keys = service.keys

        async def linked(position: int) -> list[StoredEvent]:
            return await service.store.read_linked(integration, position, limit=_PAGE)

        async def keep(ev: StoredEvent) -> bool:
            # Every live event is offered (a battle created after the stream started must
            # not be missed); the link of each battle is looked up once and remembered.
            return await keys.follows(integration, ev.battle_id, exists=True)

        return _Stream(
            principal.actor,
            lambda ev: True,
            linked,
            lambda ev: ev.position,
            after,
            service.unsealed_upto,
            service.ruleset_of,
            keep=keep,
            awaiting=service.awaiting,
        )

    battles = {principal.battle_id}

    async def catch_up(position: int) -> list[StoredEvent]:
        # Reads the whole log's pages and keeps the key's battles: fine for catching up
        # a few pages; a key that follows many battles would want an index by battle.
        while True:
            page = await service.store.read_all(after_position=position, limit=_PAGE)
            mine = [ev for ev in page if ev.battle_id in battles]
            if mine or not page:
                return mine
            position = page[-1].position

    return _Stream(
        principal.actor,
        lambda ev: ev.battle_id in battles,
        catch_up,
        lambda ev: ev.position,
        after,
        service.unsealed_upto,
        service.ruleset_of,
        awaiting=_awaiting(service, principal),
        guard=_guard(service, principal, authorization, None),
    )


async def _sse(
    stream: _Stream, hub: Hub, slots: StreamSlots, slot: StreamSlot
) -> AsyncIterator[ServerSentEventMessage]:
    try:
        yield ServerSentEventMessage(comment="connected", retry=1000, data=None)
        async for item in _until_refused(stream.events(hub)):
            if isinstance(item, ServiceError):  # the key was revoked or expired: the end
                yield ServerSentEventMessage(event="problem", data=_encode(_problem(item)).decode())
                return
            if item is None:
                yield ServerSentEventMessage(comment="keep-alive", data=None)
            elif isinstance(item, AwaitingMessage):
                # No id: a reconnect resumes after the last event, as before it.
                yield ServerSentEventMessage(event="awaiting", data=_encode(item).decode())
            else:
                ev, out = item
                # `event:` lets a client subscribe by type (EventSource.addEventListener);
                # a sealed event hides its type, so it is named `sealed`.
                name = out.type if isinstance(out, EventOut) else "sealed"
                yield ServerSentEventMessage(
                    id=stream.cursor(ev), event=name, data=_encode(out).decode()
                )
    finally:
        with anyio.CancelScope(shield=True):  # the client left: cancelled, but give it back
            await slots.give_back(slot)


async def _until_refused(
    items: AsyncIterator[tuple[StoredEvent, EventOut | SealedEventOut] | AwaitingMessage | None],
) -> AsyncIterator[
    tuple[StoredEvent, EventOut | SealedEventOut] | AwaitingMessage | ServiceError | None
]:
    """The stream's items, then the refusal that ended it (its key revoked or expired).
    Any other error propagates: the stream fails and the client reconnects, rather than
    being told a problem that it would take for its key's end."""
    try:
        async for item in items:
            yield item
    except KeyRefused as e:
        yield e.error


async def _sse_response(
    request: AppRequest, stream: _Stream, authorization: str | None
) -> ServerSentEvent:
    """The stream as SSE, once the key and the address have a free slot (and the worker
    room for it: service.http.limits.StreamSlots)."""
    slots: StreamSlots = request.app.state["stream_slots"]
    slot = await slots.take(authorization, client_address(request))
    return ServerSentEvent(
        _sse(stream, request.app.state.hub, slots, slot), headers={"Cache-Control": "no-store"}
    )


@get(
    "/battles/{battle_id:str}/events/stream",
    operation_id="streamBattleEvents",
    tags=["streams"],
    summary="Live events of a battle (Server-Sent Events; the id is the battle version)",
    media_type="text/event-stream",
    responses=problems(400, 401, 403, 404, 503),
    security=SECURED,
)
async def stream_battle_events(
    request: AppRequest,
    battle_id: BattleId,
    authorization: Authorization,
    last_event_id: LastEventId,
    after: After = None,
    access_key: AccessKey = None,
) -> ServerSentEvent:
    service = service_of(request)
    key = _authorization(authorization, access_key)
    principal = await service.keys.resolve(key, battle_id)
    stream = await _battle_stream(
        service, principal, battle_id, _parse_cursor(last_event_id, after), key
    )
    return await _sse_response(request, stream, key)


@get(
    "/events/stream",
    operation_id="streamEvents",
    tags=["streams"],
    summary="Live events of every battle the key can see (SSE; the id is the global position)",
    description=(
        "With a battle's key: that battle's events. With an integration's key: the events "
        "of every battle created with it, including battles created after the stream "
        "started, as their referee sees them."
    ),
    media_type="text/event-stream",
    responses=problems(400, 401, 503),
    security=SECURED,
)
async def stream_events(
    request: AppRequest,
    authorization: Authorization,
    last_event_id: LastEventId,
    after: After = None,
    access_key: AccessKey = None,
) -> ServerSentEvent:
    service = service_of(request)
    key = _authorization(authorization, access_key)
    principal = await service.keys.principal(key)
    stream = await _global_stream(service, principal, _parse_cursor(last_event_id, after), key)
    return await _sse_response(request, stream, key)


def _ws_query_int(socket: WebSocket[Any, Any, Any], name: str) -> int | None:
    raw = socket.query_params.get(name)
    if raw is None:
        return None
    if not raw.isdigit() or len(raw) > 16 or int(raw) > MAX_VERSION:
        raise BadRequest(f"?{name}= must be a non-negative integer, not {raw[:40]!r}")
    return int(raw)


OpenStream = Callable[[BattleService, str | None, int], Awaitable[_Stream]]


@websocket("/battles/{battle_id:str}/events/ws")
async def battle_events_ws(
    socket: WebSocket[Any, Any, State],
    battle_id: Annotated[str, PathParameter(min_length=1, max_length=128)],
) -> None:
    """Live events of a battle as JSON text messages `{"kind": "event", "id": version,
    "event": {...}}` and `{"kind": "heartbeat"}`; resume with `?after=<last id>` or a
    `Last-Event-ID` header.

    A refused stream is accepted, sent one `{"kind": "problem", ...}` message (the same
    problem+json body as over HTTP) and closed with code 4000 + the HTTP status.
    """

    async def open_stream(service: BattleService, key: str | None, after: int) -> _Stream:
        principal = await service.keys.resolve(key, battle_id)
        return await _battle_stream(service, principal, battle_id, after, key)

    await _serve_ws(socket, open_stream)


@websocket("/events/ws")
async def events_ws(socket: WebSocket[Any, Any, State]) -> None:
    """Live events of every battle the key can see, as `/events/stream` carries them, in
    the messages of the battle WebSocket; the id is the global position."""

    async def open_stream(service: BattleService, key: str | None, after: int) -> _Stream:
        principal = await service.keys.principal(key)
        return await _global_stream(service, principal, after, key)

    await _serve_ws(socket, open_stream)


async def _serve_ws(socket: WebSocket[Any, Any, State], open_stream: OpenStream) -> None:
    """Check the origin, the key, the limits and the cursor; then send the stream."""
    state: State = socket.app.state
    service: BattleService = state.service
    slots: StreamSlots = state.stream_slots
    failures: AuthFailures = state.auth_failures
    address = socket.client.host if socket.client else "unknown"
    await socket.accept()
    try:
        refusal = origin_refusal(state["cors"], socket.headers.get("origin"))
        if refusal is not None:
            raise refusal
        authorization = _authorization(
            socket.headers.get("authorization"), socket.query_params.get("access_key")
        )
        # Past the limit only a guess is refused (a key that opens nothing), as over HTTP.
        wait = await failures.refused(address) if authorization else None
        cursor = _parse_cursor(socket.headers.get("last-event-id"), _ws_query_int(socket, "after"))
        try:
            stream = await open_stream(service, authorization, cursor)
        except ServiceError as e:
            if e.status == 401 and authorization:
                if wait is not None:
                    raise _limited(f"too many failed authentications; retry in {wait} s") from e
                await failures.failed(address)
            raise
        slot = await slots.take(authorization, address)
    except ServiceError as e:
        await _refuse(socket, e)
        return
    except TooManyStreams as e:
        await _refuse(socket, _too_many(e))
        return
    except StoreUnavailable:
        await socket.close(code=1011, reason="the event store is unavailable")
        return
    try:
        async for item in _until_refused(stream.events(state.hub)):
            if isinstance(item, ServiceError):  # the key was revoked or expired: 4401
                await _refuse(socket, item)
                return
            if item is None:
                await socket.send_text('{"kind":"heartbeat"}')
            elif isinstance(item, AwaitingMessage):
                message = {"kind": "awaiting", **msgspec.structs.asdict(item)}
                await socket.send_text(_encode(message).decode())
            else:
                ev, out = item
                message = {"kind": "event", "id": stream.cursor(ev), "event": out}
                await socket.send_text(_encode(message).decode())
        # The stream ended: the process is stopping (1001, going away; resume elsewhere).
        await socket.close(code=1001, reason="the server is shutting down")
    except WebSocketDisconnect:
        return
    finally:
        with anyio.CancelScope(shield=True):
            await slots.give_back(slot)


def _too_many(e: TooManyStreams) -> ServiceError:
    error = _limited(str(e), code=e.code, limit=e.limit)
    if e.status != 429:  # the worker is full: not this client's doing
        error.status, error.title = e.status, "Busy: retry"
    return error


def _limited(detail: str, code: str = "rate-limited", **context: Any) -> ServiceError:
    error = ServiceError(detail, code=code, **context)
    error.status, error.title = 429, "Too many requests"
    return error


def _problem(e: ServiceError) -> dict[str, Any]:
    """The problem+json body of a refusal, as a stream message carries it."""
    return {
        "type": problem_type(e.code),
        "title": e.title,
        "status": e.status,
        "detail": e.detail,
        **{k: v for k, v in e.context.items() if v is not None},
    }


async def _refuse(socket: WebSocket[Any, Any, Any], e: ServiceError) -> None:
    body = {"kind": "problem", **_problem(e)}
    await socket.send_text(_encode(body).decode())
    await socket.close(code=4000 + e.status, reason=e.code[:120])


STREAM_ROUTES: list[Any] = [stream_battle_events, stream_events, battle_events_ws, events_ws]
