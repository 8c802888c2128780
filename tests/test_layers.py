"""validate is beneath its callers: walked import by import (inside functions too, the place a
cycle hides from the import graph), from rulepress.validate it reaches no generator's module.
Imports under ``if TYPE_CHECKING:`` are for mypy alone and never run."""

from __future__ import annotations

import ast
from pathlib import Path

import rulepress

SRC = Path(rulepress.__file__).parent.parent
ABOVE_VALIDATE = ("render", "pnp", "simulate", "books", "export")


def module_file(name: str) -> Path | None:
    path = SRC.joinpath(*name.split("."))
    for candidate in (path / "__init__.py", path.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def _type_only(tree: ast.Module) -> set[int]:
    """Ids of the import nodes under ``if TYPE_CHECKING:``."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return found


def imports(source: str, package: str) -> set[str]:
    """The rulepress modules ``source`` (a module of ``package``) imports when it runs, each
    with the packages it loads on the way."""
    tree = ast.parse(source)
    type_only = _type_only(tree)
    named: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            named |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            named |= {base, *(f"{base}.{a.name}" for a in node.names)}
    out: set[str] = set()
    for name in named:
        parts = name.split(".")
        out |= {".".join(parts[:n]) for n in range(1, len(parts) + 1)}
    return {m for m in out if m.startswith("rulepress") and module_file(m) is not None}


def reached(start: str) -> dict[str, str | None]:
    """Every rulepress module ``start`` (and its submodules) loads, with the one it came from."""
    root = module_file(start)
    assert root is not None, start
    found: dict[str, str | None] = {start: None}
    for path in root.parent.glob("*.py") if root.name == "__init__.py" else ():
        if path.stem != "__init__":
            found[f"{start}.{path.stem}"] = start
    todo = list(found)
    while todo:
        name = todo.pop()
        path = module_file(name)
        assert path is not None
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for imported in imports(path.read_text("utf-8"), package):
            if imported not in found:
                found[imported] = name
                todo.append(imported)
    return found


def chains(start: str, forbidden: tuple[str, ...]) -> list[str]:
    found = reached(start)
    out = []
    for name in sorted(found):
        if name.split(".")[1:2] and name.split(".")[1] in forbidden:
            chain = [name]
            while (came := found[chain[-1]]) is not None:
                chain.append(came)
            out.append(" <- ".join(chain))
    return out


def test_validate_imports_none_of_its_callers() -> None:
    assert chains("rulepress.validate", ABOVE_VALIDATE) == []


def test_the_walk_finds_an_import_inside_a_function_and_skips_type_only_ones() -> None:
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
              "    from rulepress.pnp.api import Face\n"
              "def f():\n    from rulepress.render.glyphs import check_glyphs\n"
              "from ..simulate import report\n")
    assert imports(source, "rulepress.validate") == {
        "rulepress", "rulepress.render", "rulepress.render.glyphs", "rulepress.simulate",
        "rulepress.simulate.report"}


def test_the_walk_follows_a_chain_to_a_caller() -> None:
    # rulepress.build runs the books generator: from there, books is reached.
    assert any(c.endswith("<- rulepress.build") for c in chains("rulepress.build", ("books",)))
