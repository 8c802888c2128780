"""Worm Derby engine: one test (or a few) per rule, on small hand-made courses."""

from __future__ import annotations

from typing import Any

import pytest

from rulepress.games.base import CHANCE, ExampleDataError, IllegalMove, NotationError, derive
from rulepress.games.worm_derby import ENGINE
from rulepress.games.worm_derby.course import CourseError, Layout, standard_layout
from rulepress.games.worm_derby.examples import _race_state
from rulepress.games.worm_derby.grid import TILE, Grid, parse_xy, xy_name
from rulepress.games.worm_derby.moves import (
    ACE,
    NULL,
    Build,
    Pass,
    Place,
    Regrow,
    Roll,
    ShiftTile,
    Steps,
    parse_face,
    parse_move,
    parse_worm,
)
from rulepress.games.worm_derby.rules import RULES, Options, Phase, State, Worm
from rulepress.plugin import facts_of

COURSE = {"size": "12x20", "start": ["c3", "i3"], "pylon": "f15"}


def run(worms: dict[str, Any], rolls: list[Any], moves: list[str], **setup: Any) -> dict[str, Any]:
    course = dict(COURSE, **setup.pop("course", {}))
    example = {"setup": {"course": course, "worms": worms, **setup}, "rolls": rolls,
               "moves": moves}
    return dict(facts_of(ENGINE, example))


def state(worms: dict[str, Any], **setup: Any) -> State:
    course = dict(COURSE, **setup.pop("course", {}))
    return _race_state({"course": course, "worms": worms, **setup})


MOONS = [f"{c}{r}" for c, r in (("k", 3), ("k", 4), ("k", 5), ("k", 6), ("k", 7), ("k", 8))]


# -- notation ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["e7-e8-f8", "e7-e8xe9", "stuck", "k12>l13", "pass", "+e5",
                                  "place k12", "build f7", "a1-a2", "roll null", "roll ace",
                                  "roll 5"])
def test_moves_round_trip_through_notation(text: str) -> None:
    move = parse_move(text)
    assert str(move) == text
    assert repr(move) == f"Move.parse({text!r})"


def test_cells_and_worms_round_trip() -> None:
    assert xy_name(*parse_xy("e7")) == "e7"
    assert parse_xy("a1") == (0, 0)
    assert parse_worm("e3-e4-f4") == parse_worm(["e3", "e4", "f4"])
    g = Grid(12, 20)
    assert g.name(g.parse("l20")) == "l20"
    with pytest.raises(NotationError):
        g.parse("m1")
    with pytest.raises(NotationError):
        parse_move("e7+e8")


def test_die_faces() -> None:
    assert parse_face(None) == NULL
    assert parse_face("null") == NULL
    assert parse_face("ace") == ACE
    assert parse_face(4) == 4
    with pytest.raises(NotationError):
        parse_face(6)


# -- the grid model and the course -------------------------------------------------------------
def test_standard_course_measures() -> None:
    lay = standard_layout()
    g = lay.grid
    left, right = sorted(lay.start)
    assert g.xy(right)[0] - g.xy(left)[0] - 2 == 8  # four tile widths between the start tiles
    assert lay.pylon_row - lay.start_row - 2 == 36  # three feet of one-inch cells
    assert len(lay.gate) == 16
    assert 2 * lay.axis == g.xy(left)[0] + 2 + g.xy(right)[0]


def test_slalom_course_layout() -> None:
    lay = standard_layout(slalom="RB")
    g = lay.grid
    (first, c1), (second, c2) = lay.gates
    assert (c1, c2) == ("red", "blue")
    assert g.xy(first)[1] - (lay.start_row + 2) == 6
    assert g.xy(second)[1] - (g.xy(first)[1] + 2) == 3
    assert lay.pylon_row - (g.xy(second)[1] + 2) == 4


