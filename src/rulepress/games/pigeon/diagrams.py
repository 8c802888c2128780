"""SVG diagrams of a worked example, drawn the way the print-and-play kit prints the game.

One convention for every example, after the web page's own pictures ("77 ⇒ 7 88"): the table in
stages, left to right, joined by arrows; a crossed arrow leads to a play that is refused. A stage
is the row of piles, each lettered above and laid as a cascade from its bottom card down to its
top card. The cards are the kit's: a cream face, the index in the top-left corner (rank over
suit), red suits hollow and black suits solid. A bar beside a pile marks the cards just laid
(dashed for a Forceplay; red, with the cards crossed out, for a refused play). A play that
finishes a pile takes two stages: the cards laid, then the pile gone. Under the piles, only in
the examples that turn on them, lie the kit's tokens: the Pigeon (the round token) by whoever
holds it, a hand limit of 4 (the reference card turned sideways), a deck about to run out, a
hand that cannot move.

Cheap to draw: each kind of mark (card faces, red symbols, black symbols, each style of text...)
is one SVG element however many cards there are, and the words are in the caption.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import rulepress.games.pigeon.suits as suits
from rulepress.games.pigeon.cards import ACE, KING, Card
from rulepress.games.pigeon.examples import Replay, Step
from rulepress.games.pigeon.rules import (
    DREW_LAST,
    HAND_LIMIT,
    NO_MOVE,
    PENALTY_LIMIT,
    DiscardPigeon,
    Pile,
    Play,
    State,
    Sweep,
    play_kind,
)
from rulepress.plugin import DIAGRAM_FONT, FACE_WORDS, SUIT_NAMES, Figure, Lettering, Marks
from rulepress.plugin import text_width as plugin_text_width

CARD_W, CARD_H, CORNER = 40, 56, 3.5
STRIP = 24  # the visible top of a covered card: its index
FAN = 22  # step between the cards of a hand, fanned left to right
SHOWN = 4  # covered cards shown per pile; deeper ones are counted above it
PILE_STEP = CARD_W + 14
LABEL_H = 17  # the pile letters above the cards
ROW = 21  # one line of tokens under the piles
ARROW = 46
MAX_WIDTH = 600  # a little under the text width of an A4 or Letter page, in px
NARROW_WIDTH = 330  # a phone's: one stage to a line, labels still 9 px or more at PHONE_PX

PAPER, EDGE = "#fffdf8", "#9a9a9a"  # the kit's card face; its edge, a shade darker for screens
NAVY = "#1f3a5f"  # the kit's tokens and reference card
MARK = "#1f5f6b"  # the bar beside the cards just laid
INK, MUTED = "#222222", "#666666"

# Every kind of mark is one <path>, drawn in this order.
PATH_STYLES = {
    "face": f'fill="{PAPER}" stroke="{EDGE}" stroke-width="1"',
    "edge": f'fill="none" stroke="{EDGE}" stroke-width="1"',
    "slot": f'fill="none" stroke="{MUTED}" stroke-width="1.2" stroke-dasharray="4 3"',
    "navy": f'fill="{NAVY}"',
    "white": 'fill="#ffffff"',
    "red": f'fill="#ffffff" stroke="{suits.RED}" stroke-width="1.2" stroke-linejoin="round"',
    "black": f'fill="{suits.BLACK}"',
    "played": f'fill="none" stroke="{MARK}" stroke-width="3" stroke-linecap="round"',
    "forced": f'fill="none" stroke="{MARK}" stroke-width="3" stroke-dasharray="5 3"',
    "arrow": f'fill="none" stroke="{MUTED}" stroke-width="2" stroke-linejoin="round"',
    "refused": f'fill="none" stroke="{suits.RED}" stroke-width="2.5" stroke-linecap="round"',
}


@dataclass(frozen=True)
class TextStyle:
    size: int
    bold: bool
    fill: str


RANK_BLACK = TextStyle(13, True, suits.BLACK)
RANK_RED = TextStyle(13, True, suits.RED)
LABEL = TextStyle(13, True, INK)
NOTE = TextStyle(12, False, INK)
STRONG = TextStyle(12, True, INK)
QUIET = TextStyle(12, False, MUTED)


def text_width(s: str, style: TextStyle) -> float:
    return plugin_text_width(s, style.size, style.bold)


class Ink(Marks):
    """A figure's marks, gathered by kind: each kind becomes one SVG element."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: dict[TextStyle, Lettering] = {}

    def text(self, x: float, y: float, s: str, style: TextStyle) -> float:
        """Write ``s`` with its baseline starting at (x, y); returns its width."""
        if style not in self.texts:
            self.texts[style] = Lettering(style.size, style.bold)
        return self.texts[style].add(x, y, s)

    def svg(self, width: float, height: float) -> str:
        body = self.elements(PATH_STYLES)
        body += [lettering.svg(
            f'font-family="{DIAGRAM_FONT}" font-size="{style.size}" '
            f'font-weight="{"bold" if style.bold else "normal"}" fill="{style.fill}"')
            for style, lettering in self.texts.items()]
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" role="img">{"".join(body)}</svg>'
        )


