"""Worked examples: the YAML data of an ```example block -> a state, a replay, and facts.

Example data (all keys optional except where said; players are numbered 1, 2, 3 as their
tokens are; cards are written like ``08A``, ``08B+``, ``01Da``; numbers are plain integers)::

    seed: 12                 # a seeded deal instead of a setup (with ``players: 2`` or 3)
    setup:
      players: 2             # default: the number of hands
      to_move: 1             # whose turn it is (default 1)
      deal: true             # this is the deal: check the immediate ends first
      hands: {1: [08A, 05B], 2: [...]}     # hands (default: empty)
      row: [08Da, 03C+]      # cards lying in the row; three of a number form a group
      columns: [{owner: 2, cards: [05B, 05C-, 05Da]}]   # 3-card columns carrying a token
      stock: [11A, 09C]      # the face-down stock, top card first
      storage: {1: [...]}    # captured cards
      gos: {1: 1}            # gos already called (additional point cards = min(gos, 2))
      last_go: {1: 7}        # card points at the last go (default: the current card points)
      reserves: {1: 1}       # reserve cards held
      credits: {1: 2}        # bomb passes left
      shaken: {1: [5]}       # numbers already shaken
      animal_reserve: [1]    # players who already took the animal reserve card
    moves: [08A>08Da, shake 05, bomb 05, pass, go, stop]

Facts (keys by player number): legal, illegal_move, reason, result, winner, phase, to_move,
legal_moves, hands, row, columns, tokens, drawn, stock_left, captured, received, storage, counts,
points, scores, gos, additional, reserves, credits, bonuses, (seeded: dealer, redeals).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulepress.games.go_stop.cards import (
    ANIMALS,
    DOUBLE_JUNK,
    JUNK,
    MONTH_MASK,
    RIBBONS,
    VALUES,
    card_points,
    card_text,
    cards_in,
    mask_of,
    parse_card,
    points_of,
    texts,
    value_of,
)
from rulepress.games.go_stop.rules import (
    ANIMAL_RESERVE,
    ANIMAL_RESERVE_AT,
    BOMB,
    EMPTY_ROW,
    FOUR_IN_HAND,
    OTHER_COLUMN,
    OWN_COLUMN,
    PHASES,
    SHAKE,
    THREE_FOR_ONE,
    Move,
    State,
    deal,
    has_four,
    start,
    step,
)
from rulepress.plugin import AmbiguousMove, ExampleDataError, IllegalMove, NotationError, derive

BONUS_EVENTS = (SHAKE, BOMB, THREE_FOR_ONE, OWN_COLUMN, OTHER_COLUMN, EMPTY_ROW, ANIMAL_RESERVE)
SETUP_KEYS = {
    "players",
    "to_move",
    "deal",
    "hands",
    "row",
    "columns",
    "stock",
    "storage",
    "gos",
    "last_go",
    "reserves",
    "credits",
    "shaken",
    "animal_reserve",
}
Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Replay:
    before: State
    after: State
    moves: tuple[Move, ...]  # the moves applied (up to the illegal one)
    events: tuple[tuple[int, str, Any], ...]
    illegal: tuple[str, str] | None  # (move as written, reason)


def replay(example: Mapping[str, Any]) -> Replay:
    if "seed" in example:
        seed = example["seed"]
        players = example.get("players", 2)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ExampleDataError("seed must be a whole number", ("seed",))
        if players not in (2, 3):
            raise ExampleDataError("players must be 2 or 3", ("players",))
        state = deal(seed, players)
    elif "setup" in example:
        state = build_state(example["setup"])
    else:
        raise ExampleDataError("give a setup (or a seed for a seeded deal)", ())
    raw_moves = example.get("moves", [])
    if not isinstance(raw_moves, list):
        raise ExampleDataError("moves must be a list", ("moves",))
    moves: list[Move] = []
    for i, text in enumerate(raw_moves):
        try:
            moves.append(Move.parse(text))
        except NotationError as exc:
            raise ExampleDataError(str(exc), ("moves", i)) from None
    events: list[tuple[int, str, Any]] = []
    current = state
    done: list[Move] = []
    illegal = None
    for i, mv in enumerate(moves):
        try:
            current, happened = step(current, mv)
        except (IllegalMove, AmbiguousMove) as exc:
            illegal = (str(raw_moves[i]), exc.reason)
            break
        events += happened
        done.append(mv)
    return Replay(state, current, tuple(done), tuple(events), illegal)


def _player_map(value: Any, n: int, path: Path, what: str) -> dict[int, Any]:
    """{1: x, 2: y} (keys may be strings) -> {0: x, 1: y}."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ExampleDataError(f"{what} must map player numbers to values, e.g. {{1: ...}}", path)
    out: dict[int, Any] = {}
    for k, v in value.items():
        try:
            p = int(k)
        except (TypeError, ValueError):
            p = 0
        if not 1 <= p <= n:
            raise ExampleDataError(f"{what}: '{k}' is not a player (1 to {n})", (*path, k))
        out[p - 1] = v
    return out


