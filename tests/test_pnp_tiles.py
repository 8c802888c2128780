"""Boards larger than the paper: tiles measured from the PDF, and the imposition's invariants."""

from __future__ import annotations

import io
import re
from typing import Any

import pdfplumber
import pytest
from fixtures.pnp import fixture_game as G  # tests/ is on sys.path (conftest.py)
from hypothesis import given, settings
from hypothesis import strategies as st

from rulepress.pnp import layout
from rulepress.pnp.kit import build_kit, count_drawn
from rulepress.pnp.layout import GLUE, PAPERS, grid_plan, mark_area
from rulepress.units import mm

TOL = mm(0.1)


def _markers(page: Any) -> dict[tuple[int, int], tuple[float, float]]:
    """Board markers (col, row) -> page centre; every marker is in the stream, clipped or not."""
    out = {}
    for r in page.rects:
        c = r["non_stroking_color"]
        if isinstance(c, tuple) and len(c) == 3 and abs(c[0] - 0.875) < 1e-4:
            key = (round(c[1] * 32), round(c[2] * 32))
            out[key] = ((r["x0"] + r["x1"]) / 2, page.height - (r["top"] + r["bottom"]) / 2)
    return out


def _to_board(page: Any):  # type: ignore[no-untyped-def]
    """Page point -> board millimetres, from where the markers landed on this page."""
    m = _markers(page)
    (ox, oy), (ax, ay), (bx, by) = m[(0, 0)], m[(1, 0)], m[(0, 1)]
    step = G.MARKER
    ux, uy, vx, vy = (ax - ox) / step, (ay - oy) / step, (bx - ox) / step, (by - oy) / step
    det = ux * vy - vx * uy
    assert abs(abs(det) - 1) < 1e-6  # placed at 100%, only moved or turned

    def f(x: float, y: float) -> tuple[float, float]:
        dx, dy = x - ox, y - oy
        u = (dx * vy - dy * vx) / det
        v = (ux * dy - uy * dx) / det
        return (u + step / 2) / mm(1), (v + step / 2) / mm(1)

    return f


def _tiles(paper: str) -> dict[str, dict[str, Any]]:
    kit = build_kit(G.boards(), G.DRAWERS, paper)
    pdf = pdfplumber.open(io.BytesIO(kit.pdf))
    tiles = {}
    for page in pdf.pages:
        text = page.extract_text() or ""
        found = re.search(r"tile ([A-Z]\d+) \u00b7 sheet", text)
        if not found or not _markers(page):
            continue
        h = page.height
        black = [ln for ln in page.lines if abs(ln["linewidth"] - mm(0.25)) < 0.01]
        xs = sorted({round(ln["x0"], 3) for ln in black if ln["x0"] == ln["x1"]})
        ys = sorted({round(h - ln["top"], 3) for ln in black if ln["top"] == ln["bottom"]})
        assert len(xs) == 2 and len(ys) == 2  # one trim per tile, marked on every edge
        to_board = _to_board(page)
        corners = [to_board(x, y) for x in xs for y in ys]
        dashed = [ln for ln in page.lines if ln.get("dash") and ln["dash"][0]]
        tiles[found.group(1)] = {
            "box": (
                min(c[0] for c in corners),
                min(c[1] for c in corners),
                max(c[0] for c in corners),
                max(c[1] for c in corners),
            ),
            "glue": [
                (to_board(ln["x0"], h - ln["top"]), to_board(ln["x1"], h - ln["bottom"]))
                for ln in dashed
            ],
        }
    return tiles


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_board_larger_than_the_paper_is_tiled_and_the_overlaps_line_up(paper: str) -> None:
    tiles = _tiles(paper)
    assert len(tiles) >= 4 and {"A1", "A2", "B1", "B2"} <= set(tiles)
    boxes = [t["box"] for t in tiles.values()]
    # The tiles cover the whole 450 x 320 mm board, nothing more.
    assert min(b[0] for b in boxes) == pytest.approx(0, abs=0.1)
    assert min(b[1] for b in boxes) == pytest.approx(0, abs=0.1)
    assert max(b[2] for b in boxes) == pytest.approx(450, abs=0.1)
    assert max(b[3] for b in boxes) == pytest.approx(320, abs=0.1)
    glue_mm = GLUE / mm(1)
    for label, t in tiles.items():
        row, col = label[0], int(label[1:])
        for other, pick in ((f"{row}{col + 1}", "right"), (f"{chr(ord(row) + 1)}{col}", "below")):
            if other not in tiles:
                continue
            a, b = t["box"], tiles[other]["box"]
            # Neighbours overlap by exactly the glue strip, in board coordinates.
            ovl_x = min(a[2], b[2]) - max(a[0], b[0])
            ovl_y = min(a[3], b[3]) - max(a[1], b[1])
            overlaps = sorted((ovl_x, ovl_y))
            assert overlaps[0] == pytest.approx(glue_mm, abs=0.1), (label, other)
            # ...and the dashed line on this tile is where the neighbour's cut edge lands.
            dashed = t["glue"]
            assert any(
                abs(p[0][k] - e) < 0.1 and abs(p[1][k] - e) < 0.1
                for p in dashed
                for k in (0, 1)
                for e in (b[k], b[k + 2])
            ), (label, other, pick, dashed, b)


