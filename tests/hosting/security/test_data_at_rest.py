"""Issue 13 item 15: data at rest. The database (+ WAL/SHM), logs and ``room.json`` are 0600 whatever the
umask; a ``--data`` directory other users can reach is refused with one line and left as it was (it used to be
chmodded to 0700 behind its owner's back); ``croupier host --listen ADDRESS`` listens on that address only."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hosting import datadir
from hosting.cli import main
from hosting.config import default_room
from hosting.logging_setup import setup_logging
from hosting.server import start_room

PRIVATE = ("croupier.sqlite3", "croupier.sqlite3-wal", "croupier.sqlite3-shm", "room.json", "host.log")


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The common umask 022: files are 0644 unless croupier asks for better."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("open_umask")
async def test_a_new_rooms_files_are_private(tmp_path: Path) -> None:
    data_dir = tmp_path / "room"
    running = await start_room(default_room(), data_dir, host="127.0.0.1", port=0)
    try:
        setup_logging(data_dir, "host", "info")
        assert {name: _mode(data_dir / name) for name in PRIVATE} == dict.fromkeys(PRIVATE, 0o600)
        assert _mode(data_dir) == 0o700
    finally:
        await running.close()
        import logging
        for handler in list(logging.getLogger().handlers):
            logging.getLogger().removeHandler(handler)
            handler.close()


@pytest.mark.usefixtures("open_umask")
def test_files_an_older_croupier_left_open_are_made_private(tmp_path: Path) -> None:
    data_dir = tmp_path / "room"
    data_dir.mkdir(mode=0o700)
    for name in (*PRIVATE, "tui.log", "tui.log.1"):
        (data_dir / name).write_text("x")
        os.chmod(data_dir / name, 0o644)
    (data_dir / "ssh_host_ed25519_key.pub").write_text("public")
    datadir.prepare(data_dir)
    assert {path.name: _mode(path) for path in data_dir.iterdir()} == {
        **dict.fromkeys((*PRIVATE, "tui.log", "tui.log.1"), 0o600), "ssh_host_ed25519_key.pub": 0o644}


@pytest.fixture
def no_room(monkeypatch: pytest.MonkeyPatch) -> None:
    """``croupier host`` past its checks returns 0 at once instead of serving (a refusal test cannot hang)."""
    from hosting.commands import host

    monkeypatch.setattr(host, "_serve", lambda *arguments: 0)


@pytest.mark.usefixtures("no_room")
@pytest.mark.parametrize("mode", [0o777, 0o775, 0o755, 0o750], ids=lambda mode: f"{mode:04o}")
def test_a_data_directory_open_to_others_is_refused_and_left_as_it_was(
        mode: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, mode)
    assert main(["host", "--port", "0", "--data", str(shared)]) == 2
    assert capsys.readouterr().err == (
        f"croupier host: {shared} is open to other users (mode {mode:04o}): use a private data directory "
        f"(--data DIR), or `chmod 700 {shared}` if it is yours alone\n")
    assert _mode(shared) == mode and list(shared.iterdir()) == []


@pytest.mark.usefixtures("no_room")
@pytest.mark.skipif(os.geteuid() != 0, reason="giving a directory to another user needs root")
def test_a_data_directory_of_another_user_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o700)
    os.chown(theirs, 65534, 65534)
    assert main(["host", "--port", "0", "--data", str(theirs)]) == 2
    assert capsys.readouterr().err == (f"croupier host: {theirs} belongs to another user: use a data directory "
                                       "of your own (--data DIR)\n")
    assert list(theirs.iterdir()) == [] and theirs.stat().st_uid == 65534


def _listening_addresses(port: int) -> set[str]:
    """Local addresses with a socket listening on ``port`` (Linux /proc/net/tcp{,6}, state 0A)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as rows:
            for row in list(rows)[1:]:
                local, state = row.split()[1], row.split()[3]
                address, hex_port = local.split(":")
                if state == "0A" and int(hex_port, 16) == port:
                    found.add(address)
    return found


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads Linux's socket table")
def test_host_listens_only_on_the_listen_address(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "hosting.cli", "host", "--port", "0", "--listen", "127.0.0.1", "--data",
         str(tmp_path / "room")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        shared = process.stdout.readline() + process.stdout.readline()
        opened = re.match(r"croupier room '.*' is open on 127\.0\.0\.1 port (\d+) only", first)
        assert opened, first + (process.stderr.read() if process.poll() is not None and process.stderr else "")
        port = int(opened.group(1))
        assert f"    ssh -p {port} 127.0.0.1\n" in shared
        assert _listening_addresses(port) == {"0100007F"}  # 127.0.0.1 alone: not 0.0.0.0, not ::
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_listen_defaults_to_every_interface() -> None:
    from hosting.cli import build_parser

    assert build_parser().parse_args(["host"]).listen == ""
    assert build_parser().parse_args(["host", "--listen", "192.168.1.20"]).listen == "192.168.1.20"
