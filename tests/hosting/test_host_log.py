"""host.log tells the host what happened (issue 14 item 22: it stayed 0 bytes through logins, hands and
disconnects): joins, leaves, seats, kicks and errors at info; and a plain ``ssh`` without a key is told how to
make one by the room's SSH auth banner (it got only "Permission denied (publickey)")."""

from __future__ import annotations

import asyncio
import logging
import shutil
import signal
from pathlib import Path
from typing import Any, ClassVar

import asyncssh
import pytest

from hosting.client import RequestRefused, RoomClient
from hosting.server import LOGIN_BANNER, RunningRoom
from tests.room_process import start_room_process
from tests.waiting import until

ROOM = """
[room]
name = "log room"

[[tables]]
id = "duel"
name = "Duel 1/2"
game = "texas_holdem"
structure = "no_limit"
stakes = [1, 2]
seats = 2
buy_in = [40, 200]
"""


async def test_host_log_has_joins_seats_leaves_and_kicks(tmp_path: Path) -> None:
    data, config = tmp_path / "data", tmp_path / "room.toml"
    config.write_text(ROOM, encoding="utf-8")
    host = start_room_process(data, tmp_path / "host.out", "--config", str(config), "--log-level", "info")
    port = host.port
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        ana = await RoomClient.connect("127.0.0.1", port, "ana", client_keys=[key], timeout=30)
        await ana.request("sit", table="duel", buy_in=150)
        await ana.request("leave", table="duel")
        again = await RoomClient.connect("127.0.0.1", port, "ana", client_keys=[key], timeout=30)  # kicks the first
        await again.close()
        await ana.close()
        log = data / "host.log"
        await until(lambda: "left: ana" in log.read_text(encoding="utf-8"), "'left: ana' in host.log")
    finally:
        host.stop(signal.SIGTERM)
    lines = [line.split(" ", 2)[2] for line in log.read_text(encoding="utf-8").splitlines()]  # after the time
    fingerprint = key.get_fingerprint()
    assert f"INFO croupier.room: joined: name 'ana' key {fingerprint} from 127.0.0.1 (a new name, its key " \
           "registered)" in lines
    assert "INFO croupier.room: seated: ana at duel, seat 1, 150 chips" in lines
    assert "INFO croupier.room: seat freed: ana at duel, seat 1 (left), 150 chips back" in lines
    assert f"INFO croupier.room: joined: name 'ana' key {fingerprint} from 127.0.0.1" in lines
    assert any("kicked the previous session of name 'ana'" in line for line in lines), lines
    assert "INFO croupier.room: left: ana from 127.0.0.1 (connection closed)" in lines


async def test_an_error_in_the_room_is_logged_with_its_traceback_and_the_player_gets_a_line(
        room: RunningRoom, connect: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    client: RoomClient = await connect(room, "ana")

    def broken(*arguments: object) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(room.room, "_lobby", broken)
    with caplog.at_level(logging.INFO, logger="croupier.room"), pytest.raises(RequestRefused) as refused:
        await client.request("lobby")
    assert refused.value.reply["code"] == "internal_error"
    assert "Traceback" not in refused.value.reply["message"] and "KeyError" not in refused.value.reply["message"]
    (record,) = [record for record in caplog.records if record.getMessage() == "error handling lobby from ana"]
    assert record.exc_info is not None and record.exc_info[0] is KeyError
    assert (await client.request("ping", id=7))["type"] == "pong"  # the connection and the room go on


class BannerReader(asyncssh.SSHClient):
    banners: ClassVar[list[str]] = []

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banners.append(msg)


async def test_a_login_without_a_key_reads_how_to_make_one(room: RunningRoom) -> None:
    BannerReader.banners = []
    with pytest.raises(asyncssh.PermissionDenied):
        await asyncssh.connect("127.0.0.1", room.port, username="eve", client_keys=None, known_hosts=None,
                               agent_path=None, config=[], password=None, kbdint_auth=False, gss_auth=False,
                               client_factory=BannerReader)
    assert BannerReader.banners == [LOGIN_BANNER]
    assert "ssh-keygen -t ed25519" in LOGIN_BANNER and not LOGIN_BANNER.startswith("croupier:")


@pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client")
async def test_plain_openssh_without_a_key_shows_the_banner_then_permission_denied(room: RunningRoom,
                                                                                    tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        "ssh", "-F", "/dev/null", "-p", str(room.port), "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
        "-o", f"IdentityFile={tmp_path / 'none'}", "-o", "IdentityAgent=none", "-o", "StrictHostKeyChecking=no",
        "-o", f"UserKnownHostsFile={tmp_path / 'known'}", "eve@127.0.0.1",
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(process.communicate(), 60)
    text = err.decode()
    assert process.returncode == 255
    assert "ssh-keygen -t ed25519" in text and "Permission denied (publickey)" in text, text
    assert text.index("ssh-keygen") < text.index("eve@127.0.0.1: Permission denied (publickey)")
