"""The one place that turns every error into an RFC 9457 problem+json response.

Every problem has a stable `type` (`urn:battle-service:problem:<code>`), a `title`
that names the kind of problem, a `detail` saying what was wrong in this request,
and, where known, structured context (the rule cited, the current version...).
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from domain.errors import (
    DiceError,
    DomainError,
    InvalidSetup,
    NotPermitted,
    RuleViolation,
    UnknownEntity,
)
from events.errors import (
    DuplicateCommand,
    IdempotencyMismatch,
    LogDamaged,
    StoreError,
    StoreUnavailable,
    VersionConflict,
)
from service.errors import ServiceError
from service.http.limits import TooManyStreams

__all__ = ["PROBLEM_MEDIA_TYPE", "exception_handlers", "problem_type", "www_authenticate"]

PROBLEM_MEDIA_TYPE = "application/problem+json"
log = logging.getLogger("service.http.problems")

_DOMAIN: dict[type[DomainError], tuple[int, str]] = {
    RuleViolation: (422, "The rules do not allow this now"),
    UnknownEntity: (404, "No such thing in this battle"),
    NotPermitted: (403, "This key may not give that order"),
    InvalidSetup: (422, "The battle setup is not valid"),
    DiceError: (422, "The supplied dice do not fit this command"),
}


def problem_type(code: str) -> str:
    return f"urn:battle-service:problem:{code}"


def _problem(
    request: Request[Any, Any, Any],
    status: int,
    code: str,
    title: str,
    detail: str,
    extra: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> Response[dict[str, Any]]:
    body: dict[str, Any] = {
        "type": problem_type(code),
        "title": title,
        "status": status,
        "detail": detail,
        "instance": request.url.path,
    }
    if extra:
        body.update({k: v for k, v in extra.items() if k not in body})
    return Response(body, status_code=status, media_type=PROBLEM_MEDIA_TYPE, headers=headers)


REALM = "battle-service"


def www_authenticate(code: str, detail: str) -> str:
    """The `WWW-Authenticate` challenge of a 401 (RFC 6750 §3): no error code when no key
    was sent, `invalid_request` for a header that is not `Bearer <key>`, `invalid_token`
    for a key that opens nothing."""
    if code == "missing-key":
        return f'Bearer realm="{REALM}"'
    error = "invalid_request" if code == "malformed-key" else "invalid_token"
    # error_description allows printable ASCII but '"' and '\\' (RFC 6750 §3).
    text = "".join(c for c in detail if " " <= c <= "~" and c not in '"\\')
    return f'Bearer realm="{REALM}", error="{error}", error_description="{text}"'


def _service_error(request: Request[Any, Any, Any], exc: ServiceError) -> Response[Any]:
    headers = exc.headers
    if exc.status == 401:
        headers = {**(headers or {}), "WWW-Authenticate": www_authenticate(exc.code, exc.detail)}
    return _problem(request, exc.status, exc.code, exc.title, exc.detail, exc.context, headers)


def _domain_error(request: Request[Any, Any, Any], exc: DomainError) -> Response[Any]:
    status, title = next(
        (v for cls, v in _DOMAIN.items() if isinstance(exc, cls)), (422, "Not allowed")
    )
    extra = dict(exc.context)
    if exc.rule:
        extra["rule"] = exc.rule
    return _problem(request, status, exc.code, title, exc.reason, extra)


def _store_error(request: Request[Any, Any, Any], exc: StoreError) -> Response[Any]:
    if isinstance(exc, VersionConflict):
        return _problem(
            request,
            409,
            exc.code,
            "The battle is not at the expected version",
            exc.message,
            exc.context,
        )
    if isinstance(exc, IdempotencyMismatch | DuplicateCommand):
        return _problem(
            request,
            422,
            "idempotency-mismatch",
            "This Idempotency-Key was used for another request",
            exc.message,
            exc.context,
        )
    if isinstance(exc, LogDamaged):
        # Not 409: a 409 only ever means that the client's expected version is stale.
        log.error("log damaged: %s", exc.message)
        return _problem(
            request,
            500,
            exc.code,
            "The battle's stored log is damaged",
            f"{exc.message}; the battle is not served until its log is repaired "
            "(GET /battles/{id}/verify names the first event that fails)",
            exc.context,
        )
    if isinstance(exc, StoreUnavailable):
        log.error("store unavailable: %s", exc.message)
        return _problem(
            request,
            503,
            exc.code,
            "The event store is unavailable",
            "the event store could not be reached; retry later",
            headers={"Retry-After": "1"},
        )
    log.exception("store error", exc_info=exc)
    return _problem(request, 500, "internal", "Internal error", "an internal error occurred")


def _validation_error(request: Request[Any, Any, Any], exc: ValidationException) -> Response[Any]:
    extra: dict[str, Any] = {}
    if isinstance(exc.extra, list) and exc.extra:
        extra["errors"] = exc.extra
    detail = exc.detail
    if extra.get("errors"):
        first = extra["errors"][0]
        if isinstance(first, dict) and first.get("message"):
            where = first.get("key") or first.get("source") or ""
            detail = f"{detail}: {first['message']}" + (f" ({where})" if where else "")
    return _problem(request, 400, "invalid-request", "The request is not valid", detail, extra)


_CLIENT_GONE = "client disconnected prematurely"  # litestar.connection.request


def _http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    status = exc.status_code
    if status >= 500 and exc.detail == _CLIENT_GONE:
        # Litestar's way of saying the client hung up before its body arrived: nothing was
        # done and nobody will read the answer, so not an error of ours.
        log.debug("%s %s: %s", request.method, request.url.path, exc.detail)
        return _problem(request, 400, "client-disconnected", "Client disconnected", exc.detail)
    if status >= 500:
        log.error("HTTP %s: %s", status, exc.detail)
        return _problem(request, status, "internal", "Internal error", "an internal error occurred")
    if status == 405 and (exc.headers or {}).get("allow") == "websocket":
        # A WebSocket route asked without the upgrade: "websocket" is no method to allow,
        # so not 405 but 426, naming the protocol to upgrade to (RFC 9110 15.5.22).
        return _problem(
            request,
            426,
            "upgrade-required",
            "Upgrade Required",
            f"{request.url.path} is a WebSocket: open it with a WebSocket upgrade "
            "(ws:// or wss://); /events/stream and /battles/{id}/events/stream serve the "
            "same events over plain HTTP (Server-Sent Events)",
            headers={"Upgrade": "websocket", "Connection": "Upgrade"},
        )
    codes = {
        400: "invalid-request",
        401: "unauthenticated",
        403: "forbidden",
        404: "not-found",
        405: "method-not-allowed",
        413: "request-too-large",
        415: "unsupported-media-type",
        429: "rate-limited",
    }
    code = codes.get(status, f"http-{status}")
    title = "The request is not valid" if status == 400 else HTTPStatus(status).phrase
    headers = exc.headers
    if status == 401:
        headers = {**(headers or {}), "WWW-Authenticate": www_authenticate(code, exc.detail)}
    return _problem(request, status, code, title, exc.detail, headers=headers)


def _too_many_streams(request: Request[Any, Any, Any], exc: TooManyStreams) -> Response[Any]:
    return _problem(
        request,
        exc.status,
        exc.code,
        "Too many requests" if exc.status == 429 else "Busy: retry",
        str(exc),
        {"limit": exc.limit},
        headers={"Retry-After": "5"},
    )


def _unexpected(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return _problem(request, 500, "internal", "Internal error", "an internal error occurred")


exception_handlers: dict[type[Exception] | int, Any] = {
    ServiceError: _service_error,
    TooManyStreams: _too_many_streams,
    DomainError: _domain_error,
    StoreError: _store_error,
    ValidationException: _validation_error,
    HTTPException: _http_error,
    Exception: _unexpected,
}
