"""The bundled games' own questions, through simulate, checked against what the rules imply."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulepress.cli import main

pytestmark = pytest.mark.slow  # rulepress simulate end to end on every bundled game


def run(tmp_path: Path, *args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["simulate", *args, "--out", str(tmp_path), "-q"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads((tmp_path / "summary.json").read_text())
    return data


def test_pigeon_greedy_forces_only_when_forced(tmp_path: Path) -> None:
    """The greedy agent plays a Forceplay only when nothing else is legal, so the Forceplays a
    game sees are exactly its turns with nothing but Forceplays."""
    data = run(tmp_path, "pigeon", "-n", "60", "-a", "greedy")
    assert list(data["questions"]) == ["forced", "forced_turns", "forceplays"]
    table = data["tables"][0]
    q = table["questions"]
    assert q["forced_turns"]["histogram"] == q["forceplays"]["histogram"]
    forced_games = sum(c for v, c in q["forced_turns"]["histogram"] if v > 0)
    assert q["forced"]["count"] == forced_games and q["forced"]["of"] == 60
    assert set(table["ends"]) <= {"drew the last card of their deck",
                                  "the opponent had no legal move"}


def test_pigeon_race_questions_agree_with_how_races_end(tmp_path: Path) -> None:
    data = run(tmp_path, "pigeon-race", "-n", "80", "-p", "2,4")
    assert data["questions"]["tie_break"]["kind"] == "rate"
    for table in data["tables"]:
        q = table["questions"]
        deck_out = table["ends"]["deck empty"]["count"]
        assert 0 < deck_out < 80
        home = q["home_at_deck_end"]
        assert home["n"] == deck_out and {v for v, _ in home["histogram"]} <= {0, 1, 2}
        # A tie on points is what the tie-break settles; a shared win is a tie it left.
        assert q["tie_break"]["count"] >= table["shared_wins"]["count"]
        assert q["tie_break"]["of"] == 80
        assert q["last_card_won"]["of"] == deck_out


def test_go_stop_asks_about_go_only_in_hands_where_someone_said_it(tmp_path: Path) -> None:
    data = run(tmp_path, "go-stop", "-n", "300", "-p", "2", "-a", "greedy")
    table = data["tables"][0]
    q = table["questions"]
    with_go = sum(c for v, c in q["gos"]["histogram"] if v > 0)
    assert 0 < with_go < 300 and q["go_paid"]["of"] == with_go
    assert 0 <= q["go_paid"]["count"] <= with_go
    assert q["redealt"]["of"] == 300
    assert set(table["ends"]) <= {"a player stops", "the stock runs out: nagari",
                                  "four of a number in a hand"}
    assert table["draws"]["count"] == table["ends"].get("the stock runs out: nagari",
                                                        {"count": 0})["count"]


def test_worm_derby_races_last_longer_on_a_longer_course(tmp_path: Path) -> None:
    data = run(tmp_path, "worm-derby", "-n", "40", "-a", "goal", "--variant", "basic,basic-6ft")
    short, long = data["tables"]
    assert (short["key"], long["key"]) == ("2-basic", "2-basic-6ft")
    assert long["turns"]["ci"][0] > short["turns"]["ci"][1]
