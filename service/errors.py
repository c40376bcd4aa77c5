"""Errors of the HTTP application layer, each with an HTTP status and a stable problem code."""

from __future__ import annotations

from typing import Any

__all__ = [
    "BadRequest",
    "Busy",
    "ClientGone",
    "Forbidden",
    "NotFound",
    "ServiceError",
    "TooManyRequests",
    "Unauthenticated",
    "Unprocessable",
]


class ServiceError(Exception):
    """Base of the service's own errors: `code` names the problem type, `status` the HTTP status."""

    code = "service-error"
    status = 400
    title = "Bad request"

    headers: dict[str, str] | None = None  # sent with the problem (Retry-After...)

    def __init__(
        self,
        detail: str,
        *,
        code: str | None = None,
        headers: dict[str, str] | None = None,
        **context: Any,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code
        if headers is not None:
            self.headers = headers
        self.context = context


class BadRequest(ServiceError):
    code = "bad-request"
    status = 400
    title = "The request is not valid"


class Unauthenticated(ServiceError):
    code = "unauthenticated"
    status = 401
    title = "A valid access key is required"


class Forbidden(ServiceError):
    code = "forbidden"
    status = 403
    title = "This key may not do that"


class NotFound(ServiceError):
    code = "not-found"
    status = 404
    title = "Not found"


class Busy(ServiceError):
    """Nothing was done, for a reason that passes: the client may retry (503, Retry-After)."""

    code = "busy"
    status = 503
    title = "Busy: retry"
    headers = {"Retry-After": "1"}  # noqa: RUF012 - never mutated


class ClientGone(ServiceError):
    """The client closed the connection before the answer (499, nginx's name for it): the
    work stopped; nothing can be sent, the status is for the logs."""

    code = "client-closed-request"
    status = 499
    title = "Client closed the request"


class TooManyRequests(ServiceError):
    """A limit was reached (429, with Retry-After)."""

    code = "rate-limited"
    status = 429
    title = "Too many requests"


class Unprocessable(ServiceError):
    """A well-formed request (valid against the OpenAPI document) that names something the
    battle does not have: a version it has not reached, a receipt it cannot read as one or
    that is another battle's. 422, so that a schema-valid request is never a 400."""

    code = "unprocessable"
    status = 422
    title = "The request names what this battle does not have"
