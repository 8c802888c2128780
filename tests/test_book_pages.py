"""Every bundled book, rendered and measured as a publisher would: the player editions within
their page budgets, no page more than 40% empty except the cover, the contents, the last page
and at most two pages that end a part the source starts on a new page ({.new-page}); in every
edition, examples kept whole (one taller than a page parts only between its figures) and no
heading left at the foot of a page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from booktext import words
from pagefill import blank_shares, outline_pages, split_examples, stranded_headings
from support import Quiet

from rulepress.build import build_rulebooks

pytestmark = pytest.mark.slow  # every bundled book rendered

ROOT = Path(__file__).resolve().parents[1]
BUDGETS = {"pigeon-race": 10, "pigeon": 12, "go-stop": 16, "worm-derby": 20}  # A4 pages
MOST_BLANK = 0.40
BREAKS_ALLOWED = 2



@pytest.fixture(scope="module")
def books(bundled_books: Path) -> Path:
    return bundled_books


EDITIONS = [(game, suffix) for game in sorted(BUDGETS) for suffix in ("", "-reference")]


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


@pytest.mark.parametrize(("game", "suffix"), EDITIONS)
def test_examples_are_kept_whole_and_headings_never_end_a_page(
    books: Path, game: str, suffix: str
) -> None:
    pdf = books / game / f"{game}{suffix}-a4.pdf"
    html = (books / game / f"{game}{suffix}.html").read_text()
    # A box taller than a page (a playtest report's plots) parts between its figures, its
    # title repeated, "continued", at the top of every page after its first.
    texts = [page.text for page in blank_shares(pdf)]
    parted = []
    for name, a, b in split_examples(pdf):
        title = words(re.search(rf'id="{name}--title">(.*?)</p>', html, re.S)[1])
        if any(f"{title} (continued)" not in " ".join(texts[n - 1].split())
               for n in range(a + 1, b + 1)):
            parted.append(f"{name} on pages {a}-{b}")
    assert not parted, f"{game}{suffix}: " + "; ".join(parted)
    headings = [words(h) for h in re.findall(r"<h[2-4]\b[^>]*>(.*?)</h[2-4]>", html, re.S)]
    stranded = stranded_headings(pdf, headings)
    assert not stranded, f"{game}{suffix}: headings at the foot of a page: {stranded}"


def test_the_measures_see_a_parted_example_and_a_stranded_heading(tmp_path: Path) -> None:
    """The two measures above, on a book built to fail them: a box taller than what is left of
    its page with keeping whole turned off, and a heading whose text is pushed to the next
    page."""
    game = tmp_path / "sources" / "lamps"
    (game / "templates").mkdir(parents=True)
    from rulepress.paths import templates_dir

    css = (templates_dir() / "print.css").read_text(encoding="utf-8")
    (game / "templates" / "print.css").write_text(
        css + "\n.example { break-inside: auto; }\nh1, h2, h3 { break-after: auto; }\n"
        "#a-stranded-heading + p { break-before: page; }\n", encoding="utf-8")
    prose = "A line of the example's prose, long enough to wrap once or twice on the page. "
    (game / "rules.md").write_text(
        "---\ntitle: Lamps\ndesigner: D. Signer\nplayers: {min: 2, max: 4}\n"
        "duration: 5 minutes\nlicence: {name: CC0, url: ''}\n"
        "provenance: [{title: Lamps, source: a test}]\n"
        "components: [{id: deck, name: Deck, count: 25}]\n---\n# Lamps\n\n"
        "## A turn\n\n" + "A paragraph of rules that fills some of the page. " * 60
        + "\n\n```example\nid: lamp\ntitle: A long lamp\nmoves: [flip]\nclaims: {}\n"
        "text: |\n" + ("  " + prose * 6 + "\n\n") * 6 + "```\n\n"
        "## A stranded heading\n\nText after it.\n", encoding="utf-8")
    out = tmp_path / "build"
    build_rulebooks(tmp_path / "sources", out, papers=("a4",), editions=("player",),
                    project=tmp_path, reporter=Quiet())
    pdf = out / "lamps" / "lamps-a4.pdf"
    assert [name for name, _, _ in split_examples(pdf)] == ["example-lamp"]
    assert [h for _, h in stranded_headings(pdf, ["A stranded heading"])] == [
        "A stranded heading"]


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
