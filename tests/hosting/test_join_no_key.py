"""``croupier join`` for a player with no SSH key at all: say how to make one, not just "permission denied"."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import asyncssh
import pytest

from hosting.commands.join import LOCKED_KEY, NO_KEY, JoinError, missing_key_hint, open_connection
from hosting.server import RunningRoom

MESSAGE = ("croupier join: no SSH key found in ~/.ssh or the SSH agent: create one with `ssh-keygen -t ed25519` "
           "(press Enter at its questions), then join again")


async def test_a_new_user_without_any_key_is_told_to_run_ssh_keygen(room: RunningRoom, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    environment = {key: value for key, value in os.environ.items() if key != "SSH_AUTH_SOCK"} | {"HOME": str(home)}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "hosting.cli", "join", f"eve@127.0.0.1:{room.port}", env=environment,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(b"y\n"), 60)  # "y": trust the room's host key
    assert process.returncode == 1
    assert err.decode() == MESSAGE + "\n"
    assert room.fingerprint in out.decode()  # he was asked about the host key first, as on any first visit
    assert (home / ".ssh" / "known_hosts").exists()


async def test_the_check_in_process_and_a_player_with_a_key_keeps_the_old_message(room: RunningRoom,
                                                                                  tmp_path: Path) -> None:
    known_hosts = tmp_path / ".ssh" / "known_hosts"
    with pytest.raises(JoinError) as refused:
        await open_connection("eve", "127.0.0.1", room.port, known_hosts, lambda text: True,
                              client_keys=None, agent_path=None, config=[])
    assert str(refused.value) == NO_KEY
    # a refusal with a key in hand is something else (a name registered to another key): the old words stay
    await (await open_connection("ana", "127.0.0.1", room.port, known_hosts, lambda text: True,
                                 client_keys=[asyncssh.generate_private_key("ssh-ed25519")], agent_path=None,
                                 config=[])).close()
    with pytest.raises(JoinError, match=r"^the room refused the login as 'ana': "):
        await open_connection("ana", "127.0.0.1", room.port, known_hosts, lambda text: True,
                              client_keys=[asyncssh.generate_private_key("ssh-ed25519")], agent_path=None,
                              config=[])


async def test_missing_key_hint_looks_at_files_agent_and_config(tmp_path: Path) -> None:
    assert await missing_key_hint(tmp_path, {"agent_path": None}) == NO_KEY
    assert await missing_key_hint(tmp_path, {"agent_path": str(tmp_path / "no-agent.sock")}) == NO_KEY
    assert await missing_key_hint(tmp_path, {"client_keys": None}) == NO_KEY
    locked = asyncssh.generate_private_key("ssh-ed25519").export_private_key("pkcs8-pem", passphrase="secret")
    (tmp_path / "id_ed25519").write_bytes(locked)
    assert await missing_key_hint(tmp_path, {"agent_path": None}) == LOCKED_KEY  # asyncssh skips it without an agent
    (tmp_path / "id_rsa").write_bytes(asyncssh.generate_private_key("ssh-ed25519").export_private_key())
    assert await missing_key_hint(tmp_path, {"agent_path": None}) is None  # a usable key: something else is wrong
    for name in ("id_ed25519", "id_rsa"):
        (tmp_path / name).unlink()
    (tmp_path / "config").write_text("Host poker\n    IdentityFile ~/keys/poker\n")
    assert await missing_key_hint(tmp_path, {"agent_path": None}) is None
    assert LOCKED_KEY == ("your SSH key in ~/.ssh has a passphrase and no SSH agent holds it: add it with `ssh-add` "
                          '(start an agent first if needed: eval "$(ssh-agent)"), then join again')
