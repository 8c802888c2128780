"""Go-Stop engine: turn rules, bonuses, go/stop, the protocol's outcome and turn count, and the
fast legal-move generator against the rules over many random games."""

from __future__ import annotations

import random

import pytest
from games.go_stop.test_helpers import m, play, two
from hypothesis import given, settings
from hypothesis import strategies as st

from rulepress.games.base import AmbiguousMove, IllegalMove, derive, play_out
from rulepress.games.go_stop.cards import (
    ANIMALS,
    MONTH_MASK,
    card_text,
    cards_in,
)
from rulepress.games.go_stop.rules import (
    DEAL,
    DECIDE,
    DRAW,
    END_REASONS,
    FOUR_IN_HAND,
    NAGARI,
    OVER,
    PLAY,
    REDEAL,
    RULES,
    STOPPED,
    Move,
    State,
    deal,
    start,
    step,
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
    assert [str(x) for x in s.legal_moves()] == ["08A>08B+", "08A>08Da"]
    with pytest.raises(AmbiguousMove):
        s.apply(Move.parse("08A"))
    s = two(m("08A"), 0, m("08Da"), ["01Da"])
    assert [str(x) for x in s.legal_moves()] == ["08A"]
    assert s.apply(Move.parse("08A>08Da")).stores[0] == m("08A", "08Da")


def test_drawn_card_choice_is_a_move() -> None:
    s = play(two(m("01A"), m("02Da"), m("01Da", "06Da", "06B"), ["06C", "03A"]), "01A")
    assert s.phase == DRAW
    assert [str(x) for x in s.legal_moves()] == ["06C>06B", "06C>06Da"]
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
    assert "shake 05" in [str(x) for x in s.legal_moves()]
    s = play(s, "shake 05")
    assert s.reserves[0] == 1 and s.phase == PLAY
    assert "shake 05" not in [str(x) for x in s.legal_moves()]
    with pytest.raises(IllegalMove, match="already shaken"):
        play(s, "shake 05")
    s = play(s, "11A")
    assert s.hands[0] == m("05B", "05C-", "05Da")


def test_bomb_needs_the_fourth_alone_in_the_row_and_earns_two_passes() -> None:
    hand = m("07B", "07C-", "07Da", "01A")
    assert "bomb 07" not in [str(x) for x in two(hand, 0, m("12A"), ["01Da"]).legal_moves()]
    s = two(hand, m("03Da", "04Da"), m("07Db", "12C--"), ["02Da", "12A", "01C+", "08A"],
            stores=(0, m("10Da")))
    s = play(s, "bomb 07")
    assert s.credits[0] == 2 and s.reserves[0] == 0
    assert s.stores[0] == m("07B", "07C-", "07Da", "07Db", "10Da")
    s = play(s, "03Da", "pass")
    assert s.credits[0] == 1 and s.hands[0] == m("01A")


def test_pass_is_compulsory_with_an_empty_hand() -> None:
    s = two(0, m("03Da"), m("12A"), ["02Da", "04Da"], credits=(1, 0))
    assert [str(x) for x in s.legal_moves()] == ["pass"]


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
            ["10B", "02Db", "03Db", "04Db"], stores=(storage, 0))
    s = play(s, "01C+")
    assert s.phase == DECIDE and [str(x) for x in s.legal_moves()] == ["go", "stop"]
    s = play(s, "go", "12B", "04Da")
    assert s.phase == PLAY and s.to_move == 1 and s.gos[0] == 1
    assert s.current_points(0) == 8


def test_stop_wins_and_last_turn_allows_only_stop() -> None:
    storage = m("01A", "03A", "11A", "04B+", "05B", "06B", "07B", "09B", "10B", "12B")
    s = two(m("08A"), 0, m("08Da"), ["06Da"], stores=(storage, 0))
    s = play(s, "08A")
    assert list(s.legal_moves()) == [Move("stop")]
    with pytest.raises(IllegalMove, match="no turn is left"):
        play(s, "go")
    s = play(s, "stop")
    assert (s.result, s.winner, s.final_score(0)) == (STOPPED, 0, 7)


def test_third_go_earns_a_reserve_not_a_point() -> None:
    s = two(0, 0, 0, ["01Da", "02Da"], phase=DECIDE, gos=(2, 0), last_go=(8, 0))
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


