"""rulepress installed from a wheel works from any folder: its theme, fonts, scaffold and
bundled engines travel inside the package, with no environment variable and no checkout."""

from __future__ import annotations

import os
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


def test_the_wheel_in_a_fresh_venv_puts_rulepress_on_path(tmp_path: Path) -> None:
    """As the README tells a designer: the wheel and the lock into a venv of her own, then
    `rulepress new`, `check` and `build` by name from her own folder."""
    wheel = build_wheel(tmp_path)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    got = subprocess.run([*pip, "--require-hashes", "--no-deps", "-r",
                          str(ROOT / "requirements.lock")], capture_output=True, text=True)
    assert got.returncode == 0, f"cannot install the lock from the package index: {got.stderr}"
    subprocess.run([*pip, "--no-deps", str(wheel)], check=True, capture_output=True)
    checked = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "check"],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout  # the wheel's requirements are all met
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("RULEPRESS", "PYTHON", "VIRTUAL_ENV"))}
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
