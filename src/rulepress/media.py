"""What every printing is made on and in, said once: the papers rulepress prints on (the books'
page sizes and booklet sheets, the kits' sheets, the press books' pages; the command line and
rulepress.toml read them from here), the default language, and the date a build's files carry
when SOURCE_DATE_EPOCH is unset. The editions are in document/editions.py, which reads the
source's marks of them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    key: str  # as the command line and rulepress.toml name it
    name: str  # as a reader does
    width_mm: float
    height_mm: float
    width_pt: float  # exactly as ReportLab's page sizes give them
    height_pt: float
    page_css: str  # the page as CSS sets it (a press book is typeset on the paper's own page)
    booklet_page_css: str  # half a sheet: a booklet's page, typeset at that size


PAPERS = {
    "a4": Paper("a4", "A4", 210.0, 297.0, 595.2755905511812, 841.8897637795277,
                "210mm 297mm", "A5"),
    "letter": Paper("letter", "US Letter", 215.9, 279.4, 612.0, 792.0,
                    "8.5in 11in", "5.5in 8.5in"),
}
PAPER_KEYS = tuple(PAPERS)
PAPER_NAMES = {key: p.name for key, p in PAPERS.items()}

DEFAULT_LANGUAGE = "en"  # a project's rules unless rulepress.toml says otherwise; the theme's

# The date of every file a build writes when SOURCE_DATE_EPOCH is unset, so bytes repeat.
FALLBACK_EPOCH = "1767225600"  # 2026-01-01T00:00:00Z
