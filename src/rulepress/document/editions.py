"""Two books from one source: the player edition teaches, the reference edition keeps everything.

What is not marked belongs to both. The source marks what belongs to one edition only:

- a section: ``## Clarifications {.reference}`` (the heading and everything under it, up to the
  next heading of the same or a higher level, in whichever file that comes);
- a block: a ``::: reference`` line, the blocks, a ``:::`` line (inside a list item too);
- an example: ``edition: reference`` among its keys.

``player`` marks the other way. A heading may also ask for a fresh page, ``{.new-page}``
(``## Quick reference {.player .new-page}``). Anything else in a marker is an error at its line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rulepress.diagnostics import SourceLoc

PLAYER, REFERENCE = "player", "reference"
EDITIONS = (PLAYER, REFERENCE)
EDITION_NAMES = {PLAYER: "Rulebook", REFERENCE: "Reference edition"}  # as a reader calls them
NEW_PAGE = "new-page"  # a heading class: its section starts on a fresh page in print
CONTAINER = "block"  # the markdown-it container plugin's name: container_block_open tokens
BOX = "box"  # ``::: box`` ... ``:::`` sets blocks apart in a framed box, in both editions
_HEADING_MARK = re.compile(r"\s*\{((?:\s*\.[^{}\s]*)+)\s*\}\s*$")


def heading_marker(text: str) -> tuple[str, tuple[str, ...]]:
    """'Quick reference {.player .new-page}' -> ('Quick reference', ('player', 'new-page'))."""
    m = _HEADING_MARK.search(text)
    if not m:
        return text, ()
    return text[: m.start()], tuple(c.lstrip(".") for c in m[1].split())


def heading_problem(classes: Sequence[str]) -> str | None:
    """What is wrong with a heading's classes, or None."""
    unknown = [c for c in classes if c not in (*EDITIONS, NEW_PAGE)]
    if unknown:
        return f"'{unknown[0]}' names no edition; mark {' or '.join(EDITIONS)} (or {NEW_PAGE})"
    if len([c for c in classes if c in EDITIONS]) > 1:
        return "a heading belongs to one edition, or to both when unmarked"
    return None


def marker_problem(name: str) -> str | None:
    if name in EDITIONS:
        return None
    return f"'{name}' names no edition; mark {' or '.join(EDITIONS)}"


@dataclass(frozen=True)
class Span:
    """Lines ``first``..``last`` of ``path`` belong to ``edition`` only."""

    path: Path
    first: int
    last: int
    edition: str

    def covers(self, loc: SourceLoc) -> bool:
        # The lines first: comparing paths costs ten times more, on every node of a rebuild.
        return self.first <= loc.line <= self.last and loc.path == self.path


def keeps(spans: Iterable[Span], edition: str, loc: SourceLoc) -> bool:
    """Whether the line at ``loc`` is in ``edition``."""
    return not any(s.edition != edition and s.covers(loc) for s in spans)


@dataclass(frozen=True)
class Mark:
    """A marked heading or block, as the reader found it."""

    loc: SourceLoc
    edition: str
    level: int  # heading level; 0 for a block
    last: int  # a block's last line (a section's end is found later)


def section_spans(
    marks: Sequence[Mark], headings: Sequence[tuple[SourceLoc, int]],
    part_ends: Sequence[tuple[Path, int]],
) -> list[Span]:
    """Spans of marked blocks and sections. ``headings``: every heading's (loc, level) in reading
    order; ``part_ends``: each file of the body and its last line, in reading order."""
    order = {path: n for n, (path, _) in enumerate(part_ends)}
    spans: list[Span] = []
    for mark in marks:
        if mark.level == 0:
            spans.append(Span(mark.loc.path, mark.loc.line, mark.last, mark.edition))
            continue
        start = (order[mark.loc.path], mark.loc.line)
        after = [h for h, level in headings if level <= mark.level
                 and (order[h.path], h.line) > start]
        end = (order[after[0].path], after[0].line) if after else (len(part_ends), 0)
        for n in range(start[0], min(end[0], len(part_ends) - 1) + 1):
            path, last = part_ends[n]
            first = mark.loc.line if n == start[0] else 1
            stop = end[1] - 1 if n == end[0] else last
            if stop >= first:
                spans.append(Span(path, first, stop, mark.edition))
    return spans
