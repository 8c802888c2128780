"""Page make-up, checked by `build` on every PDF it writes (render/makeup.py): a heading never
ends a page, no page inside a book is more than 70% blank unless the next starts a chapter the
source marks {.new-page}, and no figure's text prints under 6 pt. Each fault is a warning at
the source line of its heading or example."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from pagefill import blank_shares, stranded_headings
from support import Quiet

from rulepress.build import build_rulebooks
from rulepress.diagnostics import Diagnostic, Severity
from rulepress.paths import templates_dir
from rulepress.render.figures import label_sizes
from rulepress.render.makeup import MIN_FIGURE_PT

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = Path(__file__).parent / "fixtures" / "makeup"


def _line(rules: Path, text: str) -> int:
    return rules.read_text(encoding="utf-8").split("\n").index(text) + 1


def _said(found: list[Diagnostic]) -> list[str]:
    return [f"{Path(d.loc.path).name}:{d.loc.line}: {d.severity.value}: {d.message}"
            for d in found if d.loc is not None]


def test_a_badly_made_up_book_gets_each_fault_at_its_source_line(tmp_path: Path) -> None:
    """The fixture's book ends p. 3 on a heading (its print.css, the theme's and one rule,
    starts the paragraph after it on a new page), leaves p. 4 all but blank before a section it
    starts on a new page that is no chapter, and draws a figure whose label prints at 3 pt. The
    page before a chapter the source starts on a new page (p. 5) and the page before the
    credits are left blank too, as they may be: nothing is said of them."""
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    rules = project / "sources" / "lamps" / "rules.md"
    (rules.parent / "templates").mkdir()
    (rules.parent / "templates" / "print.css").write_text(
        (templates_dir() / "print.css").read_text(encoding="utf-8")
        + "\n#a-stranded-heading + p { break-before: page; }\n", encoding="utf-8")
    out = tmp_path / "build"
    built = build_rulebooks(project / "sources", out, papers=("a4", "letter"),
                            editions=("player",), project=project, reporter=Quiet(), jobs=1)
    heading = _line(rules, "## A stranded heading")
    rare = _line(rules, "### Rare cases {.new-page}")
    example = _line(rules, "```example")
    assert _said(built.warnings) == [
        f"rules.md:{heading}: warning: lamps-a4.pdf p. 3: the heading 'A stranded heading' "
        "ends the page: a heading keeps with at least 2 lines of what follows it",
        f"rules.md:{rare}: warning: lamps-a4.pdf p. 4: 98% of the page is blank: a page inside "
        "a book is at most 70% blank, unless the next starts a chapter the source marks "
        "{.new-page}",
        f"rules.md:{example}: warning: lamps-a4.pdf p. 6: a figure's text prints at 3.0 pt, "
        "under 6 pt: draw its labels larger, or the figure smaller in its own units",
    ]
    assert all(d.severity is Severity.WARNING for d in built.warnings)
    # The faults are there on the pages as the tests' own page measure reads them back.
    pdf = out / "lamps" / "lamps-a4.pdf"
    assert stranded_headings(pdf, ["A stranded heading"]) == [(3, "A stranded heading")]
    shares = {p.number: p.blank for p in blank_shares(pdf)}
    assert shares[4] > 0.9 and shares[5] > 0.9, shares
    assert (out / "lamps" / "lamps-letter.pdf").is_file()  # a warning writes the book


def test_the_figure_text_floor_reads_the_svg_sizes_through_its_transforms() -> None:
    from xml.etree import ElementTree

    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 40" font-size="10">'
           '<g transform="scale(0.5)"><text>half</text></g><text font-size="8pt">pt</text>'
           '<text>   </text></svg>')
    assert sorted(label_sizes(ElementTree.fromstring(svg))) == [5.0, pytest.approx(32 / 3)]
    assert MIN_FIGURE_PT == 6


@pytest.mark.slow  # every bundled book, both editions, both papers, every language
def test_the_bundled_books_have_no_page_make_up_faults(
        bundled_books: Path, bundled_books_warnings: list[list[Any]]) -> None:
    """The books as `make` builds them (conftest.bundled_books: the languages of
    rulepress.toml, both papers, both editions) warn of no fault of page make-up."""
    pdfs = sorted(p.relative_to(bundled_books).as_posix() for p in bundled_books.rglob("*.pdf"))
    assert len(pdfs) >= 4 * 2 * 2 and any("/de/" in p for p in pdfs), pdfs
    assert [f"{name}:{line}: {severity}: {message}"
            for name, line, severity, message in bundled_books_warnings if name is not None] == []
