"""SVG diagrams of a worked example: the piles before, the cards played, the piles after."""

from __future__ import annotations

from html import escape

from rulepress.games.base import DIAGRAM_FONT, Figure
from rulepress.games.pigeon import suits
from rulepress.games.pigeon.cards import Card
from rulepress.games.pigeon.examples import Replay, Step
from rulepress.games.pigeon.rules import NO_MOVE, Pile, Play, State, Sweep

FONT = f'font-family="{DIAGRAM_FONT}"'
CARD_W, CARD_H = 44, 62
STRIP = 17  # the visible edge of a covered card in a pile
FAN = 22  # horizontal step between cards of one play
SHOWN = 4  # covered cards shown per pile; deeper ones are summarised
LABEL_W = 70
PAD = 10
MAX_WIDTH = 640  # about the text width of an A4 or Letter page, in px
INK = "#222222"
MUTED = "#666666"


def _text(
    x: float,
    y: float,
    s: str,
    size: int = 12,
    weight: str = "normal",
    fill: str = INK,
    anchor: str = "start",
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" {FONT} font-size="{size}" font-weight="{weight}" '
        f'fill="{fill}" text-anchor="{anchor}">{escape(s)}</text>'
    )


def _card(x: float, y: float, card: Card, full: bool = True) -> str:
    colour = suits.RED if card.red else suits.BLACK
    parts = [
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{CARD_W}" height="{CARD_H}" rx="4" '
        f'fill="#ffffff" stroke="{INK}" stroke-width="1"/>',
        f'<text x="{x + 4:.1f}" y="{y + 13:.1f}" {FONT} font-size="13" font-weight="bold" '
        f'fill="{colour}">{card.rank_name}</text>',
        suits.svg(card.suit, x + CARD_W - 9, y + 8.5, 10),
    ]
    if full:
        parts.append(suits.svg(card.suit, x + CARD_W / 2, y + CARD_H / 2 + 6, 24))
    return "".join(parts)


def _pile_height(p: Pile) -> float:
    return CARD_H + (min(len(p.cards), SHOWN + 1) - 1) * STRIP


def _finished_slot(x: float, y: float) -> str:
    """Where a pile finished during the example stood: a dashed outline, empty."""
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{CARD_W}" height="{CARD_H}" rx="4" '
        f'fill="none" stroke="{MUTED}" stroke-width="1.2" stroke-dasharray="4 3"/>'
        + _text(x + CARD_W / 2, y + CARD_H / 2 - 2, "finished", 10, fill=MUTED, anchor="middle")
        + _text(x + CARD_W / 2, y + CARD_H / 2 + 10, "(out)", 10, fill=MUTED, anchor="middle")
    )


def _after_slots(start: State, final: State) -> list[Pile | str]:
    """The final piles, with the label of each pile finished meanwhile kept in its old place."""
    finished = set(final.completed[len(start.completed) :])
    slots: list[Pile | str] = []
    for p in start.piles:
        now = final.pile(p.label)
        if now is not None:
            slots.append(now)
        elif p.label in finished:
            slots.append(p.label)
    shown = {s.label for s in slots if isinstance(s, Pile)}
    slots.extend(p for p in final.piles if p.label not in shown)
    return slots


def _piles(state: State, slots: list[Pile | str] | None = None) -> tuple[str, float, float]:
    """The piles side by side, each a cascade ending in its top card; returns svg, w, h.

    ``slots`` may replace the state's piles, a label standing for a pile finished meanwhile."""
    parts: list[str] = []
    x = 0.0
    height = 0.0
    slots = list(state.piles) if slots is None else slots
    if not slots:
        parts.append(_text(0, 34, "no piles on the table", 12, fill=MUTED))
        return "".join(parts), 150, CARD_H
    for p in slots:
        if isinstance(p, str):
            parts.append(_text(x + CARD_W / 2, 11, p, 13, "bold", fill=MUTED, anchor="middle"))
            parts.append(_finished_slot(x, 16))
            height = max(height, 16 + CARD_H)
            x += CARD_W + 18
            continue
        parts.append(_text(x + CARD_W / 2, 11, p.label, 13, "bold", anchor="middle"))
        shown = p.cards[-(SHOWN + 1) :]
        hidden = len(p.cards) - len(shown)
        y = 16
        if hidden:
            parts.append(_text(x + CARD_W + 2, y + 10, f"+{hidden}", 10, fill=MUTED))
        for i, c in enumerate(shown):
            parts.append(_card(x, y + i * STRIP, c, full=i == len(shown) - 1))
        height = max(height, 16 + _pile_height(p))
        x += CARD_W + 18
    return "".join(parts), x, height


