"""schemathesis over every route, in process: no 5xx, and every response matches the schema.

Half the generated cases are pointed at a real battle with its referee key, so that
command bodies reach the rules instead of stopping at authentication.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.python import asgi

from service.app import create_app
from service.settings import Settings
from tests.support.quickstart_play import SETUP

_DB = Path(tempfile.mkdtemp(prefix="battle-schemathesis-")) / "battles.db"
app = create_app(Settings(sqlite_path=str(_DB), log_level="WARNING"))
schema = schemathesis.openapi.from_asgi("/schema/openapi.json", app)
_battle: dict[str, Any] = {}


def _real_battle() -> dict[str, Any]:
    if not _battle:
        with asgi.get_client(app) as client:
            r = client.post("/battles", json={"ruleset": "quickstart", "setup": SETUP})
            assert r.status_code == 201, r.text
            _battle.update(r.json())
    return _battle


@schema.parametrize()
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_api_conforms_to_its_schema(case: schemathesis.Case) -> None:
    battle = _real_battle()
    # Alternate between the real battle and whatever id schemathesis made up.
    if case.path_parameters and "battle_id" in case.path_parameters and hash(repr(case.body)) % 2:
        case.path_parameters["battle_id"] = battle["battle_id"]
        case.headers = {
            **(case.headers or {}),
            "Authorization": f"Bearer {battle['keys']['referee']}",
        }
    case.call_and_validate()
