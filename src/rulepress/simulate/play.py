"""Playing the games: one game through the rules protocol, and a batch of games into a tally.

This is what a worker process (local or on a Dask cluster) runs. It receives only the
:class:`RunSpec` and a range of game indexes, loads the engine itself, and returns counts, so
nothing larger than a tally ever crosses between processes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from rulepress.diagnostics import SourceLoc
from rulepress.games import contract, load_engine
from rulepress.games.base import (
    CHANCE,
    Agent,
    GameEngine,
    GameState,
    MoveRefused,
    PlayedSoFar,
    Question,
    Rules,
    RulesError,
    handicapped,
    play_out,
)
from rulepress.games.contract import Malformed
from rulepress.games.fault import blamed, raised_at
from rulepress.signals import Interrupted
from rulepress.simulate.game import Game
from rulepress.simulate.spec import (
    CAPPED,
    RunSpec,
    Table,
    agent_random,
    agents_for,
    chance_random,
    game_random,
    game_seed,
)
from rulepress.simulate.stats import STALLS, Tally
from rulepress.simulate.tension import tension
from rulepress.workers import WorkerStopped, unit

MOVES_PER_TURN = 100  # a turn that never ends is capped too: --max-turns times this many moves


class SimulationFailure(Exception):
    """A game broke its own rules: a legal move the engine refused, or (with --check) a
    broken invariant. Names the game so it can be played again; ``order`` (the table's place
    in the run, the game's index) picks the first of several. ``bad_input``: the engine's own
    code raised or returned a malformed value (exit 2), not a finding; ``loc`` is where."""

    def __init__(self, message: str, order: tuple[int, int],
                 loc: SourceLoc | None = None, bad_input: bool = False) -> None:
        # all in args, so the exception pickles whole
        super().__init__(message, order, loc, bad_input)
        self.message = message
        self.order = order
        self.loc = loc
        self.bad_input = bad_input

    def __str__(self) -> str:
        return self.message


@cache
def _engine(spec: str, project: Any) -> GameEngine:
    return load_engine(spec, project)


def engine_of(spec: RunSpec) -> GameEngine:
    return _engine(spec.engine, spec.project)


def play_batch(spec: RunSpec, table: Table, start: int, stop: int) -> Tally:
    """Games ``start`` to ``stop - 1`` at ``table``, tallied."""
    engine = engine_of(spec)
    rules = contract.rules(engine, check=spec.check)
    assert rules is not None, "checked before the run"
    agents = agents_for(engine, spec.agents)
    questions = contract.questions(engine)
    tally = Tally.empty(table.players, {q.name: q.kind for q in questions})
    tally.keep_deals = spec.by_deal
    deal: list[Game] = []  # the games of the deal being played (duplicate play)
    for index in range(start, stop):
        lineup = spec.lineup(index, table.players)
        try:
            with unit(index):
                game = play_game(spec, rules, table, index, lineup, agents, questions,
                                 engine.name)
        except SimulationFailure:
            raise
        except Malformed as exc:
            raise SimulationFailure(f"{_where(spec, table, index)}: {exc}",
                                    _order(spec, table, index), exc.loc, True) from None
        except BaseException as exc:  # noqa: BLE001 - the engine's own error (an exit too)
            loc, raised = blamed(exc)
            raise SimulationFailure(f"{_where(spec, table, index)}: the {engine.name} engine "
                                    f"raised {raised}", _order(spec, table, index),
                                    loc, True) from None
        tally.add(game)
        if game.end == CAPPED and len(tally.stalls) < STALLS:
            tally.stalls[index] = (
                game_seed(spec.seed, spec.deal(index, table.players)),
                _loop(spec, rules, table, index, lineup, agents, questions, engine.name))
        if spec.duplicate:  # a batch holds whole deals (execute.py)
            deal.append(game)
            if len(deal) == spec.rotations(table.players):
                tally.add_deal(deal)
                deal = []
    return tally


def play_game(
    spec: RunSpec,
    rules: Rules,
    table: Table,
    index: int,
    lineup: tuple[str, ...],
    agents: Mapping[str, Agent],
    questions: Sequence[Question],
    engine: str,
    trace: Callable[[GameState[Any]], None] | None = None,
) -> Game:
    """One game. The engine's values are checked once a game, not move by move: when
    rulepress's own code here fails, the state it failed on says which value was to blame.
    ``trace`` sees every state the game passes through, the first included."""
    deal = spec.deal(index, table.players)
    start = state = rules.new_game(table.players, game_seed(spec.seed, deal), table.variant)
    if spec.handicap is not None:
        start = state = handicapped(rules, state, spec.handicap)
    # By seat number, not position: a seat out of range fails here (negative ones too).
    seats = dict(enumerate(agents[name] for name in lineup))
    if spec.duplicate:
        # Chance from the deal alone, each seat's draws apart from it: every rotation of the
        # deal sees the same outcomes, whoever sits where and however they draw.
        rng = chance_random(spec.seed, deal)
        rngs = {seat: agent_random(spec.seed, deal, seat) for seat in seats}
    else:
        rng = game_random(spec.seed, index)
        # An agent that draws much (a search) gets a source of its own, from the game and its
        # seat, so its many draws leave chance and the other seats' draws as they would be
        # against any other player; the others share the game's.
        rngs = {seat: agent_random(spec.seed, index, seat) if getattr(agent, "own_random", False)
                else rng for seat, agent in seats.items()}
    history: list[tuple[GameState[Any], Any]] | None = [] if questions else None
    turn_ends: list[GameState[Any]] | None = [state] if spec.tension else None
    first: int | None = None
    cap = spec.max_turns * MOVES_PER_TURN

    def turn_end(state: GameState[Any]) -> None:
        if turn_ends is not None and state.turn() != turn_ends[-1].turn():
            turn_ends.append(state)

    def stop(state: GameState[Any], moves: int) -> bool:
        turn_end(state)
        if state.turn() >= spec.max_turns or moves >= cap:
            return True
        if trace is not None:
            trace(state)
        if spec.check:
            _check(spec, rules, table, index, state, moves, engine)
        return False

    def on_move(state: GameState[Any], move: Any) -> None:
        nonlocal first
        if first is None and state.current_player() != CHANCE:
            first = state.current_player()
        if history is not None:
            history.append((state, move))

    at = PlayedSoFar()
    try:
        try:
            state = play_out(state, rng, [agents[name] for name in lineup],
                             randoms=rngs, stop=stop, on_move=on_move, progress=at)
        except MoveRefused as refused:
            # An agent's move that is none of the legal ones is the agent's fault; a legal
            # one refused, the rules contradicting themselves (a finding).
            seat, move = refused.seat, refused.move
            agents_fault = None if seat == CHANCE else contract.chosen(
                engine, lineup[seat], seats[seat], refused.state, move)
            raise agents_fault or _refused(spec, table, index, at.moves, lineup, seat, move,
                                           refused.cause) from None
        turn_end(state)
        if spec.check:
            _check(spec, rules, table, index, state, at.moves, engine)
        outcome = contract.outcome(engine, state, table.players)
        if outcome is None:
            return Game(index, lineup, state.turn(), CAPPED, (), (), first, {})
        answers = {q.name: q.ask(history or (), state) for q in questions}
        contract.answers(engine, questions, answers)
    except (SimulationFailure, Malformed, Interrupted):
        raise
    except BaseException as exc:
        found = None if raised_at(exc) else contract.misplayed(engine, rules, at.state, start,
                                                               table.players, at.moves)
        if found is None:  # the engine's own code raised (the caller blames it), or ours
            raise
        raise found from None
    tense = tension(turn_ends) if turn_ends is not None else None
    return Game(index, lineup, state.turn(), outcome.reason, tuple(outcome.winners),
                tuple(outcome.scores), first, answers,
                *((tense[0], tense[1]) if tense is not None else ()))


def _loop(spec: RunSpec, rules: Rules, table: Table, index: int, lineup: tuple[str, ...],
          agents: Mapping[str, Agent], questions: Sequence[Question], engine: str) -> str:
    """A capped game played again, watching for a state it has been in before: ``"loop: move
    12 returns to the state after move 4"``, or ``"no repeated state"``."""
    seen: dict[Any, int] = {}
    found: list[str] = []

    def trace(state: GameState[Any]) -> None:
        if found:
            return
        moves = len(seen)
        try:
            first = seen.setdefault(state, moves)
        except TypeError:  # an unhashable state: no loop can be told
            found.append("states cannot be compared")
            return
        if first != moves:
            found.append(f"loop: move {moves} returns to the state after move {first}")

    play_game(spec, rules, table, index, lineup, agents, questions, engine, trace)
    return found[0] if found else "no repeated state"


def _refused(spec: RunSpec, table: Table, index: int, moves: int, lineup: tuple[str, ...],
             seat: int, move: Any, exc: RulesError) -> SimulationFailure:
    who = "chance" if seat == CHANCE else f"seat {seat + 1} ({lineup[seat]})"
    return SimulationFailure(f"{_where(spec, table, index)}, move {moves + 1}: {who} played "
                             f"'{move}', which the rules refuse: {exc}",
                             _order(spec, table, index))


def _check(spec: RunSpec, rules: Rules, table: Table, index: int, state: GameState[Any],
           moves: int, engine: str) -> None:
    broken = rules.invariants(state)
    if broken:
        broken = contract.broken(engine, rules, broken)
        raise SimulationFailure(
            f"{_where(spec, table, index)}, after move {moves}: {'; '.join(broken)}",
            _order(spec, table, index),
        )


def _order(spec: RunSpec, table: Table, index: int) -> tuple[int, int]:
    return spec.tables.index(table), index


def stopped(spec: RunSpec, table: Table, start: int, exc: WorkerStopped) -> SimulationFailure:
    """A worker that stopped while it played game ``exc.unit`` at ``table`` (or, outside a
    game, as it began the batch from game ``start``): bad input."""
    index = exc.unit if exc.unit is not None else start
    engine = engine_of(spec).name
    return SimulationFailure(f"{_where(spec, table, index)}: the {engine} engine {exc.how}",
                             _order(spec, table, index), None, True)


def _where(spec: RunSpec, table: Table, index: int) -> str:
    return (f"{spec.game} game {index} ({table.players} players, {table.variant}, seed "
            f"{spec.seed})")


def replay(spec: RunSpec, table: Table, index: int) -> Game:
    """Game ``index`` of the run again, alone (a report checks its sample this way)."""
    engine = engine_of(spec)
    rules = contract.rules(engine, check=spec.check)
    assert rules is not None
    return play_game(spec, rules, table, index, spec.lineup(index, table.players),
                     agents_for(engine, spec.agents), contract.questions(engine), engine.name)


