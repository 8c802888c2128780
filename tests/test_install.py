"""rulepress installed from a wheel works from any folder: its theme, fonts, scaffold and
bundled engines travel inside the package, with no environment variable and no checkout."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

pytestmark = pytest.mark.slow  # a venv and a wheel built in subprocesses

ROOT = Path(__file__).resolve().parents[1]


def build_wheel(tmp: Path) -> Path:
    """A wheel of this checkout, built from a copy as `make wheel` does."""
    # What the wheel is made of: the package (its theme is a link to templates/) and its metadata.
    shutil.copytree(ROOT / "src", tmp / "src" / "src", symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    shutil.copytree(ROOT / "templates", tmp / "src" / "templates")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, tmp / "src" / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                    "--no-build-isolation", "-w", str(tmp / "dist"), str(tmp / "src")],
                   check=True, capture_output=True)
    (wheel,) = (tmp / "dist").glob("rulepress-*.whl")
    return wheel


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel of this checkout, installed into a folder of its own."""
    tmp = tmp_path_factory.mktemp("wheel")
    wheel = build_wheel(tmp)
    site = tmp / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(site), str(wheel)], check=True, capture_output=True)
    return site


def rulepress(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RULEPRESS")}
    env["PYTHONPATH"] = str(site)
    return subprocess.run([sys.executable, "-m", "rulepress.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True)


def test_the_wheel_carries_theme_fonts_and_scaffold(installed: Path, tmp_path: Path) -> None:
    probe = ("import rulepress, rulepress.paths as p; print(rulepress.__file__); "
             "print(p.templates_dir())")
    env = {**os.environ, "PYTHONPATH": str(installed)}
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    assert all(Path(line).is_relative_to(installed) for line in out), out
    theme = Path(out[1])
    assert {"rulebook.html.j2", "print.css", "fonts"} <= {p.name for p in theme.iterdir()}
    assert (theme / "fonts" / "Carlito-Regular.ttf").stat().st_size > 100_000
    # The PDF/X output profile and its licence, beside the export code.
    icc = Path(out[0]).parent / "press" / "icc"
    assert (icc / "rulepress-FOGRA39L.icc").read_bytes()[12:20] == b"prtrCMYK"
    assert "zlib" in (icc / "README-FOGRA39L.txt").read_text()


def test_an_installed_rulepress_builds_a_bundled_game_from_any_folder(
    installed: Path, tmp_path: Path
) -> None:
    shutil.copytree(ROOT / "sources" / "pigeon", tmp_path / "games" / "pigeon")
    done = rulepress(installed, tmp_path, "build", "pigeon", "--sources", "games", "--out",
                     "books", "--paper", "a4", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    pdf = PdfReader(tmp_path / "books" / "pigeon" / "pigeon-a4.pdf")
    assert len(pdf.pages) > 4
    assert "Pigeon" in pdf.pages[0].extract_text()
    fonts = {str(f.get("/BaseFont", "")) for page in pdf.pages[:3]
             for f in page["/Resources"]["/Font"].values()}
    assert any("Carlito" in name for name in fonts), fonts


def test_an_installed_rulepress_scaffolds_a_project_that_proves(
    installed: Path, tmp_path: Path
) -> None:
    assert rulepress(installed, tmp_path, "new", "cards").returncode == 0
    done = rulepress(installed, tmp_path / "cards", "check")
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().endswith("2 proven, 0 failed, 0 not checkable")


def readme_install_lines() -> list[str]:
    """The README's lines that install rulepress into a venv of one's own: its one ``sh``
    block that installs the lock."""
    blocks = re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    (block,) = [b for b in blocks if "--require-hashes" in b]
    return [line for line in block.splitlines() if line.strip()]


@pytest.mark.slow
def test_the_readmes_install_lines_work_with_the_pip_python_3_11_ships(tmp_path: Path
                                                                      ) -> None:
    """As the README tells a designer, word for word: a venv made by ``python3.11 -m venv``
    (its bundled pip, not upgraded), the lock with its hashes and its dependencies (no
    --no-deps), then the wheel; then `rulepress new`, `check` and `build` by name from her own
    folder. Needs python3.11 and the package index."""
    found = shutil.which("python3.11")
    assert found, "this test needs python3.11 on PATH: the README's lines are for its pip"
    python = subprocess.run([found, "-c", "import sys; print(sys.executable)"], check=True,
                            capture_output=True, text=True).stdout.strip()
    bundled = subprocess.run([python, "-c", "import ensurepip; print(ensurepip.version())"],
                             check=True, capture_output=True, text=True).stdout.strip()
    # Her checkout: the lock and the wheel `make wheel` leaves in dist/; `python3` is 3.11.
    checkout, home, tools = tmp_path / "checkout", tmp_path / "home", tmp_path / "tools"
    for folder in (checkout / "dist", home, tools):
        folder.mkdir(parents=True)
    shutil.copy(ROOT / "requirements.lock", checkout)
    wheel = build_wheel(tmp_path / "wheel")
    shutil.copy(wheel, checkout / "dist")
    (tools / "python3").symlink_to(python)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("RULEPRESS", "PYTHON", "VIRTUAL_ENV"))}
    env |= {"HOME": str(home), "PATH": f"{tools}{os.pathsep}/usr/bin:/bin"}
    lines = readme_install_lines()
    assert len(lines) == 3 and f"dist/{wheel.name}" in lines[2], lines
    for line in lines:
        done = subprocess.run(line, shell=True, cwd=checkout, env=env, capture_output=True,
                              text=True)
        assert done.returncode == 0, f"{line}\n{done.stderr}"
    venv = home / "rulepress"
    pip = subprocess.run([str(venv / "bin" / "pip"), "--version"], check=True,
                         capture_output=True, text=True).stdout
    assert pip.startswith(f"pip {bundled} "), (pip, bundled)  # the pip 3.11 ships, as it is
    checked = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "check"],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout  # the wheel's requirements are all met
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}/usr/bin:/bin"
    assert shutil.which("rulepress", path=env["PATH"]) == str(venv / "bin" / "rulepress")

    def run(cwd: Path, *args: str) -> str:
        done = subprocess.run(["rulepress", *args], cwd=cwd, env=env, capture_output=True,
                              text=True)
        assert done.returncode == 0, done.stderr
        return done.stderr

    run(tmp_path, "new", "dice")
    assert run(tmp_path / "dice", "check").strip().endswith("2 proven, 0 failed, 0 not checkable")
    run(tmp_path / "dice", "build", "--paper", "a4", "--jobs", "1")
    (pdf,) = (tmp_path / "dice" / "build").glob("*/dice-a4.pdf")
    book = PdfReader(pdf)
    assert len(book.pages) >= 1 and "Dice" in book.pages[0].extract_text()
