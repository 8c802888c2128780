"""SVG diagrams of an example: the whole board as the kit prints it, once per play.

One convention for every example, matching the printed board (pnp.board): lane numbers, the
start boxes, squares 1 to 30 with a heavier line every fifth, the chequered finish line and the
home column whose boxes are finishing places (1st at the top), not lanes. A pigeon on the start
line stands in its start box; a pigeon that is home stands in the box of its place. After a play,
a dashed ring marks where each moved pigeon stood and an arrow shows its move: thick for a named
pigeon, thin for a pushed one.

Cheap to render: repeated structure is one path, and each row of labels one text element with a
position per character (WeasyPrint draws every node, and every anchored text, on its own).
Presentation only; the states come from the example's replay.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from rulepress.games.pigeon_race.examples import Replay
from rulepress.games.pigeon_race.rules import HOME, PIGEONS, SQUARES, START, Move, State, Step
from rulepress.games.pigeon_race.style import (
    FINISH_COLOUR,
    INK,
    LINE,
    PIGEON_STYLES,
    START_COLOUR,
    TRACK,
    TRACK_ALT,
)
from rulepress.plugin import DIAGRAM_FONT, Figure, Lettering, in_strips, ordinal

CELL = 20  # px per square
LANE_W = 16  # lane numbers
START_LABEL, HOME_LABEL = "START", "HOME"  # above the start boxes and the home column
# A board's title, for readers who cannot see it (listed in Engine.words for translators).
BOARD, END_BOARD = "The board", "The board at the end of the race"
AFTER = "After the {card} on {pigeons}"
ONE_PIGEON, TWO_PIGEONS = "pigeon {pigeon}", "pigeons {first} and {second}"
WHERE = "pigeon {pigeon} {where}"
AT_HOME, AT_START, ON_SQUARE = "home in {place} place", "on the start line", "on square {square}"
TITLE_WORDS = (BOARD, END_BOARD, AFTER, ONE_PIGEON, TWO_PIGEONS, WHERE, AT_HOME, AT_START,
               ON_SQUARE)
START_W = 34  # the start boxes
FINISH_W = 6  # the chequered finish line
HOME_W = 54  # the home column: a gutter for arrows turning to their place, pigeon, place
CHUTE = 3  # px between the turns of two pigeons crossing the line in one play
HEAD = 17  # square numbers, START and HOME above the board
TRACK_X = LANE_W + START_W  # left edge of square 1: the start line
FINISH_X = TRACK_X + SQUARES * CELL
HOME_X = FINISH_X + FINISH_W
WIDTH = HOME_X + HOME_W + 2
HEIGHT = HEAD + len(PIGEONS) * CELL + 3
BOTTOM = HEAD + len(PIGEONS) * CELL

LABEL_SIZE = 11  # the smallest text: square numbers, START, HOME, places
NUMBER_SIZE = 12  # pigeon numbers
RADIUS = CELL * 0.38
HEAD_LENGTH = 5  # of an arrow
HOME_DISC_X = HOME_X + 27
FONT = f'font-family="{DIAGRAM_FONT}"'


def figures(r: Replay) -> list[Figure]:
    """One board per legal play, showing it; or the board as set up when nothing is played.
    No caption: the example's prose, just above, says what the board shows."""
    if not r.moves:
        state = r.states[0]
        title = END_BOARD if state.is_over() else BOARD
        return [_figure(board(state, (), title))]
    return [
        _figure(board(state, turn, AFTER.format(card=move.card.name,
                                                pigeons=_pigeon_words(move.pigeons)), move))
        for move, state, turn in zip(r.moves, r.states[1:], r.steps, strict=True)
    ]


def _figure(svg: str) -> Figure:
    """The board, and for a phone the board in three strips of ten squares, one under another,
    each with the lane numbers (at 712 px the whole board's labels would shrink to 5 px)."""
    lanes = (0.0, float(LANE_W))
    cuts = [TRACK_X + 10 * CELL, TRACK_X + 20 * CELL]
    strips = [[(0.0, float(cuts[0]))], [lanes, (cuts[0], cuts[1])], [lanes, (cuts[1], WIDTH)]]
    return Figure("", svg, in_strips(svg, HEIGHT, strips))


def board(state: State, turn: Sequence[Step], title: str, move: Move | None = None) -> str:
    """The whole board with the pigeons where ``state`` has them; ``turn``'s moves as arrows.
    ``title`` (with where every pigeon stands) is its text for readers who cannot see it."""
    return "".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" {FONT} role="img">',
        f"<title>{escape(title)}. {_where_all(state)}</title>",
        *_printed_board(),
        *_moves(state, turn, move),
        *_pigeons(state),
        "</svg>",
    ])


