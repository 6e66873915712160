"""A ``croupier join`` player the host kicks or bans (found trying the room as a new host): before, the app
reconnected within a second — a kick undone, the host's reason never shown — and after a ban it knocked every
8 s for ever, showing ssh's "Permission denied … your keys come from ~/.ssh" instead of the room's words (and
each knock was a security warning in host.log). Now the session ends with the host's words, which
``croupier join`` prints when it exits, and a refused login is said in the room's words, once."""

from __future__ import annotations

import inspect
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncssh
import pytest

from hosting.admin_requests import parse_request
from hosting.commands.join import JoinRefused, open_connection, reconnector
from hosting.server import RunningRoom
from tests.tui.plain_ssh import start_plain_ssh_room
from tests.tui.roombots import table
from tui.app import CroupierApp
from tui.connection import SshConnection
from tui.widgets.lobby import Lobby

Connector = Callable[[], Awaitable[SshConnection]]


async def pinned_connector(running: RunningRoom, tmp_path: Path, key: asyncssh.SSHKey) -> tuple[Connector, list[int]]:
    """``croupier join bob@…``'s own connector, the room's host key pinned as the player's first visit does;
    and the count of its calls (each one a login)."""
    known_hosts = tmp_path / "known_hosts"
    options = {"client_keys": [key], "agent_path": None, "config": []}
    first = await open_connection("bob", "127.0.0.1", running.port, known_hosts, lambda question: True, **options)
    await first.close()
    connect = reconnector("bob", "127.0.0.1", running.port, known_hosts, **options)
    calls = [0]

    async def counted() -> SshConnection:
        calls[0] += 1
        return await connect()

    return counted, calls


def host_does(running: RunningRoom, action: str, **fields: str) -> None:
    running.room.console.perform("host", parse_request({"action": action, **fields}), time.time())


async def run_until_exit(app: CroupierApp, action: Callable[[], object]) -> None:
    """Run ``app`` until the room has its session (the lobby's first answer), do ``action`` (awaited if it is a
    coroutine), then until the app exits (a minute at most)."""
    async with app.run_test(size=(100, 30)) as pilot:
        await app.connected.wait()
        lobby = app.query_one(Lobby)
        for _ in range(600):  # the lobby's first answer: the session is in the room
            if lobby.balance:
                break
            await pilot.pause(0.05)
        done = action()
        if inspect.isawaitable(done):
            await done
        for _ in range(1200):  # up to a minute on a loaded machine; ends as soon as the app does
            if app.return_code is not None:
                break
            await pilot.pause(0.05)


@pytest.mark.parametrize(("action", "words"), [
    ("kick", "the host removed you from the room: go home"),
    ("ban", "the host banned you from this room: go home")])
async def test_a_kicked_or_banned_join_player_is_told_why_and_does_not_reconnect(
        tmp_path: Path, action: str, words: str) -> None:
    running = await start_plain_ssh_room(tmp_path / "data", [table("t1")])
    try:
        connect, calls = await pinned_connector(running, tmp_path, asyncssh.generate_private_key("ssh-ed25519"))
        app = CroupierApp(connect)
        await run_until_exit(app, lambda: host_does(running, action, player="bob", reason="go home"))
        assert app.return_code is not None, "the app stayed open (it reconnected)"
        assert app.room_closed == words
        assert calls[0] == 1, f"{calls[0]} logins: the app came back after the {action}"
    finally:
        await running.close()


async def test_a_banned_join_player_reads_the_rooms_words_once(tmp_path: Path) -> None:
    running = await start_plain_ssh_room(tmp_path / "data", [table("t1")])
    try:
        key = asyncssh.generate_private_key("ssh-ed25519")
        connect, calls = await pinned_connector(running, tmp_path, key)
        host_does(running, "ban", player="bob", reason="collusion")
        refusal = "the room refused the login as 'bob': the host banned this name from the room"
        with pytest.raises(JoinRefused) as refused:  # croupier join's first connection: not "your keys…"
            await open_connection("bob", "127.0.0.1", running.port, tmp_path / "known_hosts", lambda question: True,
                                  client_keys=[key], agent_path=None, config=[])
        assert str(refused.value) == refusal
        app = CroupierApp(connect)  # banned while away: the app's next connection is refused
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(1200):
                if app.return_code is not None:
                    break
                await pilot.pause(0.05)
        assert app.return_code == 1
        assert app.room_closed == refusal
        assert calls[0] == 1, f"{calls[0]} logins: the app kept knocking on a ban"
    finally:
        await running.close()
