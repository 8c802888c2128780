"""A goal-directed player (a shortest-path worm), as an agent of the rules protocol.

The player steers the leading end down distance fields over the tiles: first past each Slalom
tile on its side, then across the pylon's rear line, then home to the gate. It ignores other
worms when measuring, and tries its best steps first when it searches for a full move. In the
set-up it lays its obstacles at random (from the agent's random source) and builds its worm as
near the middle of the gate as it can.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rulepress.games.worm_derby.course import Layout, Mark
from rulepress.games.worm_derby.moves import ACE, Build, Move, Pass, Place, Regrow, Steps
from rulepress.games.worm_derby.rules import Phase, State
from rulepress.plugin import Agent

FAR = 1 << 20
VARIANTS = ("basic", "slalom", "cannibal", "slalom+cannibal")


def _field(adjacent: tuple[tuple[int, ...], ...], blocked: frozenset[int],
           seeds: dict[int, int]) -> list[int]:
    """Shortest distances (in steps) to reach a seed cell and finish from there."""
    dist = [FAR] * len(adjacent)
    pending = sorted((d, c) for c, d in seeds.items() if c not in blocked)
    k = 0
    frontier: list[int] = []
    d = pending[0][0] if pending else 0
    while frontier or k < len(pending):
        while k < len(pending) and pending[k][0] <= d:  # seeds join when the wave reaches them
            c = pending[k][1]
            if dist[c] == FAR:
                dist[c] = d
                frontier.append(c)
            k += 1
        nxt = []
        for c in frontier:
            for n in adjacent[c]:
                if dist[n] == FAR and n not in blocked:
                    dist[n] = d + 1
                    nxt.append(n)
        frontier = nxt
        d += 1
    return dist


def _bits_field(layout: Layout, blocked: frozenset[int], seeds: dict[int, int]) -> list[int]:
    """The same distances as _field, by a flood on bit sets (no Slalom lines to respect; no
    step crosses the pylon's rear line)."""
    g = layout.grid
    w = g.width
    total = g.width * g.height
    free = layout.all_bits & ~sum(1 << c for c in blocked)
    not_left, not_right = layout.edge_masks
    no_right, no_left = layout.ray_barrier
    dist = [FAR] * total
    pending = sorted((d, c) for c, d in seeds.items() if c not in blocked)
    k = 0
    seen = 0
    frontier = 0
    d = pending[0][0] if pending else 0
    while frontier or k < len(pending):
        while k < len(pending) and pending[k][0] <= d:
            bit = 1 << pending[k][1]
            if not seen & bit:
                frontier |= bit
            k += 1
        seen |= frontier
        bits = bin(frontier)  # reading set bits from the text is much faster than bit tricks
        top = len(bits) - 1
        i = bits.find("1", 2)
        while i >= 0:
            dist[top - i] = d
            i = bits.find("1", i + 1)
        grown = (((frontier & ~no_right) << 1) & not_left) | \
            (((frontier & ~no_left) >> 1) & not_right) | (frontier << w) | (frontier >> w)
        frontier = grown & free & ~seen
        d += 1
    return dist


@lru_cache(maxsize=64)
def _adjacency(layout: Layout) -> tuple[tuple[int, ...], ...]:
    """Neighbours without any step across a counting line: a field's stages meet only at
    the seeds. (The field walks backwards: its step c -> n is the worm's step n -> c.)"""
    nbrs = layout.grid.neighbours
    cross = layout.crossings
    return tuple(tuple(n for n in ns if (n, c) not in cross) for c, ns in enumerate(nbrs))


class Fields:
    """Distance fields for one arrangement of tiles (recomputed when an obstacle moves)."""

    def __init__(self, layout: Layout, blocked: frozenset[int]) -> None:
        self.layout = layout
        self.blocked = blocked
        self._cache: dict[object, list[int]] = {}
        self._basic: tuple[list[int], list[int]] | None = None

    def home(self) -> list[int]:
        if "home" not in self._cache:
            seeds = dict.fromkeys(self.layout.gate, 0)
            self._cache["home"] = _bits_field(self.layout, self.blocked, seeds)
        return self._cache["home"]

    def round(self) -> list[int]:
        if "round" not in self._cache:
            home = self.home()
            seeds: dict[int, int] = {}
            for (a, b), delta in self.layout.crossings.items():
                if delta[0][0] == 0 and a not in self.blocked and b not in self.blocked \
                        and home[b] < FAR:
                    seeds[a] = min(seeds.get(a, FAR), home[b] + 1)
            if self.layout.gates:
                adj = _adjacency(self.layout)
                self._cache["round"] = _field(adj, self.blocked, seeds)
            else:
                self._cache["round"] = _bits_field(self.layout, self.blocked, seeds)
        return self._cache["round"]

    def gate(self, i: int, undo: bool) -> list[int]:
        """Distances for a worm that must next pass Slalom tile i (or first undo a wrong pass):
        seeded across the tile's line from the next stage's field, so stages compare."""
        key = ("gate", i, undo)
        if key not in self._cache:
            lay = self.layout
            slot = 1 + 2 * i + (1 if undo else 0)
            after = self.gate(i, False) if undo else \
                (self.gate(i + 1, False) if i + 1 < len(lay.gates) else self.round())
            sign = -1 if undo else 1
            seeds: dict[int, int] = {}
            for (a, b), delta in lay.crossings.items():
                if (slot, sign) in delta and a not in self.blocked and after[b] < FAR:
                    seeds[a] = min(seeds.get(a, FAR), after[b] + 1)
            adj = _adjacency(lay)
            self._cache[key] = _field(adj, self.blocked, seeds)
        return self._cache[key]

    def distance(self, cell: int, mark: Mark) -> int:
        lay = self.layout
        if len(mark) == 1:  # no Slalom tiles: the hot path of every search
            if self._basic is None:
                self._basic = (self.round(), self.home())
            return self._basic[mark[0] != 0][cell]
        if lay.rounded(mark):
            return self.home()[cell]
        if mark[0] == 0:
            for i, status in enumerate(lay.gate_status(mark)):
                if status != "passed":
                    return self.gate(i, status == "wrong side")[cell]
        return self.round()[cell]


@lru_cache(maxsize=256)
def fields_for(layout: Layout, blocked: frozenset[int]) -> Fields:
    return Fields(layout, blocked)


@dataclass(frozen=True)
class GoalPlayer:
    """Chooses the move that brings its leading end nearest its next goal. ``bite``: take a
    bite when one is on the way; ``wander`` is the chance of playing a random legal move
    instead (for tests that want odd situations)."""

    bite: bool = True
    wander: float = 0.0

    def fields(self, state: State) -> Fields:
        return fields_for(state.layout, state.tile_cells)

    def __call__(self, state: Any, rng: random.Random) -> Move:
        s: State = state
        if self.wander and s.phase is Phase.RACE and rng.random() < self.wander:
            moves = s.legal_moves()
            if moves:
                return rng.choice(moves)
        if s.phase is Phase.PLACE:
            return self._place(s, rng)
        if s.phase is Phase.BUILD:
            return self._build(s)
        face = s.pending
        assert face is not None
        if face == ACE and s.options.cannibal and s.eaten[s.to_move]:
            regrow = self._regrow(s)
            if regrow is not None:
                return regrow
        if face == ACE and not s.slalom:
            return Pass()
        return self._steps(s, face)

    def _place(self, state: State, rng: random.Random) -> Move:
        g = state.grid
        lay = state.layout
        lo, hi = lay.start_row, lay.pylon_row
        for _ in range(2000):
            x = rng.randrange(g.width - 1)
            y = rng.randrange(lo, hi)
            a = g.index(x, y)
            if state.place_reason(a) is None:
                return Place((x, y))
        return state.legal_moves()[0]  # the random tries missed: the first place there is

    def _build(self, state: State) -> Move:
        """As near the middle of the gate as there is room."""
        axis = state.layout.axis
        builds = [m for m in state.legal_moves() if isinstance(m, Build)]
        return min(builds, key=lambda m: (abs(2 * m.cell[0] + 1 - 2 * axis), m.cell[0]))

    def _regrow(self, state: State) -> Move | None:
        f = self.fields(state)
        p = state.to_move
        worm = state.worms[p]
        assert worm is not None
        best: tuple[int, int] | None = None
        for lead in (0, 1):
            seq, marks = worm.lead_from(lead)
            for n in state.nbrs[seq[0]]:
                if state.regrow_reason(p, lead, n) is None:
                    d = f.distance(n, state.layout.advance(marks[0], seq[0], n))
                    if best is None or d < best[0]:
                        best = (d, n)
        return None if best is None else Regrow(state.grid.xy(best[1]))

    def _steps(self, state: State, face: int) -> Move:
        p = state.to_move
        worm = state.worms[p]
        assert worm is not None
        cap = state.step_cap(face, worm)
        f = self.fields(state)
        best: tuple[int, tuple[int, ...], bool] | None = None
        leads = sorted(state.leads(p), key=lambda w: f.distance(worm.end(w), worm.marks[-w]))
        for need in (cap, -1):
            if need < 0:  # no full move: find out how far the worm can go
                need = state.max_steps(p, cap)
            for lead in leads:
                seq, marks = worm.lead_from(lead)
                if best is not None and f.distance(seq[0], marks[0]) - need >= best[0]:
                    continue  # this end cannot get nearer than the best move found
                found = self._search(state, f, p, seq[0], seq, marks, need, ())
                if found is not None and (best is None or found[0] < best[0]):
                    best = found
            if best is not None:
                break
        if best is None or len(best[1]) < 2:
            return Steps(())
        g = state.grid
        return Steps(tuple(g.xy(c) for c in best[1]), best[2])

    def _search(self, state: State, f: Fields, p: int, start: int, seq: tuple[int, ...],
                marks: tuple[Mark, ...], need: int,
                path: tuple[int, ...]) -> tuple[int, tuple[int, ...], bool] | None:
        """Best-first depth-first search for a complete move: (distance, cells, bites)."""
        if len(path) == need:
            return f.distance(seq[0], marks[0]), (start, *path), False
        options = []
        for n in state.nbrs[seq[0]]:
            reason, bites = state.step_reason(p, seq, n)
            if reason is not None:
                continue
            if bites:
                if self.bite:
                    return -1, (start, *path, n), True
                continue
            nseq, nmarks, won = state.extend(seq, marks, n)
            if won:
                return -2, (start, *path, n), False
            options.append((f.distance(n, nmarks[0]), n, nseq, nmarks))
        options.sort(key=lambda t: t[:2])
        for _, n, nseq, nmarks in options:
            got = self._search(state, f, p, start, nseq, nmarks, need, (*path, n))
            if got is not None:
                return got
        return None


AGENTS: Mapping[str, tuple[str, Agent]] = {
    "goal": (
        "steers its leading end along the shortest path to its next goal (each Slalom tile on "
        "its side, round the pylon, home), biting when a bite is on the way; passes on an ace; "
        "lays obstacles at random and builds in the middle of the gate",
        GoalPlayer(),
    ),
}