# --- the printed board ---------------------------------------------------------------------


def _lane_y(p: int) -> float:
    """Top of lane p (lane 1 at the top, as on the kit's board)."""
    return HEAD + (p - 1) * CELL


def _printed_board() -> list[str]:
    top, h = HEAD, len(PIGEONS) * CELL
    alt = "".join(
        f"M{TRACK_X + (sq - 1) * CELL},{top}h{CELL}v{h}h-{CELL}z"
        for sq in range(2, SQUARES + 1, 2)
    )
    rows = "".join(
        f"M{LANE_W},{_lane_y(p)}H{HOME_X + HOME_W}" for p in range(1, len(PIGEONS) + 2)
    )
    cols = "".join(
        f"M{x},{top}V{BOTTOM}"
        for x in (LANE_W, HOME_X + HOME_W, *(TRACK_X + sq * CELL for sq in range(1, SQUARES)))
    )
    fives = "".join(f"M{TRACK_X + sq * CELL},{top}V{BOTTOM}" for sq in range(5, SQUARES, 5))
    out = [
        f'<rect x="{TRACK_X}" y="{top}" width="{SQUARES * CELL}" height="{h}" fill="{TRACK}"/>',
        f'<path d="{alt}" fill="{TRACK_ALT}"/>',
        f'<rect x="{HOME_X}" y="{top}" width="{HOME_W}" height="{h}" fill="#ffffff"/>',
    ]
    # The start boxes, each tinted in its pigeon's colour.
    out += [
        f'<rect x="{LANE_W}" y="{_lane_y(p)}" width="{START_W}" height="{CELL}" '
        f'fill="{PIGEON_STYLES[p].fill}" fill-opacity="0.22"/>'
        for p in PIGEONS
    ]
    out += [
        f'<path d="{rows}{cols}" fill="none" stroke="{LINE}" stroke-width="0.7"/>',
        f'<path d="{fives}" fill="none" stroke="{LINE}" stroke-width="1.8"/>',
        f'<path d="M{TRACK_X},{top - 2}V{BOTTOM + 2}" stroke="{START_COLOUR}" stroke-width="3"/>',
        *_finish_line(),
        # Square numbers, START and HOME above the board; lane numbers at its left.
        _text(
            [(TRACK_X + (sq - 0.5) * CELL, HEAD - 5, str(sq)) for sq in range(1, SQUARES + 1)],
            LABEL_SIZE, INK,
        ),
        f'<text x="{LANE_W + 2}" y="{HEAD - 5}" font-size="{LABEL_SIZE}" font-weight="bold" '
        f'fill="{START_COLOUR}">{START_LABEL}</text>',
        f'<text x="{HOME_X + 11}" y="{HEAD - 5}" font-size="{LABEL_SIZE}" font-weight="bold" '
        f'fill="{FINISH_COLOUR}">{HOME_LABEL}</text>',
        _text([(LANE_W / 2, _lane_y(p) + CELL / 2, str(p)) for p in PIGEONS],
              NUMBER_SIZE, INK, bold=True),
    ]
    # The home boxes are places, not lanes: 1st at the top.
    out += [
        f'<text x="{HOME_X + 36}" y="{_baseline(_lane_y(n) + CELL / 2, LABEL_SIZE)}" '
        f'font-size="{LABEL_SIZE}" '
        f'font-weight="bold" fill="{FINISH_COLOUR}">{ordinal(n)}</text>'
        for n in PIGEONS
    ]
    return out


def _finish_line() -> list[str]:
    """A chequered band: two dashed strokes, offset by one square of the chequer."""
    half, top = FINISH_W / 2, HEAD
    return [
        f'<rect x="{FINISH_X}" y="{top}" width="{FINISH_W}" height="{BOTTOM - top}" '
        f'fill="#ffffff" stroke="{INK}" stroke-width="0.5"/>',
        f'<path d="M{FINISH_X + half / 2},{top}V{BOTTOM}" stroke="{INK}" stroke-width="{half}" '
        f'stroke-dasharray="{half} {half}"/>',
        f'<path d="M{FINISH_X + 1.5 * half},{top + half}V{BOTTOM}" stroke="{INK}" '
        f'stroke-width="{half}" stroke-dasharray="{half} {half}"/>',
    ]


# --- the pigeons and their moves -----------------------------------------------------------


