"""The hostile-input corpus: each case under tests/hostile/ is a sources folder and the exact
diagnostics and exit code rulepress must give for it, without a traceback and, when it fails,
without writing anything.

expected.txt: comment lines (``#``), then ``$ <command>`` (check, build or pnp), ``exit <code>``
and the diagnostic lines, with the sources folder written ROOT. ``<library's words>`` in a line
stands for any text: where only a library can say what is wrong (Jinja's syntax errors), after
rulepress's own words, so a release that rewords it cannot fail the case. A file named
``<name>.mkfifo`` in a case becomes a FIFO named ``<name>`` (git cannot hold one); what git
should not hold is made from a number in a file: ``<name>.mkdeep`` (folders ``<name>/d/d/...``,
that many deep), ``<name>.mkmany`` (a folder of that many empty files), ``<name>.mksparse`` (a
sparse file of that many bytes).

A case holding rulepress.toml is a whole project instead: its command (any, with its options)
runs inside it, ROOT is the project's folder, and a failed run must leave every file of the
project as it was; a folder ``elsewhere`` in it (what links lead to) must stay as it was
whatever the outcome. A folder ``site-packages`` in it is on sys.path for the run: an engine
installed as a package (a module and a dist-info folder whose entry_points.txt names it),
installed nowhere else.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulepress.cli import main
from rulepress.games import _entry_points

pytestmark = pytest.mark.slow  # the CLI on the hostile corpus, time limits included

HOSTILE = Path(__file__).parent / "hostile"
LIBRARY_WORDS = "<library's words>"
CASES = sorted(p.name for p in HOSTILE.iterdir() if (p / "expected.txt").exists())


def prepare(case: Path, into: Path) -> Path:
    src = into / "src"
    shutil.copytree(case, src, symlinks=True, ignore=shutil.ignore_patterns("expected.txt"))
    for marker in src.rglob("*.mkfifo"):
        marker.unlink()
        os.mkfifo(marker.with_suffix(""))
    for marker in [*src.rglob("*.mkdeep"), *src.rglob("*.mkmany"), *src.rglob("*.mksparse")]:
        number, made = int(marker.read_text()), marker.with_suffix("")
        marker.unlink()
        if marker.suffix == ".mkdeep":
            for _ in range(number + 1):  # one at a time: makedirs recurses
                made.mkdir()
                made /= "d"
            DEEP.append(marker.with_suffix(""))
        elif marker.suffix == ".mkmany":
            made.mkdir()
            for n in range(number):
                (made / f"{n}.txt").touch()
        else:
            with made.open("wb") as fh:
                fh.truncate(number)
    return src


DEEP: list[Path] = []  # the .mkdeep folders made, removed after the case


def remove_deep() -> None:
    """Remove the .mkdeep folders from the bottom up: shutil.rmtree (and so pytest's clean-up
    of its temporary folders) recurses once per level."""
    while DEEP:
        top = path = DEEP.pop()
        while (path / "d").is_dir():
            path /= "d"
        while path != top.parent:
            path.rmdir()
            path = path.parent


def expectation(case: Path) -> tuple[str, int, list[str]]:
    lines = [ln for ln in (case / "expected.txt").read_text().splitlines()
             if ln and not ln.startswith("#")]
    command = lines[0].removeprefix("$ ")
    status = int(lines[1].removeprefix("exit "))
    return command, status, lines[2:]


def matches(expected: str, line: str) -> bool:
    parts = [re.escape(part) for part in expected.split(LIBRARY_WORDS)]
    return re.fullmatch(".+".join(parts), line) is not None


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Everything under ``folder``, links as links (never followed)."""
    return {p.relative_to(folder).as_posix(): f"link to {os.readlink(p)}" if p.is_symlink()
            else p.read_bytes() if p.is_file() else "folder" for p in sorted(folder.rglob("*"))}