def test_bad_courses_are_rejected() -> None:
    g = Grid(12, 20)
    with pytest.raises(CourseError):  # pylon off the axis
        Layout(g, (g.parse("c3"), g.parse("i3")), g.parse("g15"))
    with pytest.raises(CourseError):  # start tiles on different rows
        Layout(g, (g.parse("c3"), g.parse("i4")), g.parse("f15"))


# -- worm shape ---------------------------------------------------------------------------------
@pytest.mark.parametrize("worm", [["e5", "e6", "f6", "f5"],  # a square: a loop
                                  ["e5", "e6", "e8"],  # a gap
                                  ["e5", "f6"],  # diagonal is not touching
                                  ["e5", "e6", "f6", "f7", "e7"]])  # touches itself
def test_bad_worm_shapes_are_bad_data(worm: list[str]) -> None:
    with pytest.raises(ExampleDataError):
        state({"suns": worm, "moons": MOONS})


# -- steps ----------------------------------------------------------------------------------
def test_a_step_lays_the_tail_disk_against_the_head() -> None:
    f = run({"suns": ["f5", "f6", "f7"], "moons": MOONS}, [2], ["f7-f8-f9"])
    assert f["worms"]["suns"] == ["f7", "f8", "f9"]
    assert f["turn"] == "moons"


@pytest.mark.parametrize(("move", "reason"), [
    ("f7-f9-f10", "cells are not neighbours"),
    ("f7-g7-g6", "the worm would touch itself"),
    ("f6-f7-f8", "a move starts at an end disk of your worm"),
    ("f7-f8-e8", "cell covered by a tile"),
])
def test_illegal_steps_say_why(move: str, reason: str) -> None:
    f = run({"suns": ["f4", "f5", "f6", "f7"], "moons": MOONS}, [2], [move],
            course={"obstacles": ["d8"]})
    assert f["legal"] is False
    assert f["reason"] == reason
    assert f["illegal_move"] == move


def test_other_worms_are_obstacles() -> None:
    f = run({"suns": ["j5", "j6", "j7"], "moons": MOONS}, [2], ["j7-k7-k8"])
    assert f["reason"] == "cell taken by another worm"


def test_all_steps_come_from_one_end_and_the_path_is_consistent() -> None:
    s = state({"suns": ["f5", "f6", "f7"], "moons": MOONS}).apply(Roll(3))
    for move in s.legal_moves():
        assert isinstance(move, Steps)
        assert move.count == 3
        assert move.path[0] in ((5, 4), (5, 6))
        s.apply(move)  # every listed move is playable


def test_a_two_disk_worm_cannot_step_back_onto_its_own_cell() -> None:
    s = state({"suns": ["f5", "f6"], "moons": MOONS}).apply(Roll(2))
    with pytest.raises(IllegalMove, match="a disk must move to a new cell"):
        s.apply(parse_move("f6-f5"))
    assert all(str(m) != "f6-f5-f6" for m in s.legal_moves())


# -- as many steps as possible -------------------------------------------------------------------
def test_a_worm_must_move_as_far_as_it_can() -> None:
    worms = {"suns": ["f5", "f6", "f7"], "moons": MOONS}
    f = run(worms, [3], ["f7-f8"])
    assert f["reason"] == "the worm must move as many steps as it can"
    assert f["can_move"] == [3]


def test_more_steps_than_rolled_is_illegal() -> None:
    f = run({"suns": ["f5", "f6", "f7"], "moons": MOONS}, [2], ["f7-f8-f9-f10"])
    assert f["reason"] == "more steps than the roll allows"


def test_a_trapped_worm_is_stuck() -> None:
    # a worm in a pocket: tiles all round
    obstacles = ["d9", "g9", "e11", "e7"]
    s = state({"suns": ["f9", "f10"], "moons": MOONS}, course={"obstacles": obstacles})
    s = s.apply(Roll(4))
    assert [str(m) for m in s.legal_moves()] == ["stuck"]
    after = s.apply(Steps(()))
    assert after.turn() == 1
    with pytest.raises(IllegalMove):
        state({"suns": ["f5", "f6", "f7"], "moons": MOONS}).apply(Roll(2)).apply(Steps(()))


