"""Pigeon Race's players (games/pigeon_race/agents.py): greedy's fast look at each move agrees
with the engine, and closer, which searches the race's last turns, plans on its view alone,
samples the others' pigeons as the dealing rules make them likely and finds the move that
wins."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

from rulepress.games.pigeon_race import agents
from rulepress.games.pigeon_race.agents import closer, greedy
from rulepress.games.pigeon_race.rules import (
    PIGEONS,
    RULES,
    Move,
    State,
    landing,
    places_after,
)


def states(games: int, players: int = 2) -> list[State]:
    """Every state of ``games`` races played by greedy players."""
    found = []
    for seed in range(games):
        state, rng = RULES.new_game(players, seed), random.Random(seed)
        while not state.is_over():
            found.append(state)
            state = state.apply(greedy(state, rng))
    return found


def late(games: int) -> list[State]:
    """One state a race where closer searches: few cards left to draw, a choice to make."""
    found = []
    for state in states(games):
        if len(state.deck) == 3 and len({m.card for m in state.legal_moves()}) > 1:
            found.append(state)
    return found


class Spy:
    """A state that notes what is asked of it."""

    def __init__(self, state: State) -> None:
        self._state = state
        self.asked: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        self.asked.add(name)
        return getattr(self._state, name)


def test_the_fast_look_at_a_move_agrees_with_playing_it() -> None:
    checked = 0
    for state in states(6, players=3)[::7]:
        for move in state.legal_moves():
            after = state.apply(move)
            assert landing(state, move) == (after.positions, after.finished)
            assert places_after(state, move) == tuple(after.places()[p] for p in PIGEONS)
            checked += 1
    assert checked > 1000


def test_closer_plans_on_its_view_alone() -> None:
    chosen = set()
    for k, state in enumerate(late(12)[:3]):
        seat = state.current_player()
        # The same view with the hidden part dealt otherwise: the other hand, the deck and the
        # other player's order all differ, so peeking would mislead.
        twin = RULES.sample(state.view(seat), random.Random(100 + k))
        twin = replace(twin, orders=tuple(o if s == seat else tuple(reversed(o))
                                          for s, o in enumerate(state.orders)))
        assert twin.view(seat) == state.view(seat) and twin.hands != state.hands
        spy = Spy(state)
        move = closer(spy, random.Random(k))  # type: ignore[arg-type]
        assert move == closer(twin, random.Random(k)) and move in state.legal_moves()
        assert spy.asked <= {"current_player", "view"}, spy.asked
        chosen.add(move)
    assert len(chosen) == 3


def test_closer_plays_greedy_until_the_last_cards() -> None:
    early = [s for s in states(3) if len(s.deck) > agents.LATE and len(s.finished) < 2][::9]
    assert len(early) > 5
    for k, state in enumerate(early):
        move = closer(state, random.Random(k))
        values = {m: greedy_value(state, m) for m in state.legal_moves()}
        assert values[move] == max(values.values())


def greedy_value(state: State, move: Move) -> int:
    return state.apply(move).scores()[state.current_player()]


def test_the_other_player_surely_backs_the_pigeons_this_one_does_not() -> None:
    state = RULES.new_game(2, 3)
    view = state.view(0)
    mine = set(view.order)
    held: Counter[int] = Counter()
    for k in range(600):
        world = agents._world(view, random.Random(k))
        assert world.view(0) == view
        held.update(world.orders[1])
    for p in PIGEONS:  # the two not mine every time; each of mine in about half the samples
        assert held[p] == 600 if p not in mine else 240 < held[p] < 360, (p, held)


def test_closer_takes_the_last_move_that_wins_where_greedy_does_not() -> None:
    """The last card, where all is known but the other player's order: greedy scores its own
    pigeons best, closer weighs the orders the other could hold and wins a race greedy loses,
    and none that greedy wins."""
    won: Counter[tuple[bool, bool]] = Counter()
    for state in states(60):
        if len(state.deck) == 1:  # this move's draw empties the deck and ends the race
            seat = state.current_player()
            won[tuple(seat in state.apply(agent(state, random.Random(seat))).winners()
                      for agent in (closer, greedy))] += 1  # type: ignore[index]
    assert won[True, False] >= 1 and won[True, False] >= won[False, True], won
