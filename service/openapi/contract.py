"""The OpenAPI document as integrators get it: Litestar's, typed and completed.

Litestar generates the document from the routes; `typed_document` then puts in what it
cannot say (service.openapi.unions: the commands and events as tagged unions, typed per
ruleset by service.openapi.event_schemas, with an example of each from
service.openapi.examples), drops the
components nothing refers to any more, and completes the rest (service.openapi.polish:
descriptions, security, tags, headers, bounds, the WebSocket route) and the live messages
(service.openapi.live_schemas: SSE frames, WebSocket messages, webhooks).
`install_contract(app)` makes the app serve that document (`/schema/openapi.json`, and
`battle-service openapi`), built once, on the first request for it.
"""

from __future__ import annotations

from typing import Any

from litestar import Litestar
from litestar._openapi.plugin import OpenAPIPlugin

from domain.rulesets import RULESETS
from service.openapi.event_schemas import add_ruleset_envelopes
from service.openapi.examples import add_examples
from service.openapi.live_schemas import add_live_messages
from service.openapi.polish import polish
from service.openapi.state_schemas import add_state_schemas
from service.openapi.unions import close_tuples, prefix_of, typed_unions

__all__ = ["document_of", "install_contract", "typed_document"]

_REF = "#/components/schemas/"


def typed_document(doc: dict[str, Any]) -> dict[str, Any]:
    """`doc` (Litestar's document as a dict) with the typed contract put in; changed in
    place and returned."""
    schemas: dict[str, Any] = doc.setdefault("components", {}).setdefault("schemas", {})
    unions = typed_unions()
    for name, schema in unions.components.items():
        old = schemas.get(name)
        # Litestar documents the battle-level commands under their own names: the same
        # Structs, replaced. Anything else of that name is another thing: refuse.
        if old is not None and old.get("title") != schema.get("title", name):
            raise ValueError(f"OpenAPI component {name!r} would replace another schema")
        schemas[name] = schema
    schemas["CommandRequest"]["properties"]["command"] = unions.command
    schemas["CommandBatchItem"]["properties"]["command"] = unions.command
    schemas["EventOut"]["properties"]["data"] = unions.event_data
    add_ruleset_envelopes(doc, unions)
    add_examples(doc, unions)
    _drop_unreferenced(doc)
    _name_ruleset_components(doc)
    add_state_schemas(doc)
    # openapi-python-client refuses `items: false` (tests/e2e/test_generated_clients.py)
    close_tuples(doc["components"]["schemas"])
    return add_live_messages(polish(doc))


def _name_ruleset_components(doc: dict[str, Any]) -> None:
    """Litestar names a ruleset's setup and options Structs after their modules
    (`quickstart_options_Options`): name them as the rest (`QuickstartOptions`). And every
    component's title is its name, unique: generators name classes by title
    (openapi-python-client), and three rulesets have an `Options` and a `Roll`."""
    schemas: dict[str, Any] = doc["components"]["schemas"]
    renames: dict[str, str] = {}
    for name in list(schemas):
        ruleset, _, rest = name.partition("_")
        if ruleset in RULESETS and "_" in rest:
            new = prefix_of(ruleset) + rest.rsplit("_", 1)[1]
            if new in schemas or new in renames.values():
                raise ValueError(f"OpenAPI component {new!r} is taken: cannot rename {name!r}")
            renames[name] = new
    for old, new in renames.items():
        schemas[new] = schemas.pop(old)
    _rewrite_refs(doc, {_REF + old: _REF + new for old, new in renames.items()})
    for name, schema in schemas.items():
        schema["title"] = name


def _rewrite_refs(node: Any, renames: dict[str, str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, str) and value in renames and key in ("$ref",):
                node[key] = renames[value]
            else:
                _rewrite_refs(value, renames)
    elif isinstance(node, list):
        for value in node:
            _rewrite_refs(value, renames)


def _refs(node: Any, found: set[str]) -> None:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_REF):
            found.add(ref.removeprefix(_REF))
        for value in node.values():
            _refs(value, found)
    elif isinstance(node, list):
        for value in node:
            _refs(value, found)


def _drop_unreferenced(doc: dict[str, Any]) -> None:
    """Drop the schemas no path reaches (Litestar's own of the command union, replaced)."""
    schemas = doc["components"]["schemas"]
    reached: set[str] = set()
    _refs({k: v for k, v in doc.items() if k != "components"}, reached)
    todo = list(reached)
    while todo:
        found: set[str] = set()
        _refs(schemas.get(todo.pop()), found)
        todo.extend(found - reached)
        reached |= found
    for name in set(schemas) - reached:
        del schemas[name]


class _ContractOpenAPIPlugin(OpenAPIPlugin):
    """Litestar's OpenAPI plugin, serving the typed document (service.openapi.contract)."""

    __slots__ = ()  # same layout as its base: an app's plugin can take this class

    def provide_openapi_schema(self) -> dict[str, Any]:
        if not self._openapi_schema:
            self._openapi_schema = typed_document(self.provide_openapi().to_schema())
        return self._openapi_schema


def install_contract(app: Litestar) -> Litestar:
    """Make `app` serve the typed document. Litestar makes its OpenAPI plugin itself and
    has no hook for the finished document, so the plugin it made takes a subclass that
    completes the document once, where Litestar caches it."""
    plugin = app.plugins.get(OpenAPIPlugin)
    plugin.__class__ = _ContractOpenAPIPlugin
    return app


def document_of(app: Litestar) -> dict[str, Any]:
    """The document `app` serves at /schema/openapi.json."""
    return app.plugins.get(OpenAPIPlugin).provide_openapi_schema()
