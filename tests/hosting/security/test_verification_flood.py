"""Issue 13 item 3: ``verification`` floods cannot grow the room's memory.

``Room.verification_reports`` keeps one verdict per player per hand, typed and size-capped, for the last
:data:`hosting.verdicts.MAX_HANDS` hands; an outsider's reports are refused before anything is kept.
"""

from __future__ import annotations

import asyncio
import tracemalloc
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
import hosting
from hosting.verdicts import MAX_EVIDENCE, MAX_HANDS, MAX_VIOLATIONS, Verdict, VerdictBook, typed_violations
from tests.hosting.security.wire_room import WireRoom, wire_room
from tests.sweeps import sweep

ROOM_CODE = {Path(engine.__file__).parent, Path(hosting.__file__).parent}
BIG_VIOLATIONS = [{"kind": "card_mismatch", "message": "x" * 200,
                   "evidence": {f"key{index}": index for index in range(40)}} for _ in range(64)]
"""The largest ``violations`` a line may carry (64 items), each with far more evidence than is kept."""
FLOOD = sweep("CROUPIER_VERIFICATION_FLOOD", 300, 1000)
"""Reports an outsider floods in (a player of the hand sends a fifth as many): 300 of ~14 KB (4 MB) by default,
the original 1,000 with ``CROUPIER_FULL=1``; either is far above the 256 KB the room may keep."""


@pytest.fixture
async def started(tmp_path: Path) -> AsyncIterator[WireRoom]:
    async for room in wire_room(tmp_path / "room"):
        yield room


def test_the_book_keeps_one_verdict_per_player_per_hand_for_the_last_hands_only() -> None:
    book = VerdictBook()
    violations = tuple(typed_violations(BIG_VIOLATIONS))
    assert len(violations) == MAX_VIOLATIONS and all(len(item["evidence"]) == MAX_EVIDENCE for item in violations)
    for hand in range(3 * MAX_HANDS):
        for seat in range(6):
            assert book.add(Verdict("t1", f"t1-h-{hand}", f"p{seat}", False, violations))
            assert not book.add(Verdict("t1", f"t1-h-{hand}", f"p{seat}", True))  # once per player per hand
    assert book.hands == MAX_HANDS and len(book) == 6 * MAX_HANDS
    assert book.of_hand("t1", "t1-h-0") == [] and len(book.of_hand("t1", f"t1-h-{3 * MAX_HANDS - 1}")) == 6


async def test_a_verification_flood_keeps_nothing_and_memory_stays_flat(started: WireRoom) -> None:
    await started.bot("bob")
    cat = await started.bot("cat")
    mallory = await started.listener("mallory")
    await mallory.connection.send("watch", table="t1")
    seeds = await mallory.wait_for(lambda: next(iter(mallory.of_type("seeds")), None), "a finished hand")
    await asyncio.sleep(0.2)  # the players' own verdicts on it are in
    kept_before = len(started.room.verification_reports)

    async def flood(connection: object, count: int) -> None:
        for number in range(count):
            hand = seeds["hand"] if number % 2 else f"fakehand-{number}"
            await connection.send("verification", table="t1", hand=hand, ok=False,  # type: ignore[attr-defined]
                                  violations=BIG_VIOLATIONS)
            if number % 50 == 0:
                await asyncio.sleep(0)

    await flood(mallory.connection, 50)  # warm up: allocations that happen once
    mallory.received.clear()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        await flood(mallory.connection, FLOOD)
        await flood(cat.connection, FLOOD // 5)  # a player of the hand: his second and later verdicts are refused
        mallory.received.clear()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    from_room = sum(stat.size_diff for stat in after.compare_to(before, "filename")
                    if Path(stat.traceback[0].filename).parent in ROOM_CODE)
    assert from_room < 256 * 1024, f"the room kept {from_room} bytes after {FLOOD * 6 // 5} reports of ~14 KB"
    reports = list(started.room.verification_reports)
    assert all(report["name"] in ("bob", "cat") for report in reports)
    assert sum(1 for report in reports if report["hand"] == seeds["hand"] and report["name"] == "cat") == 1
    hands = started.room.drivers["t1"].hands_played  # type: ignore[attr-defined]
    assert kept_before <= len(reports) <= 2 * hands  # the two players' verdicts on the hands played, no more


def test_the_verdict_module_examples() -> None:
    import doctest

    import hosting.verdicts

    result = doctest.testmod(hosting.verdicts)
    assert result.attempted > 0 and result.failed == 0