# --- shapes -----------------------------------------------------------------------------------


def _rounded(x: float, y: float, w: float, h: float, r: float = CORNER) -> str:
    return (
        f"M{x + r:.1f},{y:.1f} h{w - 2 * r:.1f} {_turn(1, 1, r)} v{h - 2 * r:.1f} "
        f"{_turn(-1, 1, r, down=True)} h{2 * r - w:.1f} {_turn(-1, -1, r)} "
        f"v{2 * r - h:.1f} {_turn(1, -1, r, down=True)} Z"
    )


def _turn(sx: int, sy: int, r: float, down: bool = False) -> str:
    """A rounded corner of radius ``r``, as a cubic (cheaper than an arc), ending ``sx * r``
    across and ``sy * r`` down; it sets off along x, or along y when ``down``."""
    k = suits.KAPPA * r
    c1 = (0, sy * k) if down else (sx * k, 0)
    c2 = (sx * (r - k), sy * r) if down else (sx * r, sy * (r - k))
    return f"c{c1[0]:.2f},{c1[1]:.2f} {c2[0]:.2f},{c2[1]:.2f} {sx * r},{sy * r}"


def _suit(ink: Ink, card: Card, cx: float, cy: float, size: float) -> None:
    ink.path("red" if card.red else "black", suits.svg(card.suit, cx, cy, size))


def _index(ink: Ink, x: float, y: float, card: Card) -> None:
    """The kit's corner index: the rank, and the suit symbol under it."""
    style = RANK_RED if card.red else RANK_BLACK
    width = ink.text(x + 4, y + 13, card.rank_name, style)
    _suit(ink, card, x + 4 + max(width, 8) / 2, y + 18.5, 9)


def _spread(ink: Ink, x: float, y: float, cards: Sequence[Card], dx: float, dy: float) -> None:
    """Cards laid overlapping, each (dx, dy) from the one before, the last one whole: a pile
    runs down (dy = STRIP), a hand runs right (dx = FAN)."""
    n = len(cards)
    ink.path("face", _rounded(x, y, CARD_W + (n - 1) * dx, CARD_H + (n - 1) * dy))
    r = CORNER
    left, top = x, y
    for i, card in enumerate(cards):
        left, top = x + i * dx, y + i * dy
        if i and dy:  # where a card covers the one before: its top edge, or its left edge
            ink.path("edge", f"M{left:.1f},{top + r:.1f} {_turn(1, -1, r, down=True)} "
                             f"h{CARD_W - 2 * r:.1f} {_turn(1, 1, r)}")
        elif i:
            ink.path("edge", f"M{left + r:.1f},{top:.1f} {_turn(-1, 1, r)} "
                             f"v{CARD_H - 2 * r:.1f} {_turn(1, 1, r, down=True)}")
        _index(ink, left, top, card)
    _suit(ink, cards[-1], left + CARD_W / 2, top + CARD_H * 0.62, 20)


