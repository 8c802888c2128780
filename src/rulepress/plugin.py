"""Everything a game plug-in may import: a game's modules import this and nothing else of
rulepress (a test walks the bundled games' imports), so rulepress may change its insides
without breaking a game. :data:`API_VERSION` names what is offered here: a name removed or
changed raises its first number, a name added its second.

- The game, declared as data: :class:`Engine` (``Engine(name=..., rules=..., replay=...,
  facts=..., figures=..., agents=...)``), and the parts it is made of (:class:`Figure`,
  :class:`Question` and its ``History``, the ``Agent`` and ``Drawer`` types).
- The rules protocol (:class:`GameState`, :class:`Rules`, :class:`Outcome`, :class:`Variant`,
  :data:`CHANCE`, :func:`derive`, ``PERFECT_INFORMATION`` / ``IMPERFECT_INFORMATION``) and its
  one family of errors (:class:`RulesError`: :class:`NotationError`, :class:`IllegalMove`,
  :class:`AmbiguousMove`).
- The optional hooks, each a Protocol: hidden information (:class:`HiddenState`'s
  ``view(seat)``, :class:`HiddenRules`' ``sample(view, rng)``), a handicap
  (:class:`HandicapRules`, :class:`Handicap`), running scores (:class:`ScoredState`'s
  ``standing()``), and an agent's help to a search (:class:`RankingAgent`'s ``value``,
  :class:`JudgingAgent`'s ``evaluate`` and ``horizon``).
- The conformance check for a game's own tests: :func:`check_engine` (random games through the
  protocol; :class:`ConformanceError` names what broke and the game that shows it); and
  :func:`facts_of` / :func:`figures_of`, an example replayed as ``rulepress check`` does.
- Reading an example's data: :class:`ExampleDataError` (naming the key at fault), the readers
  :func:`mapping` and :func:`listed`; :func:`game_data`, the rows of a component's data as
  rulepress read them (``Engine.data`` for a declared engine).
- The SVG figure kit: :data:`DIAGRAM_FONT`, :func:`text_width`, :class:`Lettering`,
  :class:`Marks`, :data:`PHONE_PX` and :func:`in_strips` for a phone's screen.
- Print-and-play drawing: :class:`Face`, :func:`fonts` (the bundled faces, registered),
  :func:`saved`, :func:`colour`, :func:`tint`, :func:`shade`, :func:`fill_bleed`,
  :func:`fit_text`, :data:`POINTS_PER_MM`; and :func:`ordinal`.
- The standard 52-card deck's notation, shared by the card games (:data:`SUITS`,
  :func:`parse_card` ...).

The drawing helpers load ReportLab, so they are imported on first use: a game that only plays
does not pay for them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulepress.figure import DIAGRAM_FONT, Lettering, Marks, text_width
from rulepress.games.base import (
    CHANCE,
    IMPERFECT_INFORMATION,
    PERFECT_INFORMATION,
    PHONE_PX,
    Agent,
    AmbiguousMove,
    Drawer,
    Engine,
    ExampleDataError,
    Figure,
    GameState,
    Handicap,
    HandicapRules,
    HiddenRules,
    HiddenState,
    History,
    IllegalMove,
    JudgingAgent,
    NotationError,
    Outcome,
    Question,
    RankingAgent,
    Rules,
    RulesError,
    ScoredState,
    Variant,
    derive,
    in_strips,
)
from rulepress.games.cards import (
    CARD_NAME,
    FACE_WORDS,
    RED_SUITS,
    SUIT_NAMES,
    SUITS,
    card_name,
    card_text,
    face,
    is_red,
    misplaced,
    notation_table,
    parse_card,
)
from rulepress.games.conformance import ConformanceError, check_engine
from rulepress.games.contract import facts_of, figures_of
from rulepress.games.data import game_data
from rulepress.pnp.api import Face
from rulepress.units import POINTS_PER_MM
from rulepress.words import ordinal

if TYPE_CHECKING:
    from rulepress.pnp.draw import colour, fill_bleed, fit_text, fonts, saved, shade, tint

API_VERSION = "1.0"  # of what this module offers: see the module's doc

Path = tuple[str | int, ...]  # where a value sits in an example's data: ("setup", "hands", 1)

_DRAWING = {"colour", "fill_bleed", "fit_text", "fonts", "saved", "shade", "tint"}


def __getattr__(name: str) -> Any:
    """The drawing helpers, imported when a drawer first asks for them (they load ReportLab)."""
    if name in _DRAWING:
        from rulepress.pnp import draw  # ReportLab: only a drawer needs it

        return getattr(draw, name)
    raise AttributeError(f"module 'rulepress.plugin' has no attribute '{name}'")


def mapping(value: Any, path: Path, *, optional: bool = False) -> Mapping[Any, Any]:
    """``value`` as a mapping (an absent ``optional`` one as empty), else ExampleDataError at
    ``path``."""
    if value is None and optional:
        return {}
    if not isinstance(value, Mapping):
        raise ExampleDataError("expected a mapping", path)
    return value


def listed(value: Any, path: Path) -> Sequence[Any]:
    """``value`` as a list, else ExampleDataError at ``path``."""
    if not isinstance(value, list | tuple):
        raise ExampleDataError("expected a list", path)
    return value


__all__ = [
    # the API
    "API_VERSION", "ConformanceError", "check_engine", "facts_of", "figures_of",
    # the game and its parts
    "Agent", "Drawer", "Engine", "Figure", "History", "Question",
    # the rules protocol and its errors
    "CHANCE", "IMPERFECT_INFORMATION", "PERFECT_INFORMATION", "AmbiguousMove", "GameState",
    "IllegalMove", "NotationError", "Outcome", "Rules", "RulesError", "Variant", "derive",
    # optional hooks
    "Handicap", "HandicapRules", "HiddenRules", "HiddenState", "JudgingAgent", "RankingAgent",
    "ScoredState",
    # an example's data
    "ExampleDataError", "game_data", "listed", "mapping",
    # the SVG figure kit
    "DIAGRAM_FONT", "PHONE_PX", "Lettering", "Marks", "in_strips", "text_width",
    # print-and-play drawing
    "POINTS_PER_MM", "Face", "colour", "fill_bleed", "fit_text", "fonts", "ordinal", "saved",
    "shade", "tint",
    # the standard deck's notation
    "CARD_NAME", "FACE_WORDS", "RED_SUITS", "SUITS", "SUIT_NAMES", "card_name", "card_text",
    "face", "is_red", "misplaced", "notation_table", "parse_card",
]
