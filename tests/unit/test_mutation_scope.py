"""tests/mutation/run.py's `SCOPE` stays true to its modules: every function it names is
there, and every function of the same module that a scoped function calls is in `SCOPE`
or in `OUTSIDE_SCOPE` with its reason, so a helper split off a scoped function is not
silently left unmutated."""

from __future__ import annotations

import ast
import tomllib

import pytest

from tests.mutation.run import OUTSIDE_SCOPE, ROOT, SCOPE

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef


def _functions(tree: ast.Module) -> dict[str, FunctionNode]:
    """The module's functions and methods, named as SCOPE names them."""
    out: dict[str, FunctionNode] = {}
    for node in tree.body:
        if isinstance(node, FunctionNode):
            out[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for sub in node.body:
                if isinstance(sub, FunctionNode):
                    out[f"{node.name}.{sub.name}"] = sub
    return out


def called(path: str, names: tuple[str, ...]) -> set[str]:
    """The functions of the module at `path` that the functions `names` name (called or
    passed on): plain names, and `self.method` of their own class."""
    functions = _functions(ast.parse((ROOT / path).read_text()))
    out: set[str] = set()
    for name in names:
        cls = name.rpartition(".")[0]
        for node in ast.walk(functions[name]):
            if isinstance(node, ast.Name) and node.id in functions:
                out.add(node.id)
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
                and f"{cls}.{node.attr}" in functions
            ):
                out.add(f"{cls}.{node.attr}")
    return out - set(names)


@pytest.mark.parametrize("path", sorted(SCOPE))
def test_every_function_a_scoped_one_calls_is_in_scope_or_left_out_with_a_reason(
    path: str,
) -> None:
    functions = _functions(ast.parse((ROOT / path).read_text()))
    assert set(SCOPE[path]) <= set(functions), "SCOPE names a function the module lacks"
    outside = OUTSIDE_SCOPE.get(path, {})
    assert called(path, SCOPE[path]) == set(outside)
    assert all(reason.strip() for reason in outside.values())
    assert set(outside) <= set(functions)


def test_the_modules_scoped_are_mutated() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    assert set(SCOPE) <= set(config["only_mutate"])
    assert set(OUTSIDE_SCOPE) <= set(SCOPE)


def test_a_helper_split_off_a_scoped_function_is_found() -> None:
    # quickstart's `authorize` hands the side-order checks to `_own_units`
    assert "_own_units" in called("domain/rulesets/quickstart/access.py", ("authorize",))
    assert "SQLiteEventStore._write" in called("events/sqlite.py", ("SQLiteEventStore.append",))
