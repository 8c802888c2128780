"""Pigeon (the card game): properties that hold in every seeded random game."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rulepress.games.pigeon.cards import DECK
from rulepress.games.pigeon.rules import (
    DREW_LAST,
    NO_MOVE,
    Phase,
    State,
    new_game,
    random_game,
)

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def every_card(state: State) -> Counter[object]:
    where: Counter[object] = Counter()
    for seat in state.seats:
        where.update(seat.deck)
        where.update(seat.hand)
    for pile in state.piles:
        where.update(pile.cards)
    where.update(state.out)
    return where


def check_invariants(state: State) -> None:
    # All 52 cards, each exactly once, somewhere: decks, hands, piles or out of play.
    assert every_card(state) == Counter(DECK)
    # The Pigeon is in exactly one place: aside (None) or with one of the two players.
    assert state.pigeon in (None, 0, 1)
    for seat in state.seats:
        assert seat.limit in (4, 5)
        assert len(seat.hand) <= 5
        if state.phase is not Phase.OPENING:
            assert len(seat.hand) <= seat.limit
    labels = [p.label for p in state.piles]
    assert len(labels) == len(set(labels)) and all(p.cards for p in state.piles)


@settings(max_examples=400, deadline=None)
@given(SEEDS)
def test_random_games_keep_every_invariant_and_end_with_one_winner(seed: int) -> None:
    game = random_game(seed)
    assert game.states[0] == new_game(seed)
    for state in game.states:
        check_invariants(state)
    final = game.final
    assert final.phase is Phase.OVER and final.winner in (0, 1)
    assert final.win_reason in (DREW_LAST, NO_MOVE)
    if final.win_reason == DREW_LAST:
        assert final.seats[final.winner].deck == ()
    else:
        assert final.seats[1 - final.winner].limit == 4
    # Only the final state is over, and exactly one deck can be empty.
    assert all(not s.over for s in game.states[:-1])
    assert sum(not seat.deck for seat in final.seats) <= 1


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_every_move_played_was_listed_and_replays_identically(seed: int) -> None:
    game = random_game(seed)
    state = game.states[0]
    for move, expected in zip(game.moves, game.states[1:], strict=True):
        assert move in state.legal_moves()
        state = state.apply(move)
        assert state == expected
    assert random_game(seed) == game


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_moves_round_trip_through_notation(seed: int) -> None:
    from rulepress.games.pigeon.rules import parse_move

    for move in random_game(seed).moves:
        assert parse_move(str(move)) == move


def test_games_terminate_quickly() -> None:
    # Every turn draws a card or spends the one Forceplay the limit allows: games are short.
    lengths = [len(random_game(seed).moves) for seed in range(300)]
    assert max(lengths) < 120
