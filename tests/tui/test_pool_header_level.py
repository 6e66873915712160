"""A fast-fold pool's table header shows the blinds its hand posts: found by a new-user trial, after `croupier
admin level zoom --blinds 2/4` the header of the pool table he was playing at read "Zoom 1/2  2/4" mid-hand
while the hand posted 1/2 (the pool's lobby row, changed at once, overwrote the table's own stakes). A cash
table's header keeps the hand's blinds until the next hand; a pool table's does now too."""

from __future__ import annotations

from typing import Any

from tests.tui.helpers import wait_until
from tests.tui.recorded import ReplayConnection, hello, msg
from tui.app import CroupierApp
from tui.tables_screen import widget_key
from tui.widgets.table_view import TableView


def _pool_row(blinds: tuple[int, int]) -> dict[str, Any]:
    return {"id": "zoom", "kind": "pool", "name": "Zoom 1/2", "game": "texas_holdem", "structure": "no_limit",
            "stakes": list(blinds), "buy_in": [40, 200], "players": 2, "seats": 6, "average_pot": 0,
            "hands_per_hour": 0, "waiting": 0, "watchers": 0}


def _table(blinds: tuple[int, int]) -> dict[str, Any]:
    return {**msg("table", table="zoom.1", stakes=list(blinds), max_seats=6, waiting=[], hand_running=True),
            "kind": "pool", "seats": [
                   {"seat": 0, "name": "me", "stack": 199, "sitting_out": False, "away": False,
                    "wait_for_big_blind": False},
                   {"seat": 1, "name": "bob", "stack": 198, "sitting_out": False, "away": False,
                    "wait_for_big_blind": False}]}


async def test_a_pool_tables_header_keeps_its_hands_blinds_after_the_pools_new_level() -> None:
    messages = [hello(), msg("lobby", tables=[], pools=[_pool_row((1, 2))]), _table((1, 2)),
                msg("lobby", tables=[], pools=[_pool_row((2, 4))])]  # the host's level: the pool's row at once

    async def connect() -> ReplayConnection:
        return ReplayConnection(messages)

    app = CroupierApp(connect, clock=lambda: 100.0)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: app.lobby_rows.get("zoom", {}).get("stakes") == [2, 4], what="the new row")
        assert "zoom.1" in app.models, list(app.models)
        model = app.models["zoom.1"]
        assert model.stakes == (1, 2), model.stakes
        app.show_table("zoom.1")
        await pilot.pause(0.1)
        title = str(app.query_one(f"#view-{widget_key('zoom.1')}", TableView).query_one("#title").render())
        assert "Zoom 1/2  1/2" in title, title
        assert app.internal_errors == []
