"""Worm Derby's rules: set-up, the race, Slalom and Cannibal worms, on the grid model.

Pure and deterministic: die rolls come in as inputs (``State.roll``), players' choices as
moves (``State.play``); every state is a frozen value.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from functools import cached_property, lru_cache

from rulepress.games.worm_derby.course import WORM_LENGTH, Layout, Mark
from rulepress.games.worm_derby.grid import TILE, Grid
from rulepress.games.worm_derby.moves import (
    ACE,
    FACES,
    NULL,
    XY,
    Build,
    Move,
    Pass,
    Place,
    Regrow,
    ShiftTile,
    Steps,
    face_name,
)

SUITS = ("suns", "moons", "crowns", "arms")
OBSTACLE_TILES = 21  # a piecepack's 24 tiles less the two start tiles and the pylon
MAX_TURNS = 200  # per player: a race that lasts longer is a draw
BITE_IMMUNE = 2  # worms this short cannot be bitten
RING_CELLS = (TILE + 2) ** 2 - TILE * TILE  # a tile with all of these free cannot close a path


class Phase(Enum):
    PLACE = "place obstacles"
    BUILD = "build worms"
    RACE = "race"
    OVER = "over"


class IllegalMove(ValueError):
    """A move the rules forbid here; ``reason`` is a stable text examples can quote."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Options:
    cannibal: bool = False
    max_turns: int = MAX_TURNS


@dataclass(frozen=True)
class Worm:
    """Cells from end 0 to end 1, and each disk's progress mark."""

    cells: tuple[int, ...]
    marks: tuple[Mark, ...]

    def end(self, which: int) -> int:
        return self.cells[0] if which == 0 else self.cells[-1]

    def lead_from(self, which: int) -> tuple[tuple[int, ...], tuple[Mark, ...]]:
        """Cells and marks listed from the leading end."""
        if which == 0:
            return self.cells, self.marks
        return self.cells[::-1], self.marks[::-1]


def evolve(state: State, **changes: object) -> State:
    """dataclasses.replace without its overhead (it is called on every roll and move)."""
    new = object.__new__(State)
    values = state.__dict__.copy()
    for name in _DERIVED:  # computed from fields that may change: recompute on demand
        values.pop(name, None)
    if "obstacles" not in changes:
        tiles = state.__dict__.get("tile_cells")
        if tiles is not None:
            values["tile_cells"] = tiles
    values.update(changes)
    new.__dict__.update(values)
    return new


@lru_cache(maxsize=256)
def _tile_cells(layout: Layout, obstacles: tuple[int, ...]) -> frozenset[int]:
    g = layout.grid
    return layout.fixed_cells | {c for a in obstacles for c in g.tile_cells(a)}


def _from_lead(which: int, seq: tuple[int, ...], marks: tuple[Mark, ...]) -> Worm:
    return Worm(seq, marks) if which == 0 else Worm(seq[::-1], marks[::-1])


@dataclass(frozen=True)
class Outcome:
    """What a worm's move did: the new disk order from the lead, and any bite or finish."""

    seq: tuple[int, ...]
    marks: tuple[Mark, ...]
    steps: int
    bitten: int | None = None  # victim's player index
    won: bool = False


