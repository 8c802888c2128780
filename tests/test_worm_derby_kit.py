"""The Worm Derby piecepack measured from the kit PDFs: tiles, coins, dice nets, pawns."""

from __future__ import annotations

import io
from pathlib import Path

import pdfplumber
import pytest

from rulepress.document.reader import read_document
from rulepress.games.worm_derby import ENGINE
from rulepress.pnp.kit import build_kit

SOURCE = Path(__file__).parents[1] / "sources" / "worm-derby" / "rules.md"
DOC = read_document(SOURCE)
PT_PER_MM = 72 / 25.4
INCH = 25.4


def mm(points: float) -> float:
    return points / PT_PER_MM


@pytest.fixture(scope="module", params=["a4", "letter"])
def kit(request: pytest.FixtureRequest) -> tuple[bytes, dict[str, int]]:
    k = build_kit(DOC, ENGINE.drawers(), request.param)
    return k.pdf, dict(k.drawn)


def test_counts_match_the_source_and_the_engine(kit: tuple[bytes, dict[str, int]]) -> None:
    _, drawn = kit
    declared = {c.id: c.count for c in DOC.meta.components}
    assert declared == dict(ENGINE.component_counts())
    assert drawn == declared


def _shapes(pdf: bytes) -> tuple[list[tuple[float, float]], list[tuple[float, float]],
                                 list[float]]:
    rects, curves, vlines = [], [], []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            rects += [(mm(r["width"]), mm(r["height"])) for r in page.rects]
            curves += [(mm(c["x1"] - c["x0"]), mm(c["bottom"] - c["top"])) for c in page.curves]
            vlines += [mm(ln["height"]) for ln in page.lines if ln["width"] < 0.01]
    return rects, curves, vlines


def near(a: float, b: float) -> bool:
    return abs(a - b) < 0.1


def test_pieces_measure_right(kit: tuple[bytes, dict[str, int]]) -> None:
    pdf, _ = kit
    rects, curves, vlines = _shapes(pdf)
    die_faces = [r for r in rects if near(r[0], INCH / 2) and near(r[1], INCH / 2)]
    assert len(die_faces) >= 4 * 6  # four nets of six half-inch faces
    coins = [c for c in curves if near(c[0], 0.75 * INCH) and near(c[1], 0.75 * INCH)]
    assert len(coins) >= 2 * 24  # both sides of every coin, cut along a 3/4 in circle
    tile_grid = [h for h in vlines if near(h, 2 * INCH)]
    assert len(tile_grid) >= 24  # each tile back's grid line runs the full 2 in


def test_every_drawer_is_declared() -> None:
    names = {n for c in DOC.meta.components for n in (c.front, c.back) if n}
    assert names == set(ENGINE.drawers())
