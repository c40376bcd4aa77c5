"""The command route's body, headers and answer, with less of Litestar's general machinery.

`POST /battles/{id}/commands` is the hot path:

- Litestar would decode the JSON body to Python objects, convert those to
  `CommandRequest`, and the service would then encode the command again to decode it
  with the battle's ruleset. Here the body is decoded straight into a `CommandRequest`
  whose `command` stays raw JSON (`msgspec.Raw`), which the ruleset's decoder then
  reads once. Litestar passes a ready `CommandRequest` through its signature model
  untouched, and still documents the body from the handler's `data`.
- The body is read from the ASGI messages as `Request.body` reads it (the same size
  limit, 413 and errors), but its announced length comes straight from the scope's
  headers: `Request.content_length` builds a `Headers` of them all to find it.
- Its two headers are read from the ASGI scope (`command_headers`) instead of being
  declared parameters, and documented by `CommandOperation` as Litestar documents
  declared ones.
- Its answer is encoded by a ready msgspec encoder and sent as one small ASGI app
  (`CommandAnswer`, the route's `response_class`), with the status and the two headers
  Litestar's own `ASGIResponse` would send, without the header container, the encoder
  lookup and the deprecation checks it goes through for any response.

Errors keep Litestar's shape: malformed JSON is a 400 from `SerializationException`, an
invalid field or header a `ValidationException` naming it, as the signature model does.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.datastructures import State
from litestar.exceptions import (
    ClientException,
    InternalServerException,
    SerializationException,
    ValidationException,
)
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.openapi.spec import OpenAPIType, Operation, Parameter, Schema
from litestar.plugins import OpenAPISchemaPlugin
from litestar.types import Empty
from litestar.typing import FieldDefinition

from service.decoding import UNREADABLE, field_of, invalid_body
from service.http.conditional import IF_MATCH_PARAMETER
from service.http.json_body import require_json
from service.http.prefer import PREFER_PARAMETER
from service.schemas import CommandBatchRequest, CommandRequest

__all__ = [
    "AUTHORIZATION_DOC",
    "IDEMPOTENCY_KEY_DOC",
    "IDEMPOTENCY_KEY_MAX",
    "BatchBodyRequest",
    "CommandAnswer",
    "CommandBodyRequest",
    "CommandOperation",
    "RawJSONObjectPlugin",
    "command_headers",
]

AUTHORIZATION_DOC = (
    "Bearer <key>: the battle's referee, side or observer key, or the key of the "
    "integration that created it"
)
IDEMPOTENCY_KEY_DOC = "Retrying with the same key returns the first answer and appends nothing"
IDEMPOTENCY_KEY_MAX = 200

_decode_command_request = msgspec.json.Decoder(CommandRequest).decode
_decode_batch_request = msgspec.json.Decoder(CommandBatchRequest).decode


def _content_length(headers: Any) -> int | None:
    """The first Content-Length of ASGI headers, as `Request.content_length` reads it."""
    for name, value in headers:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                raise ClientException(
                    f"Invalid content-length: {value.decode('latin-1')!r}"
                ) from None
    return None


class CommandBodyRequest(Request[Any, Any, State]):
    """A request whose JSON body is a `CommandRequest`, decoded with a decoder built once."""

    _decode: Callable[[bytes], Any] = staticmethod(_decode_command_request)

    async def body(self) -> bytes:
        body = self._body
        if body is Empty:
            body = self._connection_state.body
            if body is Empty:
                body = self._connection_state.body = await self._receive_body()
            self._body = body
        return body

    async def _receive_body(self) -> bytes:
        if not self.is_connected:
            raise InternalServerException("stream consumed")
        limit = self.route_handler.resolve_request_max_body_size() or math.inf
        announced = _content_length(self.scope["headers"])
        if announced is not None and announced > limit:
            raise RequestEntityTooLarge
        chunks: list[bytes] = []
        received = 0
        while True:
            event = await self.receive()
            if event["type"] == "http.request":
                chunk = event.get("body", b"")
                if chunk:
                    received += len(chunk)
                    if received > limit:  # the limit holds for the bytes, whatever was announced
                        raise RequestEntityTooLarge
                    chunks.append(chunk)
                if not event.get("more_body", False):
                    break
            elif event["type"] == "http.disconnect":
                raise InternalServerException("client disconnected prematurely")
        self.is_connected = False
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)

    async def json(self) -> Any:
        require_json(self.scope["headers"])
        body = await self.body()
        try:
            return self._decode(body)
        except msgspec.ValidationError as e:
            message, key = field_of(e)
            raise ValidationException(
                detail=f"Validation failed for {self.method} {self.url.path}",
                extra=[{"message": message, "key": key, "source": "body"}],
            ) from e
        except msgspec.DecodeError as e:  # not JSON at all: Litestar answers 400 with it
            raise SerializationException(str(e)) from e
        except UNREADABLE as e:  # invalid UTF-8 in a string, or nested too deeply
            raise invalid_body(e) from None


class BatchBodyRequest(CommandBodyRequest):
    """A request whose JSON body is a `CommandBatchRequest` (POST .../commands/batch)."""

    _decode: Callable[[bytes], Any] = staticmethod(_decode_batch_request)


_encode_json = msgspec.json.Encoder().encode
_JSON = b"application/json"


class _JSONSent:
    """The ASGI app for an encoded JSON body: the two messages `ASGIResponse` sends."""

    __slots__ = ("body", "extra", "status")

    def __init__(
        self, body: bytes, status: int, extra: list[tuple[bytes, bytes]] | None = None
    ) -> None:
        self.body = body
        self.status = status
        self.extra = extra  # the response's own headers, encoded (Preference-Applied)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        body = self.body
        headers = [
            (b"content-type", _JSON),
            (b"content-length", str(len(body)).encode("latin-1")),
        ]
        if self.extra:
            headers = [*self.extra, *headers]
        await send({"type": "http.response.start", "status": self.status, "headers": headers})
        await send({"type": "http.response.body", "body": body, "more_body": False})


class CommandAnswer(Response[Any]):
    """The command route's response class: its content (a msgspec Struct of plain fields)
    encoded by a ready encoder. Anything else a response may carry (background tasks,
    cookies, headers, another media type) goes through Litestar's `Response` as usual.
    Type encoders are not consulted: a `CommandResponse` holds nothing that needs one."""

    def __init__(
        self,
        content: Any,
        *,
        status_code: int = 200,
        media_type: Any = "application/json",
        background: Any = None,
        headers: dict[str, str] | None = None,
        **general: Any,  # cookies, encoding, type encoders: for the general path
    ) -> None:
        self.content = content
        self.status_code = status_code
        self._headers = headers
        self._general: dict[str, Any] | None = None
        if (
            background is not None
            or media_type != "application/json"
            or (general and any(v for k, v in general.items() if k != "type_encoders"))
        ):
            self._general = {
                "background": background,
                "media_type": media_type,
                "headers": headers,
                **general,
            }

    def to_asgi_response(self, app: Any, request: Any, **given: Any) -> Any:
        # Litestar's handler always passes the route's media type, status code and type
        # encoders (the response's own win, and this content needs no type encoder): only
        # something more to send (headers, cookies, a background task, a HEAD) takes the
        # general path.
        # (What Litestar may hand it that the fast path does not send, tested one by one.)
        if self._general is None and not (
            given.get("background")
            or given.get("cookies")
            or given.get("encoded_headers")
            or given.get("headers")
            or given.get("is_head_response")
        ):
            extra = None
            if self._headers:
                extra = [
                    (name.lower().encode("latin-1"), value.encode("latin-1"))
                    for name, value in self._headers.items()
                ]
            return _JSONSent(_encode_json(self.content), self.status_code or 200, extra)
        general = Response(
            self.content,
            status_code=self.status_code,
            **(self._general or {"headers": self._headers}),
        )
        return general.to_asgi_response(app, request, **given)


class RawJSONObjectPlugin(OpenAPISchemaPlugin):
    """Documents `msgspec.Raw` fields as JSON objects: every one in the API holds an
    object (a command as sent, an event as stored), which Litestar cannot know."""

    def is_plugin_supported_field(self, field_definition: FieldDefinition) -> bool:
        return field_definition.annotation is msgspec.Raw

    def to_openapi_schema(self, field_definition: FieldDefinition, schema_creator: Any) -> Schema:
        return Schema(type=OpenAPIType.OBJECT, additional_properties=Schema())


def command_headers(request: Request[Any, Any, Any]) -> tuple[str | None, str | None]:
    """The request's Authorization and Idempotency-Key headers (the first of each), or None.

    An Idempotency-Key must be 1 to 200 characters, as `CommandOperation` documents.
    """
    authorization = idempotency_key = None
    for name, value in request.scope["headers"]:  # ASGI: names in lower case
        if name == b"authorization":
            if authorization is None:
                authorization = value.decode("latin-1")
        elif name == b"idempotency-key" and idempotency_key is None:
            idempotency_key = value.decode("latin-1")
    if idempotency_key is not None and not 1 <= len(idempotency_key) <= IDEMPOTENCY_KEY_MAX:
        raise ValidationException(
            detail=f"Validation failed for {request.method} {request.url.path}",
            extra=[
                {
                    "message": f"Expected `str` of length 1 to {IDEMPOTENCY_KEY_MAX}",
                    "key": "Idempotency-Key",
                    "source": "header",
                }
            ],
        )
    return authorization, idempotency_key


def _optional_header(name: str, description: str, **constraints: Any) -> Parameter:
    schema = Schema(
        one_of=[Schema(type=OpenAPIType.STRING), Schema(type=OpenAPIType.NULL)],
        description=description,
        **constraints,
    )
    return Parameter(
        name=name,
        param_in="header",
        schema=schema,
        description=description,
        required=False,
        deprecated=False,
    )


_COMMAND_HEADERS = [
    _optional_header("Authorization", AUTHORIZATION_DOC),
    _optional_header(
        "Idempotency-Key", IDEMPOTENCY_KEY_DOC, min_length=1, max_length=IDEMPOTENCY_KEY_MAX
    ),
    IF_MATCH_PARAMETER,
    PREFER_PARAMETER,
]


@dataclass
class CommandOperation(Operation):
    """The command route's OpenAPI operation, with the headers `command_headers` reads."""

    def __post_init__(self) -> None:
        self.parameters = [*(self.parameters or []), *_COMMAND_HEADERS]
