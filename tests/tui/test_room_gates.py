"""Pilot tests against a real in-process room with a password and invite codes (hosting.config.AccessConfig):
the app asks for what ``hello.needs`` lists, sends ``auth``, says a refusal in words and asks again, then
shows the lobby; after a reconnect it passes the gates by itself."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest
from textual.widgets import DataTable, Input, Label

from hosting import datadir
from hosting.config import AccessConfig, RoomConfig
from hosting.identity import AccountStore, Gatekeeper
from hosting.room import Room
from hosting.table_runner import TableRunner
from tests.tui.helpers import notifications, wait_until
from tests.tui.roombots import FAST, table
from tui.app import CroupierApp
from tui.connection import LocalConnection
from tui.screens import AuthScreen


@pytest.fixture
async def locked_room(tmp_path: Path) -> AsyncIterator[Room]:
    data_dir = tmp_path / "locked"
    datadir.prepare(data_dir)
    access = AccessConfig(password="swordfish", invite_codes=frozenset({"FRIDAY-7"}), connections_per_minute=1000)
    gatekeeper = Gatekeeper(access, AccountStore(data_dir / "accounts.json"))
    room = Room(RoomConfig(name="Locked", tables=(table("t1"),), access=access), datadir.room_id(data_dir),
                gatekeeper, driver_factory=lambda room, state: TableRunner(room, state, FAST))
    room.start()
    yield room
    await room.stop()


def app_for(room: Room, name: str) -> CroupierApp:
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode().strip()

    async def connect() -> LocalConnection:
        return await LocalConnection.attach(room, name, key)

    app = CroupierApp(connect)
    app.strict = True  # type: ignore[attr-defined]
    return app


async def type_into(pilot: object, field: Input, text: str) -> None:
    field.focus()
    field.value = ""
    await pilot.press(*text)  # type: ignore[attr-defined]


async def test_a_new_name_types_password_and_invite_is_refused_in_words_then_enters(locked_room: Room) -> None:
    app = app_for(locked_room, "ana")
    async with app.run_test(size=(100, 30)) as pilot:
        await app.connected.wait()
        await wait_until(pilot, lambda: bool(app.screen.query("#auth-invite")), what="the password screen")
        screen = app.screen
        assert screen.needs == ["password", "invite"]
        text = " ".join(str(label.render()) for label in screen.query(Label))
        assert "Locked asks for the room password and an invite code" in text
        assert app.query_one("#tables").has_class("-hidden") and app.sent == []  # nothing before the gates
        # a wrong password: the room's refusal in words, and the screen again
        await type_into(pilot, screen.query_one("#auth-password", Input), "trout")
        await type_into(pilot, screen.query_one("#auth-invite", Input), "FRIDAY-7")
        await pilot.press("enter")
        await wait_until(pilot, lambda: any(item["type"] == "auth" for item in app.sent), what="auth sent")
        assert app.sent[-1] == {"type": "auth", "password": "trout", "invite": "FRIDAY-7"}
        await wait_until(pilot, lambda: app.screen is not screen and bool(app.screen.query("#auth-invite")),
                         what="the screen asked again")
        again = app.screen
        assert str(again.query_one("#auth-error", Label).render()) == "The room says: wrong room password"
        assert not locked_room.gatekeeper.accounts.is_registered("ana")  # not registered before every gate passes
        # an empty field is refused on the screen, nothing sent
        sent_before = len(app.sent)
        await type_into(pilot, again.query_one("#auth-password", Input), "swordfish")
        again.query_one("#auth-invite", Input).value = ""
        await pilot.click("#ok")
        assert "type an invite code" in str(again.query_one("#auth-error", Label).render())
        assert len(app.sent) == sent_before
        await type_into(pilot, again.query_one("#auth-invite", Input), "FRIDAY-7")
        await pilot.press("enter")
        lobby = app.query_one("#table-list", DataTable)
        await wait_until(pilot, lambda: lobby.row_count == 1, what="the lobby after the gates")
        assert not isinstance(app.screen, AuthScreen) and app.needs == []
        assert [item["type"] for item in app.sent[sent_before:]] == ["auth", "lobby"]
        assert locked_room.sessions["ana"].authenticated
        assert locked_room.gatekeeper.accounts.is_registered("ana")
        assert not any("auth_required" in line for line in notifications(app))
        assert app.internal_errors == []
        # a reconnect asks the password again (the room's hello): the app sends what worked, no screen
        session = locked_room.sessions["ana"]
        session.transport.close("network down")
        locked_room.disconnect(session)
        await wait_until(pilot, lambda: locked_room.sessions.get("ana") not in (None, session)
                         and locked_room.sessions["ana"].authenticated, what="reconnected and past the gates")
        assert not isinstance(app.screen, AuthScreen)
        assert app.sent[-2:] == [{"type": "auth", "password": "swordfish"}, {"type": "lobby", "follow": True}]


async def test_escape_leaves_a_way_back_to_the_password_screen(locked_room: Room) -> None:
    app = app_for(locked_room, "bruno")
    async with app.run_test(size=(80, 24)) as pilot:
        await app.connected.wait()
        await wait_until(pilot, lambda: isinstance(app.screen, AuthScreen), what="the password screen")
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, AuthScreen), what="the screen closed")
        assert 'press Ctrl+P then "Enter the room"' in app._notice
        commands = [command.title for command in app.get_system_commands(app.screen)]
        assert "Enter the room" in commands
        app.ask_for_gates()
        await wait_until(pilot, lambda: bool(app.screen.query("#auth-invite")), what="the screen again")
        await type_into(pilot, app.screen.query_one("#auth-password", Input), "swordfish")
        await type_into(pilot, app.screen.query_one("#auth-invite", Input), "FRIDAY-7")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.query_one("#table-list", DataTable).row_count == 1, what="the lobby")
        assert app._notice == ""
        assert "Enter the room" not in [command.title for command in app.get_system_commands(app.screen)]


async def test_croupier_join_over_ssh_enters_a_locked_room(tmp_path: Path) -> None:
    from hosting.commands.join import open_connection
    from hosting.server import start_room

    access = AccessConfig(password="swordfish", invite_codes=frozenset({"FRIDAY-7"}), connections_per_minute=1000)
    config = RoomConfig(name="Locked", tables=(table("t1"),), access=access)
    running = await start_room(config, tmp_path / "data", host="127.0.0.1", port=0, deal=False)
    key = asyncssh.generate_private_key("ssh-ed25519")

    async def connect() -> object:
        return await open_connection("bruno", "127.0.0.1", running.port, tmp_path / "known_hosts", lambda text: True,
                                     client_keys=[key], agent_path=None, config=[])

    app = CroupierApp(connect)  # type: ignore[arg-type]
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_until(pilot, lambda: bool(app.screen.query("#auth-invite")), what="the password screen")
            await type_into(pilot, app.screen.query_one("#auth-password", Input), "swordfish")
            await type_into(pilot, app.screen.query_one("#auth-invite", Input), "NOT-A-CODE")
            await pilot.press("enter")
            await wait_until(pilot, lambda: "a new name needs a valid invite code" in str(
                app.screen.query_one("#auth-error", Label).render()) if app.screen.query("#auth-error") else False,
                what="the refusal over ssh")
            await type_into(pilot, app.screen.query_one("#auth-invite", Input), "FRIDAY-7")
            await pilot.press("enter")
            await wait_until(pilot, lambda: len(app.lobby_rows) == 1, what="the lobby over ssh")
            assert running.room.sessions["bruno"].authenticated and app.internal_errors == []
    finally:
        await running.close()
