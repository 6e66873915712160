"""Fast-fold in the TUI (R-FAST-1): a player who folds sees his next hand at once, at another table of the pool,
without a key pressed; the table he folded at closes. The room is real (a pool of 3-handed hands, bots over SSH)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import asyncssh

from hosting.bots import play
from hosting.client import RoomClient
from hosting.config import parse_room
from hosting.server import start_room
from hosting.table_runner import RunnerSettings
from tests.hosting.room_files import pool_room
from tests.waiting import until
from tui.app import CroupierApp
from tui.connection import LocalConnection
from tui.model import TableModel

ROOM = pool_room(name="Zoom", seats=3, buy_in=(80, 200), fill_seconds=0.5, action_seconds=8)


def _my_cards(model: TableModel) -> tuple[str, ...]:
    mine = model.seats.get(model.my_seat) if model.my_seat is not None else None
    return tuple(str(card) for card in getattr(mine, "cards", ()) or ())


async def test_a_player_who_folds_sees_his_next_hand_at_once(tmp_path: Path) -> None:
    settings = RunnerSettings(commit_seconds=5.0, reveal_seconds=5.0, pause_between_hands=0.0)
    running = await start_room(parse_room(ROOM), tmp_path / "data", host="127.0.0.1", port=0,
                               runner_settings=settings, served_tui=False)
    bots = [await RoomClient.connect("127.0.0.1", running.port, f"bot{index}",
                                     client_keys=[asyncssh.generate_private_key("ssh-ed25519")]) for index in range(5)]
    done = asyncio.Event()
    playing = asyncio.ensure_future(asyncio.gather(*(
        play(bot, "zoom", 10**6, random.Random(index), done=done) for index, bot in enumerate(bots))))

    async def connect() -> LocalConnection:
        return await LocalConnection.attach(running.room, "me")

    app = CroupierApp(connect)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await app.connected.wait()
            await until(lambda: "zoom" in app.pool_ids, "the pool in the lobby", pause=pilot.pause)
            assert app.lobby_rows["zoom"]["kind"] == "pool"
            await app.send("sit", table="zoom", buy_in=200)
            folded_at: tuple[str, str] | None = None
            for _ in range(1500):  # my turn at some table of the pool: fold it
                table_id = app.current_table
                model = app.models.get(table_id or "")
                if model is not None and model.needs_action and _my_cards(model):
                    folded_at = (model.table_id, model.hand_id)
                    await pilot.press("f")
                    break
                await pilot.pause(0.02)
            assert folded_at is not None, "never dealt a hand in the pool"
            for _ in range(1500):  # no key pressed: the next hand comes up by itself
                shown = app.current_table
                model = app.models.get(shown or "")
                if shown and shown != folded_at[0] and model is not None and _my_cards(model) \
                        and model.hand_id != folded_at[1]:
                    break
                await pilot.pause(0.02)
            shown = app.current_table
            assert shown is not None and shown.startswith("zoom.") and shown != folded_at[0]
            assert _my_cards(app.models[shown]) and app.models[shown].hand_id != folded_at[1]
            assert folded_at[0] not in app.models  # the table he folded at is closed
            assert app.internal_errors == []
            # issue 27 item 4: a pool's table zoom.N is no tournament's table: no state asked for 'zoom' (the
            # room answered each with a 'no such tournament' toast)
            assert [sent for sent in app.sent if sent.get("type") == "tournament"] == []
            await app.send("leave", table="zoom")  # the bots go too: each leaves once his hand lets him
    finally:
        done.set()
        await asyncio.wait_for(playing, 60)
        for bot in bots:
            await bot.close()
        await running.close()
