"""Rate limits: requests per client address and per access key, failed authentications
per address, anonymous creations per address, forecasts per key, and open streams per key,
per address and per worker (`StreamSlots`). The client address is the connection's, or
the one a named proxy forwarded (service.http.proxies).

The limits are Litestar's `RateLimitConfig`s (with a name and a way of counting), run
together by one middleware, `RateLimits`, that keeps a fixed-window counter in the app's
store (Redis `INCRBY` + `EXPIRE`, atomic, when `BATTLE_REDIS_URL` is set: a
`litestar.stores.redis.RedisStore`; a dict otherwise), where Litestar's own
`RateLimitMiddleware` reads a list of timestamps and writes it back under a per-process
lock (not atomic across workers, and a list as long as the limit on every request), one
middleware layer per policy.

A counter is named by its policy and an identifier: the client address, or the SHA-256
of the access key (never the key itself: the counters live in Redis). A refusal is a 429
problem+json with `Retry-After` and `RateLimit-Limit/Remaining/Reset` (the handler in
service.http.problems); an admitted request carries the `RateLimit-*` headers of its policy.

Failed authentications are counted after the fact: the guard watches the status of each
answer to a request that carried a key, and a 401 adds one to its address's counter;
once the counter reaches the limit, further *guesses* from that address are refused
until the window ends: a request whose key is not valid is answered 429, not looked at
further. A request with a valid key (or none) still goes through: a VTT server that
proxies a whole table from one address is not locked out by one player's typo.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from litestar.datastructures import MutableScopeHeaders
from litestar.enums import ScopeType
from litestar.exceptions import TooManyRequestsException
from litestar.middleware import ASGIMiddleware
from litestar.middleware.rate_limit import RateLimitConfig
from litestar.stores.memory import MemoryStore
from litestar.stores.redis import RedisStore
from redis.exceptions import RedisError

from service.errors import Unauthenticated

if TYPE_CHECKING:
    from collections.abc import Callable

    from litestar import Litestar, Request
    from litestar.stores.base import Store
    from litestar.types import ASGIApp, Message, Receive, Scope, Send

    from service.settings import Settings

__all__ = [
    "STORE_NAME",
    "AuthFailures",
    "Counters",
    "LimitConfig",
    "RateLimits",
    "StreamSlot",
    "StreamSlots",
    "TooManyStreams",
    "bearer_key",
    "client_address",
    "counters_of",
    "key_identity",
    "limit_middleware",
    "limit_store",
    "stream_room",
]

STORE_NAME = "rate_limit"
_STREAM_SLOT_TTL = 3600  # a slot a dead worker never gave back is forgotten after this
log = logging.getLogger("service.http.limits")


def limit_store(settings: Settings) -> Store:
    """Where the counters live: Redis when configured (shared by every worker), else memory."""
    if settings.redis_url:
        return RedisStore.with_client(url=settings.redis_url, namespace="battle-limits")
    return MemoryStore()


class Counters:
    """Fixed-window counters in the app's limit store."""

    def __init__(self, store: Store) -> None:
        self._redis = store._redis if isinstance(store, RedisStore) else None
        self._store = store
        self._memory: dict[str, list[int]] = {}  # key -> [count, reset at (unix seconds)]
        self._gauges: dict[str, tuple[int, int]] = {}  # key -> (value, forgotten at)

    def _key(self, key: str) -> str:
        if isinstance(self._store, RedisStore):
            return self._store._make_key(key)
        return key

    async def add(self, key: str, window: int, amount: int = 1) -> tuple[int, int]:
        """Add `amount` to the counter; its value then and the seconds until it resets."""
        if self._redis is None:
            now = int(time.time())
            entry = self._memory.get(key)
            if entry is None or entry[1] <= now:
                if len(self._memory) > 100_000:
                    self._memory = {k: v for k, v in self._memory.items() if v[1] > now}
                entry = self._memory[key] = [0, now + window]
            entry[0] += amount
            return entry[0], entry[1] - now
        name = self._key(key)
        try:
            pipe = self._redis.pipeline(transaction=True)
            pipe.incrby(name, amount)
            pipe.expire(name, window, nx=True)
            pipe.ttl(name)
            count, _, ttl = await pipe.execute()
        except RedisError as e:  # the limits fail open: Redis down must not stop the game
            log.warning("rate-limit counter unavailable: %s", e)
            return 0, window
        return int(count), max(int(ttl), 0)

    async def adjust(self, key: str, delta: int, ttl: int) -> int:
        """A gauge, not a window: add `delta` and keep the key `ttl` seconds after this
        change (so that a slot never given back, by a worker that died, is forgotten in
        the end); its value then."""
        if self._redis is None:
            now = int(time.time())
            value, expires = self._gauges.get(key, (0, now))
            value = value + delta if expires > now else delta
            if value <= 0:
                self._gauges.pop(key, None)
            else:
                self._gauges[key] = (value, now + ttl)
            return value
        name = self._key(key)
        try:
            pipe = self._redis.pipeline(transaction=True)
            pipe.incrby(name, delta)
            pipe.expire(name, ttl)
            value, _ = await pipe.execute()
        except RedisError as e:
            log.warning("rate-limit counter unavailable: %s", e)
            return 0
        return int(value)

    async def peek(self, key: str) -> tuple[int, int]:
        """The counter's value and the seconds until it resets (0, 0 when unset)."""
        if self._redis is None:
            now = int(time.time())
            entry = self._memory.get(key)
            if entry is None or entry[1] <= now:
                return 0, 0
            return entry[0], entry[1] - now
        name = self._key(key)
        try:
            pipe = self._redis.pipeline(transaction=False)
            pipe.get(name)
            pipe.ttl(name)
            count, ttl = await pipe.execute()
        except RedisError as e:
            log.warning("rate-limit counter unavailable: %s", e)
            return 0, 0
        return int(count or 0), max(int(ttl), 0)


