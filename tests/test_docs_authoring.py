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


def test_every_limit_is_documented_with_its_value() -> None:
    from rulepress import limits

    section = DOC.read_text().split("## Limits", 1)[1]
    rows = {m[0]: m[1] for m in re.findall(r"^\| `([A-Z_]+)` \| ([^|]+) \|", section, re.M)}
    names = {n: v for n, v in vars(limits).items() if n.isupper()}
    assert set(rows) == set(names)
    for name, value in names.items():
        shown = rows[name].split()[0].replace(",", "")
        assert float(shown) == value, (name, rows[name], value)
