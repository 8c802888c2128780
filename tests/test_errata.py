"""Versions and errata: `rulepress diff` and `pnp --changed-since` on a small git repository
made here. One ruling, one example's claim and one card's CSV row change; the errata names
exactly those, the reprint kit holds exactly the changed face, identical printings give an
empty errata, and each bad input is one clear error with nothing written."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pypdf
import pytest
from support import run

from rulepress.document.reader import read_document
from rulepress.pnp.kit import build_kit

pytestmark = pytest.mark.slow  # git repositories and builds of two printings

DECK = Path(__file__).parent / "fixtures" / "layouts" / "deck"
GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}

RULES = """---
title: Errata Deck
designer: The rulepress tests
players: {min: 1, max: 4}
duration: 10 minutes
engine: tiny_race
version: "1.0"
date: 2026-11-01
versions:
  - {version: "1.0", date: 2026-11-01, summary: First printing}
licence: {name: CC0, url: ""}
provenance: [{title: Written for the tests, source: tests/test_errata.py}]
components:
  - id: pawn
    name: Pawn
    count: 1
  - id: deck
    name: Suit cards
    size: 63.5mm x 88.9mm
    front: layouts/card.yml
    back: layouts/back.yml
    data: data/cards.csv
  - id: markers
    name: Markers
    size: 20mm x 20mm
    front: layouts/marker.yml
    data:
      - {label: Start, qty: 2}
      - {label: Goal}
---
# Errata Deck

## Quick reference

**Turn.** Play one card, then draw one.

**End.** The game ends when the deck runs out.

## Moving

Move one, two or three squares.

```example
id: three-steps
title: Two moves
setup: {at: 2}
moves: ["+3", "+2"]
claims:
  at: 7
text: |
  From square {{ setup.at }} the pawn reaches square {{ claims.at }}.
```

```example
id: short-hop
title: One hop
setup: {at: 1}
moves: ["+1"]
claims:
  at: 2
text: |
  The pawn hops to square {{ claims.at }}.
```

## Rulings

1. **Ties.** Players who tie share the place.
2. **Passing.** A player who cannot move passes the turn to the left.
3. **Reshuffling.** The discards are never reshuffled.
"""


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, env=GIT_ENV, capture_output=True,
                          text=True, check=True)
    return done.stdout


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (old, path)
    path.write_text(text.replace(old, new, 1))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A project in a git repository, its one game committed and tagged v1.0."""
    project = tmp_path / "project"
    game = project / "sources" / "deck"
    shutil.copytree(DECK, game)
    (game / "rules.md").write_text(RULES)
    (project / "rulepress.toml").write_text('title = "Errata tests"\n')
    git(project, "init", "-q", "-b", "main")
    git(project, "add", "-A")
    git(project, "commit", "-qm", "1.0")
    git(project, "tag", "v1.0")
    return project


def correct(project: Path) -> None:
    """Version 1.1: one ruling, one example's claim (its move too, so it stays proven) and one
    card's row change."""
    rules = project / "sources" / "deck" / "rules.md"
    edit(rules, "passes the turn to the left.", "passes the turn to the right.")
    edit(rules, 'moves: ["+3", "+2"]\nclaims:\n  at: 7', 'moves: ["+3", "+3"]\nclaims:\n  at: 8')
    edit(rules, 'version: "1.0"\ndate: 2026-11-01', 'version: "1.1"\ndate: 2026-11-27')
    edit(rules, "summary: First printing}",
         "summary: First printing}\n  - {version: \"1.1\", summary: Passing goes right}")
    edit(project / "sources" / "deck" / "data" / "cards.csv", "Steals one card.",
         "Steals two cards.")


def errata(project: Path, old: str = "v1.0", new: str = "v1.1") -> Path:
    return project / "build" / "deck" / "errata" / f"deck-errata-{old}-{new}.html"


def pdf_text(path: Path) -> tuple[int, str]:
    reader = pypdf.PdfReader(io.BytesIO(path.read_bytes()))
    return len(reader.pages), " ".join(" ".join(p.extract_text() or "" for p in reader.pages)
                                       .split())


