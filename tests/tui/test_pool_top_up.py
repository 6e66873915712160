"""A top-up from a fast-fold pool's table (issue 27, a leftover). The TUI read the limits of ``zoom.N`` (no lobby
row of its own) and said "already at the table maximum (0)": the pool's limits apply. And in a pool a player is
nearly always in a hand, where the pool refused every top-up ("in a hand: top up after it"; croupier bots asking
again were disconnected for too many refused requests): the pool keeps it and adds it when his hand lets him go,
up to the maximum buy-in, and says so (the ack's ``after_hand``, then the ``pool`` message's ``added``). The room
is real (a pool of 3-handed hands, bots over SSH)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import asyncssh

from hosting.bots import play
from hosting.client import RoomClient
from hosting.config import parse_room
from hosting.ledger import audit
from hosting.server import start_room
from hosting.table_runner import RunnerSettings
from tests.tui.helpers import wait_until
from tests.tui.test_pool_fold import ROOM
from tui.app import CroupierApp
from tui.connection import LocalConnection
from tui.model import TableModel
from tui.screens import AmountScreen

BUY_IN = 80
"""The pool's minimum (its buy-in is 80-200): room to top up by 120 less what the hand takes."""
SLOW_CLOCK = ROOM.replace("action_seconds = 8", "action_seconds = 60")
"""The hand waits for my move while the test opens the top-up window (a loaded machine is slow)."""


async def test_a_top_up_from_a_pool_table_uses_the_pools_limits_and_lands_after_the_hand(tmp_path: Path) -> None:
    assert SLOW_CLOCK != ROOM
    settings = RunnerSettings(commit_seconds=5.0, reveal_seconds=5.0, pause_between_hands=0.0)
    running = await start_room(parse_room(SLOW_CLOCK), tmp_path / "data", host="127.0.0.1", port=0,
                               runner_settings=settings, served_tui=False)
    bots = [await RoomClient.connect("127.0.0.1", running.port, f"bot{index}",
                                     client_keys=[asyncssh.generate_private_key("ssh-ed25519")]) for index in range(2)]
    done = asyncio.Event()
    playing = asyncio.ensure_future(asyncio.gather(*(
        play(bot, "zoom", 10**6, random.Random(index), done=done) for index, bot in enumerate(bots))))

    async def connect() -> LocalConnection:
        return await LocalConnection.attach(running.room, "me")

    app = CroupierApp(connect)
    store = running.room.store
    assert store is not None
    checked: set[int] = set()

    def my_turn_facing_a_bet() -> TableModel | None:
        """My turn at a pool table where I may fold (a turn where I may only check is checked: play goes on)."""
        for table_id, model in app.models.items():
            legal: dict[str, Any] | None = model.legal
            if not table_id.startswith("zoom.") or model.my_seat is None or legal is None:
                continue
            if legal.get("can_fold"):
                return model
            if id(legal) not in checked:
                checked.add(id(legal))
                app.run_worker(app.send("action", table=table_id, hand=model.hand_id, kind="check"), group="send")
        return None

    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await app.connected.wait()
            await wait_until(pilot, lambda: "zoom" in app.lobby_rows, what="the pool in the lobby")
            await app.send("sit", table="zoom", buy_in=BUY_IN)
            await wait_until(pilot, lambda: my_turn_facing_a_bet() is not None, what="my turn in a pool hand")
            model = my_turn_facing_a_bet()
            assert model is not None and model.my_seat is not None
            table_id, stack = model.table_id, model.seats[model.my_seat].stack
            app.top_up(table_id)
            await wait_until(pilot, lambda: isinstance(app.screen, AmountScreen) or any(
                "maximum" in line for line in app.notices), what="the top-up window")
            assert not [line for line in app.notices if "maximum" in line]  # before: "at the table maximum (0)"
            window = app.screen
            assert isinstance(window, AmountScreen)
            assert (window.minimum, window.maximum) == (1, 200 - stack)  # the pool's maximum, not 0
            window.query_one("#amount-input").value = "50"  # type: ignore[attr-defined]
            told = len(app.notices)
            await pilot.press("enter")
            await wait_until(pilot, lambda: any(line.startswith(("top-up:", "table rule:", "amount refused:"))
                                                for line in app.notices[told:]), what="the pool's answer")
            assert {"type": "top_up", "table": "zoom", "amount": 50} in app.sent  # to the pool, not its table
            # kept while the hand holds me (before: refused, "me is in a hand: top up after it")
            assert "top-up: Top-up of 50 at Zoom: added when this hand lets you go (up to the maximum buy-in)." \
                in app.notices, app.notices
            assert store.balance("me") == 1000 - BUY_IN
            await app.send("action", table=table_id, hand=model.hand_id, kind="fold")
            await wait_until(pilot, lambda: any("added at" in line for line in app.notices), what="the top-up added")
            assert f"top-up: Top-up of 50 added at Zoom: your stack there is {stack + 50}." in app.notices
            assert store.balance("me") == 1000 - BUY_IN - 50
            result = app.results.current("zoom")
            assert result is not None and result.bought_in == BUY_IN + 50  # his result counts it once it landed
            assert not [line for line in app.notices if "refused" in line.lower()]
            assert app.internal_errors == []
            await store.flush()
            assert audit(store.connection) == []  # chips conserved: the top-up is one ledger row, bank to pool
            await app.send("leave", table="zoom")
    finally:
        done.set()
        await asyncio.wait_for(playing, 60)
        for bot in bots:
            await bot.close()
        await running.close()
