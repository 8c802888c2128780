"""Tension, for games with running scores (``standing()``): how often the lead changes hands,
and how often a player behind at a point of the game comes back to win.

Asked for with ``simulate --tension``: the running score of every turn's end costs about as much
as the game itself in Pigeon Race, so an ordinary run does not pay for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulepress.games.base import GameState, standing_of

# Points of a game, as shares of its turns, where a comeback is counted from.
CHECKPOINTS = {"quarter": 0.25, "half": 0.5, "three_quarters": 0.75}


def leader(standing: Sequence[float]) -> int | None:
    """The seat alone at the top of the running score (None on a tie)."""
    top = max(standing)
    ahead = [seat for seat, points in enumerate(standing) if points == top]
    return ahead[0] if len(ahead) == 1 else None


def tension(turn_ends: Sequence[GameState[Any]]) -> tuple[int, tuple[tuple[int, ...], ...]] | None:
    """From the states at the end of each turn (the start first): the times the sole lead
    passed to another seat (a tie keeps the last leader), and the seats strictly behind at each
    checkpoint. None when the game keeps no running score."""
    standings = [standing_of(state) for state in turn_ends]
    if not standings or any(s is None for s in standings):
        return None
    changes, last = 0, None
    for standing in standings:
        assert standing is not None
        now = leader(standing)
        if now is not None:
            changes += last is not None and now != last
            last = now
    behind = []
    for share in CHECKPOINTS.values():
        standing = standings[min(len(standings) - 1, round(share * (len(standings) - 1)))]
        assert standing is not None
        top = max(standing)
        behind.append(tuple(seat for seat, points in enumerate(standing) if points < top))
    return changes, tuple(behind)
