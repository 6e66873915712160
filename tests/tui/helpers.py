"""Small Pilot helpers shared by the TUI tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot


async def wait_until(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 15.0,
                     what: str = "condition") -> None:
    """Pause in small steps until ``condition()``; fail with ``what`` after ``timeout`` seconds of pauses."""
    steps = int(timeout / 0.02)
    for _ in range(steps):
        if condition():
            return
        await pilot.pause(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def actions_sent(app: Any, table: str | None = None) -> list[dict[str, Any]]:
    return [item for item in app.sent if item["type"] == "action" and (table is None or item["table"] == table)]


def notifications(app: Any) -> list[str]:
    return list(app.notices)
