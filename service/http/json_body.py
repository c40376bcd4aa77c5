"""JSON bodies that msgspec cannot read as text answer 400, on every route.

msgspec turns two kinds of hostile JSON into exceptions that are not `msgspec.DecodeError`,
so Litestar's `decode_json` lets them through as a 500:

- a string holding bytes that are not UTF-8 raises `UnicodeDecodeError`, when the
  string is decoded (a `msgspec.Raw` keeps the bytes unread: the command route meets it
  when the ruleset decodes the command, or when an Idempotency-Key's request is hashed);
- arrays or objects nested deeper than the interpreter's recursion limit (50,000 `[`)
  raise `RecursionError`.

`JSONBodyRequest` (the app's request class) and the command route's own decoding turn
both into `InvalidBody`, a 400 problem of type `invalid-body`; nothing is decoded further
and nothing is appended. A body that is not JSON at all stays Litestar's 400
`invalid-request`. A JSON body sent as another media type (`text/plain`, a form) is a
415 `unsupported-media-type` (`require_json`); one sent with no `Content-Type` is read
as JSON, as before. `StrictStructSchemaPlugin` documents the request Structs that refuse
unknown fields as such, and a body's fields that are decoded later with a ruleset's own
types (a battle's setup and options) as those types, bounds included.
"""

from __future__ import annotations

from typing import Annotated, Any, TypeVar, get_args, get_origin, get_type_hints

import msgspec
from litestar import Request
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.datastructures import State
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.spec import OpenAPIType, Schema
from litestar.typing import FieldDefinition

from service.decoding import UNREADABLE, field_of, invalid_body

__all__ = [
    "BATCH_BODY_MAX",
    "COMMAND_BODY_MAX",
    "CREATE_BODY_MAX",
    "IMPORT_BODY_MAX",
    "SMALL_BODY_MAX",
    "VERIFY_BODY_MAX",
    "JSONBodyRequest",
    "StrictStructSchemaPlugin",
    "require_json",
]

T = TypeVar("T")

# Body sizes per route (a larger body is a 413 before it is read whole). A battle's setup
# and options are its largest body: the largest setup the rulesets' limits allow (400
# squads, 400 barriers, 100 heroes with 32 skills each) is about 200 KB of JSON. One
# command is far smaller, but a skirmish RaiseArmy may describe many attack profiles.
# Everything else (a fork, an integration, a dice reveal) is a few short fields.
CREATE_BODY_MAX = 1024 * 1024  # POST /battles
IMPORT_BODY_MAX = 32 * 1024 * 1024  # POST /battles/import: an export (about 50,000 events)
COMMAND_BODY_MAX = 256 * 1024  # POST /battles/{id}/commands
BATCH_BODY_MAX = 1024 * 1024  # POST /battles/{id}/commands/batch: up to BATTLE_BATCH_MAX commands
VERIFY_BODY_MAX = 128 * 1024  # POST /battles/{id}/verify: up to MAX_RECEIPTS receipts
SMALL_BODY_MAX = 16 * 1024  # every other route (the app's default)

_STRICT: dict[Any, type | None] = {}  # a body's annotation -> its Struct, if it is one


def _body_struct(handler: Any) -> type | None:
    """The msgspec Struct the handler's `data` is, if it is one."""
    field = handler.parsed_data_field  # Litestar keeps it on the handler
    if field is None:
        return None
    annotation = field.annotation
    if annotation not in _STRICT:
        inner = annotation
        while get_origin(inner) is Annotated:
            inner = get_args(inner)[0]
        struct = isinstance(inner, type) and issubclass(inner, msgspec.Struct)
        _STRICT[annotation] = inner if struct else None
    return _STRICT[annotation]


def _is_json(media_type: str) -> bool:
    essence = media_type.split(";", 1)[0].strip().lower()
    return essence == "application/json" or (
        essence.startswith("application/") and essence.endswith("+json")
    )


def require_json(headers: Any) -> None:
    """415 when the request's `Content-Type` (ASGI headers) names anything but JSON
    (`application/json`, or an `application/*+json` type, with any parameters)."""
    for name, value in headers:
        if name == b"content-type":
            media_type = value.decode("latin-1")
            if not _is_json(media_type):
                raise HTTPException(
                    status_code=415,
                    detail=f"this route reads a JSON body: send it as application/json, "
                    f"not {media_type[:80]!r}",
                    headers={"Accept": "application/json"},
                )
            return


class JSONBodyRequest(Request[Any, Any, State]):
    """The app's request class: `json()` as Litestar's, unreadable bodies a 400.

    A body whose handler takes a msgspec Struct is converted strictly into that Struct, as
    the command route's is (service.http.command_body): Litestar's own conversion is lenient
    and took `"2"` and `2.0` for an integer (a fork's `at_version`) where the command
    route refused `2.0` for `expected_version`; now every body is read as its schema
    says (a whole float is a 400 everywhere, the README's one known gap)."""

    async def json(self) -> Any:
        require_json(self.scope["headers"])
        try:
            data = await super().json()
        except UNREADABLE as e:
            raise invalid_body(e) from None
        struct = _body_struct(self.route_handler)
        if struct is None or data is None:
            return data
        try:
            return msgspec.convert(data, struct)  # strict: no "2" or 2.0 for an int
        except msgspec.ValidationError as e:
            message, key = field_of(e)
            raise ValidationException(
                detail=f"Validation failed for {self.method} {self.url.path}",
                extra=[{"message": message, "key": key, "source": "body"}],
            ) from e


