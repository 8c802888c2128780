"""The named parts of the check that the generators contribute, so that validate imports none
of them: each hook has a name, and the check runs each once however many generators name it.

A generator lists the names of the hooks it needs (``Generator.checks``); the registry below
says where each is defined (``module:attribute``), loaded on first use, as a plug-in is found by
name. Three kinds: a :class:`DocumentHook` checks a whole game after its examples; a
:class:`KitHook` draws and measures a game's kit in the engine's worker; a :class:`ReportHook`
plays a playtest report's first games there, then checks the report here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from rulepress.diagnostics import Diagnostic
from rulepress.document.model import Document, Example
from rulepress.document.numbers import Tables
from rulepress.games.base import Drawer
from rulepress.validate.results import RenderedExample

if TYPE_CHECKING:
    from rulepress.write import Kept


class ReportCheck(Protocol):
    def __call__(self, doc: Document, block: Example, project: Path | None, *, draw: bool,
                 kept: Kept | None, sampled: Any) -> tuple[list[Diagnostic], RenderedExample]:
        ...


@dataclass(frozen=True)
class DocumentHook:
    """A check of the whole game, given its examples as checked (references, glyphs ...)."""

    name: str
    check: Callable[[Document, Mapping[str, RenderedExample]], list[Diagnostic]]


@dataclass(frozen=True)
class KitHook:
    """A game's kit drawn and measured with its engine's drawers and tables, in the worker."""

    name: str
    measure: Callable[[Document, Mapping[str, Drawer], Tables | None], list[Diagnostic]]


@dataclass(frozen=True)
class ReportHook:
    """A playtest report: ``sample`` plays its first games in the worker (an exception it
    returns is its answer, a value it returns is kept by memo.py); ``check`` checks the report
    here from that answer."""

    name: str
    sample: Callable[[Document, Example, Path | None], Any]
    check: ReportCheck


Hook = DocumentHook | KitHook | ReportHook

# Every hook by name, where it is defined: the bundled generators' and those a check always has.
REGISTRY: dict[str, str] = {
    "references": "rulepress.book_hooks:REFERENCES",
    "glyphs": "rulepress.book_hooks:GLYPHS",
    "glossary": "rulepress.book_hooks:GLOSSARY",
    "teaching": "rulepress.book_hooks:TEACHING",
    "hyphenation": "rulepress.book_hooks:HYPHENATION",
    "playtest": "rulepress.simulate.checks:PLAYTEST",
    "kit": "rulepress.pnp.measure:KIT",
}
EVERY: tuple[str, ...] = tuple(REGISTRY)  # what a command that checks a game whole runs

_loaded: dict[str, Hook] = {}


def hook(name: str) -> Hook:
    """The hook registered as ``name`` (a name not registered is rulepress's own bug)."""
    if name not in _loaded:
        module, _, attribute = REGISTRY[name].partition(":")
        found = getattr(importlib.import_module(module), attribute)
        if not isinstance(found, DocumentHook | KitHook | ReportHook) or found.name != name:
            raise TypeError(f"{REGISTRY[name]} is not the check hook '{name}'")
        _loaded[name] = found
    return _loaded[name]


@dataclass(frozen=True)
class Hooks:
    """The hooks of one check, each once, in the order first named."""

    names: tuple[str, ...] = ()

    @classmethod
    def named(cls, *parts: Iterable[str]) -> Hooks:
        return cls(tuple(dict.fromkeys(name for part in parts for name in part)))

    def documents(self) -> list[DocumentHook]:
        return [h for h in map(hook, self.names) if isinstance(h, DocumentHook)]

    def kits(self) -> list[KitHook]:
        return [h for h in map(hook, self.names) if isinstance(h, KitHook)]

    def report(self) -> ReportHook | None:
        """The one hook that checks playtest reports (two would each claim the block)."""
        found = [h for h in map(hook, self.names) if isinstance(h, ReportHook)]
        if len(found) > 1:
            raise TypeError(f"two check hooks check playtest reports: "
                            f"{', '.join(h.name for h in found)}")
        return found[0] if found else None


NONE = Hooks()  # the shared check alone: examples, components, numbers
ALL = Hooks(EVERY)