def changes(page: str, kind: str) -> list[str]:
    """The headings of the changes listed in one part of the sheet (rules, examples ...)."""
    part = re.search(rf'<section aria-labelledby="{kind}">(.*?)</section>', page, re.S)
    return re.findall(r"<h3[^>]*>(.*?)</h3>", part[1]) if part else []


def test_the_errata_names_exactly_what_changed(repo: Path) -> None:
    correct(repo)
    code, err = run("diff", "v1.0", "--project", str(repo))
    assert code == 0, err
    page = errata(repo).read_text()
    assert changes(page, "rules") == ["Rulings: Passing (changed)"]
    assert changes(page, "examples") == ["Two moves (changed)"]
    assert changes(page, "components") == ["Suit cards (changed)"]
    assert '<del class="was">left.</del>' in page and '<ins class="now">right.</ins>' in page
    assert "front of row 2 (K)" in page and page.count("<img") == 2  # old and new, drawn small
    for unchanged in ("Ties", "Reshuffling", "Play one card", "One hop", "Markers"):
        assert unchanged not in page, unchanged
    # Both printings proven, each by its own check: the old claim and the new one.
    examples = page[page.index('id="examples"'):page.index('id="components"')]
    assert "at = 7" in examples and "at = 8" in examples
    assert examples.count("Proven by this printing") == 2
    for paper in ("a4", "letter"):
        pages, text = pdf_text(errata(repo).with_name(f"deck-errata-v1.0-v1.1-{paper}.pdf"))
        assert pages >= 3 and "In plain words" in text and "Passing" in text
        assert "Version 1.1, 2026-11-27" in text  # the cover and every page's foot


def test_the_reprint_kit_holds_exactly_the_changed_face(repo: Path) -> None:
    correct(repo)
    code, err = run("pnp", "deck", "--changed-since", "v1.0", "--paper", "a4",
                    "--project", str(repo))
    assert code == 0, err
    kit = repo / "pnp" / "deck" / "deck-a4-changed-since-v1.0.pdf"
    pages, text = pdf_text(kit)
    assert "Steals two cards." in text and "faces changed since v1.0" in text
    for other in ("Leads every trick", "Start", "Goal"):
        assert other not in text, other
    # The cover's two pages and one sheet of fronts with its backs: one card, its back.
    assert pages == 4 and text.count("Steals two cards.") == 1
    assert sorted(p.name for p in kit.parent.iterdir()) == [kit.name]


def test_a_face_changed_only_in_its_version_stamp_is_not_changed(repo: Path) -> None:
    rules = repo / "sources" / "deck" / "rules.md"
    edit(rules, 'version: "1.0"', 'version: "1.1"')
    edit(rules, "summary: First printing}", 'summary: First printing}\n'
                                           '  - {version: "1.1", summary: Reprint}')
    code, err = run("diff", "v1.0", "--project", str(repo))
    assert code == 0, err
    page = errata(repo).read_text()
    assert "Nothing changed" in page and "<img" not in page
    code, err = run("pnp", "deck", "--changed-since", "v1.0", "--project", str(repo))
    assert code == 0, err
    assert not (repo / "pnp" / "deck").exists()


def test_identical_revisions_give_an_empty_errata_that_says_so(repo: Path) -> None:
    code, err = run("diff", "v1.0", "HEAD", "deck", "--project", str(repo))
    assert code == 0, err
    page = errata(repo, "v1.0", "HEAD").read_text()
    assert "Nothing changed" in page and "There are no errata" in page
    assert not changes(page, "rules") and not changes(page, "components")


def test_two_project_folders_compare_as_revisions_do(repo: Path, tmp_path: Path) -> None:
    old = tmp_path / "old"
    shutil.copytree(repo, old, ignore=shutil.ignore_patterns(".git"))
    correct(repo)
    code, err = run("diff", str(old), str(repo), "--project", str(repo))
    assert code == 0, err
    pages = list((repo / "build" / "deck" / "errata").glob("*.html"))
    assert len(pages) == 1 and changes(pages[0].read_text(), "rules") == [
        "Rulings: Passing (changed)"]


