"""Every bundled game's diagrams against golden SVG files, figure by figure.

A change to a diagram, wanted or not, fails here with the example and the first line that
differs; once it is wanted, ``pytest tests/games --update-snapshots`` writes the new golden files
(tests/games/<engine>/snapshots/<example>-<n>.svg) to be reviewed and committed with it. A game
added to sources/ is snapshotted too: it fails until its golden files are written."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulepress.document.model import Document
from rulepress.document.reader import read_sources
from rulepress.games import load_engine
from rulepress.plugin import figures_of

ROOT = Path(__file__).parents[2]
GAMES = Path(__file__).parent


def documents() -> dict[str, Document]:
    return {doc.path.parent.name: doc for doc in read_sources(ROOT / "sources")
            if doc.meta.engine}


def drawn(doc: Document) -> dict[str, str]:
    """Each figure of the game's examples by its golden file's name."""
    assert doc.meta.engine is not None
    engine = load_engine(doc.meta.engine)
    out = {}
    for example in doc.examples:
        for n, figure in enumerate(figures_of(engine, example.data), 1):
            out[f"{example.id}-{n}.svg"] = figure.svg
    return out


def first_difference(old: str, new: str) -> str:
    for n, (a, b) in enumerate(zip(old.split(">"), new.split(">"), strict=False), 1):
        if a != b:
            return f"element {n}: golden {a[:160]!r}, now {b[:160]!r}"
    return f"golden {len(old)} characters, now {len(new)}"


@pytest.mark.parametrize("game", sorted(documents()))
def test_the_diagrams_match_their_golden_files(game: str, request: pytest.FixtureRequest) -> None:
    doc = documents()[game]
    figures = drawn(doc)
    assert figures, f"{game} draws no figure: nothing to snapshot"
    folder = GAMES / str(doc.meta.engine) / "snapshots"
    if request.config.getoption("--update-snapshots"):
        folder.mkdir(parents=True, exist_ok=True)
        for stale in set(p.name for p in folder.glob("*.svg")) - set(figures):
            (folder / stale).unlink()
        for name, svg in figures.items():
            (folder / name).write_text(svg, "utf-8")
    golden = {p.name: p.read_text("utf-8") for p in folder.glob("*.svg")}
    hint = "; if the change is wanted: pytest tests/games --update-snapshots"
    assert sorted(figures) == sorted(golden), (
        f"{game}: figures without a golden file {sorted(set(figures) - set(golden))}, golden "
        f"files of no figure {sorted(set(golden) - set(figures))}{hint}")
    changed = [f"{name}: {first_difference(golden[name], svg)}"
               for name, svg in figures.items() if golden[name] != svg]
    assert not changed, f"{game}: {len(changed)} diagrams changed: {changed[:3]}{hint}"
