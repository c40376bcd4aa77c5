"""The TypeScript library in clients/ts (`@battle-service/client`): its committed types are
the document's, it builds with tsc and packs with `npm pack` into a package another
project installs and imports by name, its example programs type-check strict, and its own
tests (`node --test`, each against a real server it starts) pass."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

from tests.support.node_tools import CLIENT_DIR, ROOT, node_tool, run


def _ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, (result.stdout + result.stderr)[-6000:]
    return result.stdout


def _npm() -> str:
    node_tool("tsc")  # skips (or fails with CI=true) when the node tools are missing
    npm = shutil.which("npm")
    assert npm is not None
    return npm


def test_the_committed_types_are_the_documents(tmp_path: Path) -> None:
    """src/schema.d.ts is what `npm run generate` makes of openapi/openapi.json: when the
    document changes, run it in clients/ts and commit the result."""
    out = tmp_path / "schema.d.ts"
    _ok(
        run(
            node_tool("openapi-typescript"),
            ROOT / "openapi" / "openapi.json",
            "--default-non-nullable=false",
            "-o",
            out,
        )
    )
    committed = (CLIENT_DIR / "src" / "schema.d.ts").read_text()
    assert out.read_text() == committed, "clients/ts/src/schema.d.ts is stale: `npm run generate`"


def test_it_packs_into_a_package_that_installs_and_imports_by_name(tmp_path: Path) -> None:
    npm = _npm()
    _ok(run(npm, "run", "build"))
    packed = json.loads(_ok(run(npm, "pack", "--json", "--pack-destination", tmp_path)))
    tarball = tmp_path / packed[0]["filename"]
    with tarfile.open(tarball) as tar:
        names = set(tar.getnames())
    for needed in ("index.js", "index.d.ts", "schema.d.ts", "stream.js", "webhooks.js"):
        assert f"package/dist/{needed}" in names, sorted(names)
    left_out = ("package/test/", "package/src/", "package/node_modules")
    assert not any(n.startswith(left_out) for n in names), sorted(names)
    # The browser entry needs nothing of Node's (the table page loads dist/ as it is).
    for name in (CLIENT_DIR / "dist").glob("*.js"):
        text = name.read_text()
        assert 'from "node:' not in text and "require(" not in text, name

    app = tmp_path / "app"
    app.mkdir()
    (app / "package.json").write_text('{"name": "app", "private": true, "type": "module"}')
    _ok(
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--offline", str(tarball)],
            cwd=app, capture_output=True, text=True, timeout=120, check=False,
        )
    )  # fmt: skip
    program = (
        "import { BattleClient, verifyWebhook, withTableDice, ProblemError }\n"
        '  from "@battle-service/client";\n'
        'const c = new BattleClient({ baseUrl: "http://127.0.0.1:1" });\n'
        "const all = [verifyWebhook, withTableDice, ProblemError, c.battle];\n"
        "const kinds = all.map((f) => typeof f);\n"
        'console.log(kinds.join(","));\n'
    )
    (app / "main.mjs").write_text(program)
    node = shutil.which("node")
    assert node is not None
    out = subprocess.run(
        [node, "main.mjs"], cwd=app, capture_output=True, text=True, timeout=60, check=False
    )
    assert _ok(out).strip() == "function,function,function,function"


def test_the_examples_type_check_strict_and_a_mistyped_command_does_not(tmp_path: Path) -> None:
    npm = _npm()
    _ok(run(npm, "run", "build"))
    _ok(run(node_tool("tsc"), "-p", "examples/tsconfig.json", "--noEmit"))
    bad = CLIENT_DIR / "examples" / "mistyped.ts"
    bad.write_text(
        'import type { Command } from "@battle-service/client";\n'
        'export const a: Command<"quickstart"> = { type: "MoveSquad", squad: "n1" };\n'
        'export const b: Command<"quickstart"> = { type: "RollInitiative" };\n'
        'export const c: Command<"tactical"> = { type: "RollInitiative" };\n'
    )
    try:
        result = run(node_tool("tsc"), "-p", "examples/tsconfig.json", "--noEmit")
    finally:
        bad.unlink()
    assert "mistyped.ts(2," in result.stdout and "mistyped.ts(3," in result.stdout, result.stdout
    assert "mistyped.ts(4," not in result.stdout, result.stdout  # a tactical command


def test_the_library_passes_its_own_tests_against_a_real_server() -> None:
    """`node --test test/`: commands, idempotency, versions, reach, player keys, batches,
    table dice, streams cut and resumed over SSE and WebSocket, webhook signatures."""
    npm = _npm()
    _ok(run(npm, "run", "build"))
    node = shutil.which("node")
    assert node is not None
    result = subprocess.run(
        [node, "--test", "--test-concurrency=1", "test/"],
        cwd=CLIENT_DIR,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "BATTLE_PYTHON": sys.executable},
    )
    out = _ok(result)
    assert "# fail 0" in out and "# skipped 0" in out, out[-3000:]
