"""Small Pilot helpers shared by the TUI tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from tests import waiting


def app_progress(app: Any) -> object:
    """What shows a player's app is moving: messages in and out, notices, windows opened or closed."""
    session = getattr(app, "session", None)
    return (getattr(session, "received", None), len(getattr(session, "sent", ())), len(getattr(app, "notices", ())),
            len(app.screen_stack))


async def wait_until(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = waiting.QUIET,
                     what: str = "condition") -> None:
    """Pause until ``condition()``; fail with ``what`` once the app has not moved (no message in or out, no
    notice, no window) for ``timeout`` seconds (tests.waiting)."""
    await waiting.until(condition, what, quiet=timeout, progress=lambda: app_progress(pilot.app), pause=pilot.pause)


def actions_sent(app: Any, table: str | None = None) -> list[dict[str, Any]]:
    return [item for item in app.sent if item["type"] == "action" and (table is None or item["table"] == table)]


def notifications(app: Any) -> list[str]:
    return list(app.notices)
