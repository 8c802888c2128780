"""What one simulated game tells the tally (play.py makes them, stats.py counts them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    """What one game tells the tally."""

    index: int
    lineup: tuple[str, ...]  # the agent at each seat
    turns: int
    end: str  # the outcome's reason, or CAPPED
    winners: tuple[int, ...]
    scores: tuple[float, ...]  # empty when capped
    first: int | None  # the seat that made the first decision
    answers: Mapping[str, bool | float | None]
    # --tension: times the lead changed hands, and the seats behind at each checkpoint
    lead_changes: int | None = None
    behind: tuple[tuple[int, ...], ...] = ()

    def line(self) -> str:
        """The game in a line of text: a report's sample compares these."""
        scores = ",".join(f"{s:g}" for s in self.scores)
        winners = ",".join(map(str, self.winners))
        return f"{self.index} {'/'.join(self.lineup)} {self.turns} {self.end!r} {winners} {scores}"
