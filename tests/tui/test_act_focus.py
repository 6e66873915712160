"""A pre-action that fires at a table the player is not looking at must not take the keyboard there: the
keys go on acting at the table shown (found over real ssh with two tables: the C presses ticked the hidden
table's "call any" again and again while the shown table waited, until the player went Away)."""

from __future__ import annotations

from typing import Any

from tests.tui.helpers import actions_sent, wait_until
from tests.tui.roombots import table
from tests.tui.test_play import join
from tui.widgets.action_bar import ActionBar
from tui.widgets.table_view import TableView


async def test_an_action_at_a_hidden_table_leaves_the_focus_on_the_table_shown(room_setup: Any) -> None:
    setup = await room_setup([table("t1"), table("t2")])
    for table_id in ("t1", "t2"):
        await setup.bot(f"bot-{table_id}", [table_id], delay=0.5)
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        for table_id in ("t1", "t2"):
            await join(pilot, app, table_id)
        app.show_table("t1")
        await pilot.pause(0.3)

        def focused_table() -> str:
            node = app.focused
            while node is not None and not isinstance(node, TableView):
                node = node.parent
            return node.table_id if node is not None else str(app.focused)

        t2 = app.models["t2"]
        await wait_until(pilot, lambda: t2.needs_action, what="t2 waits for me")
        assert focused_table() == "t1"
        before = len(actions_sent(app, "t2"))
        # what a ticked pre-action box does when t2's request comes: the bar posts its Act
        assert t2.legal is not None
        app.query_one("#view-t2 ActionBar", ActionBar).post_message(
            ActionBar.Act("check" if t2.legal.get("can_check") else "call"))
        await wait_until(pilot, lambda: len(actions_sent(app, "t2")) > before, what="the action sent at t2")
        await pilot.pause(0.3)
        assert app.query_one("Tabs").active == "tab-t1"
        assert focused_table() == "t1"
