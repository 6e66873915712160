"""A fast-fold pool's table header shows the blinds its hand posts: found by a new-user trial, after `croupier
admin level zoom --blinds 2/4` the header of the pool table he was playing at read "Zoom 1/2  2/4" mid-hand
while the hand posted 1/2 (the pool's lobby row, changed at once, overwrote the table's own stakes). A cash
table's header keeps the hand's blinds until the next hand; a pool table's does now too."""

from __future__ import annotations

from typing import Any

from tests.tui.helpers import wait_until
from tests.tui.recorded import ReplayConnection, event, hello, msg
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


def _pool_hand(table: str, token: str) -> list[dict[str, Any]]:
    """A hand dealt to me at a fresh table of the pool: its engine's first (the table's own number is 1)."""
    hand = f"{table}-{token}-1"
    return [{**_table((1, 2)), "table": table},
            event(table, hand, "hand_planned", hand_number=1, button_seat=1, small_blind_seat=1, big_blind_seat=0,
                  straddle_seat=None, dealt_in=[0, 1], heads_up=True, button_is_dead=False,
                  big_blinds_out_of_position=[], dead_small_blinds=[], blinds_forgiven=[]),
            event(table, hand, "hand_started", variant="texas_holdem", structure="no_limit", button_seat=1,
                  stacks=[[0, 200], [1, 200]])]


async def test_a_pool_tables_header_counts_my_hands_in_the_pool() -> None:
    """Issue 27 leftover: each pool hand is dealt at a fresh table (zoom.1, zoom.2 …, its engine's first
    hand), so the header read "hand #1" for every hand. It counts the hands dealt to me in the pool."""
    messages = [hello(), msg("lobby", tables=[], pools=[_pool_row((1, 2))]),
                msg("ack", in_reply_to="sit", table="zoom", pool=True, stack=200),
                *_pool_hand("zoom.1", "a1"), {**_table((1, 2)), "seats": []},  # folded: the pool moved me on
                *_pool_hand("zoom.2", "b2")]

    async def connect() -> ReplayConnection:
        return ReplayConnection(messages)

    app = CroupierApp(connect, clock=lambda: 100.0)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "zoom.2" in app.models and app.models["zoom.2"].hand_running,
                         what="the second pool hand")
        assert app.models["zoom.2"].hand_number == 2
        app.show_table("zoom.2")
        await pilot.pause(0.1)
        title = str(app.query_one(f"#view-{widget_key('zoom.2')}", TableView).query_one("#title").render())
        assert "hand #2" in title, title
        assert app.internal_errors == []


async def test_a_pool_tab_closed_as_it_opens_is_no_internal_error() -> None:
    """Found writing the test above: a pool hand folded at once (its tab opened, then closed by the next table
    state) set the action bar's ``legal`` while its buttons were already gone: NoMatches '#run-twice', and the
    player read "An internal error happened; it was logged."."""
    messages = [hello(), msg("lobby", tables=[], pools=[_pool_row((1, 2))]),
                msg("ack", in_reply_to="sit", table="zoom", pool=True, stack=200),
                *_pool_hand("zoom.1", "a1"), {**_table((1, 2)), "seats": []},
                msg("notice", text="the end of the replay")]

    async def connect() -> ReplayConnection:
        return ReplayConnection(messages)

    app = CroupierApp(connect, clock=lambda: 100.0)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "room: the end of the replay" in app.notices, what="every message read")
        await pilot.pause(0.3)
        assert "zoom.1" not in app.models
        assert app.internal_errors == []
