"""Every Go-Stop diagram is drawn one way, as the kit prints the cards: a turn in its stages,
play, draw and take, a column as its cards laid over one another (two, three with the owner's
token, or four), another player's turn as one stage; the captions tell it in words, without
notation. And the figures stay cheap to render and legible on a phone."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from rulepress.document.reader import read_document
from rulepress.games.go_stop import ENGINE
from rulepress.games.go_stop.cards import cards_in, parse_card
from rulepress.games.go_stop.diagrams import MARGIN, MAX_WIDTH, Stage, stages
from rulepress.games.go_stop.examples import replay
from rulepress.games.go_stop.style import CLASS_STYLE, PLAYER_STYLES
from rulepress.plugin import figures_of
from rulepress.render.figures import MIN_LABEL_PX, legible_width

SOURCE = Path(__file__).parents[3] / "sources" / "go-stop" / "rules.md"
EXAMPLES = {ex.id: ex.data for ex in read_document(SOURCE).examples}
NS = "{http://www.w3.org/2000/svg}"
MOST_ELEMENTS = 30  # what one figure may cost WeasyPrint, however many stages
NOTATION = re.compile(r"\b\d\d(?:A|B\+?|C\+|C-{0,2}|D[ab+]?)(?!\w)|>|\b(?:shake|bomb) \d")


def cards(*texts: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in texts)


def drawn(example: str) -> list[Stage]:
    return stages(replay(EXAMPLES[example]))


def under(stage: Stage) -> dict[str, set[int]]:
    return {label: set(group) for label, group in stage.under}


def test_a_turn_is_drawn_play_then_draw_then_take_with_its_two_card_columns() -> None:
    start, play, draw, take = drawn("pair-turn")
    assert [s.step for s in (start, play, draw, take)] == ["", "play", "draw", "take"]
    assert under(start) == {"Player 1 holds": set(cards("05B", "08A"))}
    assert cards("08B+", "08A") in play.places and play.new == set(cards("08A"))
    assert cards("08B+", "08A") in draw.places and cards("02Da", "02B+") in draw.places
    assert draw.new == set(cards("02B+"))
    assert take.places == (cards("08Da"), cards("11A"))
    assert under(take) == {"Player 1 takes": set(cards("02B+", "02Da", "08A", "08B+"))}


def test_the_draw_onto_your_new_column_makes_three_cards_and_carries_your_token() -> None:
    steps = drawn("column-formed")
    assert [s.step for s in steps] == ["", "play", "draw"]  # nothing to take
    draw = steps[-1]
    assert cards("06Da", "06B", "06C") in draw.places
    assert draw.owners[5] == 0
    root = ET.fromstring(figures_of(ENGINE, EXAMPLES["column-formed"])[0].svg)
    hue = PLAYER_STYLES[0][0]
    assert any(path.get("fill") == hue for path in root.iter(f"{NS}path"))


def test_a_bomb_lays_four_and_the_junk_given_lies_beside_the_cards_taken() -> None:
    steps = drawn("bomb")
    assert [s.step for s in steps] == ["", "bomb", "draw", "take", "player 2", "player 1"]
    assert cards("07Db", "07B", "07C-", "07Da") in steps[1].places
    assert under(steps[3]) == {"Player 1 takes": set(cards("07B", "07C-", "07Da", "07Db")),
                               "given": set(cards("10Da"))}
    assert [s.state.credits[0] for s in steps] == [0, 2, 2, 2, 2, 1]


def test_another_players_turn_and_a_later_turn_that_takes_nothing_are_one_stage() -> None:
    assert [s.step for s in drawn("own-column")] == [
        "", "play", "draw", "player 2", "play", "draw", "take"]
    go = drawn("go")
    assert [s.step for s in go] == ["", "play", "draw", "take", "player 2", "player 1"]
    assert go[3].said == "go" and go[3].state.additional(0) == 1
    assert go[-1].new == set(cards("04Da", "03Db"))


def test_a_drawn_card_with_two_to_choose_from_goes_below_the_one_named() -> None:
    start, play, draw, take = drawn("drawn-choice")
    assert cards("06B", "06C") in draw.places and cards("06Da") in draw.places
    assert take.places == (cards("06Da"),)


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_every_figure_is_cheap_legible_and_told_without_notation(example: str) -> None:
    (figure,) = figures_of(ENGINE, EXAMPLES[example])
    root = ET.fromstring(figure.svg)
    assert sum(1 for _ in root.iter()) <= MOST_ELEMENTS
    width = float(root.attrib["viewBox"].split()[2])
    assert width <= MAX_WIDTH + 2 * MARGIN
    assert legible_width(figure.svg) == width  # no label below MIN_LABEL_PX
    assert min(float(t.attrib["font-size"]) for t in root.iter(f"{NS}text")) >= MIN_LABEL_PX
    assert figure.caption and NOTATION.findall(figure.caption) == []


def test_a_card_prints_its_number_and_value_on_its_band_colour() -> None:
    data: dict[str, Any] = {"setup": {"storage": {1: ["12A", "08B+", "04C-", "11D+"]}}}
    root = ET.fromstring(figures_of(ENGINE, data)[0].svg)
    bold = {t.get("fill"): t.text or "" for t in root.iter(f"{NS}text")
            if t.get("font-weight") == "bold"}
    printed = "".join(bold.values())
    for number in ("12", "8", "4", "11"):
        assert number in printed
    for value in ("A", "B+", "C-", "D+"):
        assert value in printed
    fills = {p.get("fill") for p in root.iter(f"{NS}path")}
    assert {band for band, _, _ in CLASS_STYLE.values()} <= fills


def test_storages_sort_by_kind_and_show_reserve_and_point_cards() -> None:
    (figure,) = figures_of(ENGINE, EXAMPLES["whole-storage"])
    assert "with 1 reserve card and 1 additional point card" in figure.caption
    assert "×2" in figure.svg and "+1" in figure.svg


@pytest.mark.parametrize("example", ["go", "stop", "third-go", "three-player-threshold",
                                     "last-turn"])
def test_an_example_that_counts_points_shows_the_storage_it_counts(example: str) -> None:
    (figure,) = figures_of(ENGINE, EXAMPLES[example])
    root = ET.fromstring(figure.svg)
    words = [t for t in root.iter(f"{NS}text") if t.get("font-weight") != "bold"]
    top = min(words, key=lambda t: float(t.attrib["y"]))  # above the stages
    assert top.text == "Storage of player 1 before the turn"
    storage = cards(*EXAMPLES[example]["setup"]["storage"][1])
    start = replay(EXAMPLES[example]).before
    assert sorted(storage) == sorted(cards_in(start.stores[0]))
    # the caption counts the same cards by kind: the go example's 3 + 4 + 2
    told = re.match(r"Storage of player 1 before the turn: ([^.]*)\.", figure.caption)
    assert told is not None
    assert sum(int(n) for n in re.findall(r"\d+", told[1])) == len(storage)


def test_a_turn_that_counts_no_points_draws_no_storage() -> None:
    (figure,) = figures_of(ENGINE, EXAMPLES["bomb"])  # player 2's storage gives junk only
    assert "Storage" not in figure.svg and not figure.caption.startswith("Storage")


def stage_under(root: ET.Element, x: float, y: float) -> str:
    """The name of the arrow into the stage whose column holds the point (x, y): the nearest
    arrow label above it, on the line of stages it belongs to, left of it ('' for none)."""
    arrows = [(float(t.attrib["y"]), float(t.attrib["x"]), t.text or "")
              for t in root.iter(f"{NS}text") if t.get("text-anchor") == "middle"]
    line = max((a for a, _, _ in arrows if a < y), default=None)
    left = [(ax, name) for a, ax, name in arrows if a == line and ax < x]
    return max(left)[1] if left else ""


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_a_players_points_sit_under_that_players_own_stages(example: str) -> None:
    focus = replay(EXAMPLES[example]).before.to_move
    root = ET.fromstring(figures_of(ENGINE, EXAMPLES[example])[0].svg)
    status = [t for t in root.iter(f"{NS}text") if t.get("font-weight") != "bold"
              and re.search(r"\bpoints\b|\bpass(es)?\b", t.text or "")]
    for text in status:
        stage = stage_under(root, float(text.attrib["x"]), float(text.attrib["y"]))
        assert not stage.startswith("player") or stage == f"player {focus + 1}", (
            f"{example}: {text.text!r} sits under {stage!r}'s turn, not player {focus + 1}'s")


def test_the_go_figure_puts_the_point_card_under_player_1_not_player_2() -> None:
    root = ET.fromstring(figures_of(ENGINE, EXAMPLES["go"])[0].svg)
    told = {t.text: stage_under(root, float(t.attrib["x"]), float(t.attrib["y"]))
            for t in root.iter(f"{NS}text") if "points" in (t.text or "")}
    assert told == {"3 points": "", "8 points, go": "take", "8 points": "player 1"}
