"""The player editions are books a player would print: within their page budgets, and no page
more than 40% empty except the cover, the contents, the last page and at most two pages that end
a part the source starts on a new page ({.new-page})."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pagefill import blank_shares, outline_pages
from support import Quiet

from rulepress.build import build_rulebooks

ROOT = Path(__file__).resolve().parents[1]
BUDGETS = {"pigeon-race": 10, "pigeon": 12, "go-stop": 16, "worm-derby": 20}  # A4 pages
MOST_BLANK = 0.40
BREAKS_ALLOWED = 2



@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("books")
    build_rulebooks(ROOT / "sources", out, papers=("a4",), editions=("player",), project=ROOT,
                    reporter=Quiet())
    return out


def new_page_titles(html: str) -> list[str]:
    return re.findall(r'<h\d [^>]*class="[^"]*\bnew-page\b[^"]*"[^>]*>(.*?)</h\d>', html)


def exempt(pdf: Path, html: str, count: int) -> tuple[set[int], set[int]]:
    """(the cover, the contents and the last page; the pages that end a part before a section
    the source starts on a new page)."""
    marks = outline_pages(pdf)
    contents = marks.get("Contents", 2)
    first_body = min(n for n in marks.values() if n > contents)
    always = {1, count, *range(contents, first_body)}
    before_breaks = {marks[title] - 1 for title in new_page_titles(html) if title in marks}
    return always, before_breaks - always


@pytest.mark.parametrize("game", sorted(BUDGETS))
def test_the_player_edition_keeps_its_page_budget_and_fills_its_pages(
    books: Path, game: str
) -> None:
    pdf = books / game / f"{game}-a4.pdf"
    html = (books / game / f"{game}.html").read_text()
    pages = blank_shares(pdf)
    assert len(pages) <= BUDGETS[game], f"{game}: {len(pages)} pages, budget {BUDGETS[game]}"
    always, before_breaks = exempt(pdf, html, len(pages))
    empty = [p for p in pages if p.number not in always and p.blank > MOST_BLANK]
    excused = [p for p in empty if p.number in before_breaks][:BREAKS_ALLOWED]
    left = [f"page {p.number}: {p.blank:.0%} blank" for p in empty if p not in excused]
    assert not left, f"{game}: " + "; ".join(left)


def test_examples_without_figures_stay_on_the_page_of_the_text_before_them(
    tmp_path: Path,
) -> None:
    """An example's prose keeps its figures, not the next example: boxes of prose alone, then
    a chapter, once all moved to the next page together and left half a page empty."""
    game = tmp_path / "sources" / "lamps"
    game.mkdir(parents=True)
    examples = "".join(
        f"```example\nid: lamp-{n}\ntitle: Lamp example {n}\nmoves: [flip]\nclaims: {{}}\n"
        f"text: |\n  A short example box of prose and nothing else.\n```\n\n"
        for n in ("one", "two", "three"))
    (game / "rules.md").write_text(
        "---\ntitle: Lamps\ndesigner: D. Signer\nplayers: {min: 2, max: 4}\n"
        "duration: 5 minutes\nlicence: {name: CC0, url: ''}\n"
        "provenance: [{title: Lamps, source: a test}]\n"
        "components: [{id: deck, name: Deck, count: 25}]\n---\n# Lamps\n\n"
        "## A turn\n\n" + "A paragraph of rules that fills some of the page. " * 45
        + "\n\nThe last line before the examples.\n\n" + examples
        + "## The end\n\nThe first to twenty wins.\n\n## Quick reference\n\n"
        + "**Your turn.** Flip a card.\n", encoding="utf-8")
    out = tmp_path / "build"
    build_rulebooks(tmp_path / "sources", out, papers=("a4",), editions=("player",),
                    project=tmp_path, reporter=Quiet())
    pages = blank_shares(out / "lamps" / "lamps-a4.pdf")
    before = next(p.number for p in pages if "The last line before the examples." in p.text)
    first = next(p.number for p in pages if "Lamp example one" in p.text)
    assert first == before, f"the first example moved to page {first}, its text is on {before}"
