"""The room's data directory: host key, room id, accounts (and later the SQLite store).

Default location: the user data directory from ``platformdirs`` (``~/.local/share/croupier`` on Linux) when
it is installed, else ``~/.local/share/croupier``.

One process at a time writes a data directory: ``croupier host`` (and ``croupier play`` for its practice
folder) take :func:`claim` for their whole life, so a second room on the same files cannot move chips that the
first still has at its tables. The readers (audit, export, reports) do not claim it: they read while a host runs.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import stat
from pathlib import Path

import asyncssh

HOST_KEY_FILE = "ssh_host_ed25519_key"
ROOM_FILE = "room.json"
ACCOUNTS_FILE = "accounts.json"
LOCK_FILE = "croupier.lock"


def default_data_dir() -> Path:
    try:
        import platformdirs
    except ImportError:  # pragma: no cover - platformdirs comes with textual
        return Path.home() / ".local" / "share" / "croupier"
    return Path(platformdirs.user_data_dir("croupier", appauthor=False))


PRIVATE_FILES = ("croupier.sqlite3", "croupier.sqlite3-wal", "croupier.sqlite3-shm", ROOM_FILE, ACCOUNTS_FILE,
                 LOCK_FILE, HOST_KEY_FILE)
"""Files of a data directory only its user may read: everyone's hole cards, chat and keys, the host's key."""


class SharedDirectory(PermissionError):
    """``--data`` names a directory other users can reach: refused, never chmodded behind their back."""


def prepare(data_dir: Path) -> Path:
    """Create the directory (0700) and return it; an existing one must be the user's own and closed to others.

    Raises :class:`SharedDirectory` (one line: what is wrong, what to do) for a directory owned by another user
    or open to group or others (mode bits 077: they could read the database or plant files in it); its mode is
    not touched. Files an older croupier left readable by others (the database, logs, ``room.json``) are made
    0600.
    """
    if not data_dir.exists():
        data_dir.mkdir(parents=True, mode=0o700)
        os.chmod(data_dir, 0o700)  # mkdir's mode passes through the umask; this one is exact
        return data_dir
    info = data_dir.stat()
    if info.st_uid != os.getuid():
        raise SharedDirectory(f"{data_dir} belongs to another user: use a data directory of your own (--data DIR)")
    if info.st_mode & 0o077:
        raise SharedDirectory(f"{data_dir} is open to other users (mode {stat.S_IMODE(info.st_mode):04o}): use a "
                              f"private data directory (--data DIR), or `chmod 700 {data_dir}` if it is yours alone")
    make_private(data_dir)
    return data_dir


def make_private(data_dir: Path) -> None:
    """Make the data directory's files (:data:`PRIVATE_FILES`, logs and their rotations) 0600 when they are ours."""
    names = set(PRIVATE_FILES)
    for path in data_dir.iterdir():
        if path.name in names or ".log" in path.name:
            with contextlib.suppress(OSError):
                info = path.lstat()
                if stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid() and info.st_mode & 0o077:
                    os.chmod(path, 0o600)


def host_key(data_dir: Path) -> asyncssh.SSHKey:
    """The room's Ed25519 host key, created on first run and kept (mode 600) so clients can pin it."""
    path = data_dir / HOST_KEY_FILE
    if path.exists():
        return asyncssh.read_private_key(str(path))
    key = asyncssh.generate_private_key("ssh-ed25519", comment="croupier host key")
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(key.export_private_key())
    (data_dir / (HOST_KEY_FILE + ".pub")).write_bytes(key.export_public_key())
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    """``SHA256:…``, as ``ssh`` shows it when it first meets the host."""
    return str(key.get_fingerprint("sha256"))


def room_id(data_dir: Path) -> str:
    """A random id drawn on first run and kept: it is bound into every fairness commitment of this room."""
    path = data_dir / ROOM_FILE
    if path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
        return str(data["room_id"])
    value = secrets.token_hex(8)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(json.dumps({"room_id": value}) + "\n")
    return value


class DataDirInUse(Exception):
    """Another live process holds :func:`claim` on this directory; ``pid`` is its process id (None: unknown).

    The message is one line for the person at the terminal, without the command name.
    """

    def __init__(self, data_dir: Path, pid: int | None) -> None:
        self.data_dir = data_dir
        self.pid = pid
        who = f"another croupier (pid {pid})" if pid is not None else "another croupier"
        super().__init__(f"{who} is using {data_dir}; stop it or use --data DIR")


_claims: dict[Path, int] = {}  # directory → the open lock file's descriptor, kept open for the process's life


def claim(data_dir: Path) -> None:
    """Take the directory for this process (``fcntl.flock`` on ``<data_dir>/croupier.lock``) until it exits.

    The lock file holds the owner's pid so the refusal can name it. The kernel drops the lock when the process
    ends in any way (crash and ``kill -9`` included), so a stale lock file never blocks a restart. Claiming a
    directory this process already holds does nothing. Raises :class:`DataDirInUse` when another process
    holds it, ``OSError`` when the lock file cannot be opened.
    """
    key = data_dir.resolve()
    if key in _claims:
        return
    descriptor = os.open(data_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)  # not inherited by exec'd children
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = _pid_in(descriptor)
        os.close(descriptor)
        raise DataDirInUse(data_dir, pid) from None
    except BaseException:
        os.close(descriptor)
        raise
    os.ftruncate(descriptor, 0)
    os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
    _claims[key] = descriptor


def release(data_dir: Path) -> None:
    """Give the directory back before the process ends (tests; the exit releases it anyway)."""
    descriptor = _claims.pop(data_dir.resolve(), None)
    if descriptor is not None:
        os.close(descriptor)  # closing the only descriptor of the open file drops the flock


def _pid_in(descriptor: int) -> int | None:
    text = os.pread(descriptor, 32, 0).decode("ascii", errors="replace").strip()
    return int(text) if text.isdigit() else None  # empty while the owner is between its lock and its write
