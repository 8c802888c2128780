"""SVG diagrams of an example: the row, the hands, the stock and the storages, before and after.

Presentation only; the states come from the example's replay.
"""

from __future__ import annotations

from html import escape

from rulepress.games.base import DIAGRAM_FONT, Figure
from rulepress.games.go_stop.cards import DECK_TABLE, MONTH_MASK, cards_in, month_of, value_of
from rulepress.games.go_stop.examples import Replay
from rulepress.games.go_stop.rules import OVER, State
from rulepress.games.go_stop.style import CLASS_STYLE, INK, LINE, PAPER, PLAYER_STYLES

CW, CH = 30, 46  # card size, px
GAP = 5
LABEL = 150
ROW_H = CH + 14
FONT = f'font-family="{DIAGRAM_FONT}"'
STEP = 20  # overlap of stored cards
MAX_STOCK = 4  # stock cards shown (the next draws)


def figures(r: Replay) -> list[Figure]:
    if not r.moves and r.illegal is None:
        return [Figure("The situation", _svg(r.before, False))]
    moves = ", ".join(str(m) for m in r.moves) or "no move"
    return [
        Figure("Before", _svg(r.before, True)),
        Figure(f"After {moves}", _svg(r.after, True)),
    ]


def _card(x: float, y: float, card: int) -> str:
    """A small card: number and value at the left edge, so overlapped cards stay readable."""
    value = value_of(card)
    band, ink, _ = CLASS_STYLE[value[0]]
    text = DECK_TABLE[card // 4][card % 4]
    month = month_of(card)
    return (
        f'<g><rect x="{x}" y="{y}" width="{CW}" height="{CH}" rx="3" fill="{PAPER}" '
        f'stroke="{INK}" stroke-width="0.8"/>'
        f'<rect x="{x + 0.5}" y="{y + CH - 14}" width="{CW - 1}" height="13.5" fill="{band}"/>'
        f'<text x="{x + 2.5}" y="{y + 15}" font-size="13" font-weight="bold" '
        f'fill="{INK}">{month}</text>'
        f'<text x="{x + 2.5}" y="{y + CH - 3.5}" font-size="10" font-weight="bold" '
        f'fill="{ink}">{escape(text)}</text></g>'
    )


def _token(x: float, y: float, player: int) -> str:
    colour, shape = PLAYER_STYLES[player]
    if shape == "circle":
        body = f'<circle cx="{x}" cy="{y}" r="8" fill="{colour}" stroke="{INK}"/>'
    elif shape == "square":
        body = (
            f'<rect x="{x - 7}" y="{y - 7}" width="14" height="14" fill="{colour}" stroke="{INK}"/>'
        )
    else:
        points = f"{x},{y - 9} {x + 9},{y + 7} {x - 9},{y + 7}"
        body = f'<polygon points="{points}" fill="{colour}" stroke="{INK}"/>'
    return body + (
        f'<text x="{x}" y="{y + 4}" font-size="10" font-weight="bold" text-anchor="middle" '
        f'fill="#ffffff">{player + 1}</text>'
    )


def _lines(s: State, play: bool) -> list[tuple[str, list[str], float]]:
    """Label, drawn parts and width for each line of the figure. Empty places are left out,
    except the row and the hand to play when the example plays moves."""
    lines: list[tuple[str, list[str], float]] = []
    # The row: singles, and 3-card columns fanned downwards with their token.
    parts: list[str] = []
    x = 0.0
    for m in range(12):
        here = cards_in(s.row & MONTH_MASK[m])
        if len(here) == 3:
            # A group or a three-card column: framed together, with its owner's token.
            owner = s.owners[m]
            extra = 22 if owner >= 0 else 0
            parts.append(
                f'<rect x="{x - 2}" y="-3" width="{3 * (CW + 2) + 2 + extra}" height="{CH + 6}" '
                f'rx="4" fill="none" stroke="{INK}" stroke-dasharray="3,2" stroke-width="0.8"/>'
            )
            for i, c in enumerate(here):
                parts.append(_card(x + i * (CW + 2), 0, c))
            x += 3 * (CW + 2)
            if owner >= 0:
                parts.append(_token(x + 10, CH / 2, owner))
            x += extra + GAP + 4
        else:
            for c in here:
                parts.append(_card(x, 0, c))
                x += CW + GAP
    if parts or play:
        lines.append(("Row", parts, x))
    for p in range(s.players):
        cards = cards_in(s.hands[p])
        playing = play and p == s.to_move and s.phase != OVER
        if cards or playing:
            label = f"Hand of player {p + 1}" + (" (to play)" if playing else "")
            lines.append(
                (
                    label,
                    [_card(i * (CW + GAP), 0, c) for i, c in enumerate(cards)],
                    len(cards) * (CW + GAP),
                )
            )
    if s.pending is not None:
        take, _, drawn = s.pending
        lines.append(("Drawn, to pair", [_card(0, 0, drawn)], CW))
        held = cards_in(take)
        if held:
            lines.append(
                (
                    "Paired this turn",
                    [_card(i * (CW + GAP), 0, c) for i, c in enumerate(held)],
                    len(held) * (CW + GAP),
                )
            )
    stock = s.stock[s.drawn : s.drawn + MAX_STOCK]
    if stock:
        more = s.stock_left - len(stock)
        label = "Stock, next draws" + (f" (+{more})" if more > 0 else "")
        lines.append(
            (
                label,
                [_card(i * (CW + GAP), 0, c) for i, c in enumerate(stock)],
                len(stock) * (CW + GAP),
            )
        )
    for p in range(s.players):
        cards = cards_in(s.stores[p])
        if not cards:
            continue
        parts, x = [], 0.0
        last = ""
        for c in sorted(cards, key=lambda c: ("ABCD".index(value_of(c)[0]), c)):
            cls = value_of(c)[0]
            if last and cls != last:
                x += CW - STEP + GAP
            parts.append(_card(x, 0, c))
            x += STEP
            last = cls
        marks = []
        if s.gos[p]:
            marks.append(f"{s.gos[p]} go")
        if s.reserves[p]:
            marks.append(f"{s.reserves[p]} reserve")
        label = f"Storage of player {p + 1}"
        if marks:
            label += "\n" + ", ".join(marks)
        lines.append((label, parts, x + CW - STEP))
    return lines


def _svg(s: State, play: bool) -> str:
    lines = _lines(s, play)
    width = int(LABEL + max([w for _, _, w in lines] + [CW]) + 24)
    height = int(len(lines) * ROW_H + 10)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" {FONT} role="img">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    for i, (label, parts, _) in enumerate(lines):
        y = 8 + i * ROW_H
        if i:
            out.append(
                f'<line x1="4" y1="{y - 4}" x2="{width - 4}" y2="{y - 4}" '
                f'stroke="{LINE}" stroke-width="0.4"/>'
            )
        main, _, sub = label.partition("\n")
        ly = y + CH / 2 + (4 if not sub else -1)
        out.append(f'<text x="6" y="{ly}" font-size="11" fill="{INK}">{escape(main)}</text>')
        if sub:
            out.append(
                f'<text x="6" y="{ly + 13}" font-size="10" fill="{LINE}">{escape(sub)}</text>'
            )
        if not parts:
            out.append(
                f'<text x="{LABEL}" y="{y + CH / 2 + 4}" font-size="11" '
                f'font-style="italic" fill="{LINE}">empty</text>'
            )
        out.append(f'<g transform="translate({LABEL},{y + 4})">' + "".join(parts) + "</g>")
    out.append("</svg>")
    return "".join(out)
