"""No two modules of ours import each other, not even for type checking only; no module
of ours imports one of ours inside a function; and the layers import downwards only.

An import circle makes a module's meaning depend on which side is imported first, and
it is how layers start leaning on each other; a `TYPE_CHECKING` import counts too,
since it is the same dependency, only hidden from the interpreter.

An import inside a function hides an arrow from that check: it is how a circle is
dodged rather than broken (the `tactical` ruleset's attack flow was one, until its
resuming moved to one module, resume.py). One stays only with a comment on its line
saying why, `# deferred: <reason>` (start-up time, say: the command line imports only
what a subcommand runs).

The layers (docs/ARCHITECTURE.md): `domain` imports nothing of ours but itself; `events`
the domain; in `service`, its errors, then the shared leaves (settings, schemas, decoding),
then the core (`service.battles`) and the document (`service.openapi`), then the HTTP
edge (`service.http`), then live events and the referee's desk (`service.live`,
`service.desk`), then the one place that wires (`service.app`). A module imports its own
package and the layers below its own, never a layer above nor a sibling of its layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("domain", "events", "service")
NO_DEFERRED_IMPORTS = PACKAGES  # the packages checked for imports inside functions
DEFERRED = "# deferred:"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            found[_module_name(path)] = path
    return found


def _module_level(tree: ast.Module) -> list[ast.stmt]:
    """The statements run when the module is imported, `if TYPE_CHECKING:` blocks included."""
    found: list[ast.stmt] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        found.append(node)
        if isinstance(node, (ast.If, ast.Try)):
            pending.extend(node.body)
            pending.extend(node.orelse)
            if isinstance(node, ast.Try):
                pending.extend(node.finalbody)
                for handler in node.handlers:
                    pending.extend(handler.body)
    return found


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Each module's imports of our own modules (`from a import b` counts a.b if a module)."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in _module_level(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            edges.update(t for t in targets if t in modules and t != name)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_detector_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_ours_is_in_an_import_circle() -> None:
    modules = _modules()
    assert "service.battles.service" in modules and "service.battles.founding" in modules
    assert cycles(import_graph(modules)) == []


def deferred_imports(source: str, ours: tuple[str, ...] = PACKAGES) -> list[tuple[int, str]]:
    """(line, module) of each import of one of our modules (or a relative one) inside a
    function, unless its lines carry `# deferred: <reason>`."""
    lines = source.splitlines()
    found: list[tuple[int, str]] = []

    def excused(node: ast.stmt) -> bool:
        for text in lines[node.lineno - 1 : (node.end_lineno or node.lineno)]:
            _, mark, reason = text.partition(DEFERRED)
            if mark and reason.strip():
                return True
        return False

    def visit(node: ast.AST, in_function: bool) -> None:
        if in_function and isinstance(node, (ast.Import, ast.ImportFrom)) and not excused(node):
            if isinstance(node, ast.ImportFrom):
                names = ["." * node.level + (node.module or "")]
            else:
                names = [alias.name for alias in node.names]
            for name in names:
                if name.startswith(".") or name.split(".")[0] in ours:
                    found.append((node.lineno, name))
        inside = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for child in ast.iter_child_nodes(node):
            visit(child, inside)

    visit(ast.parse(source), False)
    return found


def test_the_detector_finds_an_import_inside_a_function() -> None:
    source = "\n".join(
        [
            "import domain.dice",
            "from events import chain",
            "def f() -> None:",
            "    import json",
            "    from domain.rulesets import registry",
            "    def g() -> None:",
            "        from . import sibling",
            "    from events.chain import (  # deferred: start-up time",
            "        link,",
            "    )",
            "    import service.app.cli  # deferred:",
            "class C:",
            "    from domain import errors",
            "    async def h(self) -> None:",
            "        import domain.errors, json",
        ]
    )
    assert deferred_imports(source) == [
        (5, "domain.rulesets"),
        (7, "."),
        (11, "service.app.cli"),  # a mark with no reason is no reason
        (15, "domain.errors"),
    ]


def test_no_module_of_ours_imports_one_of_ours_inside_a_function() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for package in NO_DEFERRED_IMPORTS
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, name in deferred_imports(path.read_text())
    ]
    assert "domain.rulesets.tactical.decide" in _modules()
    assert found == []


# Lowest first; each entry is the packages (or modules) of one layer.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("domain",),
    ("events",),
    ("service", "service.errors"),
    ("service.settings", "service.schemas", "service.decoding"),
    ("service.battles", "service.openapi"),
    ("service.http",),
    ("service.live", "service.desk"),
    ("service.app",),
)


def _unit_of(module: str) -> tuple[int, str]:
    """The layer of `module` and the package (or leaf module) it belongs to there."""
    best: tuple[int, str] | None = None
    for rank, layer in enumerate(LAYERS):
        for unit in layer:
            if (module == unit or module.startswith(unit + ".")) and (
                best is None or len(unit) > len(best[1])
            ):
                best = (rank, unit)
    assert best is not None, f"{module} is in no layer"
    return best


def all_imports(path: Path, name: str) -> set[str]:
    """Every module of ours `name` imports, wherever the import stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
    return {m for m in found if m.split(".")[0] in PACKAGES}


def backward_arrows(imports: dict[str, set[str]]) -> list[str]:
    """Each import that runs up a layer, or sideways to a sibling of the same layer."""
    found = []
    for name, targets in sorted(imports.items()):
        rank, unit = _unit_of(name)
        for target in sorted(targets):
            to_rank, to_unit = _unit_of(target)
            if to_rank > rank or (to_rank == rank and to_unit != unit):
                found.append(f"{name} -> {target}")
    return found


def test_the_layer_check_finds_an_arrow_that_runs_back() -> None:
    assert backward_arrows({"domain.dice": {"events.chain"}}) == ["domain.dice -> events.chain"]
    assert backward_arrows({"service.battles.service": {"service.http.routes"}}) != []
    assert backward_arrows({"service.live.streams": {"service.desk.export"}}) != []
    assert backward_arrows({"service.battles.keys": {"service.openapi.links"}}) != []
    assert backward_arrows({"service.schemas": {"service.settings"}}) != []
    assert (
        backward_arrows(
            {
                "service.app.cli": {"service.desk.export", "domain.dice"},
                "service.http.routes": {"service.battles.service", "service.schemas"},
                "service.battles.service": {"service.battles.keys", "events.store"},
            }
        )
        == []
    )


def test_every_import_runs_down_the_layers() -> None:
    modules = _modules()
    imports = {name: all_imports(path, name) for name, path in modules.items()}
    assert imports["service.app.factory"] and imports["service.http.routes"]
    assert backward_arrows(imports) == []


def test_service_has_at_most_a_dozen_modules_at_its_top() -> None:
    top = sorted(p.name for p in (ROOT / "service").glob("*.py"))
    assert "settings.py" in top and len(top) <= 12, top
