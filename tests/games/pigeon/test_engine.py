"""Pigeon (the card game): one test or more per rule, on hand-built positions."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rulepress.games.base import IllegalMove, NotationError, Outcome
from rulepress.games.pigeon.cards import DECK, Card, parse_cards
from rulepress.games.pigeon.rules import (
    DRAW,
    DREW_LAST,
    NO_MOVE,
    PIGEON,
    RULES,
    Move,
    Phase,
    Pile,
    Play,
    Reason,
    Seat,
    State,
    Sweep,
    deal,
    parse_move,
    play_error,
    plays_from,
    seeded_deal,
    shuffled_deck,
)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def position(
    piles: dict[str, str],
    hand: str,
    *,
    other: str = "2C 3C 4C 5C 6C",
    deck: str = "9C 10C JC QC KC",
    other_deck: str = "9D 10D JD QD KD",
    limit: int = 5,
    other_limit: int = 5,
    pigeon: int | None = None,
) -> State:
    """Player 1 (seat 0) to move."""
    return State(
        seats=(
            Seat(cards(deck), cards(hand), limit),
            Seat(cards(other_deck), cards(other), other_limit),
        ),
        piles=tuple(Pile(label, cards(text)) for label, text in piles.items()),
        pigeon=pigeon,
    )


def illegal(state: State, move: str) -> str:
    with pytest.raises(IllegalMove) as exc:
        state.apply(parse_move(move))
    return exc.value.reason


# --- notation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["7H 8H 9H > B", "7H > new", "force KS > A", "sweep AC AD AS", "pigeon", "draw", "10D > C"],
)
def test_moves_round_trip(text: str) -> None:
    assert str(parse_move(text)) == text
    assert parse_move(str(parse_move(text))) == parse_move(text)


def test_every_card_round_trips() -> None:
    assert len(DECK) == 52 and len(set(DECK)) == 52
    for c in DECK:
        assert Card.parse(str(c)) is c
    assert Card.parse("TD") == Card.parse("10D")


@pytest.mark.parametrize("text", ["", "7H 8H", "7H > ", "7X > A", "7H > AA", "> A", "sweep"])
def test_bad_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move(text)


# --- the deal and the opening ----------------------------------------------------------------


def test_deal_splits_the_shuffled_deck_and_draws_five_each() -> None:
    state = seeded_deal(7)
    order = shuffled_deck(7)
    assert state.seats[0].hand == order[:5] and state.seats[1].hand == order[26:31]
    assert len(state.seats[0].deck) == len(state.seats[1].deck) == 21
    assert state.phase is Phase.OPENING and state.to_move == 0 and state.pigeon is None
    assert seeded_deal(7) == seeded_deal(7) and seeded_deal(7) != seeded_deal(8)


def test_opening_lays_four_piles_from_the_hands_then_refills_and_player_2_starts() -> None:
    state = deal(DECK[:26], DECK[26:])
    seats = []
    for _ in range(4):
        seats.append(state.to_move)
        moves = state.legal_moves()
        assert all(isinstance(m, Play) and m.pile is None and len(m.cards) == 1 for m in moves)
        state = state.apply(moves[-1])
    assert seats == [0, 1, 1, 0]
    assert [p.label for p in state.piles] == ["A", "B", "C", "D"]
    assert [len(s.hand) for s in state.seats] == [5, 5]
    assert [len(s.deck) for s in state.seats] == [19, 19]
    assert state.phase is Phase.PLAY and state.to_move == 1


def test_an_opening_king_finishes_nothing() -> None:
    state = deal(cards("KS 2C 3C 4C 5C") + DECK[13:34], DECK[34:] + DECK[5:13])
    state = state.apply(parse_move("KS > new"))
    assert state.piles[0].cards == cards("KS") and state.pigeon is None and not state.completed


def test_the_opening_lays_single_cards_only() -> None:
    state = deal(DECK[:26], DECK[26:])
    assert illegal(state, "AC 2C > new") == Reason.OPENING
    assert illegal(state, "force AC > A") == Reason.NOT_IN_OPENING


# --- connection, Set, String -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "card", "ok"),
    [
        ("7C", "8H", True),
        ("7C", "6D", True),
        ("7C", "7H", False),
        ("AS", "KH", False),
        ("KD", "AC", False),
        ("AC", "2H", True),
        ("KC", "QH", True),
        ("5C", "9H", False),
    ],
)
def test_connection_rule(top: str, card: str, ok: bool) -> None:
    state = position({"A": top}, f"{card} 3S")
    if ok:
        assert state.apply(parse_move(f"{card} > A")).piles[0].cards[-1] == Card.parse(card)
    else:
        assert illegal(state, f"{card} > A") == Reason.CONNECTION


def test_only_the_bottom_card_connects() -> None:
    state = position({"A": "5C"}, "6H 6S 6D 2C")
    after = state.apply(parse_move("6H 6S 6D > A"))
    assert after.piles[0].cards == cards("5C 6H 6S 6D")
    assert illegal(position({"A": "5C"}, "7H 6H 2C"), "7H 6H > A") == Reason.CONNECTION


def test_set_and_string_shapes() -> None:
    assert play_error(cards("6H")) is None  # one card is a Set
    assert play_error(cards("6H 6S 6D 6C")) is None
    assert play_error(cards("6H 7H 8H 7D")) is None  # a String may turn back
    assert play_error(cards("QS JS")) is None
    assert play_error(cards("7H 8S")) == Reason.STRING_COLOUR
    assert play_error(cards("7H 9H")) == Reason.NOT_SET_OR_STRING
    assert play_error(cards("KH AH")) == Reason.NOT_SET_OR_STRING  # no wrap inside a String
    assert play_error(cards("7H 7H")) == Reason.REPEATED


def test_string_colour_need_not_match_the_pile() -> None:
    after = position({"A": "6C"}, "7H 8H 2S").apply(parse_move("7H 8H > A"))
    assert after.piles[0].cards == cards("6C 7H 8H")


def test_cards_must_be_in_hand() -> None:
    assert illegal(position({"A": "6C"}, "7H 2S"), "7D > A") == Reason.NOT_IN_HAND
    assert illegal(position({"A": "6C"}, "7H 2S"), "7H > B") == Reason.NO_PILE


def test_plays_from_lists_sets_and_strings_in_every_order() -> None:
    plays = set(plays_from(cards("6H 7H 8H 7D")))
    assert cards("6H 7H 8H 7D") in plays and cards("7D 8H 7H 6H") in plays
    assert cards("7H 7D") in plays and cards("8H") in plays
    assert all(play_error(p) is None for p in plays)


# --- check: finishing piles and the Pigeon ---------------------------------------------------


def test_a_king_on_top_finishes_the_pile_and_takes_the_pigeon_from_the_opponent() -> None:
    state = position({"A": "QC", "B": "5D"}, "KH 2S", pigeon=1)
    after = state.apply(parse_move("KH > A"))
    assert [p.label for p in after.piles] == ["B"]
    assert after.pigeon == 0 and after.completed == ("A",)
    assert set(cards("QC KH")) <= set(after.out)


def test_a_string_ending_in_an_ace_finishes_the_pile() -> None:
    after = position({"A": "3C"}, "2D AD 6S").apply(parse_move("2D AD > A"))
    assert after.pigeon == 0 and not after.piles


def test_an_ace_inside_a_string_finishes_nothing() -> None:
    after = position({"A": "3C"}, "2D AD 2H 6S").apply(parse_move("2D AD 2H > A"))
    assert after.pigeon is None and after.piles[0].top == Card.parse("2H")


def test_new_piles_need_a_seven_or_eight_or_fewer_than_three_piles() -> None:
    three = {"A": "4C", "B": "10D", "C": "QS"}
    assert illegal(position(three, "QH JH 2C"), "QH JH > new") == Reason.NEW_PILE
    assert position(three, "7C 2C").apply(parse_move("7C > new")).piles[-1].label == "D"
    assert position(three, "8D 9D 2C").apply(parse_move("8D 9D > new")).piles[-1].cards == cards(
        "8D 9D"
    )
    two = {"A": "4C", "B": "10D"}
    assert position(two, "QH JH 2C").apply(parse_move("QH JH > new")).piles[-1].label == "C"


def test_a_new_pile_is_not_finished_when_laid_but_can_be_later() -> None:
    state = position({"A": "5C"}, "AH 2C", other="2S AS 9H 9S JC")
    after = state.apply(parse_move("AH > new"))
    assert after.pigeon is None and after.piles[-1].cards == cards("AH")
    later = after.apply(parse_move("2S AS > B"))
    assert later.pigeon == 1 and [p.label for p in later.piles] == ["A"]


def test_new_pile_takes_the_first_free_letter() -> None:
    state = position({"A": "5C", "C": "9D"}, "7H 2C")
    assert state.apply(parse_move("7H > new")).piles[-1].label == "B"


# --- Sweep -----------------------------------------------------------------------------------


def test_sweep_clears_every_pile_without_the_pigeon() -> None:
    state = position({"A": "5C 6C", "B": "JH"}, "KC KD KS 4H 2S")
    after = state.apply(parse_move("sweep KC KD KS"))
    assert after.piles == () and after.pigeon is None
    assert len(after.seats[0].hand) == 5 and len(after.out) == 6


@pytest.mark.parametrize("move", ["sweep KC KD AS", "sweep KC KD", "sweep QC QD QS"])
def test_sweep_needs_three_aces_or_three_kings(move: str) -> None:
    state = position({"A": "5C"}, "KC KD AS QC QD QS" if "Q" in move else "KC KD AS")
    if "Q" in move:
        state = position({"A": "5C"}, "QC QD QS 2H")
    assert illegal(state, move) == Reason.SWEEP


def test_sweep_with_four_kings_chooses_three_and_works_on_an_empty_table() -> None:
    state = position({}, "KC KD KH KS 2H")
    sweeps = [m for m in state.legal_moves() if isinstance(m, Sweep)]
    assert len(sweeps) == 4
    assert state.apply(sweeps[0]).piles == ()


# --- Forceplay and the Pigeon discard --------------------------------------------------------


def test_forceplay_ignores_connection_never_finishes_and_drops_the_limit() -> None:
    state = position({"A": "4C"}, "KH 6S JC QH 10C")
    after = state.apply(parse_move("force KH > A"))
    assert after.piles[0].cards == cards("4C KH") and after.pigeon is None
    assert after.seats[0].limit == 4 and len(after.seats[0].hand) == 4
    assert len(after.seats[0].deck) == 5  # already at the new limit: nothing drawn


def test_forceplay_rules() -> None:
    state = position({"A": "4C"}, "KH 6S 7D", limit=4)
    assert illegal(state, "force KH > A") == Reason.FORCE_LIMIT
    assert illegal(position({"A": "4C"}, "KH 6S"), "force KH > new") == Reason.FORCE_TARGET
    assert illegal(position({"A": "4C"}, "KH 6S"), "force KH 6S > A") == Reason.NOT_SET_OR_STRING


def test_force_then_discard_the_pigeon_before_drawing() -> None:
    state = position({"A": "4C", "B": "10S"}, "KH 2C 3D 9S JC", pigeon=0)
    mid = state.apply(parse_move("force KH > A"))
    assert mid.phase is Phase.DRAW and mid.to_move == 0
    assert set(mid.legal_moves()) == {PIGEON, DRAW}
    assert illegal(mid, "2C > new") == Reason.DRAW_FIRST
    after = mid.apply(PIGEON)
    assert after.seats[0].limit == 5 and len(after.seats[0].hand) == 5 and after.pigeon is None
    assert after.to_move == 1
    kept = mid.apply(DRAW)
    assert kept.seats[0].limit == 4 and kept.pigeon == 0 and len(kept.seats[0].hand) == 4


def test_pigeon_discard_only_by_its_holder_at_limit_four() -> None:
    assert illegal(position({"A": "4C"}, "2C", limit=4), "pigeon") == Reason.NO_PIGEON
    assert illegal(position({"A": "4C"}, "2C", pigeon=0), "pigeon") == Reason.PIGEON_LIMIT
    state = position({"A": "4C"}, "7S 2C 2D JC", limit=4, pigeon=0)
    after = state.apply(PIGEON)
    assert after.to_move == 0 and after.seats[0].limit == 5 and after.pigeon is None
    assert illegal(position({"A": "4C"}, "2C"), "draw") == Reason.NO_DRAW


# --- winning ---------------------------------------------------------------------------------


def test_drawing_the_last_card_wins_at_once() -> None:
    state = position({"A": "7C"}, "8H 9H 3S 5D JC", deck="KD")
    after = state.apply(parse_move("8H 9H > A"))
    assert after.phase is Phase.OVER and after.winner == 0 and after.win_reason == DREW_LAST
    assert list(after.legal_moves()) == []
    assert illegal(after, "3S > new") == Reason.GAME_OVER


def test_no_legal_move_at_the_start_of_a_turn_loses() -> None:
    piles = {"A": "5C", "B": "10H", "C": "2S"}
    state = position(piles, "9S 3D 6H JC QC", other="KC KD 5H 5S", other_limit=4)
    after = state.apply(parse_move("9S > B"))
    assert after.winner == 0 and after.win_reason == NO_MOVE


def test_holding_the_pigeon_at_limit_four_is_never_stuck() -> None:
    piles = {"A": "5C", "B": "10H", "C": "2S"}
    stuck = position(piles, "9S 3D 6H JC QC", other="KC KD 5H 5S", other_limit=4, pigeon=1)
    after = stuck.apply(parse_move("9S > B"))
    assert after.winner is None and list(after.legal_moves()) == [PIGEON]


def test_a_hand_limit_of_five_always_has_a_move() -> None:
    state = position({"A": "5C", "B": "10H", "C": "2S"}, "KC KD 5H 5S QC")
    assert state.has_legal_move()
    assert all(isinstance(m, Play) and m.force for m in state.legal_moves())


def test_has_legal_move_agrees_with_the_listed_moves() -> None:
    for seed in range(20):
        state = seeded_deal(seed)
        while not state.is_over():
            moves = state.legal_moves()
            assert moves and state.has_legal_move()
            state = state.apply(moves[seed % len(moves)])


def test_a_player_view_hides_the_opponents_hand_and_the_deck_order() -> None:
    state = seeded_deal(3)
    view = state.view(0)
    assert view.hand == state.seats[0].hand
    assert view.opponent_hand_size == 5 and view.deck_sizes == (21, 21)
    assert not hasattr(view, "seats")


def test_a_sample_of_a_view_deals_the_unseen_cards_as_a_real_deal_would() -> None:
    """What a search plans on: every card the seat cannot see is as likely to be in the other
    hand, in its own deck or in the other deck as the sizes say, and the deal is one the
    view could come from (checked against the frequencies of 3,000 samples)."""
    import random

    from rulepress.games.pigeon.rules import sample

    state = seeded_deal(3)
    rng = random.Random(5)
    while state.turn() < 6:  # some piles out, a hand drawn from, both decks shortened
        state = state.apply(next(iter(state.legal_moves())))
    view = state.view(0)
    seen = {*view.hand, *view.out, *(c for p in view.piles for c in p.cards)}
    unseen = [c for c in DECK if c not in seen]
    where = {c: [0, 0, 0] for c in unseen}
    n = 3000
    for _ in range(n):
        deal = sample(view, rng)
        assert deal.view(0) == view
        for c in deal.seats[1].hand:
            where[c][0] += 1
        for c in deal.seats[0].deck:
            where[c][1] += 1
        for c in deal.seats[1].deck:
            where[c][2] += 1
    sizes = (view.opponent_hand_size, *view.deck_sizes)
    for card, counts in where.items():
        for count, size in zip(counts, sizes, strict=True):
            p = size / len(unseen)
            assert abs(count / n - p) < 5 * (p * (1 - p) / n) ** 0.5, (card, counts, sizes)


# --- decisions from the Clarifications appendix, one test each -------------------------------


def test_a_forceplay_that_happens_to_connect_is_allowed_and_still_finishes_nothing() -> None:
    """Decision 9: a Forceplay may connect; it keeps its price and never finishes (diff. 17)."""
    state = position({"A": "QC", "B": "5D"}, "KH 2S 4D 9C JH")
    after = state.apply(parse_move("force KH > A"))
    assert after.piles[0].cards == cards("QC KH") and after.completed == ()
    assert after.pigeon is None and after.seats[0].limit == 4


def test_a_sweep_is_allowed_at_limit_four_and_when_other_plays_exist() -> None:
    """Decision 8: a Sweep is always an option with the three cards, at either limit."""
    state = position({"A": "2C", "B": "JD", "C": "9S"}, "AC AD AS 10H", limit=4)
    moves = set(state.legal_moves())
    assert parse_move("sweep AC AD AS") in moves and parse_move("10H > B") in moves
    after = state.apply(parse_move("sweep AC AD AS"))
    assert after.piles == () and after.seats[0].limit == 4 and len(after.seats[0].hand) == 4


def test_after_the_pigeon_restores_the_limit_a_forceplay_is_allowed_again() -> None:
    """Decision 17: back at limit 5, the player may force (and drop to 4) once more."""
    state = position({"A": "4C", "B": "10S", "C": "6D"}, "KH 2C 3D 9S", limit=4, pigeon=0)
    assert illegal(state, "force KH > A") == Reason.FORCE_LIMIT
    after = state.apply(PIGEON).apply(parse_move("force KH > A"))
    assert after.seats[0].limit == 4 and after.pigeon is None and after.to_move == 1


def test_finishing_a_pile_while_holding_the_pigeon_keeps_it() -> None:
    """Decision 13: winning the Pigeon you already hold changes nothing."""
    state = position({"A": "QC", "B": "5D", "C": "8S"}, "KH 2S 4D 9C JH", pigeon=0)
    after = state.apply(parse_move("KH > A"))
    assert after.pigeon == 0 and after.completed == ("A",) and after.to_move == 1


# --- the rules protocol ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["7H 8H 9H > B", "7H > new", "force KS > A", "sweep AC AD AS", "pigeon", "draw"]
)
def test_every_kind_of_move_pastes_back_from_its_repr(text: str) -> None:
    move = RULES.parse_move(text)
    assert repr(move) == f"Move.parse({text!r})"
    assert eval(repr(move), {"Move": Move}) == move


def test_legal_moves_are_a_lazy_sequence_in_a_fixed_order() -> None:
    state = position({"A": "5C", "B": "10H"}, "6H 7H 9S JC QC")
    moves = state.legal_moves()
    listed = list(moves)
    assert len(moves) == len(listed) > 10 and len(set(listed)) == len(listed)
    assert moves[-1] == listed[-1] and moves[2:5] == tuple(listed[2:5])
    assert listed[0] == parse_move("6H > A") and listed[-1] == parse_move("force QC JC > B")
    with pytest.raises(IndexError):
        moves[len(moves)]


def test_turns_count_the_opening_as_three_then_each_whole_turn() -> None:
    state = deal(DECK[:26], DECK[26:])
    for _ in range(4):
        state = state.apply(state.legal_moves()[0])
    assert state.turn() == 3 and state.phase is Phase.PLAY
    mid = position({"A": "4C", "B": "10S"}, "KH 2C 3D 9S JC", pigeon=0).apply(
        parse_move("force KH > A")
    )
    assert mid.turn() == 0 and mid.current_player() == 0, "the turn goes on to the draw"
    assert mid.apply(PIGEON).turn() == 1 and mid.apply(DRAW).turn() == 1


def test_outcome_names_the_winner_and_how_the_game_ended() -> None:
    running = position({"A": "7C"}, "8H 9H 3S 5D JC", deck="KD")
    assert running.outcome() is None and running.chance_outcomes() == ()
    drew = running.apply(parse_move("8H 9H > A"))
    assert drew.outcome() == Outcome((0,), (1, 0), DREW_LAST)
    stuck = position(
        {"A": "5C", "B": "10H", "C": "2S"}, "9S 3D 6H JC QC", other="KC KD 5H 5S", other_limit=4
    ).apply(parse_move("9S > B"))
    assert stuck.outcome() == Outcome((0,), (1, 0), NO_MOVE)


def test_new_game_is_the_seeded_deal_for_two_players_only() -> None:
    assert RULES.new_game(2, 7) == seeded_deal(7) and seeded_deal(7).turn() == 0
    assert [v.name for v in RULES.variants()] == ["standard"]
    with pytest.raises(ValueError, match="for 2 players"):
        RULES.new_game(3, 7)
    with pytest.raises(ValueError, match="no variant"):
        RULES.new_game(2, 7, "solo")


def test_invariants_name_what_is_broken() -> None:
    good = position({"A": "4D"}, "7S 2H 2D JH", limit=4, pigeon=0)
    good = replace(good, out=tuple(c for c in DECK if c not in every_card(good)))
    assert RULES.invariants(good) == []
    doubled = replace(good, out=good.out + (Card.parse("4D"),))
    assert RULES.invariants(doubled) == [
        "every card is in one place: doubled ['4D'], missing []"
    ]
    seat = good.seats[0]
    over = replace(good, seats=(Seat(seat.deck[1:], seat.hand + seat.deck[:1], 4), good.seats[1]))
    assert RULES.invariants(over) == ["Player 1 holds 5 cards, over the limit 4"]
    twice = replace(good, piles=(Pile("A", cards("4D")), Pile("A", ())), out=good.out)
    assert RULES.invariants(twice) == ["piles have different letters and a card at least: "
                                       "['A', 'A']"]
    drawing = replace(good, phase=Phase.DRAW, pigeon=None)
    assert any("stops before drawing" in b for b in RULES.invariants(drawing))
    lost = replace(good, phase=Phase.OVER, winner=1, win_reason=NO_MOVE)
    assert RULES.invariants(lost) == ["the loser had no legal move, yet has one"]
    odd = replace(good, phase=Phase.OVER, winner=1, win_reason="rain")
    assert RULES.invariants(odd) == ["'rain' is not a way the game ends"]


def every_card(state: State) -> set[Card]:
    held = {c for seat in state.seats for c in seat.deck + seat.hand}
    return held | {c for pile in state.piles for c in pile.cards} | set(state.out)