def _coin(ink: Ink, cx: float, cy: float, r: float = 9) -> None:
    """The kit's round Pigeon token: the white bird on navy."""
    ink.path("navy", suits.svg_circle(cx, cy, r))
    u = r * 1.25 / 100

    def at(p: suits.Point) -> suits.Point:
        return cx + (p[0] - 50) * u, cy - r * 0.08 - (p[1] - 50) * u

    ink.path("white", suits.svg_path(suits.PIGEON_BODY, at))


def _reference_card(ink: Ink, x: float, cy: float, sideways: bool) -> float:
    """The kit's reference card, upright (hand limit 5) or sideways (4); returns its width."""
    w, h = (17, 12) if sideways else (12, 17)
    y = cy - h / 2
    ink.path("face", _rounded(x, y, w, h, 1.5))
    ink.path("navy", f"M{x:.1f},{y:.1f} h4 v{h} h-4 Z" if sideways else
             f"M{x:.1f},{y:.1f} h{w} v4 h{-w} Z")
    return w


def _card_back(ink: Ink, x: float, cy: float) -> float:
    ink.path("navy", _rounded(x, cy - 8.5, 12, 17, 1.5))
    return 12


# --- what each stage shows --------------------------------------------------------------------


@dataclass(frozen=True)
class PileView:
    label: str
    cards: tuple[Card, ...]  # none: the pile was finished in this step, its place stays empty
    mark: str = ""  # "", "played", "forced" or "refused": the bar beside the top ``marked``
    marked: int = 0


@dataclass(frozen=True)
class Stage:
    piles: tuple[PileView, ...]
    state: State  # the tokens under the piles
    shown: tuple[Card, ...] = ()  # cards shown from the hand (a Sweep) instead of piles
    refused: bool = False  # the arrow into this stage is crossed


def _views(piles: Sequence[Pile]) -> tuple[PileView, ...]:
    return tuple(PileView(p.label, p.cards) for p in piles)


def _grown(state: State, label: str, cards: tuple[Card, ...]) -> tuple[PileView, ...]:
    """The piles of ``state`` with ``cards`` laid on pile ``label``, or as new pile ``label``."""
    views = _views(state.piles)
    if state.pile(label) is None:
        return (*views, PileView(label, cards))
    return tuple(PileView(label, v.cards + cards) if v.label == label else v for v in views)


def _marked(views: tuple[PileView, ...], label: str, mark: str, count: int
            ) -> tuple[PileView, ...]:
    return tuple(replace(v, mark=mark, marked=count) if v.label == label else v for v in views)


def _after_play(move: Play, before: State, after: State) -> list[Stage]:
    label = move.pile or next(p.label for p in after.piles if before.pile(p.label) is None)
    mark, count = "forced" if move.force else "played", len(move.cards)
    if not after.completed[len(before.completed):]:
        return [Stage(_marked(_views(after.piles), label, mark, count), after)]
    # As on the web page: the cards laid, then the pile gone and the Pigeon taken.
    laid = _marked(_grown(before, label, move.cards), label, mark, count)
    gone = tuple(PileView(label, ()) if v.label == label else v for v in laid)
    return [Stage(laid, before), Stage(gone, after)]


def _refused(step: Step) -> Stage:
    move, before = step.move, step.before
    if isinstance(move, Play):
        label = move.pile or before.next_label()
        views = _marked(_grown(before, label, move.cards), label, "refused", len(move.cards))
        return Stage(views, before, refused=True)
    cards = move.cards if isinstance(move, Sweep) else ()
    return Stage(_views(before.piles), before, cards, refused=True)


