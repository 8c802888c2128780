"""The two Pigeon Race books from one source: the player edition teaches in order, with one-line
rulings and none of the proof machinery, notation or internal names; the reference edition keeps
every example with its moves and claims, explains the notation before it uses it, and gives each
ruling the original's words."""

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

from rulepress.document.editions import PLAYER, REFERENCE
from rulepress.document.reader import read_document

pytestmark = pytest.mark.slow  # the game's books built and typeset

SOURCE = Path(__file__).parents[3] / "sources" / "pigeon-race" / "rules.md"
TEACHING_ORDER = [
    "What you need", "The aim", "Setting up", "Playing a turn", "The end of the race",
    "Scoring", "Quick reference", "Rulings", "Credits and licence",
]
NOTATION = re.compile(r"\b(?:10|[2-9JQKA])[CDHS]\b")  # 6H, 10S, QD, and so plays like 6H>6
ONE_LINE = 110  # characters a ruling may take in the player edition


@pytest.fixture(scope="module")
def books() -> dict[str, str]:
    return both_editions(read_document(SOURCE))


def test_the_player_edition_teaches_in_order(books: dict[str, str]) -> None:
    titles = chapter_titles(books[PLAYER])
    assert titles == TEACHING_ORDER


def test_the_player_edition_shows_no_proof_machinery_notation_or_internal_names(
    books: dict[str, str],
) -> None:
    text = words(books[PLAYER])
    assert NOTATION.findall(text) == []
    for machinery in ("Claims", "Moves", "Proven", "PR-", "seed", ".txt", "suite"):
        assert machinery not in text


def test_the_reference_edition_keeps_every_example_and_explains_notation_first(
    books: dict[str, str],
) -> None:
    ids = {ex.id for ex in read_document(SOURCE).boxes}  # the playtest report's box too
    shown = example_ids(books[REFERENCE])
    assert shown == ids
    player = example_ids(books[PLAYER])
    assert {"elizabeth-allotment", "six-of-hearts", "elizabeth-scores"} <= player < ids
    text = words(books[REFERENCE])
    first_use = NOTATION.search(text)
    assert first_use is not None
    assert text.index("How this edition writes cards and plays") < first_use.start()
    assert "Claims" in text and "Moves" in text


def test_rulings_are_one_line_for_players_and_quote_the_original_for_reference(
    books: dict[str, str],
) -> None:
    short, full = rulings(books[PLAYER]), rulings(books[REFERENCE])
    assert len(short) == len(full) >= 20
    for line in short:
        assert len(" ".join(words(line).split())) <= ONE_LINE, line
        assert "“" not in line and "<p>" not in line
    for ruling in full:
        assert "<em>“" in ruling or "The original is silent" in ruling, ruling


def test_the_quick_reference_gives_the_turn_in_order(books: dict[str, str]) -> None:
    quick = section(books[PLAYER], "quick-reference")
    (turn,) = re.findall(r"<ol>(.*?)</ol>", quick, flags=re.S)
    steps = [words(s).strip() for s in re.findall(r"<li>(.*?)</li>", turn, flags=re.S)]
    assert steps[0].startswith("Play one card") and steps[-1].startswith("Discard, draw")
    assert starts_a_page(books[PLAYER], "quick-reference")


def example_box(page: str, example: str) -> str:
    start = page.index(f'id="example-{example}"')
    return page[start:page.index("</aside>", start)]


@pytest.mark.parametrize("edition", [PLAYER, REFERENCE])
def test_a_scoring_example_shows_every_slip_it_scores_and_its_points(
    books: dict[str, str], edition: str,
) -> None:
    """The slips are the example's input: each player's order and the points it makes, as the
    engine scored them, printed in the box beside the board of the finished race."""
    scored = [ex for ex in read_document(SOURCE).examples
              if "orders" in ex.data.get("setup", {}) and "scores" in ex.claims]
    shown = [ex for ex in scored if f'id="example-{ex.id}"' in books[edition]]
    assert {ex.id for ex in shown} >= ({"elizabeth-scores", "tie-break"} if edition == PLAYER
                                       else {"elizabeth-scores", "tie-break", "deck-runs-out"})
    for ex in shown:
        text = re.sub(r" ([:.])", r"\1", words(example_box(books[edition], ex.id)))  # </b>:
        claims = ex.claims
        for name, order in ex.data["setup"]["orders"].items():
            points = claims["points"][name]
            assert len(points) == len(order)
            line = (f"{name} wrote {'-'.join(map(str, order))}: "
                    f"{' + '.join(map(str, points))} = {claims['scores'][name]} points.")
            assert line in text, f"{ex.id}: {line!r} not shown"
        assert "svg" in example_box(books[edition], ex.id)  # the board: the positions
