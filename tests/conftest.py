from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).parent
sys.path.insert(0, str(TESTS))

# The check's kept answers (memo.py) go to a folder of the test run's, not the user's: the
# xdist workers inherit it from the controller, which loads this file first, so they share it.
# It starts as a copy of the user's: `make` has just checked the bundled games, and an answer
# is kept by rulepress's code and every input it depends on, so it is the one this run's
# check would give (the memo's own tests check folders of their own, with memos of their own).
if "RULEPRESS_CACHE" not in os.environ:
    import shutil
    import tempfile

    from rulepress import memo

    users, run_memo = memo.folder(), tempfile.mkdtemp(prefix="rulepress-memo-")
    if users is not None and users.is_dir():
        shutil.copytree(users, run_memo, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".tmp-*"))
    os.environ["RULEPRESS_CACHE"] = run_memo

import shared  # noqa: E402
import support  # noqa: E402
from tiny_engine import ENGINE, KIT_ENGINE  # noqa: E402

from rulepress.games import register_engine  # noqa: E402

register_engine("tiny_race", ENGINE)
register_engine("tiny_kit", KIT_ENGINE)


@pytest.fixture(scope="session")
def bundled() -> dict[str, tuple[Any, Any]]:
    """Every bundled game's A4 kit, drawn once per session, with a function that draws it
    again with other options: slug -> (rebuild(options), kit)."""
    from rulepress.document.reader import read_sources
    from rulepress.games import contract, load_engine
    from rulepress.pnp.kit import Options, build_kit

    out = {}
    for doc in read_sources(TESTS.parent / "sources", ()):
        engine = load_engine(doc.meta.engine) if doc.meta.engine else None
        drawers = engine.drawers() if engine else {}
        tables = contract.tables(engine)

        def rebuild(options: Any, doc: Any = doc, drawers: Any = drawers,
                    tables: Any = tables) -> Any:
            return build_kit(doc, drawers, "a4", tables=tables, options=options)

        out[doc.slug] = (rebuild, rebuild(Options()))
    return out


def _bundled_books(factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """Every bundled book as `make` builds it (both editions, both papers, HTML and PDF, and
    every language of rulepress.toml), built once a run (shared.made_once): the folder, to
    read, never to change, and what the build said: its ``warnings`` (file name or None, line,
    severity, message), its ``summary`` and its translations' ``notes``."""
    import tomllib

    from rulepress.build import build_rulebooks
    from rulepress.document.editions import EDITIONS
    from rulepress.i18n.books import TranslatedBooks, TranslationOptions

    def make(out: Path) -> dict[str, Any]:
        config = tomllib.loads((TESTS.parent / "rulepress.toml").read_text(encoding="utf-8"))
        source, *others = config["languages"]
        papers = ("a4", "letter")
        books = TranslatedBooks(TranslationOptions(tuple(others), source, papers, EDITIONS))
        built = build_rulebooks(TESTS.parent / "sources", out, papers=papers, editions=EDITIONS,
                                project=TESTS.parent, reporter=support.Quiet(), also=[books])
        return {"warnings": [[None if d.loc is None else Path(d.loc.path).name,
                              None if d.loc is None else d.loc.line, d.severity.value,
                              d.message] for d in built.warnings],
                "summary": built.summary(), "notes": list(books.notes)}

    return shared.made_once(factory, "bundled-books", make)


@pytest.fixture(scope="session")
def bundled_books(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every bundled book as `make` builds it, built once a run: to read, never to change (a
    game's A4 player PDF is the same bytes as a build of it alone)."""
    return _bundled_books(tmp_path_factory)[0]


@pytest.fixture(scope="session")
def bundled_books_warnings(tmp_path_factory: pytest.TempPathFactory) -> list[list[Any]]:
    """What the build of bundled_books warned: [file name or None, line, severity, message]."""
    warnings: list[list[Any]] = _bundled_books(tmp_path_factory)[1]["warnings"]
    return warnings


@pytest.fixture(scope="session")
def german_pigeon_race(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, list[str]]:
    """Pigeon Race's German books (both editions, HTML and PDF) as bundled_books has them:
    their folder (to read, never to change), the build's summary and the German translation's
    notes."""
    out, said = _bundled_books(tmp_path_factory)
    notes = [note for note in said["notes"] if note.startswith("pigeon-race de: ")]
    return out / "pigeon-race" / "de", said["summary"], notes


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project made by `rulepress new pig-dice` (its engine: the package engines/pig_dice/)."""
    parent = tmp_path_factory.mktemp("projects")
    before = Path.cwd()
    os.chdir(parent)
    try:
        code, err = support.run("new", "pig-dice")
    finally:
        os.chdir(before)
    assert code == 0 and "Traceback" not in err, err
    return parent / "pig-dice"


# One browser for the whole session: Playwright's sync API refuses a second driver in a process
# where one is running (the browser and serve tests share a worker under pytest-xdist).
@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import Error, sync_playwright

    driver = sync_playwright().start()
    try:
        chromium = driver.chromium.launch(executable_path=support.CHROMIUM,
                                           args=support.CHROMIUM_ARGS)
    except Error as exc:
        problem = str(exc)
    else:
        yield chromium
        chromium.close()
        driver.stop()
        return
    driver.stop()  # a browser that cannot start fails every test here; it is never a skip
    pytest.fail(f"headless Chromium ({support.CHROMIUM}) could not start; `make test` installs "
                f"Debian's chromium package when it is missing.\n{problem}", pytrace=False)


@pytest.hookimpl(tryfirst=True)  # before -m deselects by the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that drives the browser is a browser test, and slow (out of `make test-fast`)."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true",
                     help="Write the golden files (tests/golden/) from this run's outputs "
                          "instead of comparing them: for a change of output made on purpose.")
    parser.addoption("--update-snapshots", action="store_true", default=False,
                     help="Write the games' diagrams as their golden SVG files "
                          "(tests/games/<game>/snapshots/) instead of comparing them: for a "
                          "change of a diagram made on purpose.")


@pytest.fixture()
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))
