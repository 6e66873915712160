"""Host-side logging: one file per command in the data directory, with levels; nothing on a player's screen.

``setup_logging(data_dir, "host", "info")`` sends every ``logging`` record of this process at that level or
above to ``<data_dir>/host.log`` (rotated at 1 MiB, 3 old files kept) and nowhere else, so a traceback inside
the room ends up in the file, never in a player's terminal. Levels: debug, info, warning, error.

Every log file (``host.log``, the served TUIs' ``tui.log``, ``join.log``…) comes from :func:`log_file_handler`:
rotated, private to the user (0600: it names players, keys and addresses), and cleaned of escape sequences
(:func:`engine.text.clean_text`: a name or a chat line quoted in a record must not drive the terminal of a
host who reads the log with ``tail`` or ``less -R``).
"""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
import os
from pathlib import Path
from typing import Any

from engine.text import clean_text

LEVELS = ("debug", "info", "warning", "error")
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LOG_MAX_BYTES = 1 << 20
LOG_BACKUPS = 3


class CleanFormatter(logging.Formatter):
    """A formatter whose output holds no escape sequence or control character (newlines of tracebacks kept)."""

    def format(self, record: logging.LogRecord) -> str:
        return clean_text(super().format(record), keep_newlines=True)


def _private(path: str, flags: int) -> int:
    return os.open(path, flags, 0o600)


class PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log whose files are created 0600 whatever the umask."""

    def _open(self) -> Any:  # a text file (typeshed names a private type)
        return open(self.baseFilename, self.mode, encoding=self.encoding, errors=self.errors, opener=_private)


def log_file_handler(path: Path, max_bytes: int = LOG_MAX_BYTES, backups: int = LOG_BACKUPS) -> logging.Handler:
    """The handler for one log file: rotated at ``max_bytes`` with ``backups`` old files, 0600, cleaned."""
    handler = PrivateRotatingFileHandler(path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8")
    with contextlib.suppress(OSError):  # a log from an older croupier: private now
        os.chmod(path, 0o600)
    handler.setFormatter(CleanFormatter(FORMAT))
    return handler


def level_from(text: str | None) -> int:
    """``"info"`` → ``logging.INFO``; ``None`` reads ``CROUPIER_LOG_LEVEL`` (default info), in any case.

    Raises ``ValueError`` with one line naming the source and the allowed values.

    >>> level_from("debug") == logging.DEBUG
    True
    >>> level_from("loud")
    Traceback (most recent call last):
    ...
    ValueError: --log-level 'loud' is not a log level; use one of debug, info, warning, error
    """
    source = "--log-level"
    if text is None:
        text = os.environ.get("CROUPIER_LOG_LEVEL") or "info"
        source = "CROUPIER_LOG_LEVEL"
    name = text.strip().lower()
    if name not in LEVELS:
        raise ValueError(f"{source} {text!r} is not a log level; use one of {', '.join(LEVELS)}")
    return int(getattr(logging, name.upper()))


def setup_logging(data_dir: Path, name: str, level: str | None = None) -> Path:
    """Log to ``<data_dir>/<name>.log`` at ``level``; returns the path. Replaces the root logger's handlers."""
    path = data_dir / f"{name}.log"
    handler = log_file_handler(path)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level_from(level))
    logging.getLogger("asyncssh").setLevel(max(root.level, logging.WARNING))  # asyncssh is chatty at info
    return path
