"""Generates battle_service_client/schema.py, msgspec Structs for the per-ruleset states,
events and commands of the service's OpenAPI document (issue 35).

    python clients/python/tools/gen.py [openapi/openapi.json] [out.py]

Standard library only. It writes the schemas reachable from the roots below: each object
schema becomes a frozen, keyword-only Struct, each union or alias a type alias. A member
of a discriminated union (`discriminator.mapping`) is tagged with msgspec's tag on that
property (the property then becomes a ClassVar of the same name, so `data.type` still
reads), which is how msgspec tells the members of a union apart. A property not required
and with no plain default is `UNSET` when absent. Constraints (lengths, ranges,
patterns) are left to the service, which checks what it is sent.
`tests/e2e/test_python_models.py` fails when the committed module is stale.
"""

from __future__ import annotations

import json
import keyword
import sys
from pathlib import Path
from typing import Any

__all__ = ["ROOTS", "generate", "main"]

REF = "#/components/schemas/"
# A battle's state per ruleset, its events (whole or sealed), its commands and setups.
ROOTS = (
    "QuickstartState",
    "SkirmishState",
    "TacticalState",
    "WarfareState",
    "PhasedState",
    "EventOut",
    "SealedEventOut",
    "QuickstartCommandRequest",
    "SkirmishCommandRequest",
    "TacticalCommandRequest",
    "WarfareCommandRequest",
    "PhasedCommandRequest",
    *(
        f"{r}{part}"
        for r in ("Quickstart", "Skirmish", "Tactical", "Warfare", "Phased")
        for part in ("Setup", "Options")
    ),
)
# Unions the library names: `State` (a view's, decoded; tagged by `ruleset`), `Command`
# (for typing what is sent only: the rulesets' command types share names, so it is no
# union msgspec decodes, each ruleset's `<Ruleset>CommandData` is).
EXTRA_ALIASES = {
    "State": [f"{r}State" for r in ("Quickstart", "Skirmish", "Tactical", "Warfare", "Phased")],
    "Command": [
        f"{r}CommandData" for r in ("Quickstart", "Skirmish", "Tactical", "Warfare", "Phased")
    ],
}


class Unsupported(Exception):
    """A schema shape this generator does not map (fix the generator, not the output)."""


def _name(ref: str) -> str:
    if not ref.startswith(REF):
        raise Unsupported(f"only component refs: {ref}")
    return ref.removeprefix(REF)


def _is_struct(schema: dict[str, Any]) -> bool:
    return "properties" in schema


def _refs(node: Any) -> list[str]:
    """The component names a schema refers to, directly or inside."""
    out: list[str] = []
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref":
                out.append(_name(v))
            elif k == "discriminator":
                out += [_name(r) for r in v.get("mapping", {}).values()]
            elif k not in ("examples", "default", "const", "enum"):
                out += _refs(v)
    elif isinstance(node, list):
        for v in node:
            out += _refs(v)
    return out


def _reachable(schemas: dict[str, Any], roots: list[str]) -> list[str]:
    seen: dict[str, None] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen[name] = None
        todo += _refs(schemas[name])
    return sorted(seen)


