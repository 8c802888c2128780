"""A game's data rows, for its engine: rulepress reads them (a component's CSV file or its rows
in the front matter) and an engine asks for them, so a packaged engine ships no copy of its
game's data and reads it as the layouts do.

The rows of component ``cards``: ``Engine.data("cards")`` (or ``game_data(engine, "cards")``),
each a new dict of the row's fields, as text for a CSV file and as written for rows in the front
matter, with ``qty`` the whole number of copies (1 when not given).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Rows = tuple[dict[str, Any], ...]

_ROWS: dict[str, Mapping[str, Rows]] = {}  # engine spec -> component id -> rows
_SPECS: dict[int, str] = {}  # id(engine) -> the spec it was loaded by


def provide(spec: str, rows: Mapping[str, Rows]) -> None:
    """The data of the game whose front matter names the engine ``spec`` (read by rulepress)."""
    _ROWS[spec] = rows


def bind(engine: object, spec: str) -> None:
    """``engine`` was loaded by ``spec``: its data is that game's."""
    _SPECS[id(engine)] = spec


def game_data(engine: object, component: str) -> Rows:
    """The data rows of ``component`` of the game ``engine`` serves; LookupError, saying why,
    when rulepress has read no such game or component."""
    spec = _SPECS.get(id(engine))
    tables = _ROWS.get(spec) if spec is not None else None
    if tables is None:
        raise LookupError("no game's data is known to this engine yet: ask for it while "
                          "rulepress runs the engine for a game (in tables(), replay(), "
                          "rules() ...), not as its module is imported")
    if component not in tables:
        known = ", ".join(sorted(tables)) or "none"
        raise LookupError(f"the game has no component '{component}' with data rows "
                          f"(its components with data: {known})")
    return tuple(dict(row) for row in tables[component])