def counters_of(app: Litestar) -> Counters:
    counters: Counters | None = app.state.get("limit_counters")
    if counters is None:
        counters = app.state["limit_counters"] = Counters(app.stores.get(STORE_NAME))
    return counters


def client_address(request: Request[Any, Any, Any]) -> str:
    return request.client.host if request.client else "unknown"


def _key_sent(request: Request[Any, Any, Any]) -> str | None:
    return _sent_in(request.scope)


def _authorization(scope: Scope) -> str | None:
    """The first Authorization header as `Headers.get` gives it (None without one)."""
    # From the ASGI headers (names in lower case): `request.headers` would build a
    # `Headers` of them all for every request.
    for name, value in scope["headers"]:
        if name == b"authorization":
            return value.decode("latin-1")
    return None


def _sent_in(scope: Scope) -> str | None:
    """The key a request sends: its Authorization header, else its `access_key` query
    parameter (streams), else None."""
    header = _authorization(scope)
    if header:
        return header
    if not scope.get("query_string"):
        return None
    # Rare (a stream's query key, or a request without any): Litestar's own parsing.
    return scope["litestar_app"].request_class(scope).query_params.get("access_key")


def _address(scope: Scope) -> str:
    """`client_address` from the scope, without building a request (and its `Address`)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def key_identity(secret: str) -> str:
    """What counters and logs name a key by: a hash, so Redis never holds a usable key."""
    return hashlib.sha256(secret.encode()).hexdigest()[:32]


def bearer_key(sent: str) -> str:
    """The key a header or query parameter sends, read as `KeyRing.principal` reads it (the
    scheme in any letter case, spaces around it): one key is one counter however it is
    spelt, or "bearer K" and "BEARER K" would each get a key's whole allowance."""
    scheme, _, key = sent.strip().partition(" ")
    key = key.strip()
    return key if key and scheme.lower() == "bearer" else sent.strip()


def _key_identifier(scope: Scope) -> str:
    sent = _sent_in(scope)
    return key_identity(bearer_key(sent)) if sent else ""


def _has_key(scope: Scope) -> bool:
    return _sent_in(scope) is not None


@dataclass
class LimitConfig(RateLimitConfig):
    """A `RateLimitConfig` with the name of its counters and how it counts."""

    name: str = "requests"
    # False: the request is only checked against the counter, which the 401s of the
    # requests that sent a key add to.
    counts_requests: bool = True
    # Which requests the policy counts (None: all). Not Litestar's `check_throttle_handler`:
    # that one wraps a plain function to run in a thread, two thread hops per request that
    # cost about a fifth of a command (measured with py-spy under `bench.inprocess`).
    # Read from the ASGI scope, as `identify`: no `Request` is built for the limits.
    applies: Callable[[Scope], bool] | None = None
    # What the counter is named by (a client address, a key's hash); Litestar's
    # `identifier_for_request` takes a `Request`, this the scope.
    identify: Callable[[Scope], str] = _address


def refusal_headers(limit: int, remaining: int, reset: int) -> dict[str, str]:
    return {
        "RateLimit-Limit": str(limit),
        "RateLimit-Remaining": str(max(remaining, 0)),
        "RateLimit-Reset": str(reset),
        "Retry-After": str(max(reset, 1)),
    }


_WINDOWS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