class StrictStructSchemaPlugin(StructSchemaPlugin):
    """Documents a msgspec Struct that refuses unknown fields with `additionalProperties:
    false`, as `msgspec.json.schema` does (Litestar's own Struct plugin leaves it out).
    `fields` documents some fields as another type than their own (Struct -> field -> type):
    a field decoded later, with a type the Struct cannot name (a ruleset's setup)."""

    def __init__(self, fields: dict[type, dict[str, Any]] | None = None) -> None:
        self.fields = fields or {}

    def is_plugin_supported_field(self, field_definition: FieldDefinition) -> bool:
        return super().is_plugin_supported_field(field_definition) and bool(
            getattr(field_definition.type_, "__struct_config__", None)
            and field_definition.type_.__struct_config__.forbid_unknown_fields
        )

    def to_openapi_schema(self, field_definition: FieldDefinition, schema_creator: Any) -> Schema:
        schema = super().to_openapi_schema(field_definition, schema_creator)
        schema.additional_properties = False
        hints = get_type_hints(field_definition.type_, include_extras=True)
        for name, value in (schema.properties or {}).items():
            _drop_empty_items(value)
            _item_bounds(value, hints.get(name))
            _optional_int_bounds(value, hints.get(name))
        documented = self.fields.get(field_definition.type_, {})
        if documented and schema.properties is not None:
            schema.properties = {
                **schema.properties,
                **{name: _any_of(schema_creator, a, name) for name, a in documented.items()},
            }
        return schema


def _drop_empty_items(schema: Any) -> None:
    """Litestar documents the items of `tuple[Annotated[T, Meta(..)], ...]` as `oneOf: [T,
    {}]`, which a T (valid under both) fails: keep T alone."""
    for member in [schema, *(getattr(schema, "one_of", None) or [])]:
        items = getattr(member, "items", None)
        if isinstance(items, Schema) and items.one_of:
            kept = [m for m in items.one_of if m != Schema()]
            if len(kept) == 1 and len(kept) < len(items.one_of):
                member.items = kept[0]


def _item_bounds(schema: Any, annotation: Any) -> None:
    """Litestar leaves out the bounds of a list's items (`list[Annotated[int, Meta(ge=1)]]`
    is documented as a list of any integer): copy them from the annotation, so that the
    document refuses what the decoder refuses."""
    meta = _items_meta(annotation)
    if meta is None:
        return
    for member in [schema, *(getattr(schema, "one_of", None) or [])]:
        items = getattr(member, "items", None)
        if isinstance(items, Schema):
            if meta.ge is not None:
                items.minimum = meta.ge
            if meta.le is not None:
                items.maximum = meta.le


def _optional_int_bounds(schema: Any, annotation: Any) -> None:
    """Litestar documents `Annotated[int, Meta(ge=0)] | None` as `{maximum, oneOf: [integer,
    null]}`: the bound beside the `oneOf` and `ge=0` dropped (it keeps only truthy bounds).
    Put both bounds on the integer branch, where they are read and where 0 is kept."""
    one_of = getattr(schema, "one_of", None)
    if not one_of or annotation is None:
        return
    meta = _int_meta(annotation)
    if meta is None:
        return
    for member in one_of:
        if getattr(member, "type", None) == OpenAPIType.INTEGER:
            member.minimum = meta.ge
            member.maximum = meta.le
            schema.minimum = None
            schema.maximum = None


def _int_meta(annotation: Any) -> msgspec.Meta | None:
    """The `Meta` of `Annotated[int, Meta(..)] | None`, if that is what `annotation` is."""
    args = [a for a in get_args(annotation) if a is not type(None)]
    if len(args) != 1 or get_origin(args[0]) is not Annotated:
        return None
    inner, *extras = get_args(args[0])
    metas = [m for m in extras if isinstance(m, msgspec.Meta)]
    return metas[0] if inner is int and metas else None


def _items_meta(annotation: Any) -> msgspec.Meta | None:
    """The `Meta` on the items of the list inside `annotation` (through `Annotated` and
    `| None`), if any."""
    if annotation is None:
        return None
    origin = get_origin(annotation)
    if origin is Annotated:
        return _items_meta(get_args(annotation)[0])
    if origin is list:
        (item,) = get_args(annotation)
        if get_origin(item) is Annotated:
            metas = [m for m in get_args(item)[1:] if isinstance(m, msgspec.Meta)]
            return metas[0] if metas else None
        return None
    for arg in get_args(annotation):
        found = _items_meta(arg)
        if found is not None:
            return found
    return None


def _any_of(schema_creator: Any, annotation: Any, name: str) -> Any:
    """The schema of `annotation`; a union as `anyOf` (Litestar writes `oneOf`, which an
    object valid under several members, such as `{}` for options, would fail)."""
    schema = schema_creator.for_field_definition(
        FieldDefinition.from_annotation(annotation, name=name)
    )
    if isinstance(schema, Schema) and schema.one_of:
        return Schema(any_of=schema.one_of)
    return schema
