"""The two Worm Derby books from one source. The player edition teaches in order, keeps the
variants, explains the cell names before it uses them, prints no move notation, claims or internal
names, states each ruling in one line and carries the licence once; no example box is cut between
its title and its figure, on either paper. The reference edition keeps every example with its
moves and claims, explains the notation before it uses it and quotes the original in each
ruling."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from booktext import (
    both_editions,
    chapter_titles,
    example_ids,
    rulings,
    section,
    starts_a_page,
    words,
)

from rulepress.document.editions import PLAYER, REFERENCE
from rulepress.document.reader import read_document

pytestmark = pytest.mark.slow  # the game's books built and typeset

ROOT = Path(__file__).resolve().parents[3]
SOURCE = ROOT / "sources" / "worm-derby" / "rules.md"
DOC = read_document(SOURCE)
# A first turn comes before the geometry of the course: the pieces, the aim, a turn with its
# example, then the components table (rulepress puts it before the set-up) and the set-up.
TEACHING_ORDER = [
    "The pieces", "The aim", "Your turn", "Components", "Setting up", "The end of the race",
    "Variants", "Quick reference", "Rulings", "History", "Credits and licence",
]
FIRST_MOVE, FIRST_MOVE_PAGE = "three-steps", 3  # the first worked turn, by page 3 of the PDF
# Moves as the engine writes them: f10-f11-f12, f10xf11, f11>d11, +j11, place k20, build l8.
NOTATION = re.compile(r"\b[a-z]\d+(?:[-x>][a-z]\d+)+|\+[a-z]\d+\b|\b(?:place|build) [a-z]\d+\b")
CELL = re.compile(r"\b[a-z]\d{1,2}\b")
TWO_LINES = 220  # characters a ruling may take in the player edition: a sentence or two
AXIS = re.compile(r"1\d{9,}")  # a figure's row numbers, read as one line of digits



@pytest.fixture(scope="module")
def books() -> dict[str, str]:
    return both_editions(DOC)


def body(page: str) -> str:
    """The book without its cover and contents."""
    return page[page.index("<main"):]


def test_the_player_edition_teaches_in_order_and_keeps_the_variants(
    books: dict[str, str],
) -> None:
    titles = chapter_titles(books[PLAYER])
    assert titles == TEACHING_ORDER
    variants = re.findall(r'<h3 [^>]*>([^<]*)</h3>', section(books[PLAYER], "variants"))
    assert variants == ["Fewer obstacles", "Slalom", "Cannibal worms"]


def test_the_player_edition_shows_no_proof_machinery_notation_or_internal_names(
    books: dict[str, str],
) -> None:
    text = words(body(books[PLAYER]))
    assert NOTATION.findall(text) == []
    for machinery in ("Claims", "Moves", "Proven", "seed", ".txt", "001_", "Clarifications",
                      "How the examples are written"):
        assert machinery not in text
    first_cell = CELL.search(text)
    assert first_cell is not None
    assert text[first_cell.start():].startswith(
        "e7 is the cell level with letter e, under number 7")


def test_the_reference_edition_keeps_every_example_and_explains_notation_first(
    books: dict[str, str],
) -> None:
    shown = example_ids(books[REFERENCE])
    assert shown == {ex.id for ex in DOC.examples}
    player = example_ids(books[PLAYER])
    assert player == {ex.id for ex in DOC.examples if ex.edition != REFERENCE}
    assert {"three-steps", "ace", "round-the-pylon", "win", "course-slalom", "bite"} <= player
    text = words(body(books[REFERENCE]))
    first_move = NOTATION.search(text)
    assert first_move is not None
    assert text.index("How the examples are written") < first_move.start()
    assert "Claims" in text and "Moves" in text and "Playing on a real table" in text


def test_rulings_are_short_full_sentences_for_players_and_quote_the_original_for_reference(
    books: dict[str, str],
) -> None:
    short, full = rulings(books[PLAYER]), rulings(books[REFERENCE])
    assert len(short) == len(full) >= 29
    for line in short:
        assert len(" ".join(re.sub(r"<[^>]+>", " ", line).split())) <= TWO_LINES, line
        assert words(line).rstrip().endswith("."), line  # a sentence, not a note
        assert "“" not in line and "<p>" not in line
    for ruling in full:
        assert "<em>“" in ruling or "The original does not" in ruling, ruling


def test_the_quick_reference_gives_the_turn_in_order_on_its_own_page(
    books: dict[str, str],
) -> None:
    quick = section(books[PLAYER], "quick-reference")
    setup, turn = re.findall(r"<ol>(.*?)</ol>", quick, flags=re.S)
    steps = [" ".join(re.sub(r"<[^>]+>", " ", s).split())
             for s in re.findall(r"<li>(.*?)</li>", turn, flags=re.S)]
    assert steps[0] == "Roll your die." and steps[-1].startswith("Ace:")
    assert starts_a_page(books[PLAYER], "quick-reference")
    assert all(len(s) <= 100 for s in steps)


@pytest.mark.parametrize("edition", [PLAYER, REFERENCE])
def test_each_edition_carries_the_licence_once_and_the_history(
    books: dict[str, str], edition: str,
) -> None:
    page = books[edition]
    assert page.count("Modifications copyright 2026") == 1  # the notice, in the credits
    assert page.count("the full text</h3>") == 1
    assert "Version 1.3, 3 November 2008" in page
    history = words(section(page, "history") + "<h2")
    assert "Worm Derby ver. 2.0" in history and "Mark A. Biggar" in history
    assert "this modified version" in history
    body_titles = re.findall(r'<h[23] [^>]*>([^<]*)</h[23]>', page[page.index("<main"):
                                                                   page.index("</main>")])
    assert not {"Licence", "Credits", "Clarifications"} & set(body_titles)


def _lines(page: pdfium.PdfPage) -> list[tuple[float, str]]:
    """The page's lines of text, top first, each as (height, characters without spaces)."""
    text = page.get_textpage()
    rows: dict[int, list[tuple[float, str]]] = {}
    for i in range(text.count_chars()):
        ch = text.get_text_range(i, 1)
        if ch.strip():
            left, bottom, _, _ = text.get_charbox(i, loose=True)
            rows.setdefault(round(bottom), []).append((left, ch))
    return [(y, "".join(c for _, c in sorted(row)))
            for y, row in sorted(rows.items(), reverse=True)]


