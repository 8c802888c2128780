"""A game imports rulepress.plugin and nothing else of rulepress: every bundled game and the
scaffold's engine, walked import by import (inside functions too)."""

from __future__ import annotations

import ast
from importlib.metadata import entry_points
from importlib.resources import files
from pathlib import Path

import pytest

import rulepress
import rulepress.plugin

SRC = Path(rulepress.__file__).parent


def bundled_games() -> dict[str, Path]:
    """Each bundled game's package folder, by its entry point's name."""
    found = {}
    for ep in entry_points(group="rulepress.games"):
        package = ep.module.partition(":")[0]
        if package.startswith("rulepress.games."):
            found[ep.name] = SRC.joinpath(*package.split(".")[1:])
    return found


def internals(source: str, own: str) -> list[str]:
    """The rulepress modules ``source`` imports besides rulepress.plugin and its own package
    ``own``, each with its line."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            if name.partition(".")[0] != "rulepress" or name == "rulepress.plugin":
                continue
            if own and (name == own or name.startswith(own + ".")):
                continue
            found.append(f"{node.lineno}: {name}")
    return found


def test_every_bundled_game_package_is_registered() -> None:
    """Each game package under rulepress/games/ is found by its entry point, as a plug-in is."""
    packages = {p.parent for p in (SRC / "games").glob("*/__init__.py")}
    assert packages and packages == set(bundled_games().values())


@pytest.mark.parametrize("game", sorted(bundled_games()))
def test_a_bundled_game_imports_only_the_plugin_module(game: str) -> None:
    folder = bundled_games()[game]
    own = "rulepress." + ".".join(folder.relative_to(SRC).parts)
    modules = sorted(folder.rglob("*.py"))
    assert modules, folder
    wrong = {str(p.relative_to(SRC)): internals(p.read_text("utf-8"), own) for p in modules}
    assert {k: v for k, v in wrong.items() if v} == {}


def test_the_scaffolded_engine_imports_only_the_plugin_module() -> None:
    modules = {t.name: t.read_text("utf-8") for t in files("rulepress.scaffold").iterdir()
               if t.name.endswith(".py.tmpl")}
    assert sorted(modules) == ["__init__.py.tmpl", "agents.py.tmpl", "examples.py.tmpl",
                               "rules.py.tmpl"]  # the bundled games' shape
    assert "Engine(" in modules["__init__.py.tmpl"]
    assert {name: internals(text.replace("$", "_"), "") for name, text in modules.items()} == {
        name: [] for name in modules}


def test_the_walk_finds_an_internal_import_anywhere() -> None:
    source = ("import rulepress.pnp.draw\nfrom rulepress.plugin import Engine\n"
              "def drawers():\n    from rulepress.paths import fonts_dir\n"
              "from rulepress.games.pig import rules\n")
    assert internals(source, "rulepress.games.pig") == ["1: rulepress.pnp.draw",
                                                        "4: rulepress.paths"]


def test_the_plugin_module_exports_what_it_lists() -> None:
    for name in rulepress.plugin.__all__:
        assert getattr(rulepress.plugin, name) is not None, name
    assert rulepress.plugin.ordinal(22) == "22nd"
    with pytest.raises(AttributeError):
        rulepress.plugin.nothing_of_that_name  # noqa: B018


def imported_from_plugin(source: str) -> set[str]:
    return {a.name for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)
            and node.module == "rulepress.plugin" for a in node.names}


def test_the_plugin_module_exports_only_what_games_use_and_its_own_api() -> None:
    """Every name rulepress.plugin offers is one a bundled game or the scaffold imports, or
    one of the API's own (its version, the conformance check, the optional hooks' Protocols,
    the example replays for a game's tests, the data reader for an engine of its own class):
    a name no game needs is not offered."""
    used: set[str] = set()
    for folder in bundled_games().values():
        for module in folder.rglob("*.py"):
            used |= imported_from_plugin(module.read_text("utf-8"))
    for template in files("rulepress.scaffold").iterdir():
        if template.name.endswith(".py.tmpl"):
            used |= imported_from_plugin(template.read_text("utf-8").replace("$", "_"))
    own = {"API_VERSION", "ConformanceError", "check_engine", "facts_of", "figures_of",
           "game_data", "Rules", "HandicapRules", "HiddenRules", "HiddenState", "JudgingAgent",
           "RankingAgent", "ScoredState"}
    offered = set(rulepress.plugin.__all__)
    assert used <= offered, used - offered
    assert offered - used <= own, (offered - used) - own
