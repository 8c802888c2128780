"""The check keeps its slowest engine answers (a kit measured, a playtest sample) by their
inputs: the same inputs answer from the memo, any change in them checks afresh."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulepress import memo
from rulepress.checks import every
from rulepress.document.reader import read_sources
from rulepress.validate import check
from rulepress.validate.check import check_documents

SOURCES = Path(__file__).parents[1] / "sources"


@pytest.fixture()
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RULEPRESS_CACHE", str(tmp_path / "memo"))
    shutil.copytree(SOURCES / "pigeon-race", tmp_path / "sources" / "pigeon-race")
    return tmp_path / "sources"


def _runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """The engine tasks the check's worker runs from now on (recorded in this process: the
    worker is forked, so its calls are counted by what reaches the parent)."""
    asked: list[tuple[str, int]] = []
    submit = check.Workers.submit

    def counted(self: check.Workers[tuple[str, int]], item: tuple[str, int]) -> None:
        if isinstance(item, tuple):  # not the set-up trial of a playtest
            asked.append(item)
        submit(self, item)

    monkeypatch.setattr(check.Workers, "submit", counted)
    return asked


def _summary(sources: Path) -> str:
    report = check_documents(read_sources(sources), checks=every())
    return "\n".join(map(str, report.diagnostics)) + report.summary()


def test_an_unchanged_game_answers_its_kit_and_playtest_from_the_memo(
        game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _summary(game)
    assert "1 playtest report up to date" in first
    asked = _runs(monkeypatch)
    assert _summary(game) == first
    doc, = read_sources(game)
    playtests = [n for n, b in enumerate(doc.boxes) if b.kind == "simulation"]
    assert playtests and not {check.KIT, *playtests} & {item for _, item in asked}
    assert asked, "the examples are replayed every time"


def test_a_changed_game_is_checked_afresh(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _summary(game)
    rules = game / "pigeon-race" / "rules.md"
    rules.write_text(rules.read_text() + "\nOne more line.\n")
    asked = _runs(monkeypatch)
    _summary(game)
    assert check.KIT in {item for _, item in asked}


def test_a_kept_answer_not_as_written_is_a_miss(game: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    first = _summary(game)
    kept = sorted((game.parent / "memo").rglob("*.json"))
    assert len(kept) == 2  # the kit's diagnostics and the playtest's sample
    for path in kept:
        path.write_text(json.dumps({"key": "another", "value": []}))
    asked = _runs(monkeypatch)
    assert _summary(game) == first
    assert check.KIT in {item for _, item in asked}


def test_off_keeps_nothing(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEPRESS_CACHE", "off")
    assert memo.folder() is None
    _summary(game)
    assert not (game.parent / "memo").exists()


def test_an_unwritable_memo_is_no_error(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = game.parent / "memo"
    blocked.write_text("a file where the folder would go")
    assert "1 playtest report up to date" in _summary(game)
