"""Layout values written as Jinja: templates (``{{ rank }} of {{ suit }}``) and expressions
(``tables.allotment``), sandboxed, every name strict, every error at its layout line."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache
from itertools import islice
from typing import Any

from jinja2 import TemplateError, TemplateSyntaxError, nodes
from jinja2.exceptions import SecurityError
from jinja2.parser import Parser

from rulepress.diagnostics import SourceLoc
from rulepress.limits import LAYOUT_SECONDS, MAX_LAYOUT_RANGE
from rulepress.pnp.faces.errors import LayoutError
from rulepress.sandbox import Sandbox, Timeout, Unknown, deadline, runtime_problem, syntax_problem
from rulepress.suggest import suggest
from rulepress.words import ordinal

_JINJA = re.compile(r"\{\{|\{%")


@cache
def environment() -> Sandbox:
    """The sandbox example prose and game templates run in, with only the face's own names in
    scope and a bounded ``range``."""
    env = Sandbox(autoescape=False)
    env.globals.clear()
    env.globals["range"] = bounded_range
    env.filters["ordinal"] = ordinal
    env.globals["icon"] = icon
    return env


def icon(name: str) -> str:
    """``{{ icon('shell') }}``: the text's ``:shell:``, which sets the game's icon inline."""
    return f":{name}:"


def bounded_range(*args: int) -> range:
    """``range`` for layouts, at most MAX_LAYOUT_RANGE long (loops in a face cannot run away)."""
    found = range(*args)
    if len(found) > MAX_LAYOUT_RANGE:
        raise SecurityError(f"range of {len(found)} numbers: at most {MAX_LAYOUT_RANGE}")
    return found


def names_in(ctx: Mapping[str, Any]) -> list[str]:
    """Every name a template could have meant: the context's, and the engine tables'."""
    names = list(ctx)
    tables = ctx.get("tables")
    if isinstance(tables, Mapping):
        names += [str(k) for k in tables]
    return names


def text_compared_with_numbers(tree: nodes.Node) -> list[tuple[str, Any]]:
    """(name, number) for each comparison of a bare name with a number: ``value != 0``."""
    found = []
    compares = [tree] if isinstance(tree, nodes.Compare) else []  # find_all skips the root
    for compare in [*compares, *tree.find_all(nodes.Compare)]:
        sides = [compare.expr, *(op.expr for op in compare.ops)]
        for a, b in zip(sides, sides[1:], strict=False):
            for name, const in ((a, b), (b, a)):
                if (isinstance(name, nodes.Name) and isinstance(const, nodes.Const)
                        and isinstance(const.value, int | float)
                        and not isinstance(const.value, bool)):
                    found.append((name.name, const.value))
    return found


def check_comparisons(pairs: list[tuple[str, Any]], ctx: Mapping[str, Any], loc: SourceLoc,
                      where: str) -> None:
    """A data file's fields are text: ``value != 0`` would hold on every row, silently."""
    for name, number in pairs:
        value = ctx.get(name)
        if isinstance(value, str):
            raise LayoutError(loc, (
                f"'{name}' is text ({value!r}) compared with the number {number}{where}: a "
                f"data file's fields are text, and text never equals a number; write "
                f"{name} | int to compare it as a number, or compare it with '{number}'"))


def _problem(exc: Exception, ctx: Mapping[str, Any], where: str) -> str:
    message = runtime_problem(exc)
    if isinstance(exc, Unknown) and not exc.refused and exc.obj is ctx.get("tables"):
        tables = sorted(map(str, ctx["tables"]))  # not a row's field: no row fields to list
        return (f"the engine has no table '{exc.name}'{where}{suggest(str(exc.name), tables)}"
                f"; its tables: {', '.join(tables) or 'none'}")
    if isinstance(exc, Unknown) and not exc.refused and exc.name is not None:
        name = str(exc.name)
        message = f"'{name}' is not defined{where}" + suggest(name, names_in(ctx))
        if "row" in ctx:
            message += f"; the row's fields are {', '.join(sorted(ctx['row']))}"
        elif name not in names_in(ctx):
            message += ("; this face is the same on every copy, so it sees no row (a back "
                        "with one face per row needs back_varies: true)")
        return message
    return message + where


