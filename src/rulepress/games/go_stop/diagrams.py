"""SVG diagrams of a worked example, the cards drawn as the print-and-play kit prints them.

One convention for every example. A turn is drawn in the stages the rules give it, left to
right, each arrow named for its step: the table before, then **play** (the card from the hand
goes below its match, making a column of two), **draw** (the stock's top card goes below its
own match), **take** (every column of two or four leaves for the player's storage, its place
dashed). Another player's turn is one stage, named for that player.

A card is the kit's: its number at the top left, its value at the top right on the colour of
its band, the band at its foot with the value again. A column is its cards laid over one
another downwards, the row card at the top and the card placed last whole at the bottom, so
every card's number and value show; a three-card column carries its owner's player token. The
cards placed in a stage are ringed. Under the row lie the hand about to play (first stage) or
what the player takes and the junk the others give; under that, when the example turns on
them, the player's reserve and additional point cards, passes and points; above the stages,
when it counts points, the storage it counts. Examples without a move show the row and the
hands of a deal, or the storages, cards sorted by value.

Cheap to draw: each kind of mark is one SVG element however many cards there are (the card
faces, each band colour, the numbers, the value letters); the words are in the caption.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from html import escape

from rulepress.games.go_stop.cards import (
    MONTH_MASK,
    VALUES,
    cards_in,
    mask_of,
    month_of,
    value_of,
)
from rulepress.games.go_stop.examples import Replay
from rulepress.games.go_stop.rules import (
    ANIMAL_RESERVE,
    ANIMAL_RESERVE_AT,
    DECIDE,
    DRAW,
    EMPTY_ROW,
    Move,
    State,
    step,
)
from rulepress.games.go_stop.style import CLASS_STYLE, INK, LINE, PAPER, PLAYER_STYLES
from rulepress.plugin import DIAGRAM_FONT, PHONE_PX, Figure, Lettering, Marks, derive, text_width

CW, CH, RADIUS = 30, 47, 3  # a card, px: the kit's hwatu card (33 x 54 mm) in small
STRIP = 15  # the top of a card covered in a column: its number and value
FAN = 16  # cards side by side in a hand or storage: each shows its number and its band's value
BAND = 11  # the value band at a card's foot
GAP = 4  # between places in the row
CLASS_GAP = 6  # between the kinds of card in a storage
ARROW = 40
LABEL = 13  # a label line above a hand or storage
STATUS = 20  # the line of reserve cards, point cards and points
SPACE = 6  # between the row, the cards under it and the status line
LINE_GAP = 8  # between two lines of stages
GROUP_GAP = 7  # between the labelled groups of cards under a row
MAX_WIDTH = 600  # a little under the text width of an A4 or Letter page, px
NARROW_WIDTH = 1  # a phone's: one stage to a line (its smallest label, 9 px, at 1:1)
MARGIN = 6

NUMBER_SIZE, VALUE_SIZE, WORD_SIZE = 11, 9, 10
RING = "#1f5f6b"  # the ring around the cards just placed
RESERVE_HUE, POINT_HUE = "#5b2c83", "#1f6f5c"  # the kit's reserve and additional point cards


# Every kind of mark is one <path>, drawn in this order.
PATH_STYLES = {
    "face": f'fill="{PAPER}" stroke="{LINE}" stroke-width="0.8"',
    "edge": f'fill="none" stroke="{LINE}" stroke-width="0.8"',
    **{f"band-{k}": f'fill="{band}"' for k, (band, _, _) in CLASS_STYLE.items()},
    "ring": f'fill="none" stroke="{RING}" stroke-width="2.2"',
    "arrow": f'fill="none" stroke="{LINE}" stroke-width="1.6" stroke-linejoin="round"',
    "refused": 'fill="none" stroke="#b3261e" stroke-width="2.2" stroke-linecap="round"',
    "reserve": f'fill="{RESERVE_HUE}"',
    "point": f'fill="{POINT_HUE}"',
    **{f"token-{p}": f'fill="{hue}" stroke="{INK}" stroke-width="0.8"'
       for p, (hue, _) in enumerate(PLAYER_STYLES)},
}
WHITE, QUIET = "#ffffff", "#5f594f"


class Ink(Marks):
    """A figure's marks gathered by kind: each path kind, and each colour of card lettering,
    becomes one SVG element; the few words are a text element each."""

    def __init__(self) -> None:
        super().__init__()
        self.letters: dict[str, Lettering] = {}
        self.words: list[str] = []

    def letter(self, x: float, y: float, s: str, fill: str) -> None:
        """Card lettering (numbers, values) in bold, its baseline starting at (x, y)."""
        if fill not in self.letters:
            self.letters[fill] = Lettering(VALUE_SIZE, bold=True)
        self.letters[fill].add(x, y, s, size=_size(s))

    def word(self, x: float, y: float, s: str, fill: str = INK, anchor: str = "start") -> None:
        at = "" if anchor == "start" else f' text-anchor="{anchor}"'
        self.words.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="{WORD_SIZE}" '
                          f'fill="{fill}"{at}>{escape(s)}</text>')

    def svg(self, width: float, height: float) -> str:
        body = self.elements(PATH_STYLES)
        body += [lettering.svg(f'font-weight="bold" font-size="{VALUE_SIZE}" fill="{fill}"')
                 for fill, lettering in self.letters.items()]
        body += self.words
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
                f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
                f'font-family="{DIAGRAM_FONT}">{"".join(body)}</svg>')


def _size(s: str) -> float:
    """Numbers print larger than values (a value always holds a letter)."""
    return NUMBER_SIZE if s.isdigit() else VALUE_SIZE


def lettering_width(s: str, size: float) -> float:
    return text_width(s, size, bold=True)


def word_width(s: str) -> float:
    """A generous estimate of a word's width: the layout only needs room for it."""
    return len(s) * WORD_SIZE * 0.52