def _plain(text: str) -> str:
    """Without spaces, and without t and i, which the PDF's 'ti' ligature gives back swapped."""
    return re.sub(r"[\sti]", "", text)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_example_box_is_cut_and_the_first_move_is_by_page_3(
    bundled_books: Path, paper: str,
) -> None:
    pdf = pdfium.PdfDocument(str(bundled_books / "worm-derby" / f"worm-derby-{paper}.pdf"))
    titles = {_plain(ex.title): ex.id for ex in DOC.examples if ex.edition != REFERENCE}
    marks: list[tuple[int, str]] = []  # (page, example id or "figure"), in reading order
    for n in range(len(pdf)):
        for _, line in _lines(pdf[n]):
            marks += [(n, ex) for title, ex in titles.items() if title in _plain(line)]
            if AXIS.fullmatch(line):
                marks.append((n, "figure"))
    found = [ex for _, ex in marks if ex != "figure"]
    assert sorted(found) == sorted(titles.values())
    cut = [f"{ex} on page {n + 1}" for (n, ex), (m, nxt) in zip(marks, marks[1:], strict=False)
           if ex != "figure" and (nxt != "figure" or m != n)]
    assert not cut
    first = min(n for n, ex in marks if ex == FIRST_MOVE) + 1
    assert first <= FIRST_MOVE_PAGE, f"the first move is on page {first}"
