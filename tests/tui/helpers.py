"""Small Pilot helpers shared by the TUI tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import asyncssh
from textual.pilot import Pilot

from hosting.room import Room
from tests import waiting
from tui.app import CroupierApp
from tui.connection import LocalConnection
from tui.host_screen import HostScreen


def new_public_key() -> str:
    """A fresh ed25519 public key, as a player's client sends it (OpenSSH text)."""
    return asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()


HOST = "ana"
HOST_KEY = new_public_key()
"""The host of :func:`tests.tui.conftest.home_room`: her name and key, registered before the room opens."""


def served_app(room: Room, name: str = "me", key: str | None = None, **options: Any) -> CroupierApp:
    """The player's app (Pilot drives it) logged in to the in-process ``room`` as ``name``, with ``key`` (a new
    one if not given; the same on every reconnect, as a real player's); ``options`` go to CroupierApp. Strict:
    a widget error fails the test instead of being drawn."""
    chosen = key or new_public_key()

    async def connect() -> LocalConnection:
        return await LocalConnection.attach(room, name, chosen)

    app = CroupierApp(connect, **options)
    app.strict = True  # type: ignore[attr-defined]
    return app


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


async def open_host_screen(pilot: Pilot[Any], app: CroupierApp) -> HostScreen:
    """Once ``app`` is connected, Ctrl+O as the player presses it; the Host screen once it is shown (a host's
    fills with the room's status, a player's shows the room's refusal)."""
    await app.connected.wait()
    await pilot.press("ctrl+o")
    await wait_until(pilot, lambda: isinstance(app.screen, HostScreen), what="the Host screen")
    screen = app.screen
    assert isinstance(screen, HostScreen)
    return screen