# -- null and ace ------------------------------------------------------------------------
def test_null_ends_the_turn() -> None:
    f = run({"suns": ["f5", "f6", "f7"], "moons": MOONS}, [None], [])
    assert f["steps"] == [0]
    assert f["turn"] == "moons"


def test_ace_moves_a_tile_then_rolls_again() -> None:
    f = run({"suns": ["f5", "f6", "f7"], "moons": MOONS}, ["ace", "ace", 2],
            ["f10>f11", "pass", "f7-f8-f9"], course={"obstacles": ["f10"]})
    assert f["legal"] is True
    assert f["obstacles"] == ["f11"]
    assert f["steps"] == [0, 0, 2]
    assert f["turn"] == "moons"


@pytest.mark.parametrize(("move", "reason"), [
    ("f10>f13", "an obstacle moves at most one tile width"),
    ("f10>h12", "an obstacle moves at most one tile width"),
    ("f10>g9", "tiles may touch but not overlap"),
    ("f10>f8", "an obstacle may never cover a worm"),
    ("c3>c4", "only a face-down obstacle tile may move"),
    ("f15>f14", "only a face-down obstacle tile may move"),
])
def test_ace_tile_moves_follow_the_rules(move: str, reason: str) -> None:
    f = run({"suns": ["f6", "f7", "f8"], "moons": MOONS}, ["ace"], [move],
            course={"obstacles": ["f10", "h9"]})
    assert (f["legal"], f["reason"]) == (False, reason)


def test_an_obstacle_may_not_enter_the_gate() -> None:
    f = run({"suns": ["f9", "f10", "f11"], "moons": MOONS}, ["ace"], ["e5>e4"],
            course={"obstacles": ["e5"]})
    assert f["reason"] == "an obstacle may not block the start gate"


def test_an_obstacle_may_not_close_the_course() -> None:
    # a wall across the course with one gap of two cells (i, j); a tile could slide into it
    wall = ["a10", "c10", "e10", "g10", "k10", "i12"]
    worms = {"suns": ["f5", "f6", "f7"], "moons": MOONS}
    assert run(worms, ["ace"], ["i12>i13"], course={"obstacles": wall})["legal"] is True
    f = run(worms, ["ace"], ["i12>i10"], course={"obstacles": wall})
    assert f["reason"] == "the course must stay open round the pylon"


# -- the pylon ----------------------------------------------------------------------------------
def test_crossing_the_rear_line_rounds_the_pylon_and_crossing_back_undoes_it() -> None:
    worms = {"suns": ["e17", "f17"], "moons": MOONS}
    there = run(worms, [2], ["f17-g17-g18"])
    assert there["pylon_passed"]["suns"] is True
    back = run(worms, [2, 2, 2], ["f17-g17-g18", "k8-k9-k10", "g18-f18-e18"])
    assert back["worms"]["suns"] == ["f18", "e18"]
    assert back["pylon_passed"]["suns"] is False



def _ends_rounded(s: State, p: int) -> dict[str, bool]:
    worm = s.worms[p]
    assert worm is not None
    return {s.grid.name(worm.cells[i]): s.layout.rounded(worm.marks[i]) for i in (0, -1)}


def test_a_worm_that_turns_round_keeps_the_trip_only_once_every_disk_was_laid_since() -> None:
    # The rulebook's table-side test: the far end counts only when every disk was laid on the
    # crossing step or after it (the crossing and five more, for six disks).
    start = state({"suns": ["a18", "b18", "c18", "d18", "e18", "f18"], "moons": MOONS})
    # the crossing and four more
    s = start.apply(Roll(5)).apply(parse_move("f18-g18-h18-i18-j18-k18"))
    assert _ends_rounded(s, 0) == {"f18": False, "k18": True}
    s = start.apply(Roll(4)).apply(parse_move("f18-g18-h18-i18-j18"))  # the crossing, 3 more
    s = s.apply(Roll(2)).apply(parse_move("k8-k9-k10"))
    s = s.apply(Roll(2)).apply(parse_move("j18-k18-l18"))  # two more: five after the crossing
    assert _ends_rounded(s, 0) == {"g18": True, "l18": True}


