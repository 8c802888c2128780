"""Go-Stop: the deck, the notation, and every scoring rule and multiplier."""

from __future__ import annotations

from collections import Counter

import pytest
from games.go_stop.test_helpers import m as pile
from hypothesis import given, settings
from hypothesis import strategies as st

from rulepress.games.base import NotationError, derive
from rulepress.games.go_stop.cards import (
    ALL,
    CARDS,
    card_points,
    card_text,
    cards_in,
    month_of,
    parse_card,
    points_of,
    value_of,
)
from rulepress.games.go_stop.rules import FOUR_IN_HAND, Move, State, start


def test_deck_has_the_issue_distribution() -> None:
    values = Counter(value_of(c) for c in range(CARDS))
    assert values == {"A": 5, "B+": 3, "B": 6, "C+": 3, "C": 3, "C-": 3, "C--": 1, "D": 22,
                      "D+": 2}
    assert Counter(month_of(c) for c in range(CARDS)) == {m: 4 for m in range(1, 13)}
    assert sorted(month_of(c) for c in range(CARDS) if value_of(c) == "A") == [1, 3, 8, 11, 12]
    assert sorted(month_of(c) for c in range(CARDS) if value_of(c) == "B+") == [2, 4, 8]
    assert sorted(month_of(c) for c in range(CARDS) if value_of(c) == "B") == [5, 6, 7, 9, 10, 12]
    assert sorted(month_of(c) for c in range(CARDS) if value_of(c) == "C+") == [1, 2, 3]
    assert sorted(month_of(c) for c in range(CARDS) if value_of(c) == "C") == [6, 9, 10]
    assert sorted(month_of(c) for c in range(CARDS) if value_of(c) == "C-") == [4, 5, 7]
    assert [month_of(c) for c in range(CARDS) if value_of(c) == "C--"] == [12]
    assert [month_of(c) for c in range(CARDS) if value_of(c) == "D+"] == [11, 12]


def test_card_notation_round_trips() -> None:
    texts = [card_text(c) for c in range(CARDS)]
    assert len(set(texts)) == CARDS
    assert all(parse_card(t) == c for c, t in enumerate(texts))
    assert card_text(parse_card("08A")) == "08A" and card_text(parse_card("08B+")) == "08B+"
    assert cards_in(ALL) == list(range(CARDS))


@pytest.mark.parametrize("bad", ["8A", "08C", "13A", "", "08D", "08b+", "12D"])
def test_bad_card_notation_is_rejected(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_card(bad)


@pytest.mark.parametrize("text", ["08A", "08A>08Da", "shake 05", "bomb 12", "pass", "go", "stop"])
def test_move_notation_round_trips(text: str) -> None:
    assert str(Move.parse(text)) == text


@pytest.mark.parametrize("bad", ["shake 5x", "bomb 13", "08A>", "hop"])
def test_bad_move_notation_is_rejected(bad: str) -> None:
    with pytest.raises(NotationError):
        Move.parse(bad)


BRIGHTS = ["01A", "03A", "08A", "11A", "12A"]


@pytest.mark.parametrize(("n", "points"), [(0, 0), (1, 0), (2, 0), (3, 3), (4, 4), (5, 15)])
def test_brights(n: int, points: int) -> None:
    assert points_of(pile(*BRIGHTS[:n])).brights == points


def test_three_brights_with_rain_still_score_three() -> None:
    assert points_of(pile("01A", "03A", "12A")).brights == 3


ANIMALS = ["05B", "06B", "07B", "09B", "10B", "12B", "02B+", "04B+", "08B+"]


@pytest.mark.parametrize("n", range(10))
def test_animals_score_from_five(n: int) -> None:
    assert points_of(pile(*ANIMALS[:n])).animals == max(0, n - 4)


def test_birds_complete_and_incomplete() -> None:
    assert points_of(pile("02B+", "04B+", "08B+")).birds == 5
    assert points_of(pile("02B+", "04B+")).birds == 0
    # Birds are animals too: six plain animals and two birds make eight animals.
    p = points_of(pile(*ANIMALS[:8]))
    assert (p.animals, p.birds) == (4, 0)
    p = points_of(pile(*ANIMALS))
    assert (p.animals, p.birds) == (5, 5)


@pytest.mark.parametrize(
    "ribbons", [("01C+", "02C+", "03C+"), ("06C", "09C", "10C"), ("04C-", "05C-", "07C-")]
)
def test_each_ribbon_set_scores_three(ribbons: tuple[str, ...]) -> None:
    p = points_of(pile(*ribbons))
    assert (p.ribbon_sets, p.ribbons) == (3, 0)
    assert points_of(pile(*ribbons[:2])).ribbon_sets == 0


def test_ribbons_count_together_with_sets_and_the_lone_ribbon() -> None:
    p = points_of(pile("01C+", "02C+", "03C+", "06C", "09C", "12C--"))
    assert (p.ribbon_sets, p.ribbons, p.total) == (3, 2, 5)
    p = points_of(pile("01C+", "02C+", "06C", "09C", "05C-"))
    assert (p.ribbon_sets, p.ribbons) == (0, 1)
    every = pile("01C+", "02C+", "03C+", "06C", "09C", "10C", "04C-", "05C-", "07C-", "12C--")
    p = points_of(every)
    assert (p.ribbon_sets, p.ribbons) == (9, 6)  # several sets score 3 each


JUNK = [card_text(c) for c in range(CARDS) if value_of(c) == "D"]


@pytest.mark.parametrize("n", [0, 9, 10, 12, 22])
def test_junk_from_ten(n: int) -> None:
    assert points_of(pile(*JUNK[:n])).junk == max(0, n - 9)


def test_double_junk_counts_twice() -> None:
    assert points_of(pile(*JUNK[:10], "11D+")).junk == 3
    assert points_of(pile(*JUNK[:8], "11D+")).junk == 1
    assert points_of(pile(*JUNK[:8], "11D+", "12D+")).junk == 3


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=ALL))
def test_fast_total_equals_the_breakdown(mask: int) -> None:
    assert card_points(mask) == points_of(mask).total


def _state(points_pile: int, gos: int, reserves: int) -> State:
    s = start([0, 0], 0, [], check_deal=False)
    return derive(s, stores=(points_pile, 0), gos=(gos, 0), reserves=(reserves, 0))


@pytest.mark.parametrize(
    ("gos", "reserves", "final"),
    [(0, 0, 7), (1, 0, 8), (2, 0, 9), (3, 0, 9), (0, 1, 14), (2, 1, 18), (2, 2, 36), (1, 3, 64)],
)
def test_additional_point_cards_and_reserve_multipliers(gos: int, reserves: int,
                                                         final: int) -> None:
    seven = pile("01A", "03A", "08A", "11A", "05B", "06B", "07B", "09B", "10B", "12B")  # 4 + 2
    seven |= pile("02B+")  # seven animals: 3
    s = _state(seven, gos, reserves)
    assert s.points[0] == 7
    assert s.additional(0) == min(gos, 2)
    assert s.final_score(0) == final


def test_four_of_a_number_scores_the_hands() -> None:
    hand = pile("03A", "03C+", "03Da", "03Db", "01A", "08A")
    s = start([hand, pile("02B+", "04B+", "08B+")], pile("05Da"), [], 0)
    assert s.result == FOUR_IN_HAND and s.winner == 0
    assert (s.final_score(0), s.final_score(1)) == (3, 5)
