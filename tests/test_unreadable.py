"""A file of a game that the user may not read (copied from another account, a broken unpack)
is an error at its own path, exit 2, with no traceback and nothing written.

Root reads every file whatever its mode, so as root the command runs without the capabilities
that let it (setpriv, from util-linux).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the CLI in subprocesses

FIXTURES = Path(__file__).parent / "fixtures"
DECK = FIXTURES / "layouts" / "deck"
AS_USER = ["setpriv", "--inh-caps=-dac_override,-dac_read_search",
           "--bounding-set=-dac_override,-dac_read_search"] if os.geteuid() == 0 else []


def rulepress(cwd: Path, *args: str) -> tuple[int, str]:
    done = subprocess.run([*AS_USER, sys.executable, "-m", "rulepress.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stderr


@pytest.mark.parametrize(("name", "where", "says"), [
    ("data/cards.csv", "data/cards.csv:1:1", "cannot read: Permission denied"),
    ("layouts/card.yml", "layouts/card.yml:1:1", "cannot read: Permission denied"),
    ("images/stamp.png", "layouts/card.yml:", "image 'images/stamp.png' cannot be read: "
                                              "Permission denied"),
])
def test_an_unreadable_data_layout_or_image_file_is_an_error_at_its_line(
    tmp_path: Path, name: str, where: str, says: str
) -> None:
    game = tmp_path / "sources" / "deck"
    shutil.copytree(DECK, game)
    (game / name).chmod(0)
    out = tmp_path / "out"
    code, err = rulepress(tmp_path, "pnp", "--sources", str(game.parent), "--out", str(out),
                          "--paper", "a4")
    assert code == 2, err
    assert f"{game}/{where}" in err and says in err, err
    assert not out.exists()


def test_an_unreadable_engine_module_is_an_error_at_the_engine_line(scaffolded: Path,
                                                                    tmp_path: Path) -> None:
    project = tmp_path / "pig-dice"
    shutil.copytree(scaffolded, project)
    (project / "engines" / "pig_dice" / "__init__.py").chmod(0)
    code, err = rulepress(project, "check")
    assert code == 2, err
    rules = project / "sources" / "pig-dice" / "rules.md"
    assert (f"{rules}:7:1: error: engine module 'engines/pig_dice/__init__.py' cannot be read: "
            "Permission denied") in err, err


def test_an_unreadable_templates_folder_is_an_error_at_the_template(scaffolded: Path,
                                                                     tmp_path: Path) -> None:
    project = tmp_path / "pig-dice"
    shutil.copytree(scaffolded, project)
    templates = project / "sources" / "pig-dice" / "templates"
    templates.mkdir()
    (templates / "print.css").write_text("body { color: black; }\n")
    templates.chmod(0)
    code, err = rulepress(project, "build", "--no-pdf")
    assert code == 2, err
    assert f"{templates}/example.html.j2:1:1: error: template: 'example.html.j2' cannot be read: " \
           "Permission denied\n" in err, err
    assert not (project / "build").exists()


def test_an_unreadable_sources_folder_says_so(tmp_path: Path) -> None:
    sources = tmp_path / "sources"
    shutil.copytree(DECK, sources / "deck")
    sources.chmod(0o300)  # may enter, may not list; the project's own (--sources is click's)
    code, err = rulepress(tmp_path, "check")
    assert code == 2, err
    assert f"error: sources folder '{sources}' cannot be read: Permission denied" in err, err