def test_reaching_behind_the_pylon_without_crossing_does_not_count() -> None:
    f = run({"suns": ["e13", "e14", "e15", "e16"], "moons": MOONS}, [3], ["e16-e17-e18-e19"])
    assert f["pylon_passed"]["suns"] is False


def test_crossing_the_axis_before_the_pylon_does_not_count() -> None:
    f = run({"suns": ["e9", "e10", "e11"], "moons": MOONS}, [2], ["e11-f11-g11"])
    assert f["pylon_passed"]["suns"] is False


# -- winning and places -------------------------------------------------------------------------
def test_entering_the_gate_without_rounding_does_not_win() -> None:
    f = run({"suns": ["f8", "f7", "f6", "f5"], "moons": MOONS}, [2], ["f5-f4-f3"])
    assert f["winner"] is None
    assert f["over"] is False


def test_the_first_home_wins_and_the_rest_race_for_places() -> None:
    worms = {"suns": ["g8", "g7", "g6", "g5"], "moons": ["e8", "e7", "e6", "e5"],
             "arms": MOONS}
    f = run(worms, [3, 2], ["g5-g4", "e5-e4"], rounded=["suns", "moons"])
    assert f["places"] == ["suns", "moons", "arms"]
    assert f["winner"] == "suns"
    assert f["over"] is True
    assert f["worms"]["suns"] == []


def test_steps_after_a_win_are_not_played() -> None:
    f = run({"suns": ["g8", "g7", "g6", "g5"], "moons": MOONS}, [3], ["g5-g4-g3"],
            rounded=["suns"])
    assert f["reason"] == "the worm has finished: its move ends there"


def test_turn_cap_ends_in_a_draw() -> None:
    s = state({"suns": ["f5", "f6", "f7"], "moons": MOONS})
    s = derive(s, options=Options(max_turns=2))
    for _ in range(4):
        s = s.apply(Roll(NULL))
    assert s.over and s.places == () and s.winner is None
    outcome = s.outcome()
    assert outcome is not None and outcome.winners == () and outcome.scores == (0, 0)
    assert outcome.reason == "after 2 turns each, a draw among the worms still racing"


# -- set-up ------------------------------------------------------------------------------
def test_dealing_and_placing_obstacles() -> None:
    for players, each in ((2, 10), (3, 7), (4, 5)):
        s = State.new(standard_layout(), ("suns", "moons", "crowns", "arms")[:players])
        assert s.hands == (each,) * players
        assert s.phase is Phase.PLACE
    s = State.new(standard_layout(), ("suns", "moons"))
    g = s.grid
    with pytest.raises(IllegalMove, match="three tile widths clear"):
        s.apply(Place(g.xy(g.parse("l13"))))  # too near the start line
    with pytest.raises(IllegalMove, match="three tile widths clear"):
        s.apply(Place(g.xy(g.parse("l41"))))  # too near the pylon
    s2 = s.apply(Place(g.xy(g.parse("l20"))))
    assert s2.to_move == 1 and s2.hands == (9, 10)
    with pytest.raises(IllegalMove, match="overlap"):
        s2.apply(Place(g.xy(g.parse("m21"))))


def test_building_worms_in_the_gate() -> None:
    s = State.new(standard_layout(), ("suns", "moons"), obstacle_tiles=0)
    assert s.phase is Phase.BUILD
    g = s.grid
    with pytest.raises(IllegalMove):
        s.apply(Build(g.xy(g.parse("l10"))))  # the gate row nearer the pylon
    s = s.apply(Build(g.xy(g.parse("l9"))))
    s = s.apply(Build(g.xy(g.parse("m9"))))
    assert s.phase is Phase.RACE
    assert s.worm_names(0) == ["l9", "l8", "l7", "l6", "l5", "l4"]
    assert sum(1 for c in s.worms[0].cells if c in s.layout.gate) == 1  # type: ignore[union-attr]


