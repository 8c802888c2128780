"""Pigeon Race engine: one test (or a few) per rule."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rulepress.games.base import IllegalMove, NotationError, Outcome, play_out
from rulepress.games.pigeon_race.cards import DECK, Card
from rulepress.games.pigeon_race.rules import (
    END_DECK_EMPTY,
    END_THREE_HOME,
    HOME,
    R_FINISHED,
    R_GAME_OVER,
    R_NOT_IN_HAND,
    R_ONE_PIGEON,
    R_PICK_OWN,
    R_TWO_DIFFERENT,
    RULES,
    SCORE_TABLE,
    Allotment,
    Move,
    SetupError,
    State,
    check_allotment,
    deal_pigeons,
    first_player,
    half,
    score,
    set_up,
)

C = Card.parse


def state(
    positions: dict[int, int] | None = None,
    *,
    finished: tuple[int, ...] = (),
    hand: tuple[str, ...] = ("6H", "7S", "3C", "KD", "AH"),
    trump: str = "2C",
    deck: int = 10,
    players: int = 3,
    orders: tuple[tuple[int, ...], ...] = (),
) -> State:
    """A state with player 0 to move holding ``hand``; other cards placed anywhere."""
    pos = [0] * 6
    for p, v in (positions or {}).items():
        pos[p - 1] = v
    for p in finished:
        pos[p - 1] = HOME
    mine = tuple(C(t) for t in hand)
    rest = [c for c in DECK if c not in mine and c != C(trump)]
    hands = [mine] + [tuple(rest[i * 5 : i * 5 + 5]) for i in range(players - 1)]
    rest = rest[(players - 1) * 5 :]
    return State(
        positions=tuple(pos),
        finished=finished,
        hands=tuple(hands),
        deck=tuple(rest[:deck]),
        discard=tuple(rest[deck:]),
        trump_card=C(trump),
        to_move=0,
        orders=orders or ((),) * players,
    )


def test_cards_values_colours_and_notation() -> None:
    assert len(DECK) == 52 and len(set(DECK)) == 52
    assert [C(t).rank for t in ("2H", "10S", "TS", "JD", "QC", "KH", "AS")] == [
        2, 10, 10, 11, 12, 13, 14,
    ]
    assert C("6H").red and C("6D").red and not C("6S").red and not C("6C").red
    assert str(C("10h")) == "10H" and C("ah").name == "ace of hearts"
    with pytest.raises(NotationError):
        C("1H")
    with pytest.raises(NotationError):
        C("6X")


@pytest.mark.parametrize("text", ["6H>6", "3C>2,5", "10D>3,4", "AS>1"])
def test_moves_round_trip(text: str) -> None:
    assert str(Move.parse(text)) == text


@pytest.mark.parametrize("text", ["6H", "6H>7", "6H>0", "6H>1,2,3", "ZZ>1", "6H->1", ""])
def test_bad_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        Move.parse(text)


def test_red_forward_and_neighbours_half_rounded_up() -> None:
    s = state({4: 7, 5: 2, 6: 5}).apply(Move.parse("6H>6"))
    assert s.positions[3:] == (10, 5, 11)


def test_black_backward_with_rounded_up_push() -> None:
    s = state({2: 10, 3: 12, 4: 9}).apply(Move.parse("7S>3"))
    assert s.positions[1:4] == (6, 5, 5)


@pytest.mark.parametrize(("value", "push"), [(2, 1), (3, 2), (7, 4), (11, 6), (13, 7), (14, 7)])
def test_half(value: int, push: int) -> None:
    assert half(value) == push


@pytest.mark.parametrize(("pigeon", "pushed"), [(1, (2, 3)), (6, (4, 5)), (3, (2, 4))])
def test_wall_rule(pigeon: int, pushed: tuple[int, int]) -> None:
    s = state({p: 10 for p in range(1, 7)}).apply(Move(C("6H"), (pigeon,)))
    moved = {p for p in range(1, 7) if s.positions[p - 1] != 10}
    assert moved == {pigeon, *pushed}


def test_start_line_stops_backward_moves() -> None:
    s = state({1: 0, 2: 3, 3: 5}).apply(Move.parse("7S>2"))
    assert s.positions[:3] == (0, 0, 1)


def test_crossing_the_finish_line() -> None:
    s = state({1: 25, 2: 27, 3: 30}).apply(Move.parse("6H>1"))
    assert s.positions[0] == HOME  # square 30 is the last: 25 + 6 = 31 is past it
    assert s.finished == (1, 3)  # the moved pigeon first, then its neighbours, lower first
    assert s.positions[1] == 30  # landing on 30 is not finishing


def test_finished_pigeon_cannot_be_named_or_pushed() -> None:
    s0 = state({2: 5, 3: 5}, finished=(1,))
    with pytest.raises(IllegalMove) as exc:
        s0.apply(Move.parse("6H>1"))
    assert exc.value.reason == R_FINISHED
    s = s0.apply(Move.parse("6H>2"))
    assert s.positions[:3] == (HOME, 11, 8)


def test_trump_moves_two_pigeons_each_pushing_its_own_neighbours() -> None:
    s = state({3: 8, 4: 6, 2: 5, 5: 2}, hand=("10C", "2H", "3H", "4H", "5H")).apply(
        Move.parse("10C>3,4")
    )
    # clubs are trump (the 2C is turned up) and black: everything goes back, to the line.
    assert s.positions[1:5] == (0, 0, 0, 0)
    s = state({3: 8, 4: 6, 2: 5, 5: 2}, hand=("10D", "2H", "3H", "4H", "5H"), trump="2D").apply(
        Move.parse("10D>3,4")
    )
    assert s.positions[1:5] == (10, 23, 21, 7)


def test_trump_finishing_order_first_named_pigeons_neighbours_first() -> None:
    # Named 5 then 2: pigeon 5's neighbours (4, 6) move before pigeon 2's (1, 3), so pigeon 6
    # crosses ahead of pigeon 1 although its number is higher.
    s = state({1: 29, 6: 29, 2: 5, 5: 5}, hand=("4D", "2H", "3H", "4H", "5H"), trump="2D").apply(
        Move.parse("4D>5,2")
    )
    assert s.finished == (6, 1)
    assert s.positions == (HOME, 9, 2, 2, 9, HOME)


def test_a_neighbour_of_both_trump_pigeons_is_pushed_twice() -> None:
    s = state({2: 4, 3: 6, 4: 8}, hand=("6D", "2H", "3H", "4H", "5H"), trump="2D").apply(
        Move.parse("6D>2,4")
    )
    assert s.positions == (3, 10, 12, 14, 3, 0)


def test_trump_may_move_one_pigeon_and_only_trumps_move_two() -> None:
    s = state()
    s.apply(Move.parse("3C>2"))
    with pytest.raises(IllegalMove) as exc:
        s.apply(Move.parse("6H>2,3"))
    assert exc.value.reason == R_ONE_PIGEON
    with pytest.raises(IllegalMove) as exc:
        s.apply(Move.parse("3C>2,2"))
    assert exc.value.reason == R_TWO_DIFFERENT


def test_card_must_be_in_hand() -> None:
    with pytest.raises(IllegalMove) as exc:
        state().apply(Move.parse("9H>1"))
    assert exc.value.reason == R_NOT_IN_HAND


def test_turn_discards_draws_and_passes_clockwise() -> None:
    s0 = state()
    s = s0.apply(Move.parse("6H>6"))
    assert s.to_move == 1
    assert C("6H") not in s.hands[0] and s.hands[0][-1] == s0.deck[0]
    assert s.discard[-1] == C("6H") and len(s.deck) == len(s0.deck) - 1


def test_third_pigeon_home_ends_after_the_whole_play() -> None:
    s0 = state({5: 28, 6: 26}, finished=(4,), hand=("QD", "6H", "7S", "3C", "AH"))
    s = s0.apply(Move.parse("QD>6"))
    assert s.finished == (4, 6, 5) and s.end == END_THREE_HOME
    assert s.is_over() and s.legal_moves() == []
    assert s.outcome() == Outcome(s.winners(), s.scores(), "three pigeons home")
    with pytest.raises(IllegalMove) as exc:
        s.apply(Move.parse("6H>1"))
    assert exc.value.reason == R_GAME_OVER


def test_more_than_three_may_finish_in_one_play() -> None:
    s = state({1: 20, 2: 29, 3: 29}, finished=(6,)).apply(Move.parse("AH>1"))
    assert s.finished == (6, 1, 2, 3) and s.is_over()


def test_deck_running_out_ends_the_race() -> None:
    s0 = state(deck=1)
    assert s0.outcome() is None and not s0.is_over()
    s = s0.apply(Move.parse("6H>6"))
    assert s.deck == () and s.end == END_DECK_EMPTY
    outcome = s.outcome()
    assert outcome is not None and outcome.reason == "deck empty"


def test_ranking_lower_number_first_on_a_shared_square() -> None:
    s = state({3: 17, 4: 17, 5: 9}, finished=(2, 6, 1))
    assert s.ranking() == (2, 6, 1, 3, 4, 5)


def test_scoring_table() -> None:
    assert SCORE_TABLE == (
        (6, 4, 3, 2, 1, 0),
        (4, 6, 4, 3, 2, 1),
        (3, 4, 6, 4, 3, 2),
        (2, 3, 4, 6, 4, 3),
        (1, 2, 3, 4, 6, 4),
        (0, 1, 2, 3, 4, 6),
    )
    assert score(1, 1) == 6 and score(6, 1) == 0


def test_seed_score_example() -> None:
    s = state({6: 24, 3: 19, 4: 11}, finished=(1, 5, 2), orders=((6, 5, 2), (1, 2, 4), (5, 3, 6)))
    assert s.points()[0] == (2, 6, 6)
    assert s.scores() == (14, 12, 10) and s.winners() == (0,)


def test_tie_break_best_placed_pigeon_then_shared() -> None:
    s = state({3: 20, 4: 15, 5: 9}, finished=(2, 6, 1),
              orders=((1, 5, 6), (1, 2, 3), (6, 1, 4)))
    assert s.scores() == (8, 11, 11) and s.winners() == (1,)
    same = state({3: 20, 4: 15, 5: 9}, finished=(2, 6, 1),
                 orders=((1, 2, 3), (1, 2, 3), (6, 1, 4)))
    assert same.winners() == (0, 1)


def test_allotment_table_and_picks() -> None:
    for n, per in ((2, 3), (3, 2), (4, 1), (5, 1), (6, 1)):
        dealt = deal_pigeons(n, random.Random(n))
        assert all(len(d) == per for d in dealt)
        flat = [p for d in dealt for p in d]
        assert len(set(flat)) == len(flat)
    ok = Allotment(((2, 6), (1, 4), (3, 5)), (5, 2, 6), ((6, 5, 2), (1, 2, 4), (5, 3, 6)))
    check_allotment(ok)
    with pytest.raises(SetupError) as exc:
        check_allotment(Allotment(((1, 3, 5), (2, 4, 6)), (3, 1), ((1, 3, 5), (1, 2, 4, 6))))
    assert exc.value.reason == R_PICK_OWN


def test_first_player_ties_draw_again() -> None:
    draws = [[C("QH"), C("4C")], [C("9S")], [C("QD"), C("10H")]]
    assert first_player(draws) == (2, 2)
    with pytest.raises(SetupError):
        first_player([[C("QH"), C("4C")], [C("9S"), C("2C")]])


def test_set_up_deals_hands_orders_and_the_first_player() -> None:
    for n in range(2, 7):
        setup = set_up(n, random.Random(7))
        s = setup.state
        assert all(len(h) == 5 for h in s.hands)
        assert len(s.deck) == 52 - 1 - 5 * n and s.discard == ()
        assert s.positions == (0,) * 6
        assert all(len(o) == {2: 4, 3: 3}.get(n, 2) for o in s.orders)
        winner, _ = first_player(setup.draws)
        assert winner == s.to_move == s.current_player()
        assert RULES.new_game(n, 7) == s and s.turn() == 0 and s.chance_outcomes() == ()


def test_new_game_refuses_player_counts_and_variants_the_game_does_not_have() -> None:
    assert [v.name for v in RULES.variants()] == ["standard"]
    assert (RULES.min_players, RULES.max_players) == (2, 6)
    for players in (1, 7):
        with pytest.raises(ValueError, match="2 to 6 players"):
            RULES.new_game(players, 1)
    with pytest.raises(ValueError, match="no variant 'doubles'"):
        RULES.new_game(3, 1, "doubles")


def test_a_game_counts_one_turn_a_move() -> None:
    played: list[Move] = []
    a = play_out(RULES.new_game(4, 123), random.Random(5), on_move=lambda s, m: played.append(m))
    assert a.is_over()
    assert a.turn() == len(played) and played[0] in RULES.new_game(4, 123).legal_moves()


def test_moves_paste_back_from_their_repr() -> None:
    move = Move.parse("3c>2, 5")
    assert repr(move) == "Move.parse('3C>2,5')"
    assert RULES.parse_move(str(move)) == move


def test_legal_moves_are_all_legal_and_complete() -> None:
    s = state({1: 3}, finished=(6,), hand=("3C", "6H", "7S", "KD", "AH"))
    moves = s.legal_moves()
    # 3C is trump: 5 singles + 20 ordered pairs; the other four cards: 5 singles each.
    assert len(moves) == 25 + 4 * 5 and len(set(moves)) == len(moves)
    for m in moves:
        s.apply(m)


def test_invariants_name_what_is_broken() -> None:
    good = state(orders=((1, 2, 3), (4, 5, 6), (6, 5, 4)))
    assert RULES.invariants(good) == []
    lost = replace(good, deck=good.deck[1:])
    assert any("every card" in b for b in RULES.invariants(lost))
    doubled = replace(good, discard=good.discard + (good.trump_card,))
    assert any("doubled ['2C']" in b for b in RULES.invariants(doubled))
    off = replace(good, positions=(0, 0, 0, 0, 0, 40))
    assert any("start line" in b for b in RULES.invariants(off))
    home = replace(good, positions=(HOME, 0, 0, 0, 0, 0))
    assert any("finishers" in b for b in RULES.invariants(home))
    hand = good.hands[0]
    short = replace(good, hands=(hand[:4], *good.hands[1:]), deck=good.deck + hand[4:])
    assert [b for b in RULES.invariants(short) if "full hands" in b] == RULES.invariants(short)
    order = replace(good, orders=((1, 1, 2), (4, 5, 6), (6, 5, 4)))
    assert any("player 1's order" in b for b in RULES.invariants(order))
    assert RULES.invariants(replace(good, end="rain")) == ["'rain' is not a way the race ends"]
