"""A ``settle_up`` request reads the database and searches the fewest transfers in a worker thread: a flood of
them from one connection must not queue work without bound (issue 13: every per-connection resource bounded)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from hosting.room import MESSAGE_LIMITS
from tests.hosting.security.wire_room import WireRoom, wire_room


@pytest.fixture
async def started(tmp_path: Path) -> AsyncIterator[WireRoom]:
    async for room in wire_room(tmp_path / "room", store=True):
        yield room


async def test_a_settle_up_flood_is_refused_past_its_limit(started: WireRoom) -> None:
    mallory = await started.listener("mallory")
    for _ in range(300):
        await mallory.connection.send("settle_up")
    await mallory.connection.send("ping", id=1)

    def answered() -> list[dict[str, object]]:
        return [m for m in mallory.received if m.get("type") == "settle_up" or m.get("in_reply_to") == "settle_up"]

    await mallory.wait_for(lambda: len(answered()) == 300, "an answer to every request")
    refused = [m for m in answered() if m.get("code") == "rate_limited"]
    assert refused  # before the limit all 300 were queued for the worker threads and answered
    burst, _ = MESSAGE_LIMITS["settle_up"]
    worked = [m for m in answered() if m.get("code") != "rate_limited"]
    assert len(worked) == burst  # the burst read the database, the rest was refused unread
    assert len(refused) == 300 - burst
    assert refused[0]["message"].startswith("too many settle-up requests: wait")
