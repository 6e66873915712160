"""The room's data directory: host key, room id, accounts (and later the SQLite store).

Default location: the user data directory from ``platformdirs`` (``~/.local/share/croupier`` on Linux) when
it is installed, else ``~/.local/share/croupier``.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

import asyncssh

HOST_KEY_FILE = "ssh_host_ed25519_key"
ROOM_FILE = "room.json"
ACCOUNTS_FILE = "accounts.json"


def default_data_dir() -> Path:
    try:
        import platformdirs
    except ImportError:  # pragma: no cover - platformdirs comes with textual
        return Path.home() / ".local" / "share" / "croupier"
    return Path(platformdirs.user_data_dir("croupier", appauthor=False))


def prepare(data_dir: Path) -> Path:
    """Create the directory (private to the user) and return it."""
    data_dir.mkdir(parents=True, exist_ok=True)
    os.chmod(data_dir, 0o700)
    return data_dir


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
    path.write_text(json.dumps({"room_id": value}) + "\n", encoding="utf-8")
    return value
