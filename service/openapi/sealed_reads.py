"""OpenAPI for the answers that hold whole and sealed events side by side.

`EventPage`, `OriginEventPage` and `CommandResponse` hold `list[EventOut | SealedEventOut]`:
msgspec encodes such a list as it is, but cannot describe a union of two untagged Structs
(`msgspec.inspect` refuses it), which is how Litestar documents a Struct. Neither event
shape carries a tag (a sealed event is `{"version", "audience", "prev_hash", "hash",
"sealed": true}` and nothing else), so these three are documented from their fields
(`msgspec.structs.fields`), each event as a `oneOf` of the two shapes: a sealed event
lacks `type` and `data`, a whole one lacks `sealed`, so exactly one branch fits.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar.openapi.spec import Schema
from litestar.plugins import OpenAPISchemaPlugin
from litestar.types import Empty
from litestar.typing import FieldDefinition

from service.schemas import CommandResponse, EventPage, OriginEventPage

__all__ = ["ReadsSchemaPlugin"]

_DOCUMENTED: tuple[type[msgspec.Struct], ...] = (CommandResponse, EventPage, OriginEventPage)


class ReadsSchemaPlugin(OpenAPISchemaPlugin):
    """Documents the Structs whose events may be sealed, field by field."""

    def is_plugin_supported_field(self, field_definition: FieldDefinition) -> bool:
        return not field_definition.is_union and field_definition.annotation in _DOCUMENTED

    def to_openapi_schema(self, field_definition: FieldDefinition, schema_creator: Any) -> Schema:
        hints = field_definition.get_type_hints(include_extras=True, resolve_generics=True)
        fields = msgspec.structs.fields(field_definition.type_)
        properties = {
            f.encode_name: FieldDefinition.from_annotation(
                annotation=hints[f.name],
                name=f.encode_name,
                default=Empty if f.default is msgspec.NODEFAULT else f.default,
            )
            for f in fields
        }
        schema: Schema = schema_creator.create_component_schema(
            field_definition,
            required=sorted(f.encode_name for f in fields if f.required),
            property_fields=properties,
        )
        return schema
