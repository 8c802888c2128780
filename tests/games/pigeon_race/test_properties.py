"""Pigeon Race properties over seeded random games that the shared protocol test does not cover
(it checks the invariants, the move order, that every listed move is accepted and none twice,
and the notation): the points follow the scoring table."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rulepress.games.base import play_out
from rulepress.games.pigeon_race.rules import RULES, State, score

seeds = st.integers(min_value=0, max_value=2**32 - 1)
player_counts = st.integers(min_value=2, max_value=6)


def final(seed: int, players: int) -> State:
    end = play_out(RULES.new_game(players, seed), random.Random(seed))
    assert isinstance(end, State)
    return end


@settings(max_examples=60, deadline=None)
@given(seeds, player_counts)
def test_scores_follow_the_table(seed: int, players: int) -> None:
    end = final(seed, players)
    places = end.places()
    for order, points in zip(end.orders, end.points(), strict=True):
        assert points == tuple(score(i + 1, places[p]) for i, p in enumerate(order))
        assert all(0 <= x <= 6 for x in points)
    assert max(end.scores()) <= 6 * len(end.orders[0])
    outcome = end.outcome()
    assert outcome is not None and outcome.scores == end.scores() and outcome.winners

