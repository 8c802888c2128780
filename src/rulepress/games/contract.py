"""What a game engine must return, checked where rulepress receives it.

An engine is often the designer's own module. A value of the wrong shape (a count given as
text, a drawer that is not a function, a state with no legal move while the game runs) would
otherwise make rulepress's own code fail far from the cause, with a traceback. Each part of the
protocol has one helper here that takes the engine's value and checks its shape; a bad one is
:class:`Malformed`, an error at the line of the method that returned it (exit 2), saying what
it must return and what it returned.

Simulation is not checked move by move: its states are checked once a game (how it started and
ended), and when rulepress's own play loop fails, :func:`misplayed` looks at the state it
failed on for the value that caused it.
"""

from __future__ import annotations

import functools
import inspect
import re
import reprlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from numbers import Real
from pathlib import Path
from typing import Any, NoReturn, TypeGuard

from rulepress.diagnostics import RulepressError, SourceLoc, error
from rulepress.games.base import (
    CHANCE,
    Agent,
    Drawer,
    ExampleDataError,
    Figure,
    GameEngine,
    GameState,
    GameType,
    Outcome,
    Question,
    Rules,
    hides_information,
)

MAX_SHOWN = 120  # characters of a value shown in a message
QUESTION_NAME = re.compile(r"^[a-z][a-z0-9_]*\Z")
KINDS = ("rate", "mean")
STATE = ("a game state, with current_player(), legal_moves(), chance_outcomes(), apply(), "
         "is_over(), outcome() and turn()")
_DEF = re.compile(r"(\s*)(?:async\s+def|def|class)\b")

_repr = reprlib.Repr()
_repr.maxlevel, _repr.maxstring, _repr.maxother = 3, 60, 60
_repr.maxlist = _repr.maxtuple = _repr.maxdict = _repr.maxset = 6


class Malformed(RulepressError):
    """An engine's value outside the protocol: ``loc`` is the method that returned it (None
    when it has no Python source); ``head`` says what it must return, ``tail`` what it did."""

    def __init__(self, loc: SourceLoc | None, head: str, tail: str) -> None:
        super().__init__([error(loc, f"{head}; {tail}")])
        self.args = (loc, head, tail)  # so it pickles (a simulation worker's error)
        self.loc, self.head, self.tail = loc, head, tail

    def __str__(self) -> str:
        return self.said()

    def said(self, doing: str = "") -> str:
        """The message, with what rulepress was doing with the value ("replaying x (...)")."""
        return f"{self.head}; {self.tail}" + (f", while {doing}" if doing else "")


def short(value: object) -> str:
    """``value``'s repr on one line, at most MAX_SHOWN long (a large table is cut, not built)."""
    text = " ".join(_repr.repr(value).split())
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 1] + "…"


def defined_at(*candidates: object) -> SourceLoc | None:
    """Where the first of ``candidates`` with Python source is defined: the line of its ``def``
    (past its decorators) or ``class``, or a lambda's line; a callable object's class. None when
    none has source (a builtin)."""
    for obj in candidates:
        obj = getattr(obj, "__func__", obj)  # a bound method: its function
        while isinstance(obj, functools.partial):
            obj = obj.func
        try:
            obj = inspect.unwrap(obj) if callable(obj) else obj  # under its decorators
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                obj = type(obj)
            path = inspect.getsourcefile(obj)
            lines, first = inspect.getsourcelines(obj)
        except (OSError, TypeError, ValueError):  # no source: try the next
            continue
        if path is None:
            continue
        for n, text in enumerate(lines):
            m = _DEF.match(text)
            if m:
                return SourceLoc(Path(path), first + n, len(m.group(1)) + 1)
        return SourceLoc(Path(path), max(first, 1))
    return None


class _Wrong(Exception):
    """A value's shape is wrong; ``part`` says where inside it, when not the whole."""

    def __init__(self, part: str = "") -> None:
        self.part = part


def _fail(who: str, method: object, owner: object, shape: str, value: object,
          part: str = "") -> NoReturn:
    """Malformed: ``who`` (``owner``'s ``method``) returned ``value``, not ``shape``."""
    raise Malformed(defined_at(method, type(owner)), f"{who} must return {shape}",
                    f"it returned {short(value)}{part}") from None


def _expect(value: object, check: Callable[[Any], None], who: str, method: object,
            owner: object, shape: str) -> None:
    try:
        check(value)
    except _Wrong as wrong:
        _fail(who, method, owner, shape, value, wrong.part)


def _engines(engine: GameEngine, method: str) -> str:
    return f"the {engine.name} engine's {method}()"


def _objects(engine: str, owner: object, method: str) -> str:
    """'the pig engine's State.legal_moves()': a method of its rules or of a state."""
    return f"the {engine} engine's {type(owner).__name__}.{method}()"


