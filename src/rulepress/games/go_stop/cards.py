"""The 48 player cards: twelve numbers (months) of four cards, each with one value.

A card is an int 0..47: ``(number - 1) * 4 + slot``. Sets of cards are bit masks, so a pile
of captured cards is scored with a handful of popcounts. Notation: two-digit number + value,
``08A`` (the month-8 bright), ``08B+`` (the geese); two plain junk cards of one number are told
apart by a letter, ``08Da`` and ``08Db``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulepress.plugin import NotationError

# Month by month, slot by slot: the standard hwatu deck in the seed's value letters.
DECK_TABLE: tuple[tuple[str, str, str, str], ...] = (
    ("A", "C+", "Da", "Db"),  # 1 pine: crane bright, red poetry ribbon
    ("B+", "C+", "Da", "Db"),  # 2 plum: bush warbler (godori bird), red poetry ribbon
    ("A", "C+", "Da", "Db"),  # 3 cherry: curtain bright, red poetry ribbon
    ("B+", "C-", "Da", "Db"),  # 4 wisteria: cuckoo (godori bird), grass ribbon
    ("B", "C-", "Da", "Db"),  # 5 iris: bridge, grass ribbon
    ("B", "C", "Da", "Db"),  # 6 peony: butterflies, blue ribbon
    ("B", "C-", "Da", "Db"),  # 7 bush clover: boar, grass ribbon
    ("A", "B+", "Da", "Db"),  # 8 pampas: full moon bright, geese (godori birds)
    ("B", "C", "Da", "Db"),  # 9 chrysanthemum: sake cup, blue ribbon
    ("B", "C", "Da", "Db"),  # 10 maple: deer, blue ribbon
    ("A", "Da", "Db", "D+"),  # 11 paulownia: phoenix bright, double junk
    ("A", "B", "C--", "D+"),  # 12 willow in rain: rain bright, swallow, plain ribbon, double junk
)

MONTH_NAMES = (
    "pine",
    "plum",
    "cherry",
    "wisteria",
    "iris",
    "peony",
    "bush clover",
    "pampas and moon",
    "chrysanthemum",
    "maple",
    "paulownia",
    "willow in rain",
)

# What each card shows, for the rules' table and the card faces.
CARD_SUBJECTS: tuple[tuple[str, str, str, str], ...] = (
    ("crane and sun", "red poetry ribbon", "junk", "junk"),
    ("bush warbler", "red poetry ribbon", "junk", "junk"),
    ("cherry curtain", "red poetry ribbon", "junk", "junk"),
    ("cuckoo", "grass ribbon", "junk", "junk"),
    ("bridge", "grass ribbon", "junk", "junk"),
    ("butterflies", "blue ribbon", "junk", "junk"),
    ("boar", "grass ribbon", "junk", "junk"),
    ("full moon", "three geese", "junk", "junk"),
    ("sake cup", "blue ribbon", "junk", "junk"),
    ("deer", "blue ribbon", "junk", "junk"),
    ("phoenix", "junk", "junk", "double junk"),
    ("rain man", "swallow", "plain ribbon", "double junk"),
)

CARDS = 48
MASK_BYTES = CARDS // 8  # a set of cards as bytes: two numbers a byte, low nibble first
VALUES = ("A", "B+", "B", "C+", "C", "C-", "C--", "D", "D+")


def month_of(card: int) -> int:
    """1..12."""
    return card // 4 + 1


def value_of(card: int) -> str:
    """The value class: A, B+, B, C+, C, C-, C--, D or D+ (Da/Db are both D)."""
    v = DECK_TABLE[card // 4][card % 4]
    return "D" if v in ("Da", "Db") else v


def card_text(card: int) -> str:
    return f"{card // 4 + 1:02d}{DECK_TABLE[card // 4][card % 4]}"


_BY_TEXT = {card_text(c): c for c in range(CARDS)}


def parse_card(text: object) -> int:
    """'08B+' -> the card; raises NotationError with a hint on anything else."""
    s = str(text).strip()
    if s in _BY_TEXT:
        return _BY_TEXT[s]
    if len(s) >= 2 and s[:2].isdigit() and 1 <= int(s[:2]) <= 12:
        month = int(s[:2])
        names = ", ".join(card_text((month - 1) * 4 + i) for i in range(4))
        raise NotationError(f"'{s}' is not a card of number {month}: its cards are {names}")
    raise NotationError(
        f"'{s}' is not a card: write a two-digit number and a value, e.g. 08A, 08B+, 01Da"
    )


def mask_of(cards: list[int] | tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_in(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def texts(mask: int) -> list[str]:
    return [card_text(c) for c in cards_in(mask)]


def _class_mask(*values: str) -> int:
    return mask_of([c for c in range(CARDS) if DECK_TABLE[c // 4][c % 4] in values])


MONTH_MASK: tuple[int, ...] = tuple(0b1111 << (4 * i) for i in range(12))
BRIGHTS = _class_mask("A")
BIRDS = _class_mask("B+")
ANIMALS = _class_mask("B", "B+")  # birds count as animals too (see Clarifications)
RED = _class_mask("C+")
BLUE = _class_mask("C")
GRASS = _class_mask("C-")
RIBBONS = _class_mask("C+", "C", "C-", "C--")
JUNK = _class_mask("Da", "Db")
DOUBLE_JUNK = _class_mask("D+")
ALL = (1 << CARDS) - 1


@dataclass(frozen=True)
class Points:
    """The points of one pile of cards, rule by rule."""

    brights: int
    animals: int
    birds: int
    ribbon_sets: int
    ribbons: int
    junk: int

    @property
    def total(self) -> int:
        return (
            self.brights + self.animals + self.birds + self.ribbon_sets + self.ribbons + self.junk
        )


def bright_points(n: int) -> int:
    return 15 if n >= 5 else (n if n >= 3 else 0)


def points_from_counts(
    brights: int, animals: int, birds: int, ribbons: int, sets: int, junk: int
) -> Points:
    """The scoring table: points for so many brights, animals (birds included), birds, ribbons,
    complete ribbon sets and junk (a D+ counted twice)."""
    return Points(
        brights=bright_points(brights),
        animals=max(0, animals - 4),
        birds=5 if birds == 3 else 0,
        ribbon_sets=3 * sets,
        ribbons=max(0, ribbons - 4),
        junk=max(0, junk - 9),
    )


_CLASSES = (BRIGHTS, ANIMALS, BIRDS, RIBBONS, RED, BLUE, GRASS)


def _counts(mask: int) -> tuple[int, ...]:
    """Brights, animals, birds, ribbons, red, blue and grass ribbons, junk (a D+ counts 2)."""
    junk = (mask & JUNK).bit_count() + 2 * (mask & DOUBLE_JUNK).bit_count()
    return (*((mask & c).bit_count() for c in _CLASSES), junk)


def points_of(mask: int) -> Points:
    brights, animals, birds, ribbons, red, blue, grass, junk = _counts(mask)
    sets = sum(n == 3 for n in (red, blue, grass))
    return points_from_counts(brights, animals, birds, ribbons, sets, junk)


# card_points, the hot path, without building the breakdown: a pile's counts are packed in one
# int, so that the counts of its bytes (two numbers each) add up field by field. From the low
# bit: brights (3 bits), animals (4), birds (2); ribbons (4), the red, blue and grass ribbons
# (2 each); junk (5). The total is then three table lookups, one per group of fields that
# score together, each table built from points_from_counts.
_SHIFTS = (0, 3, 7, 9, 13, 15, 17, 19)


def _packed(mask: int) -> int:
    return sum(n << s for n, s in zip(_counts(mask), _SHIFTS, strict=True))


# The packed counts of each byte's cards, byte by byte.
_C0, _C1, _C2, _C3, _C4, _C5 = (
    tuple(_packed(b << 8 * i) for b in range(256)) for i in range(MASK_BYTES)
)
_ANIMAL_POINTS = tuple(
    points_from_counts(x & 7, x >> 3 & 15, x >> 7, 0, 0, 0).total for x in range(1 << 9)
)
_RIBBON_POINTS = tuple(
    points_from_counts(0, 0, 0, x & 15, sum(x >> s & 3 == 3 for s in (4, 6, 8)), 0).total
    for x in range(1 << 10)
)
_JUNK_POINTS = tuple(points_from_counts(0, 0, 0, 0, 0, x).total for x in range(1 << 5))


def card_points(mask: int) -> int:
    """The same total as points_of(mask).total, from the packed counts (hot path)."""
    b0, b1, b2, b3, b4, b5 = mask.to_bytes(MASK_BYTES, "little")
    x = _C0[b0] + _C1[b1] + _C2[b2] + _C3[b3] + _C4[b4] + _C5[b5]
    return _ANIMAL_POINTS[x & 511] + _RIBBON_POINTS[x >> 9 & 1023] + _JUNK_POINTS[x >> 19]
