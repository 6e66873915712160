"""``croupier host``: the line to share, the host key fingerprint, and the key kept across runs."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import asyncssh
import pytest

from hosting.cli import build_parser, main
from hosting.commands.host import banner
from hosting.server import RunningRoom


def test_banner_has_the_ssh_line_and_the_fingerprint(room: RunningRoom) -> None:
    text = banner(room, "192.168.1.20")
    assert f"    ssh -p {room.port} 192.168.1.20\n" in text
    key = asyncssh.read_private_key(str(room.data_dir / "ssh_host_ed25519_key"))
    assert f"fingerprint (friends should see the same when they first connect): {key.get_fingerprint()}" in text
    assert key.get_fingerprint().startswith("SHA256:")
    assert "holdem-1-2" in text and "buy-in 80-200" in text


def _first_lines(data_dir: Path) -> str:
    process = subprocess.Popen(
        [sys.executable, "-m", "hosting.cli", "host", "--port", "0", "--data", str(data_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        lines = []
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            if line.startswith("Host key fingerprint"):
                return "".join(lines)
        raise AssertionError("croupier host ended early: " + (process.stderr.read() if process.stderr else ""))
    finally:
        process.terminate()
        # communicate drains both pipes (a full stderr pipe would hold the closing room); the room closes as on
        # Ctrl+C, which a loaded machine may take a while to do
        process.communicate(timeout=120)


def test_croupier_host_prints_the_line_and_keeps_its_key(tmp_path: Path) -> None:
    first = _first_lines(tmp_path / "data")
    assert re.search(r"^    ssh -p \d+ \S+$", first, re.MULTILINE), first
    fingerprint = re.search(r"SHA256:\S+", first)
    assert fingerprint is not None
    assert (tmp_path / "data" / "ssh_host_ed25519_key").stat().st_mode & 0o077 == 0
    second = _first_lines(tmp_path / "data")
    assert fingerprint.group(0) in second


@pytest.mark.parametrize(("option", "message"), [
    (["--port", "99999"], "the port must be from 1 to 65535 (or 0 for any free port), got 99999"),
    (["--port=-5"], "the port must be from 1 to 65535 (or 0 for any free port), got -5"),
    (["--port", "65536"], "the port must be from 1 to 65535 (or 0 for any free port), got 65536"),
    (["--port", "abc"], "expected a port number from 1 to 65535, got 'abc'"),
])
def test_a_port_out_of_range_is_refused_before_anything_opens(option: list[str], message: str, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    # 99999 used to open port 34463 (99999 mod 65536) and tell friends that port
    with pytest.raises(SystemExit) as exit_info:
        main(["host", *option, "--data", str(tmp_path / "room")])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err == f"croupier host: argument --port: {message} (see `croupier host --help`)\n"
    assert not (tmp_path / "room").exists()


@pytest.mark.parametrize(("text", "port"), [("1", 1), ("2222", 2222), ("65535", 65535), ("0", 0)])
def test_ports_in_range_are_kept(text: str, port: int) -> None:
    assert build_parser().parse_args(["host", "--port", text]).port == port
    assert build_parser().parse_args(["host"]).port == 2222


def _has_ipv6() -> bool:
    import socket

    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _has_ipv6(), reason="this machine has no IPv6: one address family, one port")
async def test_port_0_on_every_interface_listens_on_one_port_for_ipv4_and_ipv6(tmp_path: Path) -> None:
    """``croupier host --port 0`` bound IPv4 and IPv6 on a free port each and printed one of them: a friend's
    ``ssh -p`` on the other family reached nothing (or another program)."""
    import asyncio

    from hosting.config import default_room
    from hosting.server import start_room

    running = await start_room(default_room(), tmp_path / "data", host="", port=0, deal=False)
    try:
        addresses = running.acceptor.get_addresses()
        assert {address[0] for address in addresses} == {"0.0.0.0", "::"}
        assert {address[1] for address in addresses} == {running.port}, addresses
        for loopback in ("127.0.0.1", "::1"):  # the printed port answers as an SSH server on both
            reader, writer = await asyncio.open_connection(loopback, running.port)
            assert (await reader.readline()).startswith(b"SSH-2.0-")
            writer.close()
    finally:
        await running.close()
