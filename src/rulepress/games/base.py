"""The contract between the compiler and a game's rules engine.

A game package ``rulepress.games.<name>`` exposes ``ENGINE``, an object following
:class:`GameEngine`. The compiler never looks further inside.

How an example is proven: the compiler hands ``evaluate`` the example's data (the YAML of an
```` ```example ```` block: ``setup``, ``moves`` and any other game-specific keys, but not
``claims`` or ``text``). The engine replays it and returns *facts*: a mapping of everything it
computed. The compiler then compares every claim of the example with the fact of the same name
(nested mappings are compared key by key, so an example may claim part of a mapping). A claim the
engine computes no fact for is an error, never silently passed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from rulepress.pnp.api import Face


class ExampleDataError(Exception):
    """The example's data cannot be set up: bad notation, an impossible situation.

    ``path`` names the offending key inside the example, e.g. ``("moves", 2)``, so the
    diagnostic can point at its line.
    """

    def __init__(self, message: str, path: Sequence[str | int] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.path = tuple(path)


# The font stack diagrams name: the bundled Carlito, then the bundled symbol fallback, so a PDF
# never borrows a glyph from whatever fonts the machine has.
DIAGRAM_FONT = "Carlito, RPSymbols, sans-serif"


@dataclass(frozen=True)
class Figure:
    """A diagram of an example: a caption and a self-contained SVG document (no external refs)."""

    caption: str
    svg: str


Drawer = Callable[["Canvas", "Face"], None]


class GameEngine(Protocol):
    name: str

    def evaluate(self, example: Mapping[str, Any]) -> Mapping[str, Any]:
        """Replay an example and return the facts computed. Raise ExampleDataError on bad data."""
        ...

    def diagrams(self, example: Mapping[str, Any]) -> Sequence[Figure]:
        """Figures drawn from the example's own states (may be empty)."""
        ...

    def component_counts(self) -> Mapping[str, int]:
        """Counts the engine itself relies on, by component id (e.g. {"deck": 52})."""
        ...

    def drawers(self) -> Mapping[str, Drawer]:
        """Print-and-play drawers by name, as the source's components name them."""
        ...
