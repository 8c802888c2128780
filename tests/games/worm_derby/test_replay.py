"""Worm Derby's engine against a recording of itself: seeded games replayed move by move must
give the same legal moves (in order), states and outcomes as the engine recorded in
tests/fixtures/worm_derby/replay.json, made before the engine was sped up (commit f804a6f).
A faster engine is welcome; a different one is a rules change and must say so."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from rulepress.games.base import CHANCE, chance_move, derive, random_agent
from rulepress.games.worm_derby.player import GoalPlayer
from rulepress.games.worm_derby.rules import RULES

pytestmark = pytest.mark.slow  # recorded races replayed whole

FIXTURE = Path(__file__).parents[2] / "fixtures" / "worm_derby" / "replay.json"
# (variant, players, seed, agent): random play covers every phase; the goal player reaches
# finishes, bites and regrowth that random play hardly does.
GAMES = [
    *(("basic", 2, seed, "random") for seed in range(1, 7)),
    ("basic", 3, 7, "random"), ("basic", 4, 8, "random"), ("basic-5ft", 2, 9, "random"),
    *(("slalom", 2, seed, "random") for seed in range(10, 13)),
    *(("cannibal", 2, seed, "random") for seed in range(13, 16)),
    ("slalom+cannibal", 2, 16, "random"), ("cannibal", 3, 17, "random"),
    ("basic", 2, 18, "goal"), ("cannibal", 2, 19, "goal"), ("slalom+cannibal", 3, 20, "goal"),
]


def record(variant: str, players: int, seed: int, agent: str) -> dict[str, Any]:
    """The game played to its end: a digest of every state, its legal moves and the move made,
    and the outcome in the clear."""
    state: Any = RULES.new_game(players, seed, variant)
    rng = random.Random(seed)
    play = GoalPlayer() if agent == "goal" else random_agent
    digest = hashlib.sha256()
    moves = 0
    while not state.is_over():
        legal = [str(m) for m in state.legal_moves()]
        move = chance_move(state, rng) if state.current_player() == CHANCE else play(state, rng)
        digest.update(f"{state!r}|{legal}|{move}\n".encode())
        state = state.apply(move)
        moves += 1
    digest.update(repr(state).encode())
    outcome = state.outcome()
    return {"game": f"{variant}/{players}/{seed}/{agent}", "moves": moves,
            "winners": list(outcome.winners), "scores": list(outcome.scores),
            "reason": outcome.reason, "digest": digest.hexdigest()}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: "/".join(map(str, g)))
def test_engine_replays_its_recording(game: tuple[str, int, int, str]) -> None:
    recorded = {r["game"]: r for r in json.loads(FIXTURE.read_text())}
    got = record(*game)
    assert got == recorded[got["game"]]


if __name__ == "__main__":  # records the fixture afresh: only for a deliberate rules change
    FIXTURE.write_text(json.dumps([record(*g) for g in GAMES], indent=1) + "\n")



@pytest.mark.parametrize("seed", range(6))
def test_tile_shortcuts_agree_with_a_full_flood_fill(seed: int) -> None:
    """Placing or moving a tile closes the course exactly when a flood fill of the whole board
    says so, on ragged walls of tiles across the course with one gap: the ring shortcuts
    never decide otherwise."""
    rng = random.Random(seed)
    state: Any = RULES.new_game(2, seed)
    lay, g = state.layout, state.grid
    taken = set(lay.fixed_cells)
    obstacles: list[int] = []

    def put(a: int) -> None:
        cells = set(g.tile_cells(a))
        if g.tile_fits(a) and not cells & taken:
            taken.update(cells)
            obstacles.append(a)

    row = lay.start_row + 12
    gaps = set(rng.sample(range(0, g.width, 2), 1))
    for x in range(0, g.width, 2):
        if x not in gaps:
            put(g.index(x, row + rng.choice((0, 0, 1))))
    for _ in range(8):
        put(rng.randrange(g.width * g.height))
    state = derive(state, obstacles=tuple(sorted(obstacles)))
    checked = closed = 0
    for src in (None, *rng.sample(obstacles, 4)):
        base = set(state.tile_cells) - (set(g.tile_cells(src)) if src is not None else set())
        for a in range(g.width * g.height):
            cells = set(g.tile_cells(a))
            if not g.tile_fits(a) or cells & base or src == a:
                continue
            expected = lay.open_course(base | cells)
            assert (state._open_after(a, moved=src) is None) == expected, (g.name(a), src)
            checked += 1
            closed += not expected
    assert checked > 3000 and closed > 0
