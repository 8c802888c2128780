"""SVG diagrams of an example's track: the squares around the pigeons involved, before and after.

Presentation only; the states come from the example's replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from rulepress.games.base import DIAGRAM_FONT, Figure
from rulepress.games.pigeon_race.examples import Replay
from rulepress.games.pigeon_race.rules import HOME, PIGEONS, START, State, Step
from rulepress.games.pigeon_race.style import (
    FINISH_COLOUR,
    INK,
    LINE,
    PIGEON_STYLES,
    START_COLOUR,
    TRACK,
    TRACK_ALT,
)

CELL = 26  # px per square
LABEL = 46  # lane-number column (and notes for pigeons left of the window)
HEAD = 22  # square numbers above the track
FOOT = 8
MIN_COLUMNS = 9
FONT = f'font-family="{DIAGRAM_FONT}"'


def figures(r: Replay) -> list[Figure]:
    """Before the first move, then after each legal move (with where its pigeons came from)."""
    involved = {s.pigeon for turn in r.steps for s in turn}
    if r.illegal is not None:
        involved |= {p for p in r.illegal.pigeons if p in PIGEONS}
    if not involved or r.states[-1].is_over():
        involved = set(PIGEONS)  # every pigeon's place counts once the race is over
    spots = [st.positions[p - 1] for st in r.states for p in involved]
    lo, hi = _window(min(spots), max(spots))
    first = "Before" if r.moves or r.illegal else "The track"
    out = [Figure(first, _svg(r.states[0], (), lo, hi))]
    for move, state, turn in zip(r.moves, r.states[1:], r.steps, strict=True):
        out.append(Figure(f"After {move} ({move.card.name})", _svg(state, turn, lo, hi)))
    return out


def _window(lo: int, hi: int) -> tuple[int, int]:
    lo, hi = max(START, lo - 1), min(HOME, hi + 1)
    while hi - lo + 1 < MIN_COLUMNS:
        if lo > START:
            lo -= 1
        if hi - lo + 1 < MIN_COLUMNS and hi < HOME:
            hi += 1
    return lo, hi


def _x(column: int, lo: int) -> float:
    return LABEL + (column - lo) * CELL


def _y(pigeon: int) -> float:
    return HEAD + (pigeon - 1) * CELL


def _svg(state: State, turn: Sequence[Step], lo: int, hi: int) -> str:
    width = LABEL + (hi - lo + 1) * CELL + LABEL
    height = HEAD + len(PIGEONS) * CELL + FOOT
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" {FONT} role="img">',
        f"<title>Track, squares {lo} to {hi}</title>",
    ]
    # Squares and their numbers.
    for col in range(lo, hi + 1):
        x = _x(col, lo)
        label = "start" if col == START else "home" if col == HOME else str(col)
        size = 9 if col in (START, HOME) else 11
        parts.append(
            f'<text x="{x + CELL / 2}" y="{HEAD - 7}" font-size="{size}" text-anchor="middle" '
            f'fill="{INK}">{label}</text>'
        )
        for p in PIGEONS:
            fill = "#ffffff" if col in (START, HOME) else TRACK if col % 2 else TRACK_ALT
            parts.append(
                f'<rect x="{x}" y="{_y(p)}" width="{CELL}" height="{CELL}" fill="{fill}" '
                f'stroke="{LINE}" stroke-width="0.6"/>'
            )
    top, bottom = HEAD, HEAD + len(PIGEONS) * CELL
    if lo == START:
        x = _x(START, lo) + CELL
        parts.append(_line(x, top, bottom, START_COLOUR))
    if hi == HOME:
        x = _x(HOME, lo)
        parts.append(_line(x, top, bottom, FINISH_COLOUR, dashed=True))
    # Lane numbers, and pigeons outside the window shown at its edge.
    for p in PIGEONS:
        cy = _y(p) + CELL / 2
        parts.append(
            f'<text x="9" y="{cy + 4}" font-size="12" font-weight="bold" '
            f'text-anchor="middle" fill="{INK}">{p}</text>'
        )
        pos = state.positions[p - 1]
        if pos < lo:
            parts.append(_edge_note(_x(lo, lo) - 3, cy, f"\u25c2{_label(pos)}", "end"))
        elif pos > hi:
            parts.append(_edge_note(_x(hi, lo) + CELL + 3, cy, f"{_label(pos)}\u25b8", "start"))
    # Where this turn's pigeons came from, and arrows to where they went.
    moved_from: dict[int, int] = {}
    for s in turn:
        moved_from.setdefault(s.pigeon, s.start)
    for p, start in moved_from.items():
        end = state.positions[p - 1]
        if start == end or not (lo <= start <= hi):
            continue
        cy = _y(p) + CELL / 2
        x0 = _x(start, lo) + CELL / 2
        parts.append(
            f'<circle cx="{x0}" cy="{cy}" r="{CELL * 0.33}" fill="none" stroke="{INK}" '
            'stroke-width="1" stroke-dasharray="2.5 2"/>'
        )
        if lo <= end <= hi:
            x1 = _x(end, lo) + CELL / 2
            direction = 1 if end > start else -1
            a, b = x0 + direction * CELL * 0.36, x1 - direction * (CELL * 0.36 + 7)
            parts.append(
                f'<line x1="{a}" y1="{cy}" x2="{b}" y2="{cy}" stroke="{INK}" stroke-width="1.4"/>'
                f'<path d="M{b},{cy - 4} L{b + direction * 6},{cy} L{b},{cy + 4} Z" '
                f'fill="{INK}"/>'
            )
    # The pigeons.
    places = {p: i + 1 for i, p in enumerate(state.finished)}
    for p in PIGEONS:
        pos = state.positions[p - 1]
        if lo <= pos <= hi:
            parts.append(_pigeon(_x(pos, lo) + CELL / 2, _y(p) + CELL / 2, p, places.get(p)))
    parts.append("</svg>")
    return "".join(parts)


def _label(pos: int) -> str:
    # Words for the two ends, which a new reader would not know as 0 and 31.
    return "home" if pos == HOME else "start" if pos == START else str(pos)


def _line(x: float, top: float, bottom: float, colour: str, dashed: bool = False) -> str:
    dash = ' stroke-dasharray="5 3"' if dashed else ""
    return (
        f'<line x1="{x}" y1="{top - 3}" x2="{x}" y2="{bottom + 3}" stroke="{colour}" '
        f'stroke-width="3"{dash}/>'
    )


def _edge_note(x: float, y: float, text: str, anchor: str) -> str:
    return (
        f'<text x="{x}" y="{y + 4}" font-size="10" text-anchor="{anchor}" fill="{INK}">'
        f"{escape(text)}</text>"
    )


def _pigeon(cx: float, cy: float, p: int, place: int | None) -> str:
    style = PIGEON_STYLES[p]
    r = CELL * 0.36
    out = (
        f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{style.fill}" stroke="{INK}" '
        f'stroke-width="1.2"/>'
        f'<text x="{cx}" y="{cy + 4.5}" font-size="13" font-weight="bold" text-anchor="middle" '
        f'fill="{style.ink}">{p}</text>'
    )
    if place is not None:  # finishing place, in the margin right of the home column
        out += (
            f'<text x="{cx + CELL / 2 + 4}" y="{cy + 4}" font-size="10" fill="{FINISH_COLOUR}" '
            f'font-weight="bold">{_ordinal(place)}</text>'
        )
    return out


def _ordinal(n: int) -> str:
    return str(n) + {1: "st", 2: "nd", 3: "rd"}.get(n, "th")