def test_tiles_count_as_one_board_each() -> None:
    doc = G.boards()
    kit = build_kit(doc, G.DRAWERS, "a4")
    assert kit.drawn == {"table": 1}
    assert count_drawn(doc, G.DRAWERS) == {"table": 1}
    text = pdfplumber.open(io.BytesIO(kit.pdf)).pages[0].extract_text()
    assert "Assembly of Table" in text and "B2" in text


sizes = st.floats(min_value=8, max_value=180)


@settings(max_examples=60, deadline=None)
@given(sizes, sizes, st.integers(1, 40), st.floats(0, 5), st.sampled_from(["a4", "letter"]))
def test_grid_invariants(w: float, h: float, count: int, bleed: float, paper: str) -> None:
    p = PAPERS[paper]
    try:
        plan = grid_plan(p, mm(w), mm(h), mm(bleed), count)
    except layout.DoesNotFit:
        assert max(w, h) > 180 - 20 or min(w, h) > 150  # only big pieces may not fit
        return
    assert plan.drawn() == count
    lo_x, lo_y, hi_x, hi_y = mark_area(p)
    for sheet in plan.sheets:
        trims = [s.trim for s in sheet.slots]
        for s in sheet.slots:
            x0, y0, x1, y1 = s.clip
            assert x0 >= lo_x - 1e-6 and x1 <= hi_x + 1e-6 and y0 >= lo_y - 1e-6
            assert y1 <= hi_y + 1e-6
            tw, th = s.trim[2] - s.trim[0], s.trim[3] - s.trim[1]
            assert sorted((tw, th)) == pytest.approx(sorted((mm(w), mm(h))))
        for i, a in enumerate(trims):
            for b in trims[i + 1:]:
                assert min(a[2], b[2]) - max(a[0], b[0]) < 1e-6 or min(a[3], b[3]) - max(
                    a[1], b[1]) < 1e-6
        halo = mm(0.3)  # half the white underlay's width
        for m in sheet.marks:
            x0, x1 = sorted((m[0], m[2]))
            y0, y1 = sorted((m[1], m[3]))
            vertical = x0 == x1
            for t in trims:
                assert not (x0 < t[2] - 1e-6 and x1 > t[0] + 1e-6 and y0 < t[3] - 1e-6
                            and y1 > t[1] + 1e-6)
            # A mark may cross a face's artwork (its bleed) only on that face's own cut line.
            for s in sheet.slots:
                c = s.clip
                if x0 - halo < c[2] and x1 + halo > c[0] and y0 - halo < c[3] and y1 + halo > c[1]:
                    own = (s.trim[0], s.trim[2]) if vertical else (s.trim[1], s.trim[3])
                    assert any(abs((x0 if vertical else y0) - e) < 1e-3 for e in own)
