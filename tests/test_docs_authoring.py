"""The minimal game in docs/authoring.md reads and checks as the page says it does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulepress.cli import main

pytestmark = pytest.mark.slow  # the CLI on the documented game, its deck built

DOC = Path(__file__).parents[1] / "docs" / "authoring.md"


def minimal_game() -> str:
    text = DOC.read_text()
    blocks = re.findall(r"^````markdown\n(.*?)^````$", text, re.M | re.S)
    assert blocks, "authoring.md has no complete example"
    return str(blocks[0])


def test_minimal_game_checks_with_one_not_checkable_example(tmp_path: Path) -> None:
    game = tmp_path / "coin-race"
    game.mkdir()
    (game / "rules.md").write_text(minimal_game())
    result = CliRunner().invoke(main, ["check", "--sources", str(tmp_path)])
    assert result.exit_code == 0, result.stderr
    assert "first-flick: not checkable" in result.stderr
    assert "0 proven, 0 failed, 1 not checkable" in result.stderr


def test_every_project_key_is_documented_and_no_other() -> None:
    from rulepress.project import _KEYS

    text = DOC.read_text()
    table = text[text.index("### The project file"): text.index("## A complete minimal game")]
    documented = re.findall(r"^\| `([a-z_]+)` \|", table, re.M)
    assert documented == list(_KEYS)


def test_the_walkthrough_happens_as_the_page_says(tmp_path: Path) -> None:
    """`rulepress new pig`, then the claim the page changes, answered as the page quotes."""
    import os

    text = DOC.read_text()
    before = Path.cwd()
    os.chdir(tmp_path)
    try:
        assert CliRunner().invoke(main, ["new", "pig"]).exit_code == 0
    finally:
        os.chdir(before)
    rules = tmp_path / "pig" / "sources" / "pig" / "rules.md"
    old, new = re.search(r"\(`banked: (\[.*?\])` to `(\[.*?\])`\)", text).groups()  # type: ignore[union-attr]
    rules.write_text(rules.read_text().replace(f"banked: {old}", f"banked: {new}"))
    quoted = re.search(r"answers `(rules\.md:.*?)`,", text, re.S)[1]  # type: ignore[index]
    result = CliRunner().invoke(main, ["check", "--project", str(tmp_path / "pig")])
    assert result.exit_code == 1
    assert " ".join(quoted.split()) in result.stderr


def deck_files() -> dict[str, str]:
    """The example deck of the layouts section: each fence captioned with its file name."""
    text = DOC.read_text()
    section = text[text.index("### Components drawn from data"): text.index("## The rules text")]
    found = re.findall(r"^```\w+ (\S+)\n(.*?)^```$", section, re.M | re.S)
    return {name: body for name, body in found}


def test_the_example_deck_builds_as_the_page_says(tmp_path: Path) -> None:
    import io

    import pypdf

    files = deck_files()
    assert {"rules.md", "data/omens.csv", "layouts/omen.yml", "layouts/back.yml",
            "layouts/aid.yml", "images/eye.svg"} <= set(files)
    game = tmp_path / "sources" / "omens"
    for name, body in files.items():
        (game / name).parent.mkdir(parents=True, exist_ok=True)
        (game / name).write_text(body)
    sources = str(tmp_path / "sources")
    result = CliRunner().invoke(main, ["check", "--sources", sources])
    assert result.exit_code == 0, result.stderr
    out = tmp_path / "pnp"
    result = CliRunner().invoke(main, ["pnp", "--sources", sources, "--out", str(out),
                                       "--paper", "a4"])
    assert result.exit_code == 0, result.stderr
    reader = pypdf.PdfReader(io.BytesIO((out / "omens" / "omens-a4.pdf").read_bytes()))
    words = " ".join(" ".join(p.extract_text() for p in reader.pages).split())
    assert "Omen cards 7 63.5 x 88.9 mm front and back" in words  # counted from the rows
    for said in ("Take one card from the player on your left.", "you too",
                 "Reveal an omen and do what it says."):
        assert said in words
    text = DOC.read_text()
    assert "seven cards (2 + 1 + 4), three distinct faces" in text


def test_every_limit_is_documented_with_its_value() -> None:
    from rulepress import limits

    section = DOC.read_text().split("## Limits", 1)[1]
    rows = {m[0]: m[1] for m in re.findall(r"^\| `([A-Z_]+)` \| ([^|]+) \|", section, re.M)}
    names = {n: v for n, v in vars(limits).items() if n.isupper()}
    assert set(rows) == set(names)
    for name, value in names.items():
        shown = rows[name].split()[0].replace(",", "")
        assert float(shown) == value, (name, rows[name], value)