def _too_long(where: str) -> str:
    """Loops in loops (range(1000) three deep) are each within the limits, and take minutes."""
    return f"the value takes more than {LAYOUT_SECONDS:g} s of CPU time to work out{where}"


class Template:
    """A text value: constant unless it holds ``{{`` or ``{%``."""

    def __init__(self, source: str, loc: SourceLoc) -> None:
        self.source, self.loc = source, loc
        self._compiled = None
        self._compares: list[tuple[str, Any]] = []
        if _JINJA.search(source):
            try:
                tree = environment().parse(source)  # parsed once: searched, then compiled
                self._compares = text_compared_with_numbers(tree)
                self._compiled = environment().from_string(tree)
            except TemplateSyntaxError as exc:
                raise LayoutError(loc, f"template: {syntax_problem(exc)}") from None

    @property
    def constant(self) -> bool:
        return self._compiled is None

    def render(self, ctx: Mapping[str, Any], where: str = "") -> str:
        if self._compiled is None:
            return self.source
        check_comparisons(self._compares, ctx, self.loc, where)
        try:
            with deadline(LAYOUT_SECONDS):
                return self._compiled.render(ctx)
        except Timeout:
            raise LayoutError(self.loc, _too_long(where)) from None
        except (TemplateError, TypeError, ValueError, LookupError, ArithmeticError) as exc:
            raise LayoutError(self.loc, _problem(exc, ctx, where)) from None


class Expression:
    """A value computed from the row and the tables: ``tables.scores``, ``rank > 10``."""

    def __init__(self, source: str, loc: SourceLoc) -> None:
        self.source, self.loc = source, loc
        try:
            self._compiled = environment().compile_expression(source, undefined_to_none=False)
            tree = Parser(environment(), source, state="variable").parse_expression()
            self._compares = text_compared_with_numbers(tree)
        except TemplateSyntaxError as exc:
            raise LayoutError(loc, f"expression: {syntax_problem(exc)}") from None

    def value(self, ctx: Mapping[str, Any], where: str = "") -> Any:
        check_comparisons(self._compares, ctx, self.loc, where)
        try:
            with deadline(LAYOUT_SECONDS):
                return self._compiled(**ctx)
        except Timeout:
            raise LayoutError(self.loc, _too_long(where)) from None
        except (TemplateError, TypeError, ValueError, LookupError, ArithmeticError) as exc:
            raise LayoutError(self.loc, _problem(exc, ctx, where)) from None

    def items(self, ctx: Mapping[str, Any], where: str = "") -> list[Any]:
        """A count n as 1..n, or the list it names; at most MAX_LAYOUT_RANGE items, however
        the expression makes them (``range(1000) | list * 100`` is a list of 100 000)."""
        got = self.value(ctx, where)
        if isinstance(got, int) and not isinstance(got, bool):
            if not 0 <= got <= MAX_LAYOUT_RANGE:
                raise LayoutError(self.loc, f"repeat gives {got}: between 0 and "
                                            f"{MAX_LAYOUT_RANGE}, please")
            return list(range(1, got + 1))
        if isinstance(got, Iterable) and not isinstance(got, str | bytes | Mapping):
            items = list(islice(got, MAX_LAYOUT_RANGE + 1))
            if len(items) > MAX_LAYOUT_RANGE:
                raise LayoutError(self.loc, f"'{self.source}' gives more than "
                                            f"{MAX_LAYOUT_RANGE} items to repeat{where}")
            return items
        raise LayoutError(self.loc, f"'{self.source}' gives {got!r}: expected a number or a list")
