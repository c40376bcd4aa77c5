"""Cross-origin access for browser modules (a Foundry VTT module, an Owlbear Rodeo extension).

Keys are Bearer tokens, never cookies, so no credentials are allowed and the default
origin list is `*`: a page anywhere may call the API with a key it holds. A deployment
that wants fewer callers names them in `BATTLE_CORS_ORIGINS`. HTTP goes through
Litestar's `CORSConfig` (its middleware only for a request that has an `Origin` header:
`skip_without_origin`); WebSockets are not covered by CORS at all (a browser opens
them to any origin), so `origin_refusal` checks their `Origin` against the same list.
"""

from __future__ import annotations

from typing import Any

from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.middleware._internal.cors import CORSMiddleware

from service.errors import Forbidden

__all__ = [
    "ALLOWED_HEADERS",
    "EXPOSED_HEADERS",
    "cors_config",
    "origin_refusal",
    "skip_without_origin",
]

# The request headers the API reads (besides the CORS-safelisted ones).
ALLOWED_HEADERS = [
    "Authorization",
    "Idempotency-Key",
    "Last-Event-ID",
    "If-Match",
    "If-None-Match",
    "Content-Type",
]
# The response headers a page's script must be able to read.
EXPOSED_HEADERS = [
    "Location",
    "ETag",
    "Retry-After",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
]
_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def cors_config(origins: tuple[str, ...]) -> CORSConfig:
    return CORSConfig(
        allow_origins=list(origins),
        allow_methods=_METHODS,  # type: ignore[arg-type]
        allow_headers=ALLOWED_HEADERS,
        allow_credentials=False,
        expose_headers=EXPOSED_HEADERS,
        max_age=600,
    )


def origin_refusal(config: CORSConfig, origin: str | None) -> Forbidden | None:
    """Why a WebSocket from `origin` is refused, or None. No `Origin` header: not a
    browser (a bot, a server), which CORS does not concern either."""
    if origin is None or config.is_origin_allowed(origin):
        return None
    return Forbidden(
        f"origin {origin[:200]!r} is not allowed (BATTLE_CORS_ORIGINS)",
        code="origin-not-allowed",
    )


class _OnlyWithOrigin:
    """Litestar's CORS middleware for the requests that have an `Origin` header, the ones
    it acts on; the others go straight to what it wraps, as it would send them. It builds
    a `Headers` of every request's headers to look for one (about 5% of a command)."""

    __slots__ = ("cors", "inner")

    def __init__(self, cors: CORSMiddleware) -> None:
        self.cors = cors
        self.inner = cors.app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        for name, _ in scope.get("headers", ()):  # ASGI: names in lower case
            if name == b"origin":
                await self.cors(scope, receive, send)
                return
        await self.inner(scope, receive, send)


def skip_without_origin(app: Litestar) -> Litestar:
    """`app` with its CORS middleware run only for requests with an `Origin` header."""
    handler = app.asgi_handler
    if isinstance(handler, CORSMiddleware):
        app.asgi_handler = _OnlyWithOrigin(handler)
    return app
