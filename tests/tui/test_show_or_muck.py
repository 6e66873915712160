"""Show or muck at the table (issue 14; R-SHOW-1): when the room asks, S and M answer; the auto-muck setting is
in the palette and the table remembers what the room confirmed."""

from __future__ import annotations

from engine.table_events import CardsShownAfterWin
from tests.tui.helpers import actions_sent, wait_until
from tests.tui.recorded import event, hello, lobby_rows, msg, side_pot_hand
from tests.tui.test_snapshots import replay_app

SHOWDOWN_LEGAL = {"seat": 1, "can_fold": False, "can_check": False, "call_amount": None, "min_raise_to": None,
                  "max_raise_to": None, "is_bet": False, "bring_in_amount": None, "max_discards": None,
                  "can_show": True, "can_muck": True}


def asked_at_showdown() -> list[dict[str, object]]:
    table, hand = "holdem-1-2", "holdem-1-2-9a611a-7"
    messages = side_pot_hand()[:-1]  # the turn, without its betting request
    return [*messages, event(table, hand, "turn_started", seat=1, player="me", started_at=100.0, deadline=120.0),
            msg("action_request", table=table, hand=hand, seat=1, legal=SHOWDOWN_LEGAL, deadline=20.0),
            event(table, hand, "player_setting_changed", seat=1, player="me", setting="auto_muck", value="true")]


async def test_m_mucks_when_the_room_asks_and_auto_muck_toggles_from_the_palette() -> None:
    app = replay_app([hello(), msg("lobby", tables=lobby_rows()), *asked_at_showdown()])
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "holdem-1-2" in app.models and app.models["holdem-1-2"].needs_action,
                         what="asked to show or muck")
        app.show_table("holdem-1-2")
        await pilot.pause(0.3)
        view = app.view_of("holdem-1-2")
        assert view is not None
        assert not view.query_one("#show").has_class("-hidden") and not view.query_one("#muck").has_class("-hidden")
        model = app.models["holdem-1-2"]
        assert model.auto_muck is True and "You will muck losing hands at showdown" in model.log
        view.focus()
        await pilot.press("m")
        await wait_until(pilot, lambda: bool(actions_sent(app)), what="the muck sent")
        assert actions_sent(app)[-1]["kind"] == "muck"
        app.table_action("auto_muck")
        await wait_until(pilot, lambda: any(item["type"] == "auto_muck" for item in app.sent), what="auto_muck")
        assert [item for item in app.sent if item["type"] == "auto_muck"][-1] == {
            "type": "auto_muck", "table": "holdem-1-2", "on": False}
        commands = {command.title: command.help for command in app.get_system_commands(app.screen)}
        assert commands["Auto-muck losing hands"].startswith("now on:")  # the room confirmed it on


def won_uncontested() -> list[dict[str, object]]:
    table, hand = "holdem-1-2", "holdem-1-2-9a611a-8"
    seats = msg("table", table=table, seats=[
        {"seat": seat, "name": name, "stack": 200, "sitting_out": False, "away": False, "wait_for_big_blind": False}
        for seat, name in enumerate(["ana", "me"])], max_seats=6, waiting=[], hand_running=True)
    return [seats, *[event(table, hand, name, **fields) for name, fields in [
        ("hand_started", {"variant": "texas_holdem", "structure": "no_limit", "button_seat": 0,
                          "stacks": [[0, 200], [1, 200]]}),
        ("blind_posted", {"seat": 0, "kind": "small_blind", "amount": 1, "live": True, "all_in": False}),
        ("blind_posted", {"seat": 1, "kind": "big_blind", "amount": 2, "live": True, "all_in": False}),
        ("cards_dealt_face_down", {"seat": 0, "count": 2}),
        ("hole_cards_dealt", {"seat": 1, "cards": ["Ah", "Kd"]}),
        ("folded", {"seat": 0, "left_table": False}),
        ("uncalled_bet_returned", {"seat": 1, "amount": 1}),
        ("pot_awarded", {"pot_index": 0, "seat": 1, "amount": 2, "share": "whole", "pot_total": 2,
                         "description": ""}),
        ("hand_ended", {"stacks": [[0, 199], [1, 201]], "rake": 0})]]]


async def test_after_winning_uncontested_s_shows_the_hand_and_the_palette_one_card() -> None:
    app = replay_app([hello(), msg("lobby", tables=lobby_rows()), *won_uncontested()])
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "holdem-1-2" in app.models and bool(app.models["holdem-1-2"].results),
                         what="the hand won")
        app.show_table("holdem-1-2")
        await pilot.pause(0.3)
        model = app.models["holdem-1-2"]
        assert model.can_show_after_win
        app.table_action("show_card", 1)
        await wait_until(pilot, lambda: any(item["type"] == "show_cards" for item in app.sent), what="show_cards")
        assert [item for item in app.sent if item["type"] == "show_cards"][-1]["cards"] == ["Kd"]
        view = app.view_of("holdem-1-2")
        assert view is not None
        view.focus()
        await pilot.press("s")
        await pilot.pause(0.2)
        assert [item for item in app.sent if item["type"] == "show_cards"][-1]["cards"] == ["Ah", "Kd"]
        # another player's show after his win: his seat shows the card, the log says so
        model.apply(event("holdem-1-2", "", "cards_shown_after_win", seat=0, player="ana", cards=["Qs"]))
        assert model.seats[0].cards == ["Qs"] and model.seats[0].face_down == 1
        assert model.log[-1] == "ana shows Qs"
        assert isinstance(model.records[model.hand_id].events[-1], CardsShownAfterWin)  # the viewer has it
        model.apply(event("holdem-1-2", "", "cards_shown_after_win", seat=1, player="me", cards=["Ah"]))
        assert not model.can_show_after_win  # once
