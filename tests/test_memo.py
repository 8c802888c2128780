"""The check keeps its slowest engine answers (a kit measured, a playtest sample, a proven
example's figures) by their inputs: the same inputs answer from the memo, and so does a game
whose prose alone changed (serve's save); any change in what the engine sees checks afresh."""

from __future__ import annotations

import base64
import json
import marshal
import os
import shutil
from pathlib import Path

import jinja2
import pytest
from support import pigeon_race

from rulepress import memo
from rulepress.document.reader import read_sources
from rulepress.validate import check
from rulepress.validate.printing import check_printing

pytestmark = pytest.mark.slow  # Pigeon Race checked whole, kit, examples and playtests, often

# The playtest reports a copy keeps: a plain run and a ladder, each replayed its own way. The
# memo keeps every report's answers alike, so the searches' slow ones add nothing here.
KEEP = ("playtest", "ladder")
REPORTS = len(KEEP)


@pytest.fixture()
def cold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of Pigeon Race with an empty memo beside it (``game.parent / "memo"``)."""
    monkeypatch.setenv("RULEPRESS_CACHE", str(tmp_path / "memo"))
    pigeon_race(tmp_path / "sources", KEEP)
    return tmp_path / "sources"


@pytest.fixture(scope="module")
def checked_cold(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """The copy's one cold check in this module (a memo is keyed by the game's folder, so the
    tests below reuse this folder): the folder, the memo it filled, and what it said."""
    root = tmp_path_factory.mktemp("memo-game")
    pigeon_race(root / "sources", KEEP)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RULEPRESS_CACHE", str(root / "memo"))
        said = _summary(root / "sources")
    shutil.copytree(root / "memo", root / "memo-filled")
    return root / "sources", root / "memo-filled", said


@pytest.fixture()
def game(checked_cold: tuple[Path, Path, str], monkeypatch: pytest.MonkeyPatch) -> Path:
    """The copy as it was first checked, with the memo that check filled beside it
    (``game.parent / "memo"``): what a first check of the copy would keep, without playing
    its playtests' games again (tests that need the check cold take ``cold``)."""
    sources, filled, _ = checked_cold
    memo_folder = sources.parent / "memo"
    for made in (sources / "pigeon-race", memo_folder):  # as the test before left them
        shutil.rmtree(made, ignore_errors=True)
    pigeon_race(sources, KEEP)
    shutil.copytree(filled, memo_folder)
    monkeypatch.setenv("RULEPRESS_CACHE", str(memo_folder))
    return sources


def _runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, check.Item]]:
    """The engine tasks the check's worker runs from now on (recorded in this process: the
    worker is forked, so its calls are counted by what reaches the parent)."""
    asked: list[tuple[str, check.Item]] = []
    submit = check.Workers.submit

    def counted(self: check.Workers[tuple[str, int]], item: tuple[str, int]) -> None:
        if isinstance(item, tuple):  # not the set-up trial of a playtest
            asked.append(item)
        submit(self, item)

    monkeypatch.setattr(check.Workers, "submit", counted)
    return asked


def _summary(sources: Path) -> str:
    report = check_printing(read_sources(sources))
    return "\n".join(map(str, report.diagnostics)) + report.summary()


def _summary_drawn(sources: Path) -> tuple[str, list[object]]:
    report = check_printing(read_sources(sources), draw=True)
    return (report.summary(), [e for c in report.documents for e in c.examples.values()])


def _asked(asked: list[tuple[str, check.Item]]) -> set[check.Item]:
    return {item for _, item in asked}


