"""The practice table as ``croupier play`` opens it (hosting.commands.play.practice_app): reporting a hand says
one honest thing (issue 14 item 10), and the tab numbers hands as the table does (item 23: the tab's hand #1 was
the table's hand ``…-6``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import Static

from hosting.commands import play
from tests.tui.helpers import app_progress, wait_until
from tests.tui.recorded import ReplayConnection, finished_hand, hello, lobby_rows, msg
from tests.waiting import QUIET, until
from tui.app import CroupierApp
from tui.widgets.table_view import TableView


def verified_hands(app: Any) -> int:
    model = app.models.get(play.TABLE_ID)
    return 0 if model is None else sum(1 for summary in model.hands if summary.fairness)


async def play_until(pilot: Any, app: Any, condition: Any, timeout: float = QUIET) -> None:
    """Check or fold whenever it is my turn, until ``condition()``; fails once the app did not move (tests.waiting)
    for ``timeout`` seconds."""
    answered = 0  # the last action request answered (TableModel.requests counts them)

    async def act(seconds: float) -> None:
        nonlocal answered
        model = app.models.get(play.TABLE_ID)
        if model is not None and model.needs_action and model.legal and model.requests > answered:
            answered = model.requests
            # stud's bring-in may not fold (a refused fold would wait out the whole action clock)
            kind = "check" if model.legal.get("can_check") else \
                "bring_in" if model.legal.get("bring_in_amount") is not None else "fold"
            await app.send("action", table=play.TABLE_ID, hand=model.hand_id, kind=kind)
        await pilot.pause(seconds)

    await until(condition, "the practice table to get there", quiet=timeout, progress=lambda: app_progress(app),
                pause=act, step=0.05)


async def test_practice_report_says_once_that_nothing_was_reported_and_hands_use_the_table_s_numbers(
        tmp_path: Path) -> None:
    table = play.check_options("texas_holdem", None, 3, "1/2")
    state: dict[str, Any] = {}
    app = play.practice_app(table, tmp_path, seed=4, fast=True, state=state)
    app.strict = True  # type: ignore[attr-defined]
    async with app.run_test(size=(120, 40)) as pilot:
        await play_until(pilot, app, lambda: verified_hands(app) >= 2)
        app.show_table(play.TABLE_ID)
        await pilot.pause(0.1)
        app.report_last_hand()
        await wait_until(pilot, lambda: any("report" in notice for notice in app.notices), what="the answer")
        await pilot.pause(0.3)
        about_it = [notice for notice in app.notices if "report" in notice]
        assert about_it == ["not reported: this room keeps no hand records, so hands cannot be reported here"]
        # one numbering: every hand in the tab carries the table's number, the one in its id
        model = app.models[play.TABLE_ID]
        assert all(summary.hand_id.endswith(f"-{summary.number}") for summary in model.hands), model.hands
        engine = state["room"].tables[play.TABLE_ID].engine
        assert model.hands[-1].number <= engine.hand_number
        assert app.internal_errors == []


async def test_a_room_that_keeps_records_says_reported_once_it_has_the_report() -> None:
    messages = [hello(), msg("lobby", tables=lobby_rows()),
                msg("table", table="t1", seats=[{"seat": 1, "name": "me", "stack": 200, "sitting_out": False,
                                                 "away": False, "wait_for_big_blind": False}],
                    max_seats=2, waiting=[], hand_running=False),
                *finished_hand("t1", "t1-h-1")]
    connection = ReplayConnection(messages)

    async def connect() -> ReplayConnection:
        return connection

    app = CroupierApp(connect, clock=lambda: 100.0)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "t1" in app.models and app.models["t1"].hands, what="the hand")
        app.show_table("t1")
        await pilot.pause(0.1)
        app.report_last_hand()
        await wait_until(pilot, lambda: any(item["type"] == "report_hand" for item in connection.sent),
                         what="the report sent")
        assert not [notice for notice in app.notices if "report" in notice]  # nothing claimed before the answer
        app.dispatch(msg("ack", in_reply_to="report_hand", hand="t1-h-1", report=3))
        await pilot.pause(0.1)
        assert [notice for notice in app.notices if "report" in notice] == [
            "report: Hand t1-h-1 reported to the host for review (report 3)."]


async def test_a_tab_opened_at_the_table_s_sixth_hand_calls_it_hand_6() -> None:
    messages = [hello(), msg("lobby", tables=lobby_rows()),
                msg("table", table="t1", seats=[{"seat": 1, "name": "me", "stack": 200, "sitting_out": False,
                                                 "away": False, "wait_for_big_blind": False}],
                    max_seats=2, waiting=[], hand_running=False),
                *finished_hand("t1", "t1-9acd28-6"), *finished_hand("t1", "t1-9acd28-7")]

    async def connect() -> ReplayConnection:
        return ReplayConnection(messages)

    app = CroupierApp(connect, clock=lambda: 100.0)
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_until(pilot, lambda: "t1" in app.models and len(app.models["t1"].hands) == 2, what="the hands")
        model = app.models["t1"]
        assert [(summary.number, summary.hand_id) for summary in model.hands] == [
            (6, "t1-9acd28-6"), (7, "t1-9acd28-7")]
        assert "── hand 6 (t1-9acd28-6) ──" in model.log
        app.show_table("t1")
        await pilot.pause(0.2)
        title = app.query_one("#view-t1", TableView).query_one("#title", Static)
        assert "hand #7" in str(title.render())