# --- cards ------------------------------------------------------------------------------------


def _rounded(x: float, y: float, w: float, h: float, r: float = RADIUS) -> str:
    """A rounded rectangle as one subpath (the corners as quadratic curves: cheap to draw)."""
    return (f"M{x + r:.1f},{y:.1f}h{w - 2 * r:.1f}q{r},0 {r},{r}v{h - 2 * r:.1f}"
            f"q0,{r} {-r},{r}h{2 * r - w:.1f}q{-r},0 {-r},{-r}v{2 * r - h:.1f}q0,{-r} {r},{-r}Z")


def _box(x: float, y: float, w: float, h: float) -> str:
    return f"M{x:.1f},{y:.1f}h{w:.1f}v{h:.1f}h{-w:.1f}Z"


def _lettering(card: int) -> tuple[str, str, str]:
    """(band kind, what the card prints as its value, the colour of that text)."""
    value = value_of(card)
    kind = value[0]
    return kind, value, WHITE if CLASS_STYLE[kind][1] == WHITE else INK


def _corner(ink: Ink, x: float, y: float, card: int) -> None:
    """The top of a card: its number, and its value on a patch of its band's colour."""
    kind, value, fill = _lettering(card)
    ink.letter(x + 2.5, y + 11, str(month_of(card)), INK)
    w = lettering_width(value, VALUE_SIZE) + 3
    ink.path(f"band-{kind}", _box(x + CW - 2 - w, y + 2, w, 11.5))
    ink.letter(x + CW - 2 - w + 1.5, y + 10.8, value, fill)


def _foot(ink: Ink, x: float, y: float, card: int, width: float) -> None:
    """The band at a card's foot, ``width`` of it showing. A card half covered in a hand or a
    storage shows its value there; a whole card only in its top corner (WeasyPrint lays out
    every letter on its own, so each one saved counts)."""
    kind, value, fill = _lettering(card)
    ink.path(f"band-{kind}", _box(x + 0.4, y + CH - BAND - 0.4, width - 0.8, BAND))
    if width < CW:
        ink.letter(x + 2.5, y + CH - 3, value, fill)


def column(ink: Ink, x: float, y: float, cards: Sequence[int]) -> None:
    """Cards laid downwards over one another, the last one whole."""
    n = len(cards)
    ink.path("face", _rounded(x, y, CW, CH + (n - 1) * STRIP))
    for i, card in enumerate(cards):
        top = y + i * STRIP
        if i:  # the top edge of a card lying over the one before
            ink.path("edge", f"M{x:.1f},{top + RADIUS:.1f}q0,{-RADIUS} {RADIUS},{-RADIUS}"
                             f"h{CW - 2 * RADIUS:.1f}q{RADIUS},0 {RADIUS},{RADIUS}")
        _corner(ink, x, top, card)
    _foot(ink, x, y + (n - 1) * STRIP, cards[-1], CW)


