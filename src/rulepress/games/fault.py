"""A game engine's own code raising: the line that raised and what, for a diagnostic.

An engine is a plug-in, often the designer's own module: an exception from it is bad input,
reported at its file and line (exit 2), never a Python traceback. That includes what Python
does not count as an error (SystemExit from ``sys.exit()``, KeyboardInterrupt, GeneratorExit):
from an engine they are its fault, not a pass, a disproved example or a Ctrl-C (a real one
arrives as Interrupted, which is never blamed on the engine).
"""

from __future__ import annotations

import os
import re
import sysconfig
import traceback
from functools import cache
from importlib import metadata
from pathlib import Path

from rulepress.diagnostics import SourceLoc
from rulepress.signals import Interrupted
from rulepress.workers import in_worker, memory_note

MAX_MESSAGE = 300  # characters of the exception's own message
_API = {os.path.join("games", "data.py"), os.path.join("games", "base.py")}  # engines call these


@cache
def _roots() -> tuple[tuple[str, ...], tuple[str, ...], str]:
    """Python's own library, the installed packages, and rulepress's package (as folders)."""
    paths = sysconfig.get_paths()

    def folders(*keys: str) -> tuple[str, ...]:
        return tuple(sorted({os.path.join(os.path.realpath(paths[k]), "") for k in keys
                             if k in paths}))

    package = os.path.join(str(Path(__file__).resolve().parents[1]), "")
    return folders("stdlib", "platstdlib"), folders("purelib", "platlib"), package


def raised_at(exc: BaseException) -> SourceLoc | None:
    """Where an engine's own code raised ``exc``: a SyntaxError's line, else the innermost
    frame outside Python's library, rulepress and installed packages (else the innermost in an
    installed package: an engine may be one). None when rulepress's own code raised it last:
    that is rulepress's bug (or data it failed to check), for a traceback."""
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        return SourceLoc(Path(exc.filename), exc.lineno, max(1, exc.offset or 1))
    stdlib, packages, rulepress = _roots()
    tail: list[tuple[str, int, bool]] = []  # innermost first, until rulepress's own frames
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        real = os.path.realpath(frame.filename)
        if frame.filename.startswith("<") or not frame.lineno:
            continue
        if real.startswith(rulepress):
            if real[len(rulepress):] in _API:
                continue  # what an engine calls raises at the engine's call
            break
        installed = real.startswith(packages)  # site-packages may lie inside the stdlib folder
        if installed and _library(real, packages):
            continue  # a library rulepress uses (Jinja) is never where the designer's fault is
        if installed or not real.startswith(stdlib):
            tail.append((frame.filename, frame.lineno, installed))
    if not tail:
        return None
    filename, line, _ = next((f for f in tail if not f[2]), tail[0])
    return SourceLoc(Path(filename), line)


def library_raised(exc: BaseException) -> str | None:
    """The distribution (``pillow``, ``reportlab``) whose code rulepress called and that raised
    ``exc``, when no engine code ran between them (a library's error is never the engine's);
    else None. Only libraries rulepress itself depends on count: an engine may be installed."""
    stdlib, packages, rulepress = _roots()
    called: str | None = None  # the outermost frame after rulepress's last one
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        real = os.path.realpath(frame.filename)
        if real.startswith(rulepress):
            break
        if not frame.filename.startswith("<"):
            called = real
    root = next((r for r in packages if called and called.startswith(r)), None)
    if called is None or root is None:
        return None
    top = Path(called[len(root):]).parts[0].removesuffix(".py")
    found = [d for d in _distributions().get(top, ()) if _norm(d) in _needed()]
    return found[0] if found else None


def _library(real: str, packages: tuple[str, ...]) -> bool:
    """``real`` (a file in an installed package) is in a distribution rulepress needs."""
    root = next((r for r in packages if real.startswith(r)), None)
    if root is None:
        return False
    top = Path(real[len(root):]).parts[0].removesuffix(".py")
    return any(_norm(d) in _needed() for d in _distributions().get(top, ()))


@cache
def _distributions() -> dict[str, list[str]]:
    return dict(metadata.packages_distributions())  # scans every installed package: once


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@cache
def _needed() -> frozenset[str]:
    """Every distribution rulepress needs, directly or through another (lower-case names)."""
    seen: set[str] = set()
    todo = ["rulepress"]
    while todo:
        try:
            requires = metadata.requires(todo.pop()) or []
        except metadata.PackageNotFoundError:
            continue
        for req in requires:
            if "extra ==" in req:
                continue
            name = _norm(re.split(r"[\s\[<>=!~;(]", req, maxsplit=1)[0])
            if name not in seen:
                seen.add(name)
                todo.append(name)
    return frozenset(seen)


def blamed(exc: BaseException) -> tuple[SourceLoc, str]:
    """The engine's line that raised ``exc`` and what it raised; ``exc`` itself, re-raised with
    its traceback, when rulepress's own code raised it (see raised_at) or it is a stop signal."""
    loc = None if isinstance(exc, Interrupted) else raised_at(exc)
    if loc is None:
        raise exc
    return loc, described(exc)


def described(exc: BaseException) -> str:
    """'ZeroDivisionError: division by zero', on one line and at most MAX_MESSAGE long."""
    text = " ".join(str(exc.msg if isinstance(exc, SyntaxError) else exc).split())
    if isinstance(exc, MemoryError):
        text = memory_note() if in_worker() else text
    if len(text) > MAX_MESSAGE:
        text = text[:MAX_MESSAGE - 1] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
