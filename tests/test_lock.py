"""The locks: `make` installs requirements.lock, `make test` requirements-test.lock, exactly, so
a fresh machine gets the environment the tests passed with; pyproject.toml keeps the ranges."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
# A pin may name extras (fonttools[woff]==4.68.0): the lock keeps what a dependency asks for.
PIN = re.compile(r"^([A-Za-z0-9_.-]+)(?:\[[A-Za-z0-9_.,-]+\])?==(\S+)(?:\s*;\s*(.+?))?\s*\\$")


def entries(lock: str) -> list[tuple[str, str, str | None]]:
    """(name, version, marker) of every pin of a lock, for every Python and platform."""
    return [(canonicalize_name(m[1]), m[2], m[3])
            for m in map(PIN.match, (ROOT / lock).read_text().splitlines()) if m]


def pins(lock: str) -> dict[str, str]:
    """name -> version of the pins this Python and platform take."""
    return {name: version for name, version, marker in entries(lock)
            if not marker or Marker(marker).evaluate()}


def test_every_pin_carries_hashes() -> None:
    for lock in ("requirements.lock", "requirements-test.lock"):
        text = (ROOT / lock).read_text()
        entries = re.split(r"\n(?=[a-z0-9])", text.split("\n", 2)[2])
        assert len(entries) > 40, lock
        for entry in entries:
            assert "==" in entry.split("\n")[0] and "--hash=sha256:" in entry, entry[:200]


def test_the_test_lock_holds_the_run_lock_at_the_same_versions() -> None:
    test = {(name, version) for name, version, _ in entries("requirements-test.lock")}
    assert {(name, version) for name, version, _ in entries("requirements.lock")} <= test


def test_the_locks_satisfy_pyproject() -> None:
    """A dependency added to pyproject.toml but not locked (run `make lock`) fails here."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = {
        "requirements.lock": [*project["project"]["dependencies"],
                              *project["dependency-groups"]["setup"]],
        "requirements-test.lock": [*project["project"]["dependencies"],
                                   *project["dependency-groups"]["setup"],
                                   *project["project"]["optional-dependencies"]["test"]],
    }
    for lock, requirements in wanted.items():
        locked = pins(lock)
        for text in requirements:
            req = Requirement(text)
            version = locked.get(canonicalize_name(req.name))
            assert version is not None, f"{req.name} is not in {lock}: run `make lock`"
            assert req.specifier.contains(version, prereleases=True), (lock, text, version)


@pytest.mark.slow  # pip freeze, in a subprocess
def test_this_environment_is_exactly_the_test_lock() -> None:
    """`pip freeze` of the venv `make test` made equals the lock: nothing newer, nothing else."""
    frozen = subprocess.run([sys.executable, "-m", "pip", "freeze", "--all", "--exclude-editable"],
                            capture_output=True, text=True, check=True).stdout
    have = {}
    for line in frozen.splitlines():
        name, _, version = line.partition("==")
        if version:
            have[canonicalize_name(name)] = version
    have.pop("pip", None)  # the venv's pip is the one this Python ships (ensurepip)
    assert have == pins("requirements-test.lock"), (
        f"{sys.prefix} is not the test lock's environment: `make test` makes it")
