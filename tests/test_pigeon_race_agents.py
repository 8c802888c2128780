"""Pigeon Race's players (games/pigeon_race/agents.py): greedy's fast look at each move agrees
with the engine, and closer, which searches the race's last turns, plans on its view alone,
samples the others' pigeons as the dealing rules make them likely and finds the move that
wins."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from rulepress.games.pigeon_race import agents
from rulepress.games.pigeon_race.agents import closer, greedy
from rulepress.games.pigeon_race.rules import (
    ALLOTMENT,
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


@pytest.mark.slow  # closer's searches over many sampled races
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
    """The rules' sample, which closer and the generic searches plan on: in a two-player race
    the other backs the two pigeons this one does not and two of this one's, each pair as
    likely (the uniform draw of old gave the other those two pigeons two times in five)."""
    state = RULES.new_game(2, 3)
    view = state.view(0)
    mine = set(view.order)
    pairs: Counter[frozenset[int]] = Counter()
    for k in range(600):
        world = RULES.sample(view, random.Random(k))
        assert world.view(0) == view
        assert set(PIGEONS) - mine <= set(world.orders[1]), world.orders
        pairs[frozenset(world.orders[1]) & mine] += 1
    assert len(pairs) == 6 and all(70 < n < 130 for n in pairs.values()), pairs


def test_the_others_orders_are_drawn_as_the_dealing_rules_make_them_likely() -> None:
    """Three players: how often each other player backs each pigeon, given seat 1's own, by
    the sampler and exactly (every shuffle of the six pigeons and every pick, as ``allot``
    makes them); within four standard errors over 4,000 samples."""
    state = RULES.new_game(3, 5)
    view = state.view(1)
    exact = backing_odds(3, 1, frozenset(view.order))
    held = [Counter[int]() for _ in range(3)]
    both: Counter[int] = Counter()  # pigeons backed by both others, against the exact mean
    draws = 4000
    rng = random.Random(8)
    for _ in range(draws):
        orders = RULES.sample(view, rng).orders
        assert orders[1] == view.order
        for seat in (0, 2):
            held[seat].update(orders[seat])
        both[len(set(orders[0]) & set(orders[2]))] += 1
    for seat in (0, 2):
        for p in PIGEONS:
            want = exact[seat][p]
            assert abs(held[seat][p] / draws - want) < 4 * (want * (1 - want) / draws) ** 0.5 \
                + 1e-9, (seat, p, held[seat][p] / draws, want)
    mean_both = sum(k * n for k, n in both.items()) / draws
    assert abs(mean_both - exact[3][0]) < 0.05, (mean_both, exact[3][0])


def backing_odds(players: int, seat: int, backed: frozenset[int]) -> list[dict[int, float]]:
    """Exactly, given that ``seat`` backs ``backed``: per seat the chance it backs each pigeon,
    and (last) the mean number of pigeons the two other seats both back, over every deal and
    pick ``allot`` could make (each deal and each pick as likely)."""
    from itertools import permutations, product

    per = ALLOTMENT[players][0]
    counts = [Counter[int]() for _ in range(players)]
    overlap = total = 0.0
    for cards in permutations(PIGEONS):
        dealt = [cards[s::players][:per] for s in range(players)]
        for picks in product(*[[p for p in PIGEONS if p not in d] for d in dealt]):
            sets = [set(d) | {pick} for d, pick in zip(dealt, picks, strict=True)]
            if sets[seat] != backed:
                continue
            total += 1
            for s, pigeons in enumerate(sets):
                counts[s].update(pigeons)
            a, b = (s for s in range(players) if s != seat)
            overlap += len(sets[a] & sets[b])
    return [{p: c[p] / total for p in PIGEONS} for c in counts] + [{0: overlap / total}]


@pytest.mark.slow  # closer's searches over many sampled races
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


def test_judge_plays_as_greedy_and_judges_a_race_by_its_points() -> None:
    """judge, the playouts' player of ismcts:N:judge: greedy's moves and draws; a leaf's value
    is each seat's chance from the points, the leader's above one half, all summing to one."""
    from rulepress.games.pigeon_race.agents import judge

    for state in states(3)[::7]:
        assert judge(state, random.Random(4)) == greedy(state, random.Random(4))
        chances = judge.evaluate(state)
        assert abs(sum(chances) - 1) < 1e-9
        scores = state.scores()
        if scores[0] != scores[1]:
            leader = scores.index(max(scores))
            assert chances[leader] > 0.5 > chances[1 - leader], (scores, chances)
        assert {judge.value(state, m) for m in state.legal_moves()} == {
            float(greedy_value(state, m)) for m in state.legal_moves()}


def test_a_search_with_judge_plans_on_its_view_alone() -> None:
    from rulepress.simulate.search import search_agent

    agent = search_agent("ismcts:60:judge", RULES, {n: a for n, (_, a) in agents.AGENTS.items()})
    state = late(4)[0]
    seat = state.current_player()
    other = 1 - seat
    twin = replace(state, orders=tuple(tuple(reversed(o)) if s == other else o
                                       for s, o in enumerate(state.orders)))
    assert twin.view(seat) == state.view(seat)
    assert agent(state, random.Random(2)) == agent(twin, random.Random(2))
