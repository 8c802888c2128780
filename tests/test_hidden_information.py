"""The rules protocol's hidden-information part: ``view(seat)`` and ``Rules.sample(view, rng)``.

For every bundled game that declares hidden information, on states met in random games: a
sampled state has the very view it was sampled from, keeps the game's invariants and offers
the seat to move the same moves; the hidden part varies with the random source; and a view
never tells the hidden cards (two true states that differ only there have equal views).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from rulepress.games import available_engines, entry_point_module, load_engine
from rulepress.games.base import (
    CHANCE,
    IMPERFECT,
    PERFECT,
    GameState,
    Rules,
    chance_move,
    game_type,
    hides_information,
    random_agent,
    sample_of,
    view_of,
)
from rulepress.games.go_stop.cards import MONTH_MASK
from rulepress.games.go_stop.rules import RULES as GO_STOP
from rulepress.games.go_stop.rules import has_four
from rulepress.games.pigeon.rules import RULES as PIGEON
from rulepress.games.pigeon.rules import Seat
from rulepress.games.pigeon_race.rules import RULES as PIGEON_RACE


def rules_of(name: str) -> Rules:
    rules = load_engine(name).rules()
    assert rules is not None
    return rules


def declared(information: str) -> list[str]:
    """The bundled games whose rules declare this kind of information (a game added beside
    them is tested by what it declares, without naming it here)."""
    bundled = [n for n in available_engines()
               if str(entry_point_module(n)).startswith("rulepress.games.")]
    return [n for n in bundled if game_type(rules_of(n)).information == information]


HIDDEN = declared(IMPERFECT)


def states(rules: Rules, players: int, seed: int, every: int = 3) -> list[GameState[Any]]:
    """Every ``every``-th state of a random game, the last included."""
    state = rules.new_game(players, seed)
    rng = random.Random(seed)
    seen = [state]
    while not state.is_over():
        move = chance_move(state, rng) if state.current_player() == CHANCE \
            else random_agent(state, rng)
        state = state.apply(move)
        seen.append(state)
    return seen[::every] + [seen[-1]]


def test_the_card_games_declare_what_they_hide() -> None:
    assert {"go_stop", "pigeon", "pigeon_race"} <= set(HIDDEN)
    assert "worm_derby" in declared(PERFECT)
    assert hides_information(rules_of("pigeon")) and not hides_information(rules_of("worm_derby"))


def test_a_perfect_information_games_view_is_the_state() -> None:
    rules = rules_of("worm_derby")
    state = rules.new_game(2, 3)
    assert view_of(rules, state, 1) is state
    assert sample_of(rules, state, random.Random(0)) is state


@pytest.mark.parametrize("name", HIDDEN)
def test_a_sample_has_the_view_it_was_drawn_from(name: str) -> None:
    rules = rules_of(name)
    for players in range(rules.min_players, min(rules.max_players, 3) + 1):
        for seed in range(3):
            for state in states(rules, players, seed):
                for seat in range(players):
                    view = view_of(rules, state, seat)
                    hash(view)
                    got = sample_of(rules, view, random.Random(seed * 7 + seat))
                    assert view_of(rules, got, seat) == view
                    assert rules.invariants(got) == [], rules.invariants(got)
                    assert got.is_over() == state.is_over()
                    assert got.outcome() == state.outcome(), "how it ended is public"
                    if state.current_player() == seat:  # its own choices are what it knows
                        assert list(got.legal_moves()) == list(state.legal_moves())


@pytest.mark.parametrize("name", HIDDEN)
def test_the_hidden_part_varies_with_the_random_source(name: str) -> None:
    rules = rules_of(name)
    state = rules.new_game(2, 11)
    view = view_of(rules, state, 0)
    samples = {repr(sample_of(rules, view, random.Random(k))) for k in range(8)}
    assert len(samples) == 8
    again = sample_of(rules, view, random.Random(3))
    assert again == sample_of(rules, view, random.Random(3)), "the same source, the same state"


def test_pigeon_views_do_not_tell_the_other_hand_or_the_decks() -> None:
    state = PIGEON.new_game(2, 5)
    other = state.seats[1]
    # Swap the opponent's first card in hand with the top of their deck: a different true state.
    swapped = Seat((other.hand[0], *other.deck[1:]), (other.deck[0], *other.hand[1:]), other.limit)
    twin = replace(state, seats=(state.seats[0], swapped))
    assert twin != state
    assert state.view(0) == twin.view(0)
    assert state.view(1) != twin.view(1), "the opponent sees their own hand"
    hidden = {*other.hand, *other.deck, *state.seats[0].deck}
    assert not hidden & cards_in(state.view(0))


def cards_in(value: object) -> set[Any]:
    """Every card a view holds, however deep."""
    from dataclasses import fields, is_dataclass

    from rulepress.games.pigeon.cards import Card

    if isinstance(value, Card):
        return {value}
    if is_dataclass(value):
        return set().union(*(cards_in(getattr(value, f.name)) for f in fields(value)))
    if isinstance(value, tuple):
        return set().union(*map(cards_in, value))
    return set()


def test_go_stop_views_do_not_tell_the_other_hands_or_the_stock() -> None:
    state = GO_STOP.new_game(3, 4)
    hand = state.hands[2]
    card = hand & -hand  # the lowest card of player 3's hand
    top = state.stock[0]
    hands = (*state.hands[:2], hand ^ card | 1 << top)
    twin = replace(state, hands=hands, stock=(card.bit_length() - 1, *state.stock[1:]))
    assert GO_STOP.invariants(twin) == []
    assert twin.view(0) == state.view(0) and twin.view(1) == state.view(1)
    assert twin.view(2) != state.view(2)


def test_go_stop_cards_shown_by_a_shake_stay_known() -> None:
    for seed in range(400):  # a shake whose number's last card the other player cannot see
        state = GO_STOP.new_game(2, seed)
        shakes = [m for m in state.legal_moves() if m.kind == "shake"]
        seat = state.to_move
        if shakes and not (state.view(1 - seat).hand | state.row) & MONTH_MASK[shakes[0].month - 1]:
            break
    else:
        pytest.fail("no deal in 400 offers such a shake")
    after = state.apply(shakes[0])
    month = MONTH_MASK[shakes[0].month - 1]
    view = after.view(1 - seat)
    shown = view.shown[seat]
    assert shown.bit_count() == 3 and shown == after.hands[seat] & month
    for k in range(100):
        got = GO_STOP.sample(view, random.Random(k))
        # The shaker showed every card of that number it held: the fourth is elsewhere.
        assert got.hands[seat] & month == shown
        assert got.view(1 - seat) == view


def test_go_stop_samples_deal_no_hand_a_whole_number() -> None:
    """Four of a number in a hand ends the game at the deal: a hand in play never holds one."""
    dealt = 0
    for seed in range(40):
        state = GO_STOP.new_game(2, seed)
        if state.is_over():
            continue
        view = state.view(0)
        for k in range(25):
            got = GO_STOP.sample(view, random.Random(k))
            assert not has_four(got.hands[1]), (seed, k)
            dealt += 1
    assert dealt > 500


def test_go_stop_a_forged_view_no_deal_fits_is_refused() -> None:
    state = GO_STOP.new_game(2, 7)
    view = state.view(0)
    # Player 2 has shaken every number: no card left unseen may be in that hand.
    forged = replace(view, shaken=(0, (1 << 12) - 1))
    with pytest.raises(ValueError, match="no deal of the unseen cards fits"):
        GO_STOP.sample(forged, random.Random(0))


def test_pigeon_race_views_do_not_tell_the_other_hand_the_deck_or_the_order() -> None:
    state = PIGEON_RACE.new_game(2, 9)
    hand = state.hands[1]
    twin = replace(state, hands=(state.hands[0], (state.deck[0], *hand[1:])),
                   deck=(hand[0], *state.deck[1:]), orders=(state.orders[0],
                                                            tuple(reversed(state.orders[1]))))
    assert PIGEON_RACE.invariants(twin) == []
    assert twin.view(0) == state.view(0)
    assert twin.view(1) != state.view(1)


def test_go_stop_four_of_a_number_shows_the_hands_it_is_scored_by() -> None:
    state = GO_STOP.new_game(2, 80)  # a deal that gives a hand four of a number
    assert state.result == "four of a number" and state.is_over()
    for seat in (0, 1):
        got = GO_STOP.sample(state.view(seat), random.Random(seat))
        assert got.outcome() == state.outcome() and got.hands == state.hands
