"""Worm Derby over whole seeded games: what the goal-directed players reach that random play
(tests/test_protocol.py) hardly does: finishes, bites, regrowth, obstacle moves."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulepress.games.base import GameState, play_out
from rulepress.games.worm_derby.moves import Regrow, ShiftTile, Steps
from rulepress.games.worm_derby.player import GoalPlayer
from rulepress.games.worm_derby.rules import GAMES, RULES, State, deal

GOAL = GoalPlayer()


def play(state: State, seed: int, agent: Any = GOAL) -> tuple[State, list[Any]]:
    """The game to its end, every seat ``agent``; every state keeps the invariants."""
    log: list[Any] = []

    def check(s: GameState[Any], move: Any) -> None:
        assert RULES.invariants(s) == []
        log.append(move)

    final = play_out(state, random.Random(seed), [agent] * len(state.players), on_move=check)
    assert RULES.invariants(final) == []
    assert isinstance(final, State)
    return final, log


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_wandering_goal_players_keep_the_invariants_and_end(game: str, n_players: int) -> None:
    for seed in range(3):
        rng = random.Random(seed * 31 + n_players)
        state = deal(rng, n_players, game, length=24, max_turns=150)
        final, _ = play(state, seed, GoalPlayer(wander=0.25))
        outcome = final.outcome()
        assert outcome is not None and len(set(final.places)) == len(final.places)
        if len(final.places) == n_players:
            assert outcome.winners == (final.places[0],)


def test_bites_regrowth_and_obstacle_moves_happen() -> None:
    bites = regrows = shifts = 0
    for seed in range(6):
        state = deal(random.Random(seed), 3, "cannibal", length=24)
        final, log = play(state, seed, GoalPlayer(wander=0.1))
        bites += sum(isinstance(m, Steps) and m.eats for m in log)
        regrows += sum(isinstance(m, Regrow) for m in log)
        shifts += sum(isinstance(m, ShiftTile) for m in log)
        assert final.is_over()
    assert bites > 0 and regrows > 0 and shifts > 0


def test_worm_cells_read_back_from_their_names() -> None:
    state = deal(random.Random(2), 2, "basic", length=16, obstacle_tiles=6)

    def check(s: GameState[Any], move: Any) -> None:
        assert isinstance(s, State)
        for p, worm in enumerate(s.worms):
            if worm is not None:
                assert tuple(s.grid.parse(n) for n in s.worm_names(p)) == worm.cells

    play_out(state, random.Random(2), [GoalPlayer(wander=0.3)] * 2, on_move=check)


def test_seeded_games_replay_identically() -> None:
    a, log_a = play(RULES.new_game(2, 7), 7)
    b, log_b = play(RULES.new_game(2, 7), 7)
    assert log_a == log_b and a == b
    assert play(RULES.new_game(2, 8), 8)[1] != log_a


def test_goal_directed_players_finish_standard_races() -> None:
    for seed in range(5):
        final, _ = play(RULES.new_game(2, seed), seed)
        assert len(final.places) == 2  # a real finish, not the turn cap
        outcome = final.outcome()
        assert outcome is not None and outcome.scores[final.places[0]] == 1
        assert outcome.reason == "every worm is home but the last, which takes last place"