def stages(r: Replay) -> list[Stage]:
    """The table before the example and after each of its steps, as drawn."""
    steps = r.steps
    opening = [s for s in steps if s.kind == "opening"]
    out: list[Stage] = []
    if r.start.piles or not opening:
        out.append(Stage(_views(r.start.piles), r.start))
    for i, step in enumerate(steps):
        after = step.after
        if after is None:
            out.append(_refused(step))
            break
        if step.kind == "opening":
            if i + 1 == len(steps) or steps[i + 1].kind != "opening":
                out.append(Stage(_views(after.piles), after))  # the opening as one stage
        elif isinstance(step.move, Play):
            out += _after_play(step.move, step.before, after)
        elif isinstance(step.move, Sweep):
            out += [Stage((), step.before, step.move.cards), Stage((), after)]
        elif out[-1].state.pigeon != after.pigeon or _limits(out[-1].state) != _limits(after):
            out.append(Stage(_views(after.piles), after))  # the Pigeon discarded: tokens only
    return out


def _limits(state: State) -> tuple[int, ...]:
    return tuple(seat.limit for seat in state.seats)


# --- the tokens under the piles ---------------------------------------------------------------


def _who(seat: int) -> str:
    return f"Player {seat + 1}"


Line = Callable[[Ink, float, float, State], float]  # draws at (x, baseline); returns width


def _pigeon_line(ink: Ink, x: float, y: float, state: State) -> float:
    _coin(ink, x + 9, y - 4)
    where = "aside" if state.pigeon is None else _who(state.pigeon)
    return 24 + ink.text(x + 24, y, where, NOTE)


def _limit_line(seat: int) -> Line:
    def line(ink: Ink, x: float, y: float, state: State) -> float:
        limit = state.seats[seat].limit
        w = _reference_card(ink, x, y - 4, sideways=limit == PENALTY_LIMIT)
        return w + 6 + ink.text(x + w + 6, y, f"{_who(seat)}: limit {limit}", NOTE)

    return line


def _deck_line(seat: int) -> Line:
    def line(ink: Ink, x: float, y: float, state: State) -> float:
        left = len(state.seats[seat].deck)
        w = _card_back(ink, x, y - 4)
        words = f"{_who(seat)}: " + (f"deck {left}" if left else "deck empty")
        return w + 6 + ink.text(x + w + 6, y, words, NOTE)

    return line


def _lines(r: Replay, drawn: Sequence[Stage]) -> list[Line]:
    """The token lines this example turns on, the same under every stage."""
    lines: list[Line] = []
    if any(s.state.pigeon is not None for s in drawn):
        lines.append(_pigeon_line)
    for seat in (0, 1):
        if any(s.state.seats[seat].limit != HAND_LIMIT for s in drawn):
            lines.append(_limit_line(seat))
    if r.final.win_reason == DREW_LAST and r.final.winner is not None:
        lines.append(_deck_line(r.final.winner))
    return lines


# --- laying out a figure ----------------------------------------------------------------------


def _pile(ink: Ink, x: float, y: float, view: PileView) -> None:
    """A lettered pile, or the empty place of a finished one, with the bar of its mark."""
    top = y + LABEL_H
    lw = text_width(view.label, LABEL)
    ink.text(x + (CARD_W - lw) / 2, y + 12, view.label, LABEL if view.cards else QUIET)
    if not view.cards:
        ink.path("slot", _rounded(x, top, CARD_W, CARD_H))
        return
    shown = view.cards[-(SHOWN + 1):]
    hidden = len(view.cards) - len(shown)
    if hidden:
        ink.text(x + (CARD_W + lw) / 2 + 3, y + 12, f"+{hidden}", QUIET)
    _spread(ink, x, top, shown, 0, STRIP)
    if view.mark:
        marked = min(view.marked, len(shown))
        y0 = top + (len(shown) - marked) * STRIP
        y1 = top + CARD_H + (len(shown) - 1) * STRIP
        ink.path(view.mark, f"M{x + CARD_W + 6:.1f},{y0 + 3:.1f} V{y1 - 3:.1f}")
        if view.mark == "refused":
            ink.path("refused", f"M{x + 3:.1f},{y0 + 3:.1f} L{x + CARD_W - 3:.1f},{y1 - 3:.1f} "
                                f"M{x + CARD_W - 3:.1f},{y0 + 3:.1f} L{x + 3:.1f},{y1 - 3:.1f}")


