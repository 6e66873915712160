"""Words a player sees (walkthrough item 4): "You call" not "you calls", no blinds or button in stud (the
bring-in shows instead), street names in words, no rule ids or protocol codes, a cancelled hand says so,
and Textual's own toasts keep their markup while room text stays plain."""

from __future__ import annotations

from typing import Any

import pytest

from engine.events import AntePosted
from hosting import protocol
from tests.tui.helpers import wait_until
from tests.tui.recorded import ReplayConnection, event, hello, lobby_rows, msg, side_pot_hand
from tests.tui.test_model_and_widgets import model_after
from tui.app import CroupierApp, plain_words
from tui.model import TableModel, street_words
from tui.widgets.felt import seat_markers
from tui.widgets.hand_log import HandLog
from tui.widgets.seat import seat_text


def test_the_player_s_own_lines_use_you_and_the_right_verb() -> None:
    hand = "holdem-1-2-9a611a-7"
    model = model_after([*side_pot_hand(), event("holdem-1-2", hand, "player_sat_out", seat=1, player="me"),
                         event("holdem-1-2", hand, "player_sat_in", seat=1, player="me"),
                         event("holdem-1-2", hand, "chips_added", seat=1, player="me", amount=200)])
    assert "You call 58" in model.log and "You check" in model.log and "You call 40" in model.log
    assert "You post the big blind 2" in model.log
    assert model.log[-3:] == ["You sit out", "You are back", "You add 200 chips"]
    assert not [line for line in model.log if line.lower().startswith("you ") and line.split()[1].endswith("s")
                and line.split()[1] not in ("was",)]


def stud_hand(game: str) -> TableModel:
    model = TableModel("s1", "me", game=game, max_seats=3)
    table, hand = "s1", "s1-h-1"
    for message in [
        msg("table", table=table, seats=[{"seat": seat, "name": name, "stack": 100} for seat, name in
                                         enumerate(["me", "bot1-2b0bf7", "carla"])], max_seats=3, hand_running=True),
        event(table, hand, "hand_planned", hand_number=1, button_seat=0, small_blind_seat=1, big_blind_seat=2,
              straddle_seat=None, dealt_in=[0, 1, 2], heads_up=False, button_is_dead=False),
        event(table, hand, "hand_started", variant=game, structure="fixed_limit", button_seat=0,
              stacks=[[0, 100], [1, 100], [2, 100]]),
        *[event(table, hand, "ante_posted", seat=seat, amount=1) for seat in range(3)],
        event(table, hand, "hole_cards_dealt", seat=0, cards=["Ah", "Kd"]),
        event(table, hand, "up_cards_dealt", seat=0, cards=["9c"]),
        event(table, hand, "cards_dealt_face_down", seat=1, count=2),
        event(table, hand, "up_cards_dealt", seat=1, cards=["2s"]),
        event(table, hand, "cards_dealt_face_down", seat=2, count=2),
        event(table, hand, "up_cards_dealt", seat=2, cards=["Qh"]),
        event(table, hand, "betting_round_started", round_index=0, street="third", pot=3),
        event(table, hand, "bring_in_posted", seat=1, amount=2, all_in=False),
    ]:
        model.apply(message)
    return model


def test_stud_seats_have_no_blind_or_button_labels_and_show_the_bring_in() -> None:
    model = stud_hand("seven_card_stud")
    assert not model.uses_blinds
    assert [seat_markers(model, seat) for seat in range(3)] == ["", "", ""]  # the plan's seats are not shown
    bringer = model.seats[1]
    assert bringer.last_action == "bring-in" and model.log[-1] == "bot1-2b0bf7 brings in 2"
    assert seat_text(bringer, 30).plain == "bot1-2b0bf7  97\n2♠ ▒▒ ▒▒  bring-in 2"  # one label, with its chips
    for game in ("seven_card_stud_hi_lo", "telesina", "americana"):
        assert not TableModel("x", "me", game=game).uses_blinds, game
    # hold'em keeps them; heads-up the button is the small blind: "D/SB", not "DSB"
    holdem = model_after(side_pot_hand())
    holdem.game = "texas_holdem"
    assert holdem.uses_blinds
    assert [seat_markers(holdem, seat) for seat in range(4)] == ["SB", "BB", "", "D"]
    holdem.small_blind_seat = holdem.button_seat
    assert seat_markers(holdem, 3) == "D/SB"


def test_street_names_and_room_texts_in_plain_words() -> None:
    assert [street_words(name) for name in ("predraw", "first_draw", "third_draw", "third", "seventh", "river")] \
        == ["before the draw", "first draw", "third draw", "third street", "seventh street", "river"]
    assert plain_words("Hand h-4 at table nl-1-2 was cancelled when the room stopped; every chip you put into it "
                       "was returned (R-CRASH-1).") == ("Hand h-4 at table nl-1-2 was cancelled when the room "
                                                         "stopped; every chip you put into it was returned.")
    assert plain_words("flag it for review R-AUDIT-1") == "flag it for review "


