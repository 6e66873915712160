"""One process per data directory: a second ``croupier host`` (or ``croupier play``) is refused in one line.

Two hosts on one directory used to corrupt each other's chips (the second one's restart recovery "returned"
chips the first still had at its tables); two practice rooms shared one accounts file.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hosting import datadir
from hosting.cli import build_parser, main
from hosting.commands import play

# a second process that claims a directory, says so, and holds it until its stdin closes
HOLDER = ("import sys; from pathlib import Path; from hosting import datadir; "
          "datadir.claim(Path(sys.argv[1])); print('held', flush=True); sys.stdin.read()")


@pytest.fixture
def holder() -> Iterator[object]:
    """``holder(directory)`` → a running process holding the claim on ``directory``; ended after the test."""
    processes: list[subprocess.Popen[str]] = []

    def start(directory: Path) -> subprocess.Popen[str]:
        process = subprocess.Popen([sys.executable, "-c", HOLDER, str(directory)], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True)
        processes.append(process)
        assert process.stdout is not None and process.stdout.readline() == "held\n"
        return process

    yield start
    for process in processes:
        process.kill()
        process.wait(timeout=10)


def _start_host(data_dir: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "hosting.cli", "host", "--port", "0", "--data", str(data_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith("Host key fingerprint"):
            return process
    process.wait(timeout=10)
    raise AssertionError("croupier host ended early: " + (process.stderr.read() if process.stderr else ""))


def test_a_second_host_on_the_same_directory_is_refused_until_the_first_dies(tmp_path: Path) -> None:
    data_dir = tmp_path / "room"
    first = _start_host(data_dir)
    try:
        second = subprocess.run(
            [sys.executable, "-m", "hosting.cli", "host", "--port", "0", "--data", str(data_dir)],
            capture_output=True, text=True, timeout=60,
        )
        assert second.returncode == 2
        assert second.stderr == (f"croupier host: another croupier (pid {first.pid}) is using {data_dir}; "
                                 "stop it or use --data DIR\n")
        assert second.stdout == ""
        assert (data_dir / "croupier.lock").read_text() == f"{first.pid}\n"
        # readers are not locked out: the audit reads the room while it runs
        audit = subprocess.run([sys.executable, "-m", "hosting.cli", "audit", "--data", str(data_dir)],
                               capture_output=True, text=True, timeout=60)
        assert audit.returncode == 0, audit.stderr
        assert "clean" in audit.stdout + audit.stderr
    finally:
        first.send_signal(signal.SIGKILL)  # a crash: no clean-up code runs
        first.wait(timeout=10)
    datadir.claim(data_dir)  # the kernel dropped the dead host's lock: the directory is free again
    try:
        assert (data_dir / "croupier.lock").read_text() == f"{os.getpid()}\n"
    finally:
        datadir.release(data_dir)


def test_host_is_refused_in_process_while_another_process_holds_the_directory(
        tmp_path: Path, holder: object, capsys: pytest.CaptureFixture[str]) -> None:
    data_dir = tmp_path / "room"
    data_dir.mkdir(mode=0o700)  # private, as croupier makes it (a directory open to others is refused first)
    other = holder(data_dir)  # type: ignore[operator]
    assert main(["host", "--port", "0", "--data", str(data_dir)]) == 2
    err = capsys.readouterr().err
    assert err == f"croupier host: another croupier (pid {other.pid}) is using {data_dir}; stop it or use --data DIR\n"
    assert not (data_dir / "croupier.sqlite3").exists() and not (data_dir / "ssh_host_ed25519_key").exists()


def test_a_second_practice_room_on_the_same_directory_is_refused(
        tmp_path: Path, holder: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir(mode=0o700)
    (data_dir / "practice").mkdir(mode=0o700)
    other = holder(data_dir / "practice")  # type: ignore[operator]
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    arguments = build_parser().parse_args(["play", "--data", str(data_dir)])
    assert play.run(arguments) == 2  # refused before the app opens
    assert capsys.readouterr().err == (f"croupier play: another croupier (pid {other.pid}) is using "
                                       f"{data_dir / 'practice'}; stop it or use --data DIR\n")


def test_a_practice_room_and_a_host_may_share_the_data_directory(tmp_path: Path, holder: object) -> None:
    data_dir = tmp_path / "data"
    (data_dir / "practice").mkdir(parents=True)
    holder(data_dir / "practice")  # type: ignore[operator]
    datadir.claim(data_dir)  # the host's claim is on the directory itself, the practice room's on its folder
    datadir.release(data_dir)


def test_claiming_twice_in_one_process_is_harmless_and_release_frees_it(tmp_path: Path, holder: object) -> None:
    datadir.claim(tmp_path)
    datadir.claim(tmp_path)
    datadir.release(tmp_path)
    other = holder(tmp_path)  # type: ignore[operator]
    with pytest.raises(datadir.DataDirInUse) as refused:
        datadir.claim(tmp_path)
    assert refused.value.pid == other.pid
    assert str(refused.value) == f"another croupier (pid {other.pid}) is using {tmp_path}; stop it or use --data DIR"
