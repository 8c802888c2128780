"""Pigeon Race properties over many seeded random games (hypothesis chooses the seeds)."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rulepress.games.pigeon_race.cards import DECK
from rulepress.games.pigeon_race.rules import (
    END_DECK_EMPTY,
    END_THREE_HOME,
    HAND_SIZE,
    HOME,
    PIGEONS,
    SQUARES,
    Move,
    State,
    all_cards,
    apply_move,
    legal_moves,
    random_game,
    score,
)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.integers(min_value=2, max_value=6)


def replay(seed: int, players: int) -> list[State]:
    game = random_game(seed, players)
    states = [game.setup.state]
    for move in game.moves:
        states.append(apply_move(states[-1], move))
    assert states[-1] == game.final
    return states


def check_invariants(s: State) -> None:
    cards = all_cards(s)
    assert Counter(cards) == Counter(DECK), "every card is somewhere exactly once"
    assert all(0 <= p <= SQUARES or p == HOME for p in s.positions)
    assert set(s.finished) == {p for p in PIGEONS if s.positions[p - 1] == HOME}
    assert len(set(s.finished)) == len(s.finished)
    assert sorted(s.ranking()) == list(PIGEONS)
    if not s.over:
        assert all(len(h) == HAND_SIZE for h in s.hands)
        assert s.deck and len(s.finished) < 3


@settings(max_examples=60, deadline=None)
@given(seeds, player_counts)
def test_every_state_keeps_the_invariants_and_the_game_ends(seed: int, players: int) -> None:
    states = replay(seed, players)
    for s in states:
        check_invariants(s)
    final = states[-1]
    assert final.over
    assert final.end == END_THREE_HOME or (final.end == END_DECK_EMPTY and not final.deck)
    if final.end == END_THREE_HOME:
        assert len(final.finished) >= 3
    # Game length is bounded by the deck: one card drawn per turn.
    assert len(states) - 1 <= 52 - 1 - HAND_SIZE * players


@settings(max_examples=60, deadline=None)
@given(seeds, player_counts)
def test_scores_follow_the_table(seed: int, players: int) -> None:
    final = random_game(seed, players).final
    places = final.places()
    for order, points in zip(final.orders, final.points(), strict=True):
        assert points == tuple(score(i + 1, places[p]) for i, p in enumerate(order))
        assert all(0 <= x <= 6 for x in points)
    assert max(final.scores()) <= 6 * len(final.orders[0])
    assert final.winners()


@settings(max_examples=40, deadline=None)
@given(seeds, player_counts)
def test_moves_round_trip_and_legal_moves_are_legal(seed: int, players: int) -> None:
    states = replay(seed, players)
    for s in states[:-1:5]:
        moves = legal_moves(s)
        assert moves and len(set(moves)) == len(moves)
        for m in moves:
            assert Move.parse(str(m)) == m
            apply_move(s, m)
