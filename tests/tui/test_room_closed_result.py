"""A ``croupier join`` player seated when the host stops the room (Ctrl+C on ``croupier host``): his result says
what became of his chips. Found by a new-user trial: it read "bought in 200, 200 on the table ... cashed out 0
(200 still on the table)", though the store keeps those chips for him (the next start gives them back to his
balance, R-CRASH-1) and the ledger counts chips left on a table when the session ends as cashed out (README,
Settling up). The room now tells each player, before its ``bye``, ``table_left {table, chips}`` (a pool:
``pool_left``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncssh
import pytest

from hosting import pty_session, server
from hosting.config import parse_room
from hosting.server import start_room
from tests.hosting.room_files import pool_room
from tests.tui.helpers import wait_until
from tests.tui.plain_ssh import plain_ssh_player, start_plain_ssh_room
from tests.tui.recorded import ReplayConnection, hello, lobby_rows, msg
from tests.tui.roombots import table
from tests.tui.test_join_removed import pinned_connector, run_until_exit
from tests.waiting import until
from tui.app import CroupierApp
from tui.connection import LocalConnection
from tui.results import farewell


async def test_a_join_player_seated_when_the_room_closes_cashes_out_his_stack(tmp_path: Path) -> None:
    running = await start_plain_ssh_room(tmp_path / "data", [table("t1")])
    closing: asyncio.Future[None] | None = None
    try:
        connect, _ = await pinned_connector(running, tmp_path, asyncssh.generate_private_key("ssh-ed25519"))
        app = CroupierApp(connect)
        engine = running.room.tables["t1"].engine

        async def sit_then_close() -> None:
            nonlocal closing
            await app.send("sit", table="t1", buy_in=200)
            await until(lambda: engine.seat_of("bob") is not None and app.results.current("t1") is not None,
                        "bob seated")
            closing = asyncio.ensure_future(running.close())

        await run_until_exit(app, sit_then_close)
        words = farewell(app.results, app.clock())
        assert "t1: bought in 200, cashed out 200 — even" in words, words
        assert "Tonight: bought in 200, cashed out 200 — even" in words, words
        assert "still on the table" not in words, words
    finally:
        if closing is None:
            await running.close()
        else:
            await closing


POOL_ROOM = pool_room(name="Zoom", seats=3, buy_in=(80, 200), fill_seconds=2)


async def test_a_player_in_a_fast_fold_pool_when_the_room_closes_cashes_out_his_chips(tmp_path: Path) -> None:
    running = await start_room(parse_room(POOL_ROOM), tmp_path / "data", host="127.0.0.1", port=0)

    async def connect() -> LocalConnection:
        return await LocalConnection.attach(running.room, "bob")

    app = CroupierApp(connect)
    closed = False
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await app.connected.wait()
            await until(lambda: "zoom" in app.pool_ids, "the pool in the lobby", pause=pilot.pause)
            await app.send("sit", table="zoom", buy_in=200)
            pool = running.room.pools["zoom"]
            await until(lambda: "bob" in pool.members() and app.results.current("zoom") is not None,
                        "bob in the pool", pause=pilot.pause)
            closed = True
            await running.close()
            await until(lambda: "cashed out 200" in farewell(app.results, app.clock()), "his result",
                        pause=pilot.pause)
        words = farewell(app.results, app.clock())
        assert "Tonight: bought in 200, cashed out 200 — even" in words, words
        assert "still on the table" not in words, words
    finally:
        if not closed:
            await running.close()


async def test_a_table_state_after_table_left_opens_no_second_sitting() -> None:
    """Found running the test above under load: the sit's table state, pushed by the table's runner after the
    room's ``table_left`` (its wake-up had not run yet when the room closed), showed him seated again with no
    sitting open, so the app opened one: "Tonight: bought in 400, cashed out 200 (200 still on the table)". The
    room said his chips left that table; only a new sit opens a sitting there again."""
    seated = msg("table", table="t1", seats=[{"seat": 0, "name": "me", "stack": 200}], max_seats=6, waiting=[],
                 hand_running=False)
    messages = [hello(), msg("lobby", tables=[{**lobby_rows()[0], "id": "t1", "name": "t1"}]), seated,
                msg("table_left", table="t1", chips=200), seated, msg("notice", text="the end of the replay")]

    async def connect() -> ReplayConnection:
        return ReplayConnection(list(messages))

    app = CroupierApp(connect, reconnect=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: "room: the end of the replay" in app.notices, what="every message read")
        words = farewell(app.results, app.clock())
    assert "Tonight: bought in 200, cashed out 200 — even" in words, words
    assert [result.bought_in for result in app.results.results] == [200], words


async def test_a_plain_ssh_player_reads_his_result_when_the_room_closes(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27 leftover: a plain-ssh player seated when the host stops the room read only the room's reason: his
    TUI was stopped before it heard the room close, so it printed no result. The room now tells each served
    TUI it closed (its ``bye``) and gives it a moment to end itself: its result, then the room's reason."""
    monkeypatch.setattr(pty_session, "RESULT_SECONDS", 60.0)  # the moment, as long as a loaded machine needs
    monkeypatch.setattr(server, "CLOSING_SECONDS", 90.0)
    running = await start_plain_ssh_room(tmp_path / "data", [table("t1")])
    closing: asyncio.Future[None] | None = None
    try:
        async with plain_ssh_player(running, "bob", (120, 40)) as bob:
            await bob.sit_at(running, "t1", "bob")
            closing = asyncio.ensure_future(running.close())
            await bob.read_to_end()
        _, said, last = bytes(bob.seen).rpartition(b"Your result:")
        assert said, bytes(bob.seen[-300:])
        words = last.decode(errors="replace")
        assert "Table t1: bought in 200, cashed out 200 — even" in words, words
        assert words.endswith("croupier: the room has closed (the host stopped it).\r\n"), words
    finally:
        if closing is None:
            await running.close()
        else:
            await closing
