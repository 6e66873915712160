"""The player's current hand in words as he plays (issue 14, player features): made hands only, in every game,
lows included; shown under the felt ("Your hand: pair of kings")."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.showdown import made_hand_name
from engine.variants import VARIANTS
from tests.tui.helpers import wait_until
from tests.tui.recorded import hello, lobby_rows, msg, side_pot_hand
from tests.tui.test_snapshots import replay_app

CASES = [
    ("texas_holdem", "Kd Ks", "", "pair of kings"),
    ("texas_holdem", "Ah 7c", "", ""),  # no made hand: nothing named
    ("texas_holdem", "Ah 7c", "Ad 7s 2c", "two pair, aces and sevens"),
    ("texas_holdem", "Ah 7c", "Kh Qh 2h Jh", "flush, ace high"),
    ("short_deck_holdem", "Ah 9c", "6d 7s 8h", "straight, nine high"),  # A-6-7-8-9: the lowest straight
    ("short_deck_holdem", "Kh Kd", "Ks 7h 7d", "full house, kings full of sevens"),
    ("omaha", "Ah Ad 7c 2s", "", "pair of aces"),
    ("omaha", "Ah Kd 7c 2s", "Qh Jh Th 3h", "straight, ace high"),  # exactly two hole cards: no flush
    ("omaha_five_card", "9h 9d 7c 2s 3s", "9c 4d Kh", "three nines"),
    ("omaha_hi_lo", "Ah 2d 7c Ks", "3c 4d 8h", "eight-four low"),
    ("seven_card_stud", "Qd Qs 4c", "", "pair of queens"),
    ("seven_card_stud", "Qd Qs 4c 4h Qh", "", "full house, queens full of fours"),
    ("seven_card_stud_hi_lo", "Ad 2s 3c 5h 8h", "", "eight-five low"),
    ("five_card_draw", "Jd Js 4c 4h 9s", "", "two pair, jacks and fours"),
    ("deuce_to_seven_triple_draw", "7c 5d 4h 3s 2c", "", "seven-five low"),
    ("deuce_to_seven_triple_draw", "8c 8d 4h 3s 2c", "", "pair of eights"),
    ("deuce_to_seven_single_draw", "As 5d 4h 3s 2c", "", "ace-five low"),  # the ace is high: no wheel in 2-7
    ("badugi", "2s 4c 6d 9h", "", "nine-six-four-deuce badugi"),
    ("badugi", "As Ad 2s 3h", "", "three-card three-deuce-ace"),
    ("thirty_two_card_draw", "Ad As Ah 7c 8d", "", "three aces"),
    ("razz", "Kd 8h 5d 4h 3s 2c Ah", "", "five-four low"),  # the wheel, aces low
    ("razz", "Kd Kh Ks Qc Qd 2c 3c", "", "pair of queens"),  # four ranks only: the lowest pair plays
    ("americana", "Kd Ks 7h", "", "pair of kings"),
    ("telesina", "Td Ts 7h 8c", "", "pair of tens"),
]


@pytest.mark.parametrize(("game", "hole", "board", "named"), CASES)
def test_the_made_hand_is_named_in_every_game(game: str, hole: str, board: str, named: str) -> None:
    assert made_hand_name(VARIANTS[game], parse_cards(hole), parse_cards(board)) == named


def test_every_game_is_covered() -> None:
    assert {game for game, *_ in CASES} == set(VARIANTS)


async def test_the_table_shows_my_hand_under_the_felt() -> None:
    app = replay_app([hello(), msg("lobby", tables=lobby_rows()), *side_pot_hand()])
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "holdem-1-2" in app.models and app.models["holdem-1-2"].needs_action,
                         what="my turn")
        app.show_table("holdem-1-2")
        await pilot.pause(0.3)
        view = app.view_of("holdem-1-2")
        assert view is not None
        status = view.query_one("#status")
        # A♥ K♦ on Q♠ J♦ 4♣ T♣: a straight to the ace
        assert str(status.render()) == "Your hand: straight, ace high"
