"""The Host screen (tui.host_screen) driven with Pilot as the host, against a real in-process room with its
store: every console action typed as for `croupier admin`, the seat-request flow from both sides, the settle-up
screen every player sees, and the refusal a player who is no host gets."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import pytest
from textual.widgets import DataTable, Input, Static

from hosting.admin_requests import parse_request
from hosting.room import Room
from tests.tui.helpers import HOST_KEY, new_public_key, open_host_screen, served_app, wait_until
from tests.tui.roombots import Bot
from tui.app import CroupierApp
from tui.connection import LocalConnection
from tui.host_screen import HostScreen, SettleUpScreen, parse_command


async def _open_host_screen(pilot: Any, app: CroupierApp) -> HostScreen:
    screen = await open_host_screen(pilot, app)
    await wait_until(pilot, lambda: bool(screen.status), what="the room's status")
    return screen


async def _type(pilot: Any, screen: HostScreen, command: str) -> str:
    """Type ``command`` in the Host screen's box and Enter; the room's answer (or the refusal) on screen."""
    screen.last_text = screen.last_error = ""
    box = screen.query_one("#host-command", Input)
    box.focus()
    box.value = command
    await pilot.press("enter")
    await wait_until(pilot, lambda: bool(screen.last_text or screen.last_error), what=f"answer to {command}")
    return screen.last_error or screen.last_text


def test_host_commands_read_as_croupier_admin() -> None:
    assert parse_command("level t1 --blinds 2/4 --ante 1") == {"action": "level", "table": "t1", "small_blind": 2,
                                                                "big_blind": 4, "ante": 1}
    assert parse_command("stack t1 bob -20 'wrong pot'") == {"action": "adjust_stack", "table": "t1",
                                                              "player": "bob", "amount": -20, "reason": "wrong pot"}
    assert parse_command("unmute t1 bob") == {"action": "mute", "table": "t1", "player": "bob", "on": False}
    with pytest.raises(ValueError, match="invalid choice: 'dance'"):
        parse_command("dance")


async def test_every_console_action_from_the_host_screen(home_room: Room) -> None:
    room = home_room
    bob_key = new_public_key()
    bob = await LocalConnection.attach(room, "bob", bob_key)
    await bob.send("sit", table="t1", buy_in=100)
    await LocalConnection.attach(room, "cleo")
    app = served_app(room, "ana", HOST_KEY, reconnect=False)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await _open_host_screen(pilot, app)
        assert "t1  Table t1  blinds 1/2" in str(screen.query_one("#host-tables", Static).render())
        t1 = room.tables["t1"]
        assert await _type(pilot, screen, "pause t1") == "t1 paused now"
        assert room.console.is_paused("t1")
        assert await _type(pilot, screen, "resume t1") == "t1 resumed"
        assert await _type(pilot, screen, "pause-all") == "paused: 2 tables"
        assert await _type(pilot, screen, "resume-all") == "resumed: 2 tables"
        assert not room.console.paused
        answer = await _type(pilot, screen, "level t1 --blinds 2/4 --ante 1 --straddle on --action-seconds 15")
        assert answer.startswith("The host changed t1 from the next hand: blinds 2/4, ante 1")
        assert (t1.engine.stakes.small_blind, t1.engine.stakes.big_blind, t1.engine.stakes.ante) == (2, 4, 1)
        await wait_until(pilot, lambda: "blinds 2/4" in str(screen.query_one("#host-tables", Static).render()),
                         what="the status shows the new level")
        assert await _type(pilot, screen, "stack t1 bob 50 'misdeal refund'") == "bob's stack at t1: +50 chips, now"
        assert t1.engine.player("bob").stack == 150
        assert await _type(pilot, screen, "balance bob -100 'paid in cash'") == "bob's bank: -100 chips, now 800"
        assert await _type(pilot, screen, "spectators t1 registered") == "t1: watchers registered"
        assert await _type(pilot, screen, "chat t1 off") == "t1: chat off"
        assert await _type(pilot, screen, "chat t1 on") == "t1: chat on"
        assert await _type(pilot, screen, "mute t1 bob") == "bob muted at t1"
        assert await _type(pilot, screen, "unmute t1 bob") == "bob unmuted at t1"
        assert await _type(pilot, screen, "make-host cleo") == "cleo is now a host"
        assert room.console.is_host("cleo")
        assert await _type(pilot, screen, "night friday") == "the night 'friday' begins, across restarts until " \
                                                              "`night --end`: `croupier ledger` settles it"
        assert await _type(pilot, screen, "kick bob --reason 'go home'") == "bob kicked (go home); chips back to " \
                                                                             "the bank"
        assert t1.engine.seat_of("bob") is None
        assert room.store is not None and room.store.balance("bob") == 800 + 150
        assert await _type(pilot, screen, "ban --player bob --reason cheating") == "banned bob"
        assert room.console.ban_reason("bob", bob_key) == "the host banned this name from the room"
        assert await _type(pilot, screen, "unban --player bob") == "unbanned bob"
        # a key reset asks the host first
        box = screen.query_one("#host-command", Input)
        box.value = "reset-key bob"
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "ConfirmScreen", what="the confirmation")
        await pilot.press("y")
        await wait_until(pilot, lambda: "key reset" in screen.last_text, what="the reset")
        assert re.fullmatch(r"bob's key reset\. Give bob this one-time code: \w{4}-\w{4} — his next login as bob "
                            r"types it where the room asks for an invite code, and registers the key it brings",
                            screen.last_text)  # the host reads the code on his screen to pass it on
        assert room.store.keys("bob") == set()
        assert await _type(pilot, screen, "pause nowhere") == "there is no table 'nowhere'"
        assert "invalid choice: 'dance'" in await _type(pilot, screen, "dance")
        closed: list[bool] = []
        room.console.on_close = lambda: closed.append(True)
        assert await _type(pilot, screen, "close 0 'good night'") == "the room closes in 0 s"
        await wait_until(pilot, lambda: closed == [True], what="the room closing")
        await wait_until(pilot, lambda: "The room closes in 0 s: good night" in app._notice, what="the countdown")


async def test_pause_stops_the_next_hand_and_resume_deals_again(home_room: Room) -> None:
    room = home_room
    bots = [await Bot.seat(room, name, ["t1"]) for name in ("bob", "cleo")]
    runner: Any = room.drivers["t1"]
    app = served_app(room, "ana", HOST_KEY, reconnect=False)
    try:
        async with app.run_test(size=(140, 45)) as pilot:
            screen = await _open_host_screen(pilot, app)
            await wait_until(pilot, lambda: runner.hands_played >= 2, what="two hands")
            assert (await _type(pilot, screen, "pause t1")).startswith("t1 paused")
            await wait_until(pilot, lambda: not room.tables["t1"].engine.hand_running,
                             what="the hand to end")
            paused_at = runner.hands_played
            await pilot.pause(1.0)
            assert runner.hands_played == paused_at and not room.tables["t1"].engine.hand_running
            await _type(pilot, screen, "resume t1")
            await wait_until(pilot, lambda: runner.hands_played > paused_at, what="a hand after resume")
    finally:
        for bot in bots:
            await bot.stop()


async def test_seat_request_seen_by_the_player_who_waits_for_the_host(home_room: Room) -> None:
    room = home_room
    room.console.approve_seats = True
    ana = await LocalConnection.attach(room, "ana", HOST_KEY)
    app = served_app(room, "bob", reconnect=False)
    async with app.run_test(size=(140, 45)) as pilot:
        await app.connected.wait()
        await app.send("watch", table="t1")
        await app.send("sit", table="t1", buy_in=100)
        await wait_until(pilot, lambda: any("waiting for the host" in text for text in app.notices),
                         what="waiting for the host")
        assert room.tables["t1"].engine.seat_of("bob") is None
        from hosting.admin_requests import AdminRequest

        room.console.perform("ana", AdminRequest("approve", {"table": "t1", "player": "bob", "stack": 120}), 0.0)
        await wait_until(pilot, lambda: any("The host seated you at t1 with 120 chips." in text
                                            for text in app.notices), what="the approval")
        await wait_until(pilot, lambda: "t1" in app.models and app.models["t1"].seated, what="bob seated")
        await app.send("sit", table="t2", buy_in=100)
        await wait_until(pilot, lambda: room.console.seat_requests != {}, what="a second request")
        room.console.perform("ana", AdminRequest("deny", {"table": "t2", "player": "bob", "reason": "full"}), 0.0)
        await wait_until(pilot, lambda: any("The host did not seat you at t2: full." in text for text in app.notices),
                         what="the refusal")
        assert room.tables["t2"].engine.seat_of("bob") is None
    await ana.close()


async def test_seat_request_seen_by_the_host_who_approves_it_with_a(home_room: Room) -> None:
    room = home_room
    room.console.approve_seats = True
    bob = await LocalConnection.attach(room, "bob")
    app = served_app(room, "ana", HOST_KEY, reconnect=False)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await _open_host_screen(pilot, app)
        await bob.send("sit", table="t1", buy_in=100)
        await wait_until(pilot, lambda: any("bob asks to sit at t1 with 100 chips" in text for text in app.notices),
                         what="the host told")
        requests = screen.query_one("#seat-requests", DataTable)
        await wait_until(pilot, lambda: requests.row_count == 1, what="the request listed")
        requests.focus()
        await pilot.press("a")
        await wait_until(pilot, lambda: room.tables["t1"].engine.seat_of("bob") is not None, what="bob seated")
        assert screen.last_text == "bob sits at t1 seat 1 with 100 chips"
        await wait_until(pilot, lambda: requests.row_count == 0, what="the list emptied")
        await bob.send("sit", table="t2", buy_in=100)
        await wait_until(pilot, lambda: requests.row_count == 1, what="the second request listed")
        requests.focus()
        await pilot.press("d")
        await wait_until(pilot, lambda: "denied" in screen.last_text, what="the refusal")
        assert screen.last_text == "bob's seat request at t2 denied"
        assert room.tables["t2"].engine.seat_of("bob") is None and not room.console.seat_requests
    seen = []
    while True:
        try:
            seen.append(await asyncio.wait_for(bob.receive(), 0.5))
        except (TimeoutError, Exception):
            break
    kinds = [message.get("type") for message in seen]
    assert "seat_approved" in kinds and "seat_denied" in kinds
    acked = next(message for message in seen if message.get("type") == "ack" and message.get("in_reply_to") == "sit")
    assert acked["pending"] is True and acked["text"] == "waiting for the host"


async def test_the_host_screen_goes_live_when_a_host_makes_its_player_one(home_room: Room) -> None:
    """Found by a new-host trial: cleo's open Host screen kept "only the room's hosts can do that" after ana's
    make-host cleo, until she closed and opened it again. It fills with the room's status at once and follows it."""
    room = home_room
    app = served_app(room, "cleo", reconnect=False)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_host_screen(pilot, app)
        await wait_until(pilot, lambda: bool(screen.last_error), what="the refusal")
        assert screen.last_error == "only the room's hosts can do that" and not screen.status
        reply = room.console.perform("ana", parse_request({"action": "make_host", "player": "cleo"}), 0.0)
        assert reply["text"] == "cleo is now a host"
        deadline = time.monotonic() + 30  # bounded: a wait for quiet would not end while the room keeps pushing
        while not screen.status and time.monotonic() < deadline:
            await pilot.pause(0.1)
        assert screen.status, f"cleo's open Host screen still says {screen.last_error!r}"
        assert "t1  Table t1  blinds 1/2" in str(screen.query_one("#host-tables", Static).render())
        assert screen.last_text == "You are a host now: this console is live." and not screen.last_error
        room.console.perform("ana", parse_request({"action": "level", "table": "t1", "small_blind": 2,
                                                   "big_blind": 4}), 0.0)
        await wait_until(pilot, lambda: "blinds 2/4" in str(screen.query_one("#host-tables", Static).render()),
                         what="the level pushed to cleo's screen (she follows the status)")


