"""The papers rulepress prints on, in one place: the books (page size, booklet sheets), the
kits (sheets), the command line and rulepress.toml read them from here. Editions are in
document/editions.py."""

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


PAPERS = {
    "a4": Paper("a4", "A4", 210.0, 297.0, 595.2755905511812, 841.8897637795277),
    "letter": Paper("letter", "US Letter", 215.9, 279.4, 612.0, 792.0),
}
PAPER_KEYS = tuple(PAPERS)
PAPER_NAMES = {key: p.name for key, p in PAPERS.items()}
