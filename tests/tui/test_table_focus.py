"""Issue 14 items 1-2: the table the keys act on is the table highlighted (tabs and tiles), and a table you
left never freezes: it closes (or shows as watched) and J offers a seat again. Pilot tests against the real
in-process room with bots."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.widgets import Tab, Tabs

from tests.tui.helpers import actions_sent, wait_until
from tests.tui.roombots import table
from tests.tui.test_play import join
from tui.widgets.table_view import TableView


def highlighted(app: Any) -> list[str]:
    return [view.table_id for view in app.query(TableView) if view.has_class("-active")]


def typed_ahead(app: Any, *keys: str) -> None:
    """Keys that arrive in one read (typed quickly, or over a slow link): no pause for the screen between."""
    for key in keys:
        event = events.Key(key, key)
        event.set_sender(app)
        app._driver.send_message(event)


async def answer(app: Any, table_id: str) -> None:
    model = app.models[table_id]
    if model.legal is not None:
        kind = "check" if model.legal.get("can_check") else "call"
        await app.send("action", table=table_id, hand=model.legal_hand, kind=kind)
        model.legal = None


async def test_in_tiles_n_moves_the_highlight_and_the_keys_together(room_setup: Any) -> None:
    setup = await room_setup([table("t1"), table("t2")])
    await setup.bot("bot-t1", ["t1"], delay=3.0)  # while he thinks, only t2 waits for me
    await setup.bot("bot-t2", ["t2"])
    app = setup.app()
    async with app.run_test(size=(160, 50)) as pilot:
        await app.connected.wait()
        for table_id in ("t1", "t2"):
            await join(pilot, app, table_id)
        app.show_table("t1")
        await pilot.pause()
        await pilot.press("t")
        assert app.screen.has_class("-tiled")
        await answer(app, "t2")
        for _ in range(400):
            if app.models["t1"].needs_action:
                await pilot.press("c")
                await pilot.pause()
            if app.models["t2"].needs_action and not app.models["t1"].needs_action:
                break
            await pilot.pause(0.05)
        assert app.models["t2"].needs_action, "t2 never asked for an action"
        assert highlighted(app) == ["t1"]
        before_t1, before_t2 = len(actions_sent(app, "t1")), len(actions_sent(app, "t2"))
        typed_ahead(app, "n", "c")  # typed together, as over ssh: C must not wait for the focus to move
        await pilot.pause()
        assert highlighted(app) == ["t2"] and app.query_one(Tabs).active == "tab-t2"
        assert app.current_table == "t2"
        await wait_until(pilot, lambda: len(actions_sent(app, "t2")) == before_t2 + 1, what="C acted at t2")
        assert len(actions_sent(app, "t1")) == before_t1
        # a click on the other tile makes it the table of the keys, and the highlight follows
        await pilot.click("#view-t1 #felt")
        await pilot.pause()
        assert highlighted(app) == ["t1"] and app.current_table == "t1"
        assert app.query_one(Tabs).active == "tab-t1"
        assert app.internal_errors == []


async def test_a_leave_after_the_hand_closes_the_tab_and_j_offers_a_seat_again(room_setup: Any) -> None:
    setup = await room_setup([table("t1")])
    await setup.bot("bob", ["t1"], delay=1.0)  # the hand is still on when X is pressed
    await setup.bot("cat", ["t1"], delay=1.0)
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t1")
        model = app.models["t1"]
        await wait_until(pilot, lambda: model.needs_action, what="my turn in a running hand")
        await pilot.press("x")  # folded now, the seat freed when the hand ends
        await wait_until(pilot, lambda: any("after this hand" in text for text in app.notices), what="the queued leave")
        await wait_until(pilot, lambda: "t1" not in app.models, what="the tab closed after the hand")
        await wait_until(pilot, lambda: [tab.id for tab in app.query(Tab)] == ["tab-lobby"], what="its tab gone")
        assert setup.room.tables["t1"].engine.seat_of("me") is None
        # J offers the buy-in again (a dead tab would have been shown instead)
        await join(pilot, app, "t1", buy_in=150)
        await wait_until(pilot, lambda: app.models["t1"].seats[app.models["t1"].my_seat or 0].stack == 150,
                         what="seated with the new buy-in")
        assert app.internal_errors == []


async def test_a_table_opened_by_the_room_after_a_reconnect_still_closes_after_a_leave(room_setup: Any) -> None:
    """A new connection of a player already seated (``croupier join`` again): the room sends the table and
    the app opens its tab by itself. After X the seat is freed at the hand's end: the tab must not freeze
    there (it heard the table only as a seated player), and X or J afterwards must not meet a dead tab."""
    import asyncssh

    from tui.app import CroupierApp
    from tui.connection import LocalConnection

    setup = await room_setup([table("t1")])
    await setup.bot("bob", ["t1"], delay=1.0)
    await setup.bot("cat", ["t1"], delay=1.0)
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()
    first = await LocalConnection.attach(setup.room, "me", key)
    await first.send("sit", table="t1", buy_in=120)
    await first.close()  # the seat stays: the player comes back with a new client

    app = CroupierApp(lambda: LocalConnection.attach(setup.room, "me", key))
    app.strict = True  # type: ignore[attr-defined]
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: "t1" in app.models and app.models["t1"].seated,
                         what="the seated table opened by the room")
        model = app.models["t1"]
        app.show_table("t1")
        await wait_until(pilot, lambda: model.needs_action, what="my turn in a running hand")
        await pilot.press("x")
        await wait_until(pilot, lambda: "t1" not in app.models, what="the tab closed after the hand")
        assert setup.room.tables["t1"].engine.seat_of("me") is None
        await join(pilot, app, "t1", buy_in=150)
        assert app.internal_errors == []
