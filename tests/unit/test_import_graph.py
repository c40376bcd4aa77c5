"""No two modules of ours import each other, not even for type checking only; and no
module of domain/ imports one of ours inside a function.

An import circle makes a module's meaning depend on which side is imported first, and
it is how layers start leaning on each other; a `TYPE_CHECKING` import counts too,
since it is the same dependency, only hidden from the interpreter.

An import inside a function hides an arrow from that check: it is how a circle is
dodged rather than broken (the `tactical` ruleset's attack flow was one, until its
resuming moved to one module, resume.py). One stays only with a comment on its line
saying why, `# deferred: <reason>` (start-up time, say). service/ and events/ join the
check once issue 33's other parts have taken theirs out.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("domain", "events", "service")
NO_DEFERRED_IMPORTS = ("domain",)  # the packages checked for imports inside functions
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
    assert "service.battles" in modules and "service.founding" in modules
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
            "    import service.cli  # deferred:",
            "class C:",
            "    from domain import errors",
            "    async def h(self) -> None:",
            "        import domain.errors, json",
        ]
    )
    assert deferred_imports(source) == [
        (5, "domain.rulesets"),
        (7, "."),
        (11, "service.cli"),  # a mark with no reason is no reason
        (15, "domain.errors"),
    ]


def test_no_module_of_domain_imports_one_of_ours_inside_a_function() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for package in NO_DEFERRED_IMPORTS
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, name in deferred_imports(path.read_text())
    ]
    assert "domain.rulesets.tactical.decide" in _modules()
    assert found == []
