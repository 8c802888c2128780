"""Every bundled example is proven, and changing any one of its claims makes it fail."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from booktext import unexpected

from rulepress.document.model import Document, Example
from rulepress.document.reader import read_document
from rulepress.games import load_engine
from rulepress.validate.check import check_example, flatten
from rulepress.validate.printing import check_printing

pytestmark = pytest.mark.slow  # every bundled game checked whole, as `rulepress check`

SOURCES = Path(__file__).parents[1] / "sources"
DOCS = {p.parent.name: read_document(p) for p in sorted(SOURCES.glob("*/rules.md"))}
EXAMPLES = [
    pytest.param(doc, ex, id=f"{slug}:{ex.id}")
    for slug, doc in DOCS.items()
    if doc.meta.engine
    for ex in doc.examples
]


@pytest.mark.parametrize("slug", sorted(DOCS))
def test_document_checks_clean(slug: str) -> None:
    result = check_printing([DOCS[slug]]).documents[0]
    assert unexpected(slug, list(result.diagnostics)) == []


def mutations(value: Any) -> Iterator[Any]:
    """Plausible wrong values: a number off by one, a flipped flag, another word, a changed list."""
    if isinstance(value, bool):
        yield not value
    elif isinstance(value, int | float):
        yield value + 1
    elif isinstance(value, str):
        yield value + "x"
    elif isinstance(value, list):
        yield [*value, value[-1]] if value else ["x"]
        if len(value) > 1:
            yield list(reversed(value)) if list(reversed(value)) != value else value[:-1]
    elif value is None:
        yield 0
    elif isinstance(value, dict) and not value:
        yield {"x": 1}


def set_path(claims: dict[str, Any], path: list[str], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(claims)
    node: Any = out
    for key in path[:-1]:
        node = node[key] if key in node else node[int(key)]
    last = path[-1]
    node[last if last in node else int(last)] = value
    return out


@pytest.mark.parametrize(("doc", "example"), EXAMPLES)
def test_every_changed_claim_fails_at_the_example(doc: Document, example: Example) -> None:
    assert doc.meta.engine
    engine = load_engine(doc.meta.engine)
    diags, _ = check_example(example, engine)
    assert [str(d) for d in diags] == [], "the example itself must be proven"
    for name, value in flatten(example.claims):
        for wrong in mutations(value):
            claims = set_path(dict(example.claims), name.split("."), wrong)
            diags, _ = check_example(replace(example, claims=claims), engine)
            assert diags, f"claim {name} changed to {wrong!r} still passes"
            # Reported at the changed claim's own line, naming it.
            path = tuple(int(k) if k.isdigit() else k for k in name.split("."))
            where = example.line_of(("claims", *path))
            assert any(d.loc == where and f"claims {name}" in d.message for d in diags), (
                name, [str(d) for d in diags])
