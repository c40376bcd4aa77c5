"""Conditional requests (RFC 9110 §13) on a battle: its version is its entity tag.

`GET /battles/{id}` and `GET /battles/{id}/state` answer `ETag: "<version>"` (the view
also depends on the key, hence `Vary: Authorization`); `If-None-Match` with that tag
answers 304 with no body. On `POST /battles/{id}/commands`, `If-Match: "<version>"` is
the header form of `expected_version`: a stale one is refused with 412 and nothing is
appended. `If-Match` may list several tags (RFC 9110 §13.1.1): the command runs if the
battle is at one of them; a weak tag (`W/"12"`) never matches (If-Match compares
strongly), and `*` matches any version. Malformed tags are refused (400), never ignored:
a client that believes it sent a precondition must not have a command run without one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from litestar import Response
from litestar.datastructures import ResponseHeader
from litestar.exceptions import ValidationException
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Operation, Parameter, Schema
from litestar.openapi.spec.enums import OpenAPIType

from service.errors import ServiceError, Unprocessable

__all__ = [
    "ETAG_HEADER",
    "IF_MATCH_PARAMETER",
    "NOT_MODIFIED",
    "ConditionalRead",
    "PreconditionFailed",
    "etag",
    "if_match_needs_current",
    "if_match_version",
    "tagged",
]

# A tag is the version in quotes; the bare version is taken too (some clients, and
# schemathesis, drop the quotes of a header value).
_TAG = r'(?:W/)?(?:"[0-9]{1,16}"|[0-9]{1,16})'
# A list (RFC 9110 §5.6.1): empty elements (`"1",,"2"`, a leading or trailing comma) are
# taken and ignored, as a recipient must; at least one tag.
IF_MATCH_PATTERN = rf"^(\*|(\s*,)*\s*{_TAG}((\s*,)+\s*{_TAG})*(\s*,)*)$"
IF_NONE_MATCH_PATTERN = IF_MATCH_PATTERN
_IF_MATCH = re.compile(IF_MATCH_PATTERN)
_TAGS = re.compile(r'(?:W/)?"?([0-9]{1,16})"?')
_EACH_TAG = re.compile(r'(W/)?"?([0-9]{1,16})"?')


def _header(name: str, pattern: str, description: str) -> Parameter:
    # A plain string, not Litestar's `oneOf [string, null]` for an optional header: a
    # header is absent or a string, and "null" would be a malformed tag.
    return Parameter(
        name=name,
        param_in="header",
        required=False,
        description=description,
        schema=Schema(type=OpenAPIType.STRING, pattern=pattern, description=description),
    )


IF_MATCH_PARAMETER = _header(
    "If-Match",
    IF_MATCH_PATTERN,
    'The header form of expected_version: the battle version in quotes ("12", as its '
    'ETag), a list of them ("12", "13": any one), or *; when the battle is at none of '
    "them the command is refused with 412 and nothing is appended (a weak tag never "
    "matches)",
)
_IF_NONE_MATCH_PARAMETER = _header(
    "If-None-Match",
    IF_NONE_MATCH_PATTERN,
    "ETags received before: answered 304, with no body, while one of them is current",
)
_IF_NONE_MATCH = re.compile(IF_NONE_MATCH_PATTERN)


@dataclass
class ConditionalRead(Operation):
    """A read answering ETag: documents the If-None-Match header `tagged` reads."""

    def __post_init__(self) -> None:
        self.parameters = [*(self.parameters or []), _IF_NONE_MATCH_PARAMETER]


ETAG_HEADER = [
    ResponseHeader(
        name="ETag",
        description='The battle version the answer shows, quoted ("12"): send it back as '
        "If-None-Match to be answered 304 while nothing changed",
        value='"1"',  # an example: documented as a string (the handler sets the real one)
        required=True,
        documentation_only=True,
    ),
]
NOT_MODIFIED = {
    304: ResponseSpec(
        data_container=None, description="Not modified: If-None-Match names this version"
    )
}


class PreconditionFailed(ServiceError):
    """If-Match named a version the battle is no longer (or not yet) at."""

    code = "precondition-failed"
    status = 412
    title = "The battle is not at the version If-Match names"


def etag(version: int) -> str:
    return f'"{version}"'


def _header_of(request: Any, name: bytes) -> str | None:
    for key, raw in request.scope["headers"]:  # ASGI: names in lower case
        if key == name:
            return str(raw.decode("latin-1")).strip()
    return None


def _malformed(request: Any, header: str, message: str) -> ValidationException:
    return ValidationException(
        detail=f"Validation failed for {request.method} {request.url.path}",
        extra=[{"message": message, "key": header, "source": "header"}],
    )


def tagged(request: Any, content: Any, version: int) -> Response[Any]:
    """`content` with its ETag, or a bodiless 304 when the request's `If-None-Match`
    names it."""
    tag = etag(version)
    # private: the view depends on the key, and CORS may replace Vary with "Origin", so
    # no shared cache may keep it; no-cache: a client revalidates (If-None-Match, 304).
    headers = {"ETag": tag, "Vary": "Authorization", "Cache-Control": "private, no-cache"}
    text = _header_of(request, b"if-none-match")
    if text is not None:
        if not _IF_NONE_MATCH.match(text):
            raise _malformed(
                request, "If-None-Match", 'If-None-Match must be ETags received ("12"), or *'
            )
        named = {int(v) for v in _TAGS.findall(text)}
        if text == "*" or version in named:  # weak comparison (§13.1.2)
            return Response(None, status_code=304, headers=headers)
    return Response(content, headers=headers)


def _if_match(request: Any) -> tuple[str, list[tuple[bool, int]]] | None:
    """The `If-Match` header and its tags as (weak, version), None without one or for `*`."""
    value = _header_of(request, b"if-match")
    if value is None or value == "*":
        return None
    if not _IF_MATCH.match(value):
        raise _malformed(
            request,
            "If-Match",
            'If-Match must be battle versions in quotes ("12", or "12", "13"), or *',
        )
    return value, [(weak == "W/", int(v)) for weak, v in _EACH_TAG.findall(value)]


def if_match_needs_current(request: Any) -> bool:
    """Whether the command's `If-Match` can only be judged on the battle's current version
    (it lists several tags, or a weak one): the route then hands it to `if_match_version`."""
    parsed = _if_match(request)
    return parsed is not None and (len(parsed[1]) > 1 or any(weak for weak, _ in parsed[1]))


def if_match_version(
    request: Any, expected_version: int | None, current_version: int | None = None
) -> int | None:
    """The version the command's `If-Match` requires (None: no header, or `*`), checked
    against the body's `expected_version` when both are sent. A list of tags requires
    the battle's `current_version` if it is one of them (412 if not); without it (a route
    that does not give it), only one tag is taken."""
    parsed = _if_match(request)
    if parsed is None:
        return None
    value, tags = parsed
    strong = [v for weak, v in tags if not weak]  # If-Match compares strongly (§13.1.1)
    if expected_version is not None:
        if expected_version not in strong:
            raise Unprocessable(  # both well formed: 422, as for what the battle refuses
                f"If-Match is {value} but expected_version is {expected_version}",
                code="conflicting-preconditions",
            )
        return expected_version
    if len(tags) == 1 and strong:
        return strong[0]
    if current_version is None:
        raise _malformed(
            request, "If-Match", 'this route takes one battle version in If-Match ("12"), or *'
        )
    if current_version in strong:
        return current_version
    raise PreconditionFailed(
        f"the battle is at version {current_version}, not one If-Match names ({value}; "
        "a weak tag never matches)",
        current_version=current_version,
        headers={"ETag": etag(current_version)},
    )
