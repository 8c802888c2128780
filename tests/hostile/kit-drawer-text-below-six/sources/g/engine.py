"""An engine whose kit drawer sets its text at 4 pt."""

from dataclasses import dataclass

from rulepress.plugin import Outcome, Variant


@dataclass(frozen=True)
class State:
    at: int = 0

    def current_player(self):
        return self.at % 2

    def legal_moves(self):
        return ("one",)

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


def draw(canvas, face):
    canvas.setFont("Helvetica", 4)
    canvas.drawString(2, 2, "tiny")


class Rules:
    min_players = max_players = 2

    def variants(self):
        return (Variant("standard", "count to three"),)

    def new_game(self, players, seed, variant=None):
        return State()


class CountEngine:
    name = "count"

    def rules(self):
        return Rules()

    def drawers(self):
        return {"counter": draw}

    def component_counts(self):
        return {"counter": 1}

    def replay(self, example):
        return {"at": example["setup"]["at"] + 1}


ENGINE = CountEngine()