# -- Slalom ------------------------------------------------------------------------------
SLALOM = {"size": "12x24", "pylon": "f19", "red": ["f8"], "blue": ["f13"]}


def slalom(worms: dict[str, Any], rolls: list[Any], moves: list[str], **kw: Any) -> dict[str, Any]:
    return run(worms, rolls, moves, course=SLALOM, variant="slalom", **kw)


def test_slalom_right_of_red_is_passed_left_is_wrong() -> None:
    worms = {"suns": ["h5", "h6", "h7", "h8"], "moons": ["b3", "b4", "b5"]}
    assert slalom(worms, [2], ["h8-h9-h10"])["gates"]["suns"]["f8"] == "passed"
    worms = {"suns": ["e5", "e6", "e7", "e8"], "moons": ["b3", "b4", "b5"]}
    f = slalom(worms, [2, 2, 2], ["e8-e9-e10", "b5-b6-b7", "e7-e6-e5"])
    assert f["gates"]["suns"]["f8"] == "not passed"  # backing down undid the wrong pass


def test_slalom_wrong_pass_spoils_the_pylon() -> None:
    worms = {"suns": ["e15", "e16", "e17", "e18"], "moons": ["b3", "b4", "b5"]}
    f = slalom(worms, [2], ["e18-e19-e20"])
    assert f["pylon_passed"]["suns"] is False  # the worm never passed the tiles
    f = slalom(worms, [3], ["e18-e21-e22"])
    assert f["legal"] is False


def test_slalom_ace_is_one_step_and_no_tile_moves() -> None:
    worms = {"suns": ["h5", "h6", "h7"], "moons": ["b3", "b4", "b5"]}
    f = slalom(worms, ["ace"], ["h7-h8"])
    assert (f["steps"], f["turn"]) == ([1], "moons")
    f = slalom(worms, ["ace"], ["pass"])
    assert f["reason"] == "Slalom tiles never move: an ace moves your worm one step"


# -- Cannibal worms ------------------------------------------------------------------------
def cannibal(worms: dict[str, Any], rolls: list[Any], moves: list[str], **kw: Any) -> \
        dict[str, Any]:
    return run(worms, rolls, moves, variant="cannibal", **kw)


def test_bites_need_the_cannibal_rules() -> None:
    worms = {"suns": ["f5", "f6", "f7"], "moons": ["f8", "g8", "h8"]}
    assert run(worms, [2], ["f7xf8"])["reason"] == "cell taken by another worm"
    f = cannibal(worms, [2], ["f7xf8"])
    assert f["legal"] is True
    assert f["eaten"] == {"suns": 0, "moons": 1}
    assert f["retreat"]["moons"] == "g8"


def test_a_bite_ends_the_move_and_bites_only_ends() -> None:
    worms = {"suns": ["f5", "f6", "f7"], "moons": ["f8", "g8", "h8"]}
    with pytest.raises(ExampleDataError):  # nothing may follow a bite: no notation for it
        cannibal(worms, [3], ["f7xf8-f9"])
    worms = {"suns": ["g5", "g6", "g7"], "moons": ["f8", "g8", "h8"]}
    assert cannibal(worms, [2], ["g7xg8"])["reason"] == "cell taken by another worm"


def test_a_bite_may_come_after_ordinary_steps() -> None:
    worms = {"suns": ["f4", "f5", "f6"], "moons": ["f8", "g8", "h8"]}
    f = cannibal(worms, [4], ["f6-f7xf8"])
    assert f["steps"] == [2]
    assert f["lengths"] == {"suns": 3, "moons": 2}


def test_two_disk_worms_cannot_be_bitten() -> None:
    worms = {"suns": ["f5", "f6", "f7"], "moons": ["f8", "g8"]}
    assert cannibal(worms, [2], ["f7xf8"], eaten={"moons": 4})["reason"] == \
        "a worm of two disks cannot be bitten"


