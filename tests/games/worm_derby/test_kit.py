"""The Worm Derby piecepack measured from the kit PDFs: tiles, coins, dice nets, pawns."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from reportlab.pdfgen.canvas import Canvas

from rulepress.document.reader import read_document
from rulepress.games.worm_derby import ENGINE
from rulepress.pnp.api import Face
from rulepress.pnp.faces import Art
from rulepress.pnp.kit import build_kit

pytestmark = pytest.mark.slow  # the game's whole kit drawn, both papers

SOURCE = Path(__file__).parents[3] / "sources" / "worm-derby" / "rules.md"
DOC = read_document(SOURCE)
PT_PER_MM = 72 / 25.4
INCH = 25.4


def mm(points: float) -> float:
    return points / PT_PER_MM


@pytest.fixture(scope="module", params=["a4", "letter"])
def kit(request: pytest.FixtureRequest) -> tuple[bytes, dict[str, int]]:
    k = build_kit(DOC, ENGINE.drawers(), request.param, tables=ENGINE.tables())
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
    assert {n for n in names if not n.endswith(".yml")} == set(ENGINE.drawers())


def coin_sides(tables: Any = None) -> list[tuple[str, str]]:
    """(suit side's text, value side's text) of each coin, drawn from its layouts and the
    engine's ``tables`` (default: its own)."""
    comp = next(c for c in DOC.meta.components if c.id == "coins")
    assert comp.size is not None
    w, h = comp.size.points
    art = Art(DOC, ENGINE.tables() if tables is None else tables)
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(w, h))
    for i in range(comp.count):
        for back in (False, True):
            art.drawer(comp, back)(c, Face(i, comp.count, w, h, 3 * PT_PER_MM, back=back))
            c.showPage()
    c.save()
    with pdfplumber.open(io.BytesIO(buf.getvalue())) as pdf:
        texts = ["".join(ch["text"] for ch in page.chars) for page in pdf.pages]
    return list(zip(texts[0::2], texts[1::2], strict=True))


def test_the_coins_are_the_engines_suits_and_die_faces() -> None:
    from rulepress.games.worm_derby.moves import ACE, FACES, NULL
    from rulepress.games.worm_derby.rules import SUITS

    signs = {"suns": "\u2600", "moons": "\u263e", "crowns": "\u265b", "arms": "\u269c"}
    want = [(signs[suit], "" if f == NULL else "A" if f == ACE else str(f))
            for suit in SUITS for f in FACES]
    assert coin_sides() == want


def test_changing_the_engines_coin_table_changes_the_coins() -> None:
    tables = {k: [dict(r) for r in v] for k, v in ENGINE.tables().items()}
    tables["coins"][1]["value"] = "Z"
    assert coin_sides(tables)[1][1] == "Z"
