"""Host-side logging: one file per command in the data directory, with levels; nothing on a player's screen.

``setup_logging(data_dir, "host", "info")`` sends every ``logging`` record of this process at that level or
above to ``<data_dir>/host.log`` (rotated at 1 MiB, 3 old files kept) and nowhere else, so a traceback inside
the room ends up in the file, never in a player's terminal. Levels: debug, info, warning, error.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path

LEVELS = ("debug", "info", "warning", "error")
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


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
    handler = logging.handlers.RotatingFileHandler(path, maxBytes=1 << 20, backupCount=3, encoding="utf-8")
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level_from(level))
    logging.getLogger("asyncssh").setLevel(max(root.level, logging.WARNING))  # asyncssh is chatty at info
    return path
