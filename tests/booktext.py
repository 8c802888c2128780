"""Reading a rendered rulebook page as a reader would, for the book tests: both editions of a
book, its words, its chapters, one chapter, the rulings, the examples it shows."""

from __future__ import annotations

import html
import re

from rulepress.diagnostics import Diagnostic
from rulepress.document.editions import PLAYER, REFERENCE
from rulepress.document.model import Document
from rulepress.render import render_html
from rulepress.validate.printing import check_printing


def unexpected(slug: str, diagnostics: list[Diagnostic]) -> list[str]:
    """What a bundled book's check says: every warning is a fault of the book (the teaching
    order included; the four books were rewritten until it reports none)."""
    return [f"{slug}: {d}" for d in diagnostics]


def words(page: str) -> str:
    """What a reader sees of (a piece of) a page: its text in single spaces, without styles and
    figures (their titles are for screen readers)."""
    page = re.sub(r"<(svg|style|title)\b.*?</\1>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def section(page: str, anchor: str) -> str:
    """The chapter whose heading has the id ``anchor``, up to the next chapter."""
    start = page.index(f'id="{anchor}"')
    return page[start:page.index("<h2", start)]


def rulings(page: str) -> list[str]:
    return re.findall(r"<li[^>]*>(.*?)</li>", section(page, "rulings"), flags=re.S)


def chapter_titles(page: str) -> list[str]:
    """The titles of the page's chapters (its first-rank headings), in order."""
    after = page[page.index("</nav>"):] if "</nav>" in page else page  # not the glossary
    return re.findall(r'<h2 [^>]*class="rank-1[^"]*"[^>]*>([^<]*)</h2>', after)


def starts_a_page(page: str, anchor: str) -> bool:
    """Whether the chapter whose heading has the id ``anchor`` starts a printed page."""
    return 'class="rank-1 new-page"' in page.split(f'id="{anchor}"')[1][:40]


def example_ids(page: str) -> set[str]:
    return set(re.findall(r'<aside class="example[^"]*" id="example-([^"]+)"', page))


def both_editions(doc: Document) -> dict[str, str]:
    """The player and reference pages of ``doc``, which must check clean."""
    checked = check_printing([doc], draw=True).documents[0]
    assert not unexpected(doc.slug, list(checked.diagnostics))
    return {ed: render_html(doc, checked.examples, edition=ed) for ed in (PLAYER, REFERENCE)}
