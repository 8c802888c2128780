"""Every id on a bundled rulebook's page is unique, figures' own ids included."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulepress.document.reader import read_document
from rulepress.render import render_html
from rulepress.render.html import _scope_each, scope_ids
from rulepress.validate.printing import check_printing

SOURCES = Path(__file__).parents[1] / "sources"


def test_scope_ids_renames_ids_and_their_references() -> None:
    svg = '<svg><clipPath id="t"><rect/></clipPath><g clip-path="url(#t)"/><use href="#t"/></svg>'
    assert scope_ids(svg, "f1") == (
        '<svg><clipPath id="f1-t"><rect/></clipPath><g clip-path="url(#f1-t)"/>'
        '<use href="#f1-t"/></svg>'
    )


_NAMES = ["t", "t1", "a-t", "t.b", "x:y", "f1-t", "a)b", "q'", "a b"]
_PIECES = ['<g id="{}">', "<g id = '{}'/>", '<g data-id="{}">', 'clip-path="url(#{})"',
           '<use href="#{}"/>', "<use xlink:href='#{}'/>", '<a href="#{} x">', "url(#{}",
           '<text>id="{}" url(#{})</text>', 'href = "#{}\'']


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_PIECES), st.sampled_from(_NAMES)), max_size=10))
def test_scope_ids_in_one_pass_is_scope_ids_name_by_name(pieces: list[tuple[str, str]]) -> None:
    """The one-pass renaming writes what renaming each id in turn (longest first) writes,
    whatever the ids, quotes and references; unusual ids take the name-by-name way."""
    svg = "<svg>" + "".join(p.replace("{}", name) for p, name in pieces) + "</svg>"
    ids = set(re.findall(r"""\bid\s*=\s*(["'])([^"']+)\1""", svg))
    assert scope_ids(svg, "ex-fig1") == _scope_each(svg, "ex-fig1", {i for _, i in ids})


@pytest.mark.slow  # every bundled book rendered
@pytest.mark.parametrize("slug", sorted(p.parent.name for p in SOURCES.glob("*/rules.md")))
def test_ids_on_the_page_are_unique(slug: str) -> None:
    result = check_printing([read_document(SOURCES / slug / "rules.md")],
                            draw=True).documents[0]
    page = render_html(result.doc, result.examples)
    ids = Counter(re.findall(r'\sid="([^"]+)"', page))
    assert [i for i, n in ids.items() if n > 1] == []
    for ref in set(re.findall(r"url\(#([^)]+)\)", page)):
        assert ids[ref] == 1, ref
