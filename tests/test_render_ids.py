"""Every id on a bundled rulebook's page is unique, figures' own ids included."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from rulepress.checks import every
from rulepress.document.reader import read_document
from rulepress.render import render_html
from rulepress.render.html import scope_ids
from rulepress.validate.check import check_document

SOURCES = Path(__file__).parents[1] / "sources"


def test_scope_ids_renames_ids_and_their_references() -> None:
    svg = '<svg><clipPath id="t"><rect/></clipPath><g clip-path="url(#t)"/><use href="#t"/></svg>'
    assert scope_ids(svg, "f1") == (
        '<svg><clipPath id="f1-t"><rect/></clipPath><g clip-path="url(#f1-t)"/>'
        '<use href="#f1-t"/></svg>'
    )


@pytest.mark.parametrize("slug", sorted(p.parent.name for p in SOURCES.glob("*/rules.md")))
def test_ids_on_the_page_are_unique(slug: str) -> None:
    result = check_document(read_document(SOURCES / slug / "rules.md"), draw=True, checks=every())
    page = render_html(result.doc, result.examples)
    ids = Counter(re.findall(r'\sid="([^"]+)"', page))
    assert [i for i, n in ids.items() if n > 1] == []
    for ref in set(re.findall(r"url\(#([^)]+)\)", page)):
        assert ids[ref] == 1, ref
