"""Outputs made once a test run and read by every test that needs them, in whichever xdist
worker it runs: a bundled game's books take a minute to build, and a module's tests are spread
over both workers, so a fixture of its own built them once in each."""

from __future__ import annotations

import os
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from filelock import FileLock

T = TypeVar("T")


def run_folder(factory: pytest.TempPathFactory) -> Path:
    """The folder the whole run shares: the workers' common parent under xdist, else the
    session's own (the parent then holds earlier runs)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _root(factory: pytest.TempPathFactory) -> Path:
    root = run_folder(factory) / "made-once"
    root.mkdir(exist_ok=True)
    return root


def made_once(factory: pytest.TempPathFactory, name: str,
              make: Callable[[Path], T]) -> tuple[Path, T]:
    """``make(folder)`` run once in this test run, by the first worker to ask; the others wait
    for it, then share the folder (to read, never to change: copy it to change it) and what
    ``make`` returned (as :func:`kept_once`). A ``make`` that fails leaves nothing, so the next
    to ask makes it again and fails at its own test as well."""
    folder = _root(factory) / name

    def make_afresh() -> T:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        return make(folder)

    return folder, kept_once(factory, name, make_afresh)


def kept_once(factory: pytest.TempPathFactory, name: str, compute: Callable[[], T]) -> T:
    """``compute()`` run once in this test run, by the first worker to ask; the others wait for
    it and unpickle what it returned (the tests' own values, written by this run)."""
    root = _root(factory)
    done = root / f"{name}.pickle"
    with FileLock(root / f"{name}.lock"):
        if not done.is_file():
            value = compute()
            staged = done.with_suffix(".part")
            staged.write_bytes(pickle.dumps(value))
            staged.replace(done)
            return value
    value: T = pickle.loads(done.read_bytes())
    return value