async def test_a_player_who_is_no_host_sees_the_rooms_refusal_and_every_player_settles_up(
        home_room: Room) -> None:
    room = home_room
    app = served_app(room, "bob", reconnect=False)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_host_screen(pilot, app)
        await wait_until(pilot, lambda: bool(screen.last_error), what="the refusal")
        assert screen.last_error == "only the room's hosts can do that" and not screen.status
        assert await _type(pilot, screen, "pause t1") == "only the room's hosts can do that"
        assert not room.console.paused
        await pilot.press("escape")
        await app.send("sit", table="t1", buy_in=100)
        await wait_until(pilot, lambda: room.tables["t1"].engine.seat_of("bob") is not None, what="seated")
        assert room.store is not None
        await room.store.flush()
        app.action_settle_up()
        await wait_until(pilot, lambda: isinstance(app.screen, SettleUpScreen), what="the settle-up")
        lines = app.screen.query_one("#settle-lines", DataTable)
        assert [str(cell) for cell in lines.get_row_at(0)] == ["bob", "100", "0", "0", "100", "0", "0", "0"]
        assert "Nobody owes anything." in str(app.screen.query_one("#transfers", Static).render())


async def test_every_player_sees_the_rooms_closing_count_down(home_room: Room) -> None:
    room = home_room
    app = served_app(room, "bob", reconnect=False)
    async with app.run_test(size=(140, 45)) as pilot:
        await app.connected.wait()
        from hosting.admin_requests import AdminRequest

        room.console.perform("ana", AdminRequest("close", {"message": "last hand", "seconds": 3}), 0.0)
        await wait_until(pilot, lambda: "The room closes in 3 s: last hand" in app._notice, what="the count")
        await wait_until(pilot, lambda: "The room closes in 1 s: last hand" in app._notice, what="the count down")


