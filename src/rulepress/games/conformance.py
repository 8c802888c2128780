"""The rules protocol's conformance check, shipped for a game's own tests: ``check_engine(ENGINE)``
plays random games through the protocol alone and raises :class:`ConformanceError` at the first
thing that breaks it, naming the game that shows it (seed, players, variant, move) so it can be
played again. rulepress's own tests call it for every installed engine (tests/test_protocol.py),
as OpenSpiel's ``random_sim_test`` is called for each of its games.

What a game is held to: each state keeps the game's invariants (``Rules.invariants``); legal
moves come in a fixed order, none twice, each one accepted by ``apply``; moves round-trip through
text (``parse_move(str(m)) == m``) and their ``repr`` pastes back as ``Move.parse(...)``;
``apply`` leaves the state it was given alone; a running game has a seat (or CHANCE, its
outcomes' odds summing to 1) and a move, and no outcome; a finished one an outcome for every
seat; turns never go back; every game ends; the same seed plays the same game again. A game
that declares hidden information has views that hash, and samples of a view that have that very
view, keep the invariants, end as the state did, offer the seat to act the same moves, and vary
with the random source.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from types import SimpleNamespace
from typing import Any

from rulepress.games.base import (
    CHANCE,
    GameState,
    HiddenState,
    Rules,
    chance_move,
    hides_information,
    random_agent,
)

MAX_MOVES = 20_000  # far beyond any real game: a game still going is taken for a loop
# At one state in this many the moves are listed twice and each (up to MOVES_READ) is read back
# and applied; the move played is read back at every state. Every state at once would double
# the time and find little more.
LIST_EVERY = 4
MOVES_READ = 50
VIEW_EVERY = 7  # hidden information: the views and samples of one state in this many
SAMPLES = 8  # samples of the first view, which must not all be the same state
# A seed's game is played again this far (a replay builds every state afresh, and its legal
# moves with it: whole long races would double the check's time for little more).
REPLAY_MOVES = 300


class ConformanceError(AssertionError):
    """An engine breaks the rules protocol: ``problem`` says what broke, ``where`` the game and
    move that show it. An AssertionError, so a test that calls :func:`check_engine` fails with
    its message."""

    def __init__(self, engine: str, problem: str, where: str = "") -> None:
        super().__init__(f"{engine}: {problem}" + (f" ({where})" if where else ""))
        self.engine, self.problem, self.where = engine, problem, where


def check_engine(engine: Any, games: int = 20, *, seed: int = 0,
                 max_moves: int = MAX_MOVES) -> None:
    """Play ``games`` random games of ``engine`` (an engine with ``rules()``, or the rules
    themselves) through the rules protocol alone, seeds ``seed``, ``seed + 1`` ..., the player
    counts and variants taken in turn, and raise :class:`ConformanceError` at the first broken
    promise. Returns nothing when every game conforms."""
    rules = _rules_of(engine)
    name = str(getattr(rules, "name", None) or getattr(engine, "name", "engine"))
    low, high = rules.min_players, rules.max_players
    if not (isinstance(low, int) and isinstance(high, int) and 1 <= low <= high):
        raise ConformanceError(name, f"min_players {low!r} and max_players {high!r} must be "
                                     "whole numbers, 1 <= min_players <= max_players")
    variants = [v.name for v in rules.variants()]
    if not variants:
        raise ConformanceError(name, "variants() is empty: the first variant is the standard game")
    if games < 1:
        raise ValueError("check_engine plays at least one game")
    for n in range(seed, seed + games):  # each count and each variant in turn, by the seed
        players = low + n % (high - low + 1)
        _Game(name, rules, players, n, variants[n % len(variants)], max_moves).check()


def _rules_of(engine: Any) -> Rules:
    if callable(getattr(engine, "new_game", None)):
        return engine  # type: ignore[no-any-return]
    make = getattr(engine, "rules", None)
    rules = make() if callable(make) else None
    if rules is None:
        name = getattr(engine, "name", repr(engine))
        raise ConformanceError(str(name), "the engine has no rules() to play")
    return rules  # type: ignore[no-any-return]


class _Game:
    """One random game, checked state by state."""

    def __init__(self, name: str, rules: Rules, players: int, seed: int, variant: str,
                 max_moves: int) -> None:
        self.name, self.rules, self.players = name, rules, players
        self.seed, self.variant, self.max_moves = seed, variant, max_moves
        self.hidden = hides_information(rules)
        self.moves: list[Any] = []

    def fail(self, problem: str) -> ConformanceError:
        last = f", the last {self.moves[-1]!s}" if self.moves else ""
        return ConformanceError(self.name, problem, f"seed {self.seed}, {self.players} players, "
                                f"variant {self.variant!r}, after {len(self.moves)} moves{last}")

    def check(self) -> None:
        rules = self.rules
        state = rules.new_game(self.players, self.seed, self.variant)
        rng = random.Random(self.seed)
        at_replay_end = state
        for step in range(self.max_moves + 1):
            self.state(state, listed=step % LIST_EVERY == 0)
            if self.hidden and step % VIEW_EVERY == 0:
                self.views(state, first=step == 0)
            if state.is_over():
                break
            if step == self.max_moves:
                raise self.fail(f"the game did not end within {self.max_moves:,} moves")
            seat = state.current_player()
            move = chance_move(state, rng) if seat == CHANCE else random_agent(state, rng)
            self.notation(move)
            before = _fingerprint(state)
            after = state.apply(move)
            self.moves.append(move)
            if _fingerprint(state) != before:
                raise self.fail("apply() changed the state it was given; return a new state "
                                "(derive) and leave this one as it was")
            if after.turn() < state.turn():
                raise self.fail(f"turn() went back from {state.turn()} to {after.turn()}")
            state = after
            if len(self.moves) <= REPLAY_MOVES:
                at_replay_end = state
        self.replayed(at_replay_end)

    def state(self, state: GameState[Any], listed: bool) -> None:
        broken = list(self.rules.invariants(state))
        if broken:
            raise self.fail("an invariant is broken: " + "; ".join(map(str, broken)))
        moves = list(state.legal_moves())
        if listed:
            if list(state.legal_moves()) != moves:
                raise self.fail("legal_moves() lists the moves in another order when asked "
                                "again; list them in a fixed order")
            if len(set(moves)) != len(moves):
                raise self.fail("legal_moves() lists a move twice")
        if state.is_over():
            self.ended(state, moves)
            return
        if state.outcome() is not None:
            raise self.fail("outcome() is not None while the game runs (is_over() is False)")
        seat = state.current_player()
        if seat != CHANCE and not (isinstance(seat, int) and 0 <= seat < self.players):
            raise self.fail(f"current_player() is {seat!r}: a seat from 0 to "
                            f"{self.players - 1}, or CHANCE")
        if not moves:
            raise self.fail("legal_moves() is empty while the game runs")
        if seat == CHANCE:
            total = sum(p for _, p in state.chance_outcomes())
            if abs(total - 1) > 1e-9:
                raise self.fail(f"the chance outcomes' probabilities sum to {total}, not 1")
        for move in moves[:MOVES_READ] if listed else ():
            self.notation(move)
            try:
                state.apply(move)
            except ValueError as exc:
                raise self.fail(f"the listed move {move!s} is refused by apply(): {exc}") from exc

    def ended(self, state: GameState[Any], moves: Sequence[Any]) -> None:
        if moves:
            raise self.fail(f"legal_moves() is not empty once the game is over "
                            f"({len(moves)} listed)")
        outcome = state.outcome()
        if outcome is None:
            raise self.fail("outcome() is None once is_over() is True")
        if len(outcome.scores) != self.players:
            raise self.fail(f"the outcome has {len(outcome.scores)} scores for "
                            f"{self.players} players")
        if not all(0 <= w < self.players for w in outcome.winners):
            raise self.fail(f"the outcome's winners {outcome.winners} are not all seats")

    def notation(self, move: Any) -> None:
        text = str(move)
        try:
            again = self.rules.parse_move(text)
        except ValueError as exc:
            raise self.fail(f"parse_move({text!r}) cannot read the move back: {exc}") from exc
        if again != move:
            raise self.fail(f"{text!r} does not round-trip: parse_move(str(move)) gives "
                            f"{again!r}, not {move!r}")
        namespace = {"Move": SimpleNamespace(parse=self.rules.parse_move)}
        try:
            pasted = eval(repr(move), namespace)  # repr pastes back, as Move.parse('...')
        except Exception as exc:
            raise self.fail(f"repr {move!r} does not paste back as Move.parse(...): "
                            f"{type(exc).__name__}: {exc}") from exc
        if pasted != move:
            raise self.fail(f"repr {move!r} pastes back as another move, {pasted!r}")

    def views(self, state: GameState[Any], first: bool) -> None:
        """Each seat's view, and a sample of it, against the state it was taken of."""
        sample = getattr(self.rules, "sample", None)
        if not callable(sample):
            raise self.fail("the rules declare hidden information (game_type) but offer no "
                            "sample(view, rng)")
        if not isinstance(state, HiddenState):
            raise self.fail("the rules declare hidden information (game_type) but the state "
                            "offers no view(seat)")
        for seat in range(self.players):
            view = state.view(seat)
            try:
                hash(view)
            except TypeError as exc:
                raise self.fail(f"view({seat}) is not hashable: {exc}") from exc
            got = sample(view, random.Random(self.seed * 31 + seat))
            problem = self.sampled(state, seat, view, got)
            if problem:
                raise self.fail(f"sample(view({seat}), rng) {problem}")
            if first and seat == 0:
                others = [sample(view, random.Random(k)) for k in range(SAMPLES)]
                if all(_same(s, others[0]) for s in others[1:]):
                    raise self.fail(f"{SAMPLES} samples of view(0) at the start are all the "
                                    "same state: the view tells what the seat cannot see, or "
                                    "sample() draws nothing from its random source")

    def sampled(self, state: GameState[Any], seat: int, view: Hashable,
                got: GameState[Any]) -> str:
        if not isinstance(got, HiddenState) or got.view(seat) != view:
            return "has another view than the one it was drawn from"
        broken = list(self.rules.invariants(got))
        if broken:
            return "breaks an invariant: " + "; ".join(map(str, broken))
        if got.is_over() != state.is_over() or got.outcome() != state.outcome():
            return "ends otherwise than the state (how a game ended is public)"
        if state.current_player() == seat and list(got.legal_moves()) != list(
                state.legal_moves()):
            return "offers the seat to act other moves (its own choices are what it knows)"
        return ""

    def replayed(self, at_replay_end: GameState[Any]) -> None:
        """The seed played again, as far as REPLAY_MOVES: the same moves, the same state."""
        state = self.rules.new_game(self.players, self.seed, self.variant)
        rng = random.Random(self.seed)
        moves: list[Any] = []
        while not state.is_over() and len(moves) < REPLAY_MOVES:
            seat = state.current_player()
            moves.append(chance_move(state, rng) if seat == CHANCE else random_agent(state, rng))
            state = state.apply(moves[-1])
        played = self.moves[:REPLAY_MOVES]
        if moves != played:
            at = next((k for k, (a, b) in enumerate(zip(moves, played, strict=False)) if a != b),
                      min(len(moves), len(played)))
            self.moves = played[:at]
            raise self.fail(f"the same seed plays another game the second time, from move "
                            f"{at + 1}: chance must come from the seed, never from elsewhere")
        if state.outcome() != at_replay_end.outcome() or (
                type(state).__eq__ is not object.__eq__ and state != at_replay_end):
            raise self.fail("the same seed and moves reach another state the second time")


def _same(a: object, b: object) -> bool:
    return a == b if type(a).__eq__ is not object.__eq__ else repr(a) == repr(b)


def _fingerprint(state: GameState[Any]) -> object:
    """What tells a changed state: its hash when it has one (a frozen dataclass hashes its
    fields), else its repr."""
    try:
        return hash(state)
    except TypeError:
        return repr(state)
