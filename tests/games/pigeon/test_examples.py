"""Pigeon (the card game): its examples' own figures and data (what every game is tested for is
in tests/games/test_every_game.py)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from rulepress.document.reader import read_document
from rulepress.games.pigeon import ENGINE, suits
from rulepress.games.pigeon.cards import DECK, parse_cards
from rulepress.games.pigeon.diagrams import PileView, cards_words, stages
from rulepress.games.pigeon.examples import replay
from rulepress.games.pigeon.rules import Reason
from rulepress.plugin import ExampleDataError, facts_of, figures_of

SOURCE = Path(__file__).parents[3] / "sources" / "pigeon" / "rules.md"
DOC = read_document(SOURCE)
EXAMPLES = [pytest.param(ex, id=ex.id) for ex in DOC.examples]


def test_the_examples_show_legal_and_refused_plays() -> None:
    legal = {ex.id: ex.claims.get("legal") for ex in DOC.examples}
    assert False in legal.values() and True in legal.values()


def example(name: str) -> Any:
    return next(e for e in DOC.examples if e.id == name)


def drawing(name: str) -> tuple[str, ET.Element]:
    """(caption, the SVG parsed) of an example's one figure."""
    (fig,) = figures_of(ENGINE, example(name).data)
    return fig.caption, ET.fromstring(fig.svg)


def strokes(svg: ET.Element, colour: str) -> list[str]:
    """The path data of the lines (paths stroked, not filled) in ``colour``."""
    return [e.get("d", "") for e in svg.iter() if e.tag.endswith("path")
            and e.get("stroke") == colour and e.get("fill") == "none"]


def letters(svg: ET.Element) -> str:
    return "".join("".join(e.itertext()) for e in svg.iter() if e.tag.endswith("text"))


@pytest.mark.parametrize("ex", EXAMPLES)
def test_every_figure_is_named_in_words_not_notation(ex: Any) -> None:
    (fig,) = figures_of(ENGINE, ex.data)
    assert fig.caption.endswith(".") and len(fig.caption.split()) >= 6
    assert not re.search(r"\b(10|[2-9AJQK])[CDHS]\b|>", fig.caption), fig.caption


@pytest.mark.parametrize("ex", EXAMPLES)
def test_each_kind_of_mark_is_one_element_however_many_cards(ex: Any) -> None:
    (fig,) = figures_of(ENGINE, ex.data)
    root = ET.fromstring(fig.svg)
    kinds = [(e.tag, e.get("fill"), e.get("stroke"), e.get("stroke-dasharray"),
              e.get("font-weight"), e.get("font-size")) for e in root]
    assert len(kinds) == len(set(kinds)), "two elements draw the same kind of mark"
    for text in root.iter("{http://www.w3.org/2000/svg}text"):
        placed = (text.text or "").replace(" ", "")
        assert len(text.get("x", "").split()) == len(placed) == len(text.get("y", "").split())


def test_a_refused_play_is_crossed_out_and_its_reason_is_in_the_caption() -> None:
    caption, svg = drawing("seven-on-seven")
    assert caption.startswith("Refused: Player 1 may not lay the seven of hearts onto pile A")
    assert caption.endswith(f"{Reason.CONNECTION}.")
    # the crossed arrow, the bar beside the refused card and the cross over it
    assert len(" ".join(strokes(svg, suits.RED)).split("M")) - 1 == 4
    legal_caption, legal = drawing("connection-up")
    assert not strokes(legal, suits.RED) and "Refused" not in legal_caption


def test_a_win_by_no_legal_move_shows_the_stuck_hand() -> None:
    caption, svg = drawing("win-no-move")
    assert "Player 2, holding the Kings of clubs and diamonds and the fives of hearts and " \
           "spades, has no legal move: Player 1 wins." in caption
    text = letters(svg)
    assert "Player2holds" in text and "Player1wins" in text


def test_a_finish_is_drawn_in_three_stages_as_on_the_web_page() -> None:
    r = replay(example("finish-with-king").data)
    before, laid, gone = stages(r)
    assert [v.cards[-1] for v in before.piles] == list(parse_cards("QC 5D 8S"))
    assert laid.piles[0] == PileView("A", parse_cards("QC KH"), "played", 1)
    assert gone.piles[0] == PileView("A", ()) and gone.state.pigeon == 0
    assert laid.state.pigeon == before.state.pigeon == 1  # the Pigeon moves in the last stage


