"""Planning renders nothing: the books', the translated books' and the errata sheet's units
are listed (names, keys, files) without a page rendered or the old printing checked; each page
is rendered once, when the first unit that needs it is made (a PDF's as it goes to the pool),
and a pooled make pickles with the page, not with what renders it. Minnows
(tests/fixtures/french), English and French."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rulepress import books, errata
from rulepress.books import BookOptions, Books
from rulepress.document.editions import EDITIONS
from rulepress.document.reader import read_sources
from rulepress.errata import Errata, ErrataOptions
from rulepress.errata.revisions import WORKING, Side
from rulepress.i18n import books as i18n_books
from rulepress.i18n.books import TranslatedBooks, TranslationOptions
from rulepress.validate.check import DocumentCheck
from rulepress.validate.printing import check_printing

SOURCES = Path(__file__).parent / "fixtures" / "french" / "sources"
GAME = "minnows"


@pytest.fixture(scope="module")
def game() -> DocumentCheck:
    return check_printing(read_sources(SOURCES, [GAME]), draw=True).documents[0]


def refused(what: str) -> Callable[..., Any]:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"{what} while planning")

    return refuse


def counted(real: Callable[..., str], calls: list[str]) -> Callable[..., str]:
    def count(*args: Any, **kwargs: Any) -> str:
        calls.append(kwargs.get("edition", ""))
        return real(*args, **kwargs)

    return count


def test_the_books_are_planned_unrendered_and_each_page_rendered_once(
        game: DocumentCheck, monkeypatch: pytest.MonkeyPatch) -> None:
    real = books.render_html
    monkeypatch.setattr(books, "render_html", refused("a book's page rendered"))
    units = Books(BookOptions(("a4",), EDITIONS, False, False, "0"), title="t").units(game, "k")
    assert [(u.name, u.pooled) for u in units] == [
        ("minnows/minnows.html", False), ("minnows/minnows-reference.html", False),
        ("minnows a4", True), ("minnows reference a4", True)]
    calls: list[str] = []
    monkeypatch.setattr(books, "render_html", counted(real, calls))
    made = units[1].make()
    assert not isinstance(made, list) and calls == ["reference"]
    page = made["minnows/minnows-reference.html"]
    assert isinstance(page, str) and "<html" in page
    # The reference PDF's job, as it goes to the pool: the page rendered already, its weight
    # the page's length for each of its files and the typesetting.
    assert units[3].ready is not None and units[3].ready() == len(page) * 2
    assert calls == ["reference"]
    monkeypatch.setattr(books, "render_html", refused("a page rendered again"))
    job = pickle.loads(pickle.dumps(units[3].make)).args[0]
    assert job.html == page
    # The player's page: rendered when its unit is made, once for its HTML and its PDF.
    monkeypatch.setattr(books, "render_html", counted(real, calls))
    assert units[2].ready is not None and units[2].ready() > 0
    units[0].make()
    assert calls == ["reference", "player"]


def test_the_translated_books_are_planned_unrendered(
        game: DocumentCheck, monkeypatch: pytest.MonkeyPatch) -> None:
    generator = TranslatedBooks(TranslationOptions(("fr",), papers=("a4",)))
    assert [d for d in generator.check(game) if d.severity.name == "ERROR"] == []
    real = i18n_books.render_html
    monkeypatch.setattr(i18n_books, "render_html", refused("a translated page rendered"))
    units = generator.units(game, "k")
    assert [u.name for u in units if not u.pooled] == [
        "minnows/fr/minnows.html", "minnows/fr/minnows-reference.html"]
    calls: list[str] = []
    monkeypatch.setattr(i18n_books, "render_html", counted(real, calls))
    made = units[0].make()
    assert not isinstance(made, list) and '<html lang="fr"' in str(made["minnows/fr/minnows.html"])
    assert calls == ["player"]


def test_the_errata_sheet_is_planned_without_checking_the_old_printing(
        game: DocumentCheck, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    render_page = errata.render_page
    monkeypatch.setattr(errata, "check_old", refused("the old printing checked"))
    monkeypatch.setattr(errata, "render_page", refused("the errata sheet rendered"))
    old = Side("v1.0", SOURCES, SOURCES.parent)
    sheet = Errata(ErrataOptions("v1.0", "working", (), ("a4",)), old,
                   Side(WORKING, SOURCES, SOURCES.parent))
    units = sheet.units(game, "k")
    assert [u.name for u in units] == ["minnows/errata/minnows-errata-v1.0-working.html",
                                       "minnows/errata/minnows-errata-v1.0-working-a4.pdf"]
    # Made: the old printing (here the same as the new) checked and the sheet rendered once.
    checked: list[Side] = []

    def check_old(side: Side, slugs: list[str]) -> dict[str, DocumentCheck]:
        checked.append(side)
        return {GAME: game}

    monkeypatch.setattr(errata, "check_old", check_old)
    monkeypatch.setattr(errata, "render_page", render_page)
    made = units[0].make()
    assert not isinstance(made, list)
    assert "There are no errata." in " ".join(str(made[units[0].name]).split())
    assert units[1].ready is not None and units[1].ready() > 0 and checked == [old]