def test_a_bitten_worm_backs_away_once() -> None:
    worms = {"suns": ["f5", "f6", "f7"], "moons": ["g8", "h8", "i8"]}
    f = cannibal(worms, [2], ["g8-g9-g10"], retreat={"moons": "g8"}, turn="moons",
                 eaten={"moons": 1})
    assert f["reason"] == "the bitten worm must move away from the attacker"
    f = cannibal(worms, [None, 2, 2], ["f7-f8-f9", "g8-g9-g10"], retreat={"moons": "g8"},
                 turn="moons", eaten={"moons": 1})
    assert f["reason"] == "the bitten worm must move away from the attacker"  # null: still due
    f = cannibal(worms, [2, 2, 2], ["i8-j8-k8", "f7-f8-f9", "i8-i9-i10"],
                 retreat={"moons": "g8"}, turn="moons", eaten={"moons": 1})
    assert f["legal"] is True  # after one move the duty is gone


def test_steps_are_capped_at_the_worm_length() -> None:
    worms = {"suns": ["f5", "f6", "f7"], "moons": MOONS}
    assert cannibal(worms, [5], ["f7-f8-f9-f10"], eaten={"suns": 3})["legal"] is True
    assert run(worms, [5], ["f7-f8-f9-f10"])["legal"] is False


def test_regrow_on_an_ace() -> None:
    worms = {"suns": ["f5", "f6", "f7"], "moons": MOONS}
    f = cannibal(worms, ["ace", 2], ["+f8", "f8-f9-f10"], eaten={"suns": 1})
    assert f["lengths"]["suns"] == 4 and f["eaten"]["suns"] == 0
    assert cannibal(worms, ["ace"], ["+f8"])["reason"] == "no eaten disk to add"
    assert cannibal(worms, ["ace"], ["+g6"], eaten={"suns": 1})["reason"] == \
        "an eaten disk goes back next to an end of the worm"


def test_legal_moves_are_sorted_and_playable_after_an_ace() -> None:
    s = state({"suns": ["f5", "f6", "f7"], "moons": MOONS}, course={"obstacles": ["f10"]},
              variant="cannibal", eaten={"suns": 1}).apply(Roll(ACE))
    moves = s.legal_moves()
    assert [str(m) for m in moves] == sorted(str(m) for m in moves)
    assert Pass() in moves
    assert any(isinstance(m, ShiftTile) for m in moves)
    assert any(isinstance(m, Regrow) for m in moves)
    for m in moves:
        s.apply(m)


def test_slalom_lines_stop_counting_once_the_rear_line_is_crossed() -> None:
    # The rulebook: a tile missed on the way out cannot be put right from behind the pylon.
    lay = standard_layout(slalom="R")
    g = lay.grid
    tx, ty = g.xy(lay.red[0])
    below, above = g.index(tx + TILE, ty), g.index(tx + TILE, ty + 1)  # right of the red tile
    assert lay.gate_status(lay.advance(lay.zero, below, above)) == ("passed",)
    behind_pylon = (1, 0, 0)
    assert lay.advance(behind_pylon, below, above) == behind_pylon
    assert not lay.rounded(behind_pylon)


@pytest.mark.parametrize("length", [20, 36, 72])
def test_setup_clearance_reads_as_the_rulebook_words_it(length: int) -> None:
    # Rulebook: 6 free rows beyond the start line; from the pylon 6 free rows short of it or 6
    # free columns beside it; and wholly short of the pylon.
    lay = standard_layout(length=length)
    g = lay.grid
    px, py = g.xy(lay.pylon)
    for a in range(g.width * g.height):
        if not g.tile_fits(a):
            continue
        x, y = g.xy(a)
        beside = max(px - (x + TILE), x - (px + TILE)) >= 6
        words = y - (lay.start_row + TILE) >= 6 and y + TILE <= py and \
            (py - (y + TILE) >= 6 or beside)
        assert lay.in_setup_zone(a) == words, g.name(a)


