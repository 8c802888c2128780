"""Finding a game's engine: by name through the ``rulepress.games`` entry points, or by a path
to a module inside the project (``engine: engines/pig.py:ENGINE``).

The bundled games register themselves as entry points in rulepress's own ``pyproject.toml``, so
a game installed from elsewhere is found exactly as they are.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from collections.abc import Callable
from contextlib import suppress
from functools import cache
from importlib.machinery import ModuleSpec
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from types import ModuleType

from rulepress.diagnostics import SourceLoc
from rulepress.games.base import GameEngine
from rulepress.games.data import bind
from rulepress.games.fault import blamed
from rulepress.suggest import suggest
from rulepress.supervise import importing
from rulepress.workers import trial

GROUP = "rulepress.games"
NAME = re.compile(r"^[a-z][a-z0-9_]*\Z")
# A module file inside the project, and the attribute holding the engine (ENGINE by default).
PACKAGE = "__init__.py"  # a project's engine may be a package: engines/pig/__init__.py:ENGINE
MODULE = re.compile(r"^(?P<path>[^:]+\.py)(?::(?P<attr>[A-Za-z_][A-Za-z0-9_]*))?\Z")


class UnknownEngine(LookupError):
    """No engine by that name, or it failed to load; ``loc``: the line of the engine's own
    code that failed (else the error belongs at the game's ``engine:`` line)."""

    def __init__(self, message: str, loc: SourceLoc | None = None) -> None:
        super().__init__(message)
        self.loc = loc


def _failed_to_load(what: str, exc: BaseException) -> UnknownEngine:
    loc, raised = blamed(exc)
    return UnknownEngine(f"{what} failed to load: {raised}", loc)


_REGISTERED: dict[str, GameEngine] = {}


def register_engine(name: str, engine: GameEngine) -> None:
    """Make an engine loadable by name without an entry point (tests)."""
    _REGISTERED[name] = engine


def registered(name: str) -> bool:
    """Whether ``name`` is an engine registered in this process (its code is not in files)."""
    return name in _REGISTERED


@cache
def _entry_points() -> dict[str, EntryPoint]:
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def available_engines() -> list[str]:
    """Every engine name that load_engine accepts, sorted."""
    return sorted({*_entry_points(), *_REGISTERED})


def entry_point_module(name: str) -> str | None:
    """The module an installed engine's entry point names (not imported)."""
    found = _entry_points().get(name)
    return found.module if found is not None else None


def is_module_spec(spec: str) -> bool:
    return MODULE.match(spec) is not None


def load_engine(spec: str, project: Path | None = None) -> GameEngine:
    """The engine ``spec`` names: an entry-point name, or ``path.py[:ATTR]`` relative to the
    ``project`` folder (and inside it). UnknownEngine says what exists and what was meant."""
    engine = _load(spec, project)
    bind(engine, spec)  # its game's data rows (games.data) are those of the games naming spec
    return engine


def _load(spec: str, project: Path | None) -> GameEngine:
    if is_module_spec(spec):
        return _load_module(spec, project)
    if spec in _REGISTERED:
        return _REGISTERED[spec]
    found = _entry_points().get(spec)
    if found is None:
        raise UnknownEngine(_unknown(spec))
    how = _tried_entry(found.name, found.value)
    if how is not None:
        raise UnknownEngine(f"the entry point '{spec}' ({found.value}) {how} as it loaded")
    try:
        with importing(_origin(found.module), f"the entry point '{spec}' ({found.value})"):
            engine = found.load()
    except BaseException as exc:  # noqa: BLE001 - the plug-in's own error (sys.exit too), at its line
        raise _failed_to_load(f"the entry point '{spec}' ({found.value})", exc) from None
    if not _is_engine(engine):
        raise UnknownEngine(f"the entry point '{spec}' ({found.value}) is not a game engine")
    return engine  # type: ignore[no-any-return]


def _origin(module: str) -> Path | None:
    """The file of a top-level module, found without running any code (a submodule's would
    import its packages first)."""
    if "." in module:
        return None
    with suppress(ImportError, ValueError):
        found = importlib.util.find_spec(module)
        if found is not None and found.origin is not None:
            return Path(found.origin)
    return None


def _is_engine(value: object) -> bool:
    """An Engine, or an object with an engine's name and parts (a plug-in's own class)."""
    parts = ("rules", "replay", "component_counts", "drawers", "tables", "agents")
    return isinstance(getattr(value, "name", None), str) and any(hasattr(value, p) for p in parts)


def _unknown(spec: str) -> str:
    names = available_engines()
    hint = suggest(spec, names, compare=spec.replace("-", "_").lower())
    listed = ", ".join(names) or "none"
    return (f"no engine named '{spec}'{hint}; installed engines: {listed}; "
            "or name a module of the project, e.g. engines/mygame.py:ENGINE")


@cache
def _load_module(spec: str, project: Path | None) -> GameEngine:
    m = MODULE.match(spec)
    assert m is not None
    if project is None:
        raise UnknownEngine(f"engine '{spec}' is a module file, which only a project "
                            "(a folder with rulepress.toml) may name")
    root = project.resolve()
    path = (root / m["path"]).resolve()
    if not path.is_relative_to(root):
        raise UnknownEngine(f"engine module '{m['path']}' is outside the project folder {root}")
    if not path.is_file():
        raise UnknownEngine(f"engine module '{m['path']}' does not exist in {root}")
    try:  # else importlib raises it from its own frames, which blame no line of the engine
        path.open("rb").close()
    except OSError as exc:
        raise UnknownEngine(f"engine module '{m['path']}' cannot be read: {exc.strerror}") from None
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:12]
    stem = path.parent.name if path.name == PACKAGE else path.stem
    name = f"rulepress_project_{stem}_{digest}"
    module_spec = _spec(name, path)
    if module_spec is None or module_spec.loader is None:
        raise UnknownEngine(f"engine module '{m['path']}' cannot be imported")
    stat = path.stat()
    how = _tried(name, path, (stat.st_mtime_ns, stat.st_size))
    if how is not None:
        raise UnknownEngine(f"engine module '{m['path']}' {how} as it loaded")
    try:
        with importing(path, f"engine module '{m['path']}'"):
            module = _imported(module_spec)
    except BaseException as exc:  # the module's own error (sys.exit too), at its line
        raise _failed_to_load(f"engine module '{m['path']}'", exc) from None
    attr = m["attr"] or "ENGINE"
    engine = getattr(module, attr, None)
    if engine is None or not _is_engine(engine):
        found = sorted(k for k, v in vars(module).items()  # engine objects, not classes
                       if _is_engine(v) and not isinstance(v, type))
        hint = suggest(attr, found) + (f"; its engines: {', '.join(found)}" if found else "")
        raise UnknownEngine(f"engine module '{m['path']}' has no game engine '{attr}'{hint}")
    return engine  # type: ignore[no-any-return]