def test_the_outcome_names_each_end_in_the_rulebooks_words() -> None:
    assert RULES.new_game(2, 7).outcome() is None
    storage = m("01A", "03A", "11A", "04B+", "05B", "06B", "07B", "09B", "10B", "12B")
    stopped = play(two(m("08A"), 0, m("08Da"), ["06Da"], stores=(storage, 0)), "08A", "stop")
    nagari = play(two(m("09B"), 0, m("11A"), ["06Da"]), "09B")
    four_brights = m("03A", "03C+", "03Da", "03Db", "01A", "08A", "11A")
    four = start([four_brights, m("02B+")], 0, [], dealer=1)
    redeal = start([0, 0], m("07B", "07C-", "07Da", "07Db"), [], 0)
    outcomes = [s.outcome() for s in (stopped, nagari, four, redeal)]
    assert [o.reason for o in outcomes if o] == [
        "a player stops",
        "the stock runs out: nagari",
        "four of a number in a hand",
        "four of a number in the row: the deal does not count",
    ]
    assert [o.winners for o in outcomes if o] == [(0,), (), (0,), ()]
    assert outcomes[0] is not None and outcomes[0].scores == (7, 0)
    assert outcomes[2] is not None and outcomes[2].scores == (4, 0)
    assert set(END_REASONS) == {STOPPED, NAGARI, FOUR_IN_HAND, REDEAL}


def test_a_turn_ends_after_its_draw_and_any_go_or_stop() -> None:
    s = two(m("01A", "09B"), m("02Da"), m("01Da", "06Da", "06B"), ["06C", "03A", "05Da"])
    assert s.turn() == 0
    s = play(s, "01A")
    assert s.phase == DRAW and s.turn() == 0  # the drawn card waits to be paired
    s = play(s, "06C>06Da")
    assert s.phase == PLAY and s.turn() == 1
    s = play(s, "02Da")
    assert s.turn() == 2


def test_step_says_what_happened_and_apply_agrees() -> None:
    s = two(m("06B", "09B"), m("06Db", "03A"), m("06Da", "12A"), ["06C", "03Da", "09Da", "09C"],
            stores=(m("01Da"), m("02Da")))
    after, events = step(s, Move.parse("06B"))
    assert after == s.apply(Move.parse("06B"))
    assert events == ((0, "draw", 21), (0, "column", 6))
    after, events = step(after, Move.parse("06Db"))
    assert events == (
        (1, "other's column", 6),
        (1, "draw", 10),
        (1, "capture", m("06B", "06C", "06Da", "06Db")),
        (1, "receive", (0, 2)),  # 01Da, from player one
    )


def test_a_drawn_card_waiting_to_pair_takes_only_a_named_row_card() -> None:
    s = play(two(m("01A"), m("02Da"), m("01Da", "06Da", "06B"), ["06C", "03A"]), "01A")
    with pytest.raises(AmbiguousMove):
        s.apply(Move.parse("06C"))
    with pytest.raises(IllegalMove, match="pair the drawn card 06C"):
        s.apply(Move.parse("go"))
    with pytest.raises(IllegalMove, match="alone in the row"):
        s.apply(Move.parse("06C>06Db"))


def test_rules_refuse_what_the_game_does_not_have() -> None:
    assert [v.name for v in RULES.variants()] == ["standard"]
    assert (RULES.min_players, RULES.max_players) == (2, 3)
    with pytest.raises(ValueError, match="2 or 3 players"):
        RULES.new_game(4, 1)
    with pytest.raises(ValueError, match="no variant 'slalom'"):
        RULES.new_game(2, 1, "slalom")
    assert RULES.parse_move("08A>08Da") == Move.parse("08A>08Da")


def test_invariants_name_a_card_lost_or_doubled() -> None:
    s = RULES.new_game(2, 3)
    assert RULES.invariants(s) == []
    lost = derive(s, row=s.row & (s.row - 1))  # the row's lowest card is gone
    assert any(b.startswith("cards nowhere") for b in RULES.invariants(lost))
    doubled = derive(s, stores=(s.hands[1], 0))
    assert any(b.startswith("cards in two places") for b in RULES.invariants(doubled))
    short = derive(s, hands=(0, s.hands[1]), stores=(s.hands[0], 0))
    assert any("turns left" in b for b in RULES.invariants(short))


# --- the fast legal-move generator against the rules, over many seeded random games ------------


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


def play_checked(seed: int, players: int) -> State:
    s = RULES.new_game(players, seed)
    rng = random.Random(seed)
    while not s.is_over():
        moves = s.legal_moves()
        assert {str(mv) for mv in moves} == reference_moves(s)
        s = s.apply(rng.choice(moves))
    return s


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from([2, 3]))
def test_legal_moves_are_the_rules_moves_and_games_end_as_the_rules_say(
    seed: int, players: int
) -> None:
    s = play_checked(seed, players)
    assert s.result in (STOPPED, NAGARI, FOUR_IN_HAND)
    if s.result == NAGARI:
        assert not any(s.hands) and s.stock_left == 0
    if s.result == STOPPED:
        assert s.current_points(s.winner) >= s.threshold


def test_many_random_games_end_with_sensible_results() -> None:
    results = {STOPPED: 0, NAGARI: 0, FOUR_IN_HAND: 0}
    rng = random.Random(0)
    for players in (2, 3):
        for seed in range(400):
            s = play_out(RULES.new_game(players, seed), rng)
            assert s.is_over() and isinstance(s, State)
            results[s.result] += 1
    assert all(results.values())
