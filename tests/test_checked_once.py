"""Each printing is checked once, whatever asks for it: `build --changelog-since`, `diff` and
`pnp --changed-since` check the old printing and the new one once each, in every language they
make (the new one's check is the one the run then makes from); a translated build checks its one
printing once. Counted at the check of a game (validate.printing's check_game), by the rules
file it read. Minnows (tests/fixtures/french), in English and French; the old printing a copy
of the project folder."""

from __future__ import annotations

import inspect
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import run

from rulepress.i18n.books import TranslatedBooks
from rulepress.validate import printing

pytestmark = pytest.mark.slow  # the CLI end to end, both printings

FIXTURE = Path(__file__).parent / "fixtures" / "french"
GAME = "minnows"


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> Counter[Path]:
    """How many times each game (by its rules file) is checked."""
    counted: Counter[Path] = Counter()
    check_game: Callable[..., Any] = printing.check_game

    def counting(doc: Any, **kwargs: Any) -> Any:
        counted[doc.path.resolve()] += 1
        return check_game(doc, **kwargs)

    monkeypatch.setattr(printing, "check_game", counting)
    return counted


@pytest.fixture
def sides(tmp_path: Path) -> tuple[Path, Path]:
    """The project and its old printing, which differs in one card's text (English and
    French alike)."""
    project, old = tmp_path / "project", tmp_path / "old"
    shutil.copytree(FIXTURE, project)
    shutil.copytree(FIXTURE, old)
    game = project / "sources" / GAME
    csv = game / "data" / "cards.csv"
    csv.write_text(csv.read_text().replace("Jumps upstream.", "Leaps upstream."))
    po = game / "locales" / "fr.po"
    po.write_text(po.read_text().replace(
        'msgid "Jumps upstream."\nmsgstr "Saute à contre-courant."',
        'msgid "Leaps upstream."\nmsgstr "Bondit à contre-courant."'))
    return project, old


def once_each(checks: Counter[Path], *projects: Path) -> None:
    assert checks == {p.resolve() / "sources" / GAME / "rules.md": 1 for p in projects}


def test_build_with_a_changelog_checks_each_printing_once(
        sides: tuple[Path, Path], checks: Counter[Path], tmp_path: Path) -> None:
    project, old = sides
    out = tmp_path / "build"
    code, said = run("build", "--project", str(project), "--no-pdf", "--edition", "reference",
                     "--changelog-since", str(old), "--out", str(out))
    assert code == 0, said
    once_each(checks, project, old)
    page = (out / GAME / "minnows-reference.html").read_text()  # made from those checks
    assert "Fish cards: 1 face redrawn." in page[page.index('id="rp-changelog"'):]
    assert (out / GAME / "fr" / "minnows-reference.html").is_file()


def test_a_translated_build_checks_its_printing_once(
        sides: tuple[Path, Path], checks: Counter[Path], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """... and the check never calls back into a generator's units(): the run asks for each
    game as it passes, and plans it."""
    project, _ = sides
    out = tmp_path / "build"
    planned: list[list[str]] = []
    units = TranslatedBooks.units

    def planning(self: TranslatedBooks, game: Any, key: str) -> Any:
        planned.append([f.filename for f in inspect.stack(0)
                        if f.filename.endswith(("validate/printing.py",
                                                          "validate/check.py"))])
        return units(self, game, key)

    monkeypatch.setattr(TranslatedBooks, "units", planning)
    code, said = run("build", "--project", str(project), "--no-pdf", "--out", str(out))
    assert code == 0, said
    once_each(checks, project)
    assert planned == [[]]  # planned once, from no frame of the check
    assert (out / GAME / "fr" / "minnows.html").is_file()


def test_diff_in_two_languages_checks_each_printing_once(
        sides: tuple[Path, Path], checks: Counter[Path], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    project, old = sides
    out = tmp_path / "build"
    monkeypatch.chdir(tmp_path)  # the old side named "old" in the sheets' names
    code, said = run("diff", "old", "--project", str(project), "--paper", "a4", "--out",
                     str(out))
    assert code == 0, said
    once_each(checks, project, old)
    sheets = sorted(p.relative_to(out).as_posix() for p in out.rglob("*errata*.html"))
    assert sheets == [f"{GAME}/errata/minnows-errata-old-working.html",
                      f"{GAME}/fr/errata/minnows-errata-old-working.html"]


def test_pnp_changed_since_checks_each_printing_once(
        sides: tuple[Path, Path], checks: Counter[Path], tmp_path: Path) -> None:
    project, old = sides
    out = tmp_path / "pnp"
    code, said = run("pnp", "--project", str(project), "--paper", "a4", "--changed-since",
                     str(old), "--out", str(out))
    assert code == 0, said
    once_each(checks, project, old)
    made = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.pdf"))
    assert [m.split("-changed-since")[0] for m in made] == [
        "minnows/fr/minnows-a4", "minnows/minnows-a4"]
