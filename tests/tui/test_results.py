"""Your result when you leave (issue 27): leaving a table (X) tells what you bought in for, cashed out, up or
down, hands and time; Ctrl+P → Your results and the lines printed after you quit sum the night."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from textual.widgets import Input

from engine.events import Event, HandStarted
from engine.table_events import ChipsReturned, PlayerSeated
from hosting.commands import play
from hosting.hand_codec import CodecError, event_from_json
from tests.tui.helpers import app_progress, wait_until
from tests.tui.plain_ssh import plain_ssh_player, start_plain_ssh_room
from tests.tui.roombots import table
from tests.tui.test_play import join
from tests.tui.test_practice_table import play_until, verified_hands
from tests.waiting import QUIET, Stall
from tui.connection import ConnectionLost, LocalConnection
from tui.results import ResultBook, chips_words, farewell, night_words, table_words
from tui.screens import AutoTopUpScreen, ResultsScreen


class Spy:
    """A watcher of one table: what the room itself said about ``player``'s chips and hands there."""

    def __init__(self, connection: LocalConnection, player: str) -> None:
        self.connection, self.player = connection, player
        self.seat: int | None = None
        self.returned: list[int] = []
        self.hands: set[str] = set()
        self.task = asyncio.get_running_loop().create_task(self._listen())

    async def _listen(self) -> None:
        with contextlib.suppress(ConnectionLost):
            while True:
                message = await self.connection.receive()
                if message.get("type") == "table":
                    seats = [row for row in message.get("seats", []) if row.get("name") == self.player]
                    self.seat = int(seats[0]["seat"]) if seats else self.seat
                if message.get("type") != "event":
                    continue
                event = message["event"]  # in process the room hands over its event objects as they are
                if not isinstance(event, Event):
                    try:
                        event = event_from_json(event)
                    except CodecError:
                        continue
                if isinstance(event, PlayerSeated) and event.player == self.player:
                    self.seat = event.seat
                elif isinstance(event, ChipsReturned) and event.player == self.player:
                    self.returned.append(event.amount)
                elif isinstance(event, HandStarted) and any(seat == self.seat for seat, _ in event.stacks):
                    self.hands.add(str(message["hand"]))


def test_a_sitting_sums_buy_in_and_top_ups_and_counts_each_hand_once() -> None:
    book = ResultBook()
    book.seated("t1", "Table t1", 150, now=100.0)
    book.dealt("t1", "t1-a-1")
    book.dealt("t1", "t1-a-1")  # the room replays a running hand after a reconnect: one hand
    book.dealt("t1", "t1-a-2")
    book.added("t1", 50)  # a top-up
    book.stack_now("t1", 230)
    assert table_words(book.results[0], now=100.0 + 65 * 60) == \
        "Table t1: bought in 200, 230 on the table — up 30 · 2 hands · 1 h 05 min"
    ended = book.cashed_out("t1", 180, now=100.0 + 30 * 60)
    assert ended is not None and ended.net == -20 and book.cashed_out("t1", 180, now=0.0) is None
    book.seated("t2", "Table t2", 100, now=100.0 + 40 * 60)
    book.stack_now("t2", 140)
    assert night_words(book, now=100.0 + 60 * 60) == \
        "Tonight: bought in 300, cashed out 180 (140 still on the table) — up 20 · 2 tables, 2 hands · 1 h 00 min"
    assert farewell(ResultBook(), now=0.0) == ""


async def test_leaving_tells_the_sitting_and_quitting_the_night(room_setup: Any) -> None:
    setup = await room_setup([table("t1"), table("t2")])
    await setup.bot("bob", ["t1"])
    await setup.bot("cat", ["t1"])
    spy = Spy(await LocalConnection.attach(setup.room, "spy"), "me")
    await spy.connection.send("watch", table="t1")
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t1", buy_in=150)
        app.show_table("t1")
        model = app.models["t1"]
        stall = Stall(QUIET, lambda: (app_progress(app), len(spy.hands)))
        while not (len(spy.hands) >= 2 and model.needs_action):  # check or call: two hands dealt, my turn again
            assert not stall.stalled(), stall.failure(f"a second hand and my turn ({model.log[-6:]})")
            if model.needs_action:
                await pilot.press("c")
            await pilot.pause(0.05)
        app.show_table("t1")
        await pilot.pause()
        await pilot.press("x")  # folded now; the seat is freed (and the chips come back) when the hand ends
        await wait_until(pilot, lambda: "t1" not in app.models, what="the seat freed after the hand")
        await wait_until(pilot, lambda: bool(spy.returned), what="the room's chips back")
        cashed = spy.returned[0]
        hands = len(spy.hands)
        told = [text for text in app.notices if text.startswith("your result:")]
        assert len(told) == 1, app.notices
        assert f"Table t1: bought in 150, cashed out {cashed} — {chips_words(cashed - 150)} · {hands} hands · " \
               in told[0]
        assert f"Tonight: bought in 150, cashed out {cashed} — {chips_words(cashed - 150)} · 1 table, " \
               f"{hands} hands" in told[0]
        # a second table: nobody else there, no hand; X frees the seat at once and the ack tells it
        await join(pilot, app, "t2", buy_in=100)
        await pilot.press("ctrl+p")
        await pilot.press(*"your results")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen), what="the results window")
        text = str(app.screen.query_one("#results-text").render())
        assert "Table t2: bought in 100, 100 on the table — even · 0 hands" in text
        assert f"(100 still on the table) — {chips_words(cashed - 150)} · 2 tables, {hands} hands" in text
        await pilot.press("escape")
        app.show_table("t2")
        await pilot.pause()
        await pilot.press("x")
        await wait_until(pilot, lambda: "t2" not in app.models, what="left t2")
        left = [text for text in app.notices if text.startswith("your result: You left Table t2")]
        assert left and "with 100 chips.\nTable t2: bought in 100, cashed out 100 — even · 0 hands" in left[0]
        assert len([text for text in app.notices if text.startswith("your result:")]) == 2
        await pilot.press("ctrl+q")
    words = app.farewell()
    assert words.startswith("Your result:\n  Table t1: bought in 150, ")
    assert f"\n  Tonight: bought in 250, cashed out {cashed + 100} — {chips_words(cashed - 150)} · 2 tables, " \
           f"{hands} hands" in words
    assert app.internal_errors == []
    spy.task.cancel()