def _piles_size(stage: Stage) -> tuple[float, float]:
    if stage.shown:
        return CARD_W + (len(stage.shown) - 1) * FAN, LABEL_H + CARD_H
    heights = [LABEL_H + CARD_H + (min(len(v.cards), SHOWN + 1) - 1) * STRIP if v.cards
               else LABEL_H + CARD_H for v in stage.piles]
    width = len(stage.piles) * PILE_STEP - (PILE_STEP - CARD_W)
    return (width, max(heights)) if stage.piles else (text_width("no piles", QUIET),
                                                        LABEL_H + CARD_H)


def _draw_stage(ink: Ink, x: float, y: float, stage: Stage) -> None:
    if stage.shown:
        _spread(ink, x, y + LABEL_H, stage.shown, FAN, 0)
        if stage.refused:
            w = CARD_W + (len(stage.shown) - 1) * FAN
            ink.path("refused", f"M{x:.1f},{y + LABEL_H:.1f} l{w:.1f},{CARD_H} "
                                f"m0,{-CARD_H} l{-w:.1f},{CARD_H}")
    elif not stage.piles:
        ink.text(x, y + LABEL_H + CARD_H / 2, "no piles", QUIET)
    for i, view in enumerate(stage.piles):
        _pile(ink, x + i * PILE_STEP, y, view)


def _arrow(ink: Ink, x: float, y: float, refused: bool) -> None:
    ink.path("arrow", f"M{x + 8:.1f},{y:.1f} h{ARROW - 16} m-7,-6 l7,6 l-7,6")
    if refused:
        ink.path("refused", f"M{x + ARROW / 2 + 5:.1f},{y - 9:.1f} l-10,18")


def _stuck_hand(ink: Ink, x: float, y: float, seat: int, hand: Sequence[Card]) -> float:
    """The hand that cannot move, named on its left; returns the width drawn."""
    w = ink.text(x, y + 13, f"{_who(seat)} holds", NOTE)
    _spread(ink, x + w + 8, y, hand, FAN, 0)
    return w + 8 + CARD_W + (len(hand) - 1) * FAN


def figure(r: Replay, max_width: float = MAX_WIDTH) -> Figure:
    drawn = stages(r)
    lines = _lines(r, drawn)
    scratch = Ink()  # measures the token lines
    sizes = [_piles_size(s) for s in drawn]
    widths = [max(w, *(line(scratch, 0, 0, s.state) for line in lines)) if lines else w
              for s, (w, _) in zip(drawn, sizes, strict=True)]
    piles_h = max(h for _, h in sizes)
    stage_h = piles_h + ROW * len(lines)
    ink = Ink()
    x = y = 8.0
    width = 0.0
    for i, stage in enumerate(drawn):
        if i:
            if x + ARROW + widths[i] > max_width:  # wrap: the next row starts with its arrow
                x, y = 8.0, y + stage_h + 14
            _arrow(ink, x, y + LABEL_H + CARD_H / 2, stage.refused)
            x += ARROW
        _draw_stage(ink, x, y, stage)
        for n, line in enumerate(lines):
            line(ink, x, y + piles_h + ROW * n + 15, stage.state)
        x += widths[i]
        width = max(width, x)
    height = y + stage_h
    winner = r.final.winner
    if winner is not None:
        x, y = 8.0, height + 16
        if r.final.win_reason == NO_MOVE:  # the hand that cannot move, the win beside it
            loser = 1 - winner
            x += 16 + _stuck_hand(ink, x, height + 6, loser, r.final.seats[loser].hand)
            y = height + 6 + CARD_H / 2 + 4
            height += 6 + CARD_H - ROW
        width = max(width, x + ink.text(x, y, f"{_who(winner)} wins", STRONG))
        height += ROW
    return Figure(caption=caption(r), svg=ink.svg(width + 8, height + 8))


