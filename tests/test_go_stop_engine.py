"""Go-Stop engine: turn rules, bonuses, go/stop, and properties over many random seeded games."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_go_stop_helpers import m, play, two

from rulepress.games.go_stop.cards import (
    ALL,
    ANIMALS,
    MONTH_MASK,
    card_text,
    cards_in,
    mask_of,
)
from rulepress.games.go_stop.rules import (
    DEAL,
    DECIDE,
    DRAW,
    FOUR_IN_HAND,
    NAGARI,
    OVER,
    PLAY,
    REDEAL,
    STOPPED,
    AmbiguousMove,
    IllegalMove,
    Move,
    State,
    apply,
    deal,
    legal_moves,
    random_game,
    start,
    view,
)

# --- single rules ------------------------------------------------------------------------------


def test_deal_sizes_and_dealer_first() -> None:
    for players, (per_hand, in_row) in DEAL.items():
        s = deal(11, players)
        assert [h.bit_count() for h in s.hands] == [per_hand] * players
        assert s.row.bit_count() == in_row
        assert len(s.stock) == 48 - players * per_hand - in_row
        assert s.to_move == s.dealer


def test_four_in_the_row_is_redealt_before_four_in_a_hand() -> None:
    s = start([m("03A", "03C+", "03Da", "03Db"), 0], m("07B", "07C-", "07Da", "07Db"), [], 0)
    assert s.result == REDEAL and s.phase == OVER
    assert any(deal(seed).redeals for seed in range(3000))  # the seeded deal redeals itself


def test_four_in_hand_goes_to_the_first_from_the_dealer() -> None:
    hands = [m("03A", "03C+", "03Da", "03Db"), m("05B", "05C-", "05Da", "05Db")]
    assert start(hands, 0, [], dealer=1).winner == 1
    assert start(hands, 0, [], dealer=0).winner == 0
    assert start(hands, 0, [], dealer=1).result == FOUR_IN_HAND


def test_two_matches_need_a_choice_and_one_match_does_not() -> None:
    s = two(m("08A"), 0, m("08Da", "08B+"), ["01Da"])
    assert [str(x) for x in legal_moves(s)] == ["08A>08B+", "08A>08Da"]
    with pytest.raises(AmbiguousMove):
        apply(s, Move.parse("08A"))
    s = two(m("08A"), 0, m("08Da"), ["01Da"])
    assert [str(x) for x in legal_moves(s)] == ["08A"]
    assert apply(s, Move.parse("08A>08Da")).stores[0] == m("08A", "08Da")


def test_drawn_card_choice_is_a_move() -> None:
    s = play(two(m("01A"), m("02Da"), m("01Da", "06Da", "06B"), ["06C", "03A"]), "01A")
    assert s.phase == DRAW
    assert [str(x) for x in legal_moves(s)] == ["06C>06B", "06C>06Da"]
    s = play(s, "06C>06Da")
    assert s.stores[0] == m("01A", "01Da", "06C", "06Da") and s.to_move == 1


def test_three_card_column_then_taken_by_another_player() -> None:
    s = two(m("06B", "09B"), m("06Db", "03A"), m("06Da", "12A"), ["06C", "03Da", "09Da", "09C"],
            stores=(m("01Da"), m("02Da")))
    s = play(s, "06B")
    assert s.owners[5] == 0 and s.tokens[0] == 6 and s.stores[0] == m("01Da")
    s = play(s, "06Db")  # the fourth card: other's column, one junk from player 1
    assert s.stores[1] & MONTH_MASK[5] == MONTH_MASK[5]
    assert s.tokens[0] == 0 and s.owners[5] == -1
    assert s.stores[1] & m("01Da")


def test_unmatched_card_paired_by_the_draw_gets_no_bonus() -> None:
    s = play(two(m("10B"), m("02Da"), m("12A"), ["10C", "05Da"], stores=(0, m("01Da"))), "10B")
    assert s.stores == (m("10B", "10C"), m("01Da"))


def test_played_pair_and_drawn_fourth_is_three_for_one() -> None:
    s = two(m("03A"), m("09Da"), m("03Da", "03C+", "11A"), ["03Db", "05Db"],
            stores=(0, m("05Da", "11D+")))
    s = play(s, "03A>03C+")
    assert s.stores[0] == m("03A", "03C+", "03Da", "03Db", "05Da")
    assert s.row == m("11A")


def test_junk_gifts_prefer_plain_junk_then_double_then_nothing() -> None:
    s = two(m("10Db"), m("09Da"), m("10B", "10C", "10Da", "12A"), ["05Db", "01Db"],
            stores=(0, m("11D+")))
    s = play(s, "10Db")
    assert s.stores[0] & m("11D+") and s.points[1] == 0
    s = two(m("10Db"), m("09Da"), m("10B", "10C", "10Da", "12A"), ["05Db", "01Db"])
    s = play(s, "10Db")
    assert s.stores[1] == 0 and s.stores[0] == m("10B", "10C", "10Da", "10Db")


def test_own_column_takes_two_junk_from_each() -> None:
    s = two(m("06B", "06Db"), m("01C+"), m("06Da", "01Da", "12A"), ["06C", "09B", "03A", "04Da"],
            stores=(0, m("02Da", "03Da")))
    s = play(s, "06B", "01C+", "06Db")
    assert s.stores[0] == m("06B", "06C", "06Da", "06Db", "01Da", "02Da")


def test_shake_once_per_number_and_no_obligation() -> None:
    s = two(m("05B", "05C-", "05Da", "11A"), m("02Db"), m("11Da"), ["12B", "01Da"])
    assert "shake 05" in [str(x) for x in legal_moves(s)]
    s = play(s, "shake 05")
    assert s.reserves[0] == 1 and s.phase == PLAY
    assert "shake 05" not in [str(x) for x in legal_moves(s)]
    with pytest.raises(IllegalMove, match="already shaken"):
        play(s, "shake 05")
    s = play(s, "11A")
    assert s.hands[0] == m("05B", "05C-", "05Da")


def test_bomb_needs_the_fourth_alone_in_the_row_and_earns_two_passes() -> None:
    hand = m("07B", "07C-", "07Da", "01A")
    assert "bomb 07" not in [str(x) for x in legal_moves(two(hand, 0, m("12A"), ["01Da"]))]
    s = two(hand, m("03Da", "04Da"), m("07Db", "12C--"), ["02Da", "12A", "01C+", "08A"],
            stores=(0, m("10Da")))
    s = play(s, "bomb 07")
    assert s.credits[0] == 2 and s.reserves[0] == 0
    assert s.stores[0] == m("07B", "07C-", "07Da", "07Db", "10Da")
    s = play(s, "03Da", "pass")
    assert s.credits[0] == 1 and s.hands[0] == m("01A")


def test_pass_is_compulsory_with_an_empty_hand() -> None:
    s = two(0, m("03Da"), m("12A"), ["02Da", "04Da"], credits=(1, 0))
    assert [str(x) for x in legal_moves(s)] == ["pass"]


def test_empty_row_bonus() -> None:
    s = two(m("09C"), m("03Da"), m("09B", "04Da"), ["04Db", "05Da"], stores=(0, m("06Da")))
    s = play(s, "09C")
    assert s.row == 0 and s.stores[0] & m("06Da")


def test_eighth_animal_reserve_only_once() -> None:
    seven = m("02B+", "04B+", "05B", "06B", "07B", "09B", "10B")
    s = two(m("12B"), m("01Da"), m("12D+", "03Da"), ["11A", "04Da"], stores=(seven, 0))
    s = play(s, "12B")
    assert (s.stores[0] & ANIMALS).bit_count() == 8
    assert s.reserves[0] == 1 and s.animal_reserve == 1
    s7 = two(m("12B"), m("01Da"), m("03Da"), ["11A", "04Da"], stores=(seven, 0))
    assert play(s7, "12B").reserves[0] == 0  # seven animals: no reserve


def test_go_then_no_new_decision_without_more_points() -> None:
    storage = m("01A", "03A", "11A", "02C+", "03C+", "05B", "06B", "07B", "09B")
    s = two(m("01C+", "04Da"), m("12B"), m("01Da", "10Da", "12A"),
            ["10B", "02Db", "03Db", "04Db"], stores=(storage, 0), points=(3, 0))
    s = play(s, "01C+")
    assert s.phase == DECIDE and [str(x) for x in legal_moves(s)] == ["go", "stop"]
    s = play(s, "go", "12B", "04Da")
    assert s.phase == PLAY and s.to_move == 1 and s.gos[0] == 1
    assert s.current_points(0) == 8


def test_stop_wins_and_last_turn_allows_only_stop() -> None:
    storage = m("01A", "03A", "11A", "04B+", "05B", "06B", "07B", "09B", "10B", "12B")
    s = two(m("08A"), 0, m("08Da"), ["06Da"], stores=(storage, 0), points=(6, 0))
    s = play(s, "08A")
    assert legal_moves(s) == (Move("stop"),)
    with pytest.raises(IllegalMove, match="no turn is left"):
        play(s, "go")
    s = play(s, "stop")
    assert (s.result, s.winner, s.final_score(0)) == (STOPPED, 0, 7)


def test_third_go_earns_a_reserve_not_a_point() -> None:
    s = two(0, 0, 0, ["01Da", "02Da"], phase=DECIDE, points=(9, 0), gos=(2, 0), last_go=(8, 0))
    s = play(s, "go")
    assert (s.gos[0], s.additional(0), s.reserves[0]) == (3, 2, 1)


def test_nobody_stops_is_nagari() -> None:
    s = play(two(m("09B"), 0, m("11A"), ["06Da"]), "09B")
    assert (s.result, s.winner, s.phase) == (NAGARI, -1, OVER)


def test_a_players_view_hides_the_other_hands() -> None:
    s = deal(5, 3)
    v = view(s, 1)
    assert v.hand == s.hands[1] and v.hand_sizes == (7, 7, 7)
    assert v.stock_left == 21 and not hasattr(v, "stock") and not hasattr(v, "hands")


def test_random_games_are_deterministic() -> None:
    assert random_game(42, 2) == random_game(42, 2)
    assert random_game(42, 3) == random_game(42, 3)


# --- properties over many seeded random games ----------------------------------------------------


def check_invariants(s: State) -> None:
    n = s.players
    parts = [*s.hands, *s.stores, s.row, mask_of(list(s.stock[s.drawn :]))]
    if s.pending is not None:
        parts.append(s.pending[0] | 1 << s.pending[2])
    seen = 0
    for part in parts:
        assert not seen & part, "a card in two places"
        seen |= part
    assert seen == ALL, "every one of the 48 cards is somewhere"
    # Tokens: one per player, at home or on a three-card column that player owns.
    for p in range(n):
        if s.tokens[p]:
            month = s.tokens[p] - 1
            assert s.owners[month] == p
            assert (s.row & MONTH_MASK[month]).bit_count() == 3
    for month, owner in enumerate(s.owners):
        if owner >= 0:
            assert (s.row & MONTH_MASK[month]).bit_count() == 3
    assert all(v >= 0 for v in (*s.points, *s.reserves, *s.credits, *s.gos))
    assert all(s.final_score(p) >= 0 for p in range(n))
    if s.result in (NAGARI, STOPPED) or s.phase in (PLAY, DECIDE):
        # Cards in hand plus passes = turns left: hands and stock run out together.
        for p in range(n):
            turns_left = sum(
                1 for k in range(s.stock_left)
                if (s.to_move + (k if s.phase == PLAY else k + 1)) % n == p
            )
            assert s.hands[p].bit_count() + s.credits[p] == turns_left


def reference_moves(s: State) -> set[str]:
    """Legal moves straight from the rules, slowly, to check the fast generator against."""
    if s.phase == DECIDE:
        return {"stop"} if s.stock_left == 0 else {"go", "stop"}
    if s.phase == DRAW:
        assert s.pending is not None
        d = s.pending[2]
        return {f"{card_text(d)}>{card_text(t)}" for t in cards_in(s.row & MONTH_MASK[d >> 2])}
    if s.phase != PLAY:
        return set()
    p = s.to_move
    out = set()
    for c in cards_in(s.hands[p]):
        singles = cards_in(s.row & MONTH_MASK[c >> 2])
        if len(singles) == 2:
            out |= {f"{card_text(c)}>{card_text(t)}" for t in singles}
        else:
            out.add(card_text(c))
    for month in range(12):
        if (s.hands[p] & MONTH_MASK[month]).bit_count() == 3:
            if (s.row & MONTH_MASK[month]).bit_count() == 1:
                out.add(f"bomb {month + 1:02d}")
            if not s.shaken[p] >> month & 1:
                out.add(f"shake {month + 1:02d}")
    if s.credits[p]:
        out.add("pass")
    return out


def play_out(seed: int, players: int) -> tuple[State, int]:
    s = deal(seed, players)
    rng = random.Random(seed)
    steps = 0
    check_invariants(s)
    while s.phase != OVER:
        moves = legal_moves(s)
        assert moves, "a player always has a move"
        assert {str(mv) for mv in moves} == reference_moves(s)
        assert len(set(moves)) == len(moves)
        for mv in moves:
            assert Move.parse(str(mv)) == mv
        s = apply(s, rng.choice(moves))
        check_invariants(s)
        steps += 1
        assert steps < 200, "every game ends"
    return s, steps


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from([2, 3]))
def test_random_games_keep_every_invariant_and_end(seed: int, players: int) -> None:
    s, _ = play_out(seed, players)
    assert s.result in (STOPPED, NAGARI, FOUR_IN_HAND)
    if s.result == NAGARI:
        assert not any(s.hands) and s.stock_left == 0
    if s.result == STOPPED:
        assert s.current_points(s.winner) >= s.threshold


def test_many_random_games_end_with_sensible_results() -> None:
    results = {STOPPED: 0, NAGARI: 0, FOUR_IN_HAND: 0}
    for players in (2, 3):
        for seed in range(400):
            s = random_game(seed, players)
            assert s.phase == OVER
            results[s.result] += 1
    assert all(results.values())
