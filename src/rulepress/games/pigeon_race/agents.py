"""Players for simulating Pigeon Race: agents of the rules protocol.

``greedy`` looks one turn ahead; ``closer`` plays as greedy does until the last cards, then
searches. What either knows beyond the lanes, the discards and its hand is its own secret
order, which a player at the table knows too.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from rulepress.games.pigeon_race.rules import (
    SCORE_TABLE,
    Move,
    State,
    View,
    moves_with,
    places_after,
    sample,
)
from rulepress.plugin import GameState


def greedy(state: GameState[Any], rng: random.Random) -> Move:
    """The move after which the player's own pigeons would score most if the race ended at
    once (by the player's secret order); a tie is broken at random."""
    if not isinstance(state, State):
        raise TypeError(f"not a Pigeon Race state: {type(state).__name__}")
    order = state.orders[state.current_player()]
    best: list[Move] = []
    top = -1.0
    for move in state.legal_moves():
        value = _value(places_after(state, move), order)
        if value > top:
            best, top = [move], value
        elif value == top:
            best.append(move)
    return best[rng.randrange(len(best))]


def _value(places: tuple[int, ...], order: tuple[int, ...]) -> float:
    return float(sum([SCORE_TABLE[i][places[p - 1] - 1] for i, p in enumerate(order)]))


# closer: why the end. Over 200 duplicate deals a search in the last ten turns won 53.0% and one
# in the last four 53.2% against greedy: what the race's last moves settle is most of what
# looking ahead can gain, and rollouts that short are cheap.
LATE = 6  # closer searches when this many cards or fewer are left to draw
ROUNDS = 48  # deals sampled for each decision; every candidate is played out on each
CANDIDATES = 12  # greedy's best moves, the ones compared


def closer(state: GameState[Any], rng: random.Random) -> Move:
    """Greedy until at most :data:`LATE` cards are left to draw; then greedy's
    :data:`CANDIDATES` best moves are each played on :data:`ROUNDS` deals sampled from what the
    player sees, every one played out to the end by greedy players on the same cards and the
    same random choices (common luck), and the move winning most often is played (greedy's
    choice on a tie). Honest: it reads the state's view of its seat and nothing else."""
    seat = state.current_player()
    view = getattr(state, "view", lambda seat: None)(seat)
    if not isinstance(view, View):
        raise TypeError(f"not a Pigeon Race state: {type(state).__name__}")
    del state  # from here on, only what the seat knows
    world = sample(view, rng)
    if view.deck_size > LATE:
        return greedy(world, rng)  # the sample's hidden part plays no role in greedy's choice
    order = view.order
    moves = moves_with(view.hand, view.trump_card, view.finished)
    ranked = sorted(moves, key=lambda m: -_value(places_after(view, m), order))
    choice = greedy(world, rng)
    candidates = [choice] + [m for m in ranked[:CANDIDATES] if m != choice]
    wins = [0.0] * len(candidates)
    for round_ in range(ROUNDS):
        if round_:
            world = sample(view, rng)
        luck = rng.getrandbits(64)
        for k, move in enumerate(candidates):
            end, same = world.apply(move), random.Random(luck)
            while end.end is None:
                end = end.apply(greedy(end, same))
            winners = end.winners()
            wins[k] += (seat in winners) / len(winners)
    return candidates[wins.index(max(wins))]


# judge: greedy as the playouts' player of a search (``ismcts:400:judge``), judging a leaf by
# each seat's chance of winning from the points now, among greedy's SHORTLIST best moves. The
# chance, not the share of the points: a point that changes no place is worth little, and a
# lead near the finish nearly everything (the figures: docs/authoring.md).
SPREAD = 3.0  # points of lead that turn an even race into 73%


class Judge:
    """Plays as :func:`greedy` does; offers a search its ``value`` of a move (greedy's) and an
    ``evaluate`` of an unfinished race, judged where the search stops (``horizon`` 0)."""

    horizon = 0

    def __call__(self, state: GameState[Any], rng: random.Random) -> Move:
        return greedy(state, rng)

    def value(self, state: GameState[Any], move: Move) -> float:
        if not isinstance(state, State):
            raise TypeError(f"not a Pigeon Race state: {type(state).__name__}")
        return _value(places_after(state, move), state.orders[state.current_player()])

    def evaluate(self, state: GameState[Any]) -> tuple[float, ...]:
        """Each seat's chance of winning if the race ended now, by a logistic of its points
        (its secret order's, as sampled) against the others'."""
        if not isinstance(state, State):
            raise TypeError(f"not a Pigeon Race state: {type(state).__name__}")
        scores = state.scores()
        top = max(scores)
        weights = [math.exp((s - top) / SPREAD) for s in scores]
        total = sum(weights)
        return tuple(w / total for w in weights)


judge = Judge()


AGENTS: dict[str, tuple[str, Callable[[GameState[Any], random.Random], Move]]] = {
    "greedy": (
        "plays the card and pigeons that would score its own secret order best if the race "
        "ended now",
        greedy,
    ),
    "closer": (
        f"plays as greedy does until {LATE} cards or fewer are left to draw; then plays each "
        f"of greedy's {CANDIDATES} best moves on {ROUNDS} deals sampled from what it can see, "
        "played out to the end by greedy players, and picks the one that wins most often",
        closer,
    ),
    "judge": (
        "plays as greedy does; as a search's playouts' player (ismcts:400:judge) it judges a "
        "move by each player's chance of winning from the points if the race ended there",
        judge,
    ),
}
