"""The app tunes the garbage collector once its first instance has started
(service.app.factory.tune_gc)."""

from __future__ import annotations

import gc
from pathlib import Path

from litestar.testing import TestClient

from service.app.factory import create_app
from service.settings import Settings


def test_start_up_objects_are_frozen_and_young_collections_wait_longer(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(database=str(tmp_path / "b.db")))) as client:
        assert client.get("/health").status_code == 200
        assert gc.get_freeze_count() > 10_000  # modules, the app and its routes at least
        assert gc.get_threshold()[0] == 10_000
        assert gc.isenabled()  # tuned, not switched off
