"""Reading a layout file: YAML in the game's folder, every key remembering its own file:line,
``extends:`` merging a parent layout element by element (the child's keys win)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulepress.diagnostics import Diagnostic, RulepressError, SourceLoc, error, not_utf8
from rulepress.document import yamlines
from rulepress.document.rows import inside
from rulepress.document.schema import is_layout
from rulepress.jail import PathRefused, read_regular
from rulepress.limits import MAX_LAYOUT_BYTES, MAX_LAYOUT_EXTENDS
from rulepress.suggest import suggest

TOP_KEYS = ("extends", "background", "colours", "elements")


@dataclass(frozen=True)
class Prop:
    value: Any
    loc: SourceLoc


@dataclass
class RawElement:
    name: str
    loc: SourceLoc
    props: dict[str, Prop] = field(default_factory=dict)


@dataclass
class RawLayout:
    loc: SourceLoc  # the file's first line
    background: Prop | None = None
    colours: dict[str, Prop] = field(default_factory=dict)
    elements: dict[str, RawElement] = field(default_factory=dict)




def read_layout(folder: Path, name: str, loc: SourceLoc) -> RawLayout:
    """The layout file ``name`` with everything it extends merged in; RulepressError with every
    problem found, each at its own line."""
    return _read(folder, name, loc, ())


def _read(folder: Path, name: str, loc: SourceLoc, chain: tuple[Path, ...]) -> RawLayout:
    if not is_layout(name):
        raise RulepressError.at(loc, f"'{name}' is not a layout file: give a .yml file")
    target = inside(folder, name)
    if target is None:
        raise RulepressError.at(loc, f"layout '{name}' must be inside the game's folder")
    if not target.is_file():
        raise RulepressError.at(loc, f"layout '{name}' does not exist in {folder.name}/")
    through = " -> ".join(p.name for p in chain)
    if target in chain:
        raise RulepressError.at(loc, f"layout '{name}' extends itself (through {through})")
    if len(chain) >= MAX_LAYOUT_EXTENDS:
        raise RulepressError.at(loc, f"layout '{name}' is more than {MAX_LAYOUT_EXTENDS} "
                                     f"layouts deep (through {through})")
    where = folder / name
    try:
        text = read_regular(target, MAX_LAYOUT_BYTES).decode("utf-8").removeprefix("\ufeff")
        data, lines = yamlines.load(text, first_line=1)
    except PathRefused:
        raise RulepressError.at(SourceLoc(where, 1), "a layout file is at most 1 MB") from None
    except OSError as exc:
        raise RulepressError.at(SourceLoc(where, 1), f"cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise RulepressError.at(*not_utf8(where, exc)) from None
    except yamlines.YamlError as exc:
        raise RulepressError.at(SourceLoc(where, exc.line), exc.message) from None
    if not isinstance(data, dict):
        raise RulepressError.at(SourceLoc(where, 1), "a layout is a mapping with 'elements' "
                                                     "(and optionally extends, background, "
                                                     "colours)")

    def at(*key: str | int) -> SourceLoc:
        return SourceLoc(where, yamlines.closest_line(lines, key) or 1)

    problems: list[Diagnostic] = []
    for k in data:
        if k not in TOP_KEYS:
            problems.append(error(at(str(k)), f"unknown key '{k}' in a layout"
                                              f"{suggest(str(k), list(TOP_KEYS))}; "
                                              f"allowed: {', '.join(TOP_KEYS)}"))
    layout = RawLayout(SourceLoc(where, 1))
    parent = data.get("extends")
    if parent is not None:
        if not isinstance(parent, str):
            problems.append(error(at("extends"), "extends names another layout file"))
        else:
            try:
                layout = _read(folder, parent, at("extends"), (*chain, target))
            except RulepressError as exc:
                problems += exc.diagnostics
    if "background" in data:
        layout.background = Prop(data["background"], at("background"))
    colours = data.get("colours", {})
    if not isinstance(colours, dict):
        problems.append(error(at("colours"), "colours maps a name to a colour, e.g. "
                                             "{navy: '#1f3a5f'}"))
    else:
        layout.colours |= {str(k): Prop(v, at("colours", str(k))) for k, v in colours.items()}
    elements = data.get("elements", {})
    if not isinstance(elements, dict):
        problems.append(error(at("elements"), "elements maps each element's name to its "
                                              "properties, e.g. title: {type: text, ...}"))
        elements = {}
    for ename, props in elements.items():
        key = str(ename)
        if not isinstance(props, dict):
            problems.append(error(at("elements", key), f"element '{key}' must be a mapping of "
                                                       "properties (type, x, y, ...)"))
            continue
        element = layout.elements.get(key)
        if element is None:
            element = layout.elements[key] = RawElement(key, at("elements", key))
        else:  # the child's own line, its merged keys
            element = layout.elements[key] = RawElement(key, at("elements", key),
                                                         dict(element.props))
        for pk, pv in props.items():
            element.props[str(pk)] = Prop(pv, at("elements", key, str(pk)))
    if problems:
        raise RulepressError(problems)
    return layout
