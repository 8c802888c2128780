"""Every registered engine, played at random through the shared rules protocol only.

One test for all games (it replaced a private copy per game): each state keeps the game's own
invariants (``Rules.invariants``) and the protocol's (fixed move order, moves that round-trip
through text, frozen states, turn order, an outcome exactly when over), and every game ends.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulepress.games import available_engines, load_engine
from rulepress.games.base import CHANCE, GameState, Rules, chance_move, random_agent

BUNDLED = ("go_stop", "pigeon", "pigeon_race", "worm_derby")
MAX_MOVES = 20_000  # far beyond any real game: a loop is a bug


def rules_of(name: str) -> Rules:
    rules = load_engine(name).rules()
    assert rules is not None, f"the {name} engine has no rules"
    return rules


def engines_with_rules() -> list[str]:
    return [n for n in available_engines() if getattr(load_engine(n), "rules", None)
            and load_engine(n).rules() is not None]


def test_every_bundled_engine_follows_the_protocol() -> None:
    assert set(BUNDLED) <= set(engines_with_rules())


def check_state(rules: Rules, state: GameState[Any], players: int) -> None:
    broken = rules.invariants(state)
    assert not broken, broken
    moves = state.legal_moves()
    assert list(moves) == list(state.legal_moves()), "legal moves come in a fixed order"
    if state.is_over():
        assert len(moves) == 0
        outcome = state.outcome()
        assert outcome is not None and len(outcome.scores) == players
        assert all(0 <= w < players for w in outcome.winners)
        return
    assert state.outcome() is None
    seat = state.current_player()
    assert seat == CHANCE or 0 <= seat < players
    assert len(moves) > 0, "a running game always offers a move"
    if seat == CHANCE:
        total = sum(p for _, p in state.chance_outcomes())
        assert abs(total - 1) < 1e-9
    for move in list(moves)[:50]:
        text = str(move)
        assert rules.parse_move(text) == move, f"{text!r} does not round-trip"
        # repr pastes back: an expression of Move.parse, as python-chess's Move.from_uci('e2e4').
        namespace = {"Move": SimpleNamespace(parse=rules.parse_move)}
        assert eval(repr(move), namespace) == move, f"repr {move!r} does not paste back"


@pytest.mark.parametrize("name", BUNDLED)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_games_keep_every_invariant_and_end(name: str, seed: int, data: Any) -> None:
    rules = rules_of(name)
    players = data.draw(st.integers(rules.min_players, rules.max_players))
    variant = data.draw(st.sampled_from([v.name for v in rules.variants()]))
    state = rules.new_game(players, seed, variant)
    rng = random.Random(seed)
    before_turn = state.turn()
    for _ in range(MAX_MOVES):
        check_state(rules, state, players)
        if state.is_over():
            break
        seat = state.current_player()
        move = chance_move(state, rng) if seat == CHANCE else random_agent(state, rng)
        snapshot = hash(state) if state.__hash__ is not None else None
        after = state.apply(move)
        if snapshot is not None:
            assert hash(state) == snapshot, "apply changed the state it was given"
        assert after.turn() >= state.turn()
        state = after
    else:
        pytest.fail(f"{name}: seed {seed} did not end within {MAX_MOVES} moves")
    assert state.turn() >= before_turn
