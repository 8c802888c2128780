"""Pigeon's player edition, read as a player reads it: no move notation anywhere, every figure
named in words, and no example box cut between its title and its figure on either paper."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from booktext import both_editions, words
from pagefill import blank_shares
from support import Quiet

from rulepress.build import build_rulebooks
from rulepress.document.editions import REFERENCE
from rulepress.document.reader import read_document
from rulepress.games.pigeon import ENGINE
from rulepress.plugin import figures_of

pytestmark = pytest.mark.slow  # the game's books built and typeset

ROOT = Path(__file__).resolve().parents[3]
DOC = read_document(ROOT / "sources" / "pigeon" / "rules.md")
PLAYER_EXAMPLES = [ex for ex in DOC.examples if ex.edition != "reference"]
NOTATION = re.compile(r"\b(10|[2-9AJQK])[CDHS]\b|>|\bforce [0-9AJQK]|\bsweep [AK]")



@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pigeon")
    build_rulebooks(ROOT / "sources", out, games=["pigeon"], papers=("a4", "letter"),
                    editions=("player",), project=ROOT, reporter=Quiet())
    return out / "pigeon"


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_the_player_edition_prints_no_move_notation(book: Path) -> None:
    text = words((book / "pigeon.html").read_text())
    assert "Three sixes at once" in text  # the examples are there, in words
    found = [text[max(0, m.start() - 30):m.end() + 30] for m in NOTATION.finditer(text)]
    assert not found


def test_the_reference_edition_keeps_the_notation_in_an_appendix_and_explains_it() -> None:
    """The notation is explained just before the appendix that holds it, and nowhere used
    before."""
    page = both_editions(read_document(ROOT / "sources" / "pigeon" / "rules.md"))[REFERENCE]
    explained = page.index('id="how-the-examples-are-written"')
    appendix = page.index('id="rp-notation"')
    assert explained < appendix
    assert "<code>8H 9H &gt; A</code>" in page[explained:appendix]
    assert not NOTATION.search(words(page[page.index("<main"):explained]))
    assert NOTATION.search(words(page[appendix:]))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_example_box_is_cut_between_its_title_and_its_figure(book: Path, paper: str) -> None:
    pages = [squeezed(p.text) for p in blank_shares(book / f"pigeon-{paper}.pdf")]
    cut = []
    for ex in PLAYER_EXAMPLES:
        (figure,) = figures_of(ENGINE, ex.data)
        title = [n for n, text in enumerate(pages) if squeezed(ex.title) in text]
        assert title, ex.id
        # Looked for from the title's page on: two examples may open their captions alike.
        caption = [n for n in range(title[0], len(pages))
                   if squeezed(figure.caption)[:60] in pages[n]]
        assert caption, ex.id
        if caption[0] != title[0]:
            cut.append(f"{ex.id}: title on page {title[0] + 1}, figure on {caption[0] + 1}")
    assert not cut