class RateLimits(ASGIMiddleware):
    """Every `LimitConfig` in one middleware over an atomic shared counter (see the module).

    One layer, not one Litestar `RateLimitMiddleware` per policy: measured in process
    (`bench.inprocess`), five such layers added about 300 us to a 550 us command.
    """

    scopes = (ScopeType.HTTP,)

    def __init__(self, policies: list[LimitConfig]) -> None:
        self.policies = policies
        self.should_bypass_for_scope = _unlimited
        # The app's counters, looked up once (`counters_of` reads the app's state).
        self._app: Litestar | None = None
        self._counters: Counters | None = None

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        app = scope["litestar_app"]
        counters = self._counters
        if counters is None or self._app is not app:
            counters = self._counters = counters_of(app)
            self._app = app
        shown: tuple[int, int, int] | None = None  # limit, remaining, reset of the tightest
        for policy in self.policies:
            if policy.applies is not None and not policy.applies(scope):
                continue
            unit, limit = policy.rate_limit
            window = _WINDOWS[unit]
            key = f"{policy.name}:{policy.identify(scope)}"
            if policy.counts_requests:
                count, reset = await counters.add(key, window)
            else:
                count, reset = await counters.peek(key)
                count += 1  # this request, were it to fail too
                if _has_key(scope):
                    send = _counting_failures(send, counters, key, window)
            if count > limit and (
                policy.counts_requests or await _guess(app, app.request_class(scope))
            ):
                headers = refusal_headers(limit, 0, reset)
                headers["RateLimit-Policy"] = f"{limit}; w={window}"
                raise TooManyRequestsException(
                    detail=f"too many requests ({policy.name}): at most {limit} per {unit}; "
                    f"retry in {max(reset, 1)} s",
                    headers=headers,
                )
            if policy.counts_requests and (shown is None or limit - count < shown[1]):
                shown = (limit, limit - count, reset)
        if shown is not None:
            send = _with_headers(send, *shown)
        await next_app(scope, receive, send)


async def _guess(app: Litestar, request: Request[Any, Any, Any]) -> bool:
    """Whether a request from an address past its failed-authentication limit is a guess:
    it sends a key, and that key opens nothing. The key ring looks it up as the request
    would (cached once known), so a valid key costs no more than it does anyway."""
    sent = _key_sent(request)
    service = app.state.get("service")
    if sent is None or service is None:
        return sent is not None
    authorization = sent if request.headers.get("authorization") else f"Bearer {sent}"
    try:
        await service.keys.principal(authorization)
    except Unauthenticated:
        return True
    return False


def _unlimited(scope: Scope) -> bool:
    path: str = scope["path"]  # as routed: Litestar has taken off any root path
    return path == "/health" or path.startswith("/schema")


def _operation(scope: Scope) -> object:
    # The route, not the URL: under a prefix `request.url.path` is not "/battles", and a
    # check on it would let anonymous creations through uncounted.
    return getattr(scope["route_handler"], "operation_id", None)


def _with_headers(send: Send, limit: int, remaining: int, reset: int) -> Send:
    headers = refusal_headers(limit, remaining, reset)
    del headers["Retry-After"]

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            out = MutableScopeHeaders(message)
            for name, value in headers.items():
                out[name] = value
        await send(message)

    return wrapped


def _counting_failures(send: Send, counters: Counters, key: str, window: int) -> Send:
    async def wrapped(message: Message) -> None:
        # A 401 to a request that sent a key: a guess (or a revoked key) to count.
        if message["type"] == "http.response.start" and message["status"] == 401:
            await counters.add(key, window)
        await send(message)

    return wrapped


def limit_middleware(settings: Settings) -> list[RateLimits]:
    """The limits the settings turn on (a limit of 0 is off), in one middleware (or none)."""
    policies: list[LimitConfig] = []

    def add(limit: int, unit: str, name: str, **kw: Any) -> None:
        if limit > 0:
            policies.append(
                LimitConfig(rate_limit=(unit, limit), name=name, store=STORE_NAME, **kw)  # type: ignore[arg-type]
            )

    add(
        settings.limit_auth_failures,
        "minute",
        "auth-failures",
        counts_requests=False,
        identify=_address,
    )
    add(settings.limit_per_address, "minute", "address", identify=_address)
    add(
        settings.limit_per_key,
        "minute",
        "key",
        identify=_key_identifier,
        applies=_has_key,
    )
    add(
        settings.limit_forecasts_per_key,
        "minute",
        "forecasts",
        identify=_key_identifier,
        applies=_forecast,
    )
    add(
        settings.limit_battles_per_address,
        "hour",
        "battles",
        identify=_address,
        applies=_anonymous_creation("createBattle", "importBattle"),
    )
    add(
        settings.limit_integrations_per_address,
        "hour",
        "integrations",
        identify=_address,
        applies=_anonymous_creation("createIntegration"),
    )
    return [RateLimits(policies)] if policies else []


