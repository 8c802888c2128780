"""rulepress.plugin.check_engine, the conformance check an author calls from their own tests: a
toy game that conforms passes, and each broken twin fails with the message that names its fault
and the game that shows it."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from itertools import count

import pytest

from rulepress.plugin import (
    API_VERSION,
    IMPERFECT_INFORMATION,
    ConformanceError,
    Engine,
    IllegalMove,
    NotationError,
    Outcome,
    Variant,
    check_engine,
    derive,
)

GOAL = 6
_calls = count()


@dataclass(frozen=True)
class Step:
    n: int

    def __str__(self) -> str:
        return f"+{self.n}"

    def __repr__(self) -> str:
        return "Step()" if BUGS.get("repr") else f"Move.parse({str(self)!r})"


BUGS: dict[str, bool] = {}  # the fault the toy plays with, set by each test


@dataclass(frozen=True)
class Toy:
    """A race to GOAL by steps of 1 or 2; each seat holds a secret number nobody else sees."""

    at: tuple[int, ...]
    secrets: tuple[int, ...]
    seat: int = 0
    turns: int = 0

    def current_player(self) -> int:
        return self.seat

    def legal_moves(self) -> tuple[Step, ...]:
        if self.is_over():
            return (Step(1),) if BUGS.get("moves_when_over") else ()
        moves = tuple(Step(n) for n in (1, 2) if self.at[self.seat] + n <= GOAL)
        if BUGS.get("twice"):
            return moves + moves[:1]
        if BUGS.get("shuffles") and next(_calls) % 2:
            return moves[::-1]
        return moves

    def chance_outcomes(self) -> tuple[tuple[Step, float], ...]:
        return ()

    def apply(self, move: Step) -> Toy:
        if BUGS.get("refuses") and move.n == 2:
            raise IllegalMove(move, "two steps are never allowed")
        if BUGS.get("mutates"):
            object.__setattr__(self, "turns", self.turns + 1)
        at = list(self.at)
        at[self.seat] = (at[self.seat] + move.n) % (GOAL if BUGS.get("endless") else GOAL + 1)
        return derive(self, at=tuple(at), seat=(self.seat + 1) % len(at), turns=self.turns + 1)

    def is_over(self) -> bool:
        return GOAL in self.at

    def outcome(self) -> Outcome | None:
        if not self.is_over() or BUGS.get("no_outcome"):
            return None
        return Outcome((self.at.index(GOAL),), tuple(float(a) for a in self.at), "home")

    def turn(self) -> int:
        return self.turns

    def view(self, seat: int) -> tuple[object, ...]:
        secrets = self.secrets if BUGS.get("leaks") else self.secrets[seat]
        return (self.at, self.seat, self.turns, seat, secrets)


class ToyRules:
    name = "toy"
    min_players = 2
    max_players = 3
    game_type = IMPERFECT_INFORMATION

    def variants(self) -> tuple[Variant, ...]:
        return (Variant("standard", "first home"), Variant("long", "the same, by another name"))

    def new_game(self, players: int, seed: int, variant: str | None = None) -> Toy:
        draw = random if BUGS.get("unseeded") else random.Random(seed)
        return Toy((0,) * players, tuple(draw.randrange(1000) for _ in range(players)))

    def parse_move(self, text: str) -> Step:
        if text not in ("+1", "+2"):
            raise NotationError(f"'{text}' is not a move; write +1 or +2")
        return Step(1 if BUGS.get("notation") else int(text[1:]))

    def invariants(self, state: Toy) -> list[str]:
        if BUGS.get("invariant") and state.turns == 3:
            return ["a runner is off the track"]
        return []

    def sample(self, view: tuple[object, ...], rng: random.Random) -> Toy:
        at, seat_to_act, turns, seat, secrets = view
        assert isinstance(at, tuple) and isinstance(seat, int) and isinstance(turns, int)
        if isinstance(secrets, tuple):
            return Toy(at, secrets, int(str(seat_to_act)), turns)
        drawn = [rng.randrange(1000) for _ in at]
        drawn[seat] = int(str(secrets)) + (1 if BUGS.get("sample") else 0)
        return Toy(at, tuple(drawn), int(str(seat_to_act)), turns)


TOY = Engine(name="toy", rules=ToyRules)


@pytest.fixture(autouse=True)
def no_bug() -> None:
    BUGS.clear()


def test_the_api_has_a_version() -> None:
    assert re.fullmatch(r"\d+\.\d+", API_VERSION)


def test_a_conforming_engine_passes_and_its_rules_alone_too() -> None:
    check_engine(TOY, games=12)
    check_engine(ToyRules(), games=3, seed=40)


# Each fault, and the words that name it; every message also names the game that shows it.
FAULTS = {
    "mutates": "apply() changed the state it was given",
    "shuffles": "legal_moves() lists the moves in another order when asked again",
    "twice": "legal_moves() lists a move twice",
    "refuses": "the listed move +2 is refused by apply(): +2: two steps are never allowed",
    "notation": "'+2' does not round-trip: parse_move(str(move)) gives Move.parse('+1'), not "
                "Move.parse('+2')",
    "repr": "repr Step() does not paste back as Move.parse(...): NameError",
    "endless": "the game did not end within 500 moves",
    "invariant": "an invariant is broken: a runner is off the track",
    "moves_when_over": "legal_moves() is not empty once the game is over (1 listed)",
    "no_outcome": "outcome() is None once is_over() is True",
    "unseeded": "the same seed and moves reach another state the second time",
    "leaks": "8 samples of view(0) at the start are all the same state",
    "sample": "sample(view(0), rng) has another view than the one it was drawn from",
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_broken_engine_fails_with_what_broke_and_where(fault: str) -> None:
    BUGS[fault] = True
    with pytest.raises(ConformanceError) as caught:
        check_engine(TOY, games=6, max_moves=500)
    message = str(caught.value)
    assert message.startswith(f"toy: {FAULTS[fault]}"), message
    assert re.search(r"\(seed \d+, [23] players, variant '(standard|long)', after \d+ moves",
                     message), message
    assert isinstance(caught.value, AssertionError)  # a test that calls it fails, never errors


def test_the_game_named_plays_the_fault_again() -> None:
    """The seed, players and variant the message names, checked alone, fail the same way."""
    BUGS["invariant"] = True
    with pytest.raises(ConformanceError) as caught:
        check_engine(TOY, games=6)
    seed = int(re.findall(r"seed (\d+)", str(caught.value))[0])
    with pytest.raises(ConformanceError) as again:
        check_engine(TOY, games=1, seed=seed)
    assert again.value.problem == caught.value.problem


def test_an_engine_without_rules_is_named() -> None:
    with pytest.raises(ConformanceError, match=r"^bare: the engine has no rules\(\) to play$"):
        check_engine(Engine(name="bare"))
