"""The minimal game in docs/authoring.md reads and checks as the page says it does."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from rulepress.cli import main

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
