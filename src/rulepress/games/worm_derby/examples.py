"""Worked examples: their data schema, replay, and the facts they may claim.

An example's data::

    setup:
      course:                     # a course drawn on a grid (all tiles by their lowest-left cell)
        size: 14x22               # columns x rows
        start: [c3, k3]           # the two start-line tiles
        pylon: g18
        obstacles: [f9, h12]      # face-down tiles (an ace may move them)
        red: [g8]                 # Slalom tiles, passed on their right / left
        blue: [g13]
      variant: basic              # the game: basic, slalom, cannibal or slalom+cannibal
      worms:                      # seating order; each worm from one end to the other
        suns: [f4, f5, f6]
      rounded: [suns]             # worms whose first-listed end has gone round the pylon
      eaten: {moons: 1}           # disks bitten off, waiting to regrow
      retreat: {moons: e9}        # a bitten worm's bitten end: its next steps start there
      turn: suns                  # who plays first (default: the first worm listed)
    rolls: [ace, 3]               # die faces in order: null, ace, 2..5
    moves: [pass, f6-f7-f8-g8]    # one move per ace or number rolled

or, for a whole course set up from a seed: ``setup: {standard: {players: 4, variant: basic,
seed: 1, length: 36, pairs: 2, obstacles: 21}}`` (obstacle tiles placed and worms built by
the seeded goal-directed players; ``moves`` may instead give the set-up moves themselves).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rulepress.games.worm_derby.course import (
    STANDARD_LENGTH,
    WORM_LENGTH,
    CourseError,
    Layout,
    parse_tiles,
)
from rulepress.games.worm_derby.grid import TILE, Grid
from rulepress.games.worm_derby.moves import ACE, Roll, Steps, parse_face, parse_move, parse_worm
from rulepress.games.worm_derby.player import GoalPlayer
from rulepress.games.worm_derby.rules import (
    GAMES,
    OBSTACLE_TILES,
    SLALOM_PAIRS,
    SUITS,
    Options,
    Phase,
    State,
    Worm,
    deal,
)
from rulepress.plugin import ExampleDataError, IllegalMove, NotationError, derive, mapping

SETUP_KEYS = {"course", "variant", "worms", "rounded", "eaten", "retreat", "turn", "standard"}
COURSE_KEYS = {"size", "start", "pylon", "obstacles", "red", "blue"}


@dataclass(frozen=True)
class Replay:
    """The states an example passes through, and what happened."""

    before: State
    after: State
    steps: tuple[int, ...]
    can_move: tuple[int, ...]
    illegal: tuple[str, str] | None  # (move, reason)
    front: Mapping[int, int]  # player -> the end (0 or 1) that moved last
    moved_tiles: tuple[int, ...]  # obstacle cells in the after state that moved
    path: tuple[int, ...]  # the cells of the last worm move (or the refused one), end first
    initial: State  # before any set-up move
    aside: int  # obstacle tiles put aside at the deal
    # player -> its last turn: the state before that turn's first roll, and the range of
    # ``moves`` it played (a figure draws only these, so an earlier turn leaves no mark)
    last_turn: Mapping[int, tuple[State, range]] = field(default_factory=dict)



def _course(data: Mapping[str, Any]) -> Layout:
    path: tuple[str | int, ...] = ("setup", "course")
    unknown = set(data) - COURSE_KEYS
    if unknown:
        raise ExampleDataError(f"unknown course keys: {', '.join(sorted(unknown))}", path)
    try:
        w, _, h = str(data.get("size", "")).lower().partition("x")
        grid = Grid(int(w), int(h))
    except (ValueError, NotationError) as exc:
        raise ExampleDataError(f"size: columns x rows, e.g. 14x22 ({exc})", (*path, "size")) \
            from None
    try:
        start = parse_tiles(grid, data.get("start"), "start")
        if len(start) != 2:
            raise ExampleDataError("start: the two start-line tiles", (*path, "start"))
        pylon = grid.parse(str(data.get("pylon")))
        red = parse_tiles(grid, data.get("red"), "red")
        blue = parse_tiles(grid, data.get("blue"), "blue")
        return Layout(grid, (start[0], start[1]), pylon, red, blue)
    except (NotationError, CourseError) as exc:
        raise ExampleDataError(str(exc), path) from None


def _worm(state: State, cells: tuple[int, ...], path: tuple[str | int, ...]) -> None:
    """Check a worm's shape against the rules: a chain, never touching itself, on free cells."""
    g = state.grid
    if not 2 <= len(cells) <= WORM_LENGTH or len(set(cells)) != len(cells):
        raise ExampleDataError(f"a worm is 2 to {WORM_LENGTH} different cells", path)
    nbrs = g.neighbours
    for i, c in enumerate(cells):
        if c in state.tile_cells:
            raise ExampleDataError(f"{g.name(c)} is under a tile", path)
        chain = {cells[j] for j in (i - 1, i + 1) if 0 <= j < len(cells)}
        touching = {n for n in nbrs[c] if n in cells}
        if touching != chain:
            raise ExampleDataError(f"the worm's disks must form a chain touching only their "
                                   f"neighbours (at {g.name(c)})", path)