def fan(ink: Ink, x: float, y: float, cards: Sequence[int], gaps: Sequence[int] = ()) -> float:
    """Cards side by side, each over the left part of the one before, the last one whole;
    a gap opens before the cards at the indices ``gaps``. Returns the width."""
    left = x
    for i, card in enumerate(cards):
        if i in gaps:
            left += CW - FAN + CLASS_GAP
        last = i == len(cards) - 1 or i + 1 in gaps
        ink.path("face", _rounded(left, y, CW, CH))
        if last:
            _corner(ink, left, y, card)
        else:
            ink.letter(left + 2.5, y + 11, str(month_of(card)), INK)
        _foot(ink, left, y, card, CW if last else FAN)
        left += CW if last else FAN
    return left - x


def fan_width(cards: Sequence[int], gaps: Sequence[int] = ()) -> float:
    return (len(cards) - 1) * FAN + CW + len(gaps) * (CW - FAN + CLASS_GAP) if cards else 0


def _token(ink: Ink, cx: float, cy: float, player: int) -> None:
    """The kit's player token: the player's shape and colour, their number in white."""
    shape = PLAYER_STYLES[player][1]
    r = 7.5
    if shape == "circle":
        d = (f"M{cx - r:.1f},{cy:.1f}a{r},{r} 0 1,0 {2 * r},0a{r},{r} 0 1,0 {-2 * r},0Z")
    elif shape == "square":
        d = _box(cx - r + 0.5, cy - r + 0.5, 2 * r - 1, 2 * r - 1)
    else:
        d = f"M{cx:.1f},{cy - r - 1.5:.1f}l{r + 1.5},{2 * r}h{-2 * r - 3}Z"
    ink.path(f"token-{player}", d)
    ink.letter(cx - lettering_width(str(player + 1), NUMBER_SIZE) / 2, cy + 4.3,
               str(player + 1), WHITE)


def sorted_by_value(cards: Sequence[int]) -> tuple[list[int], list[int]]:
    """Cards in storage order (brights, animals, ribbons, junk; by value, then number) and
    the indices where a new kind starts."""
    order = sorted(cards, key=lambda c: (VALUES.index(value_of(c)), c))
    gaps = [i for i in range(1, len(order))
            if value_of(order[i])[0] != value_of(order[i - 1])[0]]
    return order, gaps


# --- the stages of a turn ---------------------------------------------------------------------

Place = tuple[int, ...]  # a place in the row: its cards, the row card first
Under = tuple[tuple[str, tuple[int, ...]], ...]  # labelled cards under the row
Events = tuple[tuple[int, str, object], ...]


@dataclass(frozen=True)
class Stage:
    step: str  # the name of the arrow into it ("" for the table before)
    places: tuple[Place, ...]
    owners: tuple[int, ...]  # by number: the player whose token is on its column, or -1
    state: State  # the status line's figures
    new: frozenset[int] = frozenset()  # cards placed in this stage: ringed
    under: Under = ()
    said: str = ""  # go or stop, said at the end of this stage's turn
    words: str = ""  # what happens in it, for the caption
    opens: bool = False  # a turn starts with it: the caption starts a sentence
    player: int = -1  # whose turn it shows (-1: the table before, the focus player's)


def _places(row: int) -> tuple[Place, ...]:
    """The row, number by number: three cards of a number lie together, others each alone."""
    out: list[Place] = []
    for m in range(12):
        here = tuple(cards_in(row & MONTH_MASK[m]))
        out += [here] if len(here) == 3 else [(c,) for c in here]
    return tuple(out)


def _laid(places: tuple[Place, ...], cards: Sequence[int], below: int) -> tuple[Place, ...]:
    """``cards`` laid below the place at index ``below``, or as a new place at the row's end
    when ``below`` is -1."""
    if below < 0:
        return (*places, tuple(cards))
    return tuple((*p, *cards) if i == below else p for i, p in enumerate(places))


def _match(places: tuple[Place, ...], card: int, target: int = -1) -> int:
    """The place a placed card goes below: the one holding ``target`` when the player named
    it, else the one of its number, else none (-1)."""
    for i, p in enumerate(places):
        if target in p or (target < 0 and p and month_of(p[0]) == month_of(card)):
            return i
    return -1


def _kept(places: tuple[Place, ...], row: int) -> tuple[Place, ...]:
    """The places with only the cards still in ``row``, emptied ones gone. Row cards in no
    place (another player's) go below their number's place, or at the row's end."""
    kept = tuple(p for p in (tuple(c for c in p if row >> c & 1) for p in places) if p)
    for c in cards_in(row):
        if not any(c in p for p in kept):
            kept = _laid(kept, [c], _match(kept, c))
    return kept