class Generator:
    def __init__(self, doc: dict[str, Any]) -> None:
        self.schemas: dict[str, Any] = doc["components"]["schemas"]
        self.names = _reachable(
            self.schemas, [*ROOTS, *(m for ms in EXTRA_ALIASES.values() for m in ms)]
        )
        self.tags: dict[str, tuple[str, Any]] = {}
        for name in self.names:
            self._collect_tags(self.schemas[name])
        for name in self.names:
            self._infer_tags(self.schemas[name])
        self._infer_tags({"oneOf": [{"$ref": REF + m} for m in EXTRA_ALIASES["State"]]})

    # -- tags ---------------------------------------------------------------------------

    def _collect_tags(self, node: Any) -> None:
        if isinstance(node, dict):
            disc = node.get("discriminator")
            if disc:
                for value, ref in disc["mapping"].items():
                    self._tag(_name(ref), disc["propertyName"], value)
            for k, v in node.items():
                if k not in ("examples", "default", "const", "enum"):
                    self._collect_tags(v)
        elif isinstance(node, list):
            for v in node:
                self._collect_tags(v)

    def _structs_of(self, node: dict[str, Any]) -> list[str]:
        """The object components a schema may be, through refs to unions."""
        if "$ref" in node:
            name = _name(node["$ref"])
            target = self.schemas[name]
            return [name] if _is_struct(target) else self._structs_of(target)
        out: list[str] = []
        for key in ("oneOf", "anyOf", "allOf"):
            for member in node.get(key, []):
                out += self._structs_of(member)
        return out

    def _infer_tags(self, node: Any) -> None:
        """A union of several objects without a discriminator: msgspec needs them tagged,
        by the one required property each holds a different constant of."""
        if isinstance(node, list):
            for v in node:
                self._infer_tags(v)
            return
        if not isinstance(node, dict):
            return
        for k, v in node.items():
            if k not in ("examples", "default", "const", "enum"):
                self._infer_tags(v)
        if not any(k in node for k in ("oneOf", "anyOf")):
            return
        members = list(dict.fromkeys(self._structs_of(node)))
        if len(members) < 2 or all(m in self.tags for m in members):
            return
        first = self.schemas[members[0]]
        for field in first.get("required", []):
            values = [_single(self.schemas[m]["properties"].get(field, {})) for m in members]
            if all(v is not None and len(v) == 1 for v in values) and len(
                {json.dumps(v) for v in values}
            ) == len(values):
                for m, v in zip(members, values, strict=True):
                    assert v is not None
                    self._tag(m, field, v[0])
                return
        raise Unsupported(f"a union of untagged objects: {members}")

    def _tag(self, name: str, field: str, value: Any) -> None:
        had = self.tags.setdefault(name, (field, value))
        if had != (field, value):
            raise Unsupported(f"{name} tagged twice: {had} and {(field, value)}")
        prop = self.schemas[name]["properties"].get(field)
        if (
            prop is None
            or _single(prop) != [value]
            or field not in self.schemas[name].get("required", [])
        ):
            raise Unsupported(f"{name}.{field} is not the required constant {value!r}")

    # -- types --------------------------------------------------------------------------

    def ann(self, s: dict[str, Any]) -> str:
        """The annotation of a schema (as source)."""
        if "$ref" in s:
            return _name(s["$ref"])
        for key in ("oneOf", "anyOf", "allOf"):
            if key in s:
                if key == "allOf" and len(s[key]) != 1:
                    raise Unsupported("allOf of several")
                return _union([self.ann(m) for m in s[key]])
        if "const" in s:
            return _literal([s["const"]])
        if "enum" in s:
            return _literal(s["enum"])
        kind = s.get("type")
        if isinstance(kind, list):
            return _union([self.ann({**s, "type": k}) for k in kind])
        if kind == "string":
            return "str"
        if kind == "integer":
            return "int"
        if kind == "number":
            return "float"
        if kind == "boolean":
            return "bool"
        if kind == "null":
            return "None"
        if kind == "array":
            if "prefixItems" in s:
                if s.get("items") not in (None, False):
                    return "tuple[Any, ...]"
                return f"tuple[{', '.join(self.ann(i) for i in s['prefixItems'])}]"
            items = s.get("items")
            return f"list[{self.ann(items) if items else 'Any'}]"
        if kind == "object" or kind is None:
            if _is_struct(s):
                raise Unsupported("an object with properties not under components")
            extra = s.get("additionalProperties")
            value = self.ann(extra) if isinstance(extra, dict) and extra else "Any"
            return f"dict[str, {value}]"
        raise Unsupported(f"type {kind!r}")

    # -- output -------------------------------------------------------------------------

    def struct(self, name: str) -> str:
        s = self.schemas[name]
        required = set(s.get("required", []))
        tag = self.tags.get(name)
        options = "frozen=True, kw_only=True"
        if tag:
            options += f", tag_field={_py(tag[0])}, tag={_py(tag[1])}"
        lines = [f"class {name}(msgspec.Struct, {options}):"]
        doc = _docstring(s.get("description", ""))
        if doc:
            lines.append(doc)
        for prop, ps in s["properties"].items():
            attr = f"{prop}_" if keyword.iskeyword(prop) or prop == "raw" else prop
            if not attr.isidentifier():
                raise Unsupported(f"{name}.{prop} is not a name")
            if tag and prop == tag[0]:
                lines.append(f"    {attr}: ClassVar[{_literal([tag[1]])}] = {_py(tag[1])}")
                continue
            t = self.ann(ps)
            rename = f"name={_py(prop)}" if attr != prop else ""
            if prop in required:
                value = f" = msgspec.field({rename})" if rename else ""
            elif _plain_default(ps):
                default = ps["default"]
                if default is None and "None" not in t.split(" | "):
                    t += " | None"
                value = (
                    _py(default)
                    if not rename
                    else f"msgspec.field({rename}, default={_py(default)})"
                )
                value = f" = {value}"
            else:
                t += " | UnsetType"
                value = f" = msgspec.field({rename}, default=UNSET)" if rename else " = UNSET"
            lines.append(f"    {attr}: {t}{value}")
        if len(lines) == 1:
            lines.append("    pass")
        return "\n".join(lines)

    def aliases(self) -> list[tuple[str, str]]:
        """(name, annotation) of each non-struct schema and library union, in an order
        where each comes after what it names (they are evaluated at import)."""
        found = {
            n: self.ann(self.schemas[n]) for n in self.names if not _is_struct(self.schemas[n])
        }
        for name, members in EXTRA_ALIASES.items():
            found[name] = _union(members)
        ordered: list[tuple[str, str]] = []
        done: set[str] = set()

        def visit(n: str, path: tuple[str, ...]) -> None:
            if n in done:
                return
            if n in path:
                raise Unsupported(f"aliases in a circle: {path}")
            words = found[n].replace("[", " ").replace("]", " ").replace(",", " ").split()
            for w in words:
                if w in found:
                    visit(w, (*path, n))
            done.add(n)
            ordered.append((n, found[n]))

        for n in sorted(found):
            visit(n, ())
        return ordered

    def module(self, source: str) -> str:
        structs = [n for n in self.names if _is_struct(self.schemas[n])]
        aliases = self.aliases()
        exported = sorted([*structs, *(a for a, _ in aliases)])
        head = [
            f'"""Generated by clients/python/tools/gen.py from {source}: do not edit.',
            "",
            "The service's per-ruleset states, events and commands as msgspec Structs",
            "(issue 35). `State`, `EventOut` and `Command` are the unions a view's `state`,",
            'an event and a command body decode into, each told apart by its tag."""',
            "",
            "from __future__ import annotations",
            "",
            "from typing import Any, ClassVar, Literal",
            "",
            "import msgspec",
            "from msgspec import UNSET, UnsetType",
            "",
            "__all__ = [",
            *(f"    {_py(n)}," for n in exported),
            "]",
            "",
        ]
        body = [self.struct(n) for n in structs]
        tail = [f"{n} = {a}" for n, a in aliases]
        return "\n".join(head) + "\n\n" + "\n\n\n".join(body) + "\n\n\n" + "\n".join(tail) + "\n"


