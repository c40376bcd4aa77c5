"""The replay viewer's files ship in the wheel the image installs (package data)."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

from service.desk.viewer import VIEWER_ASSETS_DIR

ROOT = Path(__file__).resolve().parents[2]


def test_every_viewer_asset_is_package_data() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = pyproject["tool"]["setuptools"]["package-data"]["service.desk"]
    files = [p for p in VIEWER_ASSETS_DIR.rglob("*") if p.is_file()]
    assert {p.name for p in files} >= {"index.html", "main.js", "viewer.css"}
    for path in files:
        rel = path.relative_to(ROOT / "service" / "desk").as_posix()
        assert any(fnmatch(rel, g) and rel.count("/") == g.count("/") for g in globs), rel
