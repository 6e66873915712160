"""A real OpenSSH client reaches the room's ``croupier`` subsystem with a freshly generated key (issue 6)."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from hosting.server import RunningRoom

pytestmark = pytest.mark.skipif(
    shutil.which("ssh") is None or shutil.which("ssh-keygen") is None,
    reason="OpenSSH client not installed (apt-get install openssh-client)",
)


async def _run(*command: str, stdin: bytes = b"") -> tuple[int, bytes, bytes]:
    process = await asyncio.create_subprocess_exec(
        *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(stdin), 30)
    assert process.returncode is not None
    return process.returncode, out, err


def _ssh(room: RunningRoom, tmp_path: Path, name: str, key: Path) -> list[str]:
    return [
        "ssh", "-F", "/dev/null", "-p", str(room.port), "-i", str(key), "-o", "IdentitiesOnly=yes",
        "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", f"UserKnownHostsFile={tmp_path / 'known'}",
        "-o", "IdentityAgent=none", "-o", "ConnectTimeout=10", "-s", f"{name}@127.0.0.1", "croupier",
    ]


async def test_openssh_client_gets_hello_and_a_lobby(room: RunningRoom, tmp_path: Path) -> None:
    key = tmp_path / "id_ed25519"
    status, _, err = await _run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key))
    assert status == 0, err
    request = b'{"v":1,"type":"lobby"}\n'
    status, out, err = await _run(*_ssh(room, tmp_path, "olga", key), stdin=request)
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0]["type"] == "hello", (out, err)
    assert (lines[0]["name"], lines[0]["registered"], lines[0]["protocol"]) == ("olga", True, 1)
    assert lines[1]["type"] == "lobby" and len(lines[1]["tables"]) == 6
    known = (tmp_path / "known").read_text()
    assert room.host_key.export_public_key().decode().split()[1] in known  # the host key OpenSSH pinned

    other = tmp_path / "other"
    await _run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(other))
    status, out, err = await _run(*_ssh(room, tmp_path, "olga", other))
    assert status == 255 and out == b"" and b"registered to another key" in err
