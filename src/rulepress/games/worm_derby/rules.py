"""Worm Derby's rules on the rules protocol of games/base.py: set-up, the race, Slalom and
Cannibal worms, on the grid model.

``RULES`` starts games (``RULES.new_game(players, seed, variant)``: the first player and the
Slalom tiles are drawn from the seed) and reads moves. A :class:`State` is a frozen value: when
a roll is due its player is ``CHANCE`` and its legal moves are the die's faces
(``chance_outcomes()`` gives their odds); ``state.apply(move)`` takes a roll or a player's
choice alike and returns the next state.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cached_property, lru_cache
from typing import Any

from rulepress.games.worm_derby.course import (
    STANDARD_LENGTH,
    WORM_LENGTH,
    Layout,
    Mark,
    standard_layout,
)
from rulepress.games.worm_derby.grid import TILE, TILE_REACH_SQ, Grid, cells_from_feet
from rulepress.games.worm_derby.moves import (
    ACE,
    NULL,
    ROLLS,
    XY,
    Build,
    Move,
    Pass,
    Place,
    Regrow,
    Roll,
    ShiftTile,
    Steps,
    face_name,
    parse_move,
)
from rulepress.plugin import CHANCE, PERFECT_INFORMATION, IllegalMove, Outcome, Variant, derive

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


@lru_cache(maxsize=256)
def _tile_cells(layout: Layout, obstacles: tuple[int, ...]) -> frozenset[int]:
    g = layout.grid
    return layout.fixed_cells | {c for a in obstacles for c in g.tile_cells(a)}


@lru_cache(maxsize=256)
def _tile_bits(layout: Layout, obstacles: tuple[int, ...]) -> int:
    return sum(1 << c for c in _tile_cells(layout, obstacles))


def _one_gap(g: Grid, anchor: int, blocked: int) -> bool:
    """Are the free cells round a tile (away from the board's edge) one unbroken run?"""
    loop = g.ring_loop(anchor)
    if not loop:
        return False
    free = [not blocked >> c & 1 for c in loop]
    return sum(f and not free[i - 1] for i, f in enumerate(free)) <= 1


def _from_lead(which: int, seq: tuple[int, ...], marks: tuple[Mark, ...]) -> Worm:
    return Worm(seq, marks) if which == 0 else Worm(seq[::-1], marks[::-1])


@dataclass(frozen=True)
class Walk:
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
    turns: int = 0  # race turns completed
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
    def tile_bits(self) -> int:
        """:attr:`tile_cells` as a bit set, for the tile tests of set-up and aces."""
        return _tile_bits(self.layout, self.obstacles)

    @cached_property
    def nbrs(self) -> tuple[tuple[int, ...], ...]:
        """The grid's neighbours, kept on the state (and its successors) for the searches."""
        return self.grid.neighbours

    @cached_property
    def course_open(self) -> bool:
        """Is the course open round the pylon with this state's tiles?"""
        return self.layout.open_bits(self.tile_bits)

    @cached_property
    def worm_bits(self) -> int:
        """The cells of every worm as a bit set."""
        return sum(1 << c for c in self.occupant)

    @cached_property
    def occupant(self) -> dict[int, int]:
        """Cell -> player index of the worm disk on it."""
        return {c: i for i, w in enumerate(self.worms) if w is not None for c in w.cells}

    def cell(self, xy: XY, move: Move | None = None) -> int:
        x, y = xy
        if not self.grid.inside(x, y):
            raise IllegalMove(move, "off the course")
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
        if anchor not in lay.setup_set:
            return "obstacles go between the start line and the pylon, three tile widths clear"
        if g.tile_bits(anchor) & self.tile_bits:
            return "tiles may touch but not overlap"
        return self._open_after(anchor)

    def _open_after(self, anchor: int, moved: int | None = None) -> str | None:
        """A tile must not close the course; only a tile touching others can (the ring test)."""
        g = self.grid
        blocked = self.tile_bits
        if moved is not None:
            blocked &= ~g.tile_bits(moved)
        ring, size = g.ring_bits(anchor)
        if size == RING_CELLS and not ring & blocked:
            return None
        tile, lay = g.tile_bits(anchor), self.layout
        if not tile & (blocked | lay.gate_bits | lay.ray_bits) and _one_gap(g, anchor, blocked):
            # Any path across the tile's cells can go round it by the ring instead: the course
            # is as open with the tile as without it, and no less open for a tile moved away.
            if self.course_open:
                return None
            tile = 0
        if not lay.open_bits(blocked | tile):
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

    def walk(self, move: Steps, p: int, lead: int, cells: tuple[int, ...]) -> Walk:
        """Check and make the steps of a move from the given end; raise IllegalMove."""
        worm = self.worms[p]
        assert worm is not None
        seq, marks = worm.lead_from(lead)
        bitten = None
        eats = move.eats
        for i, new in enumerate(cells):
            reason, bites = self.step_reason(p, seq, new)
            if reason is not None:
                raise IllegalMove(move, reason)
            last = i == len(cells) - 1
            if bites and not (eats and last):
                raise IllegalMove(move, "cell taken by another worm")
            if eats and last and not bites:
                raise IllegalMove(move, "no end disk to bite there")
            if bites:
                bitten = self.occupant[new]
            seq, marks, won = self.extend(seq, marks, new)
            if won:
                if not last:
                    raise IllegalMove(move, "the worm has finished: its move ends there")
                return Walk(seq, marks, i + 1, bitten, True)
        return Walk(seq, marks, len(cells), bitten, False)

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
    def legal_moves(self) -> Sequence[Move]:
        """Every legal move now, in a fixed order (sorted by notation); when a roll is due, the
        die's faces (null, ace, 2 to 5)."""
        if self.phase is Phase.OVER:
            return ()
        if self.needs_roll:
            return ROLLS
        return self._choices

    @cached_property
    def _choices(self) -> tuple[Move, ...]:
        """The player's legal moves, listed once per state (an ace's tile moves are dear)."""
        g, p = self.grid, self.to_move
        out: list[Move] = []
        if self.phase is Phase.PLACE:
            # only set-up zone anchors can be allowed, and they come in cell order
            out = [Place(g.xy(a)) for a in self.layout.setup_zone
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
                    for dx, dy in _SHIFTS:
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
                xy = g.coords
                for lead in self.leads(p):
                    seq, marks = worm.lead_from(lead)
                    for cells, eats in self._step_paths(p, seq, marks, need, cap, ()):
                        if cells:
                            out.append(Steps((xy[seq[0]], *[xy[c] for c in cells]), eats))
        return tuple(sorted(set(out), key=str))

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
        cells = g.tile_bits(dst)
        if cells & self.tile_bits & ~g.tile_bits(src):
            return "tiles may touch but not overlap"
        if cells & self.worm_bits:
            return "an obstacle may never cover a worm"
        if cells & self.layout.gate_bits:
            return "an obstacle may not block the start gate"
        return self._open_after(dst, moved=src)

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

    # -- the rules protocol ------------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to play, or CHANCE when its die is to be rolled."""
        return CHANCE if self.needs_roll else self.to_move

    def chance_outcomes(self) -> Sequence[tuple[Move, float]]:
        return _ROLL_ODDS if self.needs_roll else ()

    def apply(self, move: Move) -> State:
        """The state after a roll or a move; IllegalMove with the reason when the rules forbid
        it."""
        if self.phase is Phase.OVER:
            raise IllegalMove(move, "the race is over")
        if isinstance(move, Roll):
            return self._roll(move)
        if self.needs_roll:
            raise IllegalMove(move, "roll the die first")
        if self.phase is Phase.PLACE:
            return self._play_place(move)
        if self.phase is Phase.BUILD:
            return self._play_build(move)
        return self._play_race(move)

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def outcome(self) -> Outcome | None:
        """The winner (none if the turn limit came first); each worm scores the number of worms
        it finished ahead of, worms still racing none."""
        if self.phase is not Phase.OVER:
            return None
        n = len(self.players)
        scores = [0] * n
        for place, p in enumerate(self.places):
            scores[p] = n - 1 - place
        if len(self.places) == n:
            reason = "every worm is home but the last, which takes last place"
        else:
            reason = (f"after {self.options.max_turns} turns each, a draw among the worms "
                      "still racing")
        return Outcome(self.places[:1], tuple(scores), reason)

    def turn(self) -> int:
        """Race turns completed (the set-up is not counted)."""
        return self.turns

    def _roll(self, move: Roll) -> State:
        if not self.needs_roll:
            raise IllegalMove(move, "no roll is due now")
        if move.face == NULL:
            return self._end_turn(self)
        return derive(self, pending=move.face)

    def _next_placer(self, hands: tuple[int, ...]) -> int | None:
        n = len(self.players)
        for k in range(1, n + 1):
            i = (self.to_move + k) % n
            if hands[i]:
                return i
        return None

    def _play_place(self, move: Move) -> State:
        if not isinstance(move, Place):
            raise IllegalMove(move, "set-up: place an obstacle tile")
        a = self.cell(move.anchor, move)
        reason = self.place_reason(a)
        if reason:
            raise IllegalMove(move, reason)
        hands = list(self.hands)
        hands[self.to_move] -= 1
        nxt = self._next_placer(tuple(hands))
        obstacles = tuple(sorted((*self.obstacles, a)))
        if nxt is None:
            return derive(self, obstacles=obstacles, hands=tuple(hands), phase=Phase.BUILD,
                          to_move=0)
        return derive(self, obstacles=obstacles, hands=tuple(hands), to_move=nxt)

    def _play_build(self, move: Move) -> State:
        if not isinstance(move, Build):
            raise IllegalMove(move, "set-up: build your worm")
        c = self.cell(move.cell, move)
        reason = self.build_reason(c)
        if reason:
            raise IllegalMove(move, reason)
        cells = self._start_cells(c)
        worms = list(self.worms)
        worms[self.to_move] = Worm(cells, (self.layout.zero,) * len(cells))
        nxt = self.to_move + 1
        if nxt == len(self.players):
            return derive(self, worms=tuple(worms), phase=Phase.RACE, to_move=0)
        return derive(self, worms=tuple(worms), to_move=nxt)

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
            raise IllegalMove(move, "Slalom tiles never move: an ace moves your worm one step")
        if not isinstance(move, Steps):
            raise IllegalMove(move, f"a roll of {face_name(face)} moves your worm")
        cap = self.step_cap(face, worm)
        if move.count > cap:
            raise IllegalMove(move, "more steps than the roll allows")
        if not move.path:
            if self.max_steps(p, cap):
                raise IllegalMove(move, "the worm must move as many steps as it can")
            return self._end_turn(self._clear_retreat(p))
        start = self.cell(move.path[0], move)
        if start not in (worm.cells[0], worm.cells[-1]):
            raise IllegalMove(move, "a move starts at an end disk of your worm")
        lead = 0 if start == worm.cells[0] else 1
        if lead not in self.leads(p):
            raise IllegalMove(move, "the bitten worm must move away from the attacker")
        out = self.walk(move, p, lead, tuple(self.cell(c, move) for c in move.path[1:]))
        if out.bitten is None and not out.won and out.steps < cap and \
                out.steps < self.max_steps(p, cap):
            raise IllegalMove(move, "the worm must move as many steps as it can")
        return self._end_turn(self._after_steps(p, lead, out))

    def _clear_retreat(self, p: int) -> State:
        if self.retreat[p] is None:
            return self
        retreat = list(self.retreat)
        retreat[p] = None
        return derive(self, retreat=tuple(retreat))

    def _after_steps(self, p: int, lead: int, out: Walk) -> State:
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
        return derive(self, worms=tuple(worms), eaten=tuple(eaten), retreat=tuple(retreat),
                      places=places)

    def _play_ace_tile(self, move: Move) -> State:
        if isinstance(move, Pass):
            return derive(self, pending=None)
        if not isinstance(move, ShiftTile):
            raise IllegalMove(move, "an ace moves an obstacle (or passes), then you roll again")
        src, dst = self.cell(move.src, move), self.cell(move.dst, move)
        reason = self._shift_reason(src, dst)
        if reason:
            raise IllegalMove(move, reason)
        obstacles = tuple(sorted(dst if a == src else a for a in self.obstacles))
        return derive(self, obstacles=obstacles, pending=None)

    def _play_regrow(self, move: Regrow) -> State:
        p = self.to_move
        if self.pending != ACE or not self.options.cannibal:
            raise IllegalMove(
                move, "an eaten disk comes back only on an ace, with the Cannibal rules")
        if not self.eaten[p]:
            raise IllegalMove(move, "no eaten disk to add")
        worm = self.worms[p]
        assert worm is not None
        cell = self.cell(move.cell, move)
        nbrs = self.nbrs
        leads = [w for w in (0, 1) if cell in nbrs[worm.end(w)]]
        if not leads:
            raise IllegalMove(move, "an eaten disk goes back next to an end of the worm")
        reasons = [self.regrow_reason(p, w, cell) for w in leads]
        if None not in reasons:
            raise IllegalMove(move, str(reasons[0]))
        lead = leads[reasons.index(None)]
        seq, marks = worm.lead_from(lead)
        mark = self.layout.advance(marks[0], seq[0], cell)
        eaten = list(self.eaten)
        eaten[p] -= 1
        worms = list(self.worms)
        state = derive(self, eaten=tuple(eaten), pending=None)
        if cell in self.layout.gate and self.layout.rounded(mark):
            worms[p] = None
            return self._end_turn(derive(state, worms=tuple(worms), places=(*self.places, p)))
        worms[p] = _from_lead(lead, (cell, *seq), (mark, *marks))
        return derive(state, worms=tuple(worms))

    def _end_turn(self, state: State) -> State:
        n = len(self.players)
        left = [i for i in range(n) if i not in state.places]
        turns = state.turns + 1
        if len(left) <= 1:
            return derive(state, places=(*state.places, *left), phase=Phase.OVER, pending=None,
                          turns=turns)
        if turns >= self.options.max_turns * n:
            return derive(state, phase=Phase.OVER, pending=None, turns=turns)
        nxt = next(i for k in range(1, n + 1) if (i := (state.to_move + k) % n) in left)
        return derive(state, to_move=nxt, pending=None, turns=turns)

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



# An obstacle's moves within a tile width, in the order the legal moves list them.
_SHIFTS = tuple((dx, dy) for dy in range(-TILE, TILE + 1) for dx in range(-TILE, TILE + 1)
                if 0 < dx * dx + dy * dy <= TILE_REACH_SQ)
_ROLL_ODDS = tuple((roll, 1 / len(ROLLS)) for roll in ROLLS)

# -- games and variants ------------------------------------------------------------------------

# The rulebook's games, as the examples name them, and in its words.
GAMES = {
    "basic": "the basic race",
    "slalom": "Slalom",
    "cannibal": "the basic race with Cannibal worms",
    "slalom+cannibal": "Slalom with Cannibal worms",
}
SLALOM_PAIRS = 2  # red and blue tiles each, unless a variant says otherwise
FEET = range(3, 7)  # the pylon 3 to 6 feet beyond the start line
PAIRS = range(1, 7)  # Slalom: one to six tiles of each colour


def deal(rng: random.Random, n_players: int = 2, game: str = "basic",
         length: int = STANDARD_LENGTH, pairs: int = SLALOM_PAIRS,
         obstacle_tiles: int = OBSTACLE_TILES, max_turns: int = MAX_TURNS) -> State:
    """A fresh game from ``rng``: the first player is drawn, Slalom tiles are shuffled (the
    pylon then sits after them, whatever ``length`` says)."""
    if game not in GAMES:
        raise ValueError(f"the game is one of {', '.join(GAMES)}")
    if not 2 <= n_players <= len(SUITS):
        raise ValueError("Worm Derby is for 2 to 4 players, one suit each")
    if pairs not in PAIRS:
        raise ValueError("Slalom uses one to six tiles of each colour")
    slalom = ""
    if "slalom" in game:
        colours = list("R" * pairs + "B" * pairs)
        rng.shuffle(colours)
        slalom = "".join(colours)
    layout = standard_layout(length=length, slalom=slalom)
    first = rng.randrange(n_players)
    seats = SUITS[:n_players]
    players = seats[first:] + seats[:first]
    options = Options(cannibal="cannibal" in game, max_turns=max_turns)
    return State.new(layout, players, options, obstacle_tiles)


@dataclass(frozen=True)
class Course:
    """A variant as ``deal`` takes it: the game, and the course's size."""

    game: str
    length: int = STANDARD_LENGTH
    pairs: int = SLALOM_PAIRS


def _variants() -> dict[str, tuple[Course, str]]:
    """Every game of the rulebook on every course it allows: the pylon 3 to 6 feet away, or 1
    to 6 Slalom tiles of each colour. The four games on their usual course come first, the
    basic race leading; their other sizes follow, named with the size."""
    usual: dict[str, tuple[Course, str]] = {}
    sized: dict[str, tuple[Course, str]] = {}
    for game, race in GAMES.items():
        if "slalom" in game:
            for pairs in PAIRS:
                name = game if pairs == SLALOM_PAIRS else f"{game}-{pairs}"
                tiles = f"{pairs} red and {pairs} blue tile{'s' if pairs > 1 else ''}"
                (usual if name == game else sized)[name] = (Course(game, pairs=pairs),
                                                            f"{race}, {tiles}")
        else:
            for feet in FEET:
                name = game if feet == FEET[0] else f"{game}-{feet}ft"
                (usual if name == game else sized)[name] = (
                    Course(game, length=cells_from_feet(feet)),
                    f"{race}, the pylon {feet} feet away, {OBSTACLE_TILES} obstacles")
    return usual | sized


VARIANTS = _variants()


class WormDerbyRules:
    """Worm Derby as a whole (the :class:`rulepress.games.base.Rules` protocol)."""

    name = "Worm Derby"
    min_players = 2
    max_players = len(SUITS)
    game_type = PERFECT_INFORMATION  # all on the table; the die is chance, not hidden

    def variants(self) -> tuple[Variant, ...]:
        return tuple(Variant(name, line) for name, (_, line) in VARIANTS.items())

    def new_game(self, players: int, seed: int, variant: str | None = None) -> State:
        course, _ = VARIANTS.get("basic" if variant is None else variant, (None, ""))
        if course is None:
            raise ValueError(f"Worm Derby has no variant '{variant}'; it has: "
                             f"{', '.join(VARIANTS)}")
        return deal(random.Random(seed), players, course.game, course.length, course.pairs)

    def parse_move(self, text: str) -> Move:
        return parse_move(text)

    def invariants(self, state: Any) -> list[str]:
        return invariants(state)


RULES = WormDerbyRules()


def invariants(s: State) -> list[str]:
    """What is wrong with a state: worms that are not six disks (on the course or eaten) in an
    unbranched chain on free cells, worms or tiles overlapping, a closed course, a turn order
    or finishing order that is not the players'."""
    broken: list[str] = []
    g = s.grid
    n = len(s.players)
    taken: set[int] = set()
    for p, worm in enumerate(s.worms):
        name = s.players[p]
        if worm is None:
            if s.phase is Phase.RACE and p not in s.places:
                broken.append(f"the {name} worm is off the course but has not finished")
            continue
        cells = worm.cells
        if len(worm.marks) != len(cells) or not 2 <= len(cells) <= WORM_LENGTH:
            broken.append(f"the {name} worm has {len(cells)} disks")
        if len(cells) + s.eaten[p] != WORM_LENGTH:
            broken.append(f"the {name} worm's disks on the course and eaten are not six")
        for i, c in enumerate(cells):
            chain = {cells[j] for j in (i - 1, i + 1) if 0 <= j < len(cells)}
            if {m for m in g.neighbours[c] if m in cells} != chain or c in s.tile_cells:
                broken.append(f"the {name} worm breaks its chain or lies under a tile at "
                              f"{g.name(c)}")
                break
        if taken & set(cells):
            broken.append(f"the {name} worm overlaps another")
        taken |= set(cells)
        if s.retreat[p] is not None and not s.options.cannibal:
            broken.append(f"the {name} worm backs away from a bite without Cannibal rules")
    covered = [c for a in s.obstacles for c in g.tile_cells(a)]
    if len(covered) != len(set(covered)) or set(covered) & s.layout.fixed_cells:
        broken.append("obstacle tiles overlap")
    if s.phase is Phase.RACE and not s.layout.open_course(s.tile_cells):
        broken.append("the course is closed round the pylon")
    if not 0 <= s.to_move < n or (s.phase is Phase.RACE and s.to_move in s.places):
        broken.append(f"seat {s.to_move} is to play")
    if len(set(s.places)) != len(s.places) or not set(s.places) <= set(range(n)):
        broken.append(f"finishing order {s.places} is not of the players")
    if s.pending is not None and (s.phase is not Phase.RACE or s.pending == NULL):
        broken.append(f"a roll of {face_name(s.pending)} waits to be played")
    if s.turns > s.options.max_turns * n:
        broken.append(f"{s.turns} turns played, more than the limit")
    return broken