def nothing_written(project: Path) -> bool:
    return not (project / "build").exists() and not (project / "pnp").exists()


def test_an_unknown_revision_is_an_error(repo: Path) -> None:
    code, err = run("diff", "v9.9", "--project", str(repo))
    assert code == 2 and nothing_written(repo)
    assert err.strip().splitlines()[-1].startswith("rulepress: error: unknown revision 'v9.9'")
    code, err = run("diff", "v1.0", "dekc", "--project", str(repo))
    assert code == 2 and nothing_written(repo)
    assert "unknown revision 'dekc'" in err and "nor is it a game of sources/ (deck)" in err
    code, err = run("pnp", "--changed-since", "--force", "--project", str(repo))
    assert code == 2 and "unknown revision '--force'" in err and nothing_written(repo)


def test_a_game_missing_from_the_old_revision_is_an_error(repo: Path) -> None:
    shutil.copytree(repo / "sources" / "deck", repo / "sources" / "second")
    code, err = run("diff", "v1.0", "second", "--project", str(repo))
    assert code == 2 and nothing_written(repo)
    assert "game 'second' does not exist in v1.0 (sources/ there holds deck)" in err


def test_an_old_revision_failing_its_check_cannot_be_proven(repo: Path) -> None:
    rules = repo / "sources" / "deck" / "rules.md"
    edit(rules, "claims:\n  at: 2", "claims:\n  at: 3")  # disproved by the engine
    git(repo, "commit", "-qam", "broken")
    git(repo, "tag", "broken")
    edit(rules, "claims:\n  at: 3", "claims:\n  at: 2")
    code, err = run("diff", "broken", "-q", "--project", str(repo))
    assert code == 2 and nothing_written(repo)
    errors = [ln for ln in err.strip().splitlines() if ": error: " in ln]
    assert errors[0].startswith("broken:sources/deck/rules.md:")  # the file in that revision
    assert "short-hop" in errors[0]
    assert err.strip().splitlines()[-1].startswith(
        "rulepress: warning: the errata cannot be proven: broken fails its own check")


def test_a_dirty_tree_is_an_error_when_new_is_named(repo: Path) -> None:
    correct(repo)
    code, err = run("diff", "v1.0", "HEAD", "--project", str(repo))
    assert code == 2 and nothing_written(repo)
    assert "uncommitted changes under sources/ (sources/deck/data/cards.csv and 1 more)" in err


def test_not_a_repository_is_an_error(tmp_path: Path) -> None:
    project = tmp_path / "plain"
    shutil.copytree(DECK, project / "sources" / "deck")
    (project / "sources" / "deck" / "rules.md").write_text(RULES)
    (project / "rulepress.toml").write_text("")
    code, err = run("diff", "v1.0", "--project", str(project))
    assert code == 2 and nothing_written(project)
    assert "'v1.0' is neither a folder nor a revision" in err


def test_the_version_is_on_the_covers_and_every_front(repo: Path) -> None:
    code, err = run("build", "--no-pdf", "--project", str(repo))
    assert code == 0, err
    player = (repo / "build" / "deck" / "deck.html").read_text()
    reference = (repo / "build" / "deck" / "deck-reference.html").read_text()
    assert '<p class="cover-version">Version 1.0, 2026-11-01</p>' in player
    assert "Changelog" not in player and 'id="rp-changelog"' in reference
    assert "Version 1.0, 2026-11-01</dt><dd>First printing" in reference
    doc = read_document(repo / "sources" / "deck" / "rules.md")
    _, text = pdf_text_of(build_kit(doc, {}, "a4").pdf)
    # One stamp per deck card's front (4); a marker's ring crosses every corner's stamp box, so
    # its 3 fronts carry none rather than one printed over the ring; no back carries one.
    assert text.count("v1.0") == 4


