"""A jackpot at the table and in the lobby (R-JACK-1, R-JACK-2): the pool in the title and the lobby row, a banner
when one is paid, gone when the next hand starts; names from the room are cleaned before the screen shows them."""

from __future__ import annotations

from tui.model import TableModel
from tui.widgets.lobby import row_cells


def test_r_jack_2_a_paid_monte_carlo_jackpot_shows_a_banner_until_the_next_hand() -> None:
    model = TableModel("h1", "me")
    model.apply({"type": "table", "table": "h1", "seats": [], "jackpot": {"pool": "monte_carlo_holdem",
                                                                          "amount": 10_003}})
    assert model.jackpot is not None and model.jackpot["amount"] == 10_003
    model.apply({"type": "jackpot_paid", "table": "h1", "hand": "h1-1",
        "jackpot": "monte_carlo_holdem", "pool": 10_003, "winning_hand": "four of a kind",
        "winning_cards": ["Qs", "Qh", "Qd", "Qc", "Kd"],
        "paid": [{"seat": 0, "name": "ana\x1b[2J", "role": "winner", "amount": 8_002}], "next_pool": 2_001})
    assert model.jackpot_banner == "JACKPOT! Monte-Carlo: four of a kind — ana 8002. Next pool 2001."  # escape cleaned
    assert model.log[-1] == model.jackpot_banner
    model.apply({"type": "event", "table": "h1", "hand": "h1-2",
                 "event": {"event": "hand_started", "variant": "texas_holdem", "structure": "no_limit",
                           "button_seat": 0, "stacks": [[0, 100], [1, 100]]}})
    assert model.jackpot_banner == ""


def test_r_jack_1_a_bad_beat_banner_names_the_losing_hand_and_every_share() -> None:
    model = TableModel("h1", "me")
    model.apply({"type": "jackpot_paid", "table": "h1", "hand": "h1-1",
        "jackpot": "bad_beat_holdem", "pool": 10_003, "losing_hand": "four of a kind",
        "paid": [{"seat": 0, "name": "ana", "role": "loser", "amount": 4_001},
                 {"seat": 1, "name": "bo", "role": "winner", "amount": 2_000},
                 {"seat": 2, "name": "cy", "role": "other", "amount": 2_000}], "next_pool": 2_002})
    assert model.jackpot_banner == ("JACKPOT! Bad beat: four of a kind lost — ana 4001, bo 2000, cy 2000. "
                                    "Next pool 2002.")


def test_the_lobby_row_of_a_jackpot_table_shows_its_pool() -> None:
    row = {"id": "h1", "name": "Hold'em", "game": "texas_holdem", "structure": "no_limit", "stakes": [5, 10],
           "seats": 6, "jackpot": {"pool": "smart_holdem", "amount": 7_000}}
    assert row_cells(row)[0] == "Hold'em (jackpot 7000)"
