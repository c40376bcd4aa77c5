"""Parse every example of an OpenAPI document with a client openapi-python-client generated
from it, and say which land in another class than their own.

    PYTHONPATH=<dir holding battle_client> python -m tests.support.client_examples doc.json

Prints one JSON object: `checked` (how many parses), `wrong` (each a line saying what was
parsed, the class expected and the class it became). An event's example is parsed as a
client reads it, in an `EventPage` whose event carries its battle's `ruleset` (once per
ruleset whose events it may be: the battle-level ones in every ruleset); a command's as
a typed command body (`<Ruleset>CommandRequest`), tried in the document's order as a
client tries a union's members; a live message's through its union; anything else with
its own class. Run in its own process: the generated package is imported by name.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["check", "main"]

_REF = "#/components/schemas/"
# The envelope fields an example event is wrapped in (any values of the right types).
_ENVELOPE = {
    "battle_id": "b1",
    "version": 2,
    "position": 2,
    "audience": "all",
    "recorded_at": "2026-01-01T00:00:00.000Z",
    "actor": {"role": "referee"},
    "command_id": None,
    "prev_hash": "0" * 64,
    "hash": "1" * 64,
}


def _members(schemas: dict[str, Any], union: str) -> list[str]:
    """The components a union's members come to, a member that is a union itself opened."""
    found: list[str] = []
    for member in schemas[union].get("oneOf", []):
        name = member["$ref"].removeprefix(_REF)
        found.extend(_members(schemas, name) if "oneOf" in schemas[name] else [name])
    return found


def _first(parsers: list[Callable[[Any], Any]], data: Any) -> Any:
    """What a generated union parser does: the first member that parses."""
    for parse in parsers:
        try:
            return parse(data)
        except (TypeError, ValueError, AttributeError, KeyError):
            continue
    raise ValueError(f"no member parses {str(data)[:120]}")


def _cases(doc: dict[str, Any], models: Any) -> Iterator[tuple[str, str, Callable[[], str]]]:
    """(what, expected class, a parse answering the class it became) for every example."""
    schemas: dict[str, Any] = doc["components"]["schemas"]
    rulesets = list(schemas["EventOut"]["discriminator"]["mapping"])
    envelopes = [
        schemas["EventOut"]["discriminator"]["mapping"][r].removeprefix(_REF) for r in rulesets
    ]
    requests = [f"{name.removesuffix('EventOut')}CommandRequest" for name in envelopes]
    events = {r: _members(schemas, f"{e.removesuffix('Out')}Data") for r, e
              in zip(rulesets, envelopes, strict=True)}  # fmt: skip
    commands = {r: _members(schemas, f"{q.removesuffix('Request')}Data") for r, q
                in zip(rulesets, requests, strict=True)}  # fmt: skip
    typed = [getattr(models, q).from_dict for q in requests]
    live = {
        name: _members(schemas, name)
        for name in ("WebSocketMessage", "SseMessage")
        if name in schemas
    }
    for name, schema in schemas.items():
        for i, example in enumerate(schema.get("examples", [])):
            what = f"{name} example {i}"
            found = False
            for ruleset in rulesets:
                if name in events[ruleset]:
                    found = True
                    page = {"battle_id": "b1", "version": 2, "next_after": None, "events": [
                        {**_ENVELOPE, "ruleset": ruleset, "type": example["type"], "data": example}
                    ]}  # fmt: skip

                    def parse_event(page: dict[str, Any] = page) -> str:
                        (event,) = models.EventPage.from_dict(page).events
                        return f"{type(event).__name__}.{type(event.data).__name__}"

                    envelope = schemas["EventOut"]["discriminator"]["mapping"][ruleset]
                    yield (
                        f"{what} in a {ruleset} page",
                        f"{envelope.removeprefix(_REF)}.{name}",
                        parse_event,
                    )
                if name in commands[ruleset]:
                    found = True
                    body = {"ruleset": ruleset, "command": example}

                    def parse_command(body: dict[str, Any] = body) -> str:
                        request = _first(typed, body)
                        return f"{type(request).__name__}.{type(request.command).__name__}"

                    request = requests[rulesets.index(ruleset)]
                    yield f"{what} sent to a {ruleset} battle", f"{request}.{name}", parse_command
            for union, members in live.items():
                if name in members:
                    found = True
                    parsers = [getattr(models, m).from_dict for m in members]

                    def parse_live(example: Any = example, parsers: Any = parsers) -> str:
                        return type(_first(parsers, example)).__name__

                    yield f"{what} as a {union}", name, parse_live
            if not found and schema.get("type") == "object":
                model = getattr(models, name)
                yield what, name, lambda m=model, x=example: type(m.from_dict(x)).__name__


def check(doc: dict[str, Any], package: str = "battle_client") -> dict[str, Any]:
    models = importlib.import_module(f"{package}.models")
    checked, wrong = 0, []
    for what, expected, parse in _cases(doc, models):
        checked += 1
        try:
            got = parse()
        except Exception as e:  # a parse that fails is as wrong as a wrong class
            got = f"{type(e).__name__}: {str(e)[:200]}"
        if got != expected:
            wrong.append(f"{what}: expected {expected}, got {got}")
    return {"checked": checked, "wrong": wrong}


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        doc = json.load(f)
    print(json.dumps(check(doc)))


if __name__ == "__main__":
    main()