def pdf_text_of(data: bytes) -> tuple[int, str]:
    reader = pypdf.PdfReader(io.BytesIO(data))
    return len(reader.pages), " ".join(p.extract_text() or "" for p in reader.pages)


def test_the_changelog_says_what_changed_when_asked(repo: Path) -> None:
    correct(repo)
    code, err = run("build", "--no-pdf", "--edition", "reference", "--changelog-since", "v1.0",
                    "--project", str(repo))
    assert code == 0, err
    page = (repo / "build" / "deck" / "deck-reference.html").read_text()
    log = page[page.index('id="rp-changelog"'):page.index('id="rp-credits"')]
    assert log.index("Version 1.1") < log.index("Version 1.0")  # newest first
    assert "Rulings: in “Passing”, “left.” becomes “right.”" in log
    assert "The worked example “Two moves” is corrected." in log
    assert "Suit cards: 1 face redrawn." in log


@pytest.mark.parametrize("width", [1280, 375])
def test_the_errata_page_passes_in_a_browser(repo: Path, browser: Any, width: int) -> None:
    """axe-core finds nothing, nothing reaches the network and nothing is wider than a phone."""
    from axe_playwright_python.base import AXE_SCRIPT

    correct(repo)
    code, err = run("diff", "v1.0", "--project", str(repo))
    assert code == 0, err
    context = browser.new_context(viewport={"width": width, "height": 900})
    fetched: list[str] = []
    context.route("http*://**", lambda route: (fetched.append(route.request.url),
                                               route.abort()))
    page = context.new_page()
    try:
        page.goto(errata(repo).as_uri(), wait_until="load")
        page.evaluate(str(AXE_SCRIPT))
        violations = page.evaluate(
            "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations)")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth")
    finally:
        context.close()
    assert not violations, [(v["id"], [n["target"] for n in v["nodes"][:3]]) for v in violations]
    assert not fetched and overflow <= 0


def test_an_old_revision_naming_sources_outside_the_project_is_refused(
        repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    shutil.copytree(repo / "sources", outside)
    edit(outside / "deck" / "rules.md", "Players who tie share the place.",
         "Players who tie read the secret.")
    (repo / "rulepress.toml").write_text(f'title = "Errata tests"\nsources = "{outside}"\n')
    git(repo, "commit", "-qam", "sources elsewhere")
    git(repo, "tag", "outside")
    (repo / "rulepress.toml").write_text('title = "Errata tests"\n')
    code, err = run("diff", "outside", "--project", str(repo))
    assert code == 2 and nothing_written(repo)
    assert err.strip().splitlines()[-1] == (
        f"rulepress: error: revision 'outside': its rulepress.toml line 2 names sources = "
        f"\"{outside}\", outside the project: a revision's sources are read from what git "
        "holds of it")
    assert "secret" not in err


def test_an_old_revisions_size_is_known_before_it_is_read(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rulepress.errata import revisions
    from rulepress.limits import MAX_READ_BYTES

    big = repo / "sources" / "deck" / "images" / "huge.bin"
    big.parent.mkdir(exist_ok=True)
    with big.open("wb") as fh:  # past any read of a game's file: never an input, left out
        fh.truncate(MAX_READ_BYTES + 1)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a huge file")
    git(repo, "tag", "huge")
    big.unlink()
    git(repo, "commit", "-qam", "gone")
    code, err = run("diff", "huge", "-q", "--project", str(repo))
    assert code == 0, err
    monkeypatch.setattr(revisions, "MAX_REVISION_BYTES", 1000)
    code, err = run("diff", "huge", "-q", "--project", str(repo))
    commit = git(repo, "rev-parse", "huge").strip()[:12]
    assert code == 2 and err.strip().splitlines()[-1].startswith(
        f"rulepress: error: revision {commit}: its project's files are ")
    assert err.strip().endswith("bytes, more than the limit of 1,000 for a revision read")