class _Cards:
    """Reads card lists and checks that no card is in two places."""

    def __init__(self) -> None:
        self.seen: dict[int, Path] = {}

    def read(self, value: Any, path: Path) -> list[int]:
        if value is None:
            return []
        if not isinstance(value, list):
            raise ExampleDataError("write a list of cards, e.g. [08A, 08Da]", path)
        out = []
        for i, text in enumerate(value):
            try:
                c = parse_card(text)
            except NotationError as exc:
                raise ExampleDataError(str(exc), (*path, i)) from None
            if c in self.seen:
                raise ExampleDataError(f"{card_text(c)} is already in the setup", (*path, i))
            self.seen[c] = (*path, i)
            out.append(c)
        return out


def _count(value: Any, path: Path) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ExampleDataError("write a whole number, 0 or more", path)
    return value


def build_state(setup: Any) -> State:
    if not isinstance(setup, Mapping):
        raise ExampleDataError("setup must be a mapping", ("setup",))
    unknown = sorted(str(k) for k in setup if k not in SETUP_KEYS)
    if unknown:
        raise ExampleDataError(
            f"unknown setup key '{unknown[0]}'; known: {', '.join(sorted(SETUP_KEYS))}",
            ("setup", unknown[0]),
        )
    hands_raw = setup.get("hands", {})
    if not isinstance(hands_raw, Mapping):
        raise ExampleDataError("hands: {1: [...], 2: [...]}", ("setup", "hands"))
    n = setup.get("players", max(2, len(hands_raw)))
    if n not in (2, 3):
        raise ExampleDataError("Go-Stop is for 2 or 3 players", ("setup", "players"))
    cards = _Cards()
    hands = [0] * n
    for p, v in _player_map(hands_raw, n, ("setup", "hands"), "hands").items():
        hands[p] = mask_of(cards.read(v, ("setup", "hands", p + 1)))
    row = mask_of(cards.read(setup.get("row"), ("setup", "row")))
    owners = [-1] * 12
    tokens = [0] * n
    columns = setup.get("columns") or []
    if not isinstance(columns, list):
        raise ExampleDataError("columns must be a list of {owner, cards}", ("setup", "columns"))
    for i, col in enumerate(columns):
        path: Path = ("setup", "columns", i)
        if not isinstance(col, Mapping) or set(col) != {"owner", "cards"}:
            raise ExampleDataError("a column is {owner: <player>, cards: [three cards]}", path)
        three = cards.read(col["cards"], (*path, "cards"))
        month = three[0] >> 2 if three else 0
        if len(three) != 3 or any(c >> 2 != month for c in three):
            raise ExampleDataError("a column holds three cards of one number", (*path, "cards"))
        if row & MONTH_MASK[month]:
            raise ExampleDataError("the row has another card of that column's number", path)
        owner = col["owner"]
        if owner not in range(1, n + 1):
            raise ExampleDataError(f"owner must be a player, 1 to {n}", (*path, "owner"))
        owners[month] = owner - 1
        if not tokens[owner - 1]:
            tokens[owner - 1] = month + 1
        row |= mask_of(three)
    is_deal = bool(setup.get("deal", False))
    if not is_deal and has_four(row):
        raise ExampleDataError(
            "four cards of a number cannot lie in the row during play (set deal: true)",
            ("setup", "row"),
        )
    stock = cards.read(setup.get("stock"), ("setup", "stock"))
    stores = [0] * n
    for p, v in _player_map(setup.get("storage"), n, ("setup", "storage"), "storage").items():
        stores[p] = mask_of(cards.read(v, ("setup", "storage", p + 1)))
    to_move = setup.get("to_move", 1)
    if to_move not in range(1, n + 1):
        raise ExampleDataError(f"to_move must be a player, 1 to {n}", ("setup", "to_move"))

    def counts(key: str) -> list[int]:
        out = [0] * n
        for p, v in _player_map(setup.get(key), n, ("setup", key), key).items():
            out[p] = _count(v, ("setup", key, p + 1))
        return out

    gos, reserves, credits = counts("gos"), counts("reserves"), counts("credits")
    last_go = [card_points(stores[p]) if gos[p] else 0 for p in range(n)]
    for p, v in _player_map(setup.get("last_go"), n, ("setup", "last_go"), "last_go").items():
        last_go[p] = _count(v, ("setup", "last_go", p + 1))
    shaken = [0] * n
    for p, v in _player_map(setup.get("shaken"), n, ("setup", "shaken"), "shaken").items():
        if not isinstance(v, list) or any(m not in range(1, 13) for m in v):
            raise ExampleDataError("shaken: a list of numbers 1 to 12", ("setup", "shaken", p + 1))
        for m in v:
            shaken[p] |= 1 << (m - 1)
    animal = 0
    for p in range(n):
        if (stores[p] & ANIMALS).bit_count() >= ANIMAL_RESERVE_AT:
            animal |= 1 << p
    if "animal_reserve" in setup:
        animal = 0
        given = setup["animal_reserve"]
        if not isinstance(given, list) or any(p not in range(1, n + 1) for p in given):
            raise ExampleDataError("animal_reserve: a list of players", ("setup", "animal_reserve"))
        for p in given:
            animal |= 1 << (p - 1)
    state = start(hands, row, stock, to_move - 1, check_deal=is_deal)
    return derive(
        state,
        stores=tuple(stores),
        owners=tuple(owners),
        tokens=tuple(tokens),
        gos=tuple(gos),
        reserves=tuple(reserves),
        credits=tuple(credits),
        shaken=tuple(shaken),
        animal_reserve=animal,
        last_go=tuple(last_go),
    )