def test_an_unchanged_game_answers_its_kit_playtest_and_examples_from_the_memo(
        game: Path, checked_cold: tuple[Path, Path, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    first = _summary(game)
    assert first == checked_cold[2]  # what the check said cold
    assert f"{REPORTS} playtest reports up to date" in first
    asked = _runs(monkeypatch)
    assert _summary(game) == first
    assert _asked(asked) == {check.Whole.COUNTS}  # the front matter's numbers: cheap, never kept


def test_a_drawn_example_from_the_memo_is_the_one_drawn_afresh(
        cold: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = cold
    first = _summary_drawn(game)
    assert any(e.figures for e in first[1])  # type: ignore[attr-defined]
    asked = _runs(monkeypatch)
    assert _summary_drawn(game) == first
    assert _asked(asked) == {check.Whole.COUNTS}


def test_a_prose_change_keeps_the_engines_answers(game: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _summary(game)
    rules = game / "pigeon-race" / "rules.md"
    text = rules.read_text()
    rules.write_text(text.replace("\n## ", "\nOne more line, above the rest.\n\n## ", 1))
    asked = _runs(monkeypatch)
    report = check_printing(read_sources(game))
    assert report.diagnostics == [] and _asked(asked) == {check.Whole.COUNTS}


def test_a_changed_example_alone_is_replayed(game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _summary(game)
    rules = game / "pigeon-race" / "rules.md"
    text = rules.read_text()
    assert text.count("  picked_each: 1\n") == 1
    rules.write_text(text.replace("  picked_each: 1\n", "  picked_each: 2\n"))
    asked = _runs(monkeypatch)
    report = check_printing(read_sources(game))
    doc, = read_sources(game)
    changed = next(n for n, b in enumerate(doc.boxes) if b.id == "elizabeth-allotment")
    assert _asked(asked) == {check.Whole.COUNTS, changed}
    # Its error is at the claim's line, as replayed: a failure is never kept, so the next
    # check (the prose above it moved meanwhile) says it at the line it is at then.
    line = text[:text.index("  picked_each: 1")].count("\n") + 1
    assert [(d.loc.line if d.loc else 0, d.disproved) for d in report.diagnostics] == [
        (line, True)]
    text = rules.read_text()
    assert text.index("\n## ") < text.index("picked_each")
    rules.write_text(text.replace("\n## ", "\nA new line.\n\nAnother.\n\n## ", 1))
    again = check_printing(read_sources(game))
    assert [d.loc.line if d.loc else 0 for d in again.diagnostics] == [line + 4]


def test_a_changed_front_matter_or_data_file_is_checked_afresh(
        game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _summary(game)
    rules = game / "pigeon-race" / "rules.md"
    rules.write_text(rules.read_text().replace("duration: 20 minutes", "duration: 25 minutes"))
    asked = _runs(monkeypatch)
    _summary(game)
    assert check.Whole.KIT in _asked(asked)
    asked.clear()
    layout = sorted((game / "pigeon-race" / "layouts").rglob("*.*"))[0]
    layout.write_bytes(layout.read_bytes() + b"\n")
    _summary(game)
    assert check.Whole.KIT in _asked(asked)


def test_a_kept_answer_not_as_written_is_a_miss(game: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    first = _summary(game)
    kept = sorted((game.parent / "memo").rglob("*.json"))
    doc, = read_sources(game)
    # the kit's diagnostics, the playtest's sample and each example's (proven) replay, what the
    # document hooks say of the game, each summary's figures from its records; besides the
    # playtest reports' passed set-up trials (True) and compiled prose (text)
    answers = [p for p in kept if not isinstance(json.loads(p.read_text())["value"], bool | str)]
    summaries = {block.data["summary"] for block in doc.reports}
    assert len(answers) == 1 + len(doc.boxes) + 1 + len(summaries)
    for path in kept:
        path.write_text(json.dumps({"key": "another", "value": []}))
    asked = _runs(monkeypatch)
    assert _summary(game) == first
    assert _asked(asked) == {check.Whole.KIT, check.Whole.COUNTS, *range(len(doc.boxes))}


def test_off_keeps_nothing(cold: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = cold
    monkeypatch.setenv("RULEPRESS_CACHE", "off")
    assert memo.folder() is None
    _summary(game)
    assert not (game.parent / "memo").exists()


def test_an_unwritable_memo_is_no_error(cold: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = cold
    blocked = game.parent / "memo"
    blocked.write_text("a file where the folder would go")
    assert f"{REPORTS} playtest reports up to date" in _summary(game)


def test_an_examples_prose_compiled_once_is_loaded_by_the_next_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """serve's rebuilds are fresh processes: a prose template compiled by one is kept (through
    the prose sandbox's Jinja bytecode cache), and the next renders it from the memo without
    compiling, to the same text; a damaged entry is compiled again."""
    from rulepress import prose

    monkeypatch.setenv("RULEPRESS_CACHE", str(tmp_path))
    env = prose.environment()
    text = "{{ moves[0] }} moves {{ claims.at }} squares{% if far %}, far{% endif %}."
    data = {"moves": ["3C"], "claims": {"at": 4}, "far": True}
    compiled: list[str] = []
    real = env.compile
    monkeypatch.setattr(env, "compile", lambda source, *rest: compiled.append(source)
                        or real(source, *rest))

    def rendered() -> str:
        env.cache.clear()  # as a fresh process
        return str(env.get_template(text).render(data))

    assert rendered() == "3C moves 4 squares, far."
    assert compiled == [text]
    (kept,) = tmp_path.glob("*/*.json")
    assert rendered() == "3C moves 4 squares, far."
    assert compiled == [text]
    key = json.loads(kept.read_text())["key"]
    whole = base64.b64decode(json.loads(kept.read_text())["value"])
    magic = jinja2.bccache.bc_magic
    not_code = jinja2.bccache.Bucket(env, key, env.bytecode_cache.get_source_checksum(text))
    not_code.code = 7
    for damaged in (base64.b64encode(marshal.dumps(7)).decode(),  # not Jinja's
                    base64.b64encode(whole[:-9]).decode(),  # cut short
                    base64.b64encode(magic + b"\x80garbage").decode(),  # a bad checksum
                    base64.b64encode(not_code.bytecode_to_string()).decode(),  # 7, not code
                    "not base64!"):
        kept.write_text(json.dumps({"key": key, "value": damaged}))
        assert rendered() == "3C moves 4 squares, far."
        assert compiled[-1] == text
    assert len(compiled) == 6
    assert rendered() == "3C moves 4 squares, far." and len(compiled) == 6  # kept anew
    env.cache.clear()


def test_the_theme_is_hashed_again_only_when_a_file_of_it_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rebuild asks for the theme's digest a dozen times; its fonts are read once a process,
    and any change to a file (same size and all) gives a new digest."""
    from rulepress import cache

    theme = tmp_path / "templates"
    theme.mkdir()
    (theme / "a.css").write_text("p { color: red }")
    (theme / "b.ttf").write_bytes(b"font" * 1000)
    monkeypatch.setattr(cache, "templates_dir", lambda: theme)
    hashed: list[Path] = []
    real = cache.tree_digest
    monkeypatch.setattr(cache, "tree_digest", lambda folder, *a: hashed.append(folder)
                        or real(folder, *a))
    first = cache.theme_digest()
    assert cache.theme_digest() == first and hashed == [theme]
    (theme / "a.css").write_text("p { color: tan }")  # the same size
    second = cache.theme_digest()
    assert second != first and second == real(theme) and len(hashed) == 2
    assert cache.theme_digest() == second and len(hashed) == 2  # unchanged again: not hashed
    (theme / "c.css").write_text("")
    third = cache.theme_digest()
    assert third not in (first, second) and len(hashed) == 3
    stamp = (theme / "b.ttf").stat()  # the same bytes, a new time: hashed again, same digest
    os.utime(theme / "b.ttf", ns=(stamp.st_atime_ns, stamp.st_mtime_ns + 10**9))
    assert cache.theme_digest() == third and len(hashed) == 4



def _checked(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[int, str, int]:
    """``rulepress check args``'s exit code and output, and how often it read the sources."""
    from click.testing import CliRunner

    from rulepress.cli import main
    from rulepress.document import reader

    reads: list[Path] = []
    real = reader.read_sources

    def counted(sources: Path, games: tuple[str, ...] = ()) -> list[reader.Document]:
        reads.append(sources)
        return real(sources, games)

    monkeypatch.setattr(reader, "read_sources", counted)
    result = CliRunner().invoke(main, ["check", *args])
    return result.exit_code, result.output, len(reads)


def test_check_of_an_unchanged_game_reads_nothing_and_says_the_same(
        game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    args = ("--sources", str(game), "--lang", "en")
    code, said, reads = _checked(monkeypatch, *args)
    assert (code, reads) == (0, 1) and f"{REPORTS} playtest reports up to date" in said
    assert _checked(monkeypatch, *args) == (0, said, 0)
    assert _checked(monkeypatch, *args, "--strict") == (0, said, 1)  # another option: afresh
    rules = game / "pigeon-race" / "rules.md"
    text = rules.read_text()
    for changed in (text.replace("\n## ", "\nOne more line.\n\n## ", 1),  # prose
                    text.replace("duration: 20 minutes", "duration: 25 minutes")):  # front
        assert changed != text
        rules.write_text(changed)
        assert _checked(monkeypatch, *args) == (0, said, 1)
        assert _checked(monkeypatch, *args) == (0, said, 0)
    layout = sorted((game / "pigeon-race" / "layouts").rglob("*.*"))[0]
    layout.write_bytes(layout.read_bytes() + b"\n")
    assert _checked(monkeypatch, *args) == (0, said, 1)
    # A check that fails is not kept: each says it afresh, at the claim's line.
    rules.write_text(rules.read_text().replace("  picked_each: 1\n", "  picked_each: 2\n"))
    failed = _checked(monkeypatch, *args)
    assert failed[0] == 1 and "picked_each" in failed[1] and failed[2] == 1
    assert _checked(monkeypatch, *args) == failed


def test_check_again_after_its_engine_changed_checks_afresh(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rulepress.scaffold import new_project

    monkeypatch.setenv("RULEPRESS_CACHE", str(tmp_path / "memo"))
    project = new_project("demo", tmp_path)
    args = ("--project", str(project))
    code, said, reads = _checked(monkeypatch, *args)
    assert (code, reads) == (0, 1), said
    assert _checked(monkeypatch, *args) == (0, said, 0)
    engine = project / "engines" / "demo" / "rules.py"
    engine.write_text(engine.read_text() + "\n# the same rules, another file\n")
    assert _checked(monkeypatch, *args) == (0, said, 1)
    assert _checked(monkeypatch, *args) == (0, said, 0)
