"""Errors of the HTTP application layer, each with an HTTP status and a stable problem code."""

from __future__ import annotations

from typing import Any

__all__ = [
    "BadRequest",
    "Forbidden",
    "NotFound",
    "ServiceError",
    "Unauthenticated",
    "Unprocessable",
]


class ServiceError(Exception):
    """Base of the service's own errors: `code` names the problem type, `status` the HTTP status."""

    code = "service-error"
    status = 400
    title = "Bad request"

    def __init__(self, detail: str, *, code: str | None = None, **context: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code
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


class Unprocessable(ServiceError):
    """A well-formed request (valid against the OpenAPI document) that names something the
    battle does not have: a version it has not reached, a receipt it cannot read as one or
    that is another battle's. 422, so that a schema-valid request is never a 400."""

    code = "unprocessable"
    status = 422
    title = "The request names what this battle does not have"
