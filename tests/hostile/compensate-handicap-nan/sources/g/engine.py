"""Count to three, with a handicap whose highest value is nan."""

from dataclasses import dataclass

from rulepress.plugin import Engine, Handicap, Outcome, Variant


@dataclass(frozen=True)
class State:
    at: int = 0

    def current_player(self):
        return self.at % 2

    def legal_moves(self):
        return (1,)

    def chance_outcomes(self):
        return ()

    def apply(self, move):
        return State(self.at + 1)

    def is_over(self):
        return self.at >= 3

    def outcome(self):
        return Outcome((1 - self.at % 2,), (0.0, 0.0), "three") if self.is_over() else None

    def turn(self):
        return self.at


class Rules:
    min_players = max_players = 2
    handicap = Handicap("turns given to the second player", 0, float("nan"))

    def handicapped(self, state, value):
        return state

    def variants(self):
        return (Variant("standard", "count to three"),)

    def new_game(self, players, seed, variant=None):
        return State()


ENGINE = Engine(
    name="count",
    rules=Rules,
    component_counts=lambda: {"counter": 1},
    replay=lambda example: {"at": example["setup"]["at"] + 1},
)
