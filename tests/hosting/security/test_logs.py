"""Issue 13 items 10 and 2 (host tools): every log rotates, is private, and holds no escape sequence.

``tui.log`` (written by every served TUI) grew without end with each notice a flood caused; ``host.log`` and
``tui.log`` quoted players' words raw, so a host reading them in a terminal got their escape sequences.
"""

from __future__ import annotations

import logging
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from hosting.logging_setup import LOG_BACKUPS, LOG_MAX_BYTES, setup_logging
from tests.hosting.security.wire_room import EVIL, EVIL_CLEAN, assert_clean
from tests.tui.recorded import ReplayConnection
from tui.app import CroupierApp


@pytest.fixture
def restored_logging() -> Iterator[None]:
    root, tui = logging.getLogger(), logging.getLogger("croupier.tui")
    saved = (list(root.handlers), root.level, list(tui.handlers), tui.level, tui.propagate)
    yield
    for logger in (root, tui):
        for handler in list(logger.handlers):
            logger.removeHandler(handler)
            handler.close()
    for handler in saved[0]:
        root.addHandler(handler)
    for handler in saved[2]:
        tui.addHandler(handler)
    root.setLevel(saved[1])
    tui.setLevel(saved[3])
    tui.propagate = saved[4]


def _files(folder: Path, name: str) -> list[Path]:
    return sorted(path for path in folder.iterdir() if path.name.startswith(name))


@pytest.mark.usefixtures("restored_logging")
def test_the_served_tuis_log_rotates_private_and_clean(tmp_path: Path) -> None:
    async def connect() -> ReplayConnection:
        return ReplayConnection([])

    CroupierApp(connect, log_path=tmp_path / "tui.log")  # what every served TUI does with the room's tui.log
    log = logging.getLogger("croupier.tui")
    line = "notice: lobby chat " + EVIL + " " + "x" * 200
    for _ in range(4 * LOG_MAX_BYTES // 200):  # a chat flood's notices: four times the size of one file
        log.info(line)
    files = _files(tmp_path, "tui.log")
    assert [path.name for path in files] == ["tui.log"] + [f"tui.log.{n}" for n in range(1, LOG_BACKUPS + 1)]
    for path in files:
        assert path.stat().st_size <= LOG_MAX_BYTES
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        text = path.read_text()
        assert_clean(text.replace("\n", " "), path.name)
        assert EVIL_CLEAN in text


@pytest.mark.usefixtures("restored_logging")
def test_the_host_log_is_private_and_quotes_players_without_their_escape_sequences(tmp_path: Path) -> None:
    path = setup_logging(tmp_path, "host", "info")
    logging.getLogger("hosting.room").warning("chat from %s: %s", "mallory", EVIL)
    try:
        raise ValueError(EVIL)
    except ValueError:
        logging.getLogger("hosting.server").exception("a traceback quoting %s", EVIL)
    text = path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert f"chat from mallory: {EVIL_CLEAN}" in text and "Traceback (most recent call last):\n" in text
    assert_clean(text.replace("\n", " "), "host.log")