def _placing(before: State, after: State) -> State:
    """The state told under a card just placed: the passes as the play left them (a bomb
    earns two, a pass uses one), everything else as before the turn's end."""
    return derive(before, credits=after.credits)


def _who(p: int) -> str:
    return f"player {p + 1}"


def _taken(events: Events) -> list[int]:
    return [c for _, what, mask in events if what == "capture" and isinstance(mask, int)
            for c in cards_in(mask)]


def _given(events: Events) -> list[tuple[int, int]]:
    """(giver, card) of every junk card handed over for a bonus."""
    return [(detail[0], detail[1]) for _, what, detail in events
            if what == "receive" and isinstance(detail, tuple)]


class Turns:
    """The stages of an example's moves, built one move at a time: the turns of the player
    about to play in full (play, draw, take), another player's turn as one stage."""

    def __init__(self, start: State) -> None:
        self.focus = start.to_move
        self.state = start
        self.places = _places(start.row)
        hand = tuple(cards_in(start.hands[self.focus]))
        under = ((f"{_who(self.focus).capitalize()} holds", hand),) if hand else ()
        self.stages = [Stage("", self.places, start.owners, start, under=under)]
        self.played = -1  # the place of the card played this turn, if any
        self.lead = "draws"  # how the draw of this turn is told: after a pass, "passes and draws"
        self.other: list[tuple[Move, Events]] = []  # another player's turn so far
        self.opening = True  # the next stage starts a turn
        self.turn_start = 1  # the index of the first stage of the current turn
        self.turn_owners = start.owners  # the three-card columns as the turn began

    def add(self, move: Move) -> None:
        before = self.state
        after, events = step(before, move)
        self.state = after
        p = before.to_move
        if self.opening:
            self.turn_start, self.turn_owners = len(self.stages), before.owners
        if p != self.focus:
            self.other.append((move, events))
            if after.to_move != p or after.is_over():
                self._other_turn(p, after)
        elif move.kind in ("go", "stop"):
            last = self.stages[-1]
            self.stages[-1] = replace(last, state=after, said=move.kind,
                                      words=f"{last.words}, then says {move.kind}")
        elif move.kind == "shake":
            three = tuple(cards_in(before.hands[p] & MONTH_MASK[move.month - 1]))
            self._add("shake", self.places, before.owners, after, under=(("shown", three),),
                      words=f"shows the three {move.month}s and takes a reserve card")
            return  # the turn goes on with the play
        else:
            if before.phase == DRAW:
                assert before.pending is not None
                self._draw(before.pending[2], move.target, before, after)
            else:
                self._play(move, before, after, events)
            if after.phase != DRAW:
                self._take(p, after, events)
        self.opening = after.to_move != p or before.phase == DECIDE
        if p == self.focus and (self.opening or after.is_over()):
            self._end_turn(p, after)

    def _end_turn(self, p: int, after: State) -> None:
        """A later turn of the player that takes nothing and makes no column is one stage,
        as another player's turn is."""
        turn = self.stages[self.turn_start:]
        made = any(a == p != b for a, b in zip(after.owners, self.turn_owners, strict=True))
        if self.turn_start > 1 and turn and not made and all(s.step != "take" for s in turn):
            last = turn[-1]
            new = frozenset(c for s in turn for c in s.new)
            self.stages[self.turn_start:] = [
                Stage(_who(p), last.places, last.owners, last.state, new,
                      words=_and([s.words for s in turn]), opens=True, player=p)]

    def _add(self, name: str, places: tuple[Place, ...], owners: tuple[int, ...], state: State,
             *, new: frozenset[int] = frozenset(), under: Under = (), words: str = "",
             player: int = -1) -> None:
        self.places = places
        mover = self.focus if player < 0 else player
        self.stages.append(Stage(name, places, owners, state, new, under, "", words,
                                 self.opening, mover))
        self.opening = False

    def _play(self, move: Move, before: State, after: State, events: Events) -> None:
        self.played, self.lead = -1, "draws"
        if move.kind == "pass":
            self.lead = "passes and draws"
        else:
            if move.kind == "bomb":
                cards = cards_in(before.hands[before.to_move] & MONTH_MASK[move.month - 1])
                what = f"throws the three {move.month}s"
            else:
                cards = [move.card]
                what = f"plays {card_words(move.card)}"
            below = _match(self.places, cards[0], move.target)
            what += " " + self._where(below)
            placed = _laid(self.places, cards, below)
            self.played = below if below >= 0 else len(placed) - 1
            self._add(move.kind if move.kind == "bomb" else "play", placed, before.owners,
                      _placing(before, after), new=frozenset(cards), words=what)
        drawn = [d for _, what, d in events if what == "draw" and isinstance(d, int)]
        if drawn and after.phase != DRAW:
            self._draw(drawn[0], -1, before, after)

    def _where(self, i: int) -> str:
        if i < 0:
            return "into the row"
        place = self.places[i]
        if len(place) == 3:
            return f"onto the three {month_of(place[0])}s"
        return f"below {card_words(place[-1])}"

    def _draw(self, d: int, target: int, before: State, after: State) -> None:
        """The drawn card goes below the card just played when of its number, else below the
        card the player named, else below its number's place, else at the row's end."""
        mine = self.played >= 0 and month_of(self.places[self.played][0]) == month_of(d)
        below = self.played if mine else _match(self.places, d, target)
        where = self._where(below)
        places = _laid(self.places, [d], below)
        if below >= 0 and after.owners[month_of(d) - 1] >= 0 and len(places[below]) == 3:
            where += ", making a three-card column"
        # A column this draw makes shows its new token; one taken keeps its token till taken.
        owners = tuple(a if a >= 0 else b for a, b in zip(after.owners, before.owners,
                                                          strict=True))
        self._add("draw", places, owners, _placing(before, after), new=frozenset({d}),
                  words=f"{self.lead} {card_words(d)} {where}")

    def _take(self, p: int, after: State, events: Events) -> None:
        taken = _taken(events)
        if not taken:
            return
        given = _given(events)
        under = [(f"{_who(p).capitalize()} takes", tuple(sorted_by_value(taken)[0]))]
        if given:
            under.append(("given", tuple(c for _, c in given)))
        words = f"takes {_count(len(taken))}"
        for q in sorted({q for q, _ in given}):
            cards = tuple(c for g, c in given if g == q)
            words += f"; {_who(q)} gives " + " and ".join(map(card_words, cards))
        happened = {what for _, what, _ in events}
        if EMPTY_ROW in happened:
            words += ", for the empty row"
        if ANIMAL_RESERVE in happened:
            words += f"; the {ANIMAL_RESERVE_AT}th animal brings a reserve card"
        self._add("take", _kept(self.places, after.row), after.owners, after,
                  under=tuple(under), words=words)

    def _other_turn(self, p: int, after: State) -> None:
        taken = [c for _, events in self.other for c in _taken(events)]
        played = [m.card for m, _ in self.other if m.kind == "card"][:1]
        words = f"plays {card_words(played[0])}" if played else "plays"
        under: Under = ()
        if taken:
            words += f" and takes {_count(len(taken))}"
            under = ((f"{_who(p).capitalize()} takes", tuple(sorted_by_value(taken)[0])),)
        before = {c for place in self.places for c in place}
        places = _kept(self.places, after.row)
        new = frozenset(c for place in places for c in place) - before
        self.opening = True
        self._add(_who(p), places, after.owners, after, new=new, under=under, words=words,
                  player=p)
        self.other = []


