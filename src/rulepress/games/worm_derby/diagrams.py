"""SVG diagrams of Worm Derby states: the course grid, tiles, pylon, start gate and worms."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from rulepress.games.base import DIAGRAM_FONT, Figure
from rulepress.games.worm_derby.examples import Replay
from rulepress.games.worm_derby.grid import TILE
from rulepress.games.worm_derby.rules import State

FONT = DIAGRAM_FONT
SUIT_COLOUR = {"suns": "#c0392b", "moons": "#222222", "crowns": "#2e7d32", "arms": "#1f5fbf"}
SUIT_LETTER = {"suns": "S", "moons": "M", "crowns": "C", "arms": "A"}
GRID_LINE = "#d9d4c7"
TABLE = "#fbf8f0"
GATE = "#f3e3a0"
TILE_FACE = "#efe6cf"
TILE_BACK = "#8d8a80"
MARGIN = 16  # room for the column letters and row numbers


def _cell_size(state: State) -> int:
    return max(7, min(20, 300 // state.grid.width))


def rows_of_interest(states: Sequence[State], extra: Sequence[int] = (), margin: int = 2) -> \
        tuple[int, int]:
    """The rows worth showing: every worm, the move and moved tiles, with a margin."""
    g = states[0].grid
    ys = [g.xy(c)[1] for s in states for w in s.worms if w is not None for c in w.cells]
    ys += [g.xy(c)[1] for c in extra]
    if not ys:
        return 0, g.height - 1
    return max(min(ys) - margin, 0), min(max(ys) + margin, g.height - 1)


def draw_state(state: State, title: str, path: Sequence[int] = (),
               moved: Sequence[int] = (), rows: tuple[int, int] | None = None,
               refused: bool = False) -> str:
    """One state as an SVG document, rows ``rows`` (inclusive) only; ``path`` is a move's
    cells, drawn as a dashed line (red when the move was refused)."""
    g, lay = state.grid, state.layout
    lo, hi = rows if rows is not None else (0, g.height - 1)
    cs = _cell_size(state)
    n_rows = hi - lo + 1
    w = g.width * cs + 2 * MARGIN
    h = n_rows * cs + 2 * MARGIN
    labels = cs >= 12
    fs = max(6, min(10, cs * 0.6))

    def px(cell: int) -> tuple[float, float]:
        x, y = g.xy(cell)
        return MARGIN + x * cs, MARGIN + (hi - y) * cs

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" font-family="{FONT}" role="img">',
           f"<title>{escape(title)}</title>",
           f'<clipPath id="table"><rect x="{MARGIN}" y="{MARGIN}" width="{g.width * cs}" '
           f'height="{n_rows * cs}"/></clipPath>',
           f'<rect x="{MARGIN}" y="{MARGIN}" width="{g.width * cs}" height="{n_rows * cs}" '
           f'fill="{TABLE}"/>', '<g clip-path="url(#table)">']
    for c in sorted(lay.gate):
        x, y = px(c)
        out.append(f'<rect x="{x}" y="{y}" width="{cs}" height="{cs}" fill="{GATE}"/>')
    for i in range(g.width + 1):
        x = MARGIN + i * cs
        out.append(f'<line x1="{x}" y1="{MARGIN}" x2="{x}" y2="{h - MARGIN}" '
                   f'stroke="{GRID_LINE}" stroke-width="0.6"/>')
    for j in range(n_rows + 1):
        y = MARGIN + j * cs
        out.append(f'<line x1="{MARGIN}" y1="{y}" x2="{w - MARGIN}" y2="{y}" '
                   f'stroke="{GRID_LINE}" stroke-width="0.6"/>')
    # the pylon's rear line: the line a worm crosses when it goes round the far side
    rx = MARGIN + lay.axis * cs
    out.append(f'<line x1="{rx}" y1="{MARGIN + (hi - g.height + 1) * cs}" x2="{rx}" '
               f'y2="{MARGIN + (hi - lay.pylon_row - TILE + 1) * cs}" stroke="#7a6a3a" '
               f'stroke-width="1.2" stroke-dasharray="3 3"/>')
    t = TILE * cs

    def tile(anchor: int, fill: str, label: str, text_fill: str = "#333", dash: str = "") -> None:
        x, y = px(anchor)
        y -= (TILE - 1) * cs
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<rect x="{x + 0.8}" y="{y + 0.8}" width="{t - 1.6}" height="{t - 1.6}" '
                   f'rx="{cs * 0.2}" fill="{fill}" stroke="#555" stroke-width="1"{extra}/>')
        # Centre the label on the rows in view, so a tile cut by the crop keeps its name.
        ay = g.xy(anchor)[1]
        top, bottom = min(ay + TILE - 1, hi), max(ay, lo)
        if label and top >= bottom:
            mid = MARGIN + (hi - top + (top - bottom + 1) / 2) * cs
            out.append(f'<text x="{x + t / 2}" y="{mid + fs / 3}" font-size="{fs}" '
                       f'text-anchor="middle" fill="{text_fill}" font-weight="bold">'
                       f"{escape(label)}</text>")

    slalom = lay.slalom  # Slalom names its tiles' suits: Moons start, Crowns pylon
    for a in lay.start:
        tile(a, "#4a4a4a" if slalom else TILE_FACE, "start" if labels else "",
             "white" if slalom else "#333")
    tile(lay.pylon, "#a9d3a9" if slalom else "#e8d9a8", "pylon" if labels else "P")
    for a in lay.red:
        tile(a, "#e8a39b", "R ›" if labels else "R")
    for a in lay.blue:
        tile(a, "#9bb8e8", "‹ B" if labels else "B")
    for a in state.obstacles:
        tile(a, TILE_BACK, "", dash="3 2" if a in moved else "")
    r = cs * 0.42
    for p, worm in enumerate(state.worms):
        if worm is None:
            continue
        suit = state.players[p]
        colour = SUIT_COLOUR.get(suit, "#444")
        pts = [px(c) for c in worm.cells]
        line = " ".join(f"{x + cs / 2},{y + cs / 2}" for x, y in pts)
        out.append(f'<polyline points="{line}" fill="none" stroke="{colour}" '
                   f'stroke-width="{cs * 0.25}" stroke-linecap="round"/>')
        for x, y in pts:
            out.append(f'<circle cx="{x + cs / 2}" cy="{y + cs / 2}" r="{r}" fill="{colour}" '
                       f'stroke="white" stroke-width="0.8"/>')
            if labels:
                out.append(f'<text x="{x + cs / 2}" y="{y + cs / 2 + fs / 3}" font-size="{fs}" '
                           f'text-anchor="middle" fill="white" font-weight="bold">'
                           f"{SUIT_LETTER.get(suit, '?')}</text>")
    if len(path) > 1:
        # Off the disks' centres, so the trace never hides their suit letters; a ring marks
        # where the move ends.
        off = cs * 0.32
        pts = [px(c) for c in path]
        line = " ".join(f"{x + cs / 2 + off},{y + cs / 2 + off}" for x, y in pts)
        colour = "#d0021b" if refused else "#d97a00"  # dark enough for greyscale
        out.append(f'<polyline points="{line}" fill="none" stroke="{colour}" '
                   f'stroke-width="1.6" stroke-dasharray="4 2"/>')
        x, y = pts[-1]
        out.append(f'<circle cx="{x + cs / 2}" cy="{y + cs / 2}" r="{cs * 0.47}" '
                   f'fill="none" stroke="{colour}" stroke-width="1.6"/>')
    out.append("</g>")
    for i in range(0, g.width, 1 if labels else 2):
        x = MARGIN + (i + 0.5) * cs
        for y in (MARGIN - 4, h - MARGIN + fs + 2):
            out.append(f'<text x="{x}" y="{y}" font-size="{fs}" text-anchor="middle" '
                       f'fill="#555">{chr(97 + i)}</text>')
    for j in range(lo, hi + 1, 1 if labels else 5):
        y = MARGIN + (hi - j + 0.5) * cs + fs / 3
        for x, anchor in ((MARGIN - 3, "end"), (w - MARGIN + 3, "start")):
            out.append(f'<text x="{x}" y="{y}" font-size="{fs}" text-anchor="{anchor}" '
                       f'fill="#555">{j + 1}</text>')
    out.append("</svg>")
    return "\n".join(out)


def figures(rep: Replay, whole: bool = False) -> list[Figure]:
    if whole:
        s = rep.after
        caption = f"The course set up for {len(s.players)} players"
        return [Figure(caption, draw_state(s, caption))]
    g = rep.before.grid
    moved = set(rep.before.obstacles) ^ set(rep.after.obstacles)
    extra = [*rep.path, *(c for a in moved for c in g.tile_cells(a))]
    rows = rows_of_interest((rep.before, rep.after), extra)
    if rep.before is rep.after and rep.illegal is None:
        return [Figure("The situation", draw_state(rep.after, "The situation", rows=rows))]
    if rep.illegal is not None:
        move, reason = rep.illegal
        caption = f"Not allowed: {move} ({reason})"
        return [Figure(caption, draw_state(rep.before, caption, rep.path, rows=rows,
                                           refused=True))]
    before = Figure("Before", draw_state(rep.before, "Before", rows=rows))
    after = Figure("After", draw_state(rep.after, "After", rep.path, moved=rep.moved_tiles,
                                       rows=rows))
    return [before, after]
