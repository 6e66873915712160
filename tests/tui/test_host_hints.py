"""The Host screen's hints name the room's own tables (issue 27 leftover 6): a new host's room had a table
`home` and none called `t1`, yet the hints under the command box said `pause t1 · level t1 --blinds 2/4 …`."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from hosting.config import TableConfig
from hosting.room import Room
from tests.tui.helpers import HOST_KEY, open_host_screen, served_app, wait_until
from tests.tui.roombots import table


@pytest.fixture
def home_tables() -> list[TableConfig]:
    return [table("home")]


async def test_the_host_screens_hints_use_the_rooms_table_names(home_room: Room) -> None:
    app = served_app(home_room, "ana", HOST_KEY, reconnect=False)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_host_screen(pilot, app)
        await wait_until(pilot, lambda: bool(screen.status), what="the room's status")
        hint = str(screen.query_one("#host-hint", Static).render())
        assert hint.startswith("pause home · resume home · level home --blinds 2/4"), hint
        assert "t1" not in hint, hint