def figures(r: Replay) -> list[Figure]:
    wide = figure(r)
    narrow = figure(r, NARROW_WIDTH)
    return [wide if narrow.svg == wide.svg else replace(wide, narrow=narrow.svg)]


# --- the caption: what the figure shows, in words ---------------------------------------------


def _rank_words(rank: int) -> str:
    word = FACE_WORDS[rank - 1]
    return word.capitalize() if rank in (ACE, 11, 12, KING) else word


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def cards_words(cards: Sequence[Card]) -> str:
    """The cards in words: 'the eight of hearts', 'the four, three and two of spades' (one
    suit), else grouped by rank: 'the Kings of clubs and diamonds and the five of hearts'."""
    if len(cards) > 1 and len({c.suit for c in cards}) == 1:
        return f"the {_and([_rank_words(c.rank) for c in cards])} of {SUIT_NAMES[cards[0].suit]}"
    groups: dict[int, list[str]] = {}
    for c in cards:
        groups.setdefault(c.rank, []).append(SUIT_NAMES[c.suit])
    words = []
    for rank, names in groups.items():
        word = _rank_words(rank)
        plural = word + ("es" if word.endswith("x") else "s") if len(names) > 1 else word
        words.append(f"the {plural} of {_and(names)}")
    return " and ".join(words) if len(words) == 2 else _and(words)


def _step_words(step: Step) -> str:
    who, move = _who(step.player), step.move
    if isinstance(move, Play):
        cards = cards_words(move.cards)
        kind = play_kind(move.cards)
        what = f"{cards} (a {kind.capitalize()})" if kind and len(move.cards) > 1 else cards
        if step.after is None:
            verb = "force" if move.force else "lay"
            where = f"onto pile {move.pile}" if move.pile else "as a new pile"
            return f"Refused: {who} may not {verb} {what} {where}: {step.reason}."
        if move.force:
            return (f"{who} forces {what} onto pile {move.pile}; their hand limit drops to "
                    f"{PENALTY_LIMIT}.")
        if move.pile is None:
            label = next(p.label for p in step.after.piles if step.before.pile(p.label) is None)
            return f"{who} starts pile {label} with {what}."
        done = step.after.completed[len(step.before.completed):]
        if done:
            return (f"{who} lays {what} on pile {move.pile}, which finishes it: the pile leaves "
                    f"the table and {who} takes the Pigeon.")
        return f"{who} lays {what} on pile {move.pile}."
    if isinstance(move, Sweep):
        if step.after is None:
            return f"Refused: {who} may not sweep with {cards_words(move.cards)}: {step.reason}."
        return f"{who} discards {cards_words(move.cards)}: every pile leaves the table."
    if isinstance(move, DiscardPigeon):
        return f"{who} discards the Pigeon: their hand limit is {HAND_LIMIT} again."
    return f"{who} draws, keeping the Pigeon."


def _opening_words(steps: Sequence[Step]) -> str:
    laid: dict[int, list[str]] = defaultdict(list)
    for step in steps:
        if step.after is not None:
            laid[step.player].append(step.after.piles[-1].label)
    parts = [f"{_who(seat)} laid {'pile' if len(ls) == 1 else 'piles'} {' and '.join(ls)}"
             for seat, ls in sorted(laid.items())]
    return f"The table after the opening: {', '.join(parts)}."


def caption(r: Replay) -> str:
    opening = [s for s in r.steps if s.kind == "opening"]
    words = [_opening_words(opening)] if opening else []
    words += [_step_words(s) for s in r.steps if s.kind != "opening"]
    final = r.final
    if final.winner is not None:
        if final.win_reason == NO_MOVE:
            loser = 1 - final.winner
            held = cards_words(final.seats[loser].hand)
            words.append(f"{_who(loser)}, holding {held}, has no legal move: "
                         f"{_who(final.winner)} wins.")
        else:
            words.append(f"{_who(final.winner)} draws the last card of their deck and wins.")
    return " ".join(words) or "The table."