def _race_state(setup: Mapping[str, Any]) -> State:
    layout = _course(mapping(setup.get("course"), ("setup", "course"), optional=True))
    grid = layout.grid
    variant = str(setup.get("variant", "basic"))
    if variant not in GAMES:
        raise ExampleDataError(f"variant is one of {', '.join(GAMES)}", ("setup", "variant"))
    if ("slalom" in variant) != layout.slalom:
        raise ExampleDataError("a Slalom course has red and blue tiles, other courses none",
                               ("setup", "variant"))
    worms_in = mapping(setup.get("worms"), ("setup", "worms"), optional=True)
    players = tuple(str(k) for k in worms_in)
    if not 2 <= len(players) <= 4 or any(p not in SUITS for p in players):
        raise ExampleDataError(f"2 to 4 worms, named by suit: {', '.join(SUITS)}",
                               ("setup", "worms"))
    try:
        obstacles = tuple(sorted(parse_tiles(grid, setup["course"].get("obstacles"),
                                             "obstacles")))
    except NotationError as exc:
        raise ExampleDataError(str(exc), ("setup", "course", "obstacles")) from None
    n = len(players)
    state = State(layout, players, Options(cannibal="cannibal" in variant), obstacles,
                  (0,) * n, (None,) * n, (0,) * n, (None,) * n, Phase.RACE)
    rounded = setup.get("rounded") or []
    if not isinstance(rounded, list) or any(r not in players for r in rounded):
        raise ExampleDataError("rounded: a list of worms", ("setup", "rounded"))
    worms: list[Worm | None] = []
    seen: set[int] = set()
    for name in players:
        path: tuple[str | int, ...] = ("setup", "worms", name)
        try:
            cells = tuple(state.cell(xy) for xy in parse_worm(worms_in[name]))
        except (NotationError, IllegalMove) as exc:
            raise ExampleDataError(str(exc), path) from None
        _worm(state, cells, path)
        if seen & set(cells):
            raise ExampleDataError("worms cannot overlap", path)
        seen |= set(cells)
        first = layout.zero
        if name in rounded:
            first = (1,) + (1, 0) * len(layout.gates)
        worms.append(Worm(cells, layout.mark_along(cells, first)))
    covered = set(layout.fixed_cells)
    for a in obstacles:
        footprint = set(grid.tile_cells(a)) if grid.tile_fits(a) else set()
        if not footprint or footprint & covered:
            raise ExampleDataError(f"obstacle {grid.name(a)} is off the course or overlaps a tile",
                                   ("setup", "course", "obstacles"))
        covered |= footprint
        if footprint & seen:
            raise ExampleDataError("an obstacle lies on a worm", ("setup", "course", "obstacles"))
    eaten = [0] * n
    for name, k in mapping(setup.get("eaten"), ("setup", "eaten"), optional=True).items():
        if name not in players or not isinstance(k, int) or k < 0 or \
                k + len(worms[players.index(name)].cells) > WORM_LENGTH:  # type: ignore[union-attr]
            raise ExampleDataError("eaten: disks per worm, up to six disks in all",
                                   ("setup", "eaten"))
        eaten[players.index(name)] = k
    retreat: list[int | None] = [None] * n
    for name, cell in mapping(setup.get("retreat"), ("setup", "retreat"), optional=True).items():
        path = ("setup", "retreat", str(name))
        worm = worms[players.index(name)] if name in players else None
        try:
            c = grid.parse(str(cell))
        except NotationError as exc:
            raise ExampleDataError(str(exc), path) from None
        if worm is None or c not in (worm.cells[0], worm.cells[-1]):
            raise ExampleDataError("retreat: the bitten end disk of a worm", path)
        retreat[players.index(name)] = 0 if c == worm.cells[0] else 1
    turn = str(setup.get("turn", players[0]))
    if turn not in players:
        raise ExampleDataError("turn: one of the worms", ("setup", "turn"))
    return derive(state, worms=tuple(worms), eaten=tuple(eaten), retreat=tuple(retreat),
                  to_move=players.index(turn))


