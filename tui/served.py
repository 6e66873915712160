"""``python -m tui.served --socket PATH --token TOKEN``: the TUI a plain-ssh player sees (hosting/pty_session.py).

Started by the room on its own pseudo-terminal; connects back to the room's local socket with its one-time
token. A *ready screen* is started before its player arrives (``--token-fd``): it draws the lobby at once and
waits for the token on a socket from the room. A failure is logged (``--log``) and summed up in one line,
never shown as a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import socket
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from textual.app import App, SystemCommand
from textual.screen import Screen

from hosting.parent_watch import die_with_parent
from tui.app import CroupierApp
from tui.connection import ConnectionLost, StreamConnection

HOST_SAFE_SYSTEM_COMMANDS = frozenset({"Theme", "Quit", "Keys", "Maximize", "Minimize"})
"""Textual's own palette commands a served screen keeps: they change only this screen. The others are dropped,
and any Textual adds later too (its "Screenshot" wrote an SVG into the host's ~/Downloads)."""
NOT_HERE = "Not on a screen served by the room: it would run on the host's machine."


class ServedApp(CroupierApp):
    """The TUI as the room serves it to a plain-ssh player: it runs on the host's machine, so nothing in it
    touches the host's disk or starts a process there (screenshots, file deliveries, opening links in a
    browser, suspending itself). The player's own ``croupier join`` and ``croupier play`` keep them. The room keeps
    the player's notes on others for him (hosting.player_notes)."""

    room_notes = True

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        own = {command.title for command in CroupierApp.get_system_commands(self, screen)} - {
            command.title for command in App.get_system_commands(self, screen)}
        for command in super().get_system_commands(screen):
            if command.title in own or command.title in HOST_SAFE_SYSTEM_COMMANDS:
                yield command

    def _refuse(self) -> None:
        self.notify(NOT_HERE, severity="warning", timeout=4)

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        self._refuse()

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        self._refuse()
        return None

    def save_screenshot(self, filename: str | None = None, path: str | None = None,
                        time_format: str | None = None) -> str:
        raise PermissionError(NOT_HERE)

    def deliver_text(self, *arguments: Any, **options: Any) -> str | None:
        self._refuse()
        return None

    def deliver_binary(self, *arguments: Any, **options: Any) -> str | None:
        self._refuse()
        return None

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        self._refuse()  # the host's browser, not the player's

    def action_suspend_process(self) -> None:
        self._refuse()  # a stopped TUI on the host that its player can never resume


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="croupier-served-tui")
    parser.add_argument("--socket", required=True)
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--token", help="give it as --token=VALUE (a token may start with '-')")
    given.add_argument("--token-fd", type=int, help="a ready screen: read the token line from this socket")
    parser.add_argument("--log")
    parser.add_argument("--parent", type=int, help="the pid that started us: we end when it does")
    return parser


async def token_from(fd: int) -> str:
    """Wait for the room's ``{"token": …}`` line on socket ``fd`` (a ready screen's player has arrived).

    Raises :class:`ConnectionLost` when the room closes the socket first (it is shutting down).
    """
    reader, writer = await asyncio.open_connection(sock=socket.socket(fileno=fd))
    try:
        line = await reader.readline()
    finally:
        writer.close()
    try:
        token = json.loads(line)["token"] if line else None
    except (ValueError, KeyError, TypeError):
        token = None
    if not isinstance(token, str):
        raise ConnectionLost("the room closed before a player arrived")
    return token


def main(argv: list[str] | None = None) -> int:
    # The player's terminal hanging up ends the screen, even when this process inherited SIGHUP ignored (a host
    # started under nohup, its fork server): ignored, the screen ran on, orphaned, spinning on a dead terminal.
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    arguments = build_parser().parse_args(argv)
    if arguments.parent is not None:  # the room (or its fork server) killed: no screen left spinning
        die_with_parent(arguments.parent)

    async def connect() -> StreamConnection:
        token = arguments.token if arguments.token is not None else await token_from(arguments.token_fd)
        return await StreamConnection.open_unix(arguments.socket, token)

    # the token is good for one connection: when the local link drops, the session is over (ssh again)
    app = ServedApp(connect, log_path=Path(arguments.log) if arguments.log else None, reconnect=False)
    try:
        app.run()
    except Exception:  # never a traceback on the player's screen
        logging.getLogger("croupier.tui").exception("the served TUI stopped")
        print("croupier: the table screen stopped unexpectedly; the host's log has the details.", file=sys.stderr)
        return 1
    if app.farewell():  # your result at each table, and the night, on the player's terminal (tui.results)
        print(app.farewell(), flush=True)
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