def counts_of(mask: int) -> dict[str, int]:
    out = dict.fromkeys(VALUES, 0)
    for c in cards_in(mask):
        out[value_of(c)] += 1
    out["animals"] = (mask & ANIMALS).bit_count()
    out["ribbons"] = (mask & RIBBONS).bit_count()
    out["junk"] = (mask & JUNK).bit_count() + 2 * (mask & DOUBLE_JUNK).bit_count()
    return out


def scored_cards(s: State, p: int) -> int:
    """The cards that are scored: the storage, or the hand that holds four of a number."""
    return s.hands[p] if s.result == FOUR_IN_HAND else s.stores[p]


def points_table(s: State, p: int) -> dict[str, int]:
    four = s.result == FOUR_IN_HAND
    pts = points_of(scored_cards(s, p))
    additional = 0 if four else s.additional(p)
    multiplier = 1 if four else 2 ** s.reserves[p]
    return {
        "A": pts.brights,
        "B": pts.animals,
        "B+": pts.birds,
        "C sets": pts.ribbon_sets,
        "C": pts.ribbons,
        "D": pts.junk,
        "cards": pts.total,
        "additional": additional,
        "total": pts.total + additional,
        "multiplier": multiplier,
        "final": s.final_score(p),
    }


def facts(r: Replay) -> dict[str, Any]:
    s = r.after
    n = s.players
    players = [str(p + 1) for p in range(n)]
    captured = [0] * n
    received = [0] * n
    given = [0] * n
    bonuses: list[list[str]] = [[] for _ in range(n)]
    drawn: list[str] = []
    for p, what, detail in r.events:
        if what == "capture":
            captured[p] |= detail
        elif what == "receive":
            q, c = detail
            received[p] |= 1 << c
            given[q] |= 1 << c
        elif what == "draw":
            drawn.append(card_text(detail))
        elif what in BONUS_EVENTS:
            bonuses[p].append(what)
    columns: dict[str, int | None] = {}
    for m in range(12):
        if (s.row & MONTH_MASK[m]).bit_count() == 3:
            columns[str(m + 1)] = s.owners[m] + 1 if s.owners[m] >= 0 else None
    out: dict[str, Any] = {
        "legal": r.illegal is None,
        "result": s.result,
        "winner": s.winner + 1 if s.winner >= 0 else None,
        "phase": PHASES[s.phase],
        "to_move": s.to_move + 1,
        "legal_moves": [str(m) for m in s.legal_moves()],
        "hands": {k: texts(s.hands[p]) for p, k in enumerate(players)},
        "row": texts(s.row),
        "columns": columns,
        "tokens": {k: s.tokens[p] or "home" for p, k in enumerate(players)},
        "drawn": drawn,
        "stock_left": s.stock_left,
        "captured": {k: texts(captured[p]) for p, k in enumerate(players)},
        "received": {k: texts(received[p]) for p, k in enumerate(players)},
        "given": {k: texts(given[p]) for p, k in enumerate(players)},
        "storage": {k: texts(s.stores[p]) for p, k in enumerate(players)},
        "counts": {k: counts_of(scored_cards(s, p)) for p, k in enumerate(players)},
        "points": {k: points_table(s, p) for p, k in enumerate(players)},
        "scores": {k: s.final_score(p) for p, k in enumerate(players)},
        "gos": {k: s.gos[p] for p, k in enumerate(players)},
        "additional": {k: s.additional(p) for p, k in enumerate(players)},
        "reserves": {k: s.reserves[p] for p, k in enumerate(players)},
        "credits": {k: s.credits[p] for p, k in enumerate(players)},
        "bonuses": {k: bonuses[p] for p, k in enumerate(players)},
        "dealer": s.dealer + 1,
        "redeals": s.redeals,
    }
    if r.illegal is not None:
        out["illegal_move"], out["reason"] = r.illegal
    return out