def _standard_state(data: Mapping[str, Any]) -> tuple[State, random.Random, int]:
    """A seeded standard course, its random source and the obstacle tiles put aside."""
    path = ("setup", "standard")
    allowed = {"players", "variant", "seed", "length", "pairs", "obstacles"}
    if set(data) - allowed:
        raise ExampleDataError(f"standard: only {', '.join(sorted(allowed))}", path)

    def whole(key: str, default: int) -> int:
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ExampleDataError(f"standard: {key} is a whole number", (*path, key))
        return value

    rng = random.Random(whole("seed", 1))
    tiles = whole("obstacles", OBSTACLE_TILES)
    try:
        state = deal(rng, whole("players", 2), str(data.get("variant", "basic")),
                     whole("length", STANDARD_LENGTH), whole("pairs", SLALOM_PAIRS), tiles)
    except (ValueError, CourseError) as exc:
        raise ExampleDataError(str(exc), path) from None
    return state, rng, tiles - sum(state.hands)


def replay(example: Mapping[str, Any]) -> Replay:
    setup = mapping(example.get("setup"), ("setup",), optional=True)
    unknown = set(setup) - SETUP_KEYS
    if unknown:
        raise ExampleDataError(f"unknown setup keys: {', '.join(sorted(unknown))}", ("setup",))
    moves = example.get("moves") or []
    rolls = example.get("rolls") or []
    if not isinstance(moves, list) or not isinstance(rolls, list):
        raise ExampleDataError("rolls and moves are lists", ("moves",))
    auto: random.Random | None = None
    aside = 0
    if "standard" in setup:
        data = mapping(setup["standard"], ("setup", "standard"), optional=True)
        state, rng, aside = _standard_state(data)
        if not moves:
            auto = rng
    else:
        state = _race_state(setup)
    before = initial = state
    steps: list[int] = []
    can_move: list[int] = []
    front: dict[int, int] = {}
    path: tuple[int, ...] = ()
    illegal = None
    k = 0
    turns: list[tuple[int, State, int]] = []  # each turn: (player, state before, first move)
    if auto is not None:
        player = GoalPlayer()
        while state.phase in (Phase.PLACE, Phase.BUILD):
            state = state.apply(player(state, auto))
        before = state
    for r, roll in enumerate(rolls):
        if not state.needs_roll:
            raise ExampleDataError("no roll is due here: a move is missing or the race is over",
                                   ("rolls", r))
        try:
            face = parse_face(roll)
        except NotationError as exc:
            raise ExampleDataError(str(exc), ("rolls", r)) from None
        if not turns or state.to_move != turns[-1][0]:  # an ace's roll again is the same turn
            turns.append((state.to_move, state, k))
        state = state.apply(Roll(face))
        if state.pending is None:
            steps.append(0)
            continue
        if k >= len(moves):
            break
        p = state.to_move
        try:
            move = parse_move(moves[k])
        except NotationError as exc:
            raise ExampleDataError(str(exc), ("moves", k)) from None
        worm = state.worms[p]
        moving = isinstance(move, Steps) and (face != ACE or state.slalom)
        if moving and worm is not None:
            can_move.append(state.max_steps(p, state.step_cap(face, worm)))
        try:
            nxt = state.apply(move)
        except IllegalMove as exc:
            illegal = (str(move), exc.reason)
            if isinstance(move, Steps) and all(state.grid.inside(*c) for c in move.path):
                path = tuple(state.grid.index(*c) for c in move.path)
            k += 1
            break
        if isinstance(move, Steps) and move.path and worm is not None:
            start = state.cell(move.path[0])
            front[p] = 0 if start == worm.cells[0] else 1
            path = tuple(state.cell(c) for c in move.path)
        steps.append(move.count if isinstance(move, Steps) else 0)
        state = nxt
        k += 1
    else:
        while illegal is None and k < len(moves) and not state.needs_roll and not state.over:
            try:  # set-up moves need no roll
                move = parse_move(moves[k])
            except NotationError as exc:
                raise ExampleDataError(str(exc), ("moves", k)) from None
            try:
                state = state.apply(move)
            except IllegalMove as exc:
                illegal = (str(move), exc.reason)
            k += 1
    if k < len(moves):
        raise ExampleDataError("this move is never reached: no roll is left for it", ("moves", k))
    moved = tuple(a for a in state.obstacles if a not in before.obstacles)
    played = k - (illegal is not None)  # the refused move is drawn on its own
    ends = [first for _, _, first in turns[1:]] + [played]
    last_turn = {p: (at, range(first, end))  # a later turn of the same player replaces one
                 for (p, at, first), end in zip(turns, ends, strict=False)}
    return Replay(before, state, tuple(steps), tuple(can_move), illegal, front, moved, path,
                  initial, aside, last_turn)