def _spec(name: str, path: Path) -> ModuleSpec | None:
    """How to import the module file ``path``: a package's ``__init__.py`` as a package, so
    its modules import one another (``from .rules import RULES``), as a bundled game's do."""
    if path.name == PACKAGE:
        return importlib.util.spec_from_file_location(
            name, path, submodule_search_locations=[str(path.parent)])
    return importlib.util.spec_from_file_location(name, path)


def _imported(module_spec: ModuleSpec) -> ModuleType:
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_spec.name] = module  # dataclasses and pickling look modules up by name
    try:
        assert module_spec.loader is not None
        module_spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_spec.name]
        raise
    return module


@cache
def _tried(name: str, path: Path, version: tuple[int, int]) -> str | None:
    """How loading a project's module ends or hangs its process (``os._exit`` at import, a
    crash, a loop), tried first in a worker (workers.py); None when it does not. An exception
    it raises is left to the real import here, which reports it at its line. Kept for the
    file's ``version`` (date, size): a failed load is asked again in the same command."""

    def load() -> None:
        module_spec = _spec(name, path)
        assert module_spec is not None
        _imported(module_spec)

    return _trial(load)


@cache
def _tried_entry(name: str, value: str) -> str | None:
    """As :func:`_tried`, for the entry point ``name = value`` of an installed engine. Not for
    rulepress's own games, nor a module imported already (the trial would prove nothing)."""
    module = value.partition(":")[0].strip()
    if module.partition(".")[0] == "rulepress" or module in sys.modules:
        return None
    return _trial(EntryPoint(name, value, GROUP).load)


def _trial(load: Callable[[], object]) -> str | None:
    """How ``load()`` ends or hangs a worker's process within the engine's budget, else None."""
    return trial(load)
