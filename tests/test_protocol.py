"""Every installed engine, played at random through the shared rules protocol only.

One test for all games (it replaced a private copy per game), run for each engine under the
``rulepress.games`` entry points, so a plug-in installed beside rulepress is tested without
naming it here: each state keeps the game's own invariants (``Rules.invariants``) and the
protocol's (fixed move order, no move listed twice, every listed move accepted, moves that
round-trip through text, frozen states, turn order, an outcome exactly when over), every game
ends, and a seed plays the same game again.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulepress.games import available_engines, entry_point_module, load_engine
from rulepress.games.base import CHANCE, GameState, Rules, chance_move, random_agent

BUNDLED = ("go_stop", "pigeon", "pigeon_race", "worm_derby")
MAX_MOVES = 20_000  # far beyond any real game: a loop is a bug
# At one state in this many the moves are listed twice (the same order, none twice) and each
# is read back and applied (at every state: twice the time). The move played is read back at
# every state, and the replay sees a move order that changes between states.
LIST_EVERY = 4
# A seed's game is replayed this far (whole, but for long Worm Derby races: a replay builds
# every state afresh, and the legal moves with it: a third of the test's time when whole).
REPLAY_MOVES = 300


def installed() -> list[str]:
    """The engines installed under the entry points (not the tests' register_engine ones);
    read at collection, without importing any, so one that fails to load fails its own test."""
    return [n for n in available_engines() if entry_point_module(n) is not None]


def rules_of(name: str) -> Rules:
    rules = getattr(load_engine(name), "rules", lambda: None)()
    if rules is None:
        pytest.skip(f"the {name} engine has no rules to play")
    return rules


def test_every_bundled_engine_is_installed_with_rules() -> None:
    assert set(BUNDLED) <= set(installed())
    for name in BUNDLED:
        assert load_engine(name).rules() is not None


def check_notation(rules: Rules, move: Any) -> None:
    text = str(move)
    assert rules.parse_move(text) == move, f"{text!r} does not round-trip"
    # repr pastes back: an expression of Move.parse, as python-chess's Move.from_uci('e2e4').
    namespace = {"Move": SimpleNamespace(parse=rules.parse_move)}
    assert eval(repr(move), namespace) == move, f"repr {move!r} does not paste back"


def check_state(rules: Rules, state: GameState[Any], players: int, listed: bool) -> None:
    broken = rules.invariants(state)
    assert not broken, broken
    moves = state.legal_moves()
    if listed:
        assert list(moves) == list(state.legal_moves()), "legal moves come in a fixed order"
        assert len(set(moves)) == len(moves), "a move is listed twice"
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
    for move in list(moves)[:50] if listed else ():
        check_notation(rules, move)
        state.apply(move)  # raises if a listed move is not legal


@pytest.mark.parametrize("name", installed())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), data=st.data())
def test_random_games_keep_every_invariant_and_end(name: str, seed: int, data: Any) -> None:
    rules = rules_of(name)
    players = data.draw(st.integers(rules.min_players, rules.max_players))
    variant = data.draw(st.sampled_from([v.name for v in rules.variants()]))
    state = rules.new_game(players, seed, variant)
    rng = random.Random(seed)
    before_turn = state.turn()
    played, at_replay_end = [], state
    for step in range(MAX_MOVES):
        check_state(rules, state, players, step % LIST_EVERY == 0)
        if state.is_over():
            break
        seat = state.current_player()
        move = chance_move(state, rng) if seat == CHANCE else random_agent(state, rng)
        check_notation(rules, move)
        played.append(move)
        snapshot = hash(state) if state.__hash__ is not None else None
        after = state.apply(move)
        if snapshot is not None:
            assert hash(state) == snapshot, "apply changed the state it was given"
        assert after.turn() >= state.turn()
        state = after
        if len(played) <= REPLAY_MOVES:
            at_replay_end = state
    else:
        pytest.fail(f"{name}: seed {seed} did not end within {MAX_MOVES} moves")
    assert state.turn() >= before_turn
    again, moves = replay(rules, players, seed, variant)
    assert moves == played[:REPLAY_MOVES], f"{name}: seed {seed} plays other moves the second time"
    assert again.outcome() == at_replay_end.outcome()
    if type(state).__eq__ is not object.__eq__:  # states that compare by value: the same state
        assert again == at_replay_end


def replay(rules: Rules, players: int, seed: int, variant: str) -> tuple[Any, list[Any]]:
    """The state after the first REPLAY_MOVES moves the seed plays at random, and those moves."""
    state = rules.new_game(players, seed, variant)
    rng = random.Random(seed)
    moves = []
    while not state.is_over() and len(moves) < REPLAY_MOVES:
        seat = state.current_player()
        moves.append(chance_move(state, rng) if seat == CHANCE else random_agent(state, rng))
        state = state.apply(moves[-1])
    return state, moves


PLUGIN = Path(__file__).parent / "fixtures" / "plugin" / "tiny_plugin.py"
ENTRY_POINTS = """[rulepress.games]
tiny_plugin = tiny_plugin:ENGINE
tiny_plugin_mutates = tiny_plugin:MUTATES
tiny_plugin_shuffles = tiny_plugin:SHUFFLES
"""


def test_an_installed_plugin_is_tested_and_a_broken_one_fails(tmp_path: Path) -> None:
    """A package "installed" as pip would (its module and a dist-info folder on sys.path) is
    played by this file's tests unnamed; its broken twins fail them, each for its fault."""
    site = tmp_path / "site"
    info = site / "tiny_plugin-0.1.dist-info"
    info.mkdir(parents=True)
    shutil.copy(PLUGIN, site)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: tiny-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (
        str(site), os.environ.get("PYTHONPATH"))))}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-rA", "-p", "no:cacheprovider", "-p", "no:randomly",
         "-k", "tiny_plugin and not installed_plugin", str(Path(__file__))],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    out = run.stdout
    summary = set(re.findall(r"^(PASSED|FAILED) \S*::(\S+)", out, re.MULTILINE))
    test = "test_random_games_keep_every_invariant_and_end"
    assert summary == {("PASSED", f"{test}[tiny_plugin]"),
                       ("FAILED", f"{test}[tiny_plugin_mutates]"),
                       ("FAILED", f"{test}[tiny_plugin_shuffles]")}, out
    assert "apply changed the state it was given" in out
    assert "legal moves come in a fixed order" in out
    assert run.returncode == 1