def _is_sequence(value: object) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def _is_whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _mapping(value: Any, item_ok: Callable[[Any], bool]) -> None:
    """A mapping with text keys, every item ``item_ok``."""
    if not isinstance(value, Mapping):
        raise _Wrong()
    for key, item in value.items():
        if not isinstance(key, str):
            raise _Wrong(f", whose key {short(key)} is not text")
        if not item_ok(item):
            raise _Wrong(f", whose {short(key)} is {short(item)}")


def _sequence(value: Any, item_ok: Callable[[Any], bool], *, empty: bool = True) -> None:
    """A sequence (not text), every item ``item_ok``; not empty unless ``empty``."""
    if not _is_sequence(value) or not (empty or value):
        raise _Wrong()
    for n, item in enumerate(value):
        if not item_ok(item):
            raise _Wrong(f", whose [{n}] is {short(item)}")


def _rows(table: Any) -> bool:
    return _is_sequence(table) and all(isinstance(row, Mapping) for row in table)


def _pair(entry: Any) -> bool:
    return (_is_sequence(entry) and len(entry) == 2 and isinstance(entry[0], str)
            and callable(entry[1]))


def _figure(f: Any) -> bool:
    return (isinstance(f, Figure) and isinstance(f.caption, str) and isinstance(f.svg, str)
            and isinstance(f.narrow, str))


def _chance(pair: Any) -> bool:
    return _is_sequence(pair) and len(pair) == 2 and isinstance(pair[1], Real)


# --- the parts that check, books and kits use ------------------------------------------------


def component_counts(engine: GameEngine) -> Mapping[str, int]:
    method = getattr(engine, "component_counts", None)
    if method is None:
        return {}
    value = method()
    _expect(value, lambda v: _mapping(v, _is_whole), _engines(engine, "component_counts"),
            method, engine, "a mapping of component id to a whole number")
    return value  # type: ignore[no-any-return]


def words(engine: GameEngine | None) -> tuple[str, ...]:
    """The words the engine's figures and facts print, for its game's translators."""
    method = getattr(engine, "words", None)
    if engine is None or method is None:
        return ()
    value = method()
    _expect(value, lambda v: _sequence(v, lambda w: isinstance(w, str) and bool(w.strip())),
            _engines(engine, "words"), method, engine, "a list of words (strings)")
    return tuple(value)


def drawers(engine: GameEngine | None) -> Mapping[str, Drawer]:
    method = getattr(engine, "drawers", None)
    if engine is None or method is None:
        return {}
    value = method()
    _expect(value, lambda v: _mapping(v, callable), _engines(engine, "drawers"),
            method, engine, "a mapping of drawer name to a function drawing a face")
    return value  # type: ignore[no-any-return]


def tables(engine: GameEngine | None) -> Mapping[str, Sequence[Mapping[str, Any]]]:
    """The engine's tables; none for a game without an engine, or one that has none (every
    part is optional)."""
    method = getattr(engine, "tables", None)
    if engine is None or method is None:
        return {}
    value = method()
    _expect(value, lambda v: _mapping(v, _rows), _engines(engine, "tables"), method, engine,
            "a mapping of table name to a list of rows, each a mapping of field to value")
    return value  # type: ignore[no-any-return]


def replayed(engine: GameEngine, example: Mapping[str, Any]) -> Any:
    """The engine's one replay of ``example``, which facts and figures are read from."""
    replay = getattr(engine, "replay", None)
    if replay is None:
        raise ExampleDataError(f"the {engine.name} engine does not replay examples")
    return replay(example)


def facts(engine: GameEngine, replay: Any) -> Mapping[str, Any]:
    """The facts of ``replay`` (the replay itself when the engine declares no ``facts``)."""
    read = getattr(engine, "facts", None)
    value = replay if read is None else read(replay)
    if not isinstance(value, Mapping):  # its keys are compared as text: any will do
        method = "replay" if read is None else "facts"
        _fail(_engines(engine, method), read or getattr(engine, "replay", None), engine,
              "a mapping of fact name to value", value)
    return value


def figures(engine: GameEngine, replay: Any, example: Mapping[str, Any]) -> Sequence[Figure]:
    """The figures drawn from ``replay`` (none when the engine declares no ``figures``)."""
    draw = getattr(engine, "figures", None)
    if draw is None:
        return ()
    value: Sequence[Figure] = draw(replay, example)
    _expect(value, lambda v: _sequence(v, _figure), _engines(engine, "figures"), draw, engine,
            "a list of Figure(caption, svg), both text (svg: an SVG document)")
    return value