async def test_the_practice_table_tells_the_result_of_the_seat_croupier_play_took(tmp_path: Path) -> None:
    """``croupier play`` sits you down before the app shows a table: the sitting still starts at its buy-in."""
    config = play.check_options("texas_holdem", None, 3, "1/2")
    state: dict[str, Any] = {}
    app = play.practice_app(config, tmp_path, seed=4, fast=True, state=state)
    async with app.run_test(size=(120, 40)) as pilot:
        await play_until(pilot, app, lambda: verified_hands(app) >= 2)
        result = app.results.current(play.TABLE_ID)
        assert result is not None and result.bought_in == config.max_buy_in and len(result.hands) >= 2
        app.show_table(play.TABLE_ID)
        await wait_until(pilot, lambda: app.models[play.TABLE_ID].needs_action, what="my turn")
        await pilot.press("x")  # folded: the hand may end with it, before the room's answer says "after the hand"
        await wait_until(pilot, lambda: any(text.startswith("your result:") for text in app.notices),
                         what="the result told")
        ended = app.results.results[0]
        assert not ended.seated and ended.net == ended.cashed_out - config.max_buy_in
        told = next(text for text in app.notices if text.startswith("your result:"))
        assert f"bought in {config.max_buy_in}, cashed out {ended.cashed_out}" in told
        await pilot.press("ctrl+q")
    assert app.farewell().startswith(f"Your result:\n  {ended.name}: bought in {config.max_buy_in}, ")


async def test_a_plain_ssh_player_reads_the_result_on_his_terminal_after_quitting(tmp_path: Path) -> None:
    """The plain-ssh player's app runs on the host: its farewell lines reach his terminal before the session ends."""
    running = await start_plain_ssh_room(tmp_path / "data", [table("t1")])
    try:
        async with plain_ssh_player(running, "ana", (120, 40)) as ana:
            await ana.sit_at(running, "t1", "ana")
            ana.process.stdin.write(b"\x11")  # Ctrl+Q
            await ana.read_until(b"Tonight:")
            await ana.read_until(b"\n")
        words = bytes(ana.seen).decode(errors="replace")
        assert "Your result:" in words
        assert "Table t1: bought in 200, 200 on the table — even · 0 hands" in words
    finally:
        await running.close()


async def test_z_sets_an_auto_top_up_the_room_carries_out_and_the_result_counts_it_as_money_in(
        room_setup: Any) -> None:
    """Issue 27, auto top-up: Z opens the window, the room tops the stack up between hands (no hand here: at
    once) to the table's maximum, the line under the table shows the order, and the top-up is money in."""
    setup = await room_setup([table("t1")])
    app = setup.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await app.connected.wait()
        await join(pilot, app, "t1", buy_in=100)
        app.show_table("t1")
        await pilot.pause()
        await pilot.press("z")
        await wait_until(pilot, lambda: isinstance(app.screen, AutoTopUpScreen), what="the auto top-up window")
        app.screen.query_one("#auto-below", Input).value = "150"
        await pilot.press("enter")
        model = app.models["t1"]
        await wait_until(pilot, lambda: model.my_seat is not None and model.seats[model.my_seat].stack == 200,
                         what="the stack topped up to the maximum")
        assert [item for item in app.sent if item["type"] == "auto_top_up"] == \
            [{"type": "auto_top_up", "table": "t1", "below": 150, "rebuy": False}]
        await wait_until(pilot, lambda: "auto: top up below 150 to the max" in str(
            app.current_view().query_one("#status").render()), what="the order under the table")
        result = app.results.current("t1")
        assert result is not None and (result.bought_in, result.net) == (200, 0)


def test_the_readme_names_the_practice_table_as_the_result_does() -> None:
    """The README's result example said "Hold'em 1/2:" where croupier play's result says the table's name,
    "Texas Hold'em 1/2 practice:" (issue 27): one name in both."""
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    example = readme.split("Your result:\n", 1)[1].splitlines()[0].strip()
    practice = play.check_options("texas_holdem", None, None, "1/2")
    result = ResultBook()
    result.seated(play.TABLE_ID, practice.name, 250, now=0.0)
    current = result.current(play.TABLE_ID)
    assert current is not None
    assert example.split(":")[0] == table_words(current, 60.0).split(":")[0] == "Texas Hold'em 1/2 practice"