def _who(seat: int) -> str:
    return f"Player {seat + 1}"


def _step(step: Step) -> tuple[str, float, float]:
    """One move: who, the cards (bottom card first, leftmost), where they went."""
    parts = [_text(0, 11, _who(step.player), 11, "bold")]
    move = step.move
    cards: tuple[Card, ...] = ()
    if isinstance(move, Play):
        cards = move.cards
        where = "new pile" if move.pile is None else f"onto {move.pile}"
        kind = step.kind.capitalize() if step.kind in ("set", "string") else "Play"
        label = f"Forceplay {where}" if move.force else f"{kind} {where}"
        if step.kind == "opening":
            label = "opens a pile"
        elif step.kind == "new pile":
            label = "New pile"
    elif isinstance(move, Sweep):
        cards = move.cards
        label = "Sweep: every pile goes"
    elif step.kind == "pigeon":
        label = "discards the Pigeon: limit back to 5"
    else:
        label = "draws, keeping the Pigeon"
    if step.after is not None:
        done = step.after.completed[len(step.before.completed) :]
        if done:
            label += f": pile {done[0]} finished, takes the Pigeon"
        elif step.kind == "forceplay":
            label += ": hand limit now 4"
        if step.after.winner is not None and step.before.winner is None:
            label += f"; {_who(step.after.winner)} wins"
    x = 4
    y = 20
    for i, c in enumerate(cards):
        parts.append(_card(x + i * FAN, y, c))
    width = (CARD_W + (len(cards) - 1) * FAN) if cards else 0
    ty = y + (CARD_H / 2 + 4 if cards else 10)
    tx = x + width + (8 if cards else 0)
    parts.append(_text(tx, ty, label, 12))
    w = width + 12 + 6.8 * len(label)
    h = 20 + (CARD_H if cards else 16)
    if step.after is None:
        # An illegal move: crossed out, dashed frame (readable without colour), and why.
        box_h = (CARD_H if cards else 16) + 8
        parts.append(
            f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="{w + 4:.1f}" height="{box_h:.1f}" '
            f'fill="none" stroke="{suits.RED}" stroke-width="2" stroke-dasharray="6 3"/>'
        )
        if cards:
            parts.append(
                f'<path d="M{x:.1f},{y:.1f} L{x + width:.1f},{y + CARD_H:.1f} '
                f'M{x + width:.1f},{y:.1f} L{x:.1f},{y + CARD_H:.1f}" '
                f'stroke="{suits.RED}" stroke-width="3" stroke-linecap="round"/>'
            )
        note = f"Not allowed: {step.reason}"
        parts.append(_text(x - 4, y + box_h + 10, note, 11, "bold", fill=suits.RED))
        w = max(w, 7.0 * len(note))
        h += 22
    return "".join(parts), w, h


def _status(state: State) -> tuple[str, ...]:
    pigeon = "set aside" if state.pigeon is None else f"with {_who(state.pigeon)}"
    limits = " · ".join(f"{_who(i)}: hand limit {s.limit}" for i, s in enumerate(state.seats))
    line = f"Pigeon {pigeon} · {limits}"
    if state.winner is None:
        return (line,)
    won = f"{_who(state.winner)} wins: {state.win_reason}"
    if state.win_reason == NO_MOVE:
        # The loser's hand is what makes the claim checkable by eye.
        loser = 1 - state.winner
        held = " ".join(str(c) for c in state.seats[loser].hand)
        return (won, f"{_who(loser)}'s hand: {held}", line)
    return (won, line)


