"""Issue 14, item 19: a showdown's result stays up — the room waits at least its showdown pause between the
end of a hand that went to a showdown and the next deal; hands won without a showdown keep the short pause."""

from __future__ import annotations

import asyncio
from pathlib import Path

from engine.events import HandEnded, HandShown, HandStarted
from hosting.table_runner import ROOM_SETTINGS, SHOWDOWN_HOLD_SECONDS, RunnerSettings
from tests.tui.roombots import Bot, make_room, table
from tui.connection import LocalConnection


def test_a_hosted_room_holds_a_showdown_at_least_three_seconds() -> None:
    assert SHOWDOWN_HOLD_SECONDS >= 3.0
    assert ROOM_SETTINGS.pause_after(showdown=True) >= 3.0
    assert ROOM_SETTINGS.pause_after(showdown=False) == ROOM_SETTINGS.pause_between_hands


async def test_the_next_deal_waits_the_showdown_pause(tmp_path: Path) -> None:
    settings = RunnerSettings(commit_seconds=2.0, reveal_seconds=2.0, pause_between_hands=0.02, showdown_pause=1.0)
    room = make_room(tmp_path / "room", [table("t1", seats=2)], settings)
    room.start()
    bots: list[Bot] = []
    watcher = await LocalConnection.attach(room, "watcher")
    try:
        await watcher.send("watch", table="t1")
        bots = [await Bot.seat(room, name, ["t1"]) for name in ("ana", "bob")]  # check or call: every hand shown
        loop = asyncio.get_running_loop()
        ended: dict[str, float] = {}
        gaps: list[float] = []
        showdowns: set[str] = set()
        async with asyncio.timeout(60):
            while len(gaps) < 2:
                message = await watcher.receive()
                body = message.get("event")
                hand = str(message.get("hand", ""))
                if isinstance(body, HandShown):
                    showdowns.add(hand)
                elif isinstance(body, HandEnded) and hand in showdowns:
                    ended[hand] = loop.time()
                elif isinstance(body, HandStarted) and ended:
                    gaps.append(loop.time() - max(ended.values()))
                    ended.clear()
        assert min(gaps) >= 1.0, gaps
    finally:
        for bot in bots:
            await bot.stop()
        await watcher.close()
        await room.stop()
