"""The layers docs/design.md draws, held: every import (inside functions too; those under
``if TYPE_CHECKING:`` are for mypy alone) of a module in the bottom layers names a module of its
own layer or one below, with the packages Python loads on the way; and no import cycle
joins any modules."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import rulepress

SRC = Path(rulepress.__file__).parent
# From the bottom up, by the module's first part under rulepress (docs/design.md, "Layers").
LAYERS = (
    {"diagnostics", "limits", "paths", "media", "signals", "suggest", "emoji"},
    {"press", "write", "jail", "sandbox", "supervise", "workers", "units", "figure", "images",
     "collate", "hyphenation"},
    {"document", "prose", "games", "cache", "memo"},
)
GAMES = ("base", "cards", "conformance", "contract", "data", "fault")  # games/ itself, not a game


def modules() -> dict[str, Path]:
    found = {}
    for path in SRC.rglob("*.py"):
        parts = ["rulepress", *path.relative_to(SRC).with_suffix("").parts]
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = modules()


def imported(name: str, path: Path) -> Iterator[str]:
    """The rulepress modules ``name``'s code names in an import, wherever it runs."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(node.test)
                   for stmt in node.body for n in ast.walk(stmt)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            targets = [base, *(f"{base}.{a.name}" for a in node.names)]
        else:
            continue
        yield from (t for t in targets if t in MODULES and t != name)


def layer(name: str) -> int:
    parts = name.split(".")
    if len(parts) == 1:
        return 0
    if parts[1] == "games" and len(parts) > 2 and parts[2] not in GAMES:
        return len(LAYERS)  # a bundled game: a plug-in, above everything
    return next((n for n, members in enumerate(LAYERS) if parts[1] in members), len(LAYERS))


def loaded(name: str) -> list[str]:
    """``name`` and the packages Python loads before it."""
    parts = name.split(".")
    return [".".join(parts[:n]) for n in range(2, len(parts) + 1)]


def test_the_bottom_layers_import_only_their_own_layer_or_below() -> None:
    above = [f"{name} (layer {layer(name)}) imports {target} (layer {layer(target)})"
             for name, path in MODULES.items() if layer(name) < len(LAYERS)
             for named in imported(name, path) for target in loaded(named)
             if layer(target) > layer(name)]
    assert not above, above


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan's, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, todo = work[-1]
            step = next(todo, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(group)
    return groups


def test_no_import_cycle() -> None:
    graph = {name: set(imported(name, path)) for name, path in MODULES.items()}
    assert not [sorted(group) for group in cycles(graph)]


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