def _status_svg(lines: tuple[str, ...], y: float) -> tuple[str, float, float]:
    """The status lines under the figure (a win first, in bold); svg, width, height."""
    parts = [
        _text(PAD, y + 8 + 16 * i, line, 12, "bold" if i == 0 and len(lines) > 1 else "normal")
        for i, line in enumerate(lines)
    ]
    return "".join(parts), max(6.6 * len(line) for line in lines) + 2 * PAD, 16.0 * len(lines)


def _arrow(x: float, y: float, length: float = 26) -> str:
    return (
        f'<path d="M{x:.1f},{y:.1f} h{length - 8:.1f}" stroke="{MUTED}" stroke-width="2.5"/>'
        f'<path d="M{x + length:.1f},{y:.1f} l-10,-6 v12 z" fill="{MUTED}"/>'
    )


def _played(steps: list[tuple[str, float, float]], wrap: float) -> tuple[str, float, float]:
    """The moves left to right, wrapping so the figure stays page-wide."""
    parts: list[str] = []
    x = y = row_h = width = 0.0
    for i, (svg, w, h) in enumerate(steps):
        if i and x + w > wrap:
            x, y = 0.0, y + row_h + 10
            row_h = 0.0
        parts.append(f'<g transform="translate({x:.1f},{y:.1f})">{svg}</g>')
        width = max(width, x + w)
        row_h = max(row_h, h)
        x += w + 24
    return "".join(parts), width, y + row_h


def _document(body: list[str], width: float, height: float) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" role="img">'
        f'<rect width="100%" height="100%" fill="#fbfaf7"/>{"".join(body)}</svg>'
    )


def figure(r: Replay) -> Figure:
    before = _piles(r.start)
    after = _piles(r.final, _after_slots(r.start, r.final))
    played = _played([_step(s) for s in r.steps], 520) if r.steps else None
    status = _status(r.final)
    moves = ", ".join(s.text for s in r.steps) or "no move"
    caption = f"Piles before and after: {moves}"
    arrow_w = 44.0
    flat_w = before[1] + after[1] + 2 * PAD + (played[1] + 2 * arrow_w if played else arrow_w)
    if flat_w <= MAX_WIDTH:
        # Side by side, as the original's illustrations were: before ⇒ play ⇒ after.
        body: list[str] = []
        top = PAD + 18
        x = float(PAD)
        columns = [("Before", before)]
        if played:
            columns.append(("Played", played))
        columns.append(("After", after))
        height = max(c[1][2] for c in columns)
        for i, (label, (svg, w, _)) in enumerate(columns):
            if i:
                body.append(_arrow(x + 8, top + 16 + CARD_H / 2))
                x += arrow_w
            body.append(_text(x, PAD + 10, label, 12, "bold", fill=MUTED))
            body.append(f'<g transform="translate({x:.1f},{top:.1f})">{svg}</g>')
            x += w
        y = top + height + 8
        text, text_w, text_h = _status_svg(status, y)
        body.append(text)
        return Figure(caption=caption, svg=_document(body, max(x + PAD, text_w), y + text_h + 2))

    rows: list[tuple[str, str, float, float]] = [("Before", *before)]
    if played:
        rows.append(("Played", *played))
    rows.append(("After", *after))
    width = LABEL_W + max(w for _, _, w, _ in rows) + 2 * PAD
    width = max(width, max(6.6 * len(line) for line in status) + 2 * PAD)
    body = []
    y = float(PAD)
    for i, (label, svg, _, h) in enumerate(rows):
        if i:
            body.append(
                f'<line x1="{PAD}" y1="{y - 6:.1f}" x2="{width - PAD:.1f}" y2="{y - 6:.1f}" '
                'stroke="#cccccc" stroke-width="1"/>'
            )
        body.append(_text(PAD, y + 14, label, 13, "bold", fill=MUTED))
        body.append(f'<g transform="translate({PAD + LABEL_W},{y:.1f})">{svg}</g>')
        y += h + 14
    text, _, text_h = _status_svg(status, y)
    body.append(text)
    return Figure(caption=caption, svg=_document(body, width, y + text_h + 2))


def figures(r: Replay) -> list[Figure]:
    return [figure(r)]
