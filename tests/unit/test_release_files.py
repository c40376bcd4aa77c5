"""The release files agree with each other: LICENSE with pyproject's licence, CHANGELOG's
latest version with the API's and the package's, and requirements.lock (what the image
installs) with pyproject's dependencies."""

from __future__ import annotations

import json
import re
import tomllib
from importlib.metadata import requires
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from service.http.routes import SERVICE_VERSION

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
# The image's interpreter (deploy/Dockerfile): the lock's markers are evaluated for it.
IMAGE_ENV = {**default_environment(), "python_version": "3.12", "python_full_version": "3.12.0"}


def _released_versions() -> list[str]:
    text = (ROOT / "CHANGELOG.md").read_text()
    return re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", text, re.MULTILINE)


def _locked() -> dict[str, tuple[str, list[str], str]]:
    """name -> (version, hashes, marker) of every pin in requirements.lock."""
    text = (ROOT / "requirements.lock").read_text()
    pins: dict[str, tuple[str, list[str], str]] = {}
    for block in re.split(r"\n(?=\S)", text):
        first = block.split("\\", 1)[0].strip()
        if not first or first.startswith("#"):
            continue
        m = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)(?:\s*;\s*(.+))?", first)
        assert m, f"not an exact pin: {first!r}"
        hashes = re.findall(r"--hash=sha256:([0-9a-f]{64})", block)
        pins[canonicalize_name(m.group(1))] = (m.group(2), hashes, m.group(3) or "")
    return pins


def test_the_licence_file_is_the_licence_pyproject_declares() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n")
    assert "Permission is hereby granted, free of charge" in text


def test_the_changelog_keeps_a_changelog() -> None:
    text = (ROOT / "CHANGELOG.md").read_text()
    assert text.startswith("# Changelog\n")
    assert "## [Unreleased]" in text
    versions = _released_versions()
    assert versions, "no released version in CHANGELOG.md"
    for v in versions:  # every version heading has its link at the bottom
        assert re.search(rf"^\[{re.escape(v)}\]: \S+$", text, re.MULTILINE), v


def test_the_latest_changelog_version_is_the_api_and_package_version() -> None:
    latest = _released_versions()[0]
    assert latest == SERVICE_VERSION
    assert latest == PYPROJECT["project"]["version"]
    doc = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    assert doc["info"]["version"] == latest


def test_the_lock_pins_every_dependency_in_its_range_with_hashes() -> None:
    pins = _locked()
    for spec in PYPROJECT["project"]["dependencies"]:
        req = Requirement(spec)
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is not in requirements.lock (run `make lock`)"
        version, hashes, _ = pins[name]
        assert req.specifier.contains(version, prereleases=True), (
            f"requirements.lock pins {req.name}=={version}, outside {req.specifier}"
        )
        assert hashes, f"{req.name} has no hash in requirements.lock"
        for extra in req.extras:  # redis[hiredis], uvicorn[standard]: their extras locked too
            for dep in map(Requirement, requires(req.name) or []):
                marker = dep.marker
                wanted = marker is not None and marker.evaluate({**IMAGE_ENV, "extra": extra})
                if wanted and not marker.evaluate({**IMAGE_ENV, "extra": ""}):
                    assert canonicalize_name(dep.name) in pins, (
                        f"{req.name}[{extra}] needs {dep.name}, not in requirements.lock"
                    )
    for name, (version, hashes, _) in pins.items():
        assert hashes, f"{name}=={version} has no hash"


def test_the_image_installs_from_the_lock() -> None:
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert re.search(r"COPY .*requirements\.lock", dockerfile)
    assert "--require-hashes" in dockerfile and "-r requirements.lock" in dockerfile
    # The runtime installs the builder's wheels only: no index, no resolver.
    assert "--no-index --no-deps /wheels/*.whl" in dockerfile
    ignore = (ROOT / "deploy" / "Dockerfile.dockerignore").read_text().splitlines()
    assert "!requirements.lock" in ignore
