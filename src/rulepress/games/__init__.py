"""Game engines, found by name: ``engine: pigeon_race`` loads ``rulepress.games.pigeon_race``."""

from __future__ import annotations

import importlib
import re

from rulepress.games.base import GameEngine

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class UnknownEngine(LookupError):
    pass


_REGISTERED: dict[str, GameEngine] = {}


def register_engine(name: str, engine: GameEngine) -> None:
    """Make an engine that lives outside rulepress.games (a test's, a plug-in's) loadable."""
    _REGISTERED[name] = engine


def load_engine(name: str) -> GameEngine:
    if name in _REGISTERED:
        return _REGISTERED[name]
    if not _NAME.match(name) or name == "base":
        raise UnknownEngine(f"'{name}' is not an engine name")
    try:
        module = importlib.import_module(f"rulepress.games.{name}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith(f"rulepress.games.{name}"):
            raise UnknownEngine(f"no engine named '{name}'") from None
        raise
    engine: GameEngine | None = getattr(module, "ENGINE", None)
    if engine is None:
        raise UnknownEngine(f"rulepress.games.{name} has no ENGINE")
    return engine