def replay_app(messages: list[dict[str, Any]]) -> CroupierApp:
    async def connect() -> ReplayConnection:
        return ReplayConnection(messages)

    app = CroupierApp(connect, clock=lambda: 100.0)
    app.strict = True  # type: ignore[attr-defined]
    return app


async def test_a_cancelled_hand_codes_and_rule_ids_and_ctrl_c_in_words() -> None:
    table, hand = "holdem-1-2", "holdem-1-2-9a611a-7"
    cancelled = ("Hand holdem-1-2-9a611a-7 at table holdem-1-2 was cancelled when the room stopped; every chip "
                 "you put into it was returned (R-CRASH-1).")
    messages = [hello(), msg("lobby", tables=lobby_rows()), *side_pot_hand(table, hand)[:12],
                msg("notice", text=cancelled), protocol.hand_cancelled(table, hand, "room_stopped"),
                msg("error", code="not_seated", message="you are not seated at holdem-1-2", in_reply_to="sit_out",
                    table=table)]
    app = replay_app(messages)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: any("not seated" in line for line in app.notices), what="the messages")
        model = app.models[table]
        assert [summary.verdict for summary in model.hands] == ["cancelled"]
        assert model.log[-1] == "Hand 7 was cancelled: every chip put into it was returned"  # the table's number
        assert not model.hand_running and model.pot_total == 0
        app.show_table(table)
        await pilot.pause(0.2)
        shown = app.query_one(f"#view-{table} HandLog", HandLog).render().plain
        assert "#7 cancelled" in shown and "checking" not in shown
        assert f"room: {cancelled.removesuffix(' (R-CRASH-1).')}." in app.notices
        assert "not seated: you are not seated at holdem-1-2" in app.notices
        assert not any("R-CRASH" in line or "not_seated" in line for line in app.notices)
        # Ctrl+C: Textual's own toast keeps its markup (bold key), never "[b]" on screen
        await pilot.press("ctrl+c")
        await pilot.pause(0.1)
        quit_toast = [item for item in app._notifications if "quit" in item.message]
        assert quit_toast and quit_toast[-1].markup
        assert all(not item.markup for item in app._notifications if item is not quit_toast[-1])
        assert app.internal_errors == []


@pytest.mark.parametrize("words", ["Hand holdem-1-2-9a611a-7 was voided.", "La mano holdem-1-2-9a611a-7 se anuló."])
async def test_a_cancelled_hand_is_marked_by_the_typed_message_whatever_the_notice_says(words: str) -> None:
    table, hand = "holdem-1-2", "holdem-1-2-9a611a-7"
    messages = [hello(), msg("lobby", tables=lobby_rows()), *side_pot_hand(table, hand)[:12],
                msg("notice", text=words), protocol.hand_cancelled(table, hand, "room_stopped"),
                msg("notice", text="done")]
    app = replay_app(messages)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "room: done" in app.notices, what="the messages")
        model = app.models[table]
        assert [summary.verdict for summary in model.hands] == ["cancelled"]
        assert not model.hand_running and model.pot_total == 0


async def test_a_notice_that_says_cancelled_marks_no_hand_without_the_typed_message() -> None:
    table, hand = "holdem-1-2", "holdem-1-2-9a611a-7"
    words = f"Hand {hand} at table {table} was cancelled when the room stopped."
    messages = [hello(), msg("lobby", tables=lobby_rows()), *side_pot_hand(table, hand)[:12],
                msg("notice", text=words), msg("notice", text="done")]
    app = replay_app(messages)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "room: done" in app.notices, what="the messages")
        assert [summary.verdict for summary in app.models[table].hands] == ["checking"]


