"""Incremental builds: an output is rebuilt exactly when something it is made from changed, and
then it is byte for byte what a clean build makes.

Each kind of input is changed in turn on a project made by `rulepress new`, run against a copy of
rulepress itself (its package, theme and metadata on PYTHONPATH), so the theme, a font and
rulepress's version can change too without touching the checkout.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from support import pigeon_race as race_copy
from support import run

import rulepress
from rulepress.scaffold import new_project
from rulepress.simulate.records import sealed
from rulepress.simulate.refigure import derived
from rulepress.write import MANIFEST, folder_id

pytestmark = pytest.mark.slow  # full builds, then rebuilds

ROOTS = Path(__file__).parent / "fixtures" / "roots"
# One edition on one paper: every kind of output (page, PDF, font, index), quickly.
BUILD = ["build", "--paper", "a4", "--edition", "player", "-j", "1"]
WROTE = re.compile(r"wrote (\d+) files? to ")


def files_of(folder: Path) -> dict[str, bytes]:
    """Every file, the manifest without the folder it names (each folder's own)."""
    found = {p.relative_to(folder).as_posix(): p.read_bytes()
             for p in sorted(folder.rglob("*")) if p.is_file()}
    if MANIFEST.as_posix() in found:
        manifest = json.loads(found[MANIFEST.as_posix()])
        assert manifest.pop("folder") == folder_id(folder)
        found[MANIFEST.as_posix()] = json.dumps(manifest).encode()
    return found


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of rulepress (the theme copied in, not linked) with its installed metadata."""
    lib = tmp_path_factory.mktemp("lib")
    shutil.copytree(Path(rulepress.__file__).parent, lib / "rulepress", symlinks=False,
                    ignore=shutil.ignore_patterns("__pycache__"))
    dist = metadata.distribution("rulepress")
    info = Path(str(dist.locate_file(f"rulepress-{dist.version}.dist-info")))
    if not (info / "METADATA").is_file():
        pytest.fail(f"rulepress's installed metadata is not at {info}: install it with "
                    "`make test` (pip install -e .)", pytrace=False)
    shutil.copytree(info, lib / info.name)
    return lib


def rulepress_in(lib: Path, cwd: Path, *args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(lib), "CI": "1"}
    proc = subprocess.run([sys.executable, "-m", "rulepress.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stderr


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_each_kind_of_input_rebuilds_what_it_affects_as_a_clean_build(
        lib: Path, tmp_path: Path) -> None:
    rulepress_in(lib, tmp_path, "new", "demo")
    project = tmp_path / "demo"
    theme = lib / "rulepress" / "templates"
    version_file = next(lib.glob("rulepress-*.dist-info")) / "METADATA"
    changes: list[tuple[str, Callable[[], None]]] = [
        ("source", lambda: replace_in(project / "sources/demo/rules.md",
                                      "Be the first", "Be the very first")),
        ("template", lambda: replace_in(theme / "rulebook.css", "{", "{ letter-spacing: 0.01em;")),
        ("engine code", lambda: replace_in(project / "engines/demo/rules.py", "\n",
                                           "\n# changed\n")),
        ("font", lambda: shutil.copyfile(theme / "fonts/Carlito-Italic.ttf",
                                         theme / "fonts/Carlito-Regular.ttf")),
        ("rulepress version", lambda: replace_in(version_file, "\nVersion: ",
                                                 "\nVersion: 99.")),
    ]
    out = project / "build"
    assert "wrote 0 files" not in rulepress_in(lib, project, *BUILD)
    again = rulepress_in(lib, project, *BUILD)
    assert "wrote 0 files" in again and "inputs unchanged: demo" in again, again

    with ThreadPoolExecutor(2) as pool:
        for n, (kind, change) in enumerate(changes):
            before = files_of(out)
            change()
            clean = tmp_path / f"clean-{n}"
            incremental = pool.submit(rulepress_in, lib, project, *BUILD)
            rulepress_in(lib, project, *BUILD, "--out", str(clean))
            said = incremental.result()
            after = files_of(out)
            assert after == files_of(clean), f"{kind}: not what a clean build makes"
            wrote = WROTE.search(said)
            assert wrote and int(wrote[1]) > 0, (kind, said)
            manifest = MANIFEST.as_posix()
            assert json.loads(after[manifest]) != json.loads(before[manifest]), kind
            if kind in ("source", "template", "font"):
                assert after["demo/demo-a4.pdf"] != before["demo/demo-a4.pdf"], kind



@pytest.fixture
def game(tmp_path: Path) -> Path:
    """Two games of the tiny engine: 'tiny' and 'other'."""
    sources = tmp_path / "src"
    shutil.copytree(ROOTS / "good", sources)
    shutil.copytree(sources / "tiny", sources / "other")
    replace_in(sources / "other" / "rules.md", "title: Tiny Race", "title: Other Race")
    return sources


def build(sources: Path, out: Path, *more: str) -> str:
    code, err = run(*BUILD, "--sources", str(sources), "--out", str(out), *more)
    assert code == 0, err
    return err


def stamps(out: Path) -> dict[str, int]:
    return {p.relative_to(out).as_posix(): p.stat().st_mtime_ns
            for p in out.rglob("*") if p.is_file()}


def test_unchanged_outputs_are_not_rewritten_and_damaged_ones_are(
        game: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(game, out)
    before = stamps(out)
    assert "wrote 0 files" in build(game, out)
    assert stamps(out) == before
    pdf = out / "tiny" / "tiny-a4.pdf"
    good = pdf.read_bytes()
    pdf.write_bytes(good[:100])  # edited by hand
    (out / "other" / "other.html").unlink()
    said = build(game, out)
    assert "wrote 2 files" in said, said
    assert pdf.read_bytes() == good
    assert (out / "other" / "other.html").is_file()
    assert "wrote 0 files" not in build(game, out, "--force")


def test_building_one_game_keeps_every_game_on_the_index(game: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build(game, out)
    replace_in(game / "tiny" / "rules.md", "Reach square ten", "Reach the tenth square")
    said = build(game, out, "tiny")
    assert "wrote 2 files" in said, said  # its page and its PDF; the index is the same
    index = (out / "index.html").read_text()
    assert 'href="tiny/tiny.html"' in index and 'href="other/other.html"' in index
    shutil.rmtree(game / "other")
    build(game, out, "tiny")
    assert 'href="other/other.html"' not in (out / "index.html").read_text()


def test_no_pdf_writes_the_pages_and_a_later_build_only_the_pdfs(
        game: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    said = build(game, out, "--no-pdf")
    assert not list(out.rglob("*.pdf")), said
    pages = stamps(out)
    said = build(game, out)
    assert "wrote 2 files" in said, said
    assert {n: t for n, t in stamps(out).items() if n in pages and "rulepress" not in n} == \
        {n: t for n, t in pages.items() if "rulepress" not in n}


def test_kits_are_drawn_again_only_when_their_inputs_or_options_change(tmp_path: Path) -> None:
    project = new_project("demo", tmp_path)
    kit = ["pnp", "--project", str(project), "--paper", "a4"]

    def wrote(*more: str) -> int:
        code, err = run(*kit, *more)
        assert code == 0, err
        return int(WROTE.search(err)[1])  # type: ignore[index]

    assert wrote() > 0
    assert wrote() == 0
    assert wrote("--bleed", "2") > 0
    assert wrote("--bleed", "2") == 0
    replace_in(project / "sources/demo/rules.md", "Be the first", "Be the very first")
    assert wrote("--bleed", "2") > 0


@pytest.fixture
def pigeon_race(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A sources folder holding a fresh copy of Pigeon Race, in the same place for every test
    of this worker: the check's memo is keyed by the game's folder, so a test finds there the
    engine answers an earlier one's check left for what it has not changed (each copied to
    a folder of its own checked the whole game cold, playtest samples and all). Its report
    keeps a plain run, the ladder and a duplicate run; no German, whose plots are
    test_plots_language's."""
    src = tmp_path_factory.getbasetemp() / "pigeon-race-sources"
    shutil.rmtree(src, ignore_errors=True)
    race_copy(src, ("playtest", "ladder", "versus"))
    return src


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the playtest plots the check draws from now on, in order (a translation's,
    drawn again in its words and kept in rulepress's cache, are test_plots_language's)."""
    import rulepress.simulate.plots as plots

    names: list[str] = []
    draw = plots.plot

    def counted(summary: object, name: str, **options: Any) -> str:
        if options.get("wording") is None:
            names.append(name)
        return draw(summary, name, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(plots, "plot", counted)
    return names


def test_playtest_plots_are_drawn_again_only_when_their_summary_changes(
        pigeon_race: Path, tmp_path: Path, drawn: list[str]) -> None:
    """A playtest report's plots take a second to draw: an edit to the rules' text reuses those
    in the output folder, a changed summary draws them again, and either way the folder is
    what a clean build makes."""
    src = pigeon_race
    names = ["ends", "ladder", "length", "margins", "win-rates"]  # the ladder's report's too
    every = sorted(names * 2)  # each drawn a page wide and narrow, for a phone

    def built(out: Path) -> list[str]:
        drawn.clear()
        code, err = run("build", "--sources", str(src), "--out", str(out), "--no-pdf",
                        "--edition", "reference")
        assert code == 0, err
        return sorted(drawn)

    out = tmp_path / "out"
    assert built(out) == every
    kept = out / ".rulepress" / "kept" / "pigeon-race"
    assert sorted(p.relative_to(kept).as_posix() for p in kept.rglob("*.svg")) == sorted(
        f"{'ladder' if name == 'ladder' else 'playtest'}/{name}{narrow}.svg"
        for name in names for narrow in ("", "-narrow"))

    replace_in(src / "pigeon-race" / "rules.md", "\n## ", "\nA sentence added.\n\n## ")
    assert built(out) == []
    assert built(tmp_path / "clean-1") == every
    assert files_of(out) == files_of(tmp_path / "clean-1")

    summary = src / "pigeon-race" / "playtest" / "summary.json"
    data = json.loads(summary.read_text(encoding="utf-8"))
    data["tables"][0]["margin"]["histogram"][0][1] += 100  # the margins plot's first bar
    data["tables"][0]["margin"]["histogram"][1][1] -= 100  # as many games as before
    # a changed run, as simulate writes it: figures derived from the records, records sealed
    summary.write_text(json.dumps(sealed(derived(data)), indent=1), encoding="utf-8")
    assert built(out) == [n for n in every if n != "ladder"]  # the ladder's summary is as it was
    assert built(tmp_path / "clean-2") == every
    assert files_of(out) == files_of(tmp_path / "clean-2")
    margins = ".rulepress/kept/pigeon-race/playtest/margins.svg"  # kept by its block's id
    assert files_of(out)[margins] != files_of(tmp_path / "clean-1")[margins]


def test_two_blocks_drawing_the_same_plot_from_two_runs_keep_both(
        pigeon_race: Path, tmp_path: Path, drawn: list[str]) -> None:
    """A second block drawing win rates, from its own run: each block keeps its own, so an
    edit to the prose draws neither again (kept by plot name alone, each overwrote the other
    and both were drawn on every build)."""
    src = pigeon_race
    replace_in(src / "pigeon-race" / "playtest.md", "summary: playtest/versus/summary.json\n",
               "summary: playtest/versus/summary.json\nplots: [win-rates]\n")
    args = ["build", "--sources", str(src), "--out", str(tmp_path / "out"), "--no-pdf",
            "--edition", "reference"]
    code, err = run(*args)
    assert code == 0, err
    assert drawn.count("win-rates") == 4  # two blocks, each a page wide and narrow
    drawn.clear()
    replace_in(src / "pigeon-race" / "rules.md", "\n## ", "\nA sentence added.\n\n## ")
    code, err = run(*args)
    assert code == 0, err
    assert drawn == []


def test_a_kept_plot_is_never_read_through_a_link(pigeon_race: Path, tmp_path: Path) -> None:
    """A kept plot replaced by a link to a file outside the output folder, the manifest made to
    match it, is drawn again: nothing outside the run's own folders reaches the page."""
    src = pigeon_race
    out = tmp_path / "out"
    args = ["build", "--sources", str(src), "--out", str(out), "--no-pdf", "--edition",
            "reference"]
    code, err = run(*args)
    assert code == 0, err
    secret = tmp_path / "secret.svg"
    secret.write_text('<svg xmlns="http://www.w3.org/2000/svg"><title>SECRET</title></svg>')
    name = ".rulepress/kept/pigeon-race/playtest/ends.svg"
    (out / name).unlink()
    (out / name).symlink_to(secret)
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    manifest["units"][name]["files"][name] = hashlib.sha256(secret.read_bytes()).hexdigest()
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    replace_in(src / "pigeon-race" / "rules.md", "\n## ", "\nA sentence added.\n\n## ")
    code, err = run(*args)
    assert code == 0, err
    page = (out / "pigeon-race" / "pigeon-race-reference.html").read_text(encoding="utf-8")
    assert "SECRET" not in page
    assert "How games end" in page
    assert not (out / name).is_symlink()


def test_an_output_folder_copied_in_is_built_again_not_trusted(
        game: Path, tmp_path: Path) -> None:
    """A manifest vouches only for the folder it was written in: a build folder copied in with
    a project (its kept plots and outputs could be anything) is made again, once."""
    out, copy = tmp_path / "out", tmp_path / "copy"
    build(game, out, "--no-pdf")
    assert "wrote 0 files" in build(game, out, "--no-pdf")
    shutil.copytree(out, copy)
    said = build(game, copy, "--no-pdf")
    assert "wrote 0 files" not in said and "unchanged" not in said, said
    assert "wrote 0 files" in build(game, copy, "--no-pdf")
