"""Worm Derby over many seeded games: the invariants hold in every state, every game ends."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulepress.games.worm_derby import play_game, random_game
from rulepress.games.worm_derby.moves import FACES, parse_move
from rulepress.games.worm_derby.player import VARIANTS, GoalPlayer, new_state
from rulepress.games.worm_derby.rules import Phase, State

DISKS = 6


def check(state: State) -> None:
    g = state.grid
    nbrs = g.neighbours
    taken: set[int] = set()
    for p, worm in enumerate(state.worms):
        if worm is None:
            assert state.phase in (Phase.PLACE, Phase.BUILD) or p in state.places or state.over
            continue
        cells = worm.cells
        assert len(worm.marks) == len(cells)
        assert 2 <= len(cells) <= DISKS
        assert len(set(cells)) == len(cells)
        for i, c in enumerate(cells):
            chain = {cells[j] for j in (i - 1, i + 1) if 0 <= j < len(cells)}
            # connected, unbranched and loop-free: each disk touches exactly its chain neighbours
            assert {n for n in nbrs[c] if n in cells} == chain
            assert c not in state.tile_cells
        assert not taken & set(cells), "worms overlap"
        taken |= set(cells)
        # disks are conserved: on the worm or eaten, waiting to regrow
        assert len(cells) + state.eaten[p] == DISKS
        if state.retreat[p] is not None:
            assert state.options.cannibal
    obstacle_cells = [c for a in state.obstacles for c in g.tile_cells(a)]
    assert len(obstacle_cells) == len(set(obstacle_cells)), "obstacles overlap"
    assert not set(obstacle_cells) & state.layout.fixed_cells
    if state.phase is Phase.RACE:
        assert state.layout.open_course(state.tile_cells)


def play_checked(seed: int, n_players: int, variant: str, wander: float) -> State:
    rng = random.Random(seed)
    state = new_state(rng, n_players, variant, length=24, max_turns=150)
    players = [GoalPlayer(random.Random(rng.random()), wander=wander) for _ in range(n_players)]
    dealt = sum(state.hands)
    rolls = 0
    while not state.over:
        check(state)
        if state.needs_roll:
            state = state.roll(rng.choice(FACES))
            rolls += 1
            assert rolls < 10_000
            continue
        state = state.play(players[state.to_move](state))
        if state.phase is Phase.RACE:
            assert len(state.obstacles) == dealt
    check(state)
    return state


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_invariants_hold_and_games_end(variant: str, n_players: int) -> None:
    for seed in range(5):
        final = play_checked(seed * 31 + n_players, n_players, variant, wander=0.25)
        assert final.over
        if final.places:
            assert len(set(final.places)) == len(final.places)
        if len(final.places) == n_players:
            assert final.winner == final.players[final.places[0]]


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10**9), st.sampled_from(VARIANTS),
       st.integers(min_value=2, max_value=4), st.sampled_from([0.0, 0.2, 0.6]))
def test_any_seed_keeps_the_invariants(seed: int, variant: str, n_players: int,
                                       wander: float) -> None:
    assert play_checked(seed, n_players, variant, wander).over


def test_bites_and_regrowth_happen_in_cannibal_games() -> None:
    bites = regrows = 0
    for seed in range(6):
        game = random_game(seed, 3, "cannibal", length=24)
        bites += sum("x" in entry for entry in game.log)
        regrows += sum(entry.startswith("+") for entry in game.log)
        assert game.final.over
    assert bites > 0
    assert regrows > 0


def test_moves_are_legal_and_positions_round_trip() -> None:
    """The player's move is always among the legal moves, and notation round-trips."""
    for seed in range(2):
        rng = random.Random(seed)
        state = new_state(rng, 2, "cannibal", length=16, obstacle_tiles=6)
        players = [GoalPlayer(random.Random(seed + i), wander=0.3) for i in range(2)]
        while not state.over:
            if state.needs_roll:
                state = state.roll(rng.choice(FACES))
                continue
            move = players[state.to_move](state)
            if state.phase is Phase.RACE:
                assert str(move) in {str(m) for m in state.legal_moves()}
            assert str(parse_move(str(move))) == str(move)
            state = state.play(parse_move(str(move)))
            for p, worm in enumerate(state.worms):
                if worm is not None:
                    names = state.worm_names(p)
                    assert tuple(state.grid.parse(n) for n in names) == worm.cells


def test_seeded_games_replay_identically() -> None:
    a, b = play_game(7), play_game(7)
    assert a.log == b.log and a.final == b.final
    assert play_game(8).log != a.log


def test_goal_directed_players_finish_standard_races() -> None:
    for seed in range(5):
        game = play_game(seed)
        assert game.final.over
        assert len(game.final.places) == 2  # a real finish, not the turn cap
