"""Issue 27, "Confusing / cosmetic": what the table's keys, bars, seats and log say (draws, capped limits,
folded, showdown questions, stud down cards, bomb pots, long names, card text)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Button

from tests.tui.recorded import engine_showdown, event, msg
from tests.tui.test_table_bar import HAND, TABLE, keys_shown, my_turn, room_app
from tui.keys import COMMANDS, LOBBY, TABLES, TOURNAMENT, help_text, key_display
from tui.keys import TABLE as AT_TABLE
from tui.model import SeatInfo, TableModel
from tui.widgets.cards import card_text
from tui.widgets.felt import seat_markers
from tui.widgets.hand_log import CARD, log_line
from tui.widgets.seat import seat_text

BETTING = {"seat": 1, "can_fold": True, "can_check": False, "call_amount": None, "min_raise_to": None,
           "max_raise_to": None, "is_bet": False, "bring_in_amount": None, "max_discards": None,
           "can_show": False, "can_muck": False}


def test_one_meaning_per_key() -> None:
    """H was the hand log at a table and the Host screen everywhere: a key as the player reads it (README,
    help, key bar) is one key in each place."""
    for places in ((AT_TABLE, TABLES), (LOBBY, TABLES), (TOURNAMENT,)):
        keys: dict[str, set[str]] = {}
        for command in COMMANDS:
            if command.where in places:
                for key in command.key_names:
                    keys.setdefault(key_display(key), set()).add(key)
        assert all(len(names) == 1 for names in keys.values()), {shown: names for shown, names in keys.items()
                                                                if len(names) > 1}


async def shown_keys_after(pilot: Any, legal: dict[str, Any] | None, *events: dict[str, Any]) -> list[str]:
    app, _ = await my_turn(pilot)
    model = app.models[TABLE]
    for message in events:
        model.apply(message)
    model.legal = legal
    app._push(TABLE)
    await pilot.pause(0.2)
    app.refresh_bindings()
    await pilot.pause(0.2)
    return [description for _, description in keys_shown(app)]


async def test_a_draw_offers_d_not_fold_check_or_raise_on_the_key_bar() -> None:
    async with room_app().run_test(size=(120, 36)) as pilot:
        shown = await shown_keys_after(pilot, {**BETTING, "can_fold": False, "max_discards": 5})
        assert "Draw" in shown
        assert not {"Fold", "Check/Call", "Raise", "All-in"} & set(shown)


async def test_a_capped_round_offers_no_raise() -> None:
    async with room_app().run_test(size=(120, 36)) as pilot:
        shown = await shown_keys_after(pilot, {**BETTING, "call_amount": 4})
        view = pilot.app.view_of(TABLE)
        assert "Fold" in shown and "Check/Call" in shown and "Raise" not in shown
        assert not view.query_one("#raise", Button).display and not view.query_one("#sizing").display
        assert str(view.query_one("#call", Button).label) == "Call 4 (C)"


async def test_after_folding_no_betting_keys_or_buttons() -> None:
    async with room_app().run_test(size=(120, 36)) as pilot:
        shown = await shown_keys_after(pilot, None, event(TABLE, HAND, "folded", seat=1, left_table=False))
        view = pilot.app.view_of(TABLE)
        assert not {"Fold", "Check/Call", "Raise", "All-in"} & set(shown)
        assert not view.query_one("#main-actions").display and not view.query_one("#sizing").display
        assert "Leave" in shown


async def test_show_and_muck_have_their_own_row_not_the_betting_bar() -> None:
    async with room_app().run_test(size=(120, 36)) as pilot:
        legal = {**BETTING, "can_fold": False, "can_show": True, "can_muck": True}
        shown = await shown_keys_after(pilot, legal)
        view = pilot.app.view_of(TABLE)
        assert "Show" in shown and "Muck" in shown and not {"Fold", "Check/Call", "Raise"} & set(shown)
        assert view.query_one("#answer-row").display and not view.query_one("#main-actions").display
        assert view.query_one("#show", Button).parent is view.query_one("#answer-row")


def draw_model() -> TableModel:
    model = TableModel(TABLE, "me", game="deuce_to_seven_triple_draw", structure="fixed_limit")
    model.apply(msg("table", table=TABLE, max_seats=6, waiting=[], hand_running=True, seats=[
        {"seat": seat, "name": name, "stack": 100} for seat, name in enumerate(["ana", "me"])]))
    hand = "t-h-3"
    for name, fields in [
            ("hand_started", {"variant": "deuce_to_seven_triple_draw", "structure": "fixed_limit", "button_seat": 0,
                              "stacks": [[0, 100], [1, 100]]}),
            ("blind_posted", {"seat": 0, "kind": "small_blind", "amount": 1, "live": True, "all_in": False}),
            ("blind_posted", {"seat": 1, "kind": "big_blind", "amount": 2, "live": True, "all_in": False}),
            ("cards_dealt_face_down", {"seat": 0, "count": 5}),
            ("hole_cards_dealt", {"seat": 1, "cards": ["7h", "5d", "Kc", "3s", "2c"]}),
            ("betting_round_started", {"round_index": 0, "street": "predraw", "pot": 3}),
            ("called", {"seat": 0, "amount": 1, "all_in": False})]:
        model.apply(event(TABLE, hand, name, **fields))
    return model


def test_a_draw_says_first_draw_while_drawing_and_after_the_first_draw_while_betting() -> None:
    model = draw_model()
    assert not model.drawing and model.street_label == "before the draw"  # the big blind still to act
    model.apply(event(TABLE, "t-h-3", "checked", seat=1))
    assert model.drawing and model.street_label == "first draw"
    model.apply(event(TABLE, "t-h-3", "cards_drawn", seat=1, count=1))
    model.apply(event(TABLE, "t-h-3", "drawn_cards_dealt", seat=1, discarded=["Kc"], cards=["4d"]))
    model.apply(event(TABLE, "t-h-3", "cards_drawn", seat=0, count=0))
    model.apply(event(TABLE, "t-h-3", "betting_round_started", round_index=1, street="first_draw", pot=4))
    assert not model.drawing and model.street_label == "after the first draw"
    assert model.log[-3:] == ["First draw", "You throw Kc, draw 4d", "ana stands pat"]
    assert log_line("You throw Kc, draw 4d").plain == "You throw K♣, draw 4♦"


def test_the_stud_log_has_each_street_with_its_up_cards() -> None:
    model = TableModel("stud-2-4", "me", game="seven_card_stud")
    for message in engine_showdown("stud-2-4", "seven_card_stud"):
        model.apply(message)
    streets = [line for line in model.log if line.split(":")[0] in
               ("Third street", "Fourth street", "Fifth street", "Sixth street", "Seventh street")]
    assert [line.split(":")[0] for line in streets] == ["Third street", "Fourth street", "Fifth street",
                                                         "Sixth street", "Seventh street"]
    fourth = streets[1]
    assert all(f"{name} " in fourth for name in ("ana", "you", "bruno", "carla"))
    assert streets[-1] == "Seventh street: dealt face down"
    rendered = [log_line(line, names={"ana", "me", "bruno", "carla"}).plain for line in model.log]
    assert not any(CARD.search(line) for line in rendered)  # every card with its suit symbol


def test_stud_down_cards_are_underlined_and_the_help_says_so() -> None:
    assert "underline" in str(card_text("Ah", down=True).style)
    assert "underline" not in str(card_text("Ah").style)
    assert "face-down cards are underlined" in help_text()


def test_a_bomb_pot_shows_the_button_but_no_blinds() -> None:
    model = TableModel(TABLE, "me", game="texas_holdem", hand_running=True, button_seat=0, small_blind_seat=1,
                       big_blind_seat=0)
    assert seat_markers(model, 0) == "D/BB" and seat_markers(model, 1) == "SB"
    model.apply(event(TABLE, "h-1", "hand_started", variant="texas_holdem", structure="no_limit", button_seat=0,
                      stacks=[[0, 100], [1, 100]]))
    model.apply(event(TABLE, "h-1", "bomb_pot_started", ante=5))
    model.small_blind_seat, model.big_blind_seat = 1, 0
    assert model.bomb_pot == 5
    assert seat_markers(model, 0) == "D" and seat_markers(model, 1) == ""


def test_a_name_is_shortened_only_when_the_box_has_no_room() -> None:
    info = SeatInfo(0, "bartholomew_jones", stack=1250)
    assert seat_text(info, 30).plain.splitlines()[0] == "bartholomew_jones  1250"
    assert seat_text(info, 16).plain.splitlines()[0] == "bartholome… 1250"


def test_an_all_in_raise_still_says_raise_on_the_seat() -> None:
    info = SeatInfo(2, "bruno", stack=0, bet=25, in_hand=True, all_in=True, last_action="raise", face_down=2)
    assert "raise 25" in seat_text(info, 18).plain and "all-in" in seat_text(info, 18).plain
    info.last_action = "complete"
    assert "complete 25" in seat_text(info, 20).plain


def test_one_player_is_one_player_in_tournament_lines() -> None:
    from tui.tournament_book import TournamentBook, event_words, screen_text

    book = TournamentBook(me="me", rows={"sng": {"id": "sng", "name": "Sit & Go"}})
    assert event_words(book, "sng", {"kind": "final_table", "players": 1, "table": 1}) == \
        "Sit & Go: the final table — 1 player at table 1."
    assert event_words(book, "sng", {"kind": "tournament_started", "entrants": 2, "starting_stack": 1500}) == \
        "Sit & Go has started: 2 players, 1500 chips each."
    lines = screen_text({"name": "Sit & Go", "tables": [{"id": "sng.1", "players": 1}]}, "me", None, 0.0)
    assert "Tables: sng.1 (1 player)" in lines


async def test_a_fast_fold_table_has_the_pool_s_name_stakes_and_a_60_second_clock() -> None:
    from textual.widgets import Tabs

    from tests.tui.helpers import wait_until
    from tests.tui.recorded import hello
    from tests.tui.test_table_bar import replay_app

    pool = {"id": "zoom", "name": "Zoom 1/2 NL", "kind": "pool", "game": "texas_holdem", "structure": "no_limit",
            "stakes": [1, 2], "buy_in": [80, 200], "seats": 6, "players": 12, "playing": 6, "tables": 2,
            "hands_per_hour": 0, "clock": {"action_seconds": 60.0, "time_bank_seconds": 60.0}}
    seats = [{"seat": seat, "name": name, "stack": 200} for seat, name in enumerate(["ana", "me"])]
    app = replay_app([hello(), msg("lobby", tables=[], pools=[pool]),
                      {**msg("table", table="zoom.1", seats=seats, max_seats=6, waiting=[], hand_running=True),
                       "kind": "pool"},
                      event("zoom.1", "zoom.1-h-1", "turn_started", seat=1, player="me", started_at=0.0,
                            deadline=120.0)])
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "zoom.1" in app.models and app.models["zoom.1"].to_act == 1,
                         what="the pool table")
        model = app.models["zoom.1"]
        assert (model.name, model.stakes) == ("Zoom 1/2 NL", (1, 2))
        left, action, bank = model.turn_clock(model.turn_started)
        assert (left, action, bank) == (60.0, 60.0, 60.0)  # not 120 s of "action time"
        tabs = app.query_one(Tabs)
        await wait_until(pilot, lambda: any("Zoom 1/2 NL" in str(tab.label) for tab in tabs.query("Tab")),
                         what="the tab named after the pool")


def test_a_narrow_tile_keeps_the_whole_name_and_puts_the_stack_by_the_cards() -> None:
    info = SeatInfo(3, "carla", stack=80, in_hand=True, face_down=2)
    assert seat_text(info, 9, markers="D").plain.splitlines() == ["D carla", "80  ▒▒ ▒▒"]
    assert seat_text(info, 8, markers="D").plain.splitlines() == ["D carla", "80 ▒▒ ▒▒"]
    assert seat_text(info, 14, markers="D").plain.splitlines() == ["D carla  80", "▒▒ ▒▒"]