def _py(value: Any) -> str:
    """A Python literal of a JSON value, strings in double quotes (as ruff writes them)."""
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def _single(s: dict[str, Any]) -> list[Any] | None:
    if "const" in s:
        return [s["const"]]
    enum = s.get("enum")
    return list(enum) if enum is not None and len(enum) == 1 else None


def _plain_default(s: dict[str, Any]) -> bool:
    if "default" not in s:
        return False
    d = s["default"]
    return d is None or isinstance(d, bool | int | float | str) or d in ([], {})


def _literal(values: list[Any]) -> str:
    plain = [v for v in values if v is not None]
    parts = [f"Literal[{', '.join(_py(v) for v in plain)}]"] if plain else []
    if len(plain) != len(values):
        parts.append("None")
    return _union(parts)


def _union(parts: list[str]) -> str:
    out: list[str] = []
    for p in parts:
        for q in _split(p):
            if q not in out:
                out.append(q)
    if "None" in out:  # None last, as people write it
        out = [p for p in out if p != "None"] + ["None"]
    return " | ".join(out)


def _split(t: str) -> list[str]:
    """The top-level members of a union annotation."""
    parts, depth, cur = [], 0, ""
    for ch in t:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "|" and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return parts


def _docstring(text: str) -> str:
    lines = [" ".join(line.split()) for line in text.strip().splitlines()]
    text = " ".join(x for x in lines if x).replace("\\", "\\\\").replace('"""', "'''")
    if not text:
        return ""
    if text.endswith('"'):  # a quote before the closing ones would end the string early
        text += " "
    words, out, cur = text.split(), [], "    "
    for w in words:
        if len(cur) + len(w) + 1 > 92 and cur.strip():
            out.append(cur.rstrip())
            cur = "    "
        cur += w + " "
    out.append(cur.rstrip())
    out[0] = '    """' + out[0].lstrip()
    if len(out[-1]) + 3 <= 96:
        out[-1] += '"""'
    else:
        out.append('    """')
    return "\n".join(out)


def generate(doc: dict[str, Any], source: str = "openapi/openapi.json") -> str:
    """The module's text for an OpenAPI document."""
    return Generator(doc).module(source)


def main(argv: list[str]) -> None:
    root = Path(__file__).resolve().parents[3]
    doc_path = Path(argv[0]) if argv else root / "openapi" / "openapi.json"
    out = (
        Path(argv[1])
        if len(argv) > 1
        else root / "clients" / "python" / "src" / "battle_service_client" / "schema.py"
    )
    out.write_text(generate(json.loads(doc_path.read_text())), encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
