"""The shared parts of the rules protocol: deriving states, the error family, playing out."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cached_property

import pytest

from rulepress.games.base import (
    CHANCE,
    AmbiguousMove,
    IllegalMove,
    MoveRefused,
    NotationError,
    Outcome,
    PlayedSoFar,
    RulesError,
    derive,
    play_out,
)


@dataclass(frozen=True)
class Board:
    cells: tuple[int, ...]
    turn_: int = 0
    label: str = field(default="", compare=False)

    @cached_property
    def total(self) -> int:
        return sum(self.cells)


@dataclass(frozen=True, slots=True)
class Slotted:
    a: int
    b: tuple[int, ...] = ()


@dataclass(frozen=True)
class WithPost:
    n: int
    double: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "double", self.n * 2)


def test_derive_recomputes_cached_values_instead_of_copying_them() -> None:
    board = Board((1, 2, 3))
    assert board.total == 6  # now cached in the instance
    moved = derive(board, cells=(1, 2, 10))
    assert moved.total == 13
    assert board.total == 6 and board.cells == (1, 2, 3)


def test_derive_keeps_unchanged_fields_and_works_on_slotted_classes() -> None:
    board = Board((1,), 4, "x")
    assert derive(board, turn_=5) == Board((1,), 5, "x")
    assert derive(board, turn_=5).label == "x"
    s = Slotted(1, (2,))
    assert derive(s, a=3) == Slotted(3, (2,))
    with pytest.raises(AttributeError):
        derive(s, a=3).a = 4  # type: ignore[misc]


def test_derive_runs_post_init_and_refuses_unknown_fields() -> None:
    assert derive(WithPost(2), n=5).double == 10
    with pytest.raises(TypeError, match="no field nope"):
        derive(Board(()), nope=1)


def test_one_error_family_under_value_error() -> None:
    for cls in (NotationError, IllegalMove, AmbiguousMove):
        assert issubclass(cls, RulesError) and issubclass(cls, ValueError)
    err = IllegalMove("6H>6", "the card is not in the hand")
    assert err.move == "6H>6" and err.reason == "the card is not in the hand"
    assert str(err) == "6H>6: the card is not in the hand"
    assert AmbiguousMove("8H", "say which").reason == "say which"


@dataclass(frozen=True)
class Dice:
    """Roll a die (chance), then the roller may stop or roll again; first to 10 wins."""

    totals: tuple[int, int] = (0, 0)
    seat: int = 0
    rolled: bool = False

    def current_player(self) -> int:
        return self.seat if self.rolled or self.is_over() else CHANCE

    def legal_moves(self) -> tuple[str, ...]:
        if self.is_over():
            return ()
        return ("again", "stop") if self.rolled else tuple(str(f) for f in range(1, 7))

    def chance_outcomes(self) -> tuple[tuple[str, float], ...]:
        return () if self.rolled else tuple((str(f), 1 / 6) for f in range(1, 7))

    def apply(self, move: str) -> Dice:
        if not self.rolled:
            t = list(self.totals)
            t[self.seat] += int(move)
            return derive(self, totals=tuple(t), rolled=True)
        if move == "again":
            return derive(self, rolled=False)
        return derive(self, seat=1 - self.seat, rolled=False)

    def is_over(self) -> bool:
        return max(self.totals) >= 10

    def outcome(self) -> Outcome | None:
        if not self.is_over():
            return None
        return Outcome((self.totals.index(max(self.totals)),), self.totals, "reached ten")

    def turn(self) -> int:
        return 0


def test_play_out_draws_chance_and_asks_each_seat_its_agent() -> None:
    asked: list[int] = []

    def stopper(state: Dice, rng: random.Random) -> str:
        asked.append(state.seat)
        return "stop"

    end = play_out(Dice(), random.Random(7), [stopper, stopper])
    assert end.is_over() and end.outcome() is not None
    assert set(asked) == {0, 1}
    again = play_out(Dice(), random.Random(7), [stopper, stopper])
    assert again == end, "the same seed plays the same game"


@dataclass(frozen=True)
class StrictDice(Dice):
    def apply(self, move: str) -> Dice:
        if move not in self.legal_moves():
            raise IllegalMove(move, "not a move here")
        return super().apply(move)


def test_play_out_stops_when_asked_and_says_how_far_it_got() -> None:
    seen: list[int] = []

    def stop(state: Dice, moves: int) -> bool:
        seen.append(moves)
        return moves == 3

    at = PlayedSoFar()
    end = play_out(Dice(), random.Random(7), [], stop=stop, progress=at)
    assert seen == [0, 1, 2, 3] and at.moves == 3 and at.state is end and not end.is_over()


def test_a_move_the_rules_refuse_is_raised_with_its_seat_and_state() -> None:
    def folder(state: Dice, rng: random.Random) -> str:
        return "fold"

    at = PlayedSoFar()
    with pytest.raises(MoveRefused) as refused:
        play_out(StrictDice(), random.Random(7), [folder, folder], progress=at)
    assert refused.value.seat == 0 and refused.value.move == "fold"
    assert isinstance(refused.value.cause, IllegalMove)
    assert refused.value.state.rolled and at.moves == 1, "one die rolled, then the refusal"


def test_a_seat_with_no_agent_is_an_error_not_a_silent_other_seat() -> None:
    with pytest.raises(IndexError, match="no seat of 1"):
        play_out(Dice(seat=1), random.Random(7), [lambda s, r: "stop"])
