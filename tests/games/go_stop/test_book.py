"""The two Go-Stop books from one source: the player edition teaches in order, with a quick
reference that gives the turn, one-line rulings, no repeated chapter and none of the proof
machinery, notation or internal names; the reference edition keeps every example with its
moves and claims, explains the notation before it uses it, lists the deck month by month and
gives each ruling the original's words."""

from __future__ import annotations

import re
from pathlib import Path

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
from pagefill import outline_pages

from rulepress.document.editions import PLAYER, REFERENCE
from rulepress.document.reader import read_document

pytestmark = pytest.mark.slow  # the game's books built and typeset

SOURCE = Path(__file__).parents[3] / "sources" / "go-stop" / "rules.md"
DOC = read_document(SOURCE)
# The goal, the deck, the deal and a plain turn first; the rest of the kit once the turn is
# known; each special case after the plain turn it changes; the hwatu table for lookup.
TEACHING_ORDER = [
    "The game in brief", "The cards", "Setting up", "Playing a turn", "What you need",
    "The three-card column and your token", "Bonuses", "Scoring", "Going on or stopping",
    "The end of the game", "Playing with a hwatu deck", "Differences from standard Go-Stop",
    "Quick reference", "Rulings", "Credits and licence",
]
# 08A, 12C--, 01Da, 08A>08B+, shake 05, bomb 07: cards and moves as the engine reads them
NOTATION = re.compile(r"\b\d\d(?:A|B\+?|C\+|C-{0,2}|D[ab+]?)(?!\w)|\b(?:shake|bomb) \d\d\b")
TWO_LINES = 220  # characters a ruling may take in the player edition: a sentence or two


@pytest.fixture(scope="module")
def books() -> dict[str, str]:
    return both_editions(DOC)


def test_the_player_edition_teaches_in_order(books: dict[str, str]) -> None:
    titles = chapter_titles(books[PLAYER])
    assert titles == TEACHING_ORDER


def test_a_first_time_player_meets_the_first_move_by_page_3(bundled_books: Path) -> None:
    """Cover, contents, then one page to the goal, the deck, the deal and the plain turn."""
    pages = outline_pages(bundled_books / "go-stop" / "go-stop-a4.pdf")
    assert pages["The game in brief"] == pages["The cards"] == pages["Playing a turn"] == 3
    assert pages["What you need"] > pages["Playing a turn"]


def test_the_player_edition_shows_no_proof_machinery_notation_or_internal_names(
    books: dict[str, str],
) -> None:
    text = words(books[PLAYER])
    assert NOTATION.findall(text) == []
    for machinery in ("Claims", "Moves", "Proven", "Clarifications", "seed", "004_", ".txt",
                      "quotes of the original"):
        assert machinery not in text, machinery
    assert "“" not in words(section(books[PLAYER], "rulings"))


def test_no_chapter_is_printed_twice(books: dict[str, str]) -> None:
    page = books[PLAYER]
    notice = " ".join(DOC.meta.licence.notice.split())
    assert words(page).count(notice) == 1
    headings = re.findall(r"<h[1-6][^>]*>([^<]*)</h[1-6]>", page)
    assert [h for h in headings if "Credits" in h] == ["Credits and licence"]  # the colophon's
    needs = section(page, "what-you-need")
    assert "components-table" in needs and "<ul>" not in needs  # the table, not a list again


def test_the_reference_edition_keeps_every_example_and_explains_notation_first(
    books: dict[str, str],
) -> None:
    every = {ex.id for ex in DOC.examples}
    reports = {r.id for r in DOC.reports}  # the playtest report's blocks: the reference's only
    assert reports and example_ids(books[REFERENCE]) == every | reports
    player = example_ids(books[PLAYER])
    assert {"pair-turn", "column-formed", "bomb", "whole-storage", "go", "stop"} <= player < every
    text = words(books[REFERENCE])
    first_use = NOTATION.search(text)
    assert first_use is not None
    assert text.index("How the examples are written") < first_use.start()
    assert "Claims" in text and "Moves" in text


def test_the_reference_edition_lists_the_deck_month_by_month(books: dict[str, str]) -> None:
    cards = section(books[REFERENCE], "playing-with-a-hwatu-deck")
    assert len(re.findall(r"<tr>", cards)) == 1 + 12 and "Why this table?" in words(cards)
    # players need it too, to play with a real hwatu deck; only the reasons are the reference's
    player = section(books[PLAYER], "playing-with-a-hwatu-deck")
    assert len(re.findall(r"<tr>", player)) == 1 + 12 and "Why this table?" not in words(player)


def test_rulings_are_short_full_sentences_for_players_and_quote_the_original_for_reference(
    books: dict[str, str],
) -> None:
    short, full = rulings(books[PLAYER]), rulings(books[REFERENCE])
    assert len(short) == len(full) >= 30
    for line in short:
        assert len(words(line)) <= TWO_LINES, line
        assert words(line).rstrip().endswith("."), line  # a sentence, not a note
        assert "<p>" not in line
    for ruling in full:
        assert "<em>“" in ruling or "The post is silent" in ruling, ruling


def test_the_quick_reference_gives_the_turn_in_order_on_a_page_of_its_own(
    books: dict[str, str],
) -> None:
    quick = section(books[PLAYER], "quick-reference")
    (turn,) = re.findall(r"<ol>(.*?)</ol>", quick, flags=re.S)
    steps = [words(s) for s in re.findall(r"<li>(.*?)</li>", turn, flags=re.S)]
    leads = ["You may shake", "Play a card", "Draw the top stock card", "Take every column",
             "Collect junk", "Count your points"]
    assert [s[:len(lead)] for s, lead in zip(steps, leads, strict=True)] == leads
    assert starts_a_page(books[PLAYER], "quick-reference")
