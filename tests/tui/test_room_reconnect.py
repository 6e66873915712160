"""A room bug seen from the TUI (issue 8 brief, item 6): at a two-player table where both wait for the big
blind, a player who sat down, dropped before any hand and came back must be dealt in."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncssh
import pytest

from tests.tui.roombots import Bot, make_room, table
from tests.waiting import until
from tui.connection import LocalConnection


@pytest.mark.parametrize("away_seconds", [0.5, 2.5], ids=["back-during-the-commit-phase", "back-after-it"])
async def test_a_player_who_dropped_before_the_first_hand_is_dealt_in_after_reconnecting(
        tmp_path: Path, away_seconds: float) -> None:
    """Commit deadline 2 s (roombots.FAST): back within it he gets the commit request again on the new
    connection; back after it (sat out for the missed commitment, not by choice) he is sat in again."""
    room = make_room(tmp_path / "room", [table("t1", seats=2)])
    room.start()
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()
    bot: Bot | None = None
    me: LocalConnection | None = None
    try:
        me = await LocalConnection.attach(room, "me", key)
        await me.send("sit", table="t1", buy_in=200)
        await me.send("wait_for_big_blind", table="t1", on=True)
        await me.close()  # dropped before any hand
        bot = await Bot.seat(room, "bob", ["t1"])
        await bot.connection.send("wait_for_big_blind", table="t1", on=True)
        await asyncio.sleep(away_seconds)
        me = await LocalConnection.attach(room, "me", key)  # back, the same key
        engine = room.tables["t1"].engine
        await until(lambda: engine.hand_number > 0 and engine.in_hand("me"), "me dealt into a hand")
        seated = engine.player("me")
        assert engine.hand_number > 0 and engine.in_hand("me"), (
            f"not dealt in: hand {engine.hand_number}, away={seated.away}, sitting_out={seated.sitting_out}, "
            f"disconnected={seated.disconnected}")
    finally:
        if bot is not None:
            await bot.stop()
        if me is not None:
            await me.close()
        await asyncio.wait_for(room.stop(), 5)


async def test_lobby_shows_the_balance_and_a_refill_arrives(tmp_path: Path) -> None:
    from engine.bankroll import PlayMoneyPolicy
    from hosting.config import RoomConfig
    from hosting.server import start_room
    from tui.app import CroupierApp
    from tui.widgets.lobby import Lobby

    running = await start_room(RoomConfig("bank room", (table("t1"),)), tmp_path / "data", host="127.0.0.1",
                               port=0, deal=False)
    running.room.play_money = PlayMoneyPolicy(refill_allowed_below=5_000, refill_delay_seconds=0.3)
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()

    async def connect() -> LocalConnection:
        return await LocalConnection.attach(running.room, "me", key)

    app = CroupierApp(connect)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await app.connected.wait()
            lobby = app.query_one(Lobby)
            await until(lambda: lobby.balance, "the balance shown", pause=pilot.pause)
            assert lobby.balance == "Balance: 1000 chips"
            await pilot.click("#refill")
            await until(lambda: lobby.balance == "Balance: 1150 chips", "the refill in the balance", pause=pilot.pause)
            assert lobby.balance == "Balance: 1150 chips"
            assert any("150 free chips are on their way" in text for text in app.notices)
            await pilot.click("#refill")  # a second one is on its way again; a third the same day is refused
            await pilot.pause(0.5)
            await pilot.click("#refill")
            await until(lambda: any("at most 2 refills a day" in text for text in app.notices), "the third refused",
                        pause=pilot.pause)
            assert any("at most 2 refills a day" in text for text in app.notices)
            assert app.internal_errors == []
    finally:
        await running.close()
