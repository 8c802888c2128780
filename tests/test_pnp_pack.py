"""The mixed-sheet packer's invariants, for any mix of piece sizes, counts and bleeds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulepress.pnp import pack
from rulepress.pnp.layout import MARGIN, MARK_HALO, MARK_MIN, PAPERS, Rect, map_rect, mark_area
from rulepress.units import mm

HALO = MARK_HALO / 2

kinds = st.tuples(st.floats(8, 120), st.floats(8, 120), st.integers(1, 14), st.booleans())


def _overlap(a: Rect, b: Rect) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1e-6 and min(a[3], b[3]) - max(a[1], b[1]) > 1e-6


@settings(max_examples=60, deadline=None)
@given(st.lists(kinds, min_size=1, max_size=5), st.floats(0, 5),
       st.sampled_from(["a4", "letter"]))
def test_every_piece_once_inside_the_marks_area_and_no_mark_over_a_face(
    specs: list[tuple[float, float, int, bool]], bleed_mm: float, paper: str,
) -> None:
    p = PAPERS[paper]
    bleed = mm(bleed_mm)
    specs = [*specs, *((h, w, n, pair) for w, h, n, pair in specs[:1])]  # one turned twin
    pieces = [pack.Piece(f"c{k}", i, mm(w), mm(h), pair)
              for k, (w, h, n, pair) in enumerate(specs) for i in range(n)]
    pieces = [x for x in pieces if pack.fits(p, x, bleed)]
    dims = {f"c{k}": (mm(w), mm(h)) for k, (w, h, _, _) in enumerate(specs)}
    sheets = pack.pack(p, pieces, bleed)
    placed = sorted((s.component, s.index, s.back) for sheet in sheets for s in sheet.slots)
    want = sorted([(x.component, x.index, False) for x in pieces]
                  + [(x.component, x.index, True) for x in pieces if x.pair])
    assert placed == want
    assert pack.pack(p, pieces, bleed) == sheets  # deterministic
    for sheet in sheets:
        lo_x, lo_y, hi_x, hi_y = mark_area(p)
        # A full-height sheet has no footer band: its pieces reach the bottom margin.
        lo_y = MARGIN if sheet.full_height else lo_y
        trims = [s.trim for s in sheet.slots]
        for s in sheet.slots:
            x0, y0, x1, y1 = s.clip
            assert x0 >= lo_x - 1e-6 and y0 >= lo_y - 1e-6 and x1 <= hi_x + 1e-6
            assert y1 <= hi_y + 1e-6
            # The face, in its own coordinates, lands exactly on its trim (turned or not).
            w, h = dims[s.component]
            assert map_rect(s.transform, (0.0, 0.0, w, h)) == pytest.approx(s.trim, abs=1e-6)
        for i, a in enumerate(trims):
            assert not any(_overlap(a, b) for b in trims[i + 1:])
        box = sheet.trim_box
        for m in (*sheet.marks, *sheet.folds):
            x0, x1 = sorted((m[0], m[2]))
            y0, y1 = sorted((m[1], m[3]))
            vertical = x0 == x1
            if sheet.full_height and vertical:
                # A column cut's tick: on a cut line, from the block's top or bottom edge in.
                assert any(abs(x0 - e) < 1e-3 for t in trims for e in (t[0], t[2])), m
                assert abs(y0 - box[1]) < 1e-3 or abs(y1 - box[3]) < 1e-3, m
                assert y1 - y0 <= MARK_MIN + 1e-6, m
                continue
            for s in sheet.slots:
                t = s.trim
                assert not (x0 < t[2] - 1e-6 and x1 > t[0] + 1e-6 and y0 < t[3] - 1e-6
                            and y1 > t[1] + 1e-6), (m, t)
                # A mark (and its white halo, on both sides of it) may run over a face's bleed
                # only on that face's own edge line.
                c = s.clip
                hx, hy = (HALO, 0.0) if vertical else (0.0, HALO)
                if (x0 - hx < c[2] - 1e-6 and x1 + hx > c[0] + 1e-6 and y0 - hy < c[3] - 1e-6
                        and y1 + hy > c[1] + 1e-6):
                    own = (t[0], t[2]) if vertical else (t[1], t[3])
                    assert any(abs((x0 if vertical else y0) - e) < 1e-3 for e in own), (m, s)


def test_a_deck_and_a_few_odd_pieces_print_the_deck_nine_up() -> None:
    """55 poker cards and a coin on A4: the deck 9-up, as a print-and-play deck is cut (three
    by three, touching), on sheets of its own: the coin is not printed beside its last card."""
    p = PAPERS["a4"]
    cards = [pack.Piece("deck", i, mm(63.5), mm(88.9)) for i in range(55)]
    sheets = pack.pack(p, [*cards, pack.Piece("coin", 0, mm(32), mm(32))], mm(3))
    assert [len(s.slots) for s in sheets] == [9] * 6 + [1, 1]
    assert [{x.component for x in s.slots} for s in sheets] == [{"deck"}] * 7 + [{"coin"}]


def test_on_letter_the_deck_prints_nine_up_from_margin_to_margin() -> None:
    """55 poker cards and a coin on US Letter: three rows of 88.9 mm are exactly the 266.7 mm
    between the margins, so the deck's sheets have no footer band and no bleed above or below,
    and still 9 touching cards a sheet, where room all round gives 8."""
    p = PAPERS["letter"]
    cards = [pack.Piece("deck", i, mm(63.5), mm(88.9)) for i in range(55)]
    sheets = pack.pack(p, [*cards, pack.Piece("coin", 0, mm(32), mm(32))], mm(3))
    assert [len(s.slots) for s in sheets] == [9] * 6 + [1, 1]  # the deck's sheets its own
    assert [s.full_height for s in sheets] == [True] * 6 + [False, False]
    top = sheets[0].trim_box
    assert top[1] == pytest.approx(MARGIN) and top[3] == pytest.approx(p.height - MARGIN)
    assert all(s.clip[1] >= MARGIN - 1e-6 and s.clip[3] <= p.height - MARGIN + 1e-6
               for s in sheets[0].slots)


def test_on_letter_odd_poker_size_pieces_keep_the_footer_band() -> None:
    """Nine poker-size pieces of nine components are no deck: they share ordinary sheets."""
    p = PAPERS["letter"]
    odd = [pack.Piece(f"aid{k}", 0, mm(63.5), mm(88.9)) for k in range(9)]
    sheets = pack.pack(p, odd, mm(3))
    assert not any(s.full_height for s in sheets) and len(sheets) == 2


def test_pieces_whose_colour_reaches_the_cut_never_butt() -> None:
    """Hwatu-size cards whose edge varies (GUTTER) keep 2 x bleed between trims; cards of one
    plain edge butt; two plain edges of different colours never share a block."""
    p = PAPERS["a4"]
    bleed = mm(3)

    def gaps(sheet: object) -> set[float]:
        trims = [s.trim for s in sheet.slots]  # type: ignore[attr-defined]
        found = set()
        for i, a in enumerate(trims):
            for b in trims[i + 1:]:
                if min(a[3], b[3]) > max(a[1], b[1]) + 1:  # side by side
                    found.add(round(max(b[0] - a[2], a[0] - b[2]) / mm(1), 2))
                if min(a[2], b[2]) > max(a[0], b[0]) + 1:  # one above the other
                    found.add(round(max(b[1] - a[3], a[1] - b[3]) / mm(1), 2))
        return {g for g in found if g < 20}

    banded = [pack.Piece("cards", i, mm(33), mm(54), edge=pack.GUTTER) for i in range(30)]
    assert all(gaps(s) == {6.0} for s in pack.pack(p, banded, bleed))
    plain = [pack.Piece("cards", i, mm(33), mm(54), edge="#ffffff") for i in range(30)]
    assert 0.0 in gaps(pack.pack(p, plain, bleed)[0])
    two = [pack.Piece(c, i, mm(33), mm(54), edge=e) for c, e in (("a", "#ffffff"),
                                                                  ("b", "#f0e0d0"))
           for i in range(4)]
    for sheet in pack.pack(p, two, bleed):
        for s in sheet.slots:
            for t in sheet.slots:
                if s.component != t.component:  # never on one cut
                    assert abs(s.trim[2] - t.trim[0]) > 1 and abs(s.trim[3] - t.trim[1]) > 1
