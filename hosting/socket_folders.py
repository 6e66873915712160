"""The private ``croupier-XXXX`` folders of the rooms' local sockets, in the temporary directory.

A room listens for its served TUIs on ``<tmp>/croupier-XXXX/room.sock`` (:class:`hosting.pty_session.LocalGate`)
and removes the folder when it closes; a room killed (``kill -9``, a crash, a power cut) leaves it behind.
:func:`remove_stale_folders` runs when a room starts and removes those leftovers: only folders of this user,
only when nothing answers on their socket (a running room's folder is never touched, nor a brand-new one whose
room is still starting).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import socket
import stat
import tempfile
import time
from pathlib import Path

PREFIX = "croupier-"
SOCKET_NAME = "room.sock"
ROOM_FILES = frozenset({SOCKET_NAME, "zygote.sock"})
"""All a room puts in its folder: its socket and its TUI fork server's."""
ROOM_FOLDER = re.compile(r"croupier-[a-z0-9_]{8}")
"""The names ``tempfile.mkdtemp(prefix="croupier-")`` gives (:meth:`hosting.pty_session.LocalGate.start`)."""
STALE_AFTER_SECONDS = 60.0
"""A folder younger than this is left alone: its room may be between making it and listening in it."""

log = logging.getLogger(__name__)


def _answers(path: Path) -> bool:
    """Whether a process listens on the Unix socket ``path`` (unsure counts as yes: the folder is kept)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(1.0)
        try:
            probe.connect(str(path))
        except (FileNotFoundError, ConnectionRefusedError, NotADirectoryError):
            return False  # no socket, or one nobody listens on any more
        except OSError:
            return True  # e.g. a live room's backlog is full: keep it
    return True


def is_stale(folder: Path, now: float) -> bool:
    """``folder`` is ours, a real directory named as a room names it, holding nothing but a room's sockets,
    older than :data:`STALE_AFTER_SECONDS`, and its socket is dead."""
    if not ROOM_FOLDER.fullmatch(folder.name):
        return False  # e.g. someone's /tmp/croupier-notes: not made by a room
    try:
        info = folder.lstat()
    except OSError:
        return False
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        return False  # a symlink, a file, or another user's room: never ours to remove
    try:
        if any(entry.name not in ROOM_FILES for entry in folder.iterdir()):
            return False  # it holds something a room does not put there: not ours to remove
    except OSError:
        return False
    if now - info.st_mtime < STALE_AFTER_SECONDS:
        return False
    return not _answers(folder / SOCKET_NAME)


def remove_stale_folders(temporary: Path | None = None, now: float | None = None) -> list[Path]:
    """Remove the stale ``croupier-*`` folders (:func:`is_stale`) in ``temporary`` (default: the system's
    temporary directory); returns the folders removed."""
    base = Path(temporary) if temporary is not None else Path(tempfile.gettempdir())
    moment = time.time() if now is None else now
    removed: list[Path] = []
    try:
        candidates = sorted(base.glob(PREFIX + "*"))
    except OSError:
        return removed
    for folder in candidates:
        if is_stale(folder, moment):
            shutil.rmtree(folder, ignore_errors=True)  # rmtree removes links, never follows them
            if not folder.exists():
                removed.append(folder)
    if removed:
        log.info("removed %d stale socket folder(s) of stopped rooms in %s", len(removed), base)
    return removed
