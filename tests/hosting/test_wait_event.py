"""A runner's waits end when it is cancelled: ``asyncio.wait_for`` on Python 3.11 swallows a cancellation that
arrives as the awaited event is set, and a runner's ``while`` loop then ran on after the room (or the test's
event loop at teardown) cancelled it — the fast-fold practice test hung its teardown that way on a loaded box."""

from __future__ import annotations

import asyncio

import pytest

from hosting.table_runner import wait_event


@pytest.mark.parametrize("steps", [0, 1, 2, 3])
async def test_a_waiting_loop_ends_when_cancelled_as_its_event_is_set(steps: int) -> None:
    event = asyncio.Event()

    async def runner_loop() -> None:  # the shape of TableRunner's loop: wait, clear, wait again
        while True:
            event.clear()
            await wait_event(event, 5.0)

    task = asyncio.get_running_loop().create_task(runner_loop())
    await asyncio.sleep(0)
    event.set()
    for _ in range(steps):  # the cancellation lands at each point of the wake-up
        await asyncio.sleep(0)
    task.cancel()
    await asyncio.wait({task}, timeout=2.0)
    assert task.cancelled()


async def test_wait_event_says_whether_the_event_came() -> None:
    event = asyncio.Event()
    assert await wait_event(event, 0.01) is False
    event.set()
    assert await wait_event(event, 0.01) is True
    assert await wait_event(event, None) is True