async def test_commands_typed_after_a_on_the_request_list_go_to_the_command_box(home_room: Room) -> None:
    """Issue 27 item 3: after A on a seat request, typing `approve t1 cleo --stack 150` approved cleo for the
    200 she asked at the first "a". A and D act only on the focused list; the focus then goes back to the box."""
    room = home_room
    room.console.approve_seats = True
    bob, cleo = await LocalConnection.attach(room, "bob"), await LocalConnection.attach(room, "cleo")
    app = served_app(room, "ana", HOST_KEY, reconnect=False)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await _open_host_screen(pilot, app)
        await bob.send("sit", table="t1", buy_in=100)
        await cleo.send("sit", table="t1", buy_in=200)
        requests = screen.query_one("#seat-requests", DataTable)
        await wait_until(pilot, lambda: requests.row_count == 2, what="both requests listed")
        requests.focus()
        await pilot.press("a")  # bob, the first row
        await wait_until(pilot, lambda: room.tables["t1"].engine.seat_of("bob") is not None, what="bob seated")
        await wait_until(pilot, lambda: requests.row_count == 1, what="cleo's request left")
        assert room.tables["t1"].engine.seat_of("cleo") is None
        await pilot.press(*"approve t1 cleo --stack 150", "enter")
        await wait_until(pilot, lambda: room.tables["t1"].engine.seat_of("cleo") is not None, what="cleo seated")
        assert room.tables["t1"].engine.player("cleo").stack == 150
        assert screen.query_one("#host-command", Input).has_focus
        assert screen.last_text == "cleo sits at t1 seat 2 with 150 chips"
        screen.query_one("#host-command", Input).focus()
        await pilot.press("d")  # a "d" typed in the box is a letter, not a refusal
        assert screen.query_one("#host-command", Input).value == "d"
    await bob.close()
    await cleo.close()