def facts_of(engine: GameEngine, example: Mapping[str, Any]) -> Mapping[str, Any]:
    """The facts of ``example``, replayed as ``rulepress check`` does (for a game's tests)."""
    return facts(engine, replayed(engine, example))


def figures_of(engine: GameEngine, example: Mapping[str, Any]) -> Sequence[Figure]:
    """The figures of ``example``, replayed and drawn as a rulebook does (for a game's tests)."""
    return figures(engine, replayed(engine, example), example)


# --- the parts simulation uses ----------------------------------------------------------------


def rules(engine: GameEngine, *, check: bool = False) -> Rules | None:
    """The engine's rules, None when it has none; ``check``: invariants() is needed too."""
    method = getattr(engine, "rules", None)
    value = method() if method is not None else None
    if value is None:
        return None
    needs = ("new_game", "variants") + (("invariants",) if check else ())
    missing = [f"{name}()" for name in needs if not callable(getattr(value, name, None))]
    lowest, highest = getattr(value, "min_players", None), getattr(value, "max_players", None)
    if not (_is_whole(lowest) and _is_whole(highest) and 1 <= lowest <= highest):
        missing.append("min_players and max_players (1 <= min <= max)")
    if missing:
        _fail(_engines(engine, "rules"), method, engine, "None or the game's Rules, with "
              f"{'(), '.join(needs)}(), min_players and max_players", value,
              f", which has no {' nor '.join(missing)}")
    return value  # type: ignore[no-any-return]


def variants(engine: GameEngine, rules: Rules) -> list[str]:
    """The names of the game's variants, the standard game's first."""
    value = rules.variants()
    _expect(value, lambda v: _sequence(v, lambda x: isinstance(getattr(x, "name", None), str),
                                       empty=False),
            _objects(engine.name, rules, "variants"), rules.variants, rules,
            "a list of Variant(name, description), the standard game first")
    return [v.name for v in value]


def started(engine: GameEngine, rules: Rules, state: object) -> GameState[Any]:
    """``state`` as new_game() returned it."""
    if not isinstance(state, GameState):
        _fail(_objects(engine.name, rules, "new_game"), rules.new_game, rules, STATE, state)
    return state


def hidden(engine: GameEngine, rules: Rules, state: GameState[Any]) -> None:
    """A search plans on views: the rules' ``game_type`` is a GameType, and a game of imperfect
    information has ``view(seat)`` on its states and ``sample(view, rng)`` on its rules."""
    declared = getattr(rules, "game_type", None)
    if declared is not None and not isinstance(declared, GameType):
        raise Malformed(defined_at(type(rules)), f"the {engine.name} engine's "
                        f"{type(rules).__name__}.game_type must be PERFECT_INFORMATION or "
                        "IMPERFECT_INFORMATION", f"it is {short(declared)}")
    if not hides_information(rules):
        return
    for owner, method in ((state, "view"), (rules, "sample")):
        if not callable(getattr(owner, method, None)):
            raise Malformed(defined_at(type(owner)), f"the {engine.name} engine's "
                            f"{type(owner).__name__} must have {method}(), as its rules "
                            "declare hidden information", "it has none")


def agents(engine: GameEngine) -> Mapping[str, tuple[str, Agent]]:
    method = getattr(engine, "agents", None)
    if method is None:
        return {}
    value = method()
    _expect(value, lambda v: _mapping(v, _pair), _engines(engine, "agents"), method, engine,
            "a mapping of agent name to (a line saying how it plays, the agent function)")
    return value  # type: ignore[no-any-return]


def questions(engine: GameEngine) -> tuple[Question, ...]:
    method = getattr(engine, "questions", None)
    if method is None:
        return ()
    value = method()

    def each(v: Any) -> None:
        _sequence(v, lambda q: isinstance(q, Question))
        names = [q.name for q in v]
        for n, q in enumerate(v):
            if not (isinstance(q.name, str) and QUESTION_NAME.match(q.name)):
                raise _Wrong(f", whose [{n}] is named {short(q.name)}")
            if names.count(q.name) > 1:
                raise _Wrong(f", which has two questions named {short(q.name)}")
            if q.kind not in KINDS:
                raise _Wrong(f", whose [{n}] is of kind {short(q.kind)}")
            if not isinstance(q.text, str) or not callable(q.ask):
                raise _Wrong(f", whose [{n}] has text {short(q.text)} and ask {short(q.ask)}")

    _expect(value, each, _engines(engine, "questions"), method, engine,
            "a list of Question(name, text, ask, kind): each a name of its own of a-z, 0-9 "
            "and _, its text a line, ask a function, kind 'rate' or 'mean'")
    return tuple(value)


# --- a simulated game: checked once a game, and when the play loop fails ----------------------


