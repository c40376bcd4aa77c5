"""Strict copies of model Structs, for the view types of the rulesets' `view`.

Where a ruleset's `view` gives a model Struct as `msgspec.to_builtins` makes it (a tactical
character, a warfare unit), its view type is that Struct's strict copy: the same fields and
types, every field required (the view always writes every field), unknown fields refused,
nested model Structs copied the same way, sets as the lists the view gives. Fields the view
leaves out for some readers are named in `maybe` (absent: UNSET) and fields it adds in
`extra`. Built from the model itself, the copy follows it when a field is added.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Collection, Sequence
from typing import Annotated, Any, Union, get_args, get_origin

import msgspec
from msgspec import UNSET, UnsetType

__all__ = ["strict_copy"]

_SETS = (frozenset, set)


def _strict(t: Any, names: dict[type, type]) -> Any:
    """`t` with every model Struct in it replaced by its strict copy."""
    if isinstance(t, type) and issubclass(t, msgspec.Struct):
        if t.__struct_config__.forbid_unknown_fields:
            return t  # a setup or options Struct: already strict
        if t not in names:
            names[t] = strict_copy(t, t.__name__ + "View", _names=names)
        return names[t]
    origin = get_origin(t)
    args = get_args(t)
    if origin is None or not args:
        return t
    if origin is Annotated:
        return Annotated[(_strict(args[0], names), *t.__metadata__)]
    if origin is Union or type(t).__name__ == "UnionType":
        return functools.reduce(operator.or_, [_strict(a, names) for a in args])
    if origin in _SETS:
        return list[_strict(args[0], names)]  # type: ignore[misc]
    if origin in (tuple, list, dict):
        return origin[tuple(a if a is Ellipsis else _strict(a, names) for a in args)]
    return t  # Literal and the like


def strict_copy(
    model: type[msgspec.Struct],
    name: str,
    *,
    maybe: Collection[str] = (),
    extra: Sequence[tuple[str, Any]] = (),
    _names: dict[type, type] | None = None,
) -> type[msgspec.Struct]:
    """The strict copy of `model` named `name`: `maybe` fields may be absent, `extra`
    fields (name, type) are added after the model's."""
    names: dict[type, type] = {} if _names is None else _names
    fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
    for f in msgspec.structs.fields(model):
        t = _strict(f.type, names)
        fields.append((f.name, t | UnsetType, UNSET) if f.name in maybe else (f.name, t))
    fields.extend((n, _strict(t, names)) for n, t in extra)
    config = model.__struct_config__
    tag: Any = config.tag
    return msgspec.defstruct(
        name,
        fields,
        frozen=True,
        kw_only=True,
        forbid_unknown_fields=True,
        tag_field=config.tag_field if tag is not None else None,
        tag=tag,
        module=model.__module__,
    )
