"""Pilot tests against the real in-process room with bots for the table's other controls (issue 8 "Build"):
the fairness badge of a hand joined late, the hand log after a reconnect, chat, sit out / wait for big blind
/ top-up. (The show/muck choice is tested on a recorded showdown in test_model_and_widgets: the room shows
hands by itself, it never asks.)"""

from __future__ import annotations

from typing import Any

from textual.widgets import Button, Input

from tests.tui.helpers import actions_sent, notifications, wait_until
from tests.tui.roombots import table
from tests.tui.test_play import join
from tui.widgets.hand_log import HandLog
from tui.widgets.table_view import TableView


def checked(app: Any, table_id: str) -> list[str]:
    model = app.models.get(table_id)
    return [] if model is None else [summary.verdict for summary in model.hands if summary.fairness is not None]


async def test_a_table_watched_from_mid_hand_badges_that_hand_joined_late(room_setup: Any) -> None:
    setup = await room_setup([table("t1")])
    await setup.bot("bob", ["t1"], delay=0.4)  # hands long enough that the one in play is still on when we look
    await setup.bot("cat", ["t1"], delay=0.4)
    engine = setup.room.tables["t1"].engine
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await wait_until(pilot, lambda: engine.hand_running and engine.hand_number >= 1, what="a hand in play")
        app.open_table("t1", sit=False)  # its commitments were published before we looked
        await wait_until(pilot, lambda: len(checked(app, "t1")) >= 2, what="two hands checked")
        verdicts = checked(app, "t1")
        assert verdicts[0] == "verified (joined late)", [s.violations for s in app.models["t1"].hands]
        assert set(verdicts[1:]) == {"verified"}  # watched from their commitments on: the full check
        await pilot.pause(0.1)
        shown = app.query_one("#view-t1 HandLog", HandLog).render().plain
        assert "✔ verified (joined late)" in shown
        assert app.internal_errors == []


async def test_after_a_reconnect_the_hand_log_says_each_thing_once(room_setup: Any) -> None:
    setup = await room_setup([table("t1")])
    await setup.bot("bob", ["t1"], delay=0.3)
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t1")
        model = app.models["t1"]
        await wait_until(pilot, lambda: model.needs_action, what="my turn in a running hand")
        hand = model.hand_id
        session = setup.room.sessions["me"]
        session.transport.close("network down")
        setup.room.disconnect(session)
        await wait_until(pilot, lambda: setup.room.sessions.get("me") not in (None, session), what="reconnect")
        await wait_until(pilot, lambda: "(reconnected: the hand so far, as the room replays it)" in model.log
                         or model.hand_id != hand, what="the replayed hand")
        assert model.hand_id == hand, "the hand ended before the resync: nothing was replayed"
        await wait_until(pilot, lambda: model.needs_action, what="the turn again after the resync")
        header = f"── hand {model.hand_number} ({hand}) ──"
        lines = model.log[model.log.index(header):]
        assert lines[1] == "(reconnected: the hand so far, as the room replays it)"
        dealt = [line for line in lines if line.startswith("Dealt to you")]
        blinds = [line for line in lines if line.endswith(("the small blind 1", "the big blind 2"))]
        assert len(dealt) == 1 and len(blinds) == 2, lines
        assert len(model.hands) == model.hand_number or len({s.hand_id for s in model.hands}) == len(model.hands)
        await pilot.press("c")
        assert actions_sent(app, "t1")[-1]["hand"] == hand
        assert app.internal_errors == []


