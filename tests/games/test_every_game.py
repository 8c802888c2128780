"""The tests every game inherits, run for each game in sources/ that names an engine, with what
its rulebook promises read from expectations.toml: every example proven, every claim changed
fails, every figure a self-contained SVG in the bundled font, the engine's counts the rulebook's.
"""

from __future__ import annotations

import copy
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from rulepress.document.model import Document, Example
from rulepress.document.reader import read_sources
from rulepress.document.schema import is_layout
from rulepress.games import load_engine
from rulepress.plugin import DIAGRAM_FONT, facts_of, figures_of
from rulepress.validate.check import compare, flatten

ROOT = Path(__file__).parents[2]
EXPECTED: dict[str, Any] = tomllib.loads((Path(__file__).parent / "expectations.toml").read_text())
DOCS: dict[str, Document] = {doc.path.parent.name: doc for doc in read_sources(ROOT / "sources")
                             if doc.meta.engine}
EXAMPLES = [pytest.param(game, ex, id=f"{game}/{ex.id}")
            for game, doc in sorted(DOCS.items()) for ex in doc.examples]


def engine_of(game: str) -> Any:
    engine = DOCS[game].meta.engine
    assert engine is not None
    return load_engine(engine)


def test_every_game_has_its_expectations() -> None:
    assert sorted(DOCS) == sorted(EXPECTED), "add the game's table to expectations.toml"


@pytest.mark.parametrize("game", sorted(DOCS))
def test_the_rulebook_keeps_the_examples_it_promises(game: str) -> None:
    ids = {ex.id for ex in DOCS[game].examples}
    assert set(EXPECTED[game]["examples"]) - ids == set()


@pytest.mark.parametrize(("game", "example"), EXAMPLES)
def test_every_example_is_proven_and_every_changed_claim_fails(game: str,
                                                               example: Example) -> None:
    facts = facts_of(engine_of(game), example.data)
    assert compare(example.claims, facts) == []
    for name, value in flatten(example.claims):
        for wrong in mutated(value):
            claims = changed(dict(example.claims), name.split("."), wrong)
            assert compare(claims, facts), f"{name} changed to {wrong!r} still holds"


def mutated(value: Any) -> list[Any]:
    """Values a claim could wrongly give instead of ``value``."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value + 1, value - 1]
    if isinstance(value, str):
        return [value + "x"]
    if isinstance(value, list):
        out: list[Any] = [[*value, value[-1]] if value else [1]]
        if len(value) > 1 and list(reversed(value)) != value:
            out.append(list(reversed(value)))
        return out
    return [0] if value is None else []


def changed(claims: dict[str, Any], path: list[str], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(claims)
    node: Any = out
    for key in path[:-1]:
        node = node[key] if key in node else node[int(key)]
    node[path[-1] if path[-1] in node else int(path[-1])] = value
    return out


@pytest.mark.parametrize(("game", "example"), EXAMPLES)
def test_the_figures_are_self_contained_svg_in_the_bundled_font(game: str,
                                                                example: Example) -> None:
    figures = figures_of(engine_of(game), example.data)
    if EXPECTED[game]["drawn"] == "every" or "setup" in example.data:
        assert figures
    for fig in figures:
        root = ET.fromstring(fig.svg)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        assert float(root.get("width", 0)) > 0 and float(root.get("height", 0)) > 0
        assert root.get("viewBox")
        assert f'font-family="{DIAGRAM_FONT}"' in fig.svg
        assert "<script" not in fig.svg and "href" not in fig.svg


@pytest.mark.parametrize("game", sorted(DOCS))
def test_the_engines_counts_and_drawers_are_the_rulebooks(game: str) -> None:
    doc, engine = DOCS[game], engine_of(game)
    declared = {c.id: c.count for c in doc.meta.components}
    counts = dict(engine.component_counts())
    assert counts and {cid: declared.get(cid) for cid in counts} == counts
    drawers = engine.drawers()
    for comp in doc.meta.components:  # a drawer of the engine, or a layout file
        for name in (comp.front, comp.back):
            assert name is None or name in drawers or (is_layout(name)
                                                       and (doc.folder / name).is_file())
