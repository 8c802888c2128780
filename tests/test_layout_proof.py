"""`rulepress pnp --proof`: one page, each distinct face once at 1:1, trim and safe lines."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
from click.testing import CliRunner

from rulepress.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "layouts"
MM = 72 / 25.4
SAFE = 3 * MM


def _rects(page: pdfplumber.page.Page, colour: tuple[float, ...]) -> list[tuple[float, float]]:
    return [(r["width"] / MM, r["height"] / MM) for r in page.rects
            if r["stroke"] and tuple(r["stroking_color"] or ()) == colour]


def test_the_proof_shows_each_distinct_face_once_at_full_size(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["pnp", "--sources", str(FIXTURES), "--out",
                                       str(tmp_path), "--proof"])
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in (tmp_path / "deck").iterdir()) == ["deck-proof.pdf"]
    with pdfplumber.open(tmp_path / "deck" / "deck-proof.pdf") as pdf:
        assert len(pdf.pages) == 1
        page = pdf.pages[0]
        trims = _rects(page, (1, 0, 1))
        safes = _rects(page, (0, 0.6, 1))
        captions = page.extract_text() or ""
    # 3 distinct card fronts (4 cards), 1 shared back, 2 distinct markers (3), 1 aid (2 copies)
    cards = [(63.5, 88.9)] * 4 + [(20.0, 20.0)] * 2 + [(63.5, 88.9)]
    assert len(trims) == len(cards) == len(safes)
    for (w, h), (want_w, want_h) in zip(sorted(trims), sorted(cards), strict=True):
        assert abs(w - want_w) < 0.1 and abs(h - want_h) < 0.1
    for (w, h), (want_w, want_h) in zip(sorted(safes), sorted(cards), strict=True):
        assert abs(w - (want_w - 6)) < 0.1 and abs(h - (want_h - 6)) < 0.1
    assert "deck front, cards.csv:2" in captions and "markers front, rules.md:21" in captions
