"""Go-Stop: rules the book states in words that no worked example shows, on the engine."""

from __future__ import annotations

import re
from pathlib import Path

from games.go_stop.test_helpers import m, play, two

from rulepress.games.go_stop.cards import BRIGHTS, cards_in, mask_of, parse_card, points_of
from rulepress.games.go_stop.rules import (
    ANIMAL_RESERVE_AT,
    DECIDE,
    NAGARI,
    OVER,
    PLAY,
    THRESHOLD,
)

SEVEN = m("01A", "03A", "11A", "04B+", "05B", "06B", "07B", "09B", "10B", "12B")  # 6 points


def test_go_is_allowed_on_your_own_last_turn_while_the_stock_lasts() -> None:
    # Player one's last card, but player two still has a turn: go or stop.
    s = two(m("08A"), m("02Da"), m("08Da"), ["06Da", "05Da"], stores=(SEVEN, 0))
    s = play(s, "08A")
    assert s.phase == DECIDE and [str(x) for x in s.legal_moves()] == ["go", "stop"]
    s = play(s, "go", "02Da")
    # Player one never gets another turn: the game ends without a winner.
    assert (s.phase, s.result, s.winner) == (OVER, NAGARI, -1)


def test_empty_row_counts_on_the_last_turn_too() -> None:
    s = two(m("09C"), 0, m("09B", "04Da"), ["04Db"], stores=(0, m("06Da")))
    s = play(s, "09C")
    assert s.row == 0 and s.stores[0] & m("06Da") and s.stores[1] == 0
    assert s.result == NAGARI


def test_a_drawn_fourth_card_takes_your_own_column_with_its_bonus() -> None:
    s = two(m("02Da"), m("03Da"), m("06B", "06C", "06Da"), ["06Db", "05Da"],
            owners=(-1,) * 5 + (0,) + (-1,) * 6, tokens=(6, 0),
            stores=(0, m("01Da", "01Db", "11D+")))
    s = play(s, "02Da")
    assert s.stores[0] == m("06B", "06C", "06Da", "06Db", "01Da", "01Db")
    assert s.tokens[0] == 0 and s.owners[5] == -1


def test_a_drawn_fourth_card_takes_a_dealt_group_as_three_for_one() -> None:
    s = two(m("02Da"), m("03Da"), m("06B", "06C", "06Da"), ["06Db", "05Da"],
            stores=(0, m("01Da", "01Db")))
    s = play(s, "02Da")
    assert s.stores[0] == m("06B", "06C", "06Da", "06Db", "01Da")


def test_go_and_stop_only_when_a_decision_is_due() -> None:
    s = two(m("04Da"), m("02Da"), m("12A"), ["05Da", "06Da"], stores=(SEVEN, 0))
    assert "go" not in [str(x) for x in s.legal_moves()]
    s = play(s, "04Da")
    assert s.phase == PLAY and s.to_move == 1


def test_final_score_doubles_once_per_reserve_card() -> None:
    every_animal = m("02B+", "04B+", "08B+", "05B", "06B", "07B", "09B", "10B", "12B")  # 5 + 5
    s = two(0, 0, 0, [], stores=(every_animal, 0), gos=(2, 0), reserves=(3, 0))
    assert s.final_score(0) == (10 + 2) * 8


# --- the book's quick reference against the engine ----------------------------------------------

SOURCE = Path(__file__).parents[3] / "sources" / "go-stop" / "rules.md"


def quick_reference() -> dict[str, str]:
    text = SOURCE.read_text("utf-8")
    section = text.split("## Quick reference", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (.+?) \| (.+?) \|$", section, re.M)
    return {k: v for k, v in rows if not set(k) <= {"-", " "}}


def test_quick_reference_card_points_match_the_engine() -> None:
    qr = quick_reference()
    brights = cards_in(BRIGHTS)
    for n, pts in re.findall(r"(\d) brights: (\d+)", qr["Brights (A)"]):
        assert points_of(mask_of(brights[: int(n)])).brights == int(pts)
    assert qr["Animals (B and B+)"].startswith("5 animals: 1, plus 1 for each")
    animals = [parse_card(t) for t in ("02B+", "04B+", "05B", "06B", "07B", "08B+", "09B")]
    assert [points_of(mask_of(animals[:k])).animals for k in (4, 5, 6, 7)] == [0, 1, 2, 3]
    assert qr["Birds (all three B+)"].startswith("5,")
    assert points_of(m("02B+", "04B+", "08B+")).birds == 5
    assert qr["Ribbon sets"].startswith("3 for each complete set")
    assert points_of(m("01C+", "02C+", "03C+", "06C", "09C", "10C")).ribbon_sets == 6
    assert qr["Ribbons (all C, including C−−)"].startswith("5 ribbons: 1, plus 1 for each")
    assert points_of(m("01C+", "02C+", "06C", "04C-", "12C--")).ribbons == 1
    assert qr["Junk (D; D+ counts 2)"].startswith("10 junk: 1, plus 1 for each")
    junk = ("01Da", "01Db", "02Da", "02Db", "03Da", "03Db", "04Da", "04Db", "11D+")
    assert points_of(m(*junk)).junk == 1 and points_of(m(*junk[:-1])).junk == 0


def test_quick_reference_rewards_match_the_engine() -> None:
    qr = quick_reference()
    assert qr["Taking your own three-card column"] == "2 junk from each other player"
    assert qr["Taking another's three-card column"] == "1 junk from each other player"
    assert ANIMAL_RESERVE_AT == 8 and "Eighth animal (first time)" in qr
    text = SOURCE.read_text("utf-8")
    assert (f"Threshold: {THRESHOLD[2]} points with two players, {THRESHOLD[3]} with three"
            in " ".join(text.split()))


def test_four_of_a_number_counts_the_hands_it_scores() -> None:
    from rulepress.games.go_stop.examples import facts, replay

    found = facts(replay({"setup": {
        "deal": True,
        "hands": {1: ["03A", "03C+", "03Da", "03Db", "01A", "08A"],
                  2: ["02B+", "04B+", "08B+", "12B", "05B"]},
    }}))
    assert found["result"] == "four of a number"
    assert found["counts"]["1"]["A"] == 3 and found["points"]["1"]["A"] == 3
    assert found["counts"]["2"]["animals"] == 5 and found["points"]["2"]["B"] == 1
