"""Issue 13 item 16: ``croupier-XXXX`` socket folders left in the temporary directory by rooms that stopped
uncleanly are removed when a room starts — only this user's, only stale ones, never a running room's."""

from __future__ import annotations

import os
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hosting.pty_session import LocalGate
from hosting.socket_folders import STALE_AFTER_SECONDS, remove_stale_folders

OLD = time.time() - 10 * STALE_AFTER_SECONDS


def _dead_room(base: Path, name: str, age: float = OLD) -> Path:
    """A folder as a killed room leaves it: its socket file still there, nobody listening on it."""
    folder = base / name
    folder.mkdir(mode=0o700)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(folder / "room.sock"))
        server.listen()
    (folder / "zygote.sock").write_bytes(b"")
    os.utime(folder, (age, age))
    return folder


@pytest.fixture
def live_room(tmp_path: Path) -> Iterator[Path]:
    """A running room's folder (an old one: the room has been up for a while)."""
    folder = tmp_path / "croupier-live1234"
    folder.mkdir(mode=0o700)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(folder / "room.sock"))
        server.listen()
        os.utime(folder, (OLD, OLD))
        yield folder


def test_only_our_stale_folders_are_removed(tmp_path: Path, live_room: Path) -> None:
    dead = [_dead_room(tmp_path, "croupier-dead0001"), _dead_room(tmp_path, "croupier-dead0002")]
    empty = tmp_path / "croupier-empty001"  # a room killed before it listened
    empty.mkdir(mode=0o700)
    os.utime(empty, (OLD, OLD))
    starting = _dead_room(tmp_path, "croupier-young001", age=time.time())  # a room still starting
    other_name = _dead_room(tmp_path, "someone-else0001")
    a_file = tmp_path / "croupier-file0001"
    a_file.write_text("not a folder")
    a_link = tmp_path / "croupier-link0001"
    a_link.symlink_to(_dead_room(tmp_path, "target"))
    kept = [live_room, starting, other_name, a_file, a_link]
    if os.geteuid() == 0:  # another user's folder (needs root to make one)
        theirs = _dead_room(tmp_path, "croupier-theirs01")
        os.chown(theirs, 65534, 65534)
        kept.append(theirs)
    assert sorted(remove_stale_folders(tmp_path)) == sorted([*dead, empty])
    assert all(not folder.exists() for folder in [*dead, empty])
    assert all(path.exists() or path.is_symlink() for path in kept)
    assert (live_room / "room.sock").exists() and (tmp_path / "target" / "room.sock").exists()


async def test_a_starting_room_clears_the_leftovers_of_killed_rooms(tmp_path: Path, live_room: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the system's temporary directory, for this test
    dead = _dead_room(tmp_path, "croupier-killed01")
    gate = await LocalGate.start(room=None)
    try:
        assert not dead.exists() and live_room.exists()
        assert gate.path.parent.parent == tmp_path and gate.path.parent.name.startswith("croupier-")
    finally:
        await gate.close()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["croupier-live1234"]


def test_folders_a_room_did_not_make_are_never_removed(tmp_path: Path) -> None:
    """Only a room's own folders go: ``croupier-`` followed by mkdtemp's 8 characters, holding nothing but a
    room's sockets (a benchmark's ``croupier-abuse-…`` work folder, its database inside, was removed mid-run)."""
    work = tmp_path / "croupier-abuse-xmmv8egc"  # another name shape, with data in it
    (work / "data").mkdir(parents=True)
    (work / "data" / "croupier.sqlite3").write_bytes(b"hands")
    notes = _dead_room(tmp_path, "croupier-notes123")  # a room's name shape, with something else in it
    (notes / "notes.txt").write_text("mine")
    for folder in (work, notes):
        os.utime(folder, (OLD, OLD))
    assert remove_stale_folders(tmp_path) == []
    assert (work / "data" / "croupier.sqlite3").read_bytes() == b"hands" and (notes / "notes.txt").exists()