async def test_chat_sit_out_wait_for_big_blind_and_top_up(room_setup: Any) -> None:
    setup = await room_setup([table("t1")])
    await setup.bot("bob", ["t1"])
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t1", buy_in=100)
        model = app.models["t1"]
        view = app.query_one("#view-t1", TableView)
        engine = setup.room.tables["t1"].engine
        # chat: "/" goes to the chat box, Enter sends, the room's echo is on the table
        view.focus()
        await pilot.press("slash")
        assert app.focused is view.query_one("#chat-input", Input)
        await pilot.press(*"nice hand", "enter")
        await wait_until(pilot, lambda: ("me", "nice hand") in model.chat, what="the chat line back from the room")
        assert "nice hand" in str(view.query_one("#chat-lines").render())
        # wait for big blind: the button says the choice and B toggles it in the room
        view.focus()
        wanted = not model.seats[model.my_seat or 0].wait_for_big_blind
        await pilot.press("b")
        await wait_until(pilot, lambda: model.seats[model.my_seat or 0].wait_for_big_blind is wanted,
                         what="the blind choice")
        label = str(view.query_one("#wait-bb", Button).label)
        assert label == ("Wait BB: on (B)" if wanted else "Wait BB: off (B)")
        # sit out with the mouse; once out of the hand, top up (U), then back in with O
        await pilot.click("#view-t1 #sit-out")
        await wait_until(pilot, lambda: engine.player("me").sitting_out, what="sat out in the room")
        await wait_until(pilot, lambda: model.seats[model.my_seat or 0].sitting_out, what="sat out on screen")
        assert str(view.query_one("#sit-out", Button).label) == "I'm back (O)"  # sitting out: one press brings him back
        assert view.query_one("#place-0").info.state == "sitting out"  # my seat box shows it where it fits
        for _ in range(400):  # finish the hand in play (check or call), then no more hands for me
            if not engine.in_hand("me"):
                break
            if model.needs_action:
                view.focus()
                await pilot.press("c")
            await pilot.pause(0.05)
        assert not engine.in_hand("me")
        # the amount screen is bounded by the table's maximum (200): too much is refused in words, nothing sent
        stack = engine.player("me").stack
        view.focus()
        await pilot.press("u")
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "AmountScreen", what="top-up screen")
        box = app.screen.query_one(Input)
        box.value = str(200 - stack + 1)
        await pilot.press("enter")
        assert str(app.screen.query_one("#amount-error").render()) == f"type a whole number between 1 and {200 - stack}"
        assert not [item for item in app.sent if item["type"] == "top_up"]
        box.value = "20"
        await pilot.press("enter")
        await wait_until(pilot, lambda: f"top-up: Stack at Table t1: {stack + 20} chips." in notifications(app),
                         what=f"the room's answer in {notifications(app)[-3:]}")
        assert [item for item in app.sent if item["type"] == "top_up"] == [
            {"type": "top_up", "table": "t1", "amount": 20}]
        await wait_until(pilot, lambda: model.seats[model.my_seat or 0].stack == stack + 20, what="the new stack")
        view.focus()
        await pilot.press("o")
        await wait_until(pilot, lambda: not engine.player("me").sitting_out, what="back in")
        await wait_until(pilot, lambda: str(view.query_one("#sit-out", Button).label) == "Sit out (O)",
                         what="the button back")
        assert app.internal_errors == []


async def test_a_refused_action_gives_the_turn_back_with_the_room_s_words(room_setup: Any) -> None:
    setup = await room_setup([table("t1")])
    await setup.bot("bob", ["t1"])
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t1")
        model = app.models["t1"]
        view = app.query_one("#view-t1", TableView)
        await wait_until(pilot, lambda: model.needs_action and model.legal is not None
                         and model.legal.get("max_raise_to") is not None, what="a turn to raise in")
        legal = dict(model.legal or {})
        # an answer the bar itself would never send (it checks amounts): the room refuses it in words
        view.post_message(TableView.Request(view, "action", hand=model.legal_hand, kind="raise_to",
                                            amount=int(legal["max_raise_to"]) + 1000))
        await wait_until(pilot, lambda: bool(model.error), what="the refusal")
        assert any(text.startswith("amount refused: ") for text in notifications(app))
        assert model.needs_action and model.legal == legal  # still my turn: the bar is back
        await pilot.pause(0.1)
        assert str(view.query_one("#status").render()) == model.error
        assert not view.query_one("#call", Button).disabled
        sent = len(actions_sent(app, "t1"))
        view.focus()
        await pilot.press("c")
        await wait_until(pilot, lambda: len(actions_sent(app, "t1")) == sent + 1, what="the second answer")
        assert actions_sent(app, "t1")[-1]["kind"] in ("check", "call")
        await wait_until(pilot, lambda: not model.error, what="the error cleared")
        assert app.internal_errors == []


async def test_the_slider_sets_the_amount_by_mouse_and_keys_within_the_legal_range() -> None:
    from tests.tui.recorded import ReplayConnection, hello, lobby_rows, msg, side_pot_hand
    from tests.tui.test_model_and_widgets import replay_app, shown_table
    from tui.widgets.slider import Slider

    app = replay_app([hello(), msg("lobby", tables=lobby_rows()), *side_pot_hand()])  # I may bet 2 to 100
    async with app.run_test(size=(120, 36)) as pilot:
        await shown_table(pilot, app)
        view = app.query_one("#view-holdem-1-2", TableView)
        slider = view.query_one(Slider)
        amount = view.query_one("#amount", Input)
        assert (slider.minimum, slider.maximum, slider.step) == (2, 100, 2)  # steps of one big blind
        await pilot.click("#view-holdem-1-2 Slider", offset=(slider.size.width - 1, 0))  # the right end
        assert slider.value == 100 and amount.value == "100"
        await pilot.click("#view-holdem-1-2 Slider", offset=(0, 0))
        assert slider.value == 2 and amount.value == "2"
        slider.focus()
        await pilot.press("right", "right", "shift+right")  # +2, +2, +20
        assert slider.value == 26 and amount.value == "26"
        await pilot.press("end")
        assert amount.value == "100"
        await pilot.press("home", "left")  # never below the minimum
        assert amount.value == "2"
        await pilot.press("right")
        view.focus()
        await pilot.press("r")
        connection = app.connection
        assert isinstance(connection, ReplayConnection)
        await wait_until(pilot, lambda: any(item["type"] == "action" for item in connection.sent), what="the bet")
        assert [item for item in connection.sent if item["type"] == "action"] == [
            {"type": "action", "table": "holdem-1-2", "hand": "holdem-1-2-9a611a-7", "kind": "bet", "amount": 4}]
        assert app.internal_errors == []