def _spot(state: State, p: int, position: int) -> tuple[float, float]:
    """Centre of where pigeon p stands at ``position``: its start box, a square, or the home
    box of its finishing place."""
    if position == HOME:
        return HOME_DISC_X, _lane_y(state.finished.index(p) + 1) + CELL / 2
    cy = _lane_y(p) + CELL / 2
    if position == START:
        return LANE_W + START_W / 2, cy
    return TRACK_X + (position - 0.5) * CELL, cy


def _moves(state: State, turn: Sequence[Step], move: Move | None) -> list[str]:
    """Dashed rings where the moved pigeons stood, and arrows along their lanes to where they
    went; a pigeon that crossed the line turns, past it, to the home box of its place."""
    start: dict[int, int] = {}
    for s in turn:
        start.setdefault(s.pigeon, s.start)
    named = set(move.pigeons) if move else set()
    crossed = [p for p in state.finished if p in start]
    rings, heads, lines = "", "", {True: "", False: ""}
    for p, was in start.items():
        now = state.positions[p - 1]
        if was == now:
            continue
        x0, y0 = _spot(state, p, was)
        x1, y1 = _spot(state, p, now)
        rings += (f"M{x0 - RADIUS},{y0}a{RADIUS},{RADIUS} 0 1 0 {2 * RADIUS},0"
                  f"a{RADIUS},{RADIUS} 0 1 0 {-2 * RADIUS},0")
        sign = 1 if x1 > x0 else -1
        a, tip = x0 + sign * RADIUS, x1 - sign * RADIUS
        if y1 == y0 and sign * (tip - a) < 6:
            continue  # a step of one square: the ring beside the pigeon says it all
        base = tip - sign * HEAD_LENGTH
        bend = ""
        if y1 != y0:  # into the home column, then up or down to its place
            chute = HOME_X + 4 + CHUTE * crossed.index(p)
            bend = f"H{chute}V{y1}"
        lines[p in named] += f"M{a},{y0}{bend}H{base}"
        heads += f"M{base},{y1 - 3.5}L{tip},{y1}L{base},{y1 + 3.5}z"
    out = []
    if rings:
        out.append(f'<path d="{rings}" fill="none" stroke="{INK}" stroke-width="1" '
                   'stroke-dasharray="2.5 2"/>')
    for is_named, d in lines.items():
        if d:
            width = 2.2 if is_named else 1.2
            out.append(f'<path d="{d}" fill="none" stroke="{INK}" stroke-width="{width}"/>')
    if heads:
        out.append(f'<path d="{heads}" fill="{INK}"/>')
    return out


def _pigeons(state: State) -> list[str]:
    spots = {p: _spot(state, p, state.positions[p - 1]) for p in PIGEONS}
    out = [
        f'<circle cx="{x}" cy="{y}" r="{RADIUS}" fill="{PIGEON_STYLES[p].fill}" '
        f'stroke="{INK}" stroke-width="1.1"/>'
        for p, (x, y) in spots.items()
    ]
    for ink in sorted({s.ink for s in PIGEON_STYLES.values()}):
        out.append(_text([(x, y, str(p)) for p, (x, y) in spots.items()
                          if PIGEON_STYLES[p].ink == ink], NUMBER_SIZE, ink, bold=True))
    return out


def _text(labels: Iterable[tuple[float, float, str]], size: float, fill: str,
          bold: bool = False) -> str:
    """Numbers centred on their points, all in one text element: one x and y per digit."""
    lettering = Lettering(size, bold, places=2)
    for cx, cy, digits in labels:
        lettering.add(cx, _baseline(cy, size), digits, centre=True)
    weight = ' font-weight="bold"' if bold else ""
    return lettering.svg(f'font-size="{size}"{weight} fill="{fill}"')


def _baseline(cy: float, size: float) -> float:
    """The baseline that centres digits (about 0.68 em tall) on ``cy``."""
    return cy + 0.34 * size


# --- words ---------------------------------------------------------------------------------


def _where_all(state: State) -> str:
    """The board in words, for readers who cannot see it."""
    places = {p: i + 1 for i, p in enumerate(state.finished)}
    parts = []
    for p in PIGEONS:
        pos = state.positions[p - 1]
        where = (AT_HOME.format(place=ordinal(places[p])) if pos == HOME
                 else AT_START if pos == START else ON_SQUARE.format(square=pos))
        parts.append(WHERE.format(pigeon=p, where=where))
    return "; ".join(parts).capitalize() + "."


def _pigeon_words(pigeons: Sequence[int]) -> str:
    if len(pigeons) == 1:
        return ONE_PIGEON.format(pigeon=pigeons[0])
    first, second = pigeons  # a trump moves one pigeon or two
    return TWO_PIGEONS.format(first=first, second=second)
