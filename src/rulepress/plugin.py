"""Everything a game plug-in may import: a game's modules import this and nothing else of
rulepress (a test walks the bundled games' imports), so rulepress may change its insides
without breaking a game.

- The game, declared as data: :class:`Engine` (``Engine(name=..., rules=..., replay=...,
  facts=..., figures=..., agents=...)``), and the parts it is made of (:class:`Figure`,
  :class:`Question`, the ``Agent`` and ``Drawer`` types).
- The rules protocol (:class:`GameState`, :class:`Rules`, :class:`Outcome`, :class:`Variant`,
  :data:`CHANCE`, hidden information) and its one family of errors (:class:`RulesError`:
  :class:`NotationError`, :class:`IllegalMove`, :class:`AmbiguousMove`), and :func:`derive`.
- Reading an example's data: :class:`ExampleDataError` (naming the key at fault), the readers
  :func:`mapping` and :func:`listed`; and :func:`facts_of` / :func:`figures_of`, an example
  replayed as ``rulepress check`` replays it, for a game's own tests; :func:`game_data`, the
  rows of a component's data as rulepress read them (``Engine.data`` for a declared engine).
- The SVG figure kit: :data:`DIAGRAM_FONT`, :func:`text_width`, :class:`Lettering`,
  :class:`Marks`, with the bundled font's widths read from its TTF.
- Print-and-play drawing: :class:`Face`, :func:`fonts` (the bundled faces, registered),
  :func:`fonts_dir`, :func:`saved`, :func:`colour`, :func:`tint`, :func:`shade`,
  :func:`fill_bleed`, :func:`fit_text`, :data:`POINTS_PER_MM`; and :func:`ordinal`.
- The standard 52-card deck's notation, shared by the card games (:data:`SUITS`,
  :func:`parse_card` ...).

The drawing helpers load ReportLab, so they are imported on first use: a game that only plays
does not pay for them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulepress.figure import DIAGRAM_FONT, Lettering, Marks, advances, text_width
from rulepress.games.base import (
    CHANCE,
    IMPERFECT,
    IMPERFECT_INFORMATION,
    PERFECT,
    PERFECT_INFORMATION,
    PHONE_PX,
    Agent,
    AmbiguousMove,
    Answer,
    Drawer,
    Engine,
    ExampleDataError,
    Figure,
    GameState,
    GameType,
    Handicap,
    History,
    IllegalMove,
    Move,
    NotationError,
    Outcome,
    Progress,
    Question,
    Refused,
    Rules,
    RulesError,
    Variant,
    chance_move,
    derive,
    in_strips,
    play_out,
    random_agent,
)
from rulepress.games.cards import (
    CARD_NAME,
    FACE_WORDS,
    FACES,
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
from rulepress.games.contract import facts_of, figures_of
from rulepress.games.data import game_data
from rulepress.paths import fonts_dir
from rulepress.units import POINTS_PER_MM
from rulepress.words import ordinal

if TYPE_CHECKING:
    from rulepress.pnp.api import Face
    from rulepress.pnp.draw import colour, fill_bleed, fit_text, fonts, saved, shade, tint

Path = tuple[str | int, ...]  # where a value sits in an example's data: ("setup", "hands", 1)

_DRAWING = {"colour", "fill_bleed", "fit_text", "fonts", "saved", "shade", "tint"}


def __getattr__(name: str) -> Any:
    """The drawing helpers, imported when a drawer first asks for them (they load ReportLab)."""
    if name in _DRAWING:
        from rulepress.pnp import draw

        return getattr(draw, name)
    if name == "Face":
        from rulepress.pnp.api import Face

        return Face
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
    "CARD_NAME", "CHANCE", "DIAGRAM_FONT", "FACES", "FACE_WORDS", "IMPERFECT",
    "IMPERFECT_INFORMATION",
    "PERFECT", "PERFECT_INFORMATION", "PHONE_PX", "POINTS_PER_MM", "RED_SUITS", "SUITS",
    "SUIT_NAMES", "Agent", "AmbiguousMove", "Answer", "Drawer", "Engine", "ExampleDataError",
    "Face", "Figure", "Handicap",
    "GameState", "GameType", "History", "IllegalMove", "Lettering", "Marks", "Move",
    "NotationError", "Outcome", "Path", "Progress", "Question", "Refused", "Rules", "RulesError",
    "Variant", "advances",
    "card_name", "card_text", "chance_move", "colour", "derive", "face", "facts_of", "figures_of",
    "fill_bleed", "fit_text", "fonts", "fonts_dir", "game_data", "in_strips", "is_red", "listed",
    "mapping", "misplaced", "notation_table", "ordinal", "parse_card", "play_out", "random_agent",
    "saved", "shade", "text_width", "tint",
]
