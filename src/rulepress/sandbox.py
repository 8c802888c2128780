"""Jinja for text a game's folder supplies: its template overrides and its examples' prose.

Jinja's sandbox stops attribute tricks (``lipsum.__globals__``); on top of it this one keeps
rendering small and quick: no method calls but a few harmless ones, no operator or filter that
multiplies a string past a limit, strict number filters, no randomness, and every render runs
against a clock and a memory ceiling. Errors come back as ``TemplateProblem`` with the template's
file and line.
"""

from __future__ import annotations

import os
import resource
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

import jinja2
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

from rulepress.diagnostics import not_utf8
from rulepress.jail import PathRefused, read_regular
from rulepress.limits import MAX_RENDER_MEMORY, MAX_SEQUENCE

# Methods a template may call: reading a mapping, changing case, the loop helper.
SAFE_METHODS = frozenset({
    "items", "keys", "values", "get", "upper", "lower", "title", "capitalize", "strip",
    "startswith", "endswith", "cycle", "changed",
})
# Filters that can build output far larger than their input, or differ from run to run.
UNSAFE_FILTERS = ("center", "indent", "wordwrap", "format", "slice", "random", "pprint",
                  "urlize", "filesizeformat")


class TemplateProblem(Exception):
    """A template or prose that cannot be rendered: message, and where (file, line) if known.
    ``limit``: it broke a limit or the sandbox (rather than naming something that is missing)."""

    def __init__(self, message: str, filename: str | None = None, line: int | None = None,
                 *, limit: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.filename = filename
        self.line = line
        self.limit = limit


class RefusedTemplate(jinja2.TemplateError):
    """A template file the game's folder may not supply (a link, unreadable): at its path."""

    def __init__(self, message: str, path: Path, line: int = 1) -> None:
        super().__init__(message)
        self.path, self.line = path, line


class Unknown(jinja2.UndefinedError):
    """A name, field, key or item a template asked for and cannot have, worded by us from what
    Jinja knows of it (its own wording changes between releases). ``name``: what was asked;
    ``refused``: it exists but the sandbox forbids it."""

    def __init__(self, name: Any, obj: Any, refused: bool, hint: str | None = None) -> None:
        self.name, self.refused, self.obj = name, refused, obj
        of = "" if obj is jinja2.utils.missing else f" of {_kind(obj)}"
        if name is None and not refused:  # no name asked: a filter found nothing ('first')
            said = f" ({hint.rstrip('.')})" if hint else ""
            message = f"a lookup found nothing{said}, and the template used what it found"
        elif refused:
            message = f"templates may not use {name!r}{of}"
        elif obj is jinja2.utils.missing:
            message = f"unknown name {name!r}"
        else:
            what = "key" if isinstance(obj, Mapping) else "field" if isinstance(name, str) \
                else "item"
            message = f"{_kind(obj)} has no {what} {name!r}"
        super().__init__(message)


def _kind(obj: Any) -> str:
    """What a value is, in a template writer's words."""
    if isinstance(obj, jinja2.Undefined):
        return "an undefined value"
    for kind, name in ((Mapping, "a mapping"), (str, "a text"), (Sequence, "a list"),
                       (bool, "true or false"), (int | float, "a number")):
        if isinstance(obj, kind):
            return name
    if obj is None:
        return "an empty value (none)"
    return obj.__name__ if isinstance(obj, type) else type(obj).__name__


class UnknownFilter(jinja2.TemplateAssertionError):
    """A filter or test the sandbox does not have, found before Jinja's compiler words it."""


class _Strict(jinja2.StrictUndefined):
    """StrictUndefined whose error is an Unknown (the hooks Jinja documents for this)."""

    __slots__ = ()

    def _fail_with_undefined_error(self, *args: Any, **kwargs: Any) -> NoReturn:
        refused = issubclass(self._undefined_exception, SecurityError)
        raise Unknown(self._undefined_name, self._undefined_obj, refused, self._undefined_hint)


# Jinja binds __str__, __iter__, __add__ ... to the base class's function, not to an override.
for _cls in _Strict.__mro__:
    for _attr, _value in list(vars(_cls).items()):
        if _value is jinja2.Undefined._fail_with_undefined_error and _attr not in vars(_Strict):
            setattr(_Strict, _attr, _Strict._fail_with_undefined_error)


class Timeout(BaseException):
    """Raised by the alarm; a BaseException so that no `except Exception` on the way eats it."""


def _sequence(value: Any) -> bool:
    return isinstance(value, str | list | tuple)


def _strict_int(value: Any) -> int:
    if isinstance(value, bool):
        raise SecurityError(f"int: {value!r} is not a number")
    if isinstance(value, int | float):
        return int(value)
    try:
        return int(str(value).strip())
    except ValueError:
        raise SecurityError(f"int: {str(value)!r} is not a whole number") from None


def _strict_float(value: Any) -> float:
    if isinstance(value, bool):
        raise SecurityError(f"float: {value!r} is not a number")
    try:
        return float(value if isinstance(value, int | float) else str(value).strip())
    except ValueError:
        raise SecurityError(f"float: {str(value)!r} is not a number") from None


def _join(value: Iterable[Any], d: str = "", attribute: str | None = None) -> str:
    items = [str(v if attribute is None else getattr(v, attribute, "")) for v in value]
    if sum(map(len, items)) + len(d) * len(items) > MAX_SEQUENCE:
        raise SecurityError(f"join would build more than {MAX_SEQUENCE:,} characters")
    return d.join(items)


def _range(*args: int) -> range:
    found = range(*args)
    if len(found) > MAX_SEQUENCE:
        raise SecurityError(f"range would give more than {MAX_SEQUENCE:,} numbers")
    return found


def _replace(value: Any, old: str, new: str, count: int | None = None) -> str:
    if not old:
        raise SecurityError("replace needs something to replace")
    text = str(value)
    if len(text) + text.count(old) * len(str(new)) > MAX_SEQUENCE:
        raise SecurityError(f"replace would build more than {MAX_SEQUENCE:,} characters")
    return text.replace(old, str(new), -1 if count is None else count)


class Compiled(jinja2.BytecodeCache):
    """Templates compiled once per process (and the processes forked from it: serve's fork
    server compiles the theme's): a page's environment is new each time, its templates mostly
    the theme's. A template is found by its source and by what its environment compiled it
    with (its filters and tests are checked as it is compiled: Sandbox.compile)."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None,
                   source: str) -> jinja2.bccache.Bucket:
        known = (type(environment).__qualname__, repr(environment.autoescape),
                 environment.keep_trailing_newline, environment.trim_blocks,
                 environment.lstrip_blocks, sorted(environment.filters),
                 sorted(environment.tests))
        key = self.get_cache_key(f"{name}\0{known!r}", filename)
        bucket = jinja2.bccache.Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


COMPILED = Compiled()


class Sandbox(ImmutableSandboxedEnvironment):
    """The sandboxed environment every untrusted template and prose renders in."""

    intercepted_binops = frozenset({"*", "**", "%"})

    def __init__(self, **options: Any) -> None:
        super().__init__(undefined=_Strict, **options)
        for name in UNSAFE_FILTERS:
            del self.filters[name]
        self.filters.update(int=_strict_int, float=_strict_float, join=_join, replace=_replace)
        self.globals["range"] = _range  # Jinja's stops at its own MAX_RANGE, in its words
        del self.globals["lipsum"]

    # Every template is compiled here: an unknown filter or test is named before Jinja's
    # compiler words it. (One signature for Jinja's two overloads.)
    def compile(self, source: Any, name: str | None = None, filename: str | None = None,
                raw: Any = False, defer_init: bool = False) -> Any:
        tree = self.parse(source, name, filename) if isinstance(source, str) else source
        for node in tree.find_all((jinja2.nodes.Filter, jinja2.nodes.Test)):
            kind, known = ("filter", self.filters) if isinstance(node, jinja2.nodes.Filter) \
                else ("test", self.tests)
            if node.name not in known:
                why = (" (left out of rulepress's templates: it can build huge or changing "
                       "output)") if node.name in UNSAFE_FILTERS else ""
                raise UnknownFilter(f"no {kind} {node.name!r}{why}", node.lineno, name, filename)
        return super().compile(tree, name, filename, raw, defer_init)

    def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
        # rulepress's own objects may offer methods by name (TEMPLATE_METHODS on their class).
        if callable(value) and attr not in SAFE_METHODS and attr not in getattr(
                type(obj), "TEMPLATE_METHODS", ()):
            return False
        return bool(super().is_safe_attribute(obj, attr, value))

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any,
                   right: Any) -> Any:
        if operator == "*" and (_sequence(left) or _sequence(right)):
            times, seq = (right, left) if _sequence(left) else (left, right)
            if isinstance(times, int) and times * len(seq) > MAX_SEQUENCE:
                raise SecurityError(f"'*' would build more than {MAX_SEQUENCE:,} items")
        elif operator == "**":
            if abs(_number(left)) > 1 and abs(_number(right)) > 64:
                raise SecurityError("'**' would build too large a number")
        elif operator == "%" and isinstance(left, str):
            raise SecurityError("'%' formatting of text is not allowed")
        return super().call_binop(context, operator, left, right)


def _number(value: Any) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def render(produce: Callable[[], str], seconds: float, max_chars: int, what: str,
           env: jinja2.Environment) -> str:
    """Run ``produce`` (which renders templates of ``env``) within ``seconds`` and the memory
    ceiling; its text may hold ``max_chars`` at most."""
    try:
        with deadline(seconds), _memory_ceiling():
            text = produce()
    except Timeout:
        raise TemplateProblem(f"{what} takes more than {seconds:g} s of CPU time to render",
                              limit=True) from None
    except MemoryError:
        raise TemplateProblem(f"{what} needs too much memory to render", limit=True) from None
    except RecursionError:
        raise TemplateProblem(f"{what} recurses too deeply", limit=True) from None
    except SecurityError as exc:
        raise _located(exc.message or str(exc), exc, env, limit=True) from None
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateProblem(syntax_problem(exc), exc.filename, exc.lineno) from None
    except RefusedTemplate as exc:
        raise TemplateProblem(exc.message or "", str(exc.path), exc.line) from None
    except jinja2.TemplateNotFound as exc:
        raise _located(f"no template '{exc.name}'", exc, env) from None
    except (jinja2.TemplateError, TypeError, ValueError, LookupError, ArithmeticError) as exc:
        raise _located(runtime_problem(exc), exc, env) from None
    if len(text) > max_chars:
        raise TemplateProblem(f"{what} renders {len(text):,} characters, more than the limit "
                              f"of {max_chars:,}", limit=True)
    return text


def runtime_problem(exc: Exception) -> str:
    """What went wrong while a template ran: ours where the error is (an unknown name, a limit,
    a division by zero); else Python's or Jinja's text, after ours."""
    if isinstance(exc, Unknown | SecurityError):
        return exc.message or type(exc).__name__
    if isinstance(exc, ZeroDivisionError):
        return "divides by zero"
    if isinstance(exc, OverflowError):
        return "a number grows too large"
    text = exc.message if isinstance(exc, jinja2.TemplateError) else str(exc)
    return f"cannot render: {text or type(exc).__name__}"


def syntax_problem(exc: jinja2.TemplateSyntaxError) -> str:
    """Jinja's parser words each syntax error itself, too many kinds to word again: its text,
    after ours."""
    if isinstance(exc, UnknownFilter):
        return exc.message or ""
    return f"does not parse: {exc.message}"


def _located(message: str, exc: BaseException, env: jinja2.Environment, *,
             limit: bool = False) -> TemplateProblem:
    """The innermost frame of ``exc`` that ran template code names the file and line."""
    wanted = {"<template>", *(t.filename for t in (env.cache or {}).values() if t.filename)}
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename in wanted:
            return TemplateProblem(message, frame.filename, frame.lineno, limit=limit)
    return TemplateProblem(message, limit=limit)


_ends: list[float] = []  # the CPU-time ends (time.process_time()) of the deadlines in force


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """SIGPROF after ``seconds`` of CPU time interrupts the render (main thread only: signals
    go there). CPU time, not the clock: a busy shared machine must not fail a good render.
    Inside another deadline, the one that ends first holds (a template's few seconds inside a
    book's typesetting: one timer, set to the nearer end and back to the other's after); inside
    a timer this module did not set (a worker's engine budget), that one holds."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    end = time.process_time() + seconds
    outer = _ends[-1] if _ends else None
    if (outer is None and signal.getitimer(signal.ITIMER_PROF)[0] > 0) or (
            outer is not None and outer <= end):
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise Timeout

    previous = signal.signal(signal.SIGPROF, expire) if outer is None else None
    _ends.append(end)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        _ends.pop()
        if outer is None:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)
        else:  # the outer deadline's time left (at once, if it is spent)
            signal.setitimer(signal.ITIMER_PROF, max(outer - time.process_time(), 1e-3))


def _address_space() -> int | None:
    try:
        with open(f"/proc/{os.getpid()}/statm") as fh:
            return int(fh.read().split()[0]) * resource.getpagesize()
    except OSError:
        return None


@contextmanager
def _memory_ceiling() -> Iterator[None]:
    """A render may grow the process by MAX_RENDER_MEMORY: past it allocation fails with
    MemoryError instead of the machine swapping or the kernel killing the build (Linux)."""
    used = _address_space()
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if used is None or sys.platform != "linux":
        yield
        return
    ceiling = used + MAX_RENDER_MEMORY
    if hard != resource.RLIM_INFINITY:
        ceiling = min(ceiling, hard)
    if soft != resource.RLIM_INFINITY:
        ceiling = min(ceiling, soft)
    resource.setrlimit(resource.RLIMIT_AS, (ceiling, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _why(exc: Exception) -> str:
    """An OSError's reason without its errno and path (the diagnostic names the file)."""
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


class GameTemplates(jinja2.BaseLoader):
    """Templates in ``<game_folder>/templates``: regular files only, no links, no way out."""

    def __init__(self, game_folder: Path) -> None:
        self.game = game_folder
        self.root = game_folder / "templates"

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        pieces = jinja2.loaders.split_template_path(template)  # refuses '..'
        path = self.root.joinpath(*pieces)
        try:  # an unreadable templates/ folder fails these too
            links = [part for part in [self.root, *reversed(path.parents[: len(pieces) - 1]), path]
                     if part.is_symlink()]
            found = path.is_file()
        except OSError as exc:
            raise RefusedTemplate(f"'{template}' cannot be read: {_why(exc)}", path) from None
        if links:
            raise RefusedTemplate(
                f"'{template}': {links[0].name} is a symbolic link; a game's templates must be "
                "files inside its templates/ folder", links[0])
        if not found:
            raise jinja2.TemplateNotFound(template)
        try:
            source = read_regular(path).decode("utf-8")
        except UnicodeDecodeError as exc:
            at, what = not_utf8(path, exc)
            raise RefusedTemplate(f"'{template}' is {what}", path, at.line) from None
        except (PathRefused, OSError) as exc:
            raise RefusedTemplate(f"'{template}' cannot be read: {_why(exc)}", path) from None
        mtime = path.stat().st_mtime
        return source, str(path), lambda: path.is_file() and path.stat().st_mtime == mtime
