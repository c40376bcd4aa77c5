"""Cross-origin access for browser modules (a Foundry VTT module, an Owlbear Rodeo extension).

Keys are Bearer tokens, never cookies, so no credentials are allowed and the default
origin list is `*`: a page anywhere may call the API with a key it holds. A deployment
that wants fewer callers names them in `BATTLE_CORS_ORIGINS`. HTTP goes through
Litestar's `CORSConfig`; WebSockets are not covered by CORS at all (a browser opens
them to any origin), so `origin_refusal` checks their `Origin` against the same list.
"""

from __future__ import annotations

from litestar.config.cors import CORSConfig

from service.errors import Forbidden

__all__ = ["ALLOWED_HEADERS", "EXPOSED_HEADERS", "cors_config", "origin_refusal"]

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
