"""The state of a battle as one schema per ruleset in the OpenAPI document.

`BattleView.state` (getBattle, getStateAtVersion) is what the battle's ruleset's `view`
gives, which its `view_type` describes (domain.rulesets.*.view_types). Litestar documents
`state` as `{}`; `add_state_schemas(doc)` puts in, from the view types themselves
(`msgspec.json.schema_components`, so the document cannot drift from the views):

- per ruleset, `<Ruleset>State` (the view) and the components it uses, each named
  `<Ruleset>State<Name>` (quickstart's and warfare's views both have a unit-like Struct,
  and three rulesets an `Options`);
- per ruleset, `<Ruleset>BattleView`: Litestar's BattleView with `ruleset` fixed to the
  ruleset's id and `state` that ruleset's state;
- `BattleView` as the `oneOf` of those, with a `discriminator` on `ruleset`, so that
  `openapi-python-client` and `openapi-typescript` pick one class per ruleset.

The answer on the wire is unchanged: only its description is typed.
"""

from __future__ import annotations

import copy
from typing import Any

import msgspec

from domain.rulesets import RULESETS
from service.openapi.unions import _closed_tuples, prefix_of

__all__ = ["add_state_schemas", "state_components"]

_REF = "#/components/schemas/"


def state_components(ruleset_id: str, view_type: Any) -> tuple[str, dict[str, Any]]:
    """The name of a ruleset's state component, and every component it needs."""
    state = prefix_of(ruleset_id) + "State"
    top = view_type.__name__
    _, defs = msgspec.json.schema_components([view_type], ref_template=_REF + state + "{name}")
    components = {state + name: s for name, s in defs.items() if name != top}
    components[state] = defs[top]
    text = msgspec.json.encode(components).replace(
        f'"{_REF}{state}{top}"'.encode(), f'"{_REF}{state}"'.encode()
    )
    # tuples closed as the unions close them (`maxItems`, not `items: false`)
    renamed: dict[str, Any] = _closed_tuples(msgspec.json.decode(text))
    for name, s in renamed.items():
        s["title"] = name
    return state, renamed


def add_state_schemas(doc: dict[str, Any]) -> None:
    """`doc`'s BattleView as one schema per ruleset (see the module docstring); in place."""
    schemas: dict[str, Any] = doc["components"]["schemas"]
    base = schemas.get("BattleView")
    if base is None or "properties" not in base:
        return  # not served, or already typed
    variants: dict[str, str] = {}
    for r in RULESETS.values():
        if r.view_type is None:
            continue
        state, components = state_components(r.id, r.view_type)
        name = prefix_of(r.id) + "BattleView"
        taken = (set(components) | {name}) & set(schemas)
        if taken:
            raise ValueError(f"OpenAPI component names used twice: {sorted(taken)}")
        schemas.update(components)
        view = copy.deepcopy(base)
        view["title"] = name
        view["description"] = f"A battle of the `{r.id}` ruleset, as the caller may see it."
        view["properties"]["ruleset"] = {"type": "string", "enum": [r.id]}
        view["properties"]["state"] = {
            "$ref": _REF + state,
            "description": f"The state as the caller may see it (`{r.id}`'s view).",
        }
        schemas[name] = view
        variants[r.id] = _REF + name
    schemas["BattleView"] = {
        "title": "BattleView",
        "description": "A battle as the caller may see it: one shape per ruleset, "
        "picked by `ruleset`.",
        "oneOf": [{"$ref": ref} for ref in variants.values()],
        "discriminator": {"propertyName": "ruleset", "mapping": variants},
    }