async def test_stud_bring_in_one_button_no_stale_amount_no_old_pot_and_the_tab_named() -> None:
    stud_row = {**lobby_rows()[0], "id": "s1", "name": "Stud 2/4", "game": "seven_card_stud",
                "structure": "fixed_limit", "stakes": [2, 4]}
    stud = stud_hand("seven_card_stud")
    table = "s1"
    messages = [hello(), msg("table", table=table, seats=[{"seat": seat, "name": name, "stack": 100} for seat, name in
                                                          enumerate(["me", "bot1-2b0bf7", "carla"])],
                             max_seats=3, hand_running=True),
                msg("lobby", tables=[stud_row])]
    app = replay_app(messages)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: table in app.models and app.models[table].game == "seven_card_stud",
                         what="the stud table named by the lobby")
        app.show_table(table)
        await pilot.pause(0.2)
        tab = app.query_one(f"#tab-{table}")
        assert str(tab.label) == "Stud 2/4"  # opened before the lobby came: its id first, then its name
        view = app.view_of(table)
        assert view is not None
        model = app.models[table]
        for number, info in stud.seats.items():
            model.seats[number] = info
        bar = view.bar
        # the bring-in: one button for C ("Bring in 2 (C)"), not a greyed "Check (C)" beside it
        bar.legal = {"seat": 0, "can_fold": False, "can_check": False, "call_amount": None, "min_raise_to": 4,
                     "max_raise_to": 4, "is_bet": False, "bring_in_amount": 2, "max_discards": None}
        await pilot.pause(0.1)
        assert view.query_one("#call").has_class("-hidden") and not view.query_one("#bring-in").has_class("-hidden")
        assert str(view.query_one("#bring-in").label) == "Bring in 2 (C)"
        # facing an all-in bigger than my stack: no raise possible, no amount left in the box from before
        bar.legal = {"seat": 0, "can_fold": True, "can_check": False, "call_amount": 60, "min_raise_to": None,
                     "max_raise_to": None, "is_bet": False, "bring_in_amount": None, "max_discards": None}
        await pilot.pause(0.1)
        assert not view.query_one("#call").has_class("-hidden") and str(view.query_one("#call").label) == "Call 60 (C)"
        assert view.query_one("#amount").value == "" and view.query_one("#raise").disabled
        # between hands the centre no longer shows the paid pot
        model.hand.apply(AntePosted(0, 3))  # chips in the middle, and the hand over
        model.hand_running = False
        app._push(table)
        await pilot.pause(0.1)
        board = view.query_one("#board").render().plain
        assert "waiting for the next hand" in board and "pot" not in board
        assert app.internal_errors == []


async def test_a_narrow_clock_drops_whole_words_never_cuts_them() -> None:
    from textual.app import App, ComposeResult

    from tui.widgets.time_bar import TimeBar

    class ClockApp(App[None]):
        clock = staticmethod(lambda: 100.0)

        def compose(self) -> ComposeResult:
            yield TimeBar(id="wide")
            yield TimeBar(id="narrow")

    app = ClockApp()
    async with app.run_test(size=(60, 4)) as pilot:
        for bar_id in ("wide", "narrow"):
            bar = app.query_one(f"#{bar_id}", TimeBar)
            bar.seconds, bar.started, bar.time_bank, bar.label = 80.0, 90.0, 60.0, "your turn "
        app.query_one("#narrow", TimeBar).styles.width = 16
        await pilot.pause(0.1)
        wide = app.query_one("#wide", TimeBar).render().plain
        narrow = app.query_one("#narrow", TimeBar).render().plain
        assert wide.startswith("your turn  10s ") and wide.endswith(" +bank 60s") and len(wide) == 60
        assert narrow.startswith(" 10s ") and "your" not in narrow and "bank" not in narrow and len(narrow) == 16


async def test_action_buttons_grow_with_their_labels() -> None:
    app = replay_app([hello(), msg("lobby", tables=lobby_rows()), *side_pot_hand()])
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "holdem-1-2" in app.models and app.models["holdem-1-2"].needs_action,
                         what="my turn")
        app.show_table("holdem-1-2")
        await pilot.pause(0.3)
        view = app.view_of("holdem-1-2")
        assert view is not None
        for call, label in ((None, "Check (C)"), (138, "Call 138 (C)"), (1380, "Call 1380 (C)")):
            view.bar.legal = {"seat": 1, "can_fold": True, "can_check": call is None, "call_amount": call,
                              "min_raise_to": None, "max_raise_to": None, "is_bet": False, "bring_in_amount": None,
                              "max_discards": None}
            await pilot.pause(0.2)
            button = view.query_one("#call")
            drawn = button.render_line(0).text.strip()
            assert drawn == label, (drawn, button.size.width)


def test_a_draw_of_no_card_reads_stands_pat() -> None:
    seats = [{"seat": seat, "name": name, "stack": 100} for seat, name in enumerate(["carla", "me", "ana", "bruno"])]
    model = model_after([msg("table", table="t1", seats=seats, max_seats=4, hand_running=True),
                         event("t1", "t1-h-1", "cards_drawn", seat=1, count=0),
                         event("t1", "t1-h-1", "cards_drawn", seat=2, count=0),
                         event("t1", "t1-h-1", "cards_drawn", seat=3, count=2)], "t1")
    assert model.log[-3:] == ["You stand pat", "ana stands pat", "bruno draws 2"]
    assert [model.seats[seat].last_action for seat in (1, 2, 3)] == ["pat", "pat", "draws 2"]


def test_a_level_change_is_read_from_the_typed_event_not_from_words() -> None:
    """The room's ``level_changed`` (a level up, the host's new blinds) is control data: the log says what the
    event's fields say, whatever notice may come with it."""
    model = model_after([*side_pot_hand(), event("holdem-1-2", "", "level_changed", from_hand=8, small_blind=2,
                                                 big_blind=4, ante=1)])
    assert model.log[-1] == "From hand 8: blinds 2/4, ante 1"