def _forecast(scope: Scope) -> bool:
    # Counted apart from the other requests of a key: one forecast may keep a core busy
    # for its whole time budget (service.desk.forecast).
    return (
        scope.get("method") == "POST" and _operation(scope) == "forecastBattle" and _has_key(scope)
    )


def _anonymous_creation(*operations: str) -> Any:
    def check(scope: Scope) -> bool:
        # A creation's key comes in its Authorization header only (`?access_key=` is for
        # streams): a query key would leave the creation anonymous and uncounted.
        return (
            scope.get("method") == "POST"
            and _operation(scope) in operations
            and not _authorization(scope)
        )

    return check


class TooManyStreams(Exception):
    """A key, or an address, holds as many open streams as it may (429); or this worker
    holds as many as it keeps room for (503, `streams-full`: retry, or another worker)."""

    def __init__(self, limit: int, holder: str = "key") -> None:
        if holder == "worker":
            text = f"this server holds {limit} open streams, all it has room for; retry soon"
        else:
            text = f"this {holder} already holds {limit} open streams; close one first"
        super().__init__(text)
        self.limit = limit
        self.holder = holder
        self.status = 503 if holder == "worker" else 429
        self.code = "streams-full" if holder == "worker" else "too-many-streams"


def stream_room(max_connections: int) -> int:
    """The streams one worker may hold: BATTLE_MAX_CONNECTIONS less a reserve of a tenth
    (at least one), so that while the streams hold all they may, /health and ordinary
    requests still find a connection (uvicorn answers 503 past the maximum)."""
    return max(max_connections - max(max_connections // 10, 1), 0)


@dataclass
class StreamSlot:
    """What one open stream holds, to give back when it ends."""

    names: list[str]  # the gauges it added one to (its key's, its address's)
    worker: bool  # whether it counts in this worker's streams


class StreamSlots:
    """How many streams each key and each client address hold open (across workers when
    Redis is configured), and how many this worker holds.

    Keys are free (anyone may create battles, each with a key per side), so a cap per key
    alone let one address take every connection of the worker; the cap per address and
    the worker's reserve (`stream_room`) keep the service answering the others."""

    def __init__(
        self, counters: Counters, limit: int, *, per_address: int = 0, per_worker: int = 0
    ) -> None:
        self._counters = counters
        self.limit = limit
        self.per_address = per_address
        self.per_worker = per_worker
        self.open = 0  # streams this worker holds

    async def take(self, authorization: str | None, address: str = "unknown") -> StreamSlot:
        """Take a slot for this key from this address; `TooManyStreams` when none is left."""
        if self.per_worker > 0 and self.open >= self.per_worker:
            raise TooManyStreams(self.per_worker, "worker")
        slot = StreamSlot(names=[], worker=self.per_worker > 0)
        if slot.worker:
            self.open += 1
        try:
            if self.limit > 0 and authorization:
                key = "streams:" + key_identity(bearer_key(authorization))
                await self._hold(slot, key, self.limit, "key")
            if self.per_address > 0:
                await self._hold(slot, f"streams-address:{address}", self.per_address, "address")
        except TooManyStreams:
            await self.give_back(slot)
            raise
        return slot

    async def _hold(self, slot: StreamSlot, name: str, limit: int, holder: str) -> None:
        if await self._counters.adjust(name, 1, _STREAM_SLOT_TTL) > limit:
            await self._counters.adjust(name, -1, _STREAM_SLOT_TTL)
            raise TooManyStreams(limit, holder)
        slot.names.append(name)

    async def give_back(self, slot: StreamSlot | None) -> None:
        if slot is None:
            return
        if slot.worker:
            slot.worker = False  # once only
            self.open -= 1
        names, slot.names = slot.names, []
        for name in names:
            await self._counters.adjust(name, -1, _STREAM_SLOT_TTL)


class AuthFailures:
    """The failed-authentication counter of an address, for WebSockets, which the HTTP
    middleware does not see (the same counter: a guess over either counts for both)."""

    def __init__(self, counters: Counters, limit: int) -> None:
        self._counters = counters
        self.limit = limit

    async def refused(self, address: str) -> int | None:
        """Seconds to wait if this address has failed too often, else None."""
        if self.limit <= 0:
            return None
        count, reset = await self._counters.peek(f"auth-failures:{address}")
        return max(reset, 1) if count >= self.limit else None

    async def failed(self, address: str) -> None:
        if self.limit > 0:
            await self._counters.add(f"auth-failures:{address}", 60)
