"""Player notes and colour tags (issue 27): tagged at one table with Q, the ● shows on his seat at another table and
again after the client restarts (the file in the client's data directory); notes are cleaned and bounded."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from textual.widgets import Button, Input, Select

from tests.tui.helpers import wait_until
from tests.tui.recorded import ReplayConnection, hello, msg
from tui.app import CroupierApp
from tui.notes import FILE_NAME, MAX_NOTE, PlayerNotes
from tui.screens import NotesScreen
from tui.widgets.seat import SeatView
from tui.widgets.table_view import TableView


def _table(table_id: str, seats: list[tuple[int, str]]) -> dict[str, Any]:
    rows = [{"seat": seat, "name": name, "stack": 200, "sitting_out": False, "away": False,
             "wait_for_big_blind": False} for seat, name in seats]
    return msg("table", table=table_id, seats=rows, max_seats=6, waiting=[], hand_running=False)


def _app(notes: PlayerNotes) -> tuple[CroupierApp, ReplayConnection]:
    connection = ReplayConnection([hello(), msg("lobby", tables=[]), _table("t1", [(0, "me"), (1, "bob")]),
                                   _table("t2", [(0, "me"), (3, "bob"), (4, "cleo")])])

    async def connect() -> ReplayConnection:
        return connection

    return CroupierApp(connect, clock=lambda: 100.0, notes=notes), connection


def _seat_of(app: CroupierApp, table_id: str, name: str) -> SeatView:
    view = app.query_one(f"#view-{table_id}", TableView)
    return next(seat for seat in view.query(SeatView) if seat.info is not None and seat.info.name == name)


async def test_a_tag_made_at_one_table_shows_at_another_and_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "data" / FILE_NAME
    app, _ = _app(PlayerNotes(path))
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_until(pilot, lambda: {"t1", "t2"} <= set(app.models), what="both tables")
        app.show_table("t1")
        await pilot.pause(0.2)
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, NotesScreen), what="the notes window")
        app.screen.query_one("#notes-tag", Select).value = "red"
        app.screen.query_one("#notes-text", Input).value = "3-bets light \x1b[31mfrom the button"
        app.screen.query_one("#ok", Button).press()
        await wait_until(pilot, lambda: not isinstance(app.screen, NotesScreen), what="the window closed")
        app.show_table("t2")
        await pilot.pause(0.3)
        seat = _seat_of(app, "t2", "bob")
        assert seat.tag == "red" and seat.render().plain.startswith("●bob")
        assert seat.tooltip == "seat 4 — bob: 3-bets light from the button"  # the escape sequence is gone
        assert _seat_of(app, "t2", "cleo").tag == ""
    kept = json.loads(path.read_text(encoding="utf-8"))
    assert kept == {"players": {"bob": {"tag": "red", "note": "3-bets light from the button"}}}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # his own notes: readable by him alone

    again, _ = _app(PlayerNotes(path))  # the client restarted: the tag is read back from the file
    async with again.run_test(size=(140, 40)) as pilot:
        await wait_until(pilot, lambda: {"t1", "t2"} <= set(again.models), what="both tables")
        again.show_table("t1")
        await pilot.pause(0.3)
        assert _seat_of(again, "t1", "bob").tag == "red"
        assert _seat_of(again, "t1", "bob").render().plain.startswith("●bob")


async def test_the_notes_window_clears_a_tag_and_says_when_nobody_else_sits_there(tmp_path: Path) -> None:
    notes = PlayerNotes(tmp_path / FILE_NAME)
    notes.set("bob", "blue", "nit")
    app, _ = _app(notes)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_until(pilot, lambda: "t1" in app.models, what="the table")
        app.show_table("t1")
        await pilot.pause(0.2)
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, NotesScreen), what="the notes window")
        assert app.screen.query_one("#notes-text", Input).value == "nit"  # his note, to edit
        app.screen.query_one("#notes-tag", Select).value = ""
        app.screen.query_one("#notes-text", Input).value = ""
        app.screen.query_one("#ok", Button).press()
        await wait_until(pilot, lambda: notes.get("bob") is None, what="bob forgotten")
        assert _seat_of(app, "t1", "bob").tag == ""
    assert json.loads((tmp_path / FILE_NAME).read_text(encoding="utf-8")) == {"players": {}}


def test_a_file_that_is_not_ours_is_read_as_far_as_it_is_sound(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    path.write_text(json.dumps({"players": {"bob": {"tag": "red", "note": "x" * 5000}, "eve": {"tag": "plaid"},
                                            "zed": "nonsense", "ann\x1b[2J": {"tag": "green", "note": "ok"}}}))
    notes = PlayerNotes(path)
    assert notes.entries == {"bob": ("red", "x" * MAX_NOTE), "ann": ("green", "ok")}
    path.write_text("{not json")
    assert PlayerNotes(path).entries == {}


async def test_a_served_screen_keeps_its_notes_in_the_room_not_on_the_hosts_disk(tmp_path: Path,
                                                                                 monkeypatch: Any) -> None:
    from tui.served import ServedApp

    monkeypatch.chdir(tmp_path)
    connection = ReplayConnection([hello(), msg("lobby", tables=[]), _table("t1", [(0, "me"), (1, "bob")]),
                                   msg("notes", notes={"bob": {"tag": "green", "note": "limps a lot"}})])

    async def connect() -> ReplayConnection:
        return connection

    app = ServedApp(connect, clock=lambda: 100.0)
    async with app.run_test(size=(140, 40)) as pilot:
        await wait_until(pilot, lambda: app.notes.get("bob") is not None, what="the room's notes")
        assert {"type": "notes"} in connection.sent  # asked once in the room
        app.show_table("t1")
        await pilot.pause(0.3)
        assert _seat_of(app, "t1", "bob").tag == "green"
        await pilot.press("q")
        await wait_until(pilot, lambda: isinstance(app.screen, NotesScreen), what="the notes window")
        assert app.screen.query_one("#notes-text", Input).value == "limps a lot"
        app.screen.query_one("#notes-tag", Select).value = "purple"
        app.screen.query_one("#ok", Button).press()
        await wait_until(pilot, lambda: {"type": "notes", "player": "bob", "tag": "purple", "note": "limps a lot"}
                         in connection.sent, what="the note sent to the room")
    assert list(tmp_path.iterdir()) == []  # nothing written on the host's disk
