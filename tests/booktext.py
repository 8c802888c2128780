"""Reading a rendered rulebook page as a reader would, for the book tests: both editions of a
book, its words, its chapters, one chapter, the rulings, the examples it shows."""

from __future__ import annotations

import html
import re
from pathlib import Path

from rulepress.diagnostics import Diagnostic
from rulepress.document.editions import PLAYER, REFERENCE
from rulepress.document.model import Document
from rulepress.render import render_html
from rulepress.validate.printing import check_printing

_KNOWN = Path(__file__).parent / "games" / "teaching-order-known.txt"
_LATE = re.compile(r"^'(.+)' is used before it is defined at ")


def known_teaching_faults() -> set[tuple[str, str]]:
    """(game, term) of each teaching-order fault the bundled books still have, as listed."""
    lines = _KNOWN.read_text(encoding="utf-8").splitlines()
    return {(game, term.strip()) for line in lines if line.strip() and not line.startswith("#")
            for game, _, term in [line.partition("  ")]}


def unexpected(slug: str, diagnostics: list[Diagnostic]) -> list[str]:
    """What a bundled book's check says beyond its listed teaching-order faults; each listed
    fault must still be found, so a fixed one is taken off the list."""
    known = {term for game, term in known_teaching_faults() if game == slug}
    found = {m[1] for d in diagnostics if d.severity.value == "warning"
             and (m := _LATE.match(d.message)) and m[1] in known}
    rest = [str(d) for d in diagnostics if not (d.severity.value == "warning"
            and (m := _LATE.match(d.message)) and m[1] in known)]
    return rest + [f"{slug}: '{term}' is listed as a teaching-order fault but no longer found"
                   for term in sorted(known - found)]


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
