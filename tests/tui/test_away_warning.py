"""An away player is warned before the room gives up his seat (issue 27, practice table: he was stood up ~8
minutes after going away, silently): a line in the table, a notice and the bell a minute before."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from tests.tui.helpers import wait_until
from tests.tui.recorded import ReplayConnection, event, hello, msg
from tui.app import CroupierApp
from tui.model import AWAY_WARNING_SECONDS
from tui.widgets.table_view import TableView

HAND = "t1-h-1"


def seats(away: bool) -> list[dict[str, Any]]:
    return [{"seat": 0, "name": "ana", "stack": 200}, {"seat": 1, "name": "me", "stack": 200, "away": away}]


async def test_an_away_player_is_warned_a_minute_before_his_seat_is_given_up() -> None:
    now = [100.0]
    messages = [hello(), msg("lobby", tables=[], pools=[]),
                msg("table", table="t1", seats=seats(False), max_seats=6, waiting=[], hand_running=True),
                # the room's clock runs 4900 s ahead of this client's: the warning is on the client's clock
                event("t1", HAND, "turn_started", seat=1, player="me", started_at=5000.0, deadline=5030.0),
                event("t1", HAND, "player_away", seat=1, player="me", seat_freed_at=5330.0),
                msg("table", table="t1", seats=seats(True), max_seats=6, waiting=[], hand_running=True)]

    async def connect() -> ReplayConnection:
        return ReplayConnection(list(messages))

    app = CroupierApp(connect, reconnect=False, clock=lambda: now[0])
    bells: list[float] = []
    app.bell = lambda: bells.append(now[0])  # type: ignore[method-assign]
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "t1" in app.models and app.models["t1"].seat_freed_at is not None,
                         what="away at t1")
        model = app.models["t1"]
        assert model.seat_freed_at == 430.0  # 330 s after the turn began, on the client's clock
        now[0] = 430.0 - AWAY_WARNING_SECONDS - 10
        await pilot.pause(1.2)
        assert bells == [] and not any("given up" in line for line in model.log)
        now[0] = 430.0 - AWAY_WARNING_SECONDS + 1  # 59 s left
        await wait_until(pilot, lambda: bool(bells), what="the bell")
        assert [line for line in model.log if "given up" in line] == [
            "You are away: your seat is given up in 59 s and your chips go back. Press O — I'm back to keep it."]
        status = app.query_one(TableView).query_one("#status", Static)
        assert "given up within a minute" in str(status.render())
        await pilot.pause(1.2)
        assert len(bells) == 1  # once
