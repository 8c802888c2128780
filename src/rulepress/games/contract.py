"""What a game engine must return, checked where rulepress receives it.

An engine is often the designer's own module. A value of the wrong shape (a count given as
text, a drawer that is not a function, facts that are not a mapping) would otherwise make
rulepress's own code fail far from the cause, with a traceback. Each part of the protocol has
one helper here that takes the engine's value and checks its shape; a bad one is
:class:`Malformed`, an error at the line of the method that returned it (exit 2), saying what
it must return and what it returned.
"""

from __future__ import annotations

import functools
import inspect
import re
import reprlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

from rulepress.diagnostics import RulepressError, SourceLoc, error
from rulepress.games.base import Drawer, Figure, GameEngine

MAX_SHOWN = 120  # characters of a value shown in a message
_DEF = re.compile(r"(\s*)(?:async\s+def|def|class)\b")

_repr = reprlib.Repr()
_repr.maxlevel, _repr.maxstring, _repr.maxother = 3, 60, 60
_repr.maxlist = _repr.maxtuple = _repr.maxdict = _repr.maxset = 6


class Malformed(RulepressError):
    """An engine's value outside the protocol: ``loc`` is the method that returned it (None
    when it has no Python source); ``head`` says what it must return, ``tail`` what it did."""

    def __init__(self, loc: SourceLoc | None, head: str, tail: str) -> None:
        super().__init__([error(loc, f"{head}; {tail}")])
        self.args = (loc, head, tail)  # so it pickles
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


def _is_sequence(value: object) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def _is_whole(value: object) -> bool:
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


def _sequence(value: Any, item_ok: Callable[[Any], bool]) -> None:
    """A sequence (not text), every item ``item_ok``."""
    if not _is_sequence(value):
        raise _Wrong()
    for n, item in enumerate(value):
        if not item_ok(item):
            raise _Wrong(f", whose [{n}] is {short(item)}")


def _rows(table: Any) -> bool:
    return _is_sequence(table) and all(isinstance(row, Mapping) for row in table)


def _figure(f: Any) -> bool:
    return isinstance(f, Figure) and isinstance(f.caption, str) and isinstance(f.svg, str)


def component_counts(engine: GameEngine) -> Mapping[str, int]:
    value = engine.component_counts()
    _expect(value, lambda v: _mapping(v, _is_whole), _engines(engine, "component_counts"),
            engine.component_counts, engine, "a mapping of component id to a whole number")
    return value


def drawers(engine: GameEngine | None) -> Mapping[str, Drawer]:
    if engine is None:
        return {}
    value = engine.drawers()
    _expect(value, lambda v: _mapping(v, callable), _engines(engine, "drawers"),
            engine.drawers, engine, "a mapping of drawer name to a function drawing a face")
    return value


def tables(engine: GameEngine | None) -> Mapping[str, Sequence[Mapping[str, Any]]]:
    """The engine's tables; none for a game without an engine, or a plug-in written before
    engines had tables (the part is optional)."""
    method = getattr(engine, "tables", None)
    if engine is None or method is None:
        return {}
    value = method()
    _expect(value, lambda v: _mapping(v, _rows), _engines(engine, "tables"), method, engine,
            "a mapping of table name to a list of rows, each a mapping of field to value")
    return value  # type: ignore[no-any-return]


def facts(engine: GameEngine, example: Mapping[str, Any]) -> Mapping[str, Any]:
    value = engine.evaluate(example)
    if not isinstance(value, Mapping):  # its keys are compared as text: any will do
        _fail(_engines(engine, "evaluate"), engine.evaluate, engine,
              "a mapping of fact name to value", value)
    return value


def figures(engine: GameEngine, example: Mapping[str, Any]) -> Sequence[Figure]:
    value = engine.diagrams(example)
    _expect(value, lambda v: _sequence(v, _figure), _engines(engine, "diagrams"),
            engine.diagrams, engine, "a list of Figure(caption, svg), both text (svg: an SVG "
            "document)")
    return value
