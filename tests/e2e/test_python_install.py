"""`pip install ./clients/python` (not editable) works from a fresh clone (issue 35): the
files git tracks under clients/python, copied as a clone would have them, are installed
by pip into a new virtualenv; a small program there imports the installed copy (not the
source tree), passes `mypy --strict` against it (its `py.typed` and generated classes
shipped) and plays against a real server.

The package is built and installed by pip as a user would (build isolation: setuptools
comes from pip's index or cache, as for `make install`). Its dependencies (httpx,
msgspec) are not downloaded again: the new virtualenv sees the project's site-packages
through a `.pth` line, after its own, and `pip check` confirms they satisfy the installed
package's requirements."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from tests.e2e.conftest import LiveServer

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = '''
"""A user's program: a quickstart battle, its state and events typed."""
from __future__ import annotations

import json
import sys

import battle_service_client
from battle_service_client import BattleClient, Event
from battle_service_client.schema import (
    QuickstartEventOut, QuickstartPriorityDecided, QuickstartRollForPriority, QuickstartSetup,
    QuickstartState, SquadSetup,
)

setup = QuickstartSetup(sides=["north", "south"], width=8, height=8, squads=[
    SquadSetup(id="n1", side="north", kind="soldier", level=1, x=1, y=1),
    SquadSetup(id="s1", side="south", kind="soldier", level=1, x=6, y=6),
])
with BattleClient(sys.argv[1]) as client:
    created = client.create_battle("quickstart", setup)
    referee = client.battle(created.battle_id, created.keys.referee)
    answer = referee.command(QuickstartRollForPriority())
    decided = [e.data.order for e in answer.events if isinstance(e, QuickstartEventOut)
               and isinstance(e.data, QuickstartPriorityDecided)]
    state = referee.view().state
    assert isinstance(state, QuickstartState)
    print(json.dumps({
        "file": battle_service_client.__file__,
        "active_side": state.active_side,
        "squads": sorted(s.id for s in state.squads),
        "decided": decided,
        "types": [e.type for e in answer.events if isinstance(e, Event)],
    }))
'''


def _run(*args: str | Path, cwd: Path, timeout: int = 300) -> str:
    done = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=timeout, cwd=cwd
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    return done.stdout


def _fresh_clone(into: Path) -> Path:
    """clients/python as a fresh clone has it: the files git tracks, nothing built."""
    tracked = _run("git", "ls-files", "-z", "clients/python", cwd=ROOT).split("\0")
    for name in filter(None, tracked):
        (into / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, into / name)
    return into / "clients" / "python"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a new virtualenv with the library pip-installed from a clone."""
    where = tmp_path_factory.mktemp("pip")
    source = _fresh_clone(where / "clone")
    env = where / "venv"
    venv.EnvBuilder(with_pip=False).create(env)
    python = env / "bin" / "python"
    own = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))",
                    cwd=where).strip())  # fmt: skip
    # after its own site-packages: the project's, for httpx and msgspec only
    (own / "zz_project_site.pth").write_text(sysconfig.get_path("purelib") + "\n")
    pip = [sys.executable, "-m", "pip", "--python", python]
    _run(*pip, "install", "--quiet", "--no-deps", source, cwd=where)
    _run(*pip, "check", cwd=where)
    return python


def test_the_installed_library_plays_against_a_real_server(
    installed: Path, live_server: LiveServer, tmp_path: Path
) -> None:
    program = tmp_path / "user.py"
    program.write_text(PROGRAM)
    # mypy --strict on the user's program, against the installed copy only
    _run(sys.executable, "-m", "mypy", "--strict", "--no-incremental",
         "--python-executable", installed, program,
         cwd=tmp_path)  # fmt: skip
    answer = json.loads(_run(installed, program, live_server.base_url, cwd=tmp_path))
    site = Path(answer["file"]).resolve()
    assert site.is_relative_to(installed.parent.parent.resolve()), site  # not the source tree
    assert (site.parent / "py.typed").exists() and (site.parent / "schema.py").exists()
    assert answer["squads"] == ["n1", "s1"]
    assert answer["active_side"] in ("north", "south")
    (order,) = answer["decided"]  # the typed data of PriorityDecided
    assert sorted(order) == ["north", "south"] and order[0] == answer["active_side"]
    assert "PriorityDecided" in answer["types"]