def _count(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


VALUE_WORDS = {"A": "bright", "B+": "bird", "B": "animal", "C+": "red ribbon",
               "C": "blue ribbon", "C-": "grass ribbon", "C--": "plain ribbon", "D": "junk",
               "D+": "double junk"}


def card_words(card: int) -> str:
    """'the 8 bright', 'a 2 junk', 'an 11 junk': a card one of its kind takes 'the'."""
    month, value = month_of(card), value_of(card)
    article = ("an" if month in (8, 11) else "a") if value == "D" else "the"
    return f"{article} {month} {VALUE_WORDS[value]}"


def _move_words(move: str) -> str:
    """A refused move in words (the player edition prints no notation)."""
    head, _, rest = move.partition(" ")
    if head in ("go", "stop", "pass"):
        return f"saying {head}" if head != "pass" else "passing"
    if head in ("shake", "bomb"):
        return f"{'shaking' if head == 'shake' else 'throwing'} the {int(rest)}s"
    card = Move.parse(move)
    return f"playing {card_words(card.card)}"


# --- laying out a figure ----------------------------------------------------------------------


def _row_size(places: Sequence[Place]) -> tuple[float, float]:
    if not places:
        return word_width("empty row"), CH
    longest = max(len(p) for p in places)
    return len(places) * (CW + GAP) - GAP, CH + max(longest - 1, 0) * STRIP


def _under_width(under: Under) -> float:
    return sum(max(word_width(label), fan_width(cards)) + GROUP_GAP
               for label, cards in under) - GROUP_GAP


def _status_words(stage: Stage, p: int, points: bool) -> str:
    s = stage.state
    parts = []
    if s.credits[p]:
        parts.append(f"{s.credits[p]} pass" + ("es" if s.credits[p] > 1 else ""))
    if points:
        told = f"{s.current_points(p)} points"
        if stage.said == "stop":
            told += f", stop: ×{2 ** s.reserves[p]} = {s.final_score(p)}"
        elif stage.said == "go":
            told += ", go"
        elif s.phase == DECIDE and s.to_move == p:
            told += ": go or stop" if len(s.legal_moves()) == 2 else ": stop only"
        parts.append(told)
    return ", ".join(parts)


def _markers(ink: Ink | None, x: float, y: float, reserves: int, additional: int) -> float:
    """Reserve cards (×2) and additional point cards (+1), small, in the kit's colours;
    returns the width (draws nothing without ``ink``)."""
    left = x
    for kind, count, mark in (("reserve", reserves, "×2"), ("point", additional, "+1")):
        for _ in range(count):
            if ink is not None:
                ink.path(kind, _rounded(left, y, 16, 20, 2))
                ink.letter(left + 8 - lettering_width(mark, VALUE_SIZE) / 2, y + 14, mark, WHITE)
            left += 19
    return left - x


def _status(ink: Ink | None, x: float, y: float, stage: Stage, p: int, points: bool) -> float:
    """The player's reserve and additional point cards, then passes and points in words;
    returns the width (draws nothing without ``ink``)."""
    s = stage.state
    left = x + _markers(ink, x, y, s.reserves[p], s.additional(p))
    words = _status_words(stage, p, points)
    if words:
        if ink is not None:
            ink.word(left + 3, y + 14, words)
        left += 3 + word_width(words)
    return left - x


def _draw_row(ink: Ink, x: float, y: float, places: Sequence[Place], owners: Sequence[int],
              new: frozenset[int] = frozenset()) -> None:
    if not places:
        ink.word(x, y + CH / 2 + 4, "empty row", QUIET)
    for i, place in enumerate(places):
        left = x + i * (CW + GAP)
        column(ink, left, y, place)
        fresh = [k for k, c in enumerate(place) if c in new]
        if fresh:
            top = y + fresh[0] * STRIP
            ink.path("ring", _rounded(left - 2, top - 2, CW + 4,
                                      CH + (len(place) - 1 - fresh[0]) * STRIP + 4, RADIUS + 1))
        owner = owners[month_of(place[0]) - 1]
        if len(place) == 3 and owner >= 0:
            _token(ink, left + CW / 2, y + 2 * STRIP + CH / 2 - 1, owner)


def _draw_under(ink: Ink, x: float, y: float, under: Under) -> None:
    for label, cards in under:
        ink.word(x, y + 10.5, label, QUIET)
        fan(ink, x, y + LABEL, cards)
        x += max(word_width(label), fan_width(cards)) + GROUP_GAP


def _arrow(ink: Ink, x: float, y: float, name: str) -> None:
    """An arrow into a stage at height ``y``, named for the step above it."""
    ink.path("arrow", f"M{x + 5:.1f},{y:.1f}h{ARROW - 10}m-6,-5l6,5l-6,5")
    ink.word(x + ARROW / 2, y - 7, name, QUIET, anchor="middle")


def _lines(widths: Sequence[float], max_width: float = MAX_WIDTH) -> list[int]:
    """How many stages each line of the figure holds: as few lines as ``max_width`` allows, as
    even as they can be (a line after the first starts with its arrow)."""

    def greedy(limit: float) -> list[int]:
        counts, x = [0], -float(ARROW)
        for w in widths:
            if counts[-1] and x + ARROW + w > limit:
                counts.append(0)
                x = -float(ARROW)
            counts[-1] += 1
            x += ARROW + w
        return counts

    lines = len(greedy(max_width))
    low, high = max(widths), float(max_width)
    while high - low > 1:  # the narrowest limit that needs no more lines
        mid = (low + high) / 2
        low, high = (low, mid) if len(greedy(mid)) <= lines else (mid, high)
    return greedy(high)


def turn_figure(stages: Sequence[Stage], p: int, points: bool,
                max_width: float = MAX_WIDTH, head: Line | None = None) -> str:
    """The stages in lines; under each stage its row, the cards under the row, and the
    status line of player ``p`` where it changed since their last stage (the first stage's
    always, when the example has one). Only under ``p``'s own stages: under another player's
    turn it would read as that player's. ``head``, drawn above the stages: the storage whose
    points the example counts."""
    told = [(s.state.reserves[p], s.state.additional(p), _status_words(s, p, points))
            for s in stages]
    ours = [k for k, s in enumerate(stages) if s.player in (-1, p)]
    status = [False] * len(stages)
    for before, k in zip([-1, *ours], ours, strict=False):
        status[k] = any(told[k]) and (before < 0 or told[k] != told[before])
    rows = [_row_size(s.places) for s in stages]
    widths = [max(w, _under_width(s.under), _status(None, 0, 0, s, p, points) if shown else 0)
              for s, (w, _), shown in zip(stages, rows, status, strict=True)]
    ink = Ink()
    width, y, i = 0.0, float(MARGIN), 0
    if head is not None:
        w, h = _draw_line(ink, y, head, max_width)
        width, y = MARGIN + w, y + LABEL + h + LINE_GAP
    for count in _lines(widths, max_width):
        line = range(i, i + count)
        row_h = max(rows[k][1] for k in line)
        under_h = SPACE + LABEL + CH if any(stages[k].under for k in line) else 0
        status_h = SPACE + STATUS if any(status[k] for k in line) else 0
        x = float(MARGIN)
        for k in line:
            stage = stages[k]
            if stage.step:
                _arrow(ink, x, y + CH / 2, stage.step)
                x += ARROW
            _draw_row(ink, x, y, stage.places, stage.owners, stage.new)
            _draw_under(ink, x, y + row_h + SPACE, stage.under)
            if status[k]:
                _status(ink, x, y + row_h + under_h + SPACE, stage, p, points)
            x += widths[k]
        width, i = max(width, x), i + count
        y += row_h + under_h + status_h + LINE_GAP
    return ink.svg(width + MARGIN, y - LINE_GAP + MARGIN)


@dataclass(frozen=True)
class Line:
    """A line of a figure without moves: a label over the row, a hand or a storage."""

    label: str
    cards: tuple[int, ...]
    row: bool = False  # the row's places, else the cards fanned
    storage: bool = False  # sorted by value, with the player's reserve and point cards
    reserves: int = 0
    additional: int = 0


def sheet_figure(lines: Sequence[Line], max_width: float = MAX_WIDTH) -> str:
    """Lines one under another, each a label over the row's places or over fanned cards; a
    storage wider than ``max_width`` has each kind of card on a line of its own."""
    ink = Ink()
    y = float(MARGIN)
    width = 0.0
    for line in lines:
        w, h = _draw_line(ink, y, line, max_width)
        width = max(width, w)
        y += LABEL + h + SPACE
    return ink.svg(width + 2 * MARGIN, y - SPACE + MARGIN)


def _draw_line(ink: Ink, y: float, line: Line, max_width: float) -> tuple[float, float]:
    """``line``'s label at ``y`` and its cards under it; returns their width and the cards'
    height."""
    ink.word(MARGIN, y + 10.5, line.label, QUIET)
    y += LABEL
    if line.row:
        places = _places(mask_of(line.cards))
        _draw_row(ink, MARGIN, y, places, (-1,) * 12)
        w, h = _row_size(places)
        return max(w, word_width(line.label)), h
    order, gaps = sorted_by_value(line.cards) if line.storage else (line.cards, [])
    above, kinds = 0.0, 0.0  # the kinds drawn on lines of their own
    if line.storage and gaps and fan_width(order, gaps) > max_width:
        for start, end in zip([0, *gaps], gaps, strict=False):  # all but the last kind
            kinds = max(kinds, fan(ink, MARGIN, y + above, order[start:end]))
            above += CH + SPACE
        order, gaps = order[gaps[-1]:], []
    w = fan(ink, MARGIN, y + above, order, gaps)
    if line.reserves or line.additional:
        w += 8 + _markers(ink, MARGIN + w + 8, y + above + CH - 20, line.reserves,
                          line.additional)
    return max(w, kinds, word_width(line.label)), above + CH


# --- the figure of an example -----------------------------------------------------------------


def stages(r: Replay) -> list[Stage]:
    """The table before the example's moves, then each stage of its turns."""
    turns = Turns(r.before)
    for move in r.moves:
        turns.add(move)
    return turns.stages


def figures(r: Replay) -> list[Figure]:
    if not r.moves:
        return [_still(r)]
    drawn, p = stages(r), r.before.to_move
    points = any(s.said or s.state.gos[p] or (s.state.phase == DECIDE and s.state.to_move == p)
                 for s in drawn)
    # An example that counts points shows the storage it counts, not just the total.
    store = cards_in(r.before.stores[p]) if points else []
    head = Line(f"Storage of {_who(p)} before the turn", tuple(store), storage=True) \
        if store else None
    wide, narrow = (turn_figure(drawn, p, points, w, head) for w in (MAX_WIDTH, NARROW_WIDTH))
    caption = _caption(drawn, p, r)
    if head is not None:
        caption = f"{head.label}: {_kinds(head.cards)}. {caption}"
    return [Figure(caption, wide, "" if narrow == wide else narrow)]


def _still(r: Replay) -> Figure:
    """An example without a move: the row and hands of a deal, or the storages."""
    s = r.before
    lines: list[Line] = []
    if s.row:
        # A deal shows every hand; a refused first move, the hand of the player to move.
        seats = range(s.players) if r.after.is_over() else (s.to_move,)
        lines.append(Line("Row", tuple(cards_in(s.row)), row=True))
        lines += [Line(f"{_who(p).capitalize()} holds", tuple(cards_in(s.hands[p])))
                  for p in seats if s.hands[p]]
    else:
        lines += [Line(f"Storage of {_who(p)}", tuple(cards_in(s.stores[p])), storage=True,
                       reserves=s.reserves[p], additional=s.additional(p))
                  for p in range(s.players) if s.stores[p]]
    words = [f"{line.label.lower()}: {_kinds(line.cards)}{_held(line)}" for line in lines
             if not line.row]
    if s.row:
        words.insert(0, f"the row holds {_kinds(cards_in(s.row))}")
    if r.illegal is not None:
        words.append(f"{_move_words(r.illegal[0])} is refused ({r.illegal[1]})")
    text = "; ".join(words)
    wide, narrow = sheet_figure(lines), sheet_figure(lines, PHONE_PX)
    return Figure(text[0].upper() + text[1:] + "." + _ending(r.after), wide,
                  "" if narrow == wide else narrow)


def _held(line: Line) -> str:
    """', with 1 reserve card and 1 additional point card' (what a storage line shows)."""
    held = [f"{n} {what}" + ("s" if n > 1 else "") for n, what in
            ((line.reserves, "reserve card"), (line.additional, "additional point card")) if n]
    return f", with {_and(held)}" if held else ""


def _kinds(cards: Sequence[int]) -> str:
    """'3 brights, 1 bird and 9 junk'."""
    counts: dict[str, int] = defaultdict(int)
    for c in sorted(cards, key=lambda c: VALUES.index(value_of(c))):
        counts[VALUE_WORDS[value_of(c)]] += 1
    told = [f"{n} {w}" + ("s" if n > 1 and not w.endswith("junk") else "")
            for w, n in counts.items()]
    return told[0] if len(told) == 1 else ", ".join(told[:-1]) + " and " + told[-1]


def _caption(stages: Sequence[Stage], p: int, r: Replay) -> str:
    """A sentence for each turn: 'Player 1 plays ..., draws ... and takes 4 cards.'"""
    turns: list[tuple[str, list[str]]] = []
    for stage in stages[1:]:
        if stage.opens or not turns:
            who = stage.step if stage.step.startswith("player") else _who(p)
            turns.append((who.capitalize(), []))
        turns[-1][1].append(stage.words)
    text = [f"{who} {_and(parts)}." for who, parts in turns]
    if r.illegal is not None:
        text.append(f"{_move_words(r.illegal[0]).capitalize()} is refused ({r.illegal[1]}).")
    return " ".join(text) + _ending(r.after)


def _and(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _ending(s: State) -> str:
    """How the game ended, if it did, in the words of the rules."""
    outcome = s.outcome()
    if outcome is None:
        return ""
    winner = f", and {_who(s.winner)} wins" if s.winner >= 0 else ""
    return f" The game ends ({outcome.reason}){winner}."