# -- the rules protocol ----------------------------------------------------------------------
def test_a_due_roll_is_a_chance_node_of_six_even_faces() -> None:
    s = state({"suns": ["f5", "f6", "f7"], "moons": MOONS})
    assert s.current_player() == CHANCE
    assert [str(m) for m in s.legal_moves()] == [
        "roll null", "roll ace", "roll 2", "roll 3", "roll 4", "roll 5"]
    assert [m for m, _ in s.chance_outcomes()] == list(s.legal_moves())
    assert all(p == pytest.approx(1 / 6) for _, p in s.chance_outcomes())
    with pytest.raises(IllegalMove, match="roll the die first"):
        s.apply(parse_move("f7-f8-f9"))
    rolled = s.apply(parse_move("roll 2"))
    assert rolled.current_player() == 0 and rolled.chance_outcomes() == ()
    with pytest.raises(IllegalMove, match="no roll is due now"):
        rolled.apply(Roll(3))
    assert rolled.apply(parse_move("f7-f8-f9")).current_player() == CHANCE


def test_a_finished_race_names_the_winner_and_scores_the_places() -> None:
    s = state({"suns": ["g8", "g7", "g6", "g5"], "moons": ["e8", "e7", "e6", "e5"],
               "arms": MOONS}, rounded=["suns", "moons"])
    assert s.outcome() is None
    s = s.apply(Roll(3)).apply(parse_move("g5-g4")).apply(Roll(2)).apply(parse_move("e5-e4"))
    assert s.is_over() and s.legal_moves() == ()
    outcome = s.outcome()
    assert outcome is not None
    assert (outcome.winners, outcome.scores) == ((0,), (2, 1, 0))
    assert outcome.reason == "every worm is home but the last, which takes last place"
    assert s.turn() == 2


def test_moves_on_the_column_x_read_back() -> None:
    # "x" is the bite mark and the 24th column's letter: a cell always ends with its row.
    for text in ("w12-x12-x13", "x12xx13", "w3-x3xw4"):
        assert str(parse_move(text)) == text
    assert parse_move("w12-x12-x13") == Steps(((22, 11), (23, 11), (23, 12)))
    assert parse_move("x12xx13") == Steps(((23, 11), (23, 12)), eats=True)


def test_variants_are_the_rulebooks_games_and_course_sizes() -> None:
    names = [v.name for v in RULES.variants()]
    assert names[:4] == ["basic", "slalom", "cannibal", "slalom+cannibal"]
    assert {"basic-6ft", "cannibal-4ft", "slalom-1", "slalom+cannibal-6"} <= set(names)
    assert len(names) == 2 * 4 + 2 * 6  # 3 to 6 feet; 1 to 6 Slalom tiles of each colour
    lay = RULES.new_game(2, 1, "basic-6ft").layout
    assert lay.pylon_row - lay.start_row - TILE == 72
    slalom = RULES.new_game(3, 1, "slalom+cannibal-3")
    assert len(slalom.layout.red) == len(slalom.layout.blue) == 3 and slalom.options.cannibal
    assert RULES.new_game(2, 1).layout == RULES.new_game(2, 1, "basic").layout
    with pytest.raises(ValueError, match="no variant 'giant'"):
        RULES.new_game(2, 1, "giant")
    with pytest.raises(ValueError, match="2 to 4 players"):
        RULES.new_game(5, 1)


def test_invariants_name_a_broken_worm_and_overlapping_tiles() -> None:
    s = state({"suns": ["f5", "f6", "f7"], "moons": MOONS}, eaten={"suns": 3})
    assert RULES.invariants(s) == []
    worm = s.worms[0]
    assert worm is not None
    bent = Worm((worm.cells[0], worm.cells[2]), worm.marks[:2])
    broken = RULES.invariants(derive(s, worms=(bent, s.worms[1])))
    assert any("breaks its chain" in b for b in broken)
    assert any("are not six" in b for b in broken)
    g = s.grid
    stacked = derive(s, obstacles=(g.parse("b10"), g.parse("c10")))
    assert "obstacle tiles overlap" in RULES.invariants(stacked)
