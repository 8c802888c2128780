"""Every installed engine, played at random through the shared rules protocol only.

One test for all games, run for each engine under the ``rulepress.games`` entry points, so a
plug-in installed beside rulepress is tested without naming it here. The test is the one an
author calls from their own tests, ``rulepress.plugin.check_engine`` (tests/test_check_engine.py
shows each fault it finds): each state keeps the game's own invariants and the protocol's
(fixed move order, no move listed twice, every listed move accepted, moves that round-trip
through text, states ``apply`` leaves alone, turn order, an outcome exactly when over, views and
samples for hidden information), every game ends, and a seed plays the same game again.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulepress.games import available_engines, entry_point_module, load_engine
from rulepress.plugin import check_engine

# Random games an engine plays here (player counts and variants in turn): a few in the fast
# inner loop (`make test-fast`), many more, on other seeds, in the whole suite.
GAMES = 6
MORE_GAMES = 25


def installed() -> list[str]:
    """The engines installed under the entry points (not the tests' register_engine ones);
    read at collection, without importing any, so one that fails to load fails its own test."""
    return [n for n in available_engines() if entry_point_module(n) is not None]


def test_every_bundled_engine_is_installed_with_rules() -> None:
    """Each game package under rulepress/games/ is registered, and has rules to play."""
    bundled = [n for n in installed() if str(entry_point_module(n)).startswith("rulepress.")]
    assert bundled, installed()
    for name in bundled:
        assert load_engine(name).rules() is not None, name


def checked(name: str, games: int, seed: int) -> None:
    engine = load_engine(name)
    if engine.rules() is None:
        pytest.skip(f"the {name} engine has no rules to play")
    check_engine(engine, games=games, seed=seed)


@pytest.mark.parametrize("name", installed())
def test_random_games_keep_every_invariant_and_end(name: str) -> None:
    checked(name, GAMES, seed=0)


@pytest.mark.slow
@pytest.mark.parametrize("name", installed())
def test_many_more_random_games_keep_every_invariant_and_end(name: str) -> None:
    checked(name, MORE_GAMES, seed=GAMES)


PLUGIN = Path(__file__).parent / "fixtures" / "plugin" / "tiny_plugin.py"
ENTRY_POINTS = """[rulepress.games]
tiny_plugin = tiny_plugin:ENGINE
tiny_plugin_mutates = tiny_plugin:MUTATES
tiny_plugin_shuffles = tiny_plugin:SHUFFLES
"""


@pytest.mark.slow  # a second pytest, in a process of its own
def test_an_installed_plugin_is_tested_and_a_broken_one_fails(tmp_path: Path) -> None:
    """A package "installed" as pip would (its module and a dist-info folder on sys.path) is
    played by this file's tests unnamed; its broken twins fail them, each for its fault."""
    site = tmp_path / "site"
    info = site / "tiny_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    shutil.copy(PLUGIN, site)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (
        str(site), os.environ.get("PYTHONPATH"))))}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-rA", "-p", "no:cacheprovider", "-p", "no:randomly",
         "-k", "tiny_plugin and not installed_plugin and not many_more", str(Path(__file__))],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    out = run.stdout
    summary = set(re.findall(r"^(PASSED|FAILED) \S*::(\S+)", out, re.MULTILINE))
    test = "test_random_games_keep_every_invariant_and_end"
    assert summary == {("PASSED", f"{test}[tiny_plugin]"),
                       ("FAILED", f"{test}[tiny_plugin_mutates]"),
                       ("FAILED", f"{test}[tiny_plugin_shuffles]")}, out
    assert "tiny_plugin: apply() changed the state it was given" in out
    assert "tiny_plugin: legal_moves() lists the moves in another order when asked again" in out
    assert run.returncode == 1