def test_only_the_stage_right_after_a_play_marks_its_cards() -> None:
    forced, discarded = stages(replay(example("force-then-pigeon").data))[1:]
    assert forced.piles[0] == PileView("A", parse_cards("4C KH"), "forced", 1)
    assert discarded.piles[0] == PileView("A", parse_cards("4C KH"))
    assert discarded.state.pigeon is None and discarded.state.seats[0].limit == 5


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"setup": {"piles": {"A": "7X"}}}, ("setup", "piles", "A")),
        ({"setup": {"piles": {"A": "7C"}, "hands": {1: "7C"}}}, ("setup", "hands", 1)),
        ({"setup": {"hands": {1: "AC 2C 3C 4C 5C 6C"}}}, ("setup", "hands", 1)),
        ({"setup": {"decks": {2: 0}}}, ("setup", "decks", 2)),
        ({"setup": {"limits": {1: 3}}}, ("setup", "limits", 1)),
        ({"setup": {"pigeon": 3}}, ("setup", "pigeon")),
        ({"setup": {"piles": {"AA": "7C"}}}, ("setup", "piles", "AA")),
        ({"setup": {"colour": "red"}}, ("setup", "colour")),
        ({"setup": {}, "moves": ["7C"]}, ("moves", 0)),
        ({"setup": {}, "seed": 3}, ("seed",)),
    ],
)
def test_bad_example_data_names_its_key(data: dict[str, Any], path: tuple[Any, ...]) -> None:
    with pytest.raises(ExampleDataError) as exc:
        facts_of(ENGINE, data)
    assert exc.value.path == path


def test_a_seeded_example_replays_the_deal() -> None:
    facts = facts_of(ENGINE, {"seed": 5})
    assert facts["phase"] == "opening" and facts["hand_sizes"] == {"1": 5, "2": 5}
    assert facts["decks"] == {"1": 21, "2": 21}


def test_a_finished_pile_leaves_a_marked_gap_and_a_sweep_leaves_none() -> None:
    caption, svg = drawing("finish-with-king")
    assert "which finishes it" in caption and "Player 1 takes the Pigeon" in caption
    (slot,) = [e for e in svg.iter() if e.get("stroke-dasharray") == "4 3"]
    assert slot.get("d", "").count("M") == 1
    caption, svg = drawing("sweep")
    assert caption == ("Player 1 discards the Kings of clubs, diamonds and spades: every pile "
                       "leaves the table.")
    assert not [e for e in svg.iter() if e.get("stroke-dasharray") == "4 3"]
    assert "nopiles" in letters(svg)


def test_the_tokens_appear_only_in_the_examples_that_turn_on_them() -> None:
    _, plain = drawing("connection-up")
    assert "limit" not in letters(plain) and "aside" not in letters(plain)
    _, forced = drawing("forceplay-king")
    assert "Player1:limit5" in letters(forced) and "Player1:limit4" in letters(forced)
    _, both = drawing("force-then-pigeon")
    assert letters(both).count("Player1:limit") == 3 and "aside" in letters(both)


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        ("8H", "the eight of hearts"),
        ("4S 3S 2S", "the four, three and two of spades"),
        ("6H 6S 6D", "the sixes of hearts, spades and diamonds"),
        ("KC KD 5H", "the Kings of clubs and diamonds and the five of hearts"),
        ("7H 8S", "the seven of hearts and the eight of spades"),
    ],
)
def test_cards_are_named_in_words(cards: str, words: str) -> None:
    assert cards_words(parse_cards(cards)) == words


def test_a_new_pile_with_every_letter_taken_is_bad_data_at_its_move() -> None:
    cards = [c for c in DECK if c.rank not in (7, 8)]
    piles = {chr(ord("A") + i): str(cards[i]) for i in range(26)}
    setup = {"piles": piles, "hands": {1: "7H", 2: 1}, "decks": {1: 1, 2: 1}}
    with pytest.raises(ExampleDataError) as exc:
        facts_of(ENGINE, {"setup": setup, "moves": ["7H > new"]})
    assert exc.value.path == ("moves", 0)
