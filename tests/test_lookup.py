"""The reference edition is a book to look things up in: terms marked where they are defined,
numbered rulings cited by reference, a glossary and an index whose page numbers the typesetter
computes, and the engine notation in an appendix. Read back from the pages and PDFs."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from booktext import unexpected
from pypdf import PdfReader

from rulepress.diagnostics import RulepressError
from rulepress.document.editions import PLAYER, REFERENCE
from rulepress.document.model import Document
from rulepress.document.reader import read_document, read_sources
from rulepress.render import render_html
from rulepress.validate.printing import check_printing

pytestmark = pytest.mark.slow  # reference editions built and typeset

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("go-stop", "pigeon", "pigeon-race", "worm-derby")

FRONT = """---
title: Tiny
designer: Someone
players: {min: 2, max: 2}
duration: 5 minutes
licence: {name: CC0, url: "https://creativecommons.org/publicdomain/zero/1.0/"}
provenance: [{title: Written for the tests, source: tests/test_lookup.py}]
components: [{id: card, name: Card, count: 8}]
---

# Tiny

## Play

The :dfn[row] is where you lay a card. A :dfn[column] is two cards of a number; Rows grow,
a column never shrinks. See [](#ruling-card-values) and [](#rulings).

## Rulings

- **Card values.** Aces are high.
- **The row.** It never wraps ([](#ruling-card-values)).
- Cards in a column stay there for good.
"""


def line(needle: str, text: str = FRONT) -> int:
    return next(n for n, each in enumerate(text.split("\n"), 1) if needle in each)


def tiny(tmp_path: Path, text: str = FRONT) -> Document:
    folder = tmp_path / "tiny"
    folder.mkdir(exist_ok=True)
    (folder / "rules.md").write_text(text, encoding="utf-8")
    return read_document(folder / "rules.md")


def page(doc: Document, edition: str = REFERENCE) -> str:
    checked = check_printing([doc]).documents[0]
    assert not checked.diagnostics
    return render_html(doc, checked.examples, edition=edition)


def test_terms_and_rulings_are_read_with_their_anchors_and_lines(tmp_path: Path) -> None:
    doc = tiny(tmp_path)
    at = line(":dfn[row]")
    assert [(t.text, t.anchor, t.loc.line) for t in doc.terms] == [
        ("row", "term-row", at), ("column", "term-column", at)]
    assert doc.terms[1].definition == (
        "A column is two cards of a number; Rows grow, a column never shrinks.")
    assert [(r.number, r.title, r.anchor) for r in doc.rulings] == [
        (1, "Card values", "ruling-card-values"), (2, "The row", "ruling-the-row"),
        (3, "Cards in a column stay there for good",
         "ruling-cards-in-a-column-stay-there-for-good")]


def test_a_ruling_is_cited_by_reference_and_numbered_in_place(tmp_path: Path) -> None:
    html = page(tiny(tmp_path))
    # the citation names what it cites, in the HTML's link text too
    assert '<a href="#ruling-card-values" class="xref">Ruling 1, Card values</a>' in html
    assert '<a href="#rulings" class="xref">Rulings</a>' in html
    # a bulleted Rulings list is numbered, each item anchored
    assert re.search(r'<ol>\s*<li id="ruling-card-values" class="ruling" value="1">', html)
    assert '<li id="ruling-cards-in-a-column-stay-there-for-good" class="ruling" value="3">' in html


def test_a_term_is_anchored_where_defined_and_every_later_mention_links_to_it(
    tmp_path: Path,
) -> None:
    html = page(tiny(tmp_path), PLAYER)
    assert '<dfn class="term" id="term-row">row</dfn>' in html
    assert '<a href="#term-row" class="term-link">Rows</a> grow' in html
    assert 'a <a href="#term-column" class="term-link">column</a> never shrinks' in html
    # the ruling "The row." mentions the term too; a heading never links
    assert '<a href="#term-row" class="term-link">row</a>' in html.split('id="rulings"')[1]
    assert '<h2 id="play"' in html and ">Play</h2>" in html
    # the player edition has a short glossary, and no index nor notation appendix
    assert 'id="rp-glossary"' in html and 'id="rp-index"' not in html
    assert 'id="rp-notation"' not in html


def test_the_reference_edition_lists_glossary_and_index(tmp_path: Path) -> None:
    html = page(tiny(tmp_path))
    glossary = html.split('id="rp-glossary"')[1].split("</section>")[0]
    assert re.findall(r'<dt><a class="page-ref" href="#([^"]+)">', glossary) == [
        "term-column", "term-row"]
    index = html.split('id="rp-index"')[1].split("</section>")[0]
    assert re.findall(r'href="#([^"]+)">([^<]+)', index) == [
        ("ruling-card-values", "Card values "), ("ruling-cards-in-a-column-stay-there-for-good",
                                                 "Cards in a column stay there for good "),
        ("term-column", "column"), ("term-row", "row"), ("ruling-the-row", "Row ")]


def test_a_ruling_number_typed_by_hand_is_an_error_at_its_line(tmp_path: Path) -> None:
    text = FRONT.replace("See [](#ruling-card-values)", "See ruling 1")
    with pytest.raises(RulepressError) as caught:
        tiny(tmp_path, text)
    (found,) = caught.value.diagnostics
    assert (found.loc.line if found.loc else 0) == line("See ruling 1", text)
    assert "'ruling 1' is a ruling number typed by hand: cite it as [](#ruling-card-values)" \
        in found.message


def test_a_term_defined_twice_is_an_error_at_the_second(tmp_path: Path) -> None:
    text = FRONT.replace("- **The row.** It never wraps", "- **The row.** A :dfn[Row] never wraps")
    with pytest.raises(RulepressError) as caught:
        tiny(tmp_path, text)
    (found,) = caught.value.diagnostics
    assert (found.loc.line if found.loc else 0) == line(":dfn[Row]", text)
    assert f"the term 'Row' is defined twice (first at rules.md:{line(':dfn[row]')})" \
        in found.message


@pytest.fixture(scope="module")
def references(bundled_books: Path) -> Path:
    """The reference editions, as a build of both editions makes them (the same bytes as a
    build of the reference alone)."""
    return bundled_books


def _flat(text: str) -> str:
    return " ".join(text.split()).casefold()


def _starting(pdf: Path, title: str) -> int:
    """The page (0-based) the chapter ``title`` starts on, by the PDF's bookmarks: the
    glossary and the index follow on from what comes before them, mid-page."""
    from pagefill import outline_pages

    return outline_pages(pdf)[title] - 1


@pytest.mark.parametrize("game", GAMES)
def test_every_index_and_glossary_entry_names_a_page_that_holds_it(
    references: Path, game: str,
) -> None:
    (doc,) = read_sources(ROOT / "sources", [game])
    html = (references / game / f"{game}-reference.html").read_text(encoding="utf-8")
    pdf = references / game / f"{game}-reference-a4.pdf"
    pages = [_flat(p.extract_text()) for p in PdfReader(pdf).pages]
    glossary = re.findall(r'<dt><a class="page-ref" href="#[^"]+">([^<]+)</a>',
                          html.split('id="rp-glossary"')[1].split("</section>")[0])
    found = re.findall(r'<li><a class="page-ref" href="#([^"]+)">([^<]+?)\s?(?:<span '
                       r'class="index-note">\(([^<]*)\)</span>)?</a>',
                       html.split('id="rp-index"')[1].split("</section>")[0])
    listed_index = [(a, unescape(t), unescape(n)) for a, t, n in found]
    index = [text for _, text, _ in listed_index]
    assert len(glossary) == len(doc.terms) >= 5
    # every term, the words players use for it, every ruling, every table row heading
    also = sum(len(t.also) for t in doc.terms)
    rows = [text for anchor, text, _ in listed_index if anchor.startswith("row-")]
    assert len(index) == len(doc.terms) + also + len(doc.rulings) + len(rows)
    assert also >= 1
    start = _starting(pdf, "Glossary")
    back = " ".join(pages[start:])
    cited: list[tuple[str, int]] = []
    for term in glossary:
        m = re.search(re.escape(_flat(term)) + r" \(p\. (\d+)\)", back)
        assert m, f"{game}: glossary entry '{term}' has no page"
        cited.append((term, int(m[1])))
    listed, pos = " ".join(pages[_starting(pdf, "Index"):]), 0
    for anchor, entry, note in listed_index:
        pattern = r"\s?".join(re.escape(w) for w in _flat(entry).split())
        m = re.search(pattern + r"(?: \([^()]+\))? ?[.\s]*(\d+)", listed[pos:])
        assert m, f"{game}: index entry '{entry}' has no page"
        pos += m.end()
        # a word players use ("hand size (hand)") is found on the page of the term it names
        said = note if anchor.startswith("term-") and note else entry
        cited.append((said, int(m[1])))
    for entry, number in cited:
        assert number - 1 < start, f"{game}: '{entry}' cites page {number}, in the back matter"
        assert _flat(entry) in pages[number - 1], f"{game}: '{entry}' is not on page {number}"


def test_a_ruling_cited_in_the_text_is_on_the_page_the_citation_names(references: Path) -> None:
    (doc,) = read_sources(ROOT / "sources", ["go-stop"])
    pages = [_flat(p.extract_text()) for p in
             PdfReader(references / "go-stop" / "go-stop-reference-a4.pdf").pages]
    titles = {r.number: _flat(r.title) for r in doc.rulings}
    found = [(int(n), said, int(p)) for text in pages
             for n, said, p in re.findall(r"ruling (\d+), ([^()]+?) \(p\. (\d+)\)", text)]
    assert len(found) >= 5
    for number, said, at in found:  # "Ruling 17, A bomb (p. 12)": its own title, its page
        assert said == titles[number], f"Ruling {number} is cited as '{said}'"
        assert titles[number] in pages[at - 1], f"Ruling {number} is not on page {at}"


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_notation_is_in_the_appendix_not_in_the_boxes(
    references: Path, game: str,
) -> None:
    html = (references / game / f"{game}-reference.html").read_text(encoding="utf-8")
    body, appendix = html.split('id="rp-notation"')
    assert 'class="claims"' not in body and 'class="moves"' not in body.split("<main")[1]
    assert appendix.count('class="notation-entry"') == body.count("Its moves and claims") >= 10


GLOSSARY = FRONT.replace("## Rulings", """## Scoring

Six things earn a :dfn[bonus].

Each lane starts at a :dfn[gate], beside the :dfn[post].

A :dfn[bomb]{def="A bomb is three cards of a number played at once." also="three at once;
bombs played"} wins. two disks :dfn[touch] when their squares share a side;

- a :dfn[cell] is 1 inch square;

| Hand | Points |
| --- | --- |
| Three of a kind | 3 |
| “A quote” | 1 |

## Rulings""")


def test_a_glossary_entry_that_would_not_define_is_a_warning_at_its_line(
    tmp_path: Path,
) -> None:
    doc = tiny(tmp_path, GLOSSARY)
    checked = check_printing([doc]).documents[0]
    said = {(d.loc.line if d.loc else 0, d.message.split(":")[0]) for d in checked.diagnostics}
    assert {d.severity.value for d in checked.diagnostics} == {"warning"}
    assert said == {
        (line(":dfn[bonus]", GLOSSARY), "the sentence around 'bonus' does not say what it is"),
        (line(":dfn[gate]", GLOSSARY), "the sentence around 'gate' does not say what it is"),
        (line(":dfn[post]", GLOSSARY), "the glossary would define 'post' by the sentence that "
                                       "defines 'gate' (rules.md"),
        (line(":dfn[touch]", GLOSSARY), "the glossary would print a fragment for 'touch'"),
        (line(":dfn[cell]", GLOSSARY), "the glossary would print a fragment for 'cell'"),
    }
    assert all('give the definition as a whole sentence: :dfn[' in d.message
               for d in checked.diagnostics)


def test_an_author_s_definition_and_lookup_words_go_to_glossary_and_index(
    tmp_path: Path,
) -> None:
    doc = tiny(tmp_path, GLOSSARY)
    bomb = next(t for t in doc.terms if t.text == "bomb")
    assert (bomb.definition, bomb.given, bomb.also) == (
        "A bomb is three cards of a number played at once.", True,
        ("three at once", "bombs played"))
    # the attribute runs over a line: the terms after it keep their lines
    assert next(t for t in doc.terms if t.text == "touch").loc.line == line(":dfn[touch]",
                                                                             GLOSSARY)
    checked = check_printing([doc]).documents[0]
    html = render_html(doc, checked.examples, edition=REFERENCE)
    assert "{def=" not in html and "also=" not in html
    glossary = html.split('id="rp-glossary"')[1].split("</section>")[0]
    assert ('<dt><a class="page-ref" href="#term-bomb">bomb</a></dt>\n'
            "    <dd>A bomb is three cards of a number played at once.</dd>") in glossary
    index = html.split('id="rp-index"')[1].split("</section>")[0]
    entries = re.findall(r'href="#([^"]+)">([^<]+?) ?(?:<span class="index-note">\(([^<]*)\)'
                         r"</span>)?</a>", index)
    assert ("term-bomb", "three at once", "bomb") in entries
    assert ("term-bomb", "bombs played", "bomb") in entries
    # a table row heading is indexed at its row; a quotation is not a name to look up
    assert ("row-three-of-a-kind", "Three of a kind", "") in entries
    assert '<tr id="row-three-of-a-kind">' in html
    assert not [e for e in entries if "quote" in e[1]]


def test_a_term_s_sort_key_places_it_in_the_index_and_glossary(tmp_path: Path) -> None:
    """:dfn[column]{sort="zz"}: the index and the glossary list it last, under its own words;
    an empty key is an error at its line."""
    html = page(tiny(tmp_path, FRONT.replace(":dfn[column]", ':dfn[column]{sort="zz"}')))
    assert "sort=" not in html
    index = html.split('id="rp-index"')[1].split("</section>")[0]
    assert re.findall(r'href="#([^"]+)"', index) == [
        "ruling-card-values", "ruling-cards-in-a-column-stay-there-for-good", "term-row",
        "ruling-the-row", "term-column"]  # without it: column between the card rulings and row
    glossary = html.split('id="rp-glossary"')[1].split("</section>")[0]
    assert re.findall(r'href="#(term-[^"]+)"', glossary) == ["term-row", "term-column"]
    plain = page(tiny(tmp_path))  # without it: column before row
    glossary = plain.split('id="rp-glossary"')[1].split("</section>")[0]
    assert re.findall(r'href="#(term-[^"]+)"', glossary) == ["term-column", "term-row"]
    with pytest.raises(RulepressError) as caught:
        tiny(tmp_path, FRONT.replace(":dfn[column]", ':dfn[column]{sort=" "}'))
    (found,) = caught.value.diagnostics
    assert (found.loc.line if found.loc else 0) == line(":dfn[column]")
    assert "sort=\"...\" (the words the index sorts it by), not an empty sort" in found.message


def test_a_term_takes_only_def_and_also(tmp_path: Path) -> None:
    text = FRONT.replace(":dfn[column]", ':dfn[column]{see="row"}')
    with pytest.raises(RulepressError) as caught:
        tiny(tmp_path, text)
    (found,) = caught.value.diagnostics
    assert (found.loc.line if found.loc else 0) == line(":dfn[column]")
    assert "the term 'column' takes def=" in found.message and "not 'see='" in found.message


LOOKUPS = {  # how players ask, as the index must answer
    "pigeon-race": ["hand size"],
    "worm-derby": ["null roll"],
    "pigeon": ["how you win", "giving up the Pigeon", "opponent's turn, giving up the Pigeon in"],
    "go-stop": ["four brights", "Brights (A)"],
}


@pytest.mark.parametrize("game", GAMES)
def test_the_lookups_players_ask_are_in_the_index(game: str) -> None:
    (doc,) = read_sources(ROOT / "sources", [game])
    checked = check_printing([doc]).documents[0]
    # The glossary and the teaching order warn of nothing in the bundled books.
    assert not unexpected(game, list(checked.diagnostics))
    html = render_html(doc, checked.examples, edition=REFERENCE)
    index = html.split('id="rp-index"')[1].split("</section>")[0]
    listed = [unescape(t) for t in re.findall(r'href="#[^"]+">([^<]+?) ?(?:<span|</a>)', index)]
    for asked in LOOKUPS[game]:
        assert asked in listed, f"{game}: '{asked}' is not in the index"
