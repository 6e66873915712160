"""Issue 27 items 2 and 10: the Host screen and the lobby are live — the room pushes them when they change
(hosting.live), nobody presses a key or asks again. Pilot on a real in-process room with its store.

Item 2: after `level home --blinds 2/4`, `stack home bob 50` and `pause home` from `croupier admin` (the admin
socket's requests, not typed on the screen) the Host screen still showed `blinds 1/2 … idle`.
Item 10: a finished Sit & Go stayed in the lobby ("started", "final table") until G; a "waiting for the host"
stayed on the table after the host answered.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Static

from hosting.admin import ADMIN
from hosting.admin_requests import parse_request
from hosting.config import TableConfig
from hosting.room import Room
from hosting.store import Store
from tests.hosting.tournament_play import Shover, sit_and_go, tournament_room
from tests.tui.helpers import HOST_KEY, open_host_screen, served_app, wait_until
from tests.tui.roombots import Bot, table
from tui.connection import LocalConnection
from tui.host_screen import HostScreen


@pytest.fixture
def home_tables() -> list[TableConfig]:
    """Table ``home`` (1/2) and ``side`` for :func:`tests.tui.conftest.home_room`."""
    return [table("home"), table("side")]


def _admin(room: Room, **request: Any) -> str:
    """A line from `croupier admin` (the admin socket's path into the console): its reply's words."""
    return str(room.console.perform(ADMIN, parse_request(request), room.clock())["text"])


def _shown(screen: HostScreen) -> str:
    return str(screen.query_one("#host-tables", Static).render())


async def test_the_host_screen_shows_each_change_at_once_without_a_key(home_room: Room) -> None:
    room = home_room
    bob = await LocalConnection.attach(room, "bob")
    await bob.send("sit", table="home", buy_in=100)
    app = served_app(room, "ana", HOST_KEY, reconnect=False)
    rang: list[bool] = []
    app.bell = lambda: rang.append(True)  # type: ignore[method-assign]
    async with app.run_test(size=(150, 45)) as pilot:
        screen = await open_host_screen(pilot, app)
        await wait_until(pilot, lambda: "home  Table home  blinds 1/2" in _shown(screen), what="the first status")
        assert "players: bob 100" in _shown(screen) and "idle" in _shown(screen)
        assert _admin(room, action="level", table="home", small_blind=2, big_blind=4).startswith(
            "The host changed home from the next hand: blinds 2/4")
        await wait_until(pilot, lambda: "home  Table home  blinds 2/4" in _shown(screen), what="blinds 2/4 shown")
        assert _admin(room, action="adjust_stack", table="home", player="bob", amount=50,
                      reason="misdeal refund") == "bob's stack at home: +50 chips, now"
        await wait_until(pilot, lambda: "players: bob 150" in _shown(screen), what="bob's 150 shown")
        assert _admin(room, action="pause", table="home") == "home paused now"
        await wait_until(pilot, lambda: "blinds 2/4  ante 0  rake none  PAUSED" in _shown(screen),
                         what="the pause shown")
        cleo = await LocalConnection.attach(room, "cleo")  # players online, as they come
        await wait_until(pilot, lambda: "online: ana, bob, cleo" in _shown(screen), what="cleo online")
        room.console.approve_seats = True
        await cleo.send("sit", table="side", buy_in=120)
        requests = screen.query_one("#seat-requests", DataTable)
        await wait_until(pilot, lambda: requests.row_count == 1, what="the request listed")
        assert [str(cell) for cell in requests.get_row_at(0)] == ["side", "cleo", "120"]
        assert rang == [True] and any("cleo asks to sit at side with 120 chips" in text for text in app.notices)
        _admin(room, action="resume", table="home")  # bob is alone: still idle, no longer paused
        await wait_until(pilot, lambda: "blinds 2/4  ante 0  rake none  idle" in _shown(screen),
                         what="the resume shown")
        await pilot.press("escape")
        await wait_until(pilot, lambda: not room.live.followers or all(
            session.name != "ana" for session, _ in room.live._status_followers.values()),
            what="the status no longer followed once the screen closed")
    await bob.close()
    await cleo.close()


async def test_the_lobby_follows_the_tables_and_a_waiting_seat_gives_way_to_the_hosts_answer(
        home_room: Room) -> None:
    room = home_room
    app = served_app(room, "dave", reconnect=False)
    async with app.run_test(size=(150, 45)) as pilot:
        await app.connected.wait()
        await wait_until(pilot, lambda: "home" in app.lobby_rows, what="the lobby")
        assert app.lobby_rows["home"]["players"] == 0
        bots = [await Bot.seat(room, name, ["home"]) for name in ("bob", "cleo")]
        try:
            await wait_until(pilot, lambda: app.lobby_rows["home"]["players"] == 2, what="two players listed")
            _admin(room, action="level", table="home", small_blind=2, big_blind=4)
            await wait_until(pilot, lambda: app.lobby_rows["home"]["stakes"] == [2, 4], timeout=30,
                             what="the new blinds listed")
        finally:
            for bot in bots:
                await bot.stop()
        room.console.approve_seats = True
        app._open_table("side")  # as the lobby opens a table to sit there (tui.lobby_screen)
        await app.send("watch", table="side")
        await app.send("sit", table="side", buy_in=100)
        await wait_until(pilot, lambda: app.models["side"].error == "waiting for the host", what="waiting")
        _admin(room, action="deny", table="side", player="dave", reason="table full tonight")
        await wait_until(pilot, lambda: app.models["side"].error == "the host did not seat you: table full tonight",
                         what="the answer on the table")


async def test_a_finished_sit_and_go_leaves_the_lobby_by_itself(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "store")
    for name in ("me", "ana", "bob"):
        store.register(name, f"ssh-ed25519 AAAA{name}")
    room = tournament_room(tmp_path / "data", store, (sit_and_go(size=2, seats=2, knockout=0, level_seconds=1.0),))
    room.start()
    app = served_app(room, "me", reconnect=False)
    bots: list[Shover] = []
    try:
        async with app.run_test(size=(150, 45)) as pilot:
            await app.connected.wait()
            await wait_until(pilot, lambda: "sng" in app.tournaments.rows, what="the Sit & Go listed")
            assert app.tournaments.rows["sng"]["registered"] == 0
            bots = [await Shover.join(room, "ana"), await Shover.join(room, "bob")]
            for bot in bots:
                await bot.connection.send("tournament", action="register", tournament="sng")
            await wait_until(pilot, lambda: "sng" not in app.tournaments.rows or
                             app.tournaments.rows["sng"]["registered"] == 2, what="two registered, shown")
            await wait_until(pilot, lambda: "sng" not in app.tournaments.rows, timeout=120,
                             what="the finished Sit & Go gone from the lobby")
    finally:
        for bot in bots:
            await asyncio.wait_for(bot.stop(), 5)
        await asyncio.wait_for(room.stop(), 5)
        await store.flush()
        await store.close()


async def test_a_cash_tables_new_level_mid_hand_is_on_the_host_screen_at_once_and_named(home_room: Room) -> None:
    """New-user trial: `croupier admin level home --blinds 2/4` while a hand ran at home left the Host screen on
    `blinds 1/2` until the hand ended (a pool's new level shows at once), and the reply "The host changed the
    table from the next hand" did not say which table (a pool's reply does)."""
    room = home_room
    bots = [await Bot.seat(room, name, ["home"], delay=60.0) for name in ("bob", "cleo")]  # a hand that waits
    app = served_app(room, "ana", HOST_KEY, reconnect=False)
    try:
        async with app.run_test(size=(150, 45)) as pilot:
            screen = await open_host_screen(pilot, app)
            engine = room.tables["home"].engine
            await wait_until(pilot, lambda: engine.hand_running, timeout=30, what="a hand at home")
            await wait_until(pilot, lambda: "home  Table home  blinds 1/2" in _shown(screen), what="the status")
            assert engine.hand_running
            reply = _admin(room, action="level", table="home", small_blind=2, big_blind=4)
            assert reply.startswith("The host changed home from the next hand: blinds 2/4"), reply
            await wait_until(pilot, lambda: "home  Table home  blinds 2/4 from the next hand" in _shown(screen),
                             what="blinds 2/4 shown")
            assert engine.hand_running, "the hand ended: this test saw nothing"
    finally:
        for bot in bots:
            await bot.stop()