async def test_a_players_table_header_shows_the_hosts_new_blinds_at_once(home_room: Room) -> None:
    """Issue 27 item 7: after `level t1 --blinds 2/4` the table header kept 1/2 (it read the lobby row, asked
    for once). The table message carries the next hand's stakes."""
    from hosting.admin_requests import AdminRequest

    room = home_room
    app = served_app(room, "bob", reconnect=False)
    async with app.run_test(size=(140, 45)) as pilot:
        await app.connected.wait()
        await app.send("sit", table="t1", buy_in=100)
        await wait_until(pilot, lambda: "t1" in app.models and app.models["t1"].seated, what="bob seated")
        app.show_table("t1")
        title = app.screen.query_one("#title", Static)
        await wait_until(pilot, lambda: "1/2" in str(title.render()), what="the header at 1/2")
        room.console.perform("ana", AdminRequest("level", {"table": "t1", "small_blind": 2, "big_blind": 4}), 0.0)
        await wait_until(pilot, lambda: app.models["t1"].stakes == (2, 4), what="the model at 2/4")
        await wait_until(pilot, lambda: "2/4" in str(title.render()), what="the header at 2/4")


def test_a_tournament_line_says_its_status_in_words() -> None:
    """Found trying the room as a new host: the Host screen read `sng … tournament  final_table  6/6 registered`
    (the protocol's id), where the lobby says "final table"."""
    from types import SimpleNamespace

    from tui.host_screen import HostScreen

    shown = SimpleNamespace(status={"tournaments": [{"id": "sng", "name": "Sit & Go", "status": "final_table",
                                                     "registered": 6, "max": 6}]})
    (line,) = HostScreen._tournament_lines(shown)  # type: ignore[arg-type]
    assert "tournament  final table  6/6 registered" in line