def project_case(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A case that is a whole project: its command runs inside a copy of it."""
    command, status, expected = expectation(case)
    root = tmp_path / "project"
    shutil.copytree(case, root, symlinks=True, ignore=shutil.ignore_patterns("expected.txt"))
    before = snapshot(root)
    monkeypatch.chdir(root)
    # Importing a case's engine would leave its __pycache__ in the project, which a failed run
    # must leave as it was: not written, whether or not PYTHONDONTWRITEBYTECODE is set.
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    if (root / "site-packages").is_dir():
        monkeypatch.syspath_prepend(str(root / "site-packages"))
    _entry_points.cache_clear()
    try:
        result = CliRunner().invoke(main, shlex.split(command))
    finally:
        _entry_points.cache_clear()  # found again once sys.path is as it was
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    err = result.stderr.replace(str(root.resolve()), "ROOT")
    assert "Traceback" not in err
    shown = [ln for ln in err.splitlines() if ": error: " in ln or ": warning: " in ln]
    assert (result.exit_code, shown) == (status, expected), err
    after = snapshot(root)
    assert {k: v for k, v in after.items() if k.startswith("elsewhere")} == {
        k: v for k, v in before.items() if k.startswith("elsewhere")}
    if status != 0:
        assert after == before, "a failed run wrote or removed something"


@pytest.mark.parametrize("case", CASES)
def test_hostile_input_gets_its_exact_diagnostics(case: str, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    if (HOSTILE / case / "rulepress.toml").exists():
        project_case(HOSTILE / case, tmp_path, monkeypatch)
        return
    command, status, expected = expectation(HOSTILE / case)
    src = prepare(HOSTILE / case, tmp_path)
    out = tmp_path / "out"
    args = [command, "--sources", str(src)]
    if command != "check":
        args += ["--out", str(out)] + (["--jobs", "1"] if command == "build" else [])
    try:
        result = CliRunner().invoke(main, args)
    finally:
        remove_deep()
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    err = result.stderr.replace(str(src), "ROOT")
    assert "Traceback" not in err
    shown = [ln for ln in err.splitlines() if ": error: " in ln or ": warning: " in ln]
    shown = [want if matches(want, got) else got
             for want, got in zip(expected, shown, strict=False)] + shown[len(expected):]
    assert (result.exit_code, shown) == (status, expected), err
    if status != 0 and command != "check":
        assert not out.exists(), "a failed run wrote output"


def test_every_case_says_what_it_tries() -> None:
    for case in CASES:
        first = (HOSTILE / case / "expected.txt").read_text().splitlines()[0]
        assert first.startswith("# "), f"{case}: expected.txt starts with '# <what it tries>'"


def test_library_words_stand_for_some_text_only_where_they_are_written() -> None:
    want = f"x.css:4:1: error: template: does not parse: {LIBRARY_WORDS} (its line 1)"
    assert matches(want, "x.css:4:1: error: template: does not parse: Expected ']' (its line 1)")
    assert not matches(want, "x.css:4:1: error: template: does not parse:  (its line 2)")
    assert not matches(want, "x.css:5:1: error: template: does not parse: Expected (its line 1)")
    assert not matches(want, "x.css:4:1: error: template: Expected ']' (its line 1)")


def test_an_entry_that_is_no_segment_leaves_the_examples_data_as_proven(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "project"
    shutil.copytree(HOSTILE / "po-entry-not-a-segment", root,
                    ignore=shutil.ignore_patterns("expected.txt"))
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["build", "--no-pdf", "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
    pages = [p.read_text() for p in (tmp_path / "out").rglob("de/*.html")]
    said = [p for p in pages if "Ann spielt" in p]
    assert said and all("Ann spielt roll 4, roll 4 und" in p and "roll 6" not in p
                        for p in said)


def test_a_header_naming_another_charset_leaves_the_catalog_in_utf8(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "project"
    shutil.copytree(HOSTILE / "po-charset-utf7", root,
                    ignore=shutil.ignore_patterns("expected.txt"))
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, ["translate"])
    assert result.exit_code == 0, result.stderr
    written = (root / "sources/g/locales/de.po").read_bytes().decode("utf-8")
    assert 'msgstr "Würfle und zieh die **Figur** 3 Felder."' in written
    assert "charset=utf-8" in written and "+APw-" not in written


def _catalog_case(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entries: str = "",
                  glossary: str | None = None) -> Path:
    """The hostile game with its German catalog (and glossary) added to, run from inside."""
    root = tmp_path / "project"
    shutil.copytree(HOSTILE / "po-charset-ascii", root,
                    ignore=shutil.ignore_patterns("expected.txt"))
    po = root / "sources/g/locales/de.po"
    po.write_text(po.read_text().replace("charset=ascii", "charset=UTF-8") + entries)
    if glossary is not None:
        (po.parent / "de-glossary").write_text(glossary)
    monkeypatch.chdir(root)
    return po


def test_a_glossary_past_its_limit_is_refused_before_any_search(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rulepress.limits import MAX_GLOSSARY_TERMS

    terms = "".join(f"term{n} = Wort{n}\n" for n in range(MAX_GLOSSARY_TERMS + 1))
    po = _catalog_case(tmp_path, monkeypatch, glossary=terms)
    result = CliRunner().invoke(main, ["check"])
    shown = [ln for ln in result.stderr.splitlines() if ": error: " in ln]
    assert (result.exit_code, shown) == (2, [
        f"{po.parent.resolve()}/de-glossary:{MAX_GLOSSARY_TERMS + 1}:1: error: more than the "
        f"limit of {MAX_GLOSSARY_TERMS} terms in a glossary"])


def test_a_catalog_past_its_entries_is_refused(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from rulepress.limits import MAX_CATALOG_ENTRIES

    many = "".join(f'\nmsgid "s{n}"\nmsgstr "t{n}"\n' for n in range(MAX_CATALOG_ENTRIES))
    po = _catalog_case(tmp_path, monkeypatch, many)
    before = po.read_bytes()
    result = CliRunner().invoke(main, ["translate"])
    shown = [ln for ln in result.stderr.splitlines() if ": error: " in ln]
    assert (result.exit_code, shown) == (2, [
        f"{po.resolve()}:1:1: error: {MAX_CATALOG_ENTRIES + 7} entries is more than the limit "
        f"of {MAX_CATALOG_ENTRIES} for a catalog"])
    assert po.read_bytes() == before


def test_near_duplicates_past_the_fuzzy_limit_merge_without_fuzzy_matching(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    from rulepress.limits import MAX_FUZZY_PAIRS

    # Each segment of the game changed (a new text), and many translated near-duplicates:
    # difflib would compare every new segment with every one of them.
    count = MAX_FUZZY_PAIRS // 2 + 1
    near = "".join(f'\nmsgid "Move the pawn {n} squares."\nmsgstr "Zieh {n} Felder."\n'
                   for n in range(count))
    po = _catalog_case(tmp_path, monkeypatch, near)
    po.write_text(po.read_text().replace("Move the **pawn** 3 squares.", "Moved the pawn 3.")
                  .replace('msgid "Hostile"', 'msgid "Hostile!"'))
    started = time.process_time()
    result = CliRunner().invoke(main, ["translate"])
    assert time.process_time() - started < 30
    shown = [ln for ln in result.stderr.splitlines() if ": warning: " in ln]
    # The 2 changed segments, and the licence and source the case's catalog has no entry for.
    assert (result.exit_code, shown) == (0, [
        f"{po.resolve()}:1:1: warning: 5 new segments against {count + 7} translated entries "
        f"is more than the limit of {MAX_FUZZY_PAIRS} pairs for fuzzy matching: merged "
        "without it (each changed segment untranslated, its old entry obsolete)"])
    assert "#, fuzzy" not in po.read_text()
