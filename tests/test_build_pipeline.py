"""The build pipeline on a fixture tree: outputs, refusals, atomicity, reproducibility."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader
from support import run

from rulepress.write import MANIFEST

pytestmark = pytest.mark.slow  # builds of a fixture tree, PDFs included

ROOTS = Path(__file__).parent / "fixtures" / "roots"



@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("build")
    code, err = run("build", "--sources", str(ROOTS / "good"), "--out", str(out), "--jobs", "1")
    assert code == 0, err
    return out


def test_outputs_are_written(built: Path) -> None:
    names = sorted(str(p.relative_to(built)) for p in built.rglob("*") if p.is_file())
    assert "index.html" in names
    assert "tiny/tiny.html" in names
    assert "tiny/tiny-a4.pdf" in names and "tiny/tiny-letter.pdf" in names
    assert not [n for n in names if n.endswith(".tmp")]


def test_html_shows_examples_filled_from_their_data(built: Path) -> None:
    html = (built / "tiny" / "tiny.html").read_text()
    assert "From square 2 the pawn reaches square 7." in html
    assert 'id="example-three-steps"' in html
    assert "{{" not in html


def test_pdf_papers(built: Path) -> None:
    a4 = PdfReader(built / "tiny" / "tiny-a4.pdf").pages[0].mediabox
    letter = PdfReader(built / "tiny" / "tiny-letter.pdf").pages[0].mediabox
    assert (round(float(a4.width), 1), round(float(a4.height), 1)) == (595.3, 841.9)
    assert (float(letter.width), float(letter.height)) == (612, 792)


def test_index_links_every_output(built: Path) -> None:
    index = (built / "index.html").read_text()
    for href in ("tiny/tiny.html", "tiny/tiny-a4.pdf", "tiny/tiny-letter.pdf"):
        assert f'href="{href}"' in index
        assert (built / href).exists()


def test_two_builds_are_byte_identical(built: Path, tmp_path: Path) -> None:
    code, err = run("build", "--sources", str(ROOTS / "good"), "--out", str(tmp_path), "-j", "2")
    assert code == 0, err
    for path in built.rglob("*"):
        if path.is_file() and path.relative_to(built) != MANIFEST:
            assert (tmp_path / path.relative_to(built)).read_bytes() == path.read_bytes(), path
    # The manifests differ only in the folder each was written for (its device and inode).
    first, second = (json.loads((folder / MANIFEST).read_text()) for folder in (built, tmp_path))
    assert first.pop("folder") != second.pop("folder") and first == second


def test_failed_check_writes_nothing_and_keeps_old_outputs(built: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    shutil.copytree(built, out)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    failing = tmp_path / "src"
    shutil.copytree(ROOTS / "disproved", failing)
    code, err = run("build", "--sources", str(failing), "--out", str(out))
    assert code == 1
    assert "claims at = 8, the rules give 7" in err
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before


def test_draft_build_turns_failures_into_warnings(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "good", src)
    rules = src / "tiny" / "rules.md"
    rules.write_text(rules.read_text().replace("  at: 7", "  at: 8"))
    code, err = run("build", "--sources", str(src), "--out", str(tmp_path / "o"), "--draft")
    assert code == 0, err
    assert "warning: three-steps: claims at = 8, the rules give 7" in err
    assert (tmp_path / "o" / "tiny" / "tiny.html").exists()


def test_bad_input_writes_nothing(tmp_path: Path) -> None:
    code, _ = run("build", "--sources", str(ROOTS / "bad-raw-html"), "--out", str(tmp_path / "o"))
    assert code == 2
    assert not (tmp_path / "o").exists()


def test_a_later_game_failing_its_check_stops_the_pdfs_already_started(tmp_path: Path) -> None:
    """A game's PDFs start as soon as it passes its check; when a later game then fails, the
    workers are stopped and nothing is written."""
    import multiprocessing

    src = tmp_path / "src"
    shutil.copytree(ROOTS / "good" / "tiny", src / "a-tiny")  # checked first, passes
    shutil.copytree(ROOTS / "disproved" / "tiny", src / "b-tiny")
    out = tmp_path / "out"
    code, err = run("build", "--sources", str(src), "--out", str(out), "-j", "2")
    assert code == 1, err
    assert "b-tiny" in err and "claims at = 8, the rules give 7" in err
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]
    assert multiprocessing.active_children() == []


def test_a_kit_failing_its_check_after_the_books_started_stops_them(tmp_path: Path) -> None:
    """The kit is checked while the game's books are already typesetting (no page needs it);
    when it then fails, the workers are stopped, nothing is written and the diagnostics come
    in the order `check` gives them."""
    import multiprocessing

    src = tmp_path / "src"
    shutil.copytree(ROOTS / "good" / "tiny", src / "tiny")
    rules = src / "tiny" / "rules.md"
    rules.write_text(rules.read_text().replace(
        "    count: 1\n---",
        "    count: 1\n  - id: card\n    name: Rules card\n    count: 1\n"
        "    size: 63.5mm x 88.9mm\n    front: no_such_drawer\n---"))
    out = tmp_path / "out"
    code, err = run("build", "--sources", str(src), "--out", str(out), "-j", "2")
    assert code == 2, err
    assert "no front drawer 'no_such_drawer'" in err
    assert not out.exists() or not [p for p in out.rglob("*") if p.is_file()]
    assert multiprocessing.active_children() == []
    checked, err_check = run("check", "--sources", str(src))
    diagnostics = [line for line in err.splitlines() if ": error: " in line]
    assert checked == 2
    assert diagnostics == [line for line in err_check.splitlines() if ": error: " in line]


def test_negative_jobs_are_refused_as_simulate_refuses_them(tmp_path: Path) -> None:
    code, err = run("build", "--sources", str(ROOTS / "good"), "--out", str(tmp_path / "out"),
                    "--no-pdf", "-j", "-1")
    assert (code, err.strip()) == (2, "rulepress: error: --jobs -1: give a number of processes, "
                                      "or 0 for one per core")
    assert not (tmp_path / "out").exists()


def test_one_pdf_asked_for_is_typeset_alone(tmp_path: Path) -> None:
    """serve asks for the one PDF a reader opened: its paper is typeset, not the other's (and
    not nothing, as when the papers sharing a typesetting were made only all together)."""
    from support import Quiet

    from rulepress.build import build_rulebooks

    out = tmp_path / "out"
    built = build_rulebooks(ROOTS / "good", out, reporter=Quiet(), jobs=1,
                            only={"tiny/tiny-letter.pdf"})
    made = sorted(p.relative_to(out).as_posix() for p in built.written)
    assert "tiny/tiny-letter.pdf" in made and "tiny/tiny-a4.pdf" not in made
    assert PdfReader(out / "tiny" / "tiny-letter.pdf").pages[0].mediabox.width == 612
