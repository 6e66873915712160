"""``croupier join``: address parsing, host key pinning (trust on first use, refusal of a changed key), and the
app over the real ``croupier`` SSH subsystem of a loopback room (hosting.server.start_room)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import asyncssh
import pytest

from hosting.commands.join import JoinError, open_connection, parse_address
from hosting.config import default_room
from hosting.server import start_room
from tests.tui.helpers import wait_until
from tui.app import CroupierApp


@pytest.mark.parametrize(("address", "expected"), [
    ("ana@localhost:2300", ("ana", "localhost", 2300)),
    ("localhost", ("me", "localhost", 2222)),
    ("bea@[::1]:22", ("bea", "::1", 22)),
])
def test_addresses(address: str, expected: tuple[str, str, int]) -> None:
    assert parse_address(address, "me") == expected


@pytest.mark.parametrize(("address", "problem"), [("ana@:22", "no host"), ("host:port", "not a number"),
                                                  ("host:70000", "out of range")])
def test_bad_addresses_are_explained(address: str, problem: str) -> None:
    with pytest.raises(JoinError, match=problem):
        parse_address(address, "me")


async def test_host_key_is_pinned_on_first_use_and_a_changed_key_is_refused(tmp_path: Path) -> None:
    running = await start_room(default_room(), tmp_path / "data", host="127.0.0.1", port=0, deal=False)
    known_hosts = tmp_path / "known_hosts"
    key = asyncssh.generate_private_key("ssh-ed25519")
    questions: list[str] = []
    try:
        connection = await open_connection("ana", "127.0.0.1", running.port, known_hosts,
                                           lambda text: questions.append(text) or True, client_keys=[key],
                                           agent_path=None, config=[])
        assert running.fingerprint in questions[0]
        assert known_hosts.read_text().startswith(f"[127.0.0.1]:{running.port} ssh-ed25519 ")
        await connection.close()
        again = await open_connection("ana", "127.0.0.1", running.port, known_hosts, lambda text: False,
                                      client_keys=[key], agent_path=None, config=[])
        assert again.name == "ana" and len(questions) == 1
        await again.close()
        other = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode()
        known_hosts.write_text(f"[127.0.0.1]:{running.port} {other}")
        with pytest.raises(JoinError, match="does not match the one pinned"):
            await open_connection("ana", "127.0.0.1", running.port, known_hosts, lambda text: True,
                                  client_keys=[key], agent_path=None, config=[])
        with pytest.raises(JoinError, match="refused the login"):
            known_hosts.unlink()
            await open_connection("ana", "127.0.0.1", running.port, known_hosts, lambda text: True,
                                  client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                  agent_path=None, config=[])
    finally:
        await running.close()


async def test_the_app_over_the_ssh_subsystem_shows_the_lobby_and_watches(tmp_path: Path) -> None:
    running = await start_room(default_room(), tmp_path / "data", host="127.0.0.1", port=0, deal=False)
    key = asyncssh.generate_private_key("ssh-ed25519")
    known_hosts = tmp_path / "known_hosts"

    async def connect() -> Any:
        return await open_connection("ana", "127.0.0.1", running.port, known_hosts, lambda text: True,
                                     client_keys=[key], agent_path=None, config=[])

    app = CroupierApp(connect)
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await wait_until(pilot, lambda: len(app.lobby_rows) == len(default_room().tables), what="lobby over ssh")
            await pilot.press("w")
            await wait_until(pilot, lambda: bool(app.models), what="a watched table")
            table_id = next(iter(app.models))
            await wait_until(pilot, lambda: "ana" in running.room.tables[table_id].watchers, what="watcher")
            assert app.internal_errors == []
    finally:
        await running.close()
