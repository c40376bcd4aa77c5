"""Browser access: which origins may call the API (CORS) and open its WebSockets.

Access keys travel as Bearer tokens (or `?access_key=` for EventSource and WebSocket),
never as cookies, so no origin is ever given credentials: a page on any allowed origin
can only do what the key it holds allows. `BATTLE_CORS_ORIGINS` lists the allowed
origins, comma-separated; the default `*` allows every origin.
"""

from __future__ import annotations

from litestar.config.cors import CORSConfig

__all__ = [
    "ALLOWED_REQUEST_HEADERS",
    "EXPOSED_RESPONSE_HEADERS",
    "cors_config",
    "origin_allowed",
    "parse_origins",
]

ALLOWED_REQUEST_HEADERS = [
    "Authorization",
    "Idempotency-Key",
    "Last-Event-ID",
    "If-Match",
    "Content-Type",
]
# The rate-limit headers are listed before every route sends them, so a page can read
# them as soon as the server does.
EXPOSED_RESPONSE_HEADERS = [
    "Location",
    "ETag",
    "Retry-After",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
]


def parse_origins(raw: str | None) -> tuple[str, ...]:
    """`BATTLE_CORS_ORIGINS` as a tuple; unset or blank: `("*",)`."""
    origins = tuple(o.strip().rstrip("/") for o in (raw or "").split(",") if o.strip())
    return origins or ("*",)


def cors_config(origins: tuple[str, ...]) -> CORSConfig:
    return CORSConfig(
        allow_origins=list(origins),
        allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
        allow_headers=ALLOWED_REQUEST_HEADERS,
        expose_headers=EXPOSED_RESPONSE_HEADERS,
        allow_credentials=False,
        max_age=600,
    )


def origin_allowed(origin: str | None, origins: tuple[str, ...]) -> bool:
    """Whether a WebSocket from `origin` may connect. No `Origin` header: not a browser
    (browsers always send one), so nothing to check."""
    if origin is None or "*" in origins:
        return True
    return origin.rstrip("/") in origins