@dataclass(frozen=True)
class State:
    layout: Layout
    players: tuple[str, ...]  # seating order, first player first
    options: Options = Options()
    obstacles: tuple[int, ...] = ()  # lowest-left cells of the movable tiles, sorted
    hands: tuple[int, ...] = ()  # obstacle tiles still to place, per player
    worms: tuple[Worm | None, ...] = ()
    eaten: tuple[int, ...] = ()  # disks bitten off each player's worm, waiting to regrow
    retreat: tuple[int | None, ...] = ()  # the end each bitten worm must take its next steps from
    phase: Phase = Phase.PLACE
    to_move: int = 0
    pending: int | None = None  # the face rolled and not yet played
    turn: int = 0  # race turns completed
    places: tuple[int, ...] = ()  # player indices in finishing order

    # -- construction --------------------------------------------------------------------
    @classmethod
    def new(cls, layout: Layout, players: tuple[str, ...], options: Options = Options(),
            obstacle_tiles: int = OBSTACLE_TILES) -> State:
        """A fresh game. The obstacle tiles are dealt evenly; odd ones are put aside."""
        n = len(players)
        if not 2 <= n <= 4 or len(set(players)) != n:
            raise ValueError("Worm Derby is for 2 to 4 players, one suit each")
        if layout.slalom:
            obstacle_tiles = 0
        hands = (obstacle_tiles // n,) * n
        phase = Phase.PLACE if obstacle_tiles >= n else Phase.BUILD
        return cls(layout, players, options, (), hands if phase is Phase.PLACE else (0,) * n,
                   (None,) * n, (0,) * n, (None,) * n, phase)

    @property
    def grid(self) -> Grid:
        return self.layout.grid

    @property
    def slalom(self) -> bool:
        return self.layout.slalom

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def needs_roll(self) -> bool:
        return self.phase is Phase.RACE and self.pending is None

    @property
    def winner(self) -> str | None:
        return self.players[self.places[0]] if self.places else None

    @cached_property
    def tile_cells(self) -> frozenset[int]:
        return _tile_cells(self.layout, self.obstacles)

    @cached_property
    def nbrs(self) -> tuple[tuple[int, ...], ...]:
        """The grid's neighbours, kept on the state (and its successors) for the searches."""
        return self.grid.neighbours

    @cached_property
    def occupant(self) -> dict[int, int]:
        """Cell -> player index of the worm disk on it."""
        return {c: i for i, w in enumerate(self.worms) if w is not None for c in w.cells}

    def cell(self, xy: XY) -> int:
        x, y = xy
        if not self.grid.inside(x, y):
            raise IllegalMove("off the course")
        return self.grid.index(x, y)

    # -- set-up -----------------------------------------------------------------------------
    @cached_property
    def _memo(self) -> dict[int, str | None]:
        return {}

    def place_reason(self, anchor: int) -> str | None:
        """Why an obstacle may not be placed here during set-up (None: it may)."""
        if anchor not in self._memo:
            self._memo[anchor] = self._place_reason_uncached(anchor)
        return self._memo[anchor]

    def _place_reason_uncached(self, anchor: int) -> str | None:
        g, lay = self.grid, self.layout
        if not g.tile_fits(anchor):
            return "off the course"
        if not lay.in_setup_zone(anchor):
            return "obstacles go between the start line and the pylon, three tile widths clear"
        cells = g.tile_cells(anchor)
        if any(c in self.tile_cells for c in cells):
            return "tiles may touch but not overlap"
        return self._open_after(anchor, cells)

    def _open_after(self, anchor: int, cells: tuple[int, ...], moved: int | None = None) -> \
            str | None:
        """A tile must not close the course; only a tile touching others can (the ring test)."""
        blocked = self.tile_cells
        if moved is not None:
            blocked = blocked - set(self.grid.tile_cells(moved))
        ring = self.grid.ring(anchor)
        if len(ring) == RING_CELLS and all(c not in blocked for c in ring):
            return None
        if not self.layout.open_course(blocked | set(cells)):
            return "the course must stay open round the pylon"
        return None

    def build_reason(self, cell: int) -> str | None:
        """Why a worm may not be built from this gate cell (None: it may)."""
        g, lay = self.grid, self.layout
        x, y = g.xy(cell)
        if cell not in lay.gate or y != lay.start_row:
            return "a worm starts with one end disk in the gate, in the row away from the pylon"
        cells = self._start_cells(cell)
        if len(cells) < WORM_LENGTH:
            return "off the course"
        if any(c in self.occupant or c in self.tile_cells for c in cells):
            return "cell taken"
        return None

    def _start_cells(self, cell: int) -> tuple[int, ...]:
        g = self.grid
        x, y = g.xy(cell)
        return tuple(g.index(x, y - i) for i in range(WORM_LENGTH) if y - i >= 0)

    # -- the race: worm steps -------------------------------------------------------------
    def step_cap(self, face: int, worm: Worm) -> int:
        """Steps a roll allows: the number, one for a Slalom ace, at most the length (Cannibal)."""
        steps = 1 if face == ACE else face
        if self.options.cannibal:
            steps = min(steps, len(worm.cells))
        return steps

    def leads(self, p: int) -> tuple[int, ...]:
        """The ends that may lead this turn: both, or the one away from a bite."""
        r = self.retreat[p]
        return (0, 1) if r is None else (1 - r,)

    def step_reason(self, p: int, seq: tuple[int, ...], new: int) -> tuple[str | None, bool]:
        """Why laying the tail disk on ``new`` is illegal (None: legal), and if it bites."""
        head = seq[0]
        nbrs = self.nbrs
        if new not in nbrs[head]:
            return "cells are not neighbours", False
        if new in self.tile_cells:
            return "cell covered by a tile", False
        owner = self.occupant.get(new)
        bites = False
        if owner is not None and owner != p:
            victim = self.worms[owner]
            assert victim is not None
            if not self.options.cannibal or new not in (victim.cells[0], victim.cells[-1]):
                return "cell taken by another worm", False
            if len(victim.cells) <= BITE_IMMUNE:
                return "a worm of two disks cannot be bitten", False
            bites = True
        body = seq[:-1]
        if new == seq[-1] and len(seq) == 2:
            return "a disk must move to a new cell", False
        if new in body:
            return "cell taken by the worm itself", False
        for m in nbrs[new]:
            if m != head and m in body:
                return "the worm would touch itself", False
        return None, bites

    def extend(self, seq: tuple[int, ...], marks: tuple[Mark, ...], new: int) -> \
            tuple[tuple[int, ...], tuple[Mark, ...], bool]:
        """One step from the lead: the new disk order, marks, and whether it finishes."""
        mark = self.layout.advance(marks[0], seq[0], new)
        won = new in self.layout.gate and self.layout.rounded(mark)
        return (new, *seq[:-1]), (mark, *marks[:-1]), won

    def max_steps(self, p: int, cap: int) -> int:
        """The most ordinary steps (no bite) the worm can take this turn, up to cap."""
        worm = self.worms[p]
        assert worm is not None
        best = 0
        for lead in self.leads(p):
            seq, marks = worm.lead_from(lead)
            best = max(best, self._deepest(p, seq, marks, cap))
            if best >= cap:
                break
        return best

    def _deepest(self, p: int, seq: tuple[int, ...], marks: tuple[Mark, ...], cap: int) -> int:
        if cap == 0:
            return 0
        best = 0
        for n in self.nbrs[seq[0]]:
            reason, bites = self.step_reason(p, seq, n)
            if reason is not None or bites:
                continue
            nseq, nmarks, won = self.extend(seq, marks, n)
            got = cap if won else 1 + self._deepest(p, nseq, nmarks, cap - 1)
            if got >= cap:
                return cap
            best = max(best, got)
        return best

    def walk(self, p: int, lead: int, cells: tuple[int, ...], eats: bool) -> Outcome:
        """Check and make the steps of a move from the given end; raise IllegalMove."""
        worm = self.worms[p]
        assert worm is not None
        seq, marks = worm.lead_from(lead)
        bitten = None
        for i, new in enumerate(cells):
            reason, bites = self.step_reason(p, seq, new)
            if reason is not None:
                raise IllegalMove(reason)
            last = i == len(cells) - 1
            if bites and not (eats and last):
                raise IllegalMove("cell taken by another worm")
            if eats and last and not bites:
                raise IllegalMove("no end disk to bite there")
            if bites:
                bitten = self.occupant[new]
            seq, marks, won = self.extend(seq, marks, new)
            if won:
                if not last:
                    raise IllegalMove("the worm has finished: its move ends there")
                return Outcome(seq, marks, i + 1, bitten, True)
        return Outcome(seq, marks, len(cells), bitten, False)

    def _step_paths(self, p: int, seq: tuple[int, ...], marks: tuple[Mark, ...], need: int,
                    room: int, prefix: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], bool]]:
        """Every complete step sequence: `need` ordinary steps, or fewer ending in a bite or a
        finish (`room` caps the bite's step)."""
        if len(prefix) == need:
            yield prefix, False
        if room == 0:
            return
        for n in self.nbrs[seq[0]]:
            reason, bites = self.step_reason(p, seq, n)
            if reason is not None:
                continue
            if bites:
                yield (*prefix, n), True
                continue
            if len(prefix) >= need:
                continue
            nseq, nmarks, won = self.extend(seq, marks, n)
            if won:
                yield (*prefix, n), False
                continue
            yield from self._step_paths(p, nseq, nmarks, need, room - 1, (*prefix, n))

    # -- legal moves ------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move now, in a fixed order (sorted by notation)."""
        if self.phase is Phase.OVER or self.needs_roll:
            return []
        g, p = self.grid, self.to_move
        out: list[Move] = []
        if self.phase is Phase.PLACE:
            out = [Place(g.xy(a)) for a in range(g.width * g.height)
                   if self.place_reason(a) is None]
        elif self.phase is Phase.BUILD:
            out = [Build(g.xy(c)) for c in sorted(self.layout.gate)
                   if self.build_reason(c) is None]
        else:
            face = self.pending
            assert face is not None
            worm = self.worms[p]
            assert worm is not None
            if face == ACE and not self.slalom:
                out.append(Pass())
                for a in self.obstacles:
                    x, y = g.xy(a)
                    for dy in range(-2, 3):
                        for dx in range(-2, 3):
                            if g.inside(x + dx, y + dy):
                                dst = g.index(x + dx, y + dy)
                                if self._shift_reason(a, dst) is None:
                                    out.append(ShiftTile(g.xy(a), g.xy(dst)))
            if face == ACE and self.options.cannibal and self.eaten[p]:
                out.extend(Regrow(g.xy(c)) for c in self._regrow_cells(p))
            if face != ACE or self.slalom:
                cap = self.step_cap(face, worm)
                need = self.max_steps(p, cap)
                if need == 0:
                    out.append(Steps(()))
                for lead in self.leads(p):
                    seq, marks = worm.lead_from(lead)
                    for cells, eats in self._step_paths(p, seq, marks, need, cap, ()):
                        if cells:
                            out.append(Steps(tuple(g.xy(c) for c in (seq[0], *cells)), eats))
        return sorted(set(out), key=str)

    def _shift_reason(self, src: int, dst: int) -> str | None:
        g = self.grid
        if self.slalom:
            return "Slalom tiles never move"
        if src not in self.obstacles:
            return "only a face-down obstacle tile may move"
        if not g.tile_shift_ok(src, dst):
            return "an obstacle moves at most one tile width"
        if not g.tile_fits(dst):
            return "off the course"
        cells = g.tile_cells(dst)
        others = self.tile_cells - set(g.tile_cells(src))
        if any(c in others for c in cells):
            return "tiles may touch but not overlap"
        if any(c in self.occupant for c in cells):
            return "an obstacle may never cover a worm"
        if any(c in self.layout.gate for c in cells):
            return "an obstacle may not block the start gate"
        return self._open_after(dst, cells, moved=src)

    def _regrow_cells(self, p: int) -> list[int]:
        worm = self.worms[p]
        assert worm is not None
        out = []
        for lead in (0, 1):
            seq, _ = worm.lead_from(lead)
            for n in self.nbrs[seq[0]]:
                if self.regrow_reason(p, lead, n) is None:
                    out.append(n)
        return out

    def regrow_reason(self, p: int, lead: int, cell: int) -> str | None:
        """Why an eaten disk may not go back on this cell by that end (None: it may)."""
        worm = self.worms[p]
        assert worm is not None
        seq, _ = worm.lead_from(lead)
        head = seq[0]
        if cell in self.tile_cells:
            return "cell covered by a tile"
        if cell in self.occupant:
            return "cell taken by a worm"
        for m in self.nbrs[cell]:
            if m != head and m in seq:
                return "the worm would touch itself"
        return None

    # -- applying ----------------------------------------------------------------------------
    def roll(self, face: int) -> State:
        """The player to move rolls their die."""
        if not self.needs_roll:
            raise IllegalMove("no roll is due now")
        if face not in FACES:
            raise IllegalMove(f"'{face}' is not a die face")
        if face == NULL:
            return self._end_turn(self)
        return evolve(self, pending=face)

    def play(self, move: Move) -> State:
        """Play a move; raise IllegalMove with the reason when the rules forbid it."""
        if self.phase is Phase.OVER:
            raise IllegalMove("the race is over")
        if self.needs_roll:
            raise IllegalMove("roll the die first")
        if self.phase is Phase.PLACE:
            return self._play_place(move)
        if self.phase is Phase.BUILD:
            return self._play_build(move)
        return self._play_race(move)

    def _next_placer(self, hands: tuple[int, ...]) -> int | None:
        n = len(self.players)
        for k in range(1, n + 1):
            i = (self.to_move + k) % n
            if hands[i]:
                return i
        return None

    def _play_place(self, move: Move) -> State:
        if not isinstance(move, Place):
            raise IllegalMove("set-up: place an obstacle tile")
        a = self.cell(move.anchor)
        reason = self.place_reason(a)
        if reason:
            raise IllegalMove(reason)
        hands = list(self.hands)
        hands[self.to_move] -= 1
        nxt = self._next_placer(tuple(hands))
        obstacles = tuple(sorted((*self.obstacles, a)))
        if nxt is None:
            return evolve(self, obstacles=obstacles, hands=tuple(hands), phase=Phase.BUILD,
                           to_move=0)
        return evolve(self, obstacles=obstacles, hands=tuple(hands), to_move=nxt)

    def _play_build(self, move: Move) -> State:
        if not isinstance(move, Build):
            raise IllegalMove("set-up: build your worm")
        c = self.cell(move.cell)
        reason = self.build_reason(c)
        if reason:
            raise IllegalMove(reason)
        cells = self._start_cells(c)
        worms = list(self.worms)
        worms[self.to_move] = Worm(cells, (self.layout.zero,) * len(cells))
        nxt = self.to_move + 1
        if nxt == len(self.players):
            return evolve(self, worms=tuple(worms), phase=Phase.RACE, to_move=0)
        return evolve(self, worms=tuple(worms), to_move=nxt)

    def _play_race(self, move: Move) -> State:
        face = self.pending
        assert face is not None
        p = self.to_move
        worm = self.worms[p]
        assert worm is not None
        if isinstance(move, Regrow):
            return self._play_regrow(move)
        if face == ACE and not self.slalom:
            return self._play_ace_tile(move)
        if face == ACE and isinstance(move, Pass | ShiftTile):
            raise IllegalMove("Slalom tiles never move: an ace moves your worm one step")
        if not isinstance(move, Steps):
            raise IllegalMove(f"a roll of {face_name(face)} moves your worm")
        cap = self.step_cap(face, worm)
        if move.count > cap:
            raise IllegalMove("more steps than the roll allows")
        if not move.path:
            if self.max_steps(p, cap):
                raise IllegalMove("the worm must move as many steps as it can")
            return self._end_turn(self._clear_retreat(p))
        start = self.cell(move.path[0])
        if start not in (worm.cells[0], worm.cells[-1]):
            raise IllegalMove("a move starts at an end disk of your worm")
        lead = 0 if start == worm.cells[0] else 1
        if lead not in self.leads(p):
            raise IllegalMove("the bitten worm must move away from the attacker")
        out = self.walk(p, lead, tuple(self.cell(c) for c in move.path[1:]), move.eats)
        if out.bitten is None and not out.won and out.steps < cap and \
                out.steps < self.max_steps(p, cap):
            raise IllegalMove("the worm must move as many steps as it can")
        return self._end_turn(self._after_steps(p, lead, out))

    def _clear_retreat(self, p: int) -> State:
        if self.retreat[p] is None:
            return self
        retreat = list(self.retreat)
        retreat[p] = None
        return evolve(self, retreat=tuple(retreat))

    def _after_steps(self, p: int, lead: int, out: Outcome) -> State:
        worms = list(self.worms)
        eaten = list(self.eaten)
        retreat = list(self.retreat)
        retreat[p] = None
        places = self.places
        if out.won:
            worms[p] = None
            places = (*places, p)
        else:
            worms[p] = _from_lead(lead, out.seq, out.marks)
        if out.bitten is not None:
            v = out.bitten
            victim = self.worms[v]
            assert victim is not None
            bite = out.seq[0]
            end = 0 if victim.cells[0] == bite else 1
            worms[v] = Worm(victim.cells[1:], victim.marks[1:]) if end == 0 else \
                Worm(victim.cells[:-1], victim.marks[:-1])
            eaten[v] += 1
            retreat[v] = end
        return evolve(self, worms=tuple(worms), eaten=tuple(eaten), retreat=tuple(retreat),
                       places=places)

    def _play_ace_tile(self, move: Move) -> State:
        if isinstance(move, Pass):
            return evolve(self, pending=None)
        if not isinstance(move, ShiftTile):
            raise IllegalMove("an ace moves an obstacle (or passes), then you roll again")
        src, dst = self.cell(move.src), self.cell(move.dst)
        reason = self._shift_reason(src, dst)
        if reason:
            raise IllegalMove(reason)
        obstacles = tuple(sorted(dst if a == src else a for a in self.obstacles))
        return evolve(self, obstacles=obstacles, pending=None)

    def _play_regrow(self, move: Regrow) -> State:
        p = self.to_move
        if self.pending != ACE or not self.options.cannibal:
            raise IllegalMove("an eaten disk comes back only on an ace, with the Cannibal rules")
        if not self.eaten[p]:
            raise IllegalMove("no eaten disk to add")
        worm = self.worms[p]
        assert worm is not None
        cell = self.cell(move.cell)
        nbrs = self.nbrs
        leads = [w for w in (0, 1) if cell in nbrs[worm.end(w)]]
        if not leads:
            raise IllegalMove("an eaten disk goes back next to an end of the worm")
        reasons = [self.regrow_reason(p, w, cell) for w in leads]
        if None not in reasons:
            raise IllegalMove(str(reasons[0]))
        lead = leads[reasons.index(None)]
        seq, marks = worm.lead_from(lead)
        mark = self.layout.advance(marks[0], seq[0], cell)
        eaten = list(self.eaten)
        eaten[p] -= 1
        worms = list(self.worms)
        state = evolve(self, eaten=tuple(eaten), pending=None)
        if cell in self.layout.gate and self.layout.rounded(mark):
            worms[p] = None
            return self._end_turn(evolve(state, worms=tuple(worms), places=(*self.places, p)))
        worms[p] = _from_lead(lead, (cell, *seq), (mark, *marks))
        return evolve(state, worms=tuple(worms))

    def _end_turn(self, state: State) -> State:
        n = len(self.players)
        left = [i for i in range(n) if i not in state.places]
        turn = state.turn + 1
        if len(left) <= 1:
            return evolve(state, places=(*state.places, *left), phase=Phase.OVER, pending=None,
                           turn=turn)
        if turn >= self.options.max_turns * n:
            return evolve(state, phase=Phase.OVER, pending=None, turn=turn)
        nxt = next(i for k in range(1, n + 1) if (i := (state.to_move + k) % n) in left)
        return evolve(state, to_move=nxt, pending=None, turn=turn)

    # -- reading a state ---------------------------------------------------------------------
    def worm_names(self, p: int) -> list[str]:
        worm = self.worms[p]
        return [] if worm is None else [self.grid.name(c) for c in worm.cells]

    def rounded(self, p: int) -> bool:
        """Has either end of this worm gone round the pylon (or has it finished)?"""
        worm = self.worms[p]
        if worm is None:
            return p in self.places
        return any(self.layout.rounded(m) for m in (worm.marks[0], worm.marks[-1]))


_DERIVED = ("tile_cells", "occupant", "_memo")
