"""The strict copies of model Structs that the rulesets' view types are made of
(domain.rulesets.view_mirror): the same fields and types, every one required but those
named in `maybe` (absent: UNSET), `extra` fields added after the model's, nested model
Structs copied once each (named `<Model>View`), sets as lists, an already strict Struct
kept, the copy frozen, keyword-only, refusing unknown fields and tagged as its model is.
The rulesets build theirs at import: the copies are made inside the tests here, so that a
mutation run reaches `strict_copy`."""

from __future__ import annotations

import typing
from typing import Annotated, Literal

import msgspec
import pytest
from msgspec import UNSET, UnsetType

from domain.rulesets.phased import view_types as phased_views
from domain.rulesets.phased.model import Action
from domain.rulesets.tactical import view_types as tactical_views
from domain.rulesets.view_mirror import strict_copy
from domain.rulesets.warfare import view_types as warfare_views
from domain.rulesets.warfare.model import Unit

LIMIT = msgspec.Meta(ge=0, le=9)
NOTE = msgspec.Meta(description="an inner one")


class Inner(msgspec.Struct):
    a: int


class Held(msgspec.Struct, frozen=True):
    h: str


class Middle(msgspec.Struct):
    inner: Inner
    held: Held


class Strict(msgspec.Struct, forbid_unknown_fields=True):
    s: str


class Tagged(msgspec.Struct, tag="tg", tag_field="kind"):
    x: int


class Model(msgspec.Struct):
    n: Annotated[int, LIMIT]
    noted: Annotated[Inner, NOTE]
    inner: Inner
    middle: Middle
    either: Inner | None
    optional: typing.Optional[Inner]  # noqa: UP045 (typing.Union's spelling, on purpose)
    names: frozenset[str]
    helds: frozenset[Held]
    plain_set: set[int]
    row: tuple[Inner, ...]
    pair: tuple[int, Inner]
    many: list[Inner]
    by_name: dict[str, Inner]
    strict: Strict
    kind: Literal["a", "b"]
    loose: typing.Tuple  # type: ignore[type-arg]  # noqa: UP006 (a bare generic: kept as it is)
    hidden: int = 0


def _types(struct: type[msgspec.Struct]) -> dict[str, object]:
    return {f.name: f.type for f in msgspec.structs.fields(struct)}


def test_a_strict_copy_has_the_models_fields_with_nested_models_copied_once() -> None:
    view = strict_copy(Model, "ModelView", maybe=("hidden",), extra=[("down", bool)])
    types = _types(view)
    inner, middle = types["inner"], types["middle"]
    assert isinstance(inner, type) and issubclass(inner, msgspec.Struct)
    assert isinstance(middle, type) and issubclass(middle, msgspec.Struct)
    assert (inner.__name__, middle.__name__) == ("InnerView", "MiddleView")
    assert inner is not Inner and _types(inner) == {"a": int}
    held = _types(middle)["held"]
    assert isinstance(held, type) and held.__name__ == "HeldView"
    assert _types(middle) == {"inner": inner, "held": held}  # the same copy, nested too
    assert types == {
        "n": Annotated[int, LIMIT],
        "noted": Annotated[inner, NOTE],
        "inner": inner,
        "middle": middle,
        "either": inner | None,
        "optional": inner | None,
        "names": list[str],
        "helds": list[held],
        "plain_set": list[int],
        "row": tuple[inner, ...],
        "pair": tuple[int, inner],
        "many": list[inner],
        "by_name": dict[str, inner],
        "strict": Strict,
        "kind": Literal["a", "b"],
        "loose": typing.Tuple,  # noqa: UP006
        "hidden": int | UnsetType,
        "down": bool,
    }
    required = {f.name: (f.required, f.default) for f in msgspec.structs.fields(view)}
    assert required.pop("hidden") == (False, UNSET)
    assert set(required.values()) == {(True, msgspec.NODEFAULT)}
    assert (view.__name__, view.__module__) == ("ModelView", Model.__module__)


def test_an_extra_field_of_a_model_type_is_copied_with_the_others() -> None:
    view = strict_copy(Middle, "MiddleCopy", extra=[("more", Inner), ("also", list[Held])])
    types = _types(view)
    assert list(types) == ["inner", "held", "more", "also"]
    held = types["held"]
    assert types["more"] is types["inner"] and types["also"] == list[held]  # type: ignore[valid-type]


def test_a_strict_copy_is_frozen_keyword_only_and_refuses_unknown_fields() -> None:
    view = strict_copy(Inner, "InnerCopy")
    copy = view(a=1)
    with pytest.raises(AttributeError):
        copy.a = 2  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        view(1)
    assert msgspec.json.decode(b'{"a": 3}', type=view) == view(a=3)
    with pytest.raises(msgspec.ValidationError, match="unknown field"):
        msgspec.json.decode(b'{"a": 3, "b": 4}', type=view)
    with pytest.raises(msgspec.ValidationError, match="missing required field"):
        msgspec.json.decode(b"{}", type=view)
    config = view.__struct_config__
    assert (config.frozen, config.forbid_unknown_fields) == (True, True)
    assert (config.tag, config.tag_field) == (None, None)


def test_a_strict_copy_is_tagged_as_its_model() -> None:
    view = strict_copy(Tagged, "TaggedCopy")
    assert (view.__struct_config__.tag, view.__struct_config__.tag_field) == ("tg", "kind")
    assert msgspec.json.encode(view(x=1)) == b'{"kind":"tg","x":1}'
    assert msgspec.json.decode(b'{"kind":"tg","x":2}', type=view) == view(x=2)


@pytest.mark.parametrize(
    ("made", "model", "name", "maybe", "extra"),
    [
        (warfare_views.UnitView, Unit, "UnitView", (), [("diminished", bool)]),
        (
            tactical_views.CharacterView,
            tactical_views.Char,
            "CharacterView",
            tactical_views._MAYBE_HIDDEN,
            [("down", bool)],
        ),
        (
            phased_views.ActionView,
            Action,
            "ActionView",
            (),
            [("start_phase", str), ("due_phase", str)],
        ),
    ],
)
def test_the_rulesets_view_types_are_their_models_strict_copies(
    made: type[msgspec.Struct],
    model: type[msgspec.Struct],
    name: str,
    maybe: tuple[str, ...],
    extra: list[tuple[str, type]],
) -> None:
    again = strict_copy(model, name, maybe=maybe, extra=extra)
    assert msgspec.json.schema(again) == msgspec.json.schema(made)
