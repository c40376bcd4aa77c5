"""Routes for the rate-limit tests' small apps: a plain GET that answers, and one that
always refuses (401), which the failed-authentication limit counts."""

from __future__ import annotations

from litestar import get

__all__ = ["ping", "secret"]


@get("/ping", operation_id="ping")
async def ping() -> str:
    return "pong"


@get("/secret", operation_id="secret", status_code=401)
async def secret() -> str:
    return "no"