def chosen(engine: str, name: str, agent: Agent, state: GameState[Any],
           move: object) -> Malformed | None:
    """The error of an agent whose ``move``, which the rules refused, is none of the legal
    moves; None when it is one (then the rules contradict themselves: a finding)."""
    legal = state.legal_moves()
    if move in legal:
        return None
    return Malformed(defined_at(agent), f"the {engine} engine's agent '{name}' must return "
                     "one of state.legal_moves()", f"it returned {short(move)}; the legal "
                     f"moves were {short(legal)}")


def outcome(engine: str, state: GameState[Any], players: int) -> Outcome | None:
    """How the game ended: None only while it is not over."""
    value = state.outcome()
    if value is None and not state.is_over():
        return None
    if not (isinstance(value, Outcome) and _ended(value, players)):
        _fail(_objects(engine, state, "outcome"), state.outcome, state, "an Outcome once "
              f"is_over(), None before: winners among seats 0 to {players - 1}, a number for "
              f"each of the {players} seats' scores, the reason as text", value)
    return value


def _ended(value: Outcome, players: int) -> bool:
    # Run once a game: exact types before an ABC's slower isinstance, loops not all() (faster).
    winners, scores = value.winners, value.scores
    if not (isinstance(value.reason, str) and _is_sequence_fast(winners)
            and _is_sequence_fast(scores) and len(scores) == players):
        return False
    for w in winners:
        if not (_is_whole(w) and 0 <= w < players):
            return False
    for s in scores:  # noqa: SIM110
        if not (type(s) is float or type(s) is int or isinstance(s, Real)):
            return False
    return True


def _is_sequence_fast(value: object) -> bool:
    return type(value) is tuple or type(value) is list or _is_sequence(value)


def answers(engine: str, asked: Sequence[Question], found: Mapping[str, object]) -> None:
    for q in asked:
        answer = found[q.name]
        if not (answer is None or type(answer) is bool or isinstance(answer, Real)):
            raise Malformed(defined_at(q.ask), f"the {engine} engine's question '{q.name}' "
                            "must answer True, False, a number or None (the question does not "
                            "arise)", f"it answered {short(answer)}")


def broken(engine: str, rules: Rules, value: object) -> Sequence[str]:
    """What invariants() found broken (checked only when it found anything)."""
    _expect(value, lambda v: _sequence(v, lambda x: isinstance(x, str)),
            _objects(engine, rules, "invariants"), rules.invariants, rules,
            "a list of sentences, each a broken invariant (empty when all hold)")
    return value  # type: ignore[return-value]


def misplayed(engine: str, rules: Rules, state: object, start: object, players: int,
              moves: int) -> Malformed | None:
    """Which of the engine's values made rulepress's own play loop fail on ``state``,
    ``moves`` moves after ``start`` (new_game()'s state); None when none is to blame (then it
    is rulepress's bug). Called only after a failure, so it may take its time."""
    if not isinstance(state, GameState):  # made by new_game(), or by the last apply()
        maker, method = (rules, "new_game") if moves == 0 else (start, "apply")
        return _verdict(lambda: _fail(_objects(engine, maker, method),
                                      getattr(maker, method, None), maker, STATE, state))
    for probe in (_turn, _seat, _choices):
        found = _verdict(functools.partial(probe, engine, state, players))
        if found is not None:
            return found
    return None


def _verdict(probe: Callable[[], None]) -> Malformed | None:
    try:
        probe()
    except Malformed as found:
        return found
    except Exception:  # noqa: BLE001 - the probe itself failed: no verdict, the error stands
        return None
    return None


def _turn(engine: str, state: GameState[Any], players: int) -> None:
    value = state.turn()
    if not _is_whole(value):
        _fail(_objects(engine, state, "turn"), state.turn, state,
              "the turns completed, a whole number", value)


def _seat(engine: str, state: GameState[Any], players: int) -> None:
    value = state.current_player()
    if not (_is_whole(value) and (value == CHANCE or 0 <= value < players)):
        _fail(_objects(engine, state, "current_player"), state.current_player, state,
              f"the seat to act, 0 to {players - 1}, or CHANCE ({CHANCE})", value)


def _choices(engine: str, state: GameState[Any], players: int) -> None:
    if state.is_over():
        return
    if state.current_player() == CHANCE:
        _expect(state.chance_outcomes(), lambda v: _sequence(v, _chance, empty=False),
                _objects(engine, state, "chance_outcomes"), state.chance_outcomes, state,
                "a list of (outcome, probability) pairs, not empty at a chance node")
        return
    _expect(state.legal_moves(), lambda v: _sequence(v, lambda m: isinstance(m, Hashable),
                                                     empty=False),
            _objects(engine, state, "legal_moves"), state.legal_moves, state,
            "a list (or a tuple) of moves, not empty while the game is not over")
