"""Pilot tests against a real in-process room (hosting.room.Room + TableRunner, commit–reveal shuffle) with bots.

The app is :class:`tui.app.CroupierApp` over :class:`tui.connection.LocalConnection` — the transport of
``croupier play`` — so every message on screen came out of the real room.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.widgets import Button, DataTable, Input, Label, Tab, Tabs

from tests import waiting
from tests.sweeps import sweep
from tests.tui.helpers import actions_sent, app_progress, notifications, wait_until
from tests.tui.roombots import table
from tui.widgets.action_bar import ActionBar
from tui.widgets.table_view import TableView


def hands_done(app: Any, table_id: str) -> int:
    model = app.models.get(table_id)
    return 0 if model is None else sum(1 for summary in model.hands if summary.fairness is not None)


async def join(pilot: Any, app: Any, table_id: str, buy_in: int | None = None) -> None:
    """Pick ``table_id`` in the lobby with the keyboard, press J, confirm the buy-in."""
    lobby_table = app.query_one("#table-list", DataTable)
    await wait_until(pilot, lambda: lobby_table.row_count > 0, what="lobby rows")
    app.query_one(Tabs).active = "tab-lobby"
    await pilot.pause()
    lobby_table.focus()
    lobby_table.move_cursor(row=lobby_table.get_row_index(table_id))
    await pilot.press("j")
    await wait_until(pilot, lambda: app.screen.__class__.__name__ == "AmountScreen", what="buy-in screen")
    if buy_in is not None:
        amount = app.screen.query_one(Input)
        amount.value = str(buy_in)
    await pilot.press("enter")
    await wait_until(pilot, lambda: table_id in app.models and app.models[table_id].seated, what=f"seat at {table_id}")


async def keep_acting(pilot: Any, act: Callable[[], Awaitable[None]], done: Callable[[], bool], what: str) -> None:
    """``act()`` (it answers a turn when there is one) until ``done()``; fails once the app has not moved for
    a minute (tests.waiting): a loaded machine makes it slower, never red."""
    stall = waiting.Stall(waiting.QUIET, lambda: app_progress(pilot.app))
    while not done():
        await act()
        if stall.stalled():
            raise AssertionError(stall.failure(what))
        await pilot.pause(0.05)


HANDS = sweep("CROUPIER_TUI_HANDS", 12, 20)  # every hand one decision at least: ≥ 6 by key and 6 by mouse


@pytest.mark.slow
async def test_join_and_play_twenty_hands_with_keys_and_mouse(room_setup: Any) -> None:
    setup = await room_setup([table("t1"), table("t2")])
    await setup.bot("bob", ["t1"])
    await setup.bot("cat", ["t1"])
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t1")
        model = app.models["t1"]
        assert app.query_one(Tabs).active == "tab-t1"
        by_key = by_mouse = 0
        while hands_done(app, "t1") < HANDS:
            await wait_until(pilot, lambda: model.needs_action or hands_done(app, "t1") >= HANDS,
                             what="my turn")
            if not model.needs_action:
                break
            # while the hand waits for me, every chip is in a stack or in the pot (no rake here)
            assert sum(info.stack for info in model.seats.values()) + model.pot_total == 600
            before = len(actions_sent(app, "t1"))
            requests = model.requests
            legal = dict(model.legal or {})
            # check when it is free (C or a click on Check), fold to a bet (F or a click on Fold): short hands
            free = bool(legal.get("can_check"))
            if (by_key + by_mouse) % 2:
                await pilot.click("#view-t1 #call" if free else "#view-t1 #fold")
                by_mouse += 1
            else:
                await pilot.press("c" if free else "f")
                by_key += 1
            await wait_until(pilot, lambda before=before: len(actions_sent(app, "t1")) == before + 1,
                             what="the action sent")
            sent = actions_sent(app, "t1")[-1]
            assert sent["kind"] == ("check" if free else "fold")
            await wait_until(pilot, lambda requests=requests: not model.needs_action or model.requests > requests,
                             what="act")
        assert hands_done(app, "t1") >= HANDS
        assert by_key >= 5 and by_mouse >= 5
        # every finished hand was verified by this client's own fairness check (R-FAIR-1)
        finished = [summary for summary in model.hands if summary.fairness is not None]
        assert finished and all(summary.fairness is True for summary in finished)
        assert {info.name for info in model.seats.values()} == {"me", "bob", "cat"}
        assert app.internal_errors == []


async def test_presets_typed_amounts_and_an_invalid_amount_sends_nothing(room_setup: Any) -> None:
    setup = await room_setup([table("t1")])
    await setup.bot("bob", ["t1"])
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t1")
        model = app.models["t1"]
        await wait_until(pilot, lambda: model.needs_action and model.legal is not None
                         and model.legal.get("min_raise_to") is not None, what="a turn where I may raise")
        legal = dict(model.legal or {})
        amount_box = app.query_one("#view-t1 #amount", Input)
        sent_before = len(actions_sent(app))
        # an amount below the minimum: inline error, nothing sent, the turn is still mine
        amount_box.value = str(int(legal["min_raise_to"]) - 1)
        await pilot.press("r")
        error = app.query_one("#view-t1 #error", Label)
        assert str(error.content) == f"the amount must be between {legal['min_raise_to']} and {legal['max_raise_to']}"
        assert len(actions_sent(app)) == sent_before and model.needs_action
        # above the maximum, typed with the keyboard
        amount_box.value = ""
        amount_box.focus()
        await pilot.press(*str(int(legal["max_raise_to"]) + 1))
        await pilot.press("enter")
        assert "between" in str(error.content) and len(actions_sent(app)) == sent_before
        # presets: 4 = pot, 5 = min; then a typed amount in range is sent as the street total
        app.query_one("#view-t1", TableView).focus()
        await pilot.press("5")
        assert amount_box.value == str(legal["min_raise_to"])
        await pilot.press("4")
        call = int(legal.get("call_amount") or 0)
        mine = model.seats[model.my_seat or 0].bet
        expected_pot = min(int(legal["max_raise_to"]), mine + call + model.pot_total + call)
        assert amount_box.value == str(max(int(legal["min_raise_to"]), expected_pot))
        await pilot.click("#view-t1 #preset-1")
        half = mine + call + (model.pot_total + call) // 2
        assert amount_box.value == str(max(int(legal["min_raise_to"]), min(int(legal["max_raise_to"]), half)))
        target = int(legal["min_raise_to"]) + 2
        amount_box.value = str(target)
        await pilot.press("r")
        await wait_until(pilot, lambda: len(actions_sent(app)) == sent_before + 1, what="the raise sent")
        sent = actions_sent(app)[-1]
        assert sent["kind"] == ("bet" if legal.get("is_bet") else "raise_to") and sent["amount"] == target
        verb = "bet" if legal.get("is_bet") else "raise to"
        await wait_until(pilot, lambda: f"You {verb} {target}" in model.log, what="the room's bet event")
        assert str(error.content) == ""
        assert app.internal_errors == []


async def test_three_tables_flag_the_hidden_turn_jump_to_it_and_leave(room_setup: Any) -> None:
    setup = await room_setup([table("t1"), table("t2"), table("t3")])
    for table_id in ("t1", "t2", "t3"):
        await setup.bot(f"bot-{table_id}", [table_id])
    app = setup.app()
    async with app.run_test(size=(160, 50)) as pilot:
        await app.connected.wait()
        bells: list[int] = []
        app.bell = lambda: bells.append(1)  # type: ignore[method-assign]
        for table_id in ("t1", "t2", "t3"):
            await join(pilot, app, table_id)
        assert [tab.id for tab in app.query_one(Tabs).query("Tab")] == ["tab-lobby", "tab-t1", "tab-t2", "tab-t3"]
        app.show_table("t1")
        await pilot.pause()
        # answer what the other tables asked while they were on screen, then look only at t1
        for table_id in ("t2", "t3"):
            model = app.models[table_id]
            if model.legal is not None:
                kind = "check" if model.legal.get("can_check") else "call"
                await app.send("action", table=table_id, hand=model.legal_hand, kind=kind)
                model.legal = None
        bells.clear()
        # act on t1 whenever asked; wait for another table (hidden behind its tab) to want us
        def hidden() -> list[str]:
            return [table_id for table_id in app.waiting_tables() if table_id != "t1"]

        async def check_at_t1() -> None:
            if app.models["t1"].needs_action:
                await pilot.press("c")

        await keep_acting(pilot, check_at_t1, lambda: bool(hidden()), what="a hidden table asking for an action")
        target = hidden()[0]
        await wait_until(pilot, lambda: bool(bells), what="the bell")
        assert any(f"Your turn at Table {target}" in text for text in notifications(app))
        tab = app.query_one(f"#tab-{target}")
        assert tab.has_class("-needs-action")
        if app.models["t1"].needs_action:
            await pilot.press("c")
        await pilot.press("n")
        assert app.query_one(Tabs).active in {f"tab-{table_id}" for table_id in app.waiting_tables()}
        jumped = app.query_one(Tabs).active.removeprefix("tab-")
        assert app.current_view() is not None and app.current_view().table_id == jumped
        await pilot.press("c")
        assert actions_sent(app, jumped)
        # tiles: all three tables on screen at once
        await pilot.press("t")
        assert app.screen.has_class("-tiled")
        assert all(view.display for view in app.query(TableView))
        await pilot.press("t")
        # leave every table (X, or the Leave button) and keep acting until the room lets us go
        for table_id in ("t1", "t2", "t3"):
            app.show_table(table_id)
            await pilot.pause()
            if table_id == "t2":
                await pilot.click(f"#view-{table_id} #leave")
            else:
                await pilot.press("x")

            async def fold_if_asked(table_id: str = table_id) -> None:
                if table_id in app.models and app.models[table_id].needs_action:
                    app.query_one(f"#view-{table_id}", TableView).focus()
                    await pilot.press("f")

            await keep_acting(pilot, fold_if_asked, lambda table_id=table_id: table_id not in app.models,
                              what=f"the room to let us go from {table_id}")
            assert setup.room.tables[table_id].engine.seat_of("me") is None
        assert [tab.id for tab in app.query_one(Tabs).query("Tab")] == ["tab-lobby"]
        assert app.internal_errors == []


async def test_room_errors_are_shown_in_words(room_setup: Any) -> None:
    setup = await room_setup([table("t1")])
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await wait_until(pilot, lambda: bool(app.lobby_rows), what="lobby")
        app.open_table("t1", sit=False)
        await wait_until(pilot, lambda: "t1" in app.models, what="watching t1")
        view = app.query_one("#view-t1", TableView)
        view.focus()
        await pilot.press("o")  # sit out, but we are only watching: the buttons say so and nothing is sent
        assert not [item for item in app.sent if item["type"] == "sit_out"]
        await app.send("sit_out", table="t1", on=True)  # the room refuses: its words reach the screen
        await wait_until(pilot, lambda: any("not" in text and "seated" in text for text in notifications(app)),
                         what=f"the room's refusal in {notifications(app)}")
        await app.send("top_up", table="nowhere", amount=5)
        await wait_until(pilot, lambda: any("there is no table 'nowhere'" in text for text in notifications(app)),
                         what="no such table")
        assert app.internal_errors == []


async def test_reconnect_resyncs_the_open_tables(room_setup: Any) -> None:
    setup = await room_setup([table("t1")])
    await setup.bot("bob", ["t1"])
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t1")
        session = setup.room.sessions["me"]
        session.transport.close("network down")  # the room side drops us, as a dead TCP link would
        setup.room.disconnect(session)
        await wait_until(pilot, lambda: "Connection lost: network down" in str(app.query_one("#notice").content)
                         or setup.room.sessions.get("me") not in (None, session), what="the lost notice")
        await wait_until(pilot, lambda: setup.room.sessions.get("me") not in (None, session), what="reconnect")
        await wait_until(pilot, lambda: str(app.query_one("#notice").content) == "", what="notice cleared")
        resync = [item for item in app.sent[-3:] if item["type"] in ("lobby", "watch")]
        assert {"type": "watch", "table": "t1"} in resync
        model = app.models["t1"]
        await wait_until(pilot, lambda: model.needs_action, what="a turn")
        await pilot.press("c")
        assert app.internal_errors == []


async def test_another_players_failed_check_is_a_claim_not_my_alarm(room_setup: Any) -> None:
    """Issue 25 item 9: a dealt-in player's report marked the hand ✘ VIOLATION on every other screen with a bell
    and a 30 s popup, although their own checks passed. Now it is his claim, beside my own verdict."""
    setup = await room_setup([table("t1")])
    bob = await setup.bot("bob", ["t1"])
    assert bob.connection.fairness is not None
    inner = bob.connection.fairness.inner
    honest = inner._report

    def alarmed(key: tuple[str, str], record: Any, ok: bool, violations: Any) -> list[dict[str, Any]]:
        # bob's check fails (as if the flop were not in the deck); the room relays its kind, not his words
        return honest(key, record, False, [{"kind": "card_mismatch", "message": "the flop is not in the deck"}])

    inner._report = alarmed  # type: ignore[method-assign]
    app = setup.app()
    rings: list[bool] = []
    app.bell = lambda: rings.append(True)  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t1")
        model = app.models["t1"]
        rings.clear()  # a turn at a hidden table may ring; bob's report must not

        def claimed_and_checked() -> bool:
            return any(summary.claims and summary.fairness is not None for summary in model.hands)

        while not claimed_and_checked():  # play along until a hand ends with bob's report and my own verdict
            await wait_until(pilot, lambda: model.needs_action or claimed_and_checked(),
                             what="bob's claim")
            if not claimed_and_checked():
                await pilot.press("c")
                await pilot.pause(0.1)
        summary = next(summary for summary in model.hands if summary.claims)
        assert summary.fairness is True and summary.violations == []  # my own check passed: no ✘
        assert summary.claims == ["bob: card mismatch"]
        assert model.alarm == "" and not app.query_one("#view-t1 #alarm").display
        assert f"bob reports a problem with hand #{summary.number}" in "\n".join(model.log)
        assert rings == []


async def test_lobby_sorts_filters_and_watches(room_setup: Any) -> None:
    setup = await room_setup([table("a", blinds=(5, 10)), table("b", blinds=(1, 2)),
                              table("c", blinds=(2, 4), game="omaha", structure="pot_limit")])
    await setup.bot("bob", ["c"])
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        grid = app.query_one("#table-list", DataTable)
        await wait_until(pilot, lambda: grid.row_count == 3, what="three rows")

        def order() -> list[str]:
            return [str(grid.coordinate_to_cell_key((row, 0)).row_key.value) for row in range(grid.row_count)]

        assert order() == ["b", "c", "a"]  # by stakes, smallest first
        await pilot.click("#table-list", offset=(3, 0))  # the first header: sort by table name
        assert order() == ["a", "b", "c"]
        await pilot.click("#table-list", offset=(3, 0))
        assert order() == ["c", "b", "a"]
        await pilot.click("#hide-empty")
        assert order() == ["c"]
        await pilot.click("#hide-empty")
        grid.focus()
        grid.move_cursor(row=order().index("c"))
        await pilot.press("w")
        await wait_until(pilot, lambda: "c" in app.models and app.models["c"].seats, what="watching c")
        assert app.query_one(Tabs).active == "tab-c" and not app.models["c"].seated
        assert app.query_one("#view-c #fold", Button).disabled
        assert app.internal_errors == []


async def test_pre_action_box_acts_when_the_turn_comes(room_setup: Any) -> None:
    setup = await room_setup([table("t1")])
    await setup.bot("bob", ["t1"], delay=1.5)
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t1")
        model = app.models["t1"]
        await wait_until(pilot, lambda: model.needs_action, what="turn")
        for _ in range(12):  # act until it is bob's turn (he thinks 1.5 s); heads-up I may act twice in a row
            requests = model.requests
            await pilot.press("c")
            await wait_until(pilot, lambda requests=requests: not model.needs_action or model.requests > requests,
                             what="my action taken")
            if not model.needs_action:
                break
        assert not model.needs_action
        bar = app.query_one("#view-t1", TableView).query_one(ActionBar)
        before, pressed = len(actions_sent(app)), 0
        for _ in range(400):  # tick "call any" while bob thinks; a box ticked in a round he closes is dropped
            if len(actions_sent(app)) > before + pressed:
                break  # sent without a key: the box acted
            box = bar.query_one("#pre-call-any")
            if model.needs_action:
                await pilot.pause(0.3)  # the box may be acting right now
                if len(actions_sent(app)) > before + pressed or not model.needs_action:
                    continue
                pressed += 1  # the box was dropped with its betting round: act myself, tick it again later
                await pilot.press("c")
                await wait_until(pilot, lambda pressed=pressed: len(actions_sent(app)) >= before + pressed,
                                 what="my action")
            elif not box.value and not box.disabled and model.to_act not in (None, model.my_seat):
                await pilot.click("#view-t1 #pre-call-any")  # (bob may have acted meanwhile: then no tick)
            await pilot.pause(0.05)
        assert len(actions_sent(app)) > before + pressed, "the ticked box never acted"
        assert actions_sent(app)[-1]["kind"] in ("check", "call")
        assert not bar.query_one("#pre-call-any").value


async def test_play_mode_opens_at_the_seated_table(room_setup: Any) -> None:
    """``croupier play`` seats the player first, then starts the app on that table (issue 9 uses this)."""
    from tui.app import CroupierApp
    from tui.connection import LocalConnection

    setup = await room_setup([table("t1"), table("t2")])
    await setup.bot("bob", ["t2"])
    seated = False

    async def connect() -> LocalConnection:  # as croupier play does: log in, sit down, hand it to the app
        nonlocal seated
        connection = await LocalConnection.attach(setup.room, "me")
        if not seated:
            await connection.send("sit", table="t2", buy_in=150)
            seated = True
        return connection

    app = CroupierApp(connect, start_table="t2")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: "t2" in app.models and app.models["t2"].seated, what="the seated table")
        await wait_until(pilot, lambda: app.query_one(Tabs).active == "tab-t2",
                         what=f"the table on screen, tabs {[tab.id for tab in app.query(Tab)]}")
        model = app.models["t2"]
        await wait_until(pilot, lambda: model.needs_action, what="a turn")
        await pilot.press("c")
        # seated before the first hand (its button draw first): seen from its start, the full fairness check
        for _ in range(300):
            if model.hands and model.hands[0].fairness is not None:
                break
            if model.needs_action:
                await pilot.press("c")
            await pilot.pause(0.05)
        assert model.hands[0].verdict == "verified"
        assert not any(line.startswith(("(reconnected", "(joined")) for line in model.log)
        assert app.internal_errors == []


async def sent_one_more(pilot: Any, app: Any, table_id: str, before: int) -> None:
    await wait_until(pilot, lambda: len(actions_sent(app, table_id)) == before + 1, what=f"an action at {table_id}")


async def test_draw_game_discards_chosen_with_keys_and_mouse_and_stud_brings_in(room_setup: Any) -> None:
    from hosting.config import TableConfig

    stud = TableConfig("s1", "Stud 2/4", "seven_card_stud", "fixed_limit", 2, 4, 3, 80, 400, ante=1, bring_in=2,
                       clock={"action_seconds": 30.0, "time_bank_seconds": 30.0})
    setup = await room_setup([table("d1", seats=3, game="deuce_to_seven_triple_draw", structure="fixed_limit"), stud])
    await setup.bot("bob", ["d1", "s1"])
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "d1")
        model = app.models["d1"]
        bar = app.query_one("#view-d1 ActionBar", ActionBar)
        draws = 0
        while draws < 2:
            await wait_until(pilot, lambda: model.needs_action, what="my turn at the draw table")
            legal, requests, before = dict(model.legal or {}), model.requests, len(actions_sent(app, "d1"))
            if legal.get("max_discards"):
                await wait_until(pilot, lambda: bar.drawing and len(bar.my_cards) == 5, what="the draw row")
                mine = list(bar.my_cards)
                if draws == 0:  # keys: 1 and 3 chosen, 3 un-chosen, 2 chosen: throw cards 1 and 2
                    for key in ("1", "3", "3", "2"):
                        await pilot.press(key)
                    assert str(app.query_one("#view-d1 #draw", Button).label) == "Draw 2 (D)"
                    await pilot.press("d")
                    expected = [mine[0], mine[1]]
                else:  # the mouse: card 5, then the Draw button
                    await pilot.click("#view-d1 #card-4")
                    await pilot.click("#view-d1 #draw")
                    expected = [mine[4]]
                await sent_one_more(pilot, app, "d1", before)
                sent = actions_sent(app, "d1")[-1]
                assert (sent["kind"], sent["discard"]) == ("draw", expected)
                mine_now = model.seats[model.my_seat]  # type: ignore[index]
                await wait_until(pilot, lambda expected=expected, mine_now=mine_now: all(
                    card not in mine_now.cards for card in expected), what="replacements")
                assert len(model.seats[model.my_seat].cards) == 5  # type: ignore[index]
                draws += 1
            else:
                await pilot.press("c" if legal.get("can_check") or legal.get("call_amount") is not None else "f")
                await sent_one_more(pilot, app, "d1", before)
            await wait_until(pilot, lambda requests=requests: not model.needs_action or model.requests > requests,
                             what="act")
        assert app.internal_errors == []

        await join(pilot, app, "s1")
        model = app.models["s1"]
        bar = app.query_one("#view-s1 ActionBar", ActionBar)
        brought_in = 0
        for _ in range(60):
            await wait_until(pilot, lambda: model.needs_action, what="my turn at the stud table")
            legal, requests, before = dict(model.legal or {}), model.requests, len(actions_sent(app, "s1"))
            me, bob = model.seats[model.my_seat], next(i for i in model.seats.values() if i.name == "bob")  # type: ignore[index]
            assert len(me.cards) >= 3 and len(bob.cards) >= 1 and bob.face_down >= 2  # my 2 down + up; his up cards
            if legal.get("bring_in_amount") is not None and legal.get("call_amount") is None:
                assert str(app.query_one("#view-s1 #bring-in", Button).label) == "Bring in 2 (C)"
                assert str(app.query_one("#view-s1 #raise", Button).label) == "Complete (R)"
                await pilot.press("c")
                brought_in += 1
            else:
                await pilot.press("c" if legal.get("can_check") or legal.get("call_amount") is not None else "f")
            await sent_one_more(pilot, app, "s1", before)
            if brought_in and actions_sent(app, "s1")[-1]["kind"] == "bring_in":
                break
            await wait_until(pilot, lambda requests=requests: not model.needs_action or model.requests > requests,
                             what="act")
        assert brought_in == 1 and actions_sent(app, "s1")[-1]["kind"] == "bring_in"
        assert not bar.drawing and app.internal_errors == []


async def test_two_tables_n_shows_the_waiting_table_and_keys_act_there(room_setup: Any) -> None:
    """N must switch the visible pane, not only the tab highlight: the shown TableView is the waiting table's."""
    setup = await room_setup([table("t1"), table("t2")])
    for table_id in ("t1", "t2"):
        await setup.bot(f"bot-{table_id}", [table_id])
    app = setup.app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.connected.wait()
        for table_id in ("t1", "t2"):
            await join(pilot, app, table_id)
        app.show_table("t1")
        await pilot.pause()
        app.query_one("#view-t1", TableView).focus()
        model = app.models["t2"]  # answer what t2 asked while it was on screen, then look only at t1
        if model.legal is not None:
            kind = "check" if model.legal.get("can_check") else "call"
            await app.send("action", table="t2", hand=model.legal_hand, kind=kind)
            model.legal = None
        await pilot.pause()
        for _ in range(300):
            if app.models["t1"].needs_action:
                await pilot.press("c")
                await pilot.pause()
            if app.models["t2"].needs_action:
                break
            await pilot.pause(0.05)
        assert app.models["t2"].needs_action, "t2 never asked for an action"
        assert [view.table_id for view in app.query(TableView) if view.display] == ["t1"]
        await pilot.press("n")
        await pilot.pause()
        assert app.query_one(Tabs).active == "tab-t2"
        shown = [view for view in app.query(TableView) if view.display and view.region.area > 0]
        assert [view.table_id for view in shown] == ["t2"]
        assert app.current_view() is not None and app.current_view().table_id == "t2"
        before_t1, before_t2 = len(actions_sent(app, "t1")), len(actions_sent(app, "t2"))
        await pilot.press("c")
        await pilot.pause()
        assert len(actions_sent(app, "t2")) == before_t2 + 1
        assert len(actions_sent(app, "t1")) == before_t1