def facts(rep: Replay) -> dict[str, Any]:
    s = rep.after
    g = s.grid
    lay = s.layout
    out: dict[str, Any] = {
        "legal": rep.illegal is None,
        "worms": {name: s.worm_names(p) for p, name in enumerate(s.players)},
        "lengths": {name: len(s.worms[p].cells) if s.worms[p] else 0  # type: ignore[union-attr]
                    for p, name in enumerate(s.players)},
        "steps": list(rep.steps),
        "can_move": list(rep.can_move),
        "pylon_passed": {name: s.rounded(p) for p, name in enumerate(s.players)},
        "winner": s.winner,
        "places": [s.players[p] for p in s.places],
        "over": s.over,
        "turn": None if s.over else s.players[s.to_move],
        "eaten": {name: s.eaten[p] for p, name in enumerate(s.players)},
        "retreat": {name: _retreat_cell(s, p) for p, name in enumerate(s.players)},
        "obstacles": sorted(g.name(a) for a in s.obstacles),
        "obstacle_count": len(s.obstacles),
        "players": list(s.players),
        "phase": s.phase.value,
    }
    if rep.illegal is not None:
        out["illegal_move"], out["reason"] = rep.illegal
    if s.phase is not Phase.RACE or not s.needs_roll:
        moves = [str(m) for m in s.legal_moves()] if s.phase is not Phase.PLACE else []
        out["legal_moves"] = moves
    if lay.slalom:
        out["gates"] = {}
        for p, name in enumerate(s.players):
            worm = s.worms[p]
            if worm is None:
                continue
            mark = worm.marks[0] if rep.front.get(p, 0) == 0 else worm.marks[-1]
            out["gates"][name] = {g.name(a): st for (a, _), st in
                                  zip(lay.gates, lay.gate_status(mark), strict=True)}
    left, right = sorted(lay.start)
    out["course"] = {
        "size": f"{g.width}x{g.height}",
        "start": [g.name(left), g.name(right)],
        "pylon": g.name(lay.pylon),
        "length": lay.pylon_row - lay.start_row - TILE,
        "red": sorted(g.name(a) for a in lay.red),
        "blue": sorted(g.name(a) for a in lay.blue),
    }
    out["dealt"] = {name: rep.initial.hands[p] for p, name in enumerate(s.players)}
    out["aside"] = rep.aside
    return out


def _retreat_cell(s: State, p: int) -> str | None:
    r = s.retreat[p]
    worm = s.worms[p]
    if r is None or worm is None:
        return None
    return s.grid.name(worm.end(r))
