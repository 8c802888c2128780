"""The rules of Catch, written against rulepress's rules protocol (rulepress.games.base).

rulepress loads this module from the project folder because the rulebook's front matter names
it (``engine: engines/catch.py:ENGINE``). It proves the rulebook's examples and plays games
for ``rulepress simulate``. (The kit's score pad needs no code: a layout file draws it.)

Pig in brief: on your turn, roll a die as often as you like; each roll adds to your turn total,
a 1 loses the whole turn total; holding banks it. The first to bank GOAL points wins.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulepress.plugin import (
    CHANCE,
    ExampleDataError,
    IllegalMove,
    NotationError,
    Outcome,
    RulesError,
    Variant,
    derive,
    game_data,
)

GOAL = 100
FACES = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True)
class Move:
    """``roll`` or ``hold`` (a player's choice), or a die face ``1``..``6`` (chance)."""

    name: str

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Move.parse({self.name!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        word = str(text).strip().lower()
        if word in ("roll", "hold") or word in {str(f) for f in FACES}:
            return cls(word)
        raise NotationError(f"'{text}' is not a move: write roll, hold, or a die face 1 to 6")


ROLL, HOLD = Move("roll"), Move("hold")
OUTCOMES = tuple(Move(str(f)) for f in FACES)


@dataclass(frozen=True)
class State:
    banked: tuple[int, ...]  # each seat's banked points
    seat: int = 0  # whose turn it is
    total: int = 0  # the turn total, not yet banked
    rolling: bool = False  # the die is rolling: the next input is chance
    turns: int = 0  # turns completed

    def current_player(self) -> int:
        return CHANCE if self.rolling and not self.is_over() else self.seat

    def legal_moves(self) -> Sequence[Move]:
        if self.is_over():
            return ()
        return OUTCOMES if self.rolling else (ROLL, HOLD)

    def chance_outcomes(self) -> Sequence[tuple[Move, float]]:
        return tuple((m, 1 / len(FACES)) for m in OUTCOMES) if self.rolling else ()

    def apply(self, move: Move) -> State:
        if move not in self.legal_moves():
            why = "the game is over" if self.is_over() else (
                "the die is rolling: give the face it shows" if self.rolling
                else "roll the die or hold")
            raise IllegalMove(move, why)
        if move == ROLL:
            return derive(self, rolling=True)
        if move == HOLD:
            banked = list(self.banked)
            banked[self.seat] += self.total
            return self._next_turn(derive(self, banked=tuple(banked)))
        face = int(move.name)
        if face == 1:
            return self._next_turn(self)
        return derive(self, total=self.total + face, rolling=False)

    def _next_turn(self, state: State) -> State:
        seat = state.seat if state.is_over() else (state.seat + 1) % len(state.banked)
        return derive(state, seat=seat, total=0, rolling=False, turns=state.turns + 1)

    def is_over(self) -> bool:
        return max(self.banked) >= GOAL

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        best = max(self.banked)
        winners = tuple(s for s, b in enumerate(self.banked) if b == best)
        return Outcome(winners, tuple(float(b) for b in self.banked), f"reached {GOAL}")

    def turn(self) -> int:
        return self.turns


class Rules:
    name = "catch"
    min_players = 2
    max_players = 6

    def variants(self) -> Sequence[Variant]:
        return (Variant("standard", f"first to bank {GOAL} points"),)

    def new_game(self, players: int, seed: int, variant: str | None = None) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Catch is for {self.min_players} to {self.max_players} players")
        if variant not in (None, "standard"):
            raise ValueError(f"Catch has no variant '{variant}'")
        return State((0,) * players)  # no chance at set-up: it all comes from the die

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def invariants(self, state: State) -> Sequence[str]:
        broken = []
        if min(state.banked) < 0 or state.total < 0:
            broken.append("points are never negative")
        if not 0 <= state.seat < len(state.banked):
            broken.append("the seat to play is a seat of the game")
        return broken


RULES = Rules()


def hold_at_20(state: State, rng: random.Random) -> Move:
    """Keep rolling until the turn total reaches 20 (or would win), then hold."""
    enough = min(20, GOAL - state.banked[state.seat])
    return HOLD if state.total >= enough else ROLL


class PigEngine:
    name = "catch"

    def rules(self) -> Rules:
        return RULES

    def replay(self, example: Mapping[str, Any]) -> Mapping[str, Any]:
        """Replay ``setup.banked`` and the moves (``roll 4`` is a roll that shows a 4)."""
        setup = example.get("setup", {})
        banked = setup.get("banked") if isinstance(setup, dict) else None
        if not (isinstance(banked, list) and 2 <= len(banked) <= 6
                and all(isinstance(b, int) and b >= 0 for b in banked)):
            raise ExampleDataError("setup.banked lists each player's points", ("setup",))
        state = State(tuple(banked))
        moves = example.get("moves", [])
        if not isinstance(moves, list):
            raise ExampleDataError("moves is a list, e.g. [roll 4, hold]", ("moves",))
        for i, text in enumerate(moves):
            try:
                for word in str(text).split():
                    state = state.apply(Move.parse(word))
            except RulesError as exc:
                raise ExampleDataError(str(exc), ("moves", i)) from None
        return {
            "banked": list(state.banked),
            "turn_total": state.total,
            "to_move": state.seat + 1,
            "over": state.is_over(),
        }

    def component_counts(self) -> Mapping[str, int]:
        return {"die": 1}

    def tables(self) -> Mapping[str, Any]:
        rows = game_data(self, "catch")
        return {"suits": [{"suit": s, "qty": "2"} for s in sorted({r["suit"] for r in rows})],
                "scoring": [{"goal": GOAL}]}

    def agents(self) -> Mapping[str, Any]:
        return {"hold-at-20": ("rolls until the turn total reaches 20, then holds", hold_at_20)}


ENGINE = PigEngine()
