"""Issue 27 item 9: a password manager (or a paste, or fast typing) sends the password, a Tab, the invite code
and Enter in one burst. The Tab must move to the invite field before the next keys land, over plain ssh (the
served TUI on a pty) and ``croupier join`` (the app over the SSH subsystem): before, everything after the
password went into the password box and the room said "wrong room password"."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncssh
import pytest
from textual._xterm_parser import XTermParser
from textual.widgets import Input

from hosting.config import AccessConfig, RoomConfig
from hosting.server import start_room
from tests.tui.helpers import wait_until
from tests.tui.plain_ssh import plain_ssh_player, start_plain_ssh_room
from tests.tui.roombots import table
from tests.waiting import QUIET
from tui.app import CroupierApp
from tui.screens import AuthScreen

GATES = AccessConfig(password="swordfish", invite_codes=frozenset({"FRIDAY-7"}), connections_per_minute=1000,
                     pending_logins_per_address=1000)
BURST = b"swordfish\tFRIDAY-7\r"
"""What a password manager types: the password, Tab, the invite code, Enter — arriving as one read."""


async def test_a_burst_over_plain_ssh_fills_both_fields_and_enters(tmp_path: Path) -> None:
    running = await start_plain_ssh_room(tmp_path / "data", [table("t1")], access=GATES)
    try:
        async with plain_ssh_player(running, "ana") as ana:
            await ana.read_until(b"Invite code")
            ana.process.stdin.write(BURST)  # one write: the child's terminal reads it as one chunk
            await ana.read_until(b"Table t1")  # the lobby: every gate passed
            session = running.room.sessions["ana"]
            assert session.authenticated
            assert running.room.gatekeeper.accounts.is_registered("ana")
            assert b"wrong room password" not in ana.seen
            ana.process.close()
    finally:
        await running.close()


PASTE = b"\x1b[200~swordfish\tFRIDAY-7\x1b[201~"
"""Both pasted at once (bracketed, as a terminal sends a paste): each goes to its own field."""


@pytest.mark.parametrize("chunks", [[BURST], [b"swordfish\rFRIDAY-7\r"], [PASTE, b"\r"]],
                         ids=["tab", "enter", "paste"])
async def test_a_burst_in_croupier_join_fills_both_fields_and_enters(tmp_path: Path, chunks: list[bytes]) -> None:
    """Tab or Enter between the two in one burst, or one paste of both then Enter."""
    from hosting.commands.join import open_connection

    config = RoomConfig(name="Locked", tables=(table("t1"),), access=GATES)
    running = await start_room(config, tmp_path / "data", host="127.0.0.1", port=0, deal=False)
    key = asyncssh.generate_private_key("ssh-ed25519")

    async def connect() -> object:
        return await open_connection("bruno", "127.0.0.1", running.port, tmp_path / "known_hosts", lambda text: True,
                                     client_keys=[key], agent_path=None, config=[])

    app = CroupierApp(connect)  # type: ignore[arg-type]
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, AuthScreen)
                             and bool(app.screen.query("#auth-invite")), what="the password screen")
            await pilot.pause()
            screen = app.screen
            for chunk in chunks:
                # the terminal driver's way: one read parsed into events, all posted before any is handled
                for event in XTermParser().feed(chunk.decode()):
                    app.post_message(event)
                if chunk == PASTE:
                    await wait_until(pilot, lambda: screen.query_one("#auth-invite", Input).value == "FRIDAY-7",
                                     what="the paste in both fields")
                    assert screen.query_one("#auth-password", Input).value == "swordfish"
                    assert app.focused is screen.query_one("#auth-invite", Input)
            await wait_until(pilot, lambda: len(app.lobby_rows) == 1, what="the lobby after the burst",
                             timeout=QUIET)
            assert running.room.sessions["bruno"].authenticated
            assert [item for item in app.sent if item["type"] == "auth"] == \
                [{"type": "auth", "password": "swordfish", "invite": "FRIDAY-7"}]
            assert app.internal_errors == []
    finally:
        await running.close()
        await asyncio.sleep(0)
